"""Hybrid search over a session's archived turns: BM25 + vectors + bookmarks + stage summaries, fused by rank,
weighted by importance, with disagreeing hits labelled newest-first."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from desktop_app.engine.protocol import query_vector, relatedness
from desktop_app.memory.core.recall_hits import SIGNALS, RecallHit, RecallWeights, SignalScore
from desktop_app.memory.recall.fusion import (
    boost,
    importance,
    label_conflicts,
    normalised,
    rrf,
    snippet,
    spread_to_neighbours,
)
from desktop_app.memory.recall.query import QueryPlan, has_cjk, mentions_time, plan_query
from desktop_app.memory.recall.signals import bm25_signal, bookmark_signal, stage_signal, vector_signal

if TYPE_CHECKING:
    from desktop_app.engine.protocol import Embedder
    from desktop_app.memory.store import Store

Ranked = list[tuple[int, float]]
DEFAULT_WEIGHTS = RecallWeights()


def vectors_usable(store: Store, embedder: Embedder | None) -> bool:
    """Vectors can be searched: sqlite-vec loaded, tables made by this embedder's model."""
    if embedder is None or not store.vec_enabled or not store.vector_tables_exist():
        return False
    return bool(store.recall_meta().get("embed_model") == embedder.model_id)


def _embedder_covers(embedder: Embedder, text: str) -> bool:
    # An English-only model (MiniLM) turns Chinese into [UNK]s: its vector would be noise.
    covers: Callable[[str], bool] | None = getattr(embedder, "covers", None)
    return covers(text) if covers is not None else not has_cjk(text)


def gather_signals(store: Store, session_id: int, query: str, *, embedder: Embedder | None = None,
                   weights: RecallWeights = DEFAULT_WEIGHTS, signals: Iterable[str] = SIGNALS, quantized: bool = True,
                   plan: QueryPlan | None = None) -> dict[str, Ranked]:
    """Each requested signal's ranked candidate list for ``query`` (empty when unavailable)."""
    plan = plan or plan_query(query)
    wanted = set(signals)
    out: dict[str, Ranked] = {}
    limit = weights.candidates
    if "bm25" in wanted:
        out["bm25"] = bm25_signal(store, session_id, plan, limit=limit, stopword_share=weights.session_stopword_share,
                                  min_turns=weights.min_session_for_stopwords) if not plan.is_empty else []
    if "vector" in wanted:
        out["vector"] = []
        if embedder is not None and vectors_usable(store, embedder) and query.strip() and _embedder_covers(embedder, query):
            out["vector"] = vector_signal(store, session_id, query_vector(embedder, query), limit=limit,
                                          quantized=quantized, coarse_factor=weights.coarse_factor,
                                          floor=weights.vector_floor, relate=lambda s: relatedness(embedder, s))
    if "bookmark" in wanted:
        out["bookmark"], out["user_bookmark"] = (
            bookmark_signal(store, session_id, plan, limit=limit, user_weight=weights.user_bookmark_score)
            if not plan.is_empty else ([], []))
    if "stage" in wanted:
        out["stage"] = stage_signal(store, session_id, plan, limit=limit) if not plan.is_empty else []
    return out


def fuse(store: Store, session_id: int, lists: Mapping[str, Ranked], *, k: int, weights: RecallWeights = DEFAULT_WEIGHTS,
         plan: QueryPlan | None = None, exclude: Iterable[int] = ()) -> list[RecallHit]:
    """Rank the union of ``lists`` into at most ``k`` labelled hits.

    Weighted RRF of the signals → date and "when" boosts (from ``plan``) → neighbour
    spreading (page context) → importance → newest-wins conflict labels."""
    signal_weights = {name: getattr(weights, name) for name in lists}
    scores = normalised(rrf(lists, signal_weights, weights.rrf_k))
    if not scores:
        return []
    if plan is not None and (plan.dates or plan.month_days or plan.asks_when):
        scores = boost(scores, store.candidate_rows(scores), dates=plan.dates, date_boost=weights.date_boost,
                       slack_seconds=weights.date_slack_days * 86400, asks_when=plan.asks_when,
                       when_boost=weights.when_boost, mentions_time=mentions_time, month_days=plan.month_days)
    if weights.neighbour_1 or weights.neighbour_2:
        # Only the leading candidates spread: the tail's share could not lift anyone into the top k.
        leaders = sorted(scores, key=lambda m: -scores[m])[: weights.spread_from]
        scores = spread_to_neighbours(scores, store.adjacent_messages(session_id, leaders),
                                      {1: weights.neighbour_1, 2: weights.neighbour_2})
    # Turns the caller already has (the prompt's recent layer) still pass score to their
    # neighbours above, but are never hits themselves.
    skip = set(exclude)
    shortlist = sorted((m for m in scores if m not in skip), key=lambda m: -scores[m])[: max(k * 4, 20)]
    if not shortlist:
        return []
    rows = store.recall_rows(shortlist)
    refs = store.reference_counts(shortlist)
    newest_turn = max(max((r["turn"] for r in rows.values()), default=0), store.session_turn_count(session_id))
    best = scores[shortlist[0]]
    max_refs = max(refs.values(), default=0)
    ranks = {name: {mid: (rank, score) for rank, (mid, score) in enumerate(ranked, start=1)}
             for name, ranked in lists.items()}
    hits = []
    for message_id in shortlist:
        row = rows.get(message_id)
        if row is None:  # deleted meanwhile
            continue
        relevance = scores[message_id] / best if best else 0.0
        weight = importance(age_turns=newest_turn - row["turn"], references=refs.get(message_id, 0),
                            max_references=max_refs, relevance=relevance, weights=weights)
        signals = {name: SignalScore(score=ranks[name][message_id][1], rank=ranks[name][message_id][0])
                   for name in lists if message_id in ranks[name]}
        hits.append(RecallHit(
            message_id=message_id, ext_id=row["ext_id"], page_id=row["page_id"], session_id=row["session_id"],
            role=row["role"], turn=row["turn"], created_at=row["created_at"], snippet=snippet(row["content"]),
            signals=signals, fused=scores[message_id], importance=weight,
            score=relevance + weights.importance * weight))
    hits.sort(key=lambda h: -h.score)
    return label_conflicts(hits[:k])


def search(store: Store, session_id: int, query: str, *, k: int = 5, embedder: Embedder | None = None, now: float | None = None,
           weights: RecallWeights | None = None, signals: Iterable[str] = SIGNALS,
           quantized: bool = True, exclude: Iterable[int] = ()) -> list[RecallHit]:
    """Hybrid search of session ``session_id`` for ``query``: at most ``k`` hits, best first.

    Without an embedder (or without sqlite-vec, or with vectors made by another model) it
    runs on full text and bookmarks alone. ``now`` is accepted for callers that pass their
    clock; ranking itself depends on turn order only, so results are repeatable."""
    weights = weights or DEFAULT_WEIGHTS
    plan = plan_query(query)
    lists = gather_signals(store, session_id, query, embedder=embedder, weights=weights, signals=signals,
                           quantized=quantized, plan=plan)
    lists = {name: ranked for name, ranked in lists.items() if ranked}
    return fuse(store, session_id, lists, k=k, weights=weights, plan=plan, exclude=exclude)

