"""Queries for paging decisions made ahead of a page-out, and for the summary chain (stages)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from desktop_app.memory.core.models import Bookmark, Message, PagingAdvice, Stage
from desktop_app.memory.store.base import StoreBase
from desktop_app.memory.store.pages import _bookmark
from desktop_app.memory.store.sessions import _message

KEPT_ONCE = "kept at one page-out already"


class ChainQueries(StoreBase):

    # -- paging decisions ------------------------------------------------------------------
    def save_paging_advice(self, session_id: int, advice: Iterable[PagingAdvice]) -> None:
        """Store (or replace) the decision for each exchange, keyed by its user message."""
        advice = list(advice)
        if not advice:
            return
        self.conn.executemany(
            """INSERT INTO paging_advice (message_id, session_id, decision, origin, reason, input_message_id, created_at)
               VALUES (:message_id, :sid, :decision, :origin, :reason, :input_message_id, :created_at)
               ON CONFLICT(message_id) DO UPDATE SET decision = excluded.decision, origin = excluded.origin,
                   reason = excluded.reason, input_message_id = excluded.input_message_id,
                   created_at = excluded.created_at""",
            [{**a.model_dump(), "sid": session_id} for a in advice])

    def paging_advice(self, session_id: int) -> dict[int, PagingAdvice]:
        """``{user message id: advice}`` for the session."""
        rows = self.conn.execute(
            """SELECT message_id, decision, origin, reason, input_message_id, created_at FROM paging_advice
               WHERE session_id = :sid""", {"sid": session_id}).fetchall()
        return {int(r["message_id"]): PagingAdvice(**dict(r)) for r in rows}

    def paging_marks(self, session_id: int) -> tuple[dict[int, str], set[int]]:
        """What a page-out must know, in one query: ``{user message id: mark}`` where the mark is
        ``held`` (its memory is not settled: waiting in the model pass's backlog, or the source
        of an item waiting for the user's confirmation), ``spent`` (it stayed at a page-out
        already: it leaves at this one), else the model's stored decision (keep/evict); and the
        ids that have a stored decision at all (held or not)."""
        rows = self.conn.execute(
            """SELECT message_id, 'held', '' FROM memory_backlog WHERE session_id = :sid
               UNION ALL SELECT source_message_id, 'held', '' FROM memory_items
                WHERE session_id = :sid AND status = 'pending' AND source_message_id IS NOT NULL
               UNION ALL SELECT message_id, decision, reason FROM paging_advice WHERE session_id = :sid""",
            {"sid": session_id}).fetchall()
        marks: dict[int, str] = {}
        advised: set[int] = set()
        spent: set[int] = set()  # held or kept at a page-out already: it leaves at the next one
        for message_id, mark, reason in rows:
            message_id = int(message_id)
            if mark != "held":
                advised.add(message_id)
            if reason == KEPT_ONCE:
                spent.add(message_id)
            if marks.get(message_id) != "held":
                marks[message_id] = mark
        for message_id in spent:
            marks[message_id] = "spent"
        return marks, advised

    def settle_paging_advice(self, session_id: int, left: Iterable[int], kept: Iterable[int], *,
                             now: float) -> None:
        """After a page-out: the decisions of exchanges that left are spent, and a keep — or a
        hold — lasts one page-out only (the exchange then leaves like any other)."""
        left, kept = [int(m) for m in left], [int(m) for m in kept]
        if left:
            self.conn.execute("DELETE FROM paging_advice WHERE message_id IN (SELECT value FROM json_each(:ids))",
                              {"ids": json.dumps(left)})
        if kept:
            self.conn.execute(
                """INSERT INTO paging_advice (message_id, session_id, decision, origin, reason, created_at)
                   SELECT value, :sid, 'evict', 'rule', :reason, :now FROM json_each(:ids) WHERE true
                   ON CONFLICT(message_id) DO UPDATE SET decision = 'evict', origin = 'rule',
                       reason = excluded.reason, created_at = excluded.created_at""",
                {"ids": json.dumps(kept), "sid": session_id, "reason": KEPT_ONCE, "now": now})

    # -- the summary chain -------------------------------------------------------------------
    def add_stage(self, session_id: int, *, first_page_id: int, last_page_id: int, first_turn: int,
                  last_turn: int, text: str, author: str, now: float) -> Stage:
        row = self.conn.execute(
            """INSERT INTO stages (session_id, first_page_id, last_page_id, first_turn, last_turn, text, author,
                                   created_at)
               VALUES (:sid, :first, :last, :ft, :lt, :text, :author, :now) RETURNING *""",
            {"sid": session_id, "first": first_page_id, "last": last_page_id, "ft": first_turn, "lt": last_turn,
             "text": text, "author": author, "now": now}).fetchone()
        return Stage(**dict(row))

    def get_stage(self, stage_id: int) -> Stage | None:
        row = self.conn.execute("SELECT * FROM stages WHERE id = :id", {"id": stage_id}).fetchone()
        return Stage(**dict(row)) if row else None

    def rewrite_stage(self, stage_id: int, text: str, *, author: str) -> None:
        self.conn.execute("UPDATE stages SET text = :t, author = :a WHERE id = :id",
                          {"t": text, "a": author, "id": stage_id})

    def list_stages(self, session_id: int) -> list[Stage]:
        rows = self.conn.execute("SELECT * FROM stages WHERE session_id = :sid ORDER BY first_page_id",
                                 {"sid": session_id}).fetchall()
        return [Stage(**dict(r)) for r in rows]

    def delete_stages(self, session_id: int, *, from_page_id: int = 0) -> int:
        """Drop the session's stages that reach page ``from_page_id`` or later (all by default):
        their pages changed, and the next page-out (or :func:`~desktop_app.memory.archive.summary_chain.rebuild_chain`)
        writes them again."""
        return self.conn.execute("DELETE FROM stages WHERE session_id = :sid AND last_page_id >= :first",
                                 {"sid": session_id, "first": from_page_id}).rowcount

    def pages_after_stages(self, session_id: int) -> list[int]:
        """The ids of the session's pages no stage covers yet, oldest first."""
        rows = self.conn.execute(
            """SELECT id FROM pages WHERE session_id = :sid
                 AND id > coalesce((SELECT max(last_page_id) FROM stages WHERE session_id = :sid), 0)
               ORDER BY id""", {"sid": session_id}).fetchall()
        return [int(r[0]) for r in rows]

    def stage_turns(self, session_id: int, *, match: str | None = None, needle: str | None = None,
                    limit: int) -> dict[int, tuple[float, dict[int, list[tuple[int, str]]]]]:
        """The best ``limit`` stages for an FTS5 trigram ``match`` (BM25) or a substring
        ``needle``, each with the turns of its pages, in one statement:
        ``{stage id: (score, {page id: [(message id, content), …]})}``, best stage first."""
        if match is not None:
            hit = """SELECT s.id, s.first_page_id, s.last_page_id, -bm25(stages_fts) AS score
                       FROM stages_fts f CROSS JOIN stages s ON s.id = f.rowid
                      WHERE stages_fts MATCH :q AND s.session_id = :sid ORDER BY score DESC LIMIT :limit"""
        else:
            hit = """SELECT id, first_page_id, last_page_id, 1.0 AS score FROM stages
                      WHERE session_id = :sid AND instr(lower(text), lower(:q)) > 0 ORDER BY id DESC LIMIT :limit"""
        rows = self.conn.execute(
            f"""WITH hit AS ({hit})
                SELECT hit.id AS stage_id, hit.score, m.page_id, m.id, m.content FROM hit
                  JOIN pages p ON p.session_id = :sid AND p.id BETWEEN hit.first_page_id AND hit.last_page_id
                  JOIN messages m ON m.page_id = p.id
                 WHERE m.role != 'system' ORDER BY hit.score DESC, hit.id, m.id""",
            {"q": match if match is not None else needle, "sid": session_id, "limit": limit}).fetchall()
        out: dict[int, tuple[float, dict[int, list[tuple[int, str]]]]] = {}
        for row in rows:
            score, pages = out.setdefault(int(row["stage_id"]), (float(row["score"]), {}))
            pages.setdefault(int(row["page_id"]), []).append((int(row["id"]), row["content"]))
        return out

    def pages_between(self, session_id: int, first_page_id: int, last_page_id: int) -> list[int]:
        """The ids of a session's pages from ``first_page_id`` to ``last_page_id`` (a stage's pages)."""
        rows = self.conn.execute(
            "SELECT id FROM pages WHERE session_id = :sid AND id BETWEEN :first AND :last ORDER BY id",
            {"sid": session_id, "first": first_page_id, "last": last_page_id}).fetchall()
        return [int(r[0]) for r in rows]

    def pages_messages(self, page_ids: Iterable[int]) -> list[Message]:
        """The messages of several pages, oldest first, in one query."""
        rows = self.conn.execute(
            "SELECT * FROM messages WHERE page_id IN (SELECT value FROM json_each(:ids)) ORDER BY id",
            {"ids": json.dumps([int(i) for i in page_ids])}).fetchall()
        return [_message(r) for r in rows]

    def page_bookmarks(self, page_ids: Iterable[int]) -> list[Bookmark]:
        """The automatic bookmarks of the given pages, in page order."""
        ids = json.dumps(sorted({int(i) for i in page_ids}))
        rows = self.conn.execute(
            "SELECT * FROM bookmarks WHERE page_id IN (SELECT value FROM json_each(:ids)) ORDER BY page_id, id",
            {"ids": ids}).fetchall()
        return [_bookmark(r) for r in rows]
