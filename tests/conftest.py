"""Shared fixtures: every test runs with Paperclip's folders redirected into tmp_path.

The fixtures most folders use (``db_path``, ``store``, ``settings``, ``hashing_embedder``) live in
tests/support/fixtures.py and are exposed here; the fast loop is ``python -m pytest -m "not model"``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app import paths
from tests.support.fixtures import db_path, hashing_embedder, settings, store


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch) -> Path:
    """Data and config dirs inside tmp_path; models still come from the checkout."""
    home = tmp_path / "home"
    monkeypatch.setenv("PAPERCLIP_HOME", str(home))
    for key in ("PAPERCLIP_DATA_DIR", "PAPERCLIP_CONFIG_DIR", "PAPERCLIP_MODEL", "PAPERCLIP_CTX",
                "PAPERCLIP_DB", "PAPERCLIP_MODE", "PAPERCLIP_LANG", "PAPERCLIP_EMBED_MODEL"):
        monkeypatch.delenv(key, raising=False)
    # The model's memory pass costs seconds per turn with a real model: tests that exercise it
    # turn it on themselves (tests/memory/test_cooperation.py, the end-to-end test).
    monkeypatch.setenv("PAPERCLIP_MEMORY_MODEL", "off")
    return home


@pytest.fixture(scope="session")
def default_model() -> Path:
    """The default chat GGUF (installed by `make models`); skip clearly when absent."""
    from desktop_app.config import default_model_path

    path = default_model_path()
    if not path.exists():
        pytest.skip(f"default model missing at {path}: run `make models`")
    return path


@pytest.fixture(scope="session")
def real_engine(default_model):
    """One loaded default model shared by the engine and end-to-end tests (it is small)."""
    from desktop_app.engine.llama import EngineSettings, LlamaEngine

    return LlamaEngine(default_model, EngineSettings(n_ctx=2048, seed=7))


__all__ = ["paths", "db_path", "hashing_embedder", "settings", "store"]
