"""Hybrid search over a session's archived turns: BM25 + vectors + bookmarks, fused by rank,
weighted by importance, with disagreeing hits labelled newest-first."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from desktop_app.memory.recall.fusion import importance, label_conflicts, rrf, smooth_neighbours, snippet
from desktop_app.memory.recall.models import SIGNALS, RecallHit, RecallWeights, SignalScore
from desktop_app.memory.recall.query import QueryPlan, has_cjk, plan_query
from desktop_app.memory.recall.signals import bm25_signal, bookmark_signal, vector_signal

Ranked = list[tuple[int, float]]
DEFAULT_WEIGHTS = RecallWeights()


def vectors_usable(store, embedder) -> bool:
    """Vectors can be searched: sqlite-vec loaded, tables made by this embedder's model."""
    if embedder is None or not store.vec_enabled or not store.vector_tables_exist():
        return False
    return store.recall_meta().get("embed_model") == embedder.model_id


def _embedder_covers(embedder, text: str) -> bool:
    # An English-only model (MiniLM) turns Chinese into [UNK]s: its vector would be noise.
    covers = getattr(embedder, "covers", None)
    return covers(text) if covers is not None else not has_cjk(text)


def gather_signals(store, session_id: int, query: str, *, embedder=None, weights: RecallWeights = DEFAULT_WEIGHTS,
                   signals: Iterable[str] = SIGNALS, quantized: bool = True,
                   plan: QueryPlan | None = None) -> dict[str, Ranked]:
    """Each requested signal's ranked candidate list for ``query`` (empty when unavailable)."""
    plan = plan or plan_query(query)
    wanted = set(signals)
    out: dict[str, Ranked] = {}
    limit = weights.candidates
    if "bm25" in wanted:
        out["bm25"] = bm25_signal(store, session_id, plan, limit=limit) if not plan.is_empty else []
    if "vector" in wanted:
        out["vector"] = []
        if vectors_usable(store, embedder) and query.strip() and _embedder_covers(embedder, query):
            vector = embedder.embed([query])[0]
            out["vector"] = vector_signal(store, session_id, vector, limit=limit, quantized=quantized,
                                          coarse_factor=weights.coarse_factor)
    if "bookmark" in wanted:
        out["bookmark"] = bookmark_signal(store, session_id, plan, limit=limit,
                                          user_weight=weights.user_bookmark) if not plan.is_empty else []
    return out


def _neighbours(store, session_id: int, ids: Iterable[int]) -> dict[int, list[int]]:
    """Adjacent turns (previous and next in the session) of each candidate."""
    out: dict[int, list[int]] = {}
    for message_id in ids:
        rows = store.conn.execute(
            """SELECT (SELECT max(id) FROM messages WHERE session_id = :sid AND id < :id),
                      (SELECT min(id) FROM messages WHERE session_id = :sid AND id > :id)""",
            {"sid": session_id, "id": message_id}).fetchone()
        for adjacent in rows:
            if adjacent is not None:
                out.setdefault(int(adjacent), []).append(message_id)
                out.setdefault(message_id, []).append(int(adjacent))
    return out


def fuse(store, session_id: int, lists: Mapping[str, Ranked], *, k: int, weights: RecallWeights = DEFAULT_WEIGHTS,
         now: float | None = None) -> list[RecallHit]:
    """Rank the union of ``lists`` into at most ``k`` labelled hits."""
    signal_weights = {name: getattr(weights, name) for name in lists}
    fused = rrf(lists, signal_weights, weights.rrf_k)
    if weights.neighbour and fused:
        top = sorted(fused, key=lambda m: -fused[m])[: weights.candidates]
        fused = smooth_neighbours(fused, _neighbours(store, session_id, top), weights.neighbour)
    if not fused:
        return []
    shortlist = sorted(fused, key=lambda m: -fused[m])[: max(k * 4, 20)]
    rows = store.recall_rows(shortlist)
    refs = store.reference_counts(shortlist)
    newest_turn = max((r["turn"] for r in rows.values()), default=0)
    newest_turn = max(newest_turn, _session_turns(store, session_id))
    best = fused[shortlist[0]]
    max_refs = max(refs.values(), default=0)
    ranks = {name: {mid: (rank, score) for rank, (mid, score) in enumerate(ranked, start=1)}
             for name, ranked in lists.items()}
    hits = []
    for message_id in shortlist:
        row = rows.get(message_id)
        if row is None:  # deleted meanwhile
            continue
        relevance = fused[message_id] / best if best else 0.0
        weight = importance(age_turns=newest_turn - row["turn"], references=refs.get(message_id, 0),
                            max_references=max_refs, relevance=relevance, weights=weights)
        signals = {name: SignalScore(score=ranks[name][message_id][1], rank=ranks[name][message_id][0])
                   for name in lists if message_id in ranks[name]}
        hits.append(RecallHit(
            message_id=message_id, ext_id=row["ext_id"], page_id=row["page_id"], session_id=row["session_id"],
            role=row["role"], turn=row["turn"], created_at=row["created_at"], snippet=snippet(row["content"]),
            signals=signals, fused=fused[message_id], importance=weight,
            score=relevance + weights.importance * weight))
    hits.sort(key=lambda h: -h.score)
    return label_conflicts(hits[:k])


def _session_turns(store, session_id: int) -> int:
    row = store.conn.execute("SELECT count(*) FROM messages WHERE session_id = :sid AND role = 'user'",
                             {"sid": session_id}).fetchone()
    return int(row[0])


def search(store, session_id: int, query: str, *, k: int = 5, embedder=None, now: float | None = None,
           weights: RecallWeights | None = None, signals: Iterable[str] = SIGNALS,
           quantized: bool = True) -> list[RecallHit]:
    """Hybrid search of session ``session_id`` for ``query``: at most ``k`` hits, best first.

    Without an embedder (or without sqlite-vec, or with vectors made by another model) it
    runs on full text and bookmarks alone. ``now`` is accepted for a pure, repeatable call
    (ranking uses turn order, not the clock)."""
    weights = weights or DEFAULT_WEIGHTS
    lists = gather_signals(store, session_id, query, embedder=embedder, weights=weights, signals=signals,
                           quantized=quantized)
    lists = {name: ranked for name, ranked in lists.items() if ranked}
    del now  # ranking is by turn order; kept in the signature for callers that pass their clock
    return fuse(store, session_id, lists, k=k, weights=weights)


def timed_search(store, session_id: int, query: str, **kwargs) -> tuple[list[RecallHit], float]:
    """``search`` plus its wall time in seconds (for the latency benchmark and ``--json``)."""
    started = time.perf_counter()
    hits = search(store, session_id, query, **kwargs)
    return hits, time.perf_counter() - started
