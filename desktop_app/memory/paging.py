"""Paging out: when the recent turns pass the high watermark (85 % of their budget) the oldest
turns leave the context in one chunk, down to the low watermark (60 %) (seed 004).

The page stays verbatim in ``messages`` (linked by ``page_id``), gets an automatic bookmark
(2–4 keywords + a one-line description) and is folded into the rolling summary. Paging in
chunks keeps the recent layer append-only between page-outs, so llama.cpp's prefix cache holds.
"""

from __future__ import annotations

from pydantic import BaseModel

from desktop_app.memory.budget import MESSAGE_OVERHEAD, compute_budgets
from desktop_app.memory.models import Message
from desktop_app.memory.summary import fold_page
from desktop_app.memory.text import clip, keywords

MIN_KEEP_MESSAGES = 2


class PagingEvent(BaseModel):
    """One page-out, as logged in ``turn_log`` and shown by the inspector."""

    page_id: int
    first_message_id: int
    last_message_id: int
    turns: list[int]
    messages: int
    tokens: int
    recent_before: int
    recent_after: int
    high_watermark: int
    low_watermark: int
    bookmark_id: int
    keywords: list[str]
    summary_version: int


def message_cost(message: Message, counter) -> int:
    return (message.token_count or counter.count(message.content)) + MESSAGE_OVERHEAD


def choose_page_out(recent: list[Message], costs: list[int], high: int, low: int) -> int:
    """How many of the oldest ``recent`` messages to page out (0 below the high watermark).

    Down to the low watermark, then on to the end of a user/assistant exchange, never
    touching the last ``MIN_KEEP_MESSAGES``.
    """
    total = sum(costs)
    if total <= high:
        return 0
    limit = max(0, len(recent) - MIN_KEEP_MESSAGES)
    count = 0
    while count < limit and total > low:
        total -= costs[count]
        count += 1
    while count < limit and recent[count].role != "user":
        count += 1
    return count


def page_out_if_needed(store, session_id: int, *, counter, n_ctx: int, system_prompt: str, now: float,
                       recent: list[Message] | None = None) -> PagingEvent | None:
    """Archive the oldest recent turns when they pass the high watermark; None when not needed.

    ``recent``: the session's unpaged messages when the caller already holds them."""
    budgets = compute_budgets(n_ctx, counter.count(system_prompt))
    recent = store.unpaged_messages(session_id) if recent is None else recent
    costs = [message_cost(m, counter) for m in recent]
    count = choose_page_out(recent, costs, budgets.high_watermark, budgets.low_watermark)
    if count == 0:
        return None
    chunk = recent[:count]
    turn_of = {m.id: m.turn_number for m in chunk}
    chunk_ids = {m.id for m in chunk}
    with store.transaction():
        page = store.create_page(session_id, chunk, now)
        words = keywords([m.content for m in chunk if m.role == "user"] or [m.content for m in chunk], k=4)
        if len(words) < 2:
            words = keywords([m.content for m in chunk], k=4) or ["conversation", f"turns {turn_of[chunk[0].id]}"]
        first_user = next((m.content for m in chunk if m.role == "user"), chunk[0].content)
        bookmark = store.add_bookmark(session_id, page_id=page.id, keywords=words[:4],
                                      description=clip(first_user, 80), origin="auto", now=now)
        items = store.items_from_messages(session_id, chunk_ids)
        previous = store.latest_summary(session_id)
        content = fold_page(previous.content if previous else None, chunk, items, bookmark, turn_of)
        summary = store.save_summary(session_id, content, chunk[-1].id, now)
    return PagingEvent(page_id=page.id, first_message_id=chunk[0].id, last_message_id=chunk[-1].id,
                       turns=sorted(set(turn_of.values())), messages=len(chunk), tokens=sum(costs[:count]),
                       recent_before=sum(costs), recent_after=sum(costs[count:]),
                       high_watermark=budgets.high_watermark, low_watermark=budgets.low_watermark,
                       bookmark_id=bookmark.id, keywords=bookmark.keywords, summary_version=summary.version)
