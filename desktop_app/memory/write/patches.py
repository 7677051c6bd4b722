"""Validated patches: the only way memory items change.

Extraction rules, slash commands and (later) the model only *propose* a :class:`MemoryPatch`;
:func:`apply_patch` checks it against the session's current ``state_version`` and the rows it
touches, then applies every operation in one transaction and bumps the version once. A stale or
invalid patch raises :class:`PatchRejected` and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from desktop_app.memory.core.models import ItemStatus, MemoryItem, MemoryKind, Scope
from desktop_app.memory.core.safe_text import plain

if TYPE_CHECKING:
    from desktop_app.memory.store import Store

# Who may overrule whom: an inferred change cannot silently replace an explicit user statement.
ORIGIN_RANK = {"model": 1, "rule": 1, "import": 1, "user": 2, "command": 2}

# Allowed status transitions; anything else is an invalid patch.
_TRANSITIONS = {
    ("active", "superseded"), ("active", "revoked"),
    ("pending", "active"), ("pending", "revoked"), ("pending", "superseded"),
}


class PatchRejected(ValueError):
    """A patch that is stale or invalid; nothing of it was applied."""


class AddItem(BaseModel):
    """Add a memory item; with ``supersedes`` the old active item becomes superseded."""

    model_config = ConfigDict(extra="forbid")
    op: Literal["add"] = "add"
    kind: MemoryKind
    subject: str = Field(min_length=1, max_length=200)
    value: str = Field(min_length=1, max_length=4000)
    status: Literal["active", "pending"] = "active"
    origin: Literal["rule", "user", "command", "model", "import"] = "rule"
    source_message_id: int | None = None
    source_quote: str | None = Field(default=None, max_length=4000)
    supersedes: int | None = None
    details: dict[str, Any] = {}
    pinned: bool = False
    scope: Scope | None = None  # None: the scope of what it supersedes, else the session
    # A model pass may restate a rule item *from the same message* in normal form ("budget:
    # 300 EUR" for "my budget is 300 euros"): that refines, it does not overrule the user.
    refines: bool = False

    @field_validator("subject", "value")
    @classmethod
    def _not_blank(cls, text: str) -> str:
        # Memory values are printed and put in prompts: no escape sequences (the quote stays verbatim).
        text = plain(text).strip()
        if not text:
            raise ValueError("must not be blank")
        return text


class SetStatus(BaseModel):
    """Revoke, confirm (pending → active) or reject (pending → revoked) an item."""

    model_config = ConfigDict(extra="forbid")
    op: Literal["status"] = "status"
    item_id: int
    status: ItemStatus
    action: Literal["revoke", "confirm", "reject", "supersede"]
    reason: str = ""


class SetPinned(BaseModel):
    """Pin an item to the anchor zone (or unpin it)."""

    model_config = ConfigDict(extra="forbid")
    op: Literal["pin"] = "pin"
    item_id: int
    pinned: bool = True


class SetDetails(BaseModel):
    """Replace an item's details (goal status and completed steps)."""

    model_config = ConfigDict(extra="forbid")
    op: Literal["details"] = "details"
    item_id: int
    details: dict[str, Any]


class SetScope(BaseModel):
    """Move an item to the profile (every session sees it) or into this session only."""

    model_config = ConfigDict(extra="forbid")
    op: Literal["scope"] = "scope"
    item_id: int
    scope: Scope


ChangeOp = SetStatus | SetPinned | SetDetails | SetScope  # an operation on an existing item
PatchOp = Annotated[AddItem | ChangeOp, Field(discriminator="op")]


class MemoryPatch(BaseModel):
    """A batch of operations that must all apply against ``expected_version`` or not at all."""

    model_config = ConfigDict(extra="forbid")
    session_id: int
    expected_version: int = Field(ge=0)
    ops: list[PatchOp] = Field(min_length=1)
    reason: str = ""


class PatchResult(BaseModel):
    """What an applied patch did: the new version and the ids of the items it added."""

    state_version: int
    added_ids: list[int]
    touched_ids: list[int]


def apply_patch(store: Store, patch: MemoryPatch, *, now: float | None = None) -> PatchResult:
    """Validate ``patch`` against the database and apply it atomically.

    Raises :class:`PatchRejected` when the session's ``state_version`` moved on since the patch
    was made, or when an operation refers to a missing item, another session's item, or asks
    for a status change that is not allowed.
    """
    now = time.time() if now is None else now
    try:
        with store.transaction():
            current = store.state_version(patch.session_id)
            if current != patch.expected_version:
                raise PatchRejected(
                    f"stale patch: expected state_version {patch.expected_version}, the session is at {current}")
            version = store._bump_state_version(patch.session_id)
            added: list[int] = []
            touched: list[int] = []
            for op in patch.ops:
                if isinstance(op, AddItem):
                    added.append(_apply_add(store, patch.session_id, op, version, now))
                else:
                    _apply_change(store, patch.session_id, op, version, now)
                    touched.append(op.item_id)
            return PatchResult(state_version=version, added_ids=added, touched_ids=touched)
    except LookupError as exc:
        raise PatchRejected(str(exc)) from None


def _owned(store: Store, session_id: int, item_id: int) -> MemoryItem:
    """The item, when this session may change it: its own, or one of the profile's."""
    item = store.get_item(item_id)
    if item is None or (item.session_id != session_id and item.scope != "profile"):
        raise PatchRejected(f"no memory item #{item_id} in this session")
    return item


def _transition(item: MemoryItem, status: str) -> None:
    if (item.status, status) not in _TRANSITIONS:
        raise PatchRejected(f"item #{item.id} is {item.status}; it cannot become {status}")


def _apply_add(store: Store, session_id: int, op: AddItem, version: int, now: float) -> int:
    old = None
    if op.supersedes is not None:
        old = _owned(store, session_id, op.supersedes)
        _transition(old, "superseded")
        refining = op.refines and old.source_message_id is not None and old.source_message_id == op.source_message_id
        if ORIGIN_RANK.get(op.origin, 0) < ORIGIN_RANK.get(old.origin, 0) and op.status == "active" and not refining:
            raise PatchRejected(
                f"item #{old.id} was stated explicitly ({old.origin}); an inferred ({op.origin}) change "
                "cannot replace it without confirmation")
    if op.source_message_id is not None:
        message = store.get_message(op.source_message_id)
        if message.session_id != session_id:
            raise PatchRejected(f"message {op.source_message_id} belongs to another session")
    # A correction or a newer value keeps the pin of what it replaces: the user pinned the subject.
    pinned = op.pinned or (old is not None and old.pinned)
    scope = op.scope or (old.scope if old is not None else "session")
    owner = store.profile_id() if scope == "profile" else session_id
    new_id = store._insert_item(
        owner, kind=op.kind, subject=op.subject, value=op.value, status=op.status, origin=op.origin,
        source_message_id=op.source_message_id, source_quote=op.source_quote, supersedes=op.supersedes,
        details=op.details, pinned=pinned, version=version, now=now)
    store._log_change(session_id, version, new_id, "add" if old is None else "supersede", op.model_dump(), now)
    if old is not None and op.status == "active":
        store._set_item_status(old.id, "superseded", version, now)
        store._log_change(session_id, version, old.id, "superseded", {"by": new_id}, now)
    return new_id


def _apply_change(store: Store, session_id: int, op: ChangeOp, version: int, now: float) -> None:
    item = _owned(store, session_id, op.item_id)
    if isinstance(op, SetStatus):
        _transition(item, op.status)
        store._set_item_status(item.id, op.status, version, now)
        if op.action == "confirm" and item.supersedes is not None:
            old = store.get_item(item.supersedes)
            if old is not None and old.status == "active":
                store._set_item_status(old.id, "superseded", version, now)
                store._log_change(session_id, version, old.id, "superseded", {"by": item.id}, now)
        store._log_change(session_id, version, item.id, op.action, op.model_dump(), now)
    elif isinstance(op, SetPinned):
        if item.status not in ("active", "pending"):
            raise PatchRejected(f"item #{item.id} is {item.status}; only current items can be pinned")
        store._set_item_pinned(item.id, op.pinned, version, now)
        store._log_change(session_id, version, item.id, "pin" if op.pinned else "unpin", op.model_dump(), now)
    elif isinstance(op, SetDetails):
        store._set_item_details(item.id, op.details, version, now)
        store._log_change(session_id, version, item.id, "details", op.model_dump(), now)
    elif isinstance(op, SetScope):
        if item.status not in ("active", "pending"):
            raise PatchRejected(f"item #{item.id} is {item.status}; only current items can move")
        store._set_item_owner(item.id, store.profile_id() if op.scope == "profile" else session_id, version, now)
        store._log_change(session_id, version, item.id, f"scope:{op.scope}", op.model_dump(), now)


def propose(store: Store, session_id: int, ops: Sequence[PatchOp], *, reason: str = "") -> MemoryPatch:
    """A patch for ``ops`` against the session's version as it is now."""
    return MemoryPatch(session_id=session_id, expected_version=store.state_version(session_id),
                       ops=ops, reason=reason)
