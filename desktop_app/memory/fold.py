"""The prompt head's memory, frozen between folds (issue 11; seeds 002 §7, 004).

Every memory change used to rewrite the anchors and state at the head of the prompt, and
llama.cpp then evaluated the whole prompt again. Instead the head shows the memory as it was
at the last *fold*, byte for byte, and what changed since reaches the prompt as a short
"changes since turn N" block right before the input (the replay zone, where a small model
attends best). A fold happens when the head is rewritten anyway (a page-out), when the
changes block outgrows its budget, and once at a session's first message.

Pure: :func:`fold` takes what the store read and returns the snapshot; :func:`changes_since`
compares a snapshot with the current items. No clock, database or model in here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from desktop_app.memory.models import MemoryItem, SummaryContent
from desktop_app.memory.render import supersession_notes
from desktop_app.memory.summary import stale_values

MAX_CHANGES = 8  # more changes than this fold into the head at the next message
FoldReason = Literal["start", "page_out", "overflow", "summary"]


class HeadFold(BaseModel):
    """The memory the prompt head shows until the next fold (stored whole, so the head's bytes
    never depend on later changes to the rows)."""

    state_version: int  # the session's memory version folded in
    turn: int  # the last turn folded in (0: before the first message)
    items: list[MemoryItem] = []  # active and pending items as they were
    summary: SummaryContent | None = None  # the rolling summary the head renders
    stale: list[str] = []  # numbers only superseded/revoked items held (summary lines with them hide)
    notes: dict[int, list[str]] = {}  # message id -> superseded/revoked notes on recent turns
    last_item_id: int = 0  # items with a higher id were written after the fold
    reason: FoldReason = "start"


class HeadChange(BaseModel):
    """One line of the changes block: an item that is new, changed, revoked or settled since the fold."""

    change: Literal["new", "changed", "updated", "revoked", "confirmed"]
    item: MemoryItem  # the current item (for "revoked": the rule as it was)
    was: MemoryItem | None = None  # the folded item it replaced ("changed")
    turn: int | None = None  # the turn that made the change, when known


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


def _folded_ancestor(item: MemoryItem, folded: dict[int, MemoryItem], everything: dict[int, MemoryItem]):
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
