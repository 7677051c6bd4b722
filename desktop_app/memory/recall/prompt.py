"""The seam between recall and prompt assembly: which hits fill the ``recalled`` layer."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

from desktop_app.memory.recall.models import RecallHit, RecallWeights
from desktop_app.memory.recall.query import is_page_fault
from desktop_app.memory.recall.search import search

MAX_PROMPT_HITS = 5
PAGE_FAULT_HITS = 3  # at least this many are fetched when the input points back
# Without a page fault a hit must show lexical evidence (full text or a bookmark) or be this
# similar to the input: the nearest vector is not necessarily a related one.
MIN_VECTOR_ONLY_SIMILARITY = 0.5

_active_embedder = None
_embed_lock = threading.Lock()


class _LockedEmbedder:
    """One llama.cpp context serves one thread at a time: the UI's indexing worker and the
    turn worker's recall share the embedder through this lock."""

    def __init__(self, embedder):
        self._embedder = embedder
        self.model_id = embedder.model_id
        self.dim = embedder.dim

    def embed(self, texts):
        with _embed_lock:
            return self._embedder.embed(texts)

    def covers(self, text: str) -> bool:
        covers = getattr(self._embedder, "covers", None)
        if covers is None:
            return True
        with _embed_lock:
            return covers(text)


def use_embedder(embedder) -> None:
    """Register the loaded embedding model for prompt-time recall (None: full text only).
    The UI and the CLI call this once after loading it; the memory core never loads models."""
    global _active_embedder
    _active_embedder = _LockedEmbedder(embedder) if embedder is not None else None


def active_embedder():
    """The embedder registered with :func:`use_embedder`, thread-safe, or None."""
    return _active_embedder


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
    embedder = embedder if embedder is not None else active_embedder()
    hits = search(store, session_id, user_text, k=wanted + len(excluded), embedder=embedder, weights=weights)
    picked: list[RecallHit] = []
    used = 0
    for hit in hits:
        if hit.message_id in excluded or not (fault or _has_evidence(hit)):
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


def _has_evidence(hit: RecallHit) -> bool:
    if {"bm25", "bookmark", "user_bookmark"} & set(hit.signals):
        return True
    vector = hit.signals.get("vector")
    return vector is not None and vector.score >= MIN_VECTOR_ONLY_SIMILARITY


def recalled_pages(store, session_id: int, user_text: str, *, user_ids: list[int], counter=None,
                   budget_tokens: int = 10_000, limit: int = MAX_PROMPT_HITS) -> list:
    """Hybrid recall for the assembler's ``recalled`` layer, as ``RecalledPage`` groups.

    Only archived turns (already paged out) are recalled: the recent ones are in the prompt.
    Hits are grouped by page in rank order; turn numbers follow the memory core's numbering."""
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.assembly import RecalledPage
    from desktop_app.memory.bookmark_recall import turn_views

    unpaged = [m.id for m in store.unpaged_messages(session_id)]
    hits = recall_for_prompt(store, session_id, user_text, budget_tokens=budget_tokens,
                             counter=counter or fallback_counter(), exclude_ids=unpaged, limit=limit)
    groups: dict[int | None, list[RecallHit]] = {}
    for hit in hits:
        groups.setdefault(hit.page_id, []).append(hit)
    pages = []
    for page_id, members in groups.items():
        messages = [store.get_message(h.message_id) for h in sorted(members, key=lambda h: h.message_id)]
        pages.append(RecalledPage(page_id=page_id, score=max(h.score for h in members), source="hybrid",
                                  turns=turn_views(messages, user_ids, counter),
                                  hits=[h.model_dump(mode="json") for h in members]))
    return pages
