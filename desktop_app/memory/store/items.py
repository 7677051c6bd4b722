"""Queries for memory items, their change log and the session's state_version.

Writes happen only through :func:`desktop_app.memory.write.patches.apply_patch`, which calls the
``_insert_item`` / ``_set_item_*`` helpers inside one transaction after validating the patch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Self

from desktop_app.memory.core.models import MemoryChange, MemoryItem
from desktop_app.memory.store.base import StoreBase, inserted_id
from desktop_app.memory.store.sqlite_backend import Row

_ITEM_COLUMNS = "m.*, (s.kind = 'profile') AS in_profile"
_ITEMS = "memory_items m JOIN sessions s ON s.id = m.session_id"


def _item(row: Row) -> MemoryItem:
    data = dict(row)
    data["scope"] = "profile" if data.pop("in_profile", 0) else "session"
    data["pinned"] = bool(data["pinned"])
    data["details"] = json.loads(data["details"]) if data["details"] else {}
    return MemoryItem(**data)


def _change(row: Row) -> MemoryChange:
    data = dict(row)
    data["patch"] = json.loads(data["patch"])
    return MemoryChange(**data)


class ItemQueries(StoreBase):

    # -- reading -------------------------------------------------------------------------
    def get_item(self, item_id: int) -> MemoryItem | None:
        row = self.conn.execute(f"SELECT {_ITEM_COLUMNS} FROM {_ITEMS} WHERE m.id = :id", {"id": item_id}).fetchone()
        return _item(row) if row else None

    def list_items(self, session_id: int, *, statuses: tuple[str, ...] | None = None,
                   kinds: tuple[str, ...] | None = None, include_profile: bool = True) -> list[MemoryItem]:
        """Items a session sees in id order — its own and the profile's (unless
        ``include_profile`` is False) — optionally filtered by status and kind."""
        where = "(m.session_id = :sid OR s.kind = 'profile')" if include_profile else "m.session_id = :sid"
        rows = self.conn.execute(
            f"SELECT {_ITEM_COLUMNS} FROM {_ITEMS} WHERE {where} ORDER BY m.id", {"sid": session_id}
        ).fetchall()
        items = [_item(r) for r in rows]
        return [i for i in items
                if (statuses is None or i.status in statuses) and (kinds is None or i.kind in kinds)]

    def items_from_messages(self, session_id: int, message_ids: Iterable[int]) -> list[MemoryItem]:
        """The session's items whose source is one of ``message_ids`` (a page being archived)."""
        ids = json.dumps(sorted({int(i) for i in message_ids}))
        rows = self.conn.execute(
            f"""SELECT {_ITEM_COLUMNS} FROM {_ITEMS} WHERE (m.session_id = :sid OR s.kind = 'profile')
                 AND m.source_message_id IN (SELECT value FROM json_each(:ids)) ORDER BY m.id""",
            {"sid": session_id, "ids": ids}).fetchall()
        return [_item(r) for r in rows]

    def items_superseding(self, item_id: int) -> list[MemoryItem]:
        """Items whose ``supersedes`` link points at ``item_id`` (the next links of a chain)."""
        rows = self.conn.execute(
            f"SELECT {_ITEM_COLUMNS} FROM {_ITEMS} WHERE m.supersedes = :id ORDER BY m.id", {"id": item_id}
        ).fetchall()
        return [_item(r) for r in rows]

    def item_changes(self, item_id: int) -> list[MemoryChange]:
        rows = self.conn.execute(
            "SELECT * FROM memory_changes WHERE item_id = :id ORDER BY id", {"id": item_id}
        ).fetchall()
        return [_change(r) for r in rows]

    def session_changes(self, session_id: int) -> list[MemoryChange]:
        rows = self.conn.execute(
            "SELECT * FROM memory_changes WHERE session_id = :sid ORDER BY id", {"sid": session_id}
        ).fetchall()
        return [_change(r) for r in rows]

    def state_version(self, session_id: int) -> int:
        row = self.conn.execute(
            "SELECT state_version FROM sessions WHERE id = :id", {"id": session_id}
        ).fetchone()
        if row is None:
            raise LookupError(f"no session with id {session_id}")
        return int(row[0])

    def user_message_ids(self, session_id: int) -> list[int]:
        """Ids of the session's user messages in order: turn N is the N-th of them."""
        rows = self.conn.execute(
            "SELECT id FROM messages WHERE session_id = :sid AND role = 'user' ORDER BY id", {"sid": session_id}
        ).fetchall()
        return [int(r[0]) for r in rows]

    # -- the model pass's backlog ---------------------------------------------------------------
    def add_to_backlog(self, session_id: int, message_ids: Iterable[int]) -> None:
        self.conn.executemany("INSERT OR IGNORE INTO memory_backlog (message_id, session_id) VALUES (?, ?)",
                              [(int(m), session_id) for m in message_ids])

    def remove_from_backlog(self, message_ids: Iterable[int]) -> None:
        self.conn.executemany("DELETE FROM memory_backlog WHERE message_id = ?", [(int(m),) for m in message_ids])

    def backlog(self, session_id: int | None = None) -> dict[int, list[int]]:
        """User messages waiting for the model's memory pass, by session (oldest first)."""
        rows = self.conn.execute(
            "SELECT session_id, message_id FROM memory_backlog WHERE :sid IS NULL OR session_id = :sid "
            "ORDER BY message_id", {"sid": session_id}).fetchall()
        out: dict[int, list[int]] = {}
        for row in rows:
            out.setdefault(int(row[0]), []).append(int(row[1]))
        return out

    # -- restoring an export ------------------------------------------------------------------
    def restore_items(self, session_id: int, items: list[MemoryItem], message_ids: dict[int, int]) -> dict[int, int]:
        """Put an exported session's memory items back as they were — kind, status, pin, origin,
        versions, times, details and the supersede chain — with message and item ids remapped to
        the new rows (``message_ids``: old → new). One transaction; returns old → new item ids.

        The one write that bypasses ``apply_patch``: it restores state that was validated when
        it was made, including superseded and revoked items no patch could create."""
        new_ids: dict[int, int] = {}
        with self.transaction():
            for item in sorted(items, key=lambda i: i.id):
                cur = self.conn.execute(
                    """INSERT INTO memory_items (session_id, kind, subject, value, status, pinned, origin,
                           source_message_id, source_quote, supersedes, details, state_version, reference_count,
                           last_referenced_at, created_at, updated_at)
                       VALUES (:sid, :kind, :subject, :value, :status, :pinned, :origin, :src, :quote, NULL,
                               :details, :version, :refs, :referenced, :created, :updated)""",
                    {"sid": session_id, "kind": item.kind, "subject": item.subject, "value": item.value,
                     "status": item.status, "pinned": int(item.pinned), "origin": item.origin,
                     "src": message_ids.get(item.source_message_id) if item.source_message_id else None,
                     "quote": item.source_quote, "details": json.dumps(item.details, ensure_ascii=False),
                     "version": item.state_version, "refs": item.reference_count,
                     "referenced": item.last_referenced_at, "created": item.created_at, "updated": item.updated_at})
                new_ids[item.id] = inserted_id(cur)
            for item in items:
                if item.supersedes is not None and item.supersedes in new_ids:
                    self.conn.execute("UPDATE memory_items SET supersedes = :sup WHERE id = :id",
                                      {"sup": new_ids[item.supersedes], "id": new_ids[item.id]})
            top = max((i.state_version for i in items), default=0)
            self.conn.execute("UPDATE sessions SET state_version = max(state_version, :v) WHERE id = :id",
                              {"v": top, "id": session_id})
        return new_ids

    # -- writing (only from apply_patch, inside its transaction) ----------------------------
    def _bump_state_version(self, session_id: int) -> int:
        self.conn.execute(
            "UPDATE sessions SET state_version = state_version + 1 WHERE id = :id", {"id": session_id}
        )
        return self.state_version(session_id)

    def _insert_item(self, session_id: int, *, kind: str, subject: str, value: str, status: str, origin: str,
                     source_message_id: int | None, source_quote: str | None, supersedes: int | None,
                     details: dict[str, Any], pinned: bool, version: int, now: float) -> int:
        cur = self.conn.execute(
            """INSERT INTO memory_items (session_id, kind, subject, value, status, pinned, origin,
                   source_message_id, source_quote, supersedes, details, state_version, created_at, updated_at)
               VALUES (:sid, :kind, :subject, :value, :status, :pinned, :origin, :src, :quote, :sup,
                       :details, :version, :now, :now)""",
            {"sid": session_id, "kind": kind, "subject": subject, "value": value, "status": status,
             "pinned": int(pinned), "origin": origin, "src": source_message_id, "quote": source_quote,
             "sup": supersedes, "details": json.dumps(details, ensure_ascii=False), "version": version,
             "now": now},
        )
        return inserted_id(cur)

    def _set_item_status(self, item_id: int, status: str, version: int, now: float) -> None:
        self.conn.execute(
            "UPDATE memory_items SET status = :status, state_version = :v, updated_at = :now WHERE id = :id",
            {"status": status, "v": version, "now": now, "id": item_id},
        )

    def _set_item_owner(self, item_id: int, owner_session_id: int, version: int, now: float) -> None:
        """Move an item between a session and the profile (``owner_session_id`` = the profile's id)."""
        self.conn.execute(
            "UPDATE memory_items SET session_id = :owner, state_version = :v, updated_at = :now WHERE id = :id",
            {"owner": owner_session_id, "v": version, "now": now, "id": item_id},
        )

    def _set_item_pinned(self, item_id: int, pinned: bool, version: int, now: float) -> None:
        self.conn.execute(
            "UPDATE memory_items SET pinned = :pinned, state_version = :v, updated_at = :now WHERE id = :id",
            {"pinned": int(pinned), "v": version, "now": now, "id": item_id},
        )

    def _set_item_details(self, item_id: int, details: dict[str, Any], version: int, now: float) -> None:
        self.conn.execute(
            "UPDATE memory_items SET details = :details, state_version = :v, updated_at = :now WHERE id = :id",
            {"details": json.dumps(details, ensure_ascii=False), "v": version, "now": now, "id": item_id},
        )

    def _log_change(self, session_id: int, version: int, item_id: int | None, action: str, patch: dict[str, Any],
                    now: float) -> None:
        self.conn.execute(
            """INSERT INTO memory_changes (session_id, state_version, item_id, action, patch, created_at)
               VALUES (:sid, :v, :item, :action, :patch, :now)""",
            {"sid": session_id, "v": version, "item": item_id, "action": action,
             "patch": json.dumps(patch, ensure_ascii=False, default=str), "now": now},
        )

    def touch_items(self, item_ids: list[int], now: float) -> None:
        """Count a reference to each item (the user mentioned it again): feeds the importance score.

        Not a state change, so the state_version stays as it is.
        """
        for item_id in item_ids:
            self.conn.execute(
                """UPDATE memory_items SET reference_count = reference_count + 1, last_referenced_at = :now
                   WHERE id = :id""",
                {"now": now, "id": item_id},
            )

    @contextmanager
    def dry_run(self) -> Iterator[Self]:
        """Run a block whose writes are all rolled back (``paperclip context`` previews a turn)."""
        if self.conn.in_transaction:
            raise RuntimeError("dry_run cannot nest inside another transaction")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        finally:
            if self.conn.in_transaction:  # SQLite may have rolled back already (a full disk)
                self.conn.execute("ROLLBACK")
