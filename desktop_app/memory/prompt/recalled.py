"""The seam between recall and prompt assembly: which hits fill the ``recalled`` layer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from desktop_app.memory.core.recall_hits import RecallHit, RecallWeights
from desktop_app.memory.core.turn_numbers import turn_views
from desktop_app.memory.lang.text import script_language
from desktop_app.memory.prompt.assembly import RecalledPage
from desktop_app.memory.recall.query import is_page_fault, plan_query
from desktop_app.memory.recall.search import search

if TYPE_CHECKING:
    from desktop_app.engine.protocol import Embedder, TokenCounter
    from desktop_app.memory.store import Store

MAX_PROMPT_HITS = 5
PAGE_FAULT_HITS = 3  # at least this many are fetched when the input points back
# Without a page fault a hit must show lexical evidence (full text or a bookmark) or be this
# similar to the input: the nearest vector is not necessarily a related one.
MIN_VECTOR_ONLY_SIMILARITY = 0.5
# A question in one language and a turn in the other are never as close, even when the turn
# answers it (multilingual-e5: gold turns 0.3-0.5 on the common scale, the median turn 0.1-0.2),
# and full text cannot vouch for them, so the bar is lower and only the best two such hits pass.
# `paperclip bench crosslang` (blind set + MemoryBank both ways): a gold turn reaches the prompt
# for 0.62-0.81 of the questions, from 0.00-0.38 with the same-language bar; asked of another
# person's conversation, 0.38 (en→zh) and 0.88 (zh→en) bring one or two turns, from 0.00 / 0.19.
MIN_CROSS_LANGUAGE_SIMILARITY = 0.25
MAX_CROSS_LANGUAGE_ONLY = 2  # of the hits only that lower bar lets in, the best this many
LEXICAL_SIGNALS = frozenset({"bm25", "bookmark", "user_bookmark", "stage"})  # evidence in words


def recall_for_prompt(store: Store, session_id: int, user_text: str, *, embedder: Embedder | None = None, budget_tokens: int,
                      counter: TokenCounter, exclude_ids: Iterable[int] = (), enabled: bool = True, limit: int = MAX_PROMPT_HITS,
                      weights: RecallWeights | None = None) -> list[RecallHit]:
    """Hits for the ``recalled`` layer of the prompt for ``user_text``.

    ``enabled`` is the context mode's own wish to recall; a page fault ("刚才", "that file",
    "you said" …) in the input turns recall on even when it is False. Turns already in the
    prompt (``exclude_ids``) are skipped, at most ``limit`` (3-5) hits are kept, and only as
    many as fit ``budget_tokens`` (counted on the labelled snippet). Read-only: the turn's log
    stage raises the chosen hits' reference count (the importance score's 'reference
    frequency'), so previews and benchmarks never change scores. ``embedder`` None: full
    text and bookmarks only."""
    fault = is_page_fault(user_text)
    if not (enabled or fault) or budget_tokens <= 0 or not user_text.strip():
        return []
    excluded = set(exclude_ids)
    wanted = max(limit, PAGE_FAULT_HITS) if fault else limit
    hits = search(store, session_id, user_text, k=wanted, embedder=embedder, weights=weights, exclude=excluded)
    words = plan_query(user_text).words
    asked_in = script_language(user_text)
    picked: list[RecallHit] = []
    used = across = 0
    for hit in hits:  # search() has already left out the excluded turns
        if not fault and (not _has_evidence(hit, asked_in) or _weak_match(hit, words, asked_in)):
            continue
        if not fault and _across_only(hit, asked_in):
            if across >= MAX_CROSS_LANGUAGE_ONLY:
                continue
            across += 1
        cost = counter.count(format_hit(hit)) + 2
        if used + cost > budget_tokens:
            continue
        picked.append(hit)
        used += cost
        if len(picked) >= wanted:
            break
    return picked


def format_hit(hit: RecallHit) -> str:
    """How a hit reads in the prompt: a reference, labelled with its turn and time."""
    return f"[{hit.label}] {hit.role}: {hit.snippet}"


def _close_vector(hit: RecallHit, asked_in: str | None) -> bool:
    """The hit's vector is close enough to vouch for it on its own: the bar is lower for a turn
    written in the other language than the question."""
    vector = hit.signals.get("vector")
    if vector is None:
        return False
    written_in = script_language(hit.snippet)
    across = asked_in is not None and written_in is not None and written_in != asked_in
    return vector.score >= (MIN_CROSS_LANGUAGE_SIMILARITY if across else MIN_VECTOR_ONLY_SIMILARITY)


def _across_only(hit: RecallHit, asked_in: str | None) -> bool:
    """Only the cross-language bar lets this hit in (no words shared, not close by itself)."""
    if LEXICAL_SIGNALS & set(hit.signals):
        return False
    vector = hit.signals.get("vector")
    return vector is not None and vector.score < MIN_VECTOR_ONLY_SIMILARITY and _close_vector(hit, asked_in)


def _weak_match(hit: RecallHit, words: list[str], asked_in: str | None = None) -> bool:
    """Full text alone, sharing one word of a question of three or more ("any *tips* for basil?"):
    chit-chat overlap, not a reason to spend the prompt on an old turn. A one-word question
    ("the caterer?"), a bookmark or a close vector still recall."""
    if len(words) < 3 or {"bookmark", "user_bookmark", "stage"} & set(hit.signals):
        return False
    if _close_vector(hit, asked_in):
        return False
    text = hit.snippet.lower()
    return sum(word in text for word in words) < 2


def _has_evidence(hit: RecallHit, asked_in: str | None = None) -> bool:
    if LEXICAL_SIGNALS & set(hit.signals):
        return True
    return _close_vector(hit, asked_in)


def recalled_pages(store: Store, session_id: int, user_text: str, *, exclude_ids: Iterable[int], counter: TokenCounter,
                   embedder: Embedder | None = None, budget_tokens: int = 10_000, limit: int = MAX_PROMPT_HITS,
                   enabled: bool = True) -> list[RecalledPage]:
    """Hybrid recall for the assembler's ``recalled`` layer, as ``RecalledPage`` groups.

    Only archived turns are recalled: ``exclude_ids`` are the recent ones, already in the
    prompt. Hits are grouped by page in rank order, their messages fetched in one query."""
    hits = recall_for_prompt(store, session_id, user_text, embedder=embedder, budget_tokens=budget_tokens,
                             counter=counter, exclude_ids=exclude_ids, limit=limit, enabled=enabled)
    messages = {m.id: m for m in store.get_messages(h.message_id for h in hits)}
    groups: dict[int | None, list[RecallHit]] = {}
    for hit in hits:
        if hit.message_id in messages:  # deleted meanwhile
            groups.setdefault(hit.page_id, []).append(hit)
    pages = []
    for page_id, members in groups.items():
        ordered = sorted(members, key=lambda h: h.message_id)
        pages.append(RecalledPage(page_id=page_id, score=max(h.score for h in members), source="hybrid",
                                  turns=turn_views([messages[h.message_id] for h in ordered], counter),
                                  hits=members))
    return pages
