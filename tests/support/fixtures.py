"""Fixtures most test folders use; ``tests/conftest.py`` exposes them to every test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.embedders import HashingEmbedder


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "paperclip.db"


@pytest.fixture
def store(db_path):
    from desktop_app.memory.store import Store

    with Store(db_path) as opened:
        yield opened


@pytest.fixture
def settings(db_path):
    """Default settings on the test's database (tests/ui overrides it for the scripted app)."""
    from desktop_app.config import load_settings

    return load_settings({"db": db_path})


@pytest.fixture
def hashing_embedder() -> HashingEmbedder:
    return HashingEmbedder()
