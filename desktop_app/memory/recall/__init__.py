"""Recall: find the right old turn when the conversation needs it (hybrid search).

Full text (FTS5 BM25, trigram index for CJK), vectors (sqlite-vec, llama.cpp embeddings)
and bookmark keywords, fused by reciprocal rank and weighted by importance. All in the one
SQLite file; the embedding model is reached only through the small ``Embedder`` protocol.
"""

from desktop_app.memory.core.recall_hits import RecallHit, RecallWeights, SignalScore
from desktop_app.memory.recall.indexing import index_pending, prepare_vectors, reindex, vectors_stale
from desktop_app.memory.recall.query import is_page_fault, plan_query
from desktop_app.memory.recall.search import gather_signals, search

__all__ = ["RecallHit", "RecallWeights", "SignalScore", "gather_signals", "index_pending",
           "is_page_fault", "plan_query", "prepare_vectors", "reindex", "search", "vectors_stale"]
