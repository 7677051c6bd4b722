"""The prompt head's memory, frozen between folds.

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

from desktop_app.memory.core.models import MemoryItem, SummaryContent

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


