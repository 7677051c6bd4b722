"""Recall fixtures: a store with turns and the real MiniLM (the hashing embedder is in tests/support)."""

from __future__ import annotations

import pytest


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
