"""Queries for pages, bookmarks, the rolling summary and the per-turn log."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from desktop_app.memory.core.head_fold import HeadFold
from desktop_app.memory.core.models import Bookmark, Message, Page, Summary, SummaryContent
from desktop_app.memory.core.records import MemoryWork, TurnLogEntry, TurnRecord
from desktop_app.memory.store.base import StoreBase, inserted_id
from desktop_app.memory.store.sessions import _message
from desktop_app.memory.store.sqlite_backend import Row


def _page(row: Row) -> Page:
    return Page(**dict(row))


def _bookmark(row: Row | Mapping[str, Any]) -> Bookmark:
    data = dict(row)
    data["keywords"] = json.loads(data["keywords"])
    return Bookmark(**data)


def _summary(row: Row) -> Summary:
    data = dict(row)
    data["content"] = SummaryContent.model_validate_json(data["content"])
    return Summary(**data)


class PageQueries(StoreBase):

    # -- pages -----------------------------------------------------------------------------
    def unpaged_messages(self, session_id: int) -> list[Message]:
        """Messages not yet archived into a page, oldest first (the 'recent' raw turns)."""
        rows = self.conn.execute(
            "SELECT * FROM messages WHERE session_id = :sid AND page_id IS NULL ORDER BY id", {"sid": session_id}
        ).fetchall()
        return [_message(r) for r in rows]

    def create_page(self, session_id: int, messages: list[Message], now: float) -> Page:
        """Archive ``messages`` (oldest first; contiguous but for exchanges a paging decision kept
        behind) as one page and link exactly them to it."""
        if not messages:
            raise ValueError("a page needs at least one message")
        with self.transaction():
            cur = self.conn.execute(
                """INSERT INTO pages (session_id, first_message_id, last_message_id, message_count, token_count,
                                      start_time, end_time, archived_at)
                   VALUES (:sid, :first, :last, :count, :tokens, :start, :end, :now)""",
                {"sid": session_id, "first": messages[0].id, "last": messages[-1].id, "count": len(messages),
                 "tokens": sum(m.token_count for m in messages), "start": messages[0].created_at,
                 "end": messages[-1].created_at, "now": now},
            )
            page_id = inserted_id(cur)
            self.conn.execute(
                """UPDATE messages SET page_id = :page
                   WHERE session_id = :sid AND id IN (SELECT value FROM json_each(:ids))""",
                {"page": page_id, "sid": session_id, "ids": json.dumps([m.id for m in messages])},
            )
        page = self.get_page(page_id)
        assert page is not None  # (inserted above)
        return page

    def get_page(self, page_id: int) -> Page | None:
        row = self.conn.execute("SELECT * FROM pages WHERE id = :id", {"id": page_id}).fetchone()
        return _page(row) if row else None

    def list_pages(self, session_id: int) -> list[Page]:
        rows = self.conn.execute(
            "SELECT * FROM pages WHERE session_id = :sid ORDER BY first_message_id", {"sid": session_id}
        ).fetchall()
        return [_page(r) for r in rows]

    def page_messages(self, page_id: int) -> list[Message]:
        rows = self.conn.execute(
            "SELECT * FROM messages WHERE page_id = :page ORDER BY id", {"page": page_id}
        ).fetchall()
        return [_message(r) for r in rows]

    # -- bookmarks -------------------------------------------------------------------------
    def add_bookmark(self, session_id: int, *, keywords: list[str], description: str, origin: str,
                     now: float, page_id: int | None = None, message_id: int | None = None) -> Bookmark:
        cur = self.conn.execute(
            """INSERT INTO bookmarks (session_id, page_id, message_id, keywords, description, origin, created_at)
               VALUES (:sid, :page, :msg, :kw, :desc, :origin, :now)""",
            {"sid": session_id, "page": page_id, "msg": message_id,
             "kw": json.dumps(keywords, ensure_ascii=False), "desc": description, "origin": origin, "now": now},
        )
        row = self.conn.execute("SELECT * FROM bookmarks WHERE id = :id", {"id": cur.lastrowid}).fetchone()
        return _bookmark(row)

    def get_bookmark(self, bookmark_id: int) -> Bookmark | None:
        row = self.conn.execute("SELECT * FROM bookmarks WHERE id = :id", {"id": bookmark_id}).fetchone()
        return _bookmark(row) if row else None

    def rewrite_bookmark(self, bookmark_id: int, *, keywords: list[str], description: str, author: str) -> None:
        """Replace an automatic bookmark's words (the model's pass); the full-text index follows."""
        self.conn.execute(
            "UPDATE bookmarks SET keywords = :kw, description = :desc, author = :author WHERE id = :id",
            {"kw": json.dumps(keywords, ensure_ascii=False), "desc": description, "author": author, "id": bookmark_id})

    def list_bookmarks(self, session_id: int) -> list[Bookmark]:
        rows = self.conn.execute(
            "SELECT * FROM bookmarks WHERE session_id = :sid ORDER BY id", {"sid": session_id}
        ).fetchall()
        return [_bookmark(r) for r in rows]

    def page_of_message(self, message_id: int) -> int | None:
        row = self.conn.execute("SELECT page_id FROM messages WHERE id = :id", {"id": message_id}).fetchone()
        return row[0] if row else None

    # -- summary ---------------------------------------------------------------------------
    def latest_summary(self, session_id: int) -> Summary | None:
        row = self.conn.execute(
            "SELECT * FROM summaries WHERE session_id = :sid ORDER BY version DESC LIMIT 1", {"sid": session_id}
        ).fetchone()
        return _summary(row) if row else None

    def save_summary(self, session_id: int, content: SummaryContent, through_message_id: int | None,
                     now: float) -> Summary:
        """Store the next version of the rolling summary (older versions are kept)."""
        with self.transaction():
            row = self.conn.execute(
                "SELECT coalesce(max(version), 0) FROM summaries WHERE session_id = :sid", {"sid": session_id}
            ).fetchone()
            cur = self.conn.execute(
                """INSERT INTO summaries (session_id, version, content, through_message_id, created_at)
                   VALUES (:sid, :version, :content, :through, :now)""",
                {"sid": session_id, "version": int(row[0]) + 1, "content": content.model_dump_json(),
                 "through": through_message_id, "now": now},
            )
        row = self.conn.execute("SELECT * FROM summaries WHERE id = :id", {"id": cur.lastrowid}).fetchone()
        return _summary(row)

    # -- the prompt head's folded memory ---------------------------------------------------
    def latest_fold(self, session_id: int) -> HeadFold | None:
        row = self.conn.execute("SELECT content FROM context_heads WHERE session_id = :sid",
                                {"sid": session_id}).fetchone()
        if row is None:
            return None
        try:
            return HeadFold.model_validate_json(row[0])
        except ValidationError:  # written by another version: the next message folds afresh
            return None

    def drop_fold(self, session_id: int) -> None:
        """Forget the folded head: the next message folds the memory as it is then."""
        self.conn.execute("DELETE FROM context_heads WHERE session_id = :sid", {"sid": session_id})

    def save_fold(self, session_id: int, head: HeadFold, now: float) -> None:
        """Replace the session's folded head (one row per session)."""
        self.conn.execute(
            """INSERT INTO context_heads (session_id, state_version, turn, reason, content, created_at)
               VALUES (:sid, :version, :turn, :reason, :content, :now)
               ON CONFLICT(session_id) DO UPDATE SET state_version = excluded.state_version, turn = excluded.turn,
                   reason = excluded.reason, content = excluded.content, created_at = excluded.created_at""",
            {"sid": session_id, "version": head.state_version, "turn": head.turn, "reason": head.reason,
             "content": head.model_dump_json(), "now": now})

    # -- turn log --------------------------------------------------------------------------
    def add_turn_log(self, session_id: int, *, user_message_id: int | None, reply_message_id: int | None,
                     record: TurnRecord, now: float) -> int:
        cur = self.conn.execute(
            """INSERT INTO turn_log (session_id, user_message_id, reply_message_id, mode, record, created_at)
               VALUES (:sid, :user, :reply, :mode, :record, :now)""",
            {"sid": session_id, "user": user_message_id, "reply": reply_message_id, "mode": record.mode,
             "record": record.model_dump_json(), "now": now},
        )
        return inserted_id(cur)

    def add_memory_work(self, user_message_id: int, work: dict[str, Any]) -> None:
        """Add the cost of model memory work to the record of the turn that asked for it."""
        row = self.conn.execute("SELECT id, record FROM turn_log WHERE user_message_id = :mid ORDER BY id DESC LIMIT 1",
                                {"mid": user_message_id}).fetchone()
        if row is None:
            return
        record = TurnRecord.model_validate_json(row["record"])
        total = (record.memory_work or MemoryWork()).plus(MemoryWork(**work))
        self.conn.execute("UPDATE turn_log SET record = :record WHERE id = :id",
                          {"record": record.model_copy(update={"memory_work": total}).model_dump_json(), "id": row["id"]})

    def list_turn_log(self, session_id: int, *, limit: int = 50) -> list[TurnLogEntry]:
        """The latest ``limit`` turn records, oldest first."""
        rows = self.conn.execute(
            "SELECT * FROM turn_log WHERE session_id = :sid ORDER BY id DESC LIMIT :n",
            {"sid": session_id, "n": limit},
        ).fetchall()
        return [_turn_log(row) for row in reversed(rows)]

    def last_turn_record(self, session_id: int) -> TurnRecord | None:
        rows = self.list_turn_log(session_id, limit=1)
        return rows[0].record if rows else None


def _turn_log(row: Row) -> TurnLogEntry:
    data = dict(row)
    try:
        record = TurnRecord.model_validate_json(data["record"])
    except ValidationError:  # a record this version cannot read: keep the row, say so
        record = TurnRecord(mode=data["mode"], total_tokens=0, budget=0, n_ctx=0,
                            warnings=["this turn's record could not be read"])
    data["record"] = record
    return TurnLogEntry(**data)
