"""Queries for recall: full-text (FTS5), vector KNN (sqlite-vec), bookmark matches, the
embedding queue and the per-turn recall counts. DDL lives in ``migrations.py``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from desktop_app.memory.core.models import Bookmark
from desktop_app.memory.store.base import StoreBase
from desktop_app.memory.store.pages import _bookmark

# Fixed table names (never user input) for the two turn-text indexes.
_TEXT_INDEXES = {"words": "messages_words", "trigram": "messages_fts"}
# sqlite-vec refuses k above this.
MAX_KNN = 4096


class RecallQueries(StoreBase):

    # -- full text -------------------------------------------------------------------------
    def fts_messages(self, session_id: int, match: str, *, limit: int, index: str = "words") -> list[tuple[int, float]]:
        """``(message_id, bm25 score)`` of the session's turns matching the FTS5 ``match``
        expression, best first (scores are positive: higher is better)."""
        table = _TEXT_INDEXES[index]
        rows = self.conn.execute(
            # CROSS JOIN keeps FTS5 as the outer loop: newer SQLite planners (3.51, SQLCipher's)
            # otherwise walk the session's messages and run the FTS query once per row (seconds).
            f"""SELECT f.rowid, -bm25({table}) AS score FROM {table} f
                CROSS JOIN messages m ON m.id = f.rowid
                WHERE {table} MATCH :match AND m.session_id = :sid AND m.role != 'system'
                ORDER BY score DESC LIMIT :limit""",
            {"match": match, "sid": session_id, "limit": limit},
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def term_message_count(self, session_id: int, match: str, *, cap: int, index: str = "words",
                           after_id: int = 0) -> int:
        """How many of the session's turns (with an id above ``after_id``) match ``match``;
        counting stops at ``cap``. The id bound is applied inside FTS5, which then reads only
        the tail of each term's list."""
        table = _TEXT_INDEXES[index]
        row = self.conn.execute(
            # CROSS JOIN keeps FTS5 as the outer loop (with the rowid bound, the planner would
            # otherwise walk the session's messages and probe the index once per row).
            f"""SELECT count(*) FROM (SELECT 1 FROM {table} f CROSS JOIN messages m ON m.id = f.rowid
                 WHERE {table} MATCH :match AND f.rowid > :after AND m.session_id = :sid LIMIT :cap)""",
            {"match": match, "sid": session_id, "cap": cap, "after": after_id}).fetchone()
        return int(row[0])

    def nth_newest_message_id(self, session_id: int, n: int) -> int:
        """The id of the session's ``n``-th newest message (0 when it has fewer)."""
        row = self.conn.execute(
            "SELECT id FROM messages WHERE session_id = :sid ORDER BY id DESC LIMIT 1 OFFSET :n",
            {"sid": session_id, "n": n}).fetchone()
        return int(row[0]) if row else 0

    def session_message_count(self, session_id: int) -> int:
        """How many messages the session holds (kept by triggers: no count over its rows)."""
        row = self.conn.execute("SELECT message_count FROM sessions WHERE id = :sid", {"sid": session_id}).fetchone()
        return int(row[0]) if row else 0

    def substring_messages(self, session_id: int, needle: str, *, limit: int) -> list[tuple[int, float]]:
        """Turns containing ``needle`` (case-insensitive), newest first, scored by occurrences.

        The fallback for queries under three characters, which the trigram index cannot
        match (a Chinese word is often one or two characters)."""
        return self.substring_messages_each(session_id, [needle], limit=limit)[needle]

    def substring_messages_each(self, session_id: int, needles: Sequence[str], *, limit: int,
                                window: int | None = None) -> dict[str, list[tuple[int, float]]]:
        """:meth:`substring_messages` for several needles in one pass over the session's turns
        (only the newest ``window`` of them when given: a scan reads every row it covers)."""
        needles = list(dict.fromkeys(needles))
        if not needles:
            return {}
        # Placeholders only (no values) go into the SQL text; CJK needles skip lower(), which
        # costs as much as the scan itself on a long session.
        params: dict[str, object] = {"sid": session_id, "cap": limit * len(needles),
                                     "window": 2**62 if window is None else window}
        tests = []
        for i, needle in enumerate(needles):
            params[f"n{i}"] = needle.lower()
            tests.append(f"instr(lower(content), :n{i}) > 0" if needle.lower() != needle.upper()
                         else f"instr(content, :n{i}) > 0")
        rows = self.conn.execute(
            f"""SELECT id, content FROM messages WHERE session_id = :sid AND role != 'system'
                  AND id > coalesce((SELECT id FROM messages WHERE session_id = :sid ORDER BY id DESC
                                     LIMIT 1 OFFSET :window), 0)
                  AND ({" OR ".join(tests)}) ORDER BY id DESC LIMIT :cap""", params).fetchall()
        out: dict[str, list[tuple[int, float]]] = {needle: [] for needle in needles}
        for row in rows:
            text = row[1].lower()
            for needle in needles:
                hits = text.count(needle.lower())
                if hits and len(out[needle]) < limit:
                    out[needle].append((int(row[0]), float(hits)))
        return out

    # -- vectors ---------------------------------------------------------------------------
    def vector_tables_exist(self) -> bool:
        row = self.conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('recall_vec', 'recall_vec_bits')").fetchone()
        return bool(row[0] == 2)

    def reset_vector_tables(self, dim: int, *, drop: bool = True) -> None:
        """(Re)create the vector tables for ``dim`` dimensions; ``drop`` empties them."""
        from desktop_app.memory.store.migrations import ensure_vector_tables

        with self.transaction():
            ensure_vector_tables(self.conn, dim, drop=drop)

    def knn_messages(self, session_id: int, vector: bytes, *, k: int) -> list[tuple[int, float]]:
        """Exact float KNN: ``(message_id, cosine distance)``, nearest first."""
        rows = self.conn.execute(
            """SELECT message_id, distance FROM recall_vec
               WHERE embedding MATCH :v AND k = :k AND session_id = :sid ORDER BY distance""",
            {"v": vector, "k": min(k, MAX_KNN), "sid": session_id},
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def knn_messages_binary(self, session_id: int, vector: bytes, *, k: int) -> list[tuple[int, float]]:
        """Coarse KNN over the binary-quantised vectors: ``(message_id, Hamming distance)``."""
        rows = self.conn.execute(
            """SELECT message_id, distance FROM recall_vec_bits
               WHERE embedding MATCH vec_quantize_binary(:v) AND k = :k AND session_id = :sid ORDER BY distance""",
            {"v": vector, "k": min(k, MAX_KNN), "sid": session_id},
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def message_vectors(self, message_ids: Iterable[int]) -> dict[int, bytes]:
        """The float16 copies of the vectors of ``message_ids`` (a plain table: look-ups in
        vec0's chunked storage cost ~0.1 ms each, here a few microseconds)."""
        ids = json.dumps([int(i) for i in message_ids])
        rows = self.conn.execute(
            """SELECT message_id, embedding FROM recall_embedded
               WHERE message_id IN (SELECT value FROM json_each(:ids)) AND embedding IS NOT NULL""",
            {"ids": ids}).fetchall()
        return {int(r[0]): r[1] for r in rows}

    def pending_embeddings(self, *, limit: int, session_id: int | None = None) -> list[dict[str, Any]]:
        """Turns that have no vector yet, oldest first (``id``, ``session_id``, ``content``,
        ``created_at``)."""
        rows = self.conn.execute(
            """SELECT m.id, m.session_id, m.content, m.created_at FROM messages m
               LEFT JOIN recall_embedded e ON e.message_id = m.id
               WHERE e.message_id IS NULL AND m.role != 'system'
                 AND (:sid IS NULL OR m.session_id = :sid)
               ORDER BY m.id LIMIT :limit""",
            {"limit": limit, "sid": session_id},
        ).fetchall()
        return [dict(r) for r in rows]

    def count_pending_embeddings(self) -> int:
        row = self.conn.execute(
            """SELECT count(*) FROM messages m LEFT JOIN recall_embedded e ON e.message_id = m.id
               WHERE e.message_id IS NULL AND m.role != 'system'""").fetchone()
        return int(row[0])

    def save_embeddings(self, rows: Sequence[tuple[int, int, bytes]]) -> int:
        """Store ``(message_id, session_id, float32 bytes)`` rows in one transaction (float in
        vec0, bits in vec0, a float16 copy for re-scoring); turns deleted meanwhile, and turns
        another process embedded meanwhile (two imports racing on the same pending turns), are
        skipped. Returns how many were stored."""
        stored = 0
        with self.transaction():  # BEGIN IMMEDIATE: the check and the insert see the same state
            for message_id, session_id, vector in rows:
                wanted = self.conn.execute(
                    """SELECT 1 FROM messages m WHERE m.id = :id
                         AND NOT EXISTS (SELECT 1 FROM recall_embedded e WHERE e.message_id = m.id)""",
                    {"id": message_id}).fetchone()
                if wanted is None:
                    continue
                half = np.frombuffer(vector, dtype=np.float32).astype(np.float16).tobytes()
                params = {"id": message_id, "sid": session_id, "v": vector, "half": half}
                self.conn.execute("INSERT INTO recall_vec (message_id, session_id, embedding) VALUES (:id, :sid, :v)",
                                  params)
                self.conn.execute("""INSERT INTO recall_vec_bits (message_id, session_id, embedding)
                                     VALUES (:id, :sid, vec_quantize_binary(:v))""", params)
                self.conn.execute("INSERT INTO recall_embedded (message_id, session_id, embedding) "
                                  "VALUES (:id, :sid, :half)", params)
                stored += 1
        return stored

    def recall_meta(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM recall_meta").fetchall()}

    def set_recall_meta(self, **values: str) -> None:
        with self.transaction():
            for key, value in values.items():
                self.conn.execute(
                    "INSERT INTO recall_meta (key, value) VALUES (:k, :v) ON CONFLICT(key) DO UPDATE SET value = :v",
                    {"k": key, "v": str(value)})

    # -- bookmarks -------------------------------------------------------------------------
    def bookmark_matches(self, session_id: int, match: str, *, limit: int) -> list[tuple[Bookmark, float]]:
        """Bookmarks whose keywords/description match the FTS5 ``match``, best first."""
        rows = self.conn.execute(
            """SELECT b.*, -bm25(bookmarks_fts) AS score FROM bookmarks_fts f CROSS JOIN bookmarks b ON b.id = f.rowid
               WHERE bookmarks_fts MATCH :match AND b.session_id = :sid ORDER BY score DESC LIMIT :limit""",
            {"match": match, "sid": session_id, "limit": limit},
        ).fetchall()
        # A sqlite Row iterates its values, so the keys come from keys().
        return [(_bookmark({k: r[k] for k in r.keys() if k != "score"}), float(r["score"])) for r in rows]  # noqa: SIM118

    def bookmark_substring(self, session_id: int, needle: str, *, limit: int) -> list[tuple[Bookmark, float]]:
        """Bookmarks containing ``needle`` in keywords or description (short queries)."""
        rows = self.conn.execute(
            """SELECT * FROM bookmarks WHERE session_id = :sid
                 AND instr(lower(keywords || ' ' || description), lower(:needle)) > 0
               ORDER BY id DESC LIMIT :limit""",
            {"needle": needle, "sid": session_id, "limit": limit},
        ).fetchall()
        return [(_bookmark(r), 1.0) for r in rows]

    def find_bookmark(self, bookmark_id: int) -> Bookmark | None:
        row = self.conn.execute("SELECT * FROM bookmarks WHERE id = :id", {"id": bookmark_id}).fetchone()
        return _bookmark(row) if row else None

    def edit_bookmark(self, bookmark_id: int, *, keywords: list[str] | None = None,
                      description: str | None = None) -> Bookmark:
        """Change a bookmark's keywords and/or description (an edited bookmark becomes the user's)."""
        with self.transaction():
            if keywords is not None:
                self.conn.execute("UPDATE bookmarks SET keywords = :kw, origin = 'user' WHERE id = :id",
                                  {"kw": json.dumps(keywords, ensure_ascii=False), "id": bookmark_id})
            if description is not None:
                self.conn.execute("UPDATE bookmarks SET description = :d, origin = 'user' WHERE id = :id",
                                  {"d": description, "id": bookmark_id})
        found = self.find_bookmark(bookmark_id)
        if found is None:
            raise LookupError(f"no bookmark with id {bookmark_id}")
        return found

    def remove_bookmark(self, bookmark_id: int) -> bool:
        cur = self.conn.execute("DELETE FROM bookmarks WHERE id = :id", {"id": bookmark_id})
        return cur.rowcount > 0

    # -- hits ------------------------------------------------------------------------------
    def recall_rows(self, message_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """Message rows for hits, with their ``turn`` number."""
        ids = json.dumps(sorted(set(int(i) for i in message_ids)))
        rows = self.conn.execute(
            """SELECT id, session_id, ext_id, role, content, created_at, page_id, max(1, turn) AS turn
               FROM messages WHERE id IN (SELECT value FROM json_each(:ids))""", {"ids": ids}).fetchall()
        return {int(r["id"]): dict(r) for r in rows}

    def page_message_texts(self, page_ids: Iterable[int]) -> dict[int, list[tuple[int, str]]]:
        """``{page_id: [(id, content), …]}`` of the pages' messages in order, in one query."""
        ids = json.dumps([int(i) for i in dict.fromkeys(page_ids)])
        rows = self.conn.execute(
            """SELECT m.page_id, m.id, m.content FROM messages m
               WHERE m.page_id IN (SELECT value FROM json_each(:ids)) AND m.role != 'system' ORDER BY m.id""",
            {"ids": ids}).fetchall()
        out: dict[int, list[tuple[int, str]]] = {}
        for row in rows:
            out.setdefault(int(row["page_id"]), []).append((int(row["id"]), row["content"]))
        return out

    def adjacent_messages(self, session_id: int, message_ids: Iterable[int], *,
                          span: int = 2) -> dict[int, dict[int, int]]:
        """For each id, ``{offset: id}`` of the messages up to ``span`` before (negative offsets)
        and after it in the same session — one statement for all ids."""
        ids = json.dumps(sorted({int(i) for i in message_ids}))
        rows = self.conn.execute(
            """SELECT w.value AS id,
                      (SELECT group_concat(b.id) FROM (SELECT id FROM messages WHERE session_id = :sid
                          AND id < w.value AND role != 'system' ORDER BY id DESC LIMIT :span) AS b) AS before,
                      (SELECT group_concat(a.id) FROM (SELECT id FROM messages WHERE session_id = :sid
                          AND id > w.value AND role != 'system' ORDER BY id LIMIT :span) AS a) AS after
               FROM json_each(:ids) AS w""",
            {"sid": session_id, "ids": ids, "span": span}).fetchall()
        out: dict[int, dict[int, int]] = {}
        for row in rows:
            before = sorted((int(x) for x in (row["before"] or "").split(",") if x), reverse=True)
            after = sorted(int(x) for x in (row["after"] or "").split(",") if x)
            adjacent = {-(i + 1): mid for i, mid in enumerate(before)}
            adjacent.update({i + 1: mid for i, mid in enumerate(after)})
            out[int(row["id"])] = adjacent
        return out

    def candidate_rows(self, message_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """``created_at`` and ``content`` of candidate turns (for date and "when" boosts)."""
        ids = json.dumps(sorted(set(int(i) for i in message_ids)))
        rows = self.conn.execute(
            "SELECT id, created_at, content FROM messages WHERE id IN (SELECT value FROM json_each(:ids))",
            {"ids": ids}).fetchall()
        return {int(r[0]): {"created_at": r[1], "content": r[2]} for r in rows}

    def reference_counts(self, message_ids: Iterable[int]) -> dict[int, int]:
        ids = json.dumps(sorted(set(int(i) for i in message_ids)))
        rows = self.conn.execute(
            "SELECT message_id, count FROM recall_refs WHERE message_id IN (SELECT value FROM json_each(:ids))",
            {"ids": ids}).fetchall()
        return {int(r[0]): int(r[1]) for r in rows}

    def note_recalled(self, message_ids: Iterable[int], now: float) -> None:
        """Count that these turns entered a prompt (the 'reference frequency' of the score)."""
        ids = json.dumps(sorted({int(i) for i in message_ids}))
        self.conn.execute(
            """INSERT INTO recall_refs (message_id, count, last_recalled_at)
               SELECT value, 1, :now FROM json_each(:ids) WHERE true
               ON CONFLICT(message_id) DO UPDATE SET count = count + 1, last_recalled_at = :now""",
            {"ids": ids, "now": now})
