"""The seam between recall and prompt assembly: which hits fill the ``recalled`` layer."""

from __future__ import annotations

import time
from collections.abc import Iterable

from desktop_app.memory.recall.models import RecallHit, RecallWeights
from desktop_app.memory.recall.query import is_page_fault
from desktop_app.memory.recall.search import search

MAX_PROMPT_HITS = 5
PAGE_FAULT_HITS = 3  # at least this many are fetched when the input points back


def recall_for_prompt(store, session_id: int, user_text: str, *, embedder=None, budget_tokens: int,
                      counter, exclude_ids: Iterable[int] = (), enabled: bool = True, limit: int = MAX_PROMPT_HITS,
                      weights: RecallWeights | None = None, now: float | None = None) -> list[RecallHit]:
    """Hits for the ``recalled`` layer of the prompt for ``user_text``.

    ``enabled`` is the context mode's own wish to recall; a page fault ("刚才", "that file",
    "you said" …) in the input turns recall on even when it is False. Turns already in the
    prompt (``exclude_ids``) are skipped, at most ``limit`` (3-5) hits are kept, and only as
    many as fit ``budget_tokens`` (counted on the labelled snippet). The chosen hits have
    their reference count raised (the importance score's 'reference frequency')."""
    fault = is_page_fault(user_text)
    if not (enabled or fault) or budget_tokens <= 0 or not user_text.strip():
        return []
    excluded = set(exclude_ids)
    wanted = max(limit, PAGE_FAULT_HITS) if fault else limit
    hits = search(store, session_id, user_text, k=wanted + len(excluded), embedder=embedder, weights=weights)
    picked: list[RecallHit] = []
    used = 0
    for hit in hits:
        if hit.message_id in excluded:
            continue
        cost = counter.count(format_hit(hit)) + 2
        if used + cost > budget_tokens:
            continue
        picked.append(hit)
        used += cost
        if len(picked) >= wanted:
            break
    if picked:
        store.note_recalled([h.message_id for h in picked], now if now is not None else time.time())
    return picked


def format_hit(hit: RecallHit) -> str:
    """How a hit reads in the prompt: a reference, labelled with its turn and time."""
    return f"[{hit.label}] {hit.role}: {hit.snippet}"
