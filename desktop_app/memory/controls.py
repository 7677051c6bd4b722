"""The user's memory controls: slash commands in the chat input and ``paperclip memory …``.

:func:`handle_slash` is called by the UI and ``paperclip ask`` *before* a turn is run; it
returns None when the text is not a slash command. Everything is answered from the store —
no model — and every change goes through a validated patch.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from desktop_app.memory.core.models import MemoryItem, Session
from desktop_app.memory.core.plan import MODES
from desktop_app.memory.lang.notices import reply
from desktop_app.memory.lang.text import canonical_subject, clip, keywords, term_set, topic_subject
from desktop_app.memory.prompt.render import stamp
from desktop_app.memory.write.corrections import corrected_value
from desktop_app.memory.write.integrity import revocations_reaching_twins
from desktop_app.memory.write.patches import (
    AddItem,
    PatchOp,
    PatchRejected,
    PatchResult,
    SetPinned,
    SetScope,
    SetStatus,
    apply_patch,
    propose,
)
from desktop_app.memory.write.sentence import Candidate
from desktop_app.memory.write.updates import apply_candidate, confirm_ops, pending_revocation_of, remember_message

if TYPE_CHECKING:
    from desktop_app.memory.store import Store
    from desktop_app.memory.store.forget import ForgetPlan

SLASH_COMMANDS = ("remember", "directive", "fact", "forget", "revoke", "correct", "pin", "unpin", "bookmark", "memory",
                  "confirm", "reject", "mode", "show", "scope")


class SlashResult(BaseModel):
    """What a memory command did: a line (or a few) for the user, plus JSON-able data."""

    command: str
    ok: bool = True
    text: str
    data: dict[str, Any] | list[Any] | None = None
    changed: bool = False


class Command(Protocol):
    """One memory command: ``/NAME ARG`` in ``session``, answered in ``lang``."""

    def __call__(self, store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult: ...


class MemoryCommandError(ValueError):
    """A memory command that cannot be done (unknown id, bad arguments); one line for the user."""


def handle_slash(store: Store, session: Session, text: str, now: float | None = None, *, lang: str = "en") -> SlashResult | None:
    """Run a slash command typed in the chat input; None when ``text`` is not one. The answer is
    in ``lang`` (the UI's language)."""
    stripped = text.strip()
    match = re.match(r"^/(\w+)\s*(.*)$", stripped, re.S)
    if not match or match.group(1).lower() not in SLASH_COMMANDS:
        return None
    name, arg = match.group(1).lower(), match.group(2).strip()
    now = time.time() if now is None else now
    try:
        return run_command(store, session, name, arg, now, lang=lang)
    except (MemoryCommandError, PatchRejected) as exc:
        return SlashResult(command=name, ok=False, text=str(exc))


def run_command(store: Store, session: Session, name: str, arg: str, now: float, *, lang: str = "en") -> SlashResult:
    """Dispatch one memory command (shared by the chat input and the CLI)."""
    handlers: dict[str, Command] = {
        "remember": remember, "directive": add_directive, "fact": add_fact, "forget": forget, "revoke": revoke,
        "correct": correct, "pin": pin, "unpin": unpin, "bookmark": bookmark, "memory": overview,
        "confirm": confirm, "reject": reject, "mode": set_mode, "show": show, "scope": set_scope}
    return handlers[name](store, session, arg, now, lang=lang)


def _need(arg: str, usage: str) -> str:
    if not arg:
        raise MemoryCommandError(f"usage: {usage}")
    return arg


def _item_id(arg: str) -> int:
    match = re.match(r"^#?(\d+)$", arg.strip())
    if not match:
        raise MemoryCommandError(f"not a memory id: {arg!r} (ids look like 12 or #12)")
    return int(match.group(1))


def _own(store: Store, session: Session, item_id: int) -> MemoryItem:
    item = store.get_item(item_id)
    if item is None or (item.session_id != session.id and item.scope != "profile"):
        raise MemoryCommandError(f"no memory item #{item_id} in session {session.name!r}")
    return item


def item_json(item: MemoryItem, turn_of: dict[int, int] | None = None) -> dict[str, Any]:
    """An item for ``--json`` output (ISO times, source turn when known)."""
    data = item.model_dump()
    data["created"] = stamp(item.created_at)
    data["updated"] = stamp(item.updated_at)
    if turn_of is not None and item.source_message_id:
        data["source_turn"] = turn_of.get(item.source_message_id)
    return data


def _commit(store: Store, session: Session, ops: list[PatchOp], reason: str, now: float) -> PatchResult:
    ops = revocations_reaching_twins(ops, store.list_items(session.id, statuses=("active",)))
    return apply_patch(store, propose(store, session.id, ops, reason=reason), now=now)


def remember(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/remember TEXT — extract as if typed, stated explicitly; a plain note otherwise."""
    text = _need(arg, "/remember TEXT")
    outcomes = remember_message(store, session.id, text, source_message_id=None, origin="command", now=now)
    if not any(o.item_ids for o in outcomes):
        kind = "fact"
        result = _commit(store, session, [AddItem(kind=kind, subject=topic_subject("note", text), value=text,
                                                  origin="command", source_quote=text)], "/remember", now)
        return SlashResult(command="remember", text=reply("remembered", lang, id=result.added_ids[0], value=clip(text, 80)),
                           data={"ids": result.added_ids}, changed=True)
    lines = [o.notice_in(lang) or f"{o.action} #{', #'.join(map(str, o.item_ids))}" for o in outcomes]
    return SlashResult(command="remember", text="\n".join(lines), data=[o.model_dump() for o in outcomes],
                       changed=True)


def add_directive(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/directive TEXT — a standing rule; stated explicitly, so it replaces a conflicting one."""
    text = _need(arg, "/directive TEXT")
    subject = canonical_subject(text) or topic_subject("directive", text)
    same = next((i for i in store.list_items(session.id, statuses=("active",), kinds=("directive",))
                 if i.subject == subject), None)
    op = AddItem(kind="directive", subject=subject, value=text, origin="command", source_quote=text,
                 supersedes=same.id if same else None)
    result = _commit(store, session, [op], "/directive", now)
    new_id = result.added_ids[0]
    said = reply("rule_replaces", lang, id=new_id, old=same.id, value=clip(text, 80)) if same else \
        reply("rule_saved", lang, id=new_id, value=clip(text, 80))
    return SlashResult(command="directive", text=said,
                       data={"id": new_id, "supersedes": same.id if same else None}, changed=True)


def add_fact(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/fact SUBJECT: VALUE (or just TEXT) — a fact; a newer one for the subject supersedes."""
    text = _need(arg, "/fact SUBJECT: VALUE")
    match = re.match(r"^([^:=：]{1,40})[:=：]\s*(.+)$", text)
    label = match.group(1).strip() if match else ""
    subject = canonical_subject(label or text) or (f"fact:{label.lower()}" if label else topic_subject("fact", text))
    cand = Candidate(action="add", kind="fact", subject=subject, value=text, quote=text, canonical=True)
    outcome = apply_candidate(store, session.id, cand, source_message_id=None, origin="command", now=now)
    return SlashResult(command="fact", text=outcome.notice_in(lang) or reply("fact_saved", lang,
                                                                            ids=", #".join(map(str, outcome.item_ids))),
                       data=outcome.model_dump(), changed=outcome.action != "duplicate")


def revoke(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/revoke ID|topic — the item stops applying; it stays in history (``/forget`` deletes)."""
    arg = _need(arg, "/revoke ID|topic")
    if re.match(r"^#?\d+$", arg):
        item = _own(store, session, _item_id(arg))
        status_op = SetStatus(item_id=item.id, status="revoked",
                              action="reject" if item.status == "pending" else "revoke", reason="/revoke")
        _commit(store, session, [status_op], "/revoke", now)
        store.drop_fold(session.id)  # the user's explicit edit: the prompt head is refolded at the next message
        return SlashResult(command="revoke", text=reply("revoked_item", lang, id=item.id, value=clip(item.value, 80)),
                           data={"ids": [item.id]}, changed=True)
    words = term_set(arg)
    matches = [i for i in store.list_items(session.id, statuses=("active", "pending"))
               if words & (term_set(i.value) | term_set(i.subject))]
    if not matches:
        raise MemoryCommandError(f"nothing in memory matches {arg!r}")
    if len(matches) > 1:
        listed = "\n".join(f"#{i.id} [{i.kind}] {clip(i.value, 70)}" for i in matches)
        return SlashResult(command="revoke", ok=False, text=f"{reply('several_match', lang)}\n{listed}",
                           data={"candidates": [i.id for i in matches]})
    return revoke(store, session, str(matches[0].id), now, lang)


def plan_forget(store: Store, session: Session, arg: str) -> ForgetPlan:
    """The plan for ``/forget ID|topic``: an item id, else a topic (with the export files)."""
    from desktop_app.memory.forgetting import export_folders, with_files

    if re.match(r"^#?\d+$", arg):
        item = _own(store, session, _item_id(arg))
        plan = store.plan_forget_item(item.id)
    else:
        plan = store.plan_forget_topic(session.id, arg)
    return with_files(plan, export_folders())


def forget(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/forget ID|topic [--yes] — delete for good: the item or topic, every turn and stored copy
    that holds its words, exports and saved prompt states. Without ``--yes`` it only lists."""
    from desktop_app.memory.forgetting import carry_out, describe

    arg = _need(arg, "/forget ID|topic [--yes]")
    confirmed = bool(re.search(r"\s--yes$|^--yes$", arg))
    arg = _need(re.sub(r"\s*--yes$", "", arg).strip(), "/forget ID|topic [--yes]")
    plan = plan_forget(store, session, arg)
    if plan.empty:
        raise MemoryCommandError(reply("nothing_to_forget", lang, what=arg))
    if not confirmed:
        return SlashResult(command="forget", ok=False, text=f"{describe(plan, lang)}\n{reply('forget_confirm', lang, arg=arg)}",
                           data={"plan": plan.model_dump(mode="json", include=_PLAN_FIELDS), "done": False})
    counts = carry_out(store, plan)
    return SlashResult(command="forget", text=reply("forgotten", lang, what=clip(plan.what, 80), **counts),
                       data={"plan": plan.model_dump(mode="json", include=_PLAN_FIELDS), "done": True, **counts},
                       changed=True)


_PLAN_FIELDS = {"what", "items", "messages", "pages", "bookmarks", "traces", "sessions", "files"}


def correct(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/correct ID NEW VALUE — the user's correction wins: a new item supersedes the old one."""
    match = re.match(r"^#?(\d+)\s+(.+)$", _need(arg, "/correct ID NEW-VALUE"), re.S)
    if not match:
        raise MemoryCommandError("usage: /correct ID NEW-VALUE")
    item = _own(store, session, int(match.group(1)))
    if item.status != "active":
        raise MemoryCommandError(f"#{item.id} is {item.status}; only active items can be corrected")
    value = corrected_value(item.value, match.group(2).strip())
    op = AddItem(kind=item.kind, subject=item.subject, value=value, origin="user", supersedes=item.id,
                 source_quote=match.group(2).strip(), details=item.details)
    result = _commit(store, session, [op], "/correct", now)
    return SlashResult(command="correct", text=reply("corrected", lang, old=item.id, id=result.added_ids[0],
                                                     value=clip(value, 80)),
                       data={"id": result.added_ids[0], "supersedes": item.id}, changed=True)


def pin(store: Store, session: Session, arg: str, now: float, lang: str = "en", *, pinned: bool = True) -> SlashResult:
    """/pin ID — keep the item in the anchor zone (``/unpin ID`` undoes it)."""
    item = _own(store, session, _item_id(_need(arg, "/pin ID")))
    _commit(store, session, [SetPinned(item_id=item.id, pinned=pinned)], "/pin", now)
    store.drop_fold(session.id)
    said = reply("pinned" if pinned else "unpinned", lang, id=item.id, value=clip(item.value, 80))
    return SlashResult(command="pin" if pinned else "unpin", text=said,
                       data={"id": item.id, "pinned": pinned}, changed=True)


def unpin(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    return pin(store, session, arg, now, lang, pinned=False)


def bookmark(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/bookmark WORDS — a user bookmark (2–4 keywords) on the latest user message."""
    words = [w for w in re.split(r"[\s,，、]+", _need(arg, "/bookmark WORDS")) if w][:4]
    last = next((m for m in reversed(store.last_messages(session.id, 6)) if m.role == "user"), None)
    if last is None:
        raise MemoryCommandError("nothing to bookmark yet: send a message first")
    if len(words) < 2:
        words += [w for w in keywords([last.content], k=3) if w not in words][: 2 - len(words) + 1]
    mark = store.add_bookmark(session.id, keywords=words[:4], description=clip(last.content, 80), origin="user",
                              now=now, message_id=last.id, page_id=store.page_of_message(last.id))
    return SlashResult(command="bookmark", text=reply("bookmarked", lang, id=mark.id, words=", ".join(mark.keywords)),
                       data=mark.model_dump(), changed=True)


def confirm(store: Store, session: Session, arg: str, now: float, lang: str = "en", *, accept: bool = True) -> SlashResult:
    """/confirm [ID] — accept a pending item (``/reject [ID]`` drops it)."""
    pending = store.list_items(session.id, statuses=("pending",))
    if arg:
        item = _own(store, session, _item_id(arg))
        if item.status != "pending":
            # "/confirm 5" about rule #5 that a pending revocation names: answer that question.
            proposal = pending_revocation_of(pending, item.id)
            if proposal is None:
                raise MemoryCommandError(f"#{item.id} is {item.status}, not pending")
            item = proposal
    elif pending:
        item = pending[-1]
    else:
        raise MemoryCommandError("nothing is pending")
    if accept:
        try:
            ops = confirm_ops(item)
        except ValueError as exc:
            raise MemoryCommandError(str(exc)) from None
    else:
        ops = [SetStatus(item_id=item.id, status="revoked", action="reject")]
    _commit(store, session, ops, "/confirm" if accept else "/reject", now)
    said = reply("confirmed_item" if accept else "rejected_item", lang, id=item.id, value=clip(item.value, 80))
    return SlashResult(command="confirm" if accept else "reject", text=said,
                       data={"id": item.id}, changed=True)


def reject(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    return confirm(store, session, arg, now, lang, accept=False)


def set_mode(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/mode [NAME] — show or set this session's context mode."""
    if not arg:
        return SlashResult(command="mode", text=reply("mode_is", lang, mode=session.mode or reply("mode_default", lang),
                                                      modes=", ".join(MODES)), data={"mode": session.mode})
    if arg not in MODES:
        raise MemoryCommandError(f"unknown mode {arg!r}; choose from {', '.join(MODES)}")
    store.update_session_settings(session.id, mode=arg)
    return SlashResult(command="mode", text=reply("mode_set", lang, name=session.name, mode=arg), data={"mode": arg},
                       changed=True)


def overview(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/memory — what do you remember? Current items by kind, pending ones, bookmarks, pages."""
    items = store.list_items(session.id, statuses=("active", "pending"))
    turn_of = _turns(store, session)
    sections = {kind: reply(f"memory_{kind}", lang) for kind in ("goal", "directive", "constraint", "decision", "fact",
                                                                "preference", "open_question")}
    lines = [reply("memory_title", lang, name=session.name, v=store.state_version(session.id))]
    for kind, title in sections.items():
        shown = [i for i in items if i.kind == kind and i.status == "active"]
        if shown:
            lines.append(f"{title}:")
            lines += [f"  #{i.id} {clip(i.value, 90)}{' 📌' if i.pinned else ''}"
                      f" ({_where(i, turn_of)})" for i in shown]
    pending = [i for i in items if i.status == "pending"]
    if pending:
        lines.append(reply("memory_waiting", lang))
        lines += [f"  #{i.id} {clip(i.value, 90)}" for i in pending]
    marks, pages = store.list_bookmarks(session.id), store.list_pages(session.id)
    lines.append(reply("memory_pages", lang, pages=len(pages), marks=len(marks))
                 + (reply("memory_latest", lang, words=", ".join(marks[-1].keywords)) if marks else ""))
    if len(lines) == 2 and not items:
        lines.insert(1, reply("memory_nothing", lang))
    return SlashResult(command="memory", text="\n".join(lines),
                       data={"state_version": store.state_version(session.id),
                             "items": [item_json(i, turn_of) for i in items],
                             "bookmarks": [b.model_dump() for b in marks], "pages": len(pages)})


def _where(item: MemoryItem, turn_of: dict[int, int]) -> str:
    """Scope, origin and source turn: "profile · model · turn 3"."""
    turn = turn_of.get(item.source_message_id) if item.source_message_id else None
    return " · ".join(x for x in (item.scope, item.origin, f"turn {turn}" if turn else "") if x)


def set_scope(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/scope ID profile|session — move an item to the profile (every session sees it) or into this session."""
    parts = _need(arg, "/scope ID profile|session").split()
    if len(parts) != 2 or parts[1] not in ("profile", "session"):
        raise MemoryCommandError("usage: /scope ID profile|session")
    item = _own(store, session, _item_id(parts[0]))
    if item.scope == parts[1]:
        return SlashResult(command="scope", text=reply("scope_already", lang, id=item.id, scope=parts[1]),
                           data={"item": item_json(item)})
    _commit(store, session, [SetScope(item_id=item.id, scope=parts[1])], f"/scope {parts[1]}", now)
    moved = store.get_item(item.id)
    said = reply(f"scope_moved_{parts[1]}", lang, id=item.id, name=session.name)
    return SlashResult(command="scope", text=said,
                       data={"item": item_json(moved) if moved is not None else None})


def _turns(store: Store, session: Session) -> dict[int, int]:
    return store.message_turns(i.source_message_id for i in store.list_items(session.id) if i.source_message_id)


def show(store: Store, session: Session, arg: str, now: float, lang: str = "en") -> SlashResult:
    """/show ID (``memory show ID``) — the item with its whole supersede chain and change history."""
    item = _own(store, session, _item_id(_need(arg, "/show ID")))
    turn_of = _turns(store, session)
    root = item
    while root.supersedes is not None and (older := store.get_item(root.supersedes)) is not None:
        root = older
    chain, cursor = [root], root
    while (newer := store.items_superseding(cursor.id)):
        cursor = newer[-1]
        chain.append(cursor)
    lines = [f"#{item.id} [{item.kind}] {item.status}: {item.value}",
             f"  subject {item.subject}; scope {item.scope}; origin {item.origin}; pinned {item.pinned}; "
             f"v{item.state_version}",
             f"  source: turn {turn_of.get(item.source_message_id, '-') if item.source_message_id is not None else '-'} "
             f"“{clip(item.source_quote or '', 80)}”",
             reply("show_chain", lang)]
    lines += [f"  {'→' if c.id == item.id else ' '} #{c.id} {c.status:<10} {stamp(c.updated_at)}  {clip(c.value, 70)}"
              for c in chain]
    changes = [ch for c in chain for ch in store.item_changes(c.id)]
    changes.sort(key=lambda ch: ch.id)
    lines.append(reply("show_history", lang))
    lines += [f"  v{ch.state_version} {stamp(ch.created_at)} #{ch.item_id} {ch.action}" for ch in changes]
    return SlashResult(command="show", text="\n".join(lines),
                       data={"item": item_json(item, turn_of), "chain": [item_json(c, turn_of) for c in chain],
                             "changes": [ch.model_dump() for ch in changes]})
