"""The llama.cpp embedder with the converted default model (MiniLM)."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.model
def test_vectors_are_unit_length_and_semantic(minilm):
    vectors = minilm.embed(["I adopted a puppy", "We got a new dog", "The invoice is overdue", ""])
    assert vectors.shape == (4, 384)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


@pytest.mark.model
def test_many_texts_in_one_call_match_one_by_one(minilm):
    texts = [f"turn {i}: we talked about topic number {i}" for i in range(40)]
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([t]) for t in texts[:3]])
    assert np.allclose(together[:3], alone, atol=1e-3)


@pytest.mark.model
def test_vocabulary_coverage(minilm):
    assert minilm.covers("what did we decide about the budget?")
    assert not minilm.covers("我们上次讨论的预算是多少")  # English-only model: mostly [UNK]


def test_missing_model_is_a_clear_error(tmp_path):
    from desktop_app.config import Settings
    from desktop_app.engine.embedder import load_embedder
    from desktop_app.engine.errors import ModelLoadError

    with pytest.raises(ModelLoadError, match="embedding model not found"):
        load_embedder(Settings(embed_model=tmp_path / "missing.gguf"))


def test_embedder_status_says_what_would_load_without_loading(monkeypatch, tmp_path):
    from importlib.metadata import PackageNotFoundError

    import desktop_app.engine.embedder as embedder

    settings = lambda value: type("S", (), {"embed_model": value})()  # noqa: E731
    off = embedder.embedder_status(settings(embedder.OFF))
    assert (off.name, off.usable, off.path) == (embedder.OFF, True, None)
    chosen_file = embedder.embedder_status(settings(tmp_path / "missing.gguf"))
    assert (chosen_file.usable, chosen_file.chosen, chosen_file.english_only) == (False, True, False)

    def not_installed(name):
        raise PackageNotFoundError(name)

    monkeypatch.setattr("importlib.metadata.version", not_installed)
    fallback = embedder.embedder_status(settings(None))
    assert fallback.name == embedder.ENGLISH
    assert fallback.path == embedder.default_embed_model_path()
    assert fallback.english_only
    assert not fallback.chosen
    asked = embedder.embedder_status(settings(embedder.MULTILINGUAL))
    assert (asked.name, asked.usable, asked.chosen) == (embedder.MULTILINGUAL, False, True)
