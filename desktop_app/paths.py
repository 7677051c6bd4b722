"""Where Paperclip keeps things: the one place tests (and users) redirect.

``PAPERCLIP_HOME`` moves data, config and exports under one folder; ``PAPERCLIP_DATA_DIR``,
``PAPERCLIP_CONFIG_DIR``, ``PAPERCLIP_EXPORTS_DIR`` and ``PAPERCLIP_MODELS_DIR`` move each one alone.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "paperclip"
REPO_ROOT = Path(__file__).resolve().parent.parent


def _override(name: str, sub: str) -> Path | None:
    if value := os.environ.get(name):
        return Path(value).expanduser()
    if home := os.environ.get("PAPERCLIP_HOME"):
        return Path(home).expanduser() / sub
    return None


def data_dir() -> Path:
    """Folder holding the SQLite database (platform data dir by default)."""
    return _override("PAPERCLIP_DATA_DIR", "data") or Path(platformdirs.user_data_dir(APP_NAME))


def model_cache_dir() -> Path:
    """Verified model files shared by every checkout of this user (a fresh clone or CI run links
    them instead of downloading a gigabyte again)."""
    return _override("PAPERCLIP_CACHE_DIR", "cache") or Path(platformdirs.user_cache_dir(APP_NAME)) / "models"


def config_dir() -> Path:
    """Folder holding ``config.toml`` (platform config dir by default)."""
    return _override("PAPERCLIP_CONFIG_DIR", "config") or Path(platformdirs.user_config_dir(APP_NAME))


def config_file() -> Path:
    return config_dir() / "config.toml"


def exports_dir() -> Path:
    """Where the TUI suggests writing exports: under ``PAPERCLIP_HOME`` when it is set (like
    everything else), else ``~/paperclip-exports``."""
    return _override("PAPERCLIP_EXPORTS_DIR", "exports") or Path.home() / "paperclip-exports"


def states_dir(db_path: Path) -> Path:
    """Saved prompt states (the KV cache per session) of the database at ``db_path``."""
    return Path(db_path).parent / "kv"


def default_db_path() -> Path:
    return data_dir() / "paperclip.db"


def in_checkout() -> bool:
    """Running from a source checkout (``make run``, an editable install) rather than a wheel."""
    return (REPO_ROOT / "models" / "manifest.toml").is_file() and (REPO_ROOT / "assets").is_dir()


def models_dir() -> Path:
    """Folder with GGUF files: ``models/`` of a checkout, else ``models`` in the data dir
    (a ``pip``/``pipx`` install has no checkout to put them in)."""
    if value := os.environ.get("PAPERCLIP_MODELS_DIR"):
        return Path(value).expanduser()
    return REPO_ROOT / "models" if in_checkout() else data_dir() / "models"


def _data_dir(in_wheel: str, checkout_folder: str) -> Path:
    # The wheel maps assets/ and models/manifest.toml to the data packages desktop_app.assets and
    # desktop_app.catalog (pyproject.toml), installed next to this file.
    return REPO_ROOT / checkout_folder if in_checkout() else Path(__file__).resolve().parent / in_wheel


def manifest_file() -> Path:
    """The model catalog: ``models/manifest.toml`` of a checkout, or the wheel's copy."""
    return _data_dir("catalog", "models") / "manifest.toml"


def assets_dir() -> Path:
    """Styles and prompt templates: ``assets/`` of a checkout, or the wheel's copy."""
    return _data_dir("assets", "assets")
