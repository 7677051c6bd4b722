"""Recall fixtures: a store with turns, a tiny deterministic embedder, the real MiniLM."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest


class HashingEmbedder:
    """Bag of words hashed into 64 dims: deterministic, no model, same shape as the real one."""

    dim = 64

    def __init__(self, model_id: str = "hashing-64"):
        self.model_id = model_id
        self.calls = 0

    def embed(self, texts):
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
            norm = np.linalg.norm(out[row])
            out[row] = out[row] / norm if norm else out[row]
        return out


@pytest.fixture
def hashing_embedder():
    return HashingEmbedder()


@pytest.fixture(scope="session")
def minilm():
    """The default embedding model (converted by `make models`); skip clearly when absent."""
    from desktop_app.engine.embedder import LlamaEmbedder, default_embed_model_path

    path = default_embed_model_path()
    if not path.exists():
        pytest.skip(f"embedding model missing at {path}: run `make models` (python -m desktop_app.setup_models)")
    return LlamaEmbedder(path)


def add_turns(store, session_id: int, texts, *, start: float = 1_700_000_000.0, step: float = 60.0):
    """Store alternating user/assistant turns; returns the messages."""
    return [store.add_message(session_id, "user" if i % 2 == 0 else "assistant", text, created_at=start + i * step)
            for i, text in enumerate(texts)]
