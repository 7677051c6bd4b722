"""The three recall signals, each a ranked list of ``(message_id, score)``, best first.

* ``bm25``: FTS5 BM25 over turn text (word index for Latin script, trigram index for CJK,
  a substring scan for queries under three characters and short CJK words);
* ``vector``: sqlite-vec KNN on the query's embedding (binary coarse pass + float re-score,
  or exact float search);
* ``bookmark``: bookmark keywords/descriptions, expanded to the turns they point at;
* ``stage``: the summary chain's stage summaries, then the best page inside a matched stage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from desktop_app.memory.recall.fusion import rrf
from desktop_app.memory.recall.query import QueryPlan, quote

if TYPE_CHECKING:
    from desktop_app.memory.store import Store

MAX_SHORT_TERMS = 4  # 1-2 character terms scanned for per query (in one pass over the turns)
# The scan reads every row it covers: on a very long session only the newest turns are
# scanned for 1-2 character terms (older ones stay reachable by trigrams, words, bookmarks
# and vectors). 20k turns scan in about 8 ms on this 2-core box.
SUBSTRING_WINDOW = 20_000
STOPWORD_WINDOW = 10_000  # the session's own stopwords are judged on its newest turns


def informative_words(store: Store, session_id: int, words: list[str], *, share: float, min_turns: int,
                      window: int = STOPWORD_WINDOW) -> list[str]:
    """``words`` without the session's own stopwords: those in more than ``share`` of its turns
    (the speakers' names, the topic of the whole conversation). Keeps the rarest word if all
    would go; small sessions (under ``min_turns``) keep everything. Shares are measured over
    the newest ``window`` turns: counting a common word over a very long session costs more
    than the search it tunes."""
    turns = store.session_message_count(session_id)
    if turns < min_turns or not words:
        return words
    after = store.nth_newest_message_id(session_id, window) if turns > window else 0
    cap = int(share * min(turns, window)) + 1
    counts = {w: store.term_message_count(session_id, quote(w), cap=cap, after_id=after) for w in words}
    kept = [w for w in words if counts[w] < cap]
    return kept or [min(words, key=lambda w: counts[w])]


def bm25_signal(store: Store, session_id: int, plan: QueryPlan, *, limit: int, stopword_share: float = 0.2,
                min_turns: int = 50) -> list[tuple[int, float]]:
    """Full-text ranking; several sub-queries (words, trigrams, substrings) are fused by rank."""
    if plan.substring:
        return store.substring_messages(session_id, plan.substring, limit=limit)
    lists: dict[str, list[tuple[int, float]]] = {}
    if plan.words and not plan.trigrams:
        words = informative_words(store, session_id, plan.words, share=stopword_share, min_turns=min_turns)
        lists["words"] = store.fts_messages(session_id, " OR ".join(quote(w) for w in words), limit=limit,
                                         index="words")
    if plan.trigrams and (match := plan.trigram_match) is not None:
        lists["trigram"] = store.fts_messages(session_id, match, limit=limit, index="trigram")
    found = sum(len(v) for v in lists.values())
    if plan.short_terms and found < limit:
        scanned = store.substring_messages_each(session_id, plan.short_terms[:MAX_SHORT_TERMS], limit=limit,
                                                window=SUBSTRING_WINDOW)
        for term, ranked in scanned.items():
            lists[f"substring:{term}"] = ranked
    if len(lists) == 1:
        return next(iter(lists.values()))
    fused = rrf(lists, {})
    return sorted(fused.items(), key=lambda kv: -kv[1])[:limit]


def vector_signal(store: Store, session_id: int, query_vector: np.ndarray, *, limit: int, quantized: bool = True,
                  coarse_factor: int = 8, floor: float = 0.0,
                  relate: Callable[[np.ndarray], np.ndarray] | None = None) -> list[tuple[int, float]]:
    """Cosine similarity ranking. ``quantized``: Hamming KNN over 1-bit vectors keeps
    ``limit * coarse_factor`` candidates, which are re-scored with their float vectors.
    ``relate`` puts cosines on the common scale (an E5 model's narrow band); turns less
    related than ``floor`` are dropped: nearest is not the same as related."""
    query = np.asarray(query_vector, dtype=np.float32)
    blob = query.tobytes()
    scale = relate or (lambda s: s)
    if not quantized:
        found = store.knn_messages(session_id, blob, k=limit)
        scores = scale(np.asarray([1.0 - dist for _, dist in found], dtype=np.float32))
        return [(mid, float(sim)) for (mid, _), sim in zip(found, scores, strict=True) if sim >= floor]
    coarse = store.knn_messages_binary(session_id, blob, k=limit * coarse_factor)
    if not coarse:
        return []
    vectors = store.message_vectors(mid for mid, _ in coarse)
    ids = [mid for mid, _ in coarse if mid in vectors]
    matrix = np.frombuffer(b"".join(vectors[i] for i in ids), dtype=np.float16).astype(np.float32)
    matrix = matrix.reshape(len(ids), -1)
    sims = scale(matrix @ query)
    order = np.argsort(-sims)[:limit]
    return [(ids[i], float(sims[i])) for i in order if sims[i] >= floor]


def bookmark_signal(store: Store, session_id: int, plan: QueryPlan, *, limit: int, user_weight: float = 2.0,
                    turns_per_page: int = 5) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """Bookmarks ranked by BM25 over keywords + description (user bookmarks count
    ``user_weight`` times more), then expanded to turns: a message bookmark to its turn, a page
    bookmark to the page's turns that share the most query terms. Returns the ranking and,
    separately, the part of it that comes from bookmarks the user made."""
    if plan.substring:
        matches = store.bookmark_substring(session_id, plan.substring, limit=limit)
    elif plan.trigram_match:
        matches = store.bookmark_matches(session_id, plan.trigram_match, limit=limit)
    else:
        return [], []
    weighted = sorted(((b, s * (user_weight if b.origin == "user" else 1.0)) for b, s in matches),
                      key=lambda bs: -bs[1])
    query_terms = [t.lower() for t in dict.fromkeys([*plan.words, *plan.trigrams, *plan.short_terms])]
    out: dict[int, float] = {}
    by_user: set[int] = set()
    texts: dict[int, list[tuple[int, str]]] = {}
    batch = max(1, -(-limit // turns_per_page))  # pages fetched per query: enough to fill ``limit``
    for index, (bookmark, score) in enumerate(weighted):
        if bookmark.origin == "user":
            by_user.add(bookmark.message_id if bookmark.message_id is not None else -1)
        if bookmark.message_id is not None:
            out.setdefault(bookmark.message_id, score)
            continue
        if bookmark.page_id is None:
            continue
        if bookmark.page_id not in texts:  # the next pages' turns, in one query
            upcoming = [b.page_id for b, _ in weighted[index:] if b.page_id is not None and b.message_id is None]
            texts.update(store.page_message_texts(upcoming[:batch]))
        turns = texts.get(bookmark.page_id)
        if not turns:
            continue
        # Within the page, the turns that contain most of the query's terms come first.
        ranked = sorted(turns, key=lambda t: -sum(term in t[1].lower() for term in query_terms))
        for position, (message_id, _) in enumerate(ranked[:turns_per_page]):
            out.setdefault(message_id, score * (1.0 - 0.01 * position))
        if bookmark.origin == "user":
            by_user.update(message_id for message_id, _ in ranked[:turns_per_page])
        if len(out) >= limit:
            break
    ranking = sorted(out.items(), key=lambda kv: -kv[1])[:limit]
    return ranking, [(m, s) for m, s in ranking if m in by_user]


def stage_signal(store: Store, session_id: int, plan: QueryPlan, *, limit: int, stages: int = 3, pages_per_stage: int = 2,
                 turns_per_page: int = 5) -> list[tuple[int, float]]:
    """The summary chain: stages ranked by BM25 over their text, then inside each matched stage
    the pages whose turns hold most of the query's terms, expanded to those pages'
    best-matching turns (two steps: the stage first, then the right page in it)."""
    if plan.substring:
        found = store.stage_turns(session_id, needle=plan.substring, limit=stages)
    elif plan.trigram_match:
        found = store.stage_turns(session_id, match=plan.trigram_match, limit=stages)
    else:
        return []
    query_terms = [t.lower() for t in dict.fromkeys([*plan.words, *plan.trigrams, *plan.short_terms])]
    if not query_terms:
        return []

    def hits(text: str) -> int:
        text = text.lower()
        return sum(term in text for term in query_terms)

    out: dict[int, float] = {}
    for score, pages in found.values():
        # A page's weight: its best turn's matches, then its matches in all.
        ranked = sorted(pages, key=lambda p: (-max(hits(t) for _, t in pages[p]), -sum(hits(t) for _, t in pages[p])))
        for rank, page_id in enumerate(ranked[:pages_per_stage]):
            turns = sorted(pages[page_id], key=lambda t: -hits(t[1]))
            for position, (message_id, text) in enumerate(turns[:turns_per_page]):
                if hits(text) or position == 0:
                    out.setdefault(message_id, score * (1.0 - 0.2 * rank) * (1.0 - 0.01 * position))
    return sorted(out.items(), key=lambda kv: -kv[1])[:limit]
