"""Choose the SQLite build Paperclip runs on: the one place that decides.

sqlite-vec is a loadable extension. Many Python builds (this machine's included) compile the
stdlib ``sqlite3`` without ``enable_load_extension``; then we fall back to ``sqlean``
(the sqlean-py package: a drop-in ``sqlite3`` with extension loading). Everything else in
Paperclip imports ``sqlite`` from here, never ``sqlite3`` directly.
"""

from __future__ import annotations

import sqlite3 as _stdlib_sqlite3
from dataclasses import dataclass
from types import ModuleType


def _can_load_extensions(module: ModuleType) -> bool:
    try:
        conn = module.connect(":memory:")
    except Exception:  # a broken build: treat as unusable
        return False
    try:
        conn.enable_load_extension(True)
        return True
    except AttributeError:
        return False
    except module.Error:  # pragma: no cover - compiled in but disabled by policy
        return False
    finally:
        conn.close()


def _pick() -> tuple[ModuleType, str]:
    if _can_load_extensions(_stdlib_sqlite3):
        return _stdlib_sqlite3, "stdlib sqlite3"
    try:
        import sqlean  # type: ignore[import-untyped]
    except ImportError:
        return _stdlib_sqlite3, "stdlib sqlite3 (no extension loading; sqlean-py missing)"
    return sqlean, "sqlean-py (stdlib sqlite3 cannot load extensions)"


sqlite, BACKEND_NAME = _pick()


@dataclass(frozen=True)
class BackendInfo:
    """What ``paperclip doctor`` reports about the database layer."""

    backend: str
    sqlite_version: str
    can_load_extensions: bool
    vec_version: str | None
    vec_error: str | None


def backend_info() -> BackendInfo:
    """Probe the chosen backend and sqlite-vec on an in-memory database."""
    conn = sqlite.connect(":memory:")
    try:
        version = conn.execute("select sqlite_version()").fetchone()[0]
        vec_version, vec_error = None, None
        try:
            load_vec(conn)
            vec_version = conn.execute("select vec_version()").fetchone()[0]
        except Exception as exc:  # reported, not raised: doctor explains it
            vec_error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return BackendInfo(BACKEND_NAME, version, _can_load_extensions(sqlite), vec_version, vec_error)
    finally:
        conn.close()


def load_vec(conn) -> None:
    """Load sqlite-vec into ``conn`` (raises if this SQLite cannot load extensions)."""
    import sqlite_vec

    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)
