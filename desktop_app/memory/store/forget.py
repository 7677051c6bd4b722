"""Forget means gone: an item or a topic, with every stored copy of its words.

Revoking keeps history; forgetting deletes. A forget is planned first — the items with their
supersede chains, every turn of any session that holds the words (with the reply after it), the
archived pages and bookmarks on them, and a count of the other rows that quote them (turn
records, summaries, versions, the change log, session names, document chunks) — so the user
sees what will go and confirms once. Doing it is one transaction: rows are deleted (foreign keys
and triggers take the FTS, vector and bookmark rows along), the quoting rows are redacted in
place, and every FTS5 index is merged (``optimize``) so no segment keeps a deleted token.
:meth:`ForgetQueries.purge` then rewrites the file (``VACUUM``) with ``secure_delete`` on and
truncates the WAL, so neither free pages nor old WAL frames keep the bytes.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

from pydantic import BaseModel

from desktop_app.lexicon import alternatives
from desktop_app.memory.core.models import Bookmark, MemoryItem, Message, Page
from desktop_app.memory.lang.text import term_set
from desktop_app.memory.store.base import StoreBase
from desktop_app.memory.store.pages import _bookmark
from desktop_app.memory.store.sessions import _message

REDACTED = "[forgotten]"
MIN_NEEDLE = 3  # shorter texts are too common to hunt for in every table
# Tables whose rows the plan deletes itself, or that hold no user text.
_NOT_REDACTED = {"messages", "memory_items", "pages", "bookmarks", "context_heads", "schema_migrations"}


class ForgetPlan(BaseModel):
    """Everything one forget will delete; shown to the user before anything happens."""

    session_id: int
    what: str
    items: list[MemoryItem] = []
    messages: list[Message] = []
    pages: list[Page] = []
    bookmarks: list[Bookmark] = []
    needles: list[str] = []  # the texts hunted for and redacted wherever else they are stored
    traces: dict[str, int] = {}  # table -> rows that quote a needle (redacted in place)
    sessions: dict[int, str] = {}  # id -> name of every session the plan touches
    files: list[str] = []  # files outside the database that hold a needle (exports); deleted

    @property
    def empty(self) -> bool:
        return not (self.items or self.messages or self.pages or self.bookmarks or self.traces or self.files)


def needle_forms(needle: str) -> list[str]:
    """``needle`` as stored: raw, and escaped inside JSON strings (with and without ``\\uXXXX``)."""
    forms = [needle, json.dumps(needle, ensure_ascii=False)[1:-1], json.dumps(needle)[1:-1]]
    return list(dict.fromkeys(forms))


# A word between a subject and its value in any tense (the lexicon's ``fact.copula_broad``, matched as
# written, case-sensitive), an "=" or a colon (no language's); no groups, for ``split``.
_COPULA = re.compile("|".join([alternatives("fact.copula_broad", ("en",)), r"\s=\s", alternatives("fact.copula_broad", ("zh",)),
                               "：|:"]))
_ID_LIKE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+/-]*[A-Za-z0-9]")
_EDGES = " \t\n.,;!?。，；！？、\"'“”‘’()（）"


def item_needles(item: MemoryItem) -> set[str]:
    """The texts that carry an item's words: its value and quote, the data part of a normal-form
    value ("locker code: 4471-KX" → "4471-KX"), what follows the copula of a sentence ("my code
    is QZ77" → "QZ77", "密码是紫檀七号" → "紫檀七号"), and id-like tokens with digits."""
    found = {item.value, item.source_quote or ""}
    for text in (item.value, item.source_quote or ""):
        parts = _COPULA.split(text)
        if len(parts) > 1:
            found.add(parts[-1].strip(_EDGES))
        found |= {token for token in _ID_LIKE.findall(text) if len(token) >= 4 and any(c.isdigit() for c in token)}
    return {text.strip(_EDGES) for text in found if len(text.strip(_EDGES)) >= MIN_NEEDLE}


def redact(value: object, needle: str) -> object:
    """``value`` (parsed JSON) with ``needle`` replaced in every string it holds (keys untouched)."""
    if isinstance(value, str):
        return value.replace(needle, REDACTED)
    if isinstance(value, list):
        return [redact(v, needle) for v in value]
    if isinstance(value, dict):
        return {k: redact(v, needle) for k, v in value.items()}
    return value


class ForgetQueries(StoreBase):

    # -- planning ------------------------------------------------------------------------------
    def plan_forget_item(self, item_id: int) -> ForgetPlan:
        """The item, every version in its supersede chain, and every turn that states its words."""
        item = self.get_item(item_id)
        if item is None:
            raise LookupError(f"no memory item #{item_id}")
        chain = self._chain(item)
        needles = {text for i in chain for text in item_needles(i)}
        return self._complete_plan(item.session_id, f"#{item.id} {item.value}", {i.id: i for i in chain},
                                   {i.source_message_id for i in chain if i.source_message_id}, [], needles)

    def plan_forget_topic(self, session_id: int, topic: str) -> ForgetPlan:
        """Items about ``topic`` (this session's and the profile's), every turn of any session that
        mentions it, and the archived pages holding those turns."""
        topic = topic.strip()
        if not topic:
            raise ValueError("name a topic to forget")
        needle, words = topic.casefold(), term_set(topic)
        items: dict[int, MemoryItem] = {}
        for item in self.list_items(session_id):
            text = " ".join(x for x in (item.value, item.subject, item.source_quote or "") if x)
            if needle in text.casefold() or (words and words <= term_set(text)):
                items.update({i.id: i for i in self._chain(item)})
        matched = {h.message_id for h in self.search_messages(topic, limit=100_000)}
        matched |= {i.source_message_id for i in items.values() if i.source_message_id}
        marks = [b for b in self._all_bookmarks()
                 if needle in (" ".join(b.keywords) + " " + b.description).casefold()]
        # Every spelling the turns use ("Kyoto" for "kyoto"): redaction matches exact bytes.
        spellings = {found.group(0) for m in self.get_messages(matched)
                     for found in re.finditer(re.escape(topic), m.content, re.I)}
        needles = {topic, *spellings, *(i.value for i in items.values())}
        return self._complete_plan(session_id, f"“{topic}”", items, matched, marks,
                                   {n for n in needles if len(n.strip()) >= MIN_NEEDLE})

    def _complete_plan(self, session_id: int, what: str, items: dict[int, MemoryItem], message_ids: set[int],
                       marks: list[Bookmark], needles: set[str]) -> ForgetPlan:
        """Add every turn and item that holds a needle, the replies, pages' bookmarks and traces."""
        for text in needles:
            message_ids |= self._messages_holding(text)
            for row in self.conn.execute(
                    "SELECT id FROM memory_items WHERE instr(value, :n) OR instr(coalesce(source_quote, ''), :n)",
                    {"n": text}).fetchall():
                if row[0] not in items and (item := self.get_item(row[0])) is not None:
                    items.update({i.id: i for i in self._chain(item)})
        lowered = [n.casefold() for n in needles]
        marks = [*marks, *(b for b in self._all_bookmarks()
                           if any(n in (" ".join(b.keywords) + " " + b.description).casefold() for n in lowered))]
        messages = self._with_replies(sorted(message_ids))
        ids = {m.id for m in messages}
        # An archived page goes when all its turns go; otherwise it keeps the others.
        pages = [page for pid in sorted({m.page_id for m in messages if m.page_id is not None})
                 if (page := self.get_page(pid)) is not None
                 and {m.id for m in self.page_messages(pid)} <= ids]
        items_list = sorted(items.values(), key=lambda i: i.id)
        touched = {m.session_id for m in messages} | {i.session_id for i in items_list} | {session_id}
        plan = ForgetPlan(session_id=session_id, what=what, items=items_list, messages=messages,
                          pages=pages, bookmarks=self._bookmarks_on(messages, marks),
                          needles=sorted(needles, key=lambda n: (-len(n), n)))
        plan.traces = self._traces(plan)
        plan.sessions = {sid: self.get_session(sid).name for sid in sorted(touched)}
        return plan

    def _messages_holding(self, text: str) -> set[int]:
        if len(text) >= 3:
            hits = self.search_messages(text, limit=100_000)  # each hit carries its content
            return {h.message_id for h in hits if text in h.content}
        rows = self.conn.execute("SELECT id FROM messages WHERE instr(content, :n) > 0", {"n": text}).fetchall()
        return {r[0] for r in rows}

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

    def _all_bookmarks(self) -> list[Bookmark]:
        return [_bookmark(r) for r in self.conn.execute("SELECT * FROM bookmarks ORDER BY id").fetchall()]

    def _bookmarks_on(self, messages: list[Message], extra: list[Bookmark]) -> list[Bookmark]:
        ids = {m.id for m in messages}
        pages = {self.page_of_message(i) for i in ids} - {None}
        found = {b.id: b for b in extra}
        for bookmark in self._all_bookmarks():
            if bookmark.message_id in ids or bookmark.page_id in pages:
                found[bookmark.id] = bookmark
        return [found[k] for k in sorted(found)]

    # -- the other rows that quote the words -----------------------------------------------------
    def _text_columns(self) -> list[tuple[str, list[str]]]:
        """Plain tables (not FTS/vector tables or their shadows) and their text columns."""
        rows = self.conn.execute(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").fetchall()
        virtual = [name for name, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL")]
        out = []
        for name, sql in rows:
            if name in virtual or any(name.startswith(v + "_") for v in virtual) or name in _NOT_REDACTED:
                continue
            if "WITHOUT ROWID" in (sql or "").upper():
                continue
            columns = [c[1] for c in self.conn.execute(f"PRAGMA table_info({name})").fetchall()
                       if (c[2] or "").upper() in ("TEXT", "")]
            if columns:
                out.append((name, columns))
        return out

    def _quoting_rows(self, needles: list[str]) -> Iterator[tuple[str, int, str, str]]:
        """(table, rowid, column, text) for every stored text that holds a needle."""
        for table, columns in self._text_columns():
            for column in columns:
                for needle in needles:
                    for form in needle_forms(needle):
                        for rowid, text in self.conn.execute(
                                f"SELECT rowid, {column} FROM {table} WHERE instr({column}, :n) > 0",
                                {"n": form}).fetchall():
                            yield table, rowid, column, text

    def _traces(self, plan: ForgetPlan) -> dict[str, int]:
        found: dict[str, set[int]] = {}
        for table, rowid, _column, _text in self._quoting_rows(plan.needles):
            found.setdefault(table, set()).add(rowid)
        return {table: len(rows) for table, rows in sorted(found.items())}

    def _redact_everywhere(self, needles: list[str]) -> int:
        """Replace every needle in every quoting row (JSON parsed, so keys are never touched)."""
        redacted = 0
        for needle in needles:  # longest first: a needle inside another is redacted with it
            for table, rowid, column, _ in list(self._quoting_rows([needle])):
                (text,) = self.conn.execute(f"SELECT {column} FROM {table} WHERE rowid = :r", {"r": rowid}).fetchone()
                try:
                    cleaned = json.dumps(redact(json.loads(text), needle), ensure_ascii=False)
                except (ValueError, TypeError):
                    cleaned = text.replace(needle, REDACTED)
                if cleaned == text:
                    continue
                try:
                    self.conn.execute(f"UPDATE {table} SET {column} = :t WHERE rowid = :r", {"t": cleaned, "r": rowid})
                except Exception as exc:  # a unique column (a session name) that now collides
                    if "UNIQUE" not in str(exc):
                        raise
                    self.conn.execute(f"UPDATE {table} SET {column} = :t WHERE rowid = :r",
                                      {"t": f"{cleaned} {rowid}", "r": rowid})
                redacted += 1
        return redacted

    # -- doing ---------------------------------------------------------------------------------
    def forget(self, plan: ForgetPlan, *, now: float | None = None) -> dict[str, int]:
        """Delete everything in ``plan`` in one transaction; returns the counts deleted. Call
        :meth:`purge` afterwards to leave no bytes in free pages or the WAL."""
        now = time.time() if now is None else now
        self.conn.execute("PRAGMA secure_delete = ON")  # deleted cells are zeroed, not just unlinked
        with self.transaction():
            self._drop_from_summaries({i.id for i in plan.items}, plan.needles)
            for table, ids in (("bookmarks", [b.id for b in plan.bookmarks]),
                               ("memory_items", [i.id for i in plan.items]),
                               ("messages", [m.id for m in plan.messages]),
                               ("pages", [p.id for p in plan.pages])):
                self.conn.execute(f"DELETE FROM {table} WHERE id IN (SELECT value FROM json_each(:ids))",
                                  {"ids": json.dumps(ids)})
            self._recount_pages({m.page_id for m in plan.messages if m.page_id is not None} - {p.id for p in plan.pages})
            redacted = self._redact_everywhere(plan.needles)
            # Folded prompt heads hold copies of items (a profile item is in every session's): all
            # go, and each session folds afresh at its next message.
            self.conn.execute("DELETE FROM context_heads")
            for session_id in sorted(set(plan.sessions) | {plan.session_id}):
                version = self._bump_state_version(session_id)
                # The log keeps that something was forgotten, never what.
                self._log_change(session_id, version, None, "forget",
                                 {"items": len(plan.items), "messages": len(plan.messages),
                                  "pages": len(plan.pages)}, now)
            self.optimize_fulltext()
        return {"items": len(plan.items), "messages": len(plan.messages), "pages": len(plan.pages),
                "bookmarks": len(plan.bookmarks), "redacted": redacted}

    def _recount_pages(self, page_ids: set[int]) -> None:
        """Pages that lost some turns describe the ones left."""
        for page_id in sorted(page_ids):
            self.conn.execute(
                """UPDATE pages SET message_count = s.n, token_count = s.tokens, first_message_id = s.first,
                          last_message_id = s.last, start_time = s.start, end_time = s.finish
                   FROM (SELECT count(*) AS n, coalesce(sum(token_count), 0) AS tokens, min(id) AS first,
                                max(id) AS last, min(created_at) AS start, max(created_at) AS finish
                           FROM messages WHERE page_id = :id) AS s
                   WHERE pages.id = :id AND s.n > 0""", {"id": page_id})

    def optimize_fulltext(self) -> None:
        """Merge every FTS5 index into one segment, dropping the entries of deleted rows."""
        rows = self.conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                                 "sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'").fetchall()
        for (name,) in rows:
            self.conn.execute(f"INSERT INTO {name} ({name}) VALUES ('optimize')")

    def purge(self) -> bool:
        """Rewrite the file without free pages and empty the WAL; False when another connection
        kept the WAL from being truncated (its frames go at the next checkpoint)."""
        self.conn.execute("PRAGMA secure_delete = ON")
        self.conn.execute("VACUUM")
        row = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is None or row[0] == 0

    def purge_if_needed(self) -> bool:
        """:meth:`purge` when the file has free pages (deleted rows' bytes may be in them)."""
        if self.conn.execute("PRAGMA freelist_count").fetchone()[0] == 0:
            return False
        return self.purge()

    def _drop_from_summaries(self, item_ids: set[int], needles: list[str]) -> None:
        lowered = [n.casefold() for n in needles if n]
        for row in self.conn.execute("SELECT id, content FROM summaries").fetchall():
            content = json.loads(row["content"])
            changed = False
            for key, entries in content.items():
                if not isinstance(entries, list):
                    continue
                kept = [e for e in entries if not isinstance(e, dict) or (
                    e.get("item_id") not in item_ids
                    and not any(n in str(e.get("text", "")).casefold() for n in lowered))]
                changed |= len(kept) != len(entries)
                content[key] = kept
            if changed:
                self.conn.execute("UPDATE summaries SET content = :c WHERE id = :id",
                                  {"c": json.dumps(content, ensure_ascii=False), "id": row["id"]})
