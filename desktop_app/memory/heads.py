"""Folding the prompt head in the store: read the memory and summary, freeze them, save.

The pure part is :mod:`desktop_app.memory.fold`; this module is the one place that reads what
a fold needs and writes the result (the turn stages and the model-summary job both fold).
"""

from __future__ import annotations

import time

from desktop_app.memory.fold import FoldReason, HeadFold, changes_since, fold, needs_fold, visible


def split_items(store, session_id: int):
    """All of a session's items (profile included): the live ones and the history."""
    everything = store.list_items(session_id)
    live = [i for i in everything if i.status in ("active", "pending")]
    history = [i for i in everything if i.status in ("superseded", "revoked")]
    return everything, live, history


def refold(store, session_id: int, *, lang: str, reason: FoldReason, turn: int | None = None,
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


def current_head(store, session_id: int, everything=None) -> HeadFold | None:
    """The session's folded head without items forgotten since (None: not folded yet);
    ``everything``: the session's items when the caller already read them."""
    head = store.latest_fold(session_id)
    if head is None:
        return None
    items = store.list_items(session_id) if everything is None else everything
    return visible(head, {i.id for i in items})


def fold_reason(store, session_id: int, *, counter, budget: int) -> FoldReason | None:
    """Why the head must be folded now: none yet, or the changes outgrew their block."""
    head = current_head(store, session_id)
    if head is None:
        return "start"
    _, live, history = split_items(store, session_id)
    changes = changes_since(head, live, history, {})
    tokens = counter.count("\n".join(c.item.value for c in changes)) + 8 * len(changes)
    return needs_fold(head, changes, tokens=tokens, budget=budget)
