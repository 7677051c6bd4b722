"""Queries behind the UI's browsing and forgetting: search across all sessions, and
"forget means gone" — an item with its history, or a topic with its turns and pages.

Search uses the FTS5 trigram index (``messages_fts``), so Chinese phrases of three or more
characters match without a segmenter; shorter terms fall back to a substring scan.
Forgetting is planned first (the UI lists what will be deleted and asks), then done in one
transaction; foreign keys and triggers take the FTS, vector, bookmark and log rows along.
"""

from __future__ import annotations

import json
import re
import time

from pydantic import BaseModel

from desktop_app.memory.models import Bookmark, MemoryItem, Message, Page
from desktop_app.memory.store.pages import _bookmark
from desktop_app.memory.store.sessions import _message
from desktop_app.memory.text import term_set

REDACTED = "[forgotten]"


class SearchHit(BaseModel):
    """A stored turn that matched a search, with its session's name."""

    message_id: int
    session_id: int
    session_name: str
    role: str
    content: str
    created_at: float


class ForgetPlan(BaseModel):
    """Everything one forget will delete; shown to the user before anything happens."""

    session_id: int
    what: str
    items: list[MemoryItem] = []
    messages: list[Message] = []
    pages: list[Page] = []
    bookmarks: list[Bookmark] = []
    needles: list[str] = []  # texts scrubbed from turn records and stored versions

    @property
    def empty(self) -> bool:
        return not (self.items or self.messages or self.pages or self.bookmarks)


def fts_phrase(term: str) -> str:
    """An FTS5 string literal for ``term`` (quotes doubled), matched as a phrase."""
    return '"' + term.replace('"', '""') + '"'


def search_terms(query: str) -> list[str]:
    return [w for w in re.split(r"\s+", query.strip()) if w]


class BrowseQueries:
    conn: object

    # -- search ----------------------------------------------------------------------------
    def search_messages(self, query: str, *, limit: int = 50, session_id: int | None = None) -> list[SearchHit]:
        """Turns of every session (or one) containing all words of ``query``, best first."""
        terms = search_terms(query)
        if not terms:
            return []
        params = {"limit": limit, "sid": session_id}
        if all(len(term) >= 3 for term in terms):
            params["match"] = " AND ".join(fts_phrase(term) for term in terms)
            sql = """SELECT m.*, s.name AS session_name FROM messages_fts f
                     JOIN messages m ON m.id = f.rowid JOIN sessions s ON s.id = m.session_id
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

    # -- forget: planning --------------------------------------------------------------------
    def plan_forget_item(self, item_id: int) -> ForgetPlan:
        """The item, every version in its supersede chain, and the turns they were stated in
        (with the reply that followed each)."""
        item = self.get_item(item_id)
        if item is None:
            raise LookupError(f"no memory item #{item_id}")
        chain = self._chain(item)
        sources = {i.source_message_id for i in chain if i.source_message_id}
        messages = self._with_replies(sorted(sources))
        needles = sorted({text for i in chain for text in (i.value, i.source_quote) if text})
        owner = item.session_id
        if item.scope == "profile" and sources:
            # A profile item's words live in the chat session it was said in: clean that one.
            owner = self.get_message(min(sources)).session_id
        return ForgetPlan(session_id=owner, what=f"#{item.id} {item.value}", items=chain,
                          messages=messages, bookmarks=self._bookmarks_on(owner, messages, []),
                          needles=needles)

    def plan_forget_topic(self, session_id: int, topic: str) -> ForgetPlan:
        """Items about ``topic``, the turns that mention it, and the archived pages holding them."""
        topic = topic.strip()
        if not topic:
            raise ValueError("name a topic to forget")
        needle, words = topic.casefold(), term_set(topic)
        items: dict[int, MemoryItem] = {}
        for item in self.list_items(session_id):
            text = " ".join(x for x in (item.value, item.subject, item.source_quote or "") if x)
            if needle in text.casefold() or (words and words <= term_set(text)):
                items.update({i.id: i for i in self._chain(item)})
        matched = [self.get_message(h.message_id) for h in self.search_messages(topic, limit=10_000,
                                                                                session_id=session_id)]
        page_ids = sorted({self.page_of_message(m.id) for m in matched} - {None})
        pages = [p for p in (self.get_page(pid) for pid in page_ids) if p is not None]
        ids = {m.id for m in matched} | {i.source_message_id for i in items.values() if i.source_message_id}
        for page in pages:
            ids |= {m.id for m in self.page_messages(page.id)}
        messages = self._with_replies(sorted(ids))
        marks = [b for b in self.list_bookmarks(session_id)
                 if needle in (" ".join(b.keywords) + " " + b.description).casefold()]
        return ForgetPlan(session_id=session_id, what=f"“{topic}”", items=sorted(items.values(), key=lambda i: i.id),
                          messages=messages, pages=pages, bookmarks=self._bookmarks_on(session_id, messages, marks),
                          needles=sorted({topic, *(i.value for i in items.values())}))

    def _chain(self, item: MemoryItem) -> list[MemoryItem]:
        """Every item linked to ``item`` by ``supersedes`` in either direction."""
        seen: dict[int, MemoryItem] = {}
        todo = [item]
        while todo:
            current = todo.pop()
            if current.id in seen:
                continue
            seen[current.id] = current
            if current.supersedes is not None and (older := self.get_item(current.supersedes)) is not None:
                todo.append(older)
            todo.extend(self.items_superseding(current.id))
        return sorted(seen.values(), key=lambda i: i.id)

    def _with_replies(self, message_ids: list[int]) -> list[Message]:
        """The messages plus, for each user message, the assistant reply right after it."""
        out: dict[int, Message] = {}
        for message_id in message_ids:
            row = self.conn.execute("SELECT * FROM messages WHERE id = :id", {"id": message_id}).fetchone()
            if row is None:
                continue
            message = _message(row)
            out[message.id] = message
            if message.role == "user":
                nxt = self.conn.execute(
                    "SELECT * FROM messages WHERE session_id = :sid AND id > :id ORDER BY id LIMIT 1",
                    {"sid": message.session_id, "id": message.id}).fetchone()
                if nxt is not None and nxt["role"] == "assistant":
                    out[nxt["id"]] = _message(nxt)
        return [out[k] for k in sorted(out)]

    def _bookmarks_on(self, session_id: int, messages: list[Message], extra: list[Bookmark]) -> list[Bookmark]:
        ids = {m.id for m in messages}
        pages = {self.page_of_message(i) for i in ids} - {None}
        rows = self.conn.execute("SELECT * FROM bookmarks WHERE session_id = :sid ORDER BY id",
                                 {"sid": session_id}).fetchall()
        found = {b.id: b for b in extra}
        for bookmark in map(_bookmark, rows):
            if bookmark.message_id in ids or bookmark.page_id in pages:
                found[bookmark.id] = bookmark
        return [found[k] for k in sorted(found)]

    # -- forget: doing -----------------------------------------------------------------------
    def forget(self, plan: ForgetPlan, *, now: float | None = None) -> dict[str, int]:
        """Delete everything in ``plan`` in one transaction; returns the counts deleted."""
        now = time.time() if now is None else now
        with self.transaction():
            self._drop_from_summaries(plan.session_id, {i.id for i in plan.items}, plan.needles)
            for table, ids in (("bookmarks", [b.id for b in plan.bookmarks]),
                               ("memory_items", [i.id for i in plan.items]),
                               ("messages", [m.id for m in plan.messages]),
                               ("pages", [p.id for p in plan.pages])):
                self.conn.execute(f"DELETE FROM {table} WHERE id IN (SELECT value FROM json_each(:ids))",
                                  {"ids": json.dumps(ids)})
            for needle in plan.needles:
                self._scrub(plan.session_id, needle)
            # Folded prompt heads hold copies of items (a profile item is in every session's): all
            # go, and each session folds afresh at its next message.
            self.conn.execute("DELETE FROM context_heads")
            version = self._bump_state_version(plan.session_id)
            # The log keeps that something was forgotten, never what.
            self._log_change(plan.session_id, version, None, "forget",
                             {"items": len(plan.items), "messages": len(plan.messages), "pages": len(plan.pages)},
                             now)
        return {"items": len(plan.items), "messages": len(plan.messages), "pages": len(plan.pages),
                "bookmarks": len(plan.bookmarks)}

    def _drop_from_summaries(self, session_id: int, item_ids: set[int], needles: list[str]) -> None:
        lowered = [n.casefold() for n in needles if n]
        rows = self.conn.execute("SELECT id, content FROM summaries WHERE session_id = :sid",
                                 {"sid": session_id}).fetchall()
        for row in rows:
            content = json.loads(row["content"])
            changed = False
            for key, entries in content.items():
                if not isinstance(entries, list):
                    continue
                kept = [e for e in entries if e.get("item_id") not in item_ids
                        and not any(n in str(e.get("text", "")).casefold() for n in lowered)]
                changed |= len(kept) != len(entries)
                content[key] = kept
            if changed:
                self.conn.execute("UPDATE summaries SET content = :c WHERE id = :id",
                                  {"c": json.dumps(content, ensure_ascii=False), "id": row["id"]})

    def _scrub(self, session_id: int, needle: str) -> None:
        """Replace ``needle`` inside the text values of this session's turn records, stored
        versions and change log (parsed, so JSON keys are never touched)."""
        escaped = json.dumps(needle, ensure_ascii=False)[1:-1]
        for table, column in (("turn_log", "record"), ("message_versions", "content"), ("memory_changes", "patch")):
            rows = self.conn.execute(
                f"SELECT id, {column} FROM {table} WHERE session_id = :sid AND instr({column}, :needle) > 0",
                {"needle": escaped, "sid": session_id}).fetchall()
            for row_id, text in rows:
                cleaned = json.dumps(redact(json.loads(text), needle), ensure_ascii=False)
                self.conn.execute(f"UPDATE {table} SET {column} = :text WHERE id = :id", {"text": cleaned, "id": row_id})


def redact(value, needle: str):
    """``value`` (parsed JSON) with ``needle`` replaced in every string it holds."""
    if isinstance(value, str):
        return value.replace(needle, REDACTED)
    if isinstance(value, list):
        return [redact(v, needle) for v in value]
    if isinstance(value, dict):
        return {k: redact(v, needle) for k, v in value.items()}
    return value
