"""Versions of a conversation's tail: edit a message or regenerate a reply, switch back later.

Only the live version lives in ``messages`` (so assembly, recall and paging never see a
discarded branch); older versions are kept verbatim in ``message_versions``, keyed by the
anchor message they follow. Discarding a tail also undoes the memory it wrote: the changes
made while each discarded user message was processed (found through ``message_marks``), plus
any item whose source is a discarded message. Item rows are reset with the same helpers
:func:`desktop_app.memory.write.patches.apply_patch` uses, so the change log stays the one history.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from desktop_app.memory.core.models import MemoryChange, Message
from desktop_app.memory.store.base import StoreBase, inserted_id

_MESSAGE_FIELDS = ("id", "role", "content", "token_count", "stopped", "created_at", "ext_id")


class VersionSlot(BaseModel):
    """One version of the tail after ``anchor_id``; ``version_id`` is None for the live one."""

    version_id: int | None
    anchor_id: int
    first_created_at: float
    preview: str
    message_count: int


class RollbackReport(BaseModel):
    """What discarding a tail did: messages archived, memory items deleted or reset."""

    version_id: int | None = None
    messages: int = 0
    deleted_items: list[int] = []
    reset_items: list[int] = []
    pages: int = 0


def replay_item(changes: list[MemoryChange]) -> tuple[str | None, bool, dict[str, Any]]:
    """An item's status, pinned flag and details after ``changes`` (oldest first)."""
    status: str | None = None
    pinned = False
    details: dict[str, Any] = {}
    for change in changes:
        op = change.patch.get("op")
        if op == "add":
            status, pinned, details = change.patch["status"], bool(change.patch.get("pinned")), \
                change.patch.get("details") or {}
        elif op == "status":
            status = change.patch["status"]
        elif op == "pin":
            pinned = bool(change.patch["pinned"])
        elif op == "details":
            details = change.patch["details"]
        elif change.action == "superseded":
            status = "superseded"
    return status, pinned, details


class BranchQueries(StoreBase):

    # -- reading -------------------------------------------------------------------------
    def versions_at(self, session_id: int, anchor_id: int) -> list[VersionSlot]:
        """Every version after ``anchor_id`` (archived ones and the live tail), oldest first."""
        rows = self.conn.execute(
            "SELECT * FROM message_versions WHERE session_id = :sid AND anchor_id = :a",
            {"sid": session_id, "a": anchor_id}).fetchall()
        slots = []
        for row in rows:
            messages = json.loads(row["content"])["messages"]
            slots.append(VersionSlot(version_id=row["id"], anchor_id=anchor_id,
                                     first_created_at=row["first_created_at"],
                                     preview=messages[0]["content"][:120] if messages else "",
                                     message_count=len(messages)))
        live = self.list_messages(session_id, after_id=anchor_id)
        if live:
            slots.append(VersionSlot(version_id=None, anchor_id=anchor_id, first_created_at=live[0].created_at,
                                     preview=live[0].content[:120], message_count=len(live)))
        slots.sort(key=lambda s: (s.first_created_at, s.version_id or 0))
        return slots

    def version_notes(self, session_id: int) -> dict[int, tuple[int, int, int]]:
        """For each live message that starts a version: ``(anchor_id, its number, how many)``."""
        anchors = [int(r[0]) for r in self.conn.execute(
            "SELECT DISTINCT anchor_id FROM message_versions WHERE session_id = :sid", {"sid": session_id})]
        notes = {}
        for anchor in anchors:
            first = self.conn.execute(
                "SELECT id FROM messages WHERE session_id = :sid AND id > :a ORDER BY id LIMIT 1",
                {"sid": session_id, "a": anchor}).fetchone()
            exists = anchor == 0 or self.conn.execute(
                "SELECT 1 FROM messages WHERE id = :a AND session_id = :sid", {"a": anchor, "sid": session_id}
            ).fetchone()
            if first is None or not exists:
                continue
            slots = self.versions_at(session_id, anchor)
            live = next(i for i, s in enumerate(slots, start=1) if s.version_id is None)
            notes[int(first[0])] = (anchor, live, len(slots))
        return notes

    def archived_replies(self, session_id: int, anchor_id: int) -> list[str]:
        """The replies of the versions archived after ``anchor_id`` (what regenerate replaced), oldest first."""
        rows = self.conn.execute(
            "SELECT content FROM message_versions WHERE session_id = :sid AND anchor_id = :a ORDER BY id",
            {"sid": session_id, "a": anchor_id}).fetchall()
        return [m["content"] for row in rows for m in json.loads(row["content"])["messages"] if m["role"] == "assistant"]

    def anchor_before(self, message_id: int) -> int:
        """The message just before ``message_id`` in its session (0 when it is the first)."""
        row = self.conn.execute(
            """SELECT coalesce((SELECT max(id) FROM messages p WHERE p.session_id = m.session_id AND p.id < m.id), 0)
               FROM messages m WHERE m.id = :id""", {"id": message_id}).fetchone()
        if row is None:
            raise LookupError(f"no message with id {message_id}")
        return int(row[0])

    # -- discarding a tail ---------------------------------------------------------------
    def archive_tail(self, session_id: int, anchor_id: int, *, now: float | None = None) -> RollbackReport:
        """Move every message after ``anchor_id`` into a stored version and undo its memory."""
        now = time.time() if now is None else now
        with self.transaction():
            tail = self.list_messages(session_id, after_id=anchor_id)
            if not tail:
                return RollbackReport()
            ids = [m.id for m in tail]
            report = self._undo_memory(session_id, tail, now)
            logs = self.conn.execute(
                """SELECT user_message_id, reply_message_id, mode, record, created_at FROM turn_log
                   WHERE session_id = :sid AND user_message_id >= :first ORDER BY id""",
                {"sid": session_id, "first": ids[0]}).fetchall()
            content = {"messages": [{k: getattr(m, k) for k in _MESSAGE_FIELDS} for m in tail],
                       "turn_log": [dict(r) for r in logs]}
            cur = self.conn.execute(
                """INSERT INTO message_versions (session_id, anchor_id, first_created_at, content, archived_at)
                   VALUES (:sid, :a, :first, :content, :now)""",
                {"sid": session_id, "a": anchor_id, "first": tail[0].created_at,
                 "content": json.dumps(content, ensure_ascii=False), "now": now})
            report.version_id = inserted_id(cur)
            report.pages = self._unpage_from(session_id, ids[0])
            # A folded prompt head that saw discarded turns goes too; the next message folds afresh.
            self.conn.execute("DELETE FROM context_heads WHERE session_id = :sid AND turn >= :turn",
                              {"sid": session_id, "turn": tail[0].turn_number})
            self.conn.execute("DELETE FROM messages WHERE session_id = :sid AND id >= :first",
                              {"sid": session_id, "first": ids[0]})
            report.messages = len(tail)
        return report

    def _unpage_from(self, session_id: int, first_id: int) -> int:
        """Pages holding discarded turns go; kept turns in them return to the recent window,
        and summary versions that folded discarded turns are dropped."""
        pages = self.conn.execute(
            "SELECT id, archived_at FROM pages WHERE session_id = :sid AND last_message_id >= :first",
            {"sid": session_id, "first": first_id}).fetchall()
        for page_id, _archived in pages:
            self.conn.execute("UPDATE messages SET page_id = NULL WHERE page_id = :p", {"p": page_id})
            self.conn.execute("DELETE FROM pages WHERE id = :p", {"p": page_id})
        if pages:  # stages over dropped pages go (the next page-outs write them again), and so do
            # paging decisions, which were made against the discarded turns
            self.delete_stages(session_id, from_page_id=min(p[0] for p in pages))
            self.conn.execute("DELETE FROM paging_advice WHERE session_id = :sid", {"sid": session_id})
        # Pages are archived in order, so every summary version folded at or after the
        # earliest dropped page includes discarded (or now un-paged) turns.
        since = min((p[1] for p in pages), default=float("inf"))
        self.conn.execute(
            """DELETE FROM summaries WHERE session_id = :sid
               AND (through_message_id >= :first OR created_at >= :since)""",
            {"sid": session_id, "first": first_id, "since": since})
        return len(pages)

    def _undo_memory(self, session_id: int, tail: list[Message], now: float) -> RollbackReport:
        tail_ids = {m.id for m in tail}
        windows = self._processing_windows(session_id, [m.id for m in tail if m.role == "user"])
        changes = [c for c in self.session_changes(session_id) if c.item_id is not None]
        sourced = {int(r[0]) for r in self.conn.execute(
            """SELECT id FROM memory_items WHERE (session_id = :sid AND source_message_id >= :first)
                  OR source_message_id IN (SELECT value FROM json_each(:tail))""",
            {"sid": session_id, "first": min(tail_ids), "tail": json.dumps(sorted(tail_ids))}) }
        undone = [c for c in changes
                  if c.item_id in sourced or any(lo < c.state_version <= hi for lo, hi in windows)]
        if not undone:
            return RollbackReport()
        undone_ids = {c.id for c in undone}
        created = {c.item_id for c in undone if c.item_id is not None and c.patch.get("op") == "add"}
        touched = sorted({c.item_id for c in undone if c.item_id is not None} - created)
        version = self._bump_state_version(session_id)
        for item_id in touched:
            # All of the item's history, from every session (a profile item changes in several).
            kept = [c for c in self.item_changes(item_id) if c.id not in undone_ids]
            status, pinned, details = replay_item(kept)
            if status is None:  # its creation was undone after all
                created.add(item_id)
                continue
            self._set_item_status(item_id, status, version, now)
            self._set_item_pinned(item_id, pinned, version, now)
            self._set_item_details(item_id, details, version, now)
        self.conn.execute(
            "DELETE FROM memory_changes WHERE id IN (SELECT value FROM json_each(:ids))",
            {"ids": json.dumps(sorted(undone_ids))})
        self.conn.execute(
            "DELETE FROM memory_items WHERE id IN (SELECT value FROM json_each(:ids))",
            {"ids": json.dumps(sorted(created))})
        reset = [i for i in touched if i not in created]
        self._log_change(session_id, version, None, "rollback",
                         {"deleted": sorted(created), "reset": reset, "messages": sorted(tail_ids)}, now)
        return RollbackReport(deleted_items=sorted(created), reset_items=reset)

    def _processing_windows(self, session_id: int, user_ids: list[int]) -> list[tuple[int, float]]:
        """``(mark, next mark]`` state-version ranges in which each user message was processed."""
        windows = []
        for message_id in user_ids:
            row = self.conn.execute(
                """SELECT (SELECT state_version FROM message_marks WHERE message_id = :id),
                          (SELECT k.state_version FROM messages n JOIN message_marks k ON k.message_id = n.id
                            WHERE n.session_id = :sid AND n.id > :id ORDER BY n.id LIMIT 1)""",
                {"id": message_id, "sid": session_id}).fetchone()
            if row[0] is not None:
                windows.append((int(row[0]), float("inf") if row[1] is None else int(row[1])))
        return windows

    # -- switching -----------------------------------------------------------------------
    def restore_version(self, version_id: int, *, replay: Callable[[Message], object] | None = None,
                        now: float | None = None) -> RollbackReport:
        """Make a stored version live again; the tail it replaces becomes a stored version.

        ``replay(message)`` runs for each restored user message right after it is stored (the
        memory hook), so its memory is written again inside its own processing window.
        """
        now = time.time() if now is None else now
        with self.transaction():
            row = self.conn.execute("SELECT * FROM message_versions WHERE id = :id", {"id": version_id}).fetchone()
            if row is None:
                raise LookupError(f"no stored version {version_id}")
            session_id, anchor_id = int(row["session_id"]), int(row["anchor_id"])
            content = json.loads(row["content"])
            report = self.archive_tail(session_id, anchor_id, now=now)
            self.conn.execute("DELETE FROM message_versions WHERE id = :id", {"id": version_id})
            remap: dict[int, int] = {}
            for data in content["messages"]:
                message = self.add_message(session_id, data["role"], data["content"],
                                           token_count=data["token_count"], stopped=data["stopped"],
                                           created_at=data["created_at"], ext_id=data["ext_id"])
                remap[data["id"]] = message.id
                if replay is not None and message.role == "user":
                    replay(message)
            for old, new in remap.items():
                self.conn.execute(
                    "UPDATE message_versions SET anchor_id = :new WHERE session_id = :sid AND anchor_id = :old",
                    {"new": new, "old": old, "sid": session_id})
            for log in content.get("turn_log", []):
                if log["user_message_id"] in remap:
                    self.conn.execute(
                        """INSERT INTO turn_log (session_id, user_message_id, reply_message_id, mode, record, created_at)
                           VALUES (:sid, :user, :reply, :mode, :record, :at)""",
                        {"sid": session_id, "user": remap[log["user_message_id"]],
                         "reply": remap.get(log["reply_message_id"]), "mode": log["mode"], "record": log["record"],
                         "at": log["created_at"]})
        return report
