"""Paging out: when the recent turns pass the high watermark (85 % of their budget) the oldest
turns leave the context in one chunk, down to the low watermark (60 %).

The page stays verbatim in ``messages`` (linked by ``page_id``), gets an automatic bookmark
(2–4 keywords + a one-line description) and is folded into the rolling summary; every few
pages a stage summary joins the summary chain (:mod:`~desktop_app.memory.archive.summary_chain`). Paging in
chunks keeps the recent layer append-only between page-outs, so llama.cpp's prefix cache holds.

Which exchanges leave is decided ahead of time (:mod:`~desktop_app.memory.background.paging_advice`): the
rule cache and, with the model on, one batched model call mark some as *keep*; the page-out
passes over those (within a bound) and is otherwise oldest first, as it is with no decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop_app.memory.archive.summary import summarise_page
from desktop_app.memory.archive.summary_chain import chain_if_due
from desktop_app.memory.core.models import Message
from desktop_app.memory.core.records import PagingEvent
from desktop_app.memory.lang.text import clip, keywords, term_set
from desktop_app.memory.prompt.budget import MESSAGE_OVERHEAD, compute_budgets
from desktop_app.memory.write.mood import is_small_talk

if TYPE_CHECKING:
    from desktop_app.engine.protocol import TokenCounter
    from desktop_app.memory.store import Store

MIN_KEEP_MESSAGES = 2
KEEP_SHARE = 0.25  # kept exchanges may hold at most this share of the low watermark


def message_cost(message: Message, counter: TokenCounter) -> int:
    return (message.token_count or counter.count(message.content)) + MESSAGE_OVERHEAD


def exchanges(messages: list[Message]) -> list[list[int]]:
    """Indices of ``messages`` grouped into exchanges: a user message and what follows it
    (messages before the first user message form a group of their own)."""
    groups: list[list[int]] = []
    for index, message in enumerate(messages):
        if message.role == "user" or not groups:
            groups.append([index])
        else:
            groups[-1].append(index)
    return groups


def lexical_decision(user: str, reply: str, latest_terms: set[str]) -> str | None:
    """The rule cache: ``evict`` for small talk and for an exchange sharing no word with the
    latest message, ``keep`` when it shares two or more (the message is still about it), None
    when it shares one (the model may say)."""
    if is_small_talk(user):
        return "evict"
    shared = len(latest_terms & term_set(f"{user} {reply}"))
    return "keep" if shared >= 2 else "evict" if shared == 0 else None


def kept_exchanges(recent: list[Message], marks: dict[int, str]) -> set[int]:
    """The user messages of the exchanges that should stay at this page-out: held (memory not
    settled), else by the rule cache against the latest message, else by the model's stored
    decision — never one that stayed at a page-out already (``spent``)."""
    latest = next((m for m in reversed(recent) if m.role == "user"), None)
    latest_terms = term_set(latest.content) if latest is not None else set()
    keep: set[int] = set()
    for group in exchanges(recent):
        first = recent[group[0]]
        if first.role != "user" or first is latest:
            continue
        mark = marks.get(first.id)
        if mark == "held":
            keep.add(first.id)
        if mark in ("held", "spent"):
            continue
        rule = lexical_decision(first.content, " ".join(recent[i].content for i in group[1:]), latest_terms)
        if rule == "keep" or (rule is None and mark == "keep"):
            keep.add(first.id)
    return keep


def choose_evictions(recent: list[Message], costs: list[int], high: int, low: int, *,
                     keep: frozenset[int] | set[int] = frozenset(), keep_budget: int = 0) -> list[int]:
    """Indices of the ``recent`` messages to page out (none below the high watermark).

    Whole exchanges, oldest first, down to the low watermark, never the last
    ``MIN_KEEP_MESSAGES``. An exchange whose user message is in ``keep`` (a paging decision)
    is passed over while the kept ones cost at most ``keep_budget`` tokens; when the low
    watermark cannot be reached without them they leave too, oldest first (the fallback).
    """
    total = sum(costs)
    if total <= high:
        return []
    limit = max(0, len(recent) - MIN_KEEP_MESSAGES)
    evict: list[int] = []
    kept: list[list[int]] = []
    kept_cost = 0
    for group in exchanges(recent[:limit]):
        if total <= low:
            break
        cost = sum(costs[i] for i in group)
        first = recent[group[0]]
        if first.role == "user" and first.id in keep and kept_cost + cost <= keep_budget:
            kept.append(group)
            kept_cost += cost
            continue
        evict += group
        total -= cost
    for group in kept:
        if total <= low:
            break
        evict += group
        total -= sum(costs[i] for i in group)
    return sorted(evict)


def page_out_if_needed(store: Store, session_id: int, *, counter: TokenCounter, n_ctx: int, system_prompt: str, now: float,
                       recent: list[Message] | None = None) -> PagingEvent | None:
    """Archive the oldest recent turns when they pass the high watermark; None when not needed.

    ``recent``: the session's unpaged messages when the caller already holds them."""
    budgets = compute_budgets(n_ctx, counter.count(system_prompt))
    recent = store.unpaged_messages(session_id) if recent is None else recent
    costs = [message_cost(m, counter) for m in recent]
    marks, advised = store.paging_marks(session_id)
    keep = kept_exchanges(recent, marks)
    chosen = choose_evictions(recent, costs, budgets.high_watermark, budgets.low_watermark, keep=keep,
                              keep_budget=int(KEEP_SHARE * budgets.low_watermark))
    if not chosen:
        return None
    chunk = [recent[i] for i in chosen]
    turn_of = {m.id: m.turn_number for m in chunk}
    chunk_ids = {m.id for m in chunk}
    stayed = [m for m in recent[:chosen[-1]] if m.id not in chunk_ids and m.role == "user"]
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
        content = summarise_page(previous.content if previous else None, chunk, items, bookmark, turn_of)
        summary = store.save_summary(session_id, content, chunk[-1].id, now)
        store.settle_paging_advice(session_id, [m.id for m in chunk if m.id in advised],
                                   [m.id for m in stayed if m.id in keep], now=now)
        stage = chain_if_due(store, session_id, now=now)
    spent = sum(costs[i] for i in chosen)
    return PagingEvent(page_id=page.id, first_message_id=chunk[0].id, last_message_id=chunk[-1].id,
                       turns=sorted(set(turn_of.values())), messages=len(chunk), tokens=spent,
                       recent_before=sum(costs), recent_after=sum(costs) - spent,
                       kept_turns=[m.turn_number for m in stayed], stage_id=stage.id if stage else None,
                       high_watermark=budgets.high_watermark, low_watermark=budgets.low_watermark,
                       bookmark_id=bookmark.id, keywords=bookmark.keywords, summary_version=summary.version)
