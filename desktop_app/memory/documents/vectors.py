"""Chunk vectors: embed what is pending, in batches (one transaction each), with the recall embedder.

Chunks wait without a ``document_embedded`` row until embedded, like turns do; a change of
embedding model empties the vector table and every chunk is pending again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from desktop_app.memory.store.documents import DOC_EMBED_KEY

if TYPE_CHECKING:
    from desktop_app.engine.protocol import Embedder
    from desktop_app.memory.store import Store

BATCH = 32


def document_vectors_usable(store: Store, embedder: Embedder | None) -> bool:
    """Chunk vectors exist and were made by this embedder's model."""
    if embedder is None or not store.vec_enabled or not store.document_vector_table_exists():
        return False
    return bool(store.recall_meta().get(DOC_EMBED_KEY) == embedder.model_id)


def chunk_embedding_text(heading: str | None, text: str) -> str:
    return " ".join(f"{heading}. {text}".split()) if heading else " ".join(text.split())


def embed_pending_chunks(store: Store, embedder: Embedder | None, *, batch: int = BATCH,
                         should_stop: Callable[[], bool] | None = None, progress: Callable[[int, int], None] | None = None) -> int:
    """Embed chunks without a vector; returns how many were stored (0 without sqlite-vec)."""
    if embedder is None or not store.vec_enabled or not store.has_document_chunks():
        return 0  # no documents: the vector tables are left alone
    if not document_vectors_usable(store, embedder):
        store.reset_document_vectors(embedder.dim)
        store.set_recall_meta(**{DOC_EMBED_KEY: embedder.model_id})
    total = store.count_pending_chunk_embeddings()
    done = 0
    while not (should_stop is not None and should_stop()):
        rows = store.pending_chunk_embeddings(limit=batch)
        if not rows:
            break
        vectors = np.asarray(embedder.embed([chunk_embedding_text(r["heading"], r["text"]) for r in rows]),
                             dtype=np.float32)
        done += store.save_chunk_embeddings([
            (r["id"], r["document_id"], vectors[i].tobytes(), vectors[i].astype(np.float16).tobytes())
            for i, r in enumerate(rows)])
        if progress is not None:
            progress(done, total)
    return done
