"""Search across all sessions, behind the UI's search screen and forgetting (``forget.py``).

Search uses the FTS5 trigram index (``messages_fts``), so Chinese phrases of three or more
characters match without a segmenter; shorter terms fall back to a substring scan.
"""

from __future__ import annotations

import re

from desktop_app.memory.core.models import SearchHit
from desktop_app.memory.store.base import StoreBase


def fts_phrase(term: str) -> str:
    """An FTS5 string literal for ``term`` (quotes doubled), matched as a phrase."""
    return '"' + term.replace('"', '""') + '"'


def search_terms(query: str) -> list[str]:
    return [w for w in re.split(r"\s+", query.strip()) if w]


class BrowseQueries(StoreBase):

    # -- search ----------------------------------------------------------------------------
    def search_messages(self, query: str, *, limit: int = 50, session_id: int | None = None) -> list[SearchHit]:
        """Turns of every session (or one) containing all words of ``query``, best first."""
        terms = search_terms(query)
        if not terms:
            return []
        params: dict[str, object] = {"limit": limit, "sid": session_id}
        if all(len(term) >= 3 for term in terms):
            params["match"] = " AND ".join(fts_phrase(term) for term in terms)
            sql = """SELECT m.*, s.name AS session_name FROM messages_fts f
                     CROSS JOIN messages m ON m.id = f.rowid JOIN sessions s ON s.id = m.session_id
                     WHERE messages_fts MATCH :match AND (:sid IS NULL OR m.session_id = :sid)
                     ORDER BY bm25(messages_fts), m.id DESC LIMIT :limit"""
        else:
            clauses = []
            for index, term in enumerate(terms):
                params[f"t{index}"] = term
                clauses.append(f"instr(lower(m.content), lower(:t{index})) > 0")
            sql = f"""SELECT m.*, s.name AS session_name FROM messages m JOIN sessions s ON s.id = m.session_id
                      WHERE {' AND '.join(clauses)} AND (:sid IS NULL OR m.session_id = :sid)
                      ORDER BY m.id DESC LIMIT :limit"""
        rows = self.conn.execute(sql, params).fetchall()
        return [SearchHit(message_id=r["id"], session_id=r["session_id"], session_name=r["session_name"],
                          role=r["role"], content=r["content"], created_at=r["created_at"]) for r in rows]
