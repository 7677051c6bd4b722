"""Deterministic embedders with the real one's interface (``model_id``, ``dim``, ``embed``)."""

from __future__ import annotations

import hashlib
import re
import threading
import time

import numpy as np


class HashingEmbedder:
    """Bag of words hashed into ``dim`` dims (64 unless told): deterministic, no model, the real
    one's shape. ``calls`` counts the batches embedded."""

    dim = 64

    def __init__(self, model_id: str = "hashing-64", *, dim: int | None = None):
        self.model_id = model_id
        if dim is not None:
            self.dim = dim
        self.calls = 0

    def embed(self, texts):
        self.calls += 1
        return self.vectors(texts)

    def vectors(self, texts):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else out[row]
        return out


class SlowEmbedder(HashingEmbedder):
    """A ``HashingEmbedder`` whose batches each take ``delay`` seconds, counting how many threads
    are inside ``embed`` at once (``inside``, ``most_inside``). ``calls`` counts a batch as it
    starts, so a test can wait for the embedding to be under way."""

    def __init__(self, model_id: str = "slow-hash-8", *, dim: int = 8, delay: float = 0.02):
        super().__init__(model_id, dim=dim)
        self.delay = delay
        self.inside = 0
        self.most_inside = 0
        self._lock = threading.Lock()

    def embed(self, texts):
        with self._lock:
            self.inside += 1
            self.most_inside = max(self.most_inside, self.inside)
            self.calls += 1
        time.sleep(self.delay)
        rows = self.vectors(texts)
        with self._lock:
            self.inside -= 1
        return rows
