"""Keeping turn vectors up to date: embed what is pending, in small batches, off the UI thread.

Full-text indexes need no work here (triggers keep them in sync). Vectors do: each stored
turn waits in the queue (``messages`` without a ``recall_embedded`` row) until
:func:`index_pending` embeds it. The UI's background worker, ``paperclip import`` and
``paperclip ask`` call it after storing turns; ``paperclip reindex`` rebuilds everything
after the embedding model changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from desktop_app.engine.protocol import Embedder
    from desktop_app.memory.store import Store

BATCH = 64


class VectorsUnavailable(RuntimeError):
    """sqlite-vec is not loaded on this connection: recall runs on full text only."""


def prepare_vectors(store: Store, embedder: Embedder) -> bool:
    """Make sure the vector tables match ``embedder``; returns True when they were (re)built
    empty because the model changed (every turn is pending again)."""
    if not store.vec_enabled:
        raise VectorsUnavailable("sqlite-vec is not available: vectors cannot be stored")
    meta = store.recall_meta()
    same_model = meta.get("embed_model") == embedder.model_id and store.vector_tables_exist()
    if same_model:
        return False
    store.reset_vector_tables(embedder.dim, drop=True)
    store.set_recall_meta(embed_model=embedder.model_id, dim=str(embedder.dim))
    return True


def vectors_stale(store: Store, embedder: Embedder) -> bool:
    """Whether the stored vectors were made by another model than ``embedder``'s."""
    meta = store.recall_meta()
    return bool(meta) and meta.get("embed_model") != embedder.model_id


def embedding_text(content: str) -> str:
    """What is embedded for a turn: its text on one line (the model truncates long turns)."""
    return " ".join(content.split())


def index_pending(store: Store, embedder: Embedder, *, batch: int = BATCH, max_batches: int | None = None,
                  session_id: int | None = None, should_stop: Callable[[], bool] | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  text_of: Callable[[dict[str, Any]], str] | None = None) -> int:
    """Embed turns that have no vector yet, ``batch`` at a time; returns how many were stored.

    Each batch is one transaction, so a stop between batches loses nothing. Runs until the
    queue is empty, ``max_batches`` batches are done or ``should_stop()`` turns true.
    ``text_of`` turns a pending row (``id``, ``session_id``, ``content``, ``created_at``) into
    the text to embed (default: the content).
    """
    prepare_vectors(store, embedder)
    total_pending = store.count_pending_embeddings()
    done = 0
    batches = 0
    while max_batches is None or batches < max_batches:
        if should_stop is not None and should_stop():
            break
        rows = store.pending_embeddings(limit=batch, session_id=session_id)
        if not rows:
            break
        texts = [(text_of or (lambda r: embedding_text(r["content"])))(row) for row in rows]
        vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
        done += store.save_embeddings([(row["id"], row["session_id"], vectors[i].tobytes())
                                       for i, row in enumerate(rows)])
        batches += 1
        if progress is not None:
            progress(done, total_pending)
    return done


def reindex(store: Store, embedder: Embedder, *, batch: int = BATCH, progress: Callable[[int, int], None] | None = None,
            text_of: Callable[[dict[str, Any]], str] | None = None) -> int:
    """Drop every vector and embed all turns again with ``embedder``; returns the count."""
    if not store.vec_enabled:
        raise VectorsUnavailable("sqlite-vec is not available: vectors cannot be stored")
    store.reset_vector_tables(embedder.dim, drop=True)
    store.set_recall_meta(embed_model=embedder.model_id, dim=str(embedder.dim))
    return index_pending(store, embedder, batch=batch, progress=progress, text_of=text_of)
