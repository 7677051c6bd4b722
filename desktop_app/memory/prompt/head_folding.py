"""Folding the prompt head in the store: read the memory and summary, freeze them, save.

The pure part is :mod:`desktop_app.memory.core.head_fold`; this module is the one place that reads what
a fold needs and writes the result (the turn stages and the model-summary job both fold).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from desktop_app.memory.core.head_fold import FoldReason, HeadChange, HeadFold
from desktop_app.memory.core.models import MemoryItem, SummaryContent
from desktop_app.memory.prompt.render import supersession_notes
from desktop_app.memory.prompt.summary_text import stale_values

if TYPE_CHECKING:
    from desktop_app.engine.protocol import TokenCounter
    from desktop_app.memory.store import Store


def split_items(store: Store, session_id: int) -> tuple[list[MemoryItem], list[MemoryItem], list[MemoryItem]]:
    """All of a session's items (profile included): the live ones and the history."""
    everything = store.list_items(session_id)
    live = [i for i in everything if i.status in ("active", "pending")]
    history = [i for i in everything if i.status in ("superseded", "revoked")]
    return everything, live, history


def refold(store: Store, session_id: int, *, lang: str, reason: FoldReason, turn: int | None = None,
           now: float | None = None) -> HeadFold:
    """Freeze the current memory and summary as what the prompt head shows from now on."""
    _, live, history = split_items(store, session_id)
    unpaged = store.unpaged_messages(session_id)
    if turn is None:
        turn = max((m.turn_number for m in unpaged), default=0)
    summary = store.latest_summary(session_id)
    head = fold(live, history, state_version=store.state_version(session_id), turn=turn,
                summary=summary.content if summary else None, recent_ids={m.id for m in unpaged}, lang=lang,
                reason=reason)
    store.save_fold(session_id, head, time.time() if now is None else now)
    return head


def current_head(store: Store, session_id: int, everything: list[MemoryItem] | None = None) -> HeadFold | None:
    """The session's folded head without items forgotten since (None: not folded yet);
    ``everything``: the session's items when the caller already read them."""
    head = store.latest_fold(session_id)
    if head is None:
        return None
    items = store.list_items(session_id) if everything is None else everything
    return visible(head, {i.id for i in items})


def fold_reason(store: Store, session_id: int, *, counter: TokenCounter, budget: int) -> FoldReason | None:
    """Why the head must be folded now: none yet, or the changes outgrew their block."""
    head = current_head(store, session_id)
    if head is None:
        return "start"
    _, live, history = split_items(store, session_id)
    changes = changes_since(head, live, history, {})
    tokens = counter.count("\n".join(c.item.value for c in changes)) + 8 * len(changes)
    return needs_fold(head, changes, tokens=tokens, budget=budget)


MAX_CHANGES = 8  # more changes than this fold into the head at the next message


def fold(items: list[MemoryItem], history: list[MemoryItem], *, state_version: int, turn: int,
         summary: SummaryContent | None, recent_ids: set[int], lang: str, reason: FoldReason) -> HeadFold:
    """The snapshot of the current memory the head will show from now on."""
    live = [i for i in items if i.status in ("active", "pending")]
    current = {i.id: i for i in live}
    notes = {mid: lines for mid, lines in supersession_notes(history, current, lang).items() if mid in recent_ids}
    return HeadFold(state_version=state_version, turn=turn, items=sorted(live, key=lambda i: i.id), summary=summary,
                    stale=sorted(stale_values(live, history)), notes=notes, reason=reason,
                    last_item_id=max((i.id for i in [*items, *history]), default=0))


def visible(head: HeadFold, existing_ids: set[int]) -> HeadFold:
    """The snapshot without items forgotten since (forgetting must leave the prompt at once)."""
    kept = [i for i in head.items if i.id in existing_ids]
    return head if len(kept) == len(head.items) else head.model_copy(update={"items": kept})


def changes_since(head: HeadFold, items: list[MemoryItem], history: list[MemoryItem],
                  item_turns: dict[int, int]) -> list[HeadChange]:
    """What the current memory holds that the folded head does not show, oldest first."""
    folded = {i.id: i for i in head.items}
    everything = {i.id: i for i in [*items, *history]}
    changes: list[HeadChange] = []
    replaced: set[int] = set()
    for item in sorted(items, key=lambda i: i.id):
        if item.status not in ("active", "pending"):
            continue
        old = folded.get(item.id)
        if old is not None:
            if old.status == "pending" and item.status == "active":
                changes.append(HeadChange(change="confirmed", item=item, turn=item_turns.get(item.id)))
            elif (old.value, old.details) != (item.value, item.details):  # a goal's steps, a restated value
                changes.append(HeadChange(change="updated", item=item, was=old, turn=item_turns.get(item.id)))
            continue
        was = None
        if item.status == "active" and item.supersedes is not None:
            ancestor = _folded_ancestor(item, folded, everything)
            if ancestor is not None:
                replaced.add(ancestor.id)
            # The value it replaced, folded or not: the raw turns may still show it.
            was = everything.get(item.supersedes) or ancestor
        changes.append(HeadChange(change="changed" if was else "new", item=item, was=was,
                                    turn=item_turns.get(item.id)))
    current_ids = {i.id for i in items if i.status in ("active", "pending")}
    for old in [*head.items, *(i for i in history if i.id > head.last_item_id and i.status == "revoked")]:
        now = everything.get(old.id)
        if old.id in current_ids or old.id in replaced or now is None:
            continue
        # Folded (or written since) but no longer live, and nothing current replaced it: revoked,
        # or superseded by an item that was itself revoked since.
        changes.append(HeadChange(change="revoked", item=old, turn=item_turns.get(old.id)))
    return sorted(changes, key=lambda c: (c.turn or 0, c.item.id))


def _folded_ancestor(item: MemoryItem, folded: dict[int, MemoryItem], everything: dict[int, MemoryItem]) -> MemoryItem | None:
    """The folded item ``item`` supersedes, directly or through items added since the fold."""
    seen: set[int] = set()
    step = item.supersedes
    while step is not None and step not in seen:
        if step in folded:
            return folded[step]
        seen.add(step)
        older = everything.get(step)
        step = older.supersedes if older else None
    return None


def needs_fold(head: HeadFold | None, changes: list[HeadChange], *, tokens: int, budget: int) -> FoldReason | None:
    """Why the head must be rewritten now (None: the changes block can carry the news)."""
    if head is None:
        return "start"
    if len(changes) > MAX_CHANGES or tokens > budget:
        return "overflow"
    return None
