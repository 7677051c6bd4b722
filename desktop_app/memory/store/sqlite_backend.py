"""Choose the SQLite build Paperclip runs on: the one place that decides.

sqlite-vec is a loadable extension. Many Python builds (this machine's included) compile the
stdlib ``sqlite3`` without ``enable_load_extension``; then we fall back to ``sqlcipher3`` when the
``encryption`` extra is installed (SQLCipher 4: SQLite with page encryption, extension loading and
FTS5; a database without a passphrase is a plain SQLite file through it), else ``sqlean`` (the
sqlean-py package: a drop-in ``sqlite3`` with extension loading). ``PAPERCLIP_SQLITE`` =
``stdlib``, ``sqlcipher`` or ``sqlean`` forces one. Everything else in Paperclip imports
``sqlite`` from here, never ``sqlite3`` directly.
"""

from __future__ import annotations

import os
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


def _sqlcipher() -> ModuleType | None:
    try:
        from sqlcipher3 import dbapi2
    except ImportError:
        return None
    module: ModuleType = dbapi2  # (no type information: the package ships none)
    return module


def _sqlean() -> ModuleType | None:
    try:
        import sqlean
    except ImportError:
        return None
    module: ModuleType = sqlean  # (no type information: the package ships none)
    return module


def _pick() -> tuple[ModuleType, str]:
    forced = os.environ.get("PAPERCLIP_SQLITE", "").strip().lower()
    if forced == "stdlib":
        return _stdlib_sqlite3, "stdlib sqlite3 (PAPERCLIP_SQLITE)"
    if forced in ("sqlcipher", "sqlean"):
        module = _sqlcipher() if forced == "sqlcipher" else _sqlean()
        if module is None:
            raise SystemExit(f"paperclip: PAPERCLIP_SQLITE={forced} but its package is not installed")
        return module, f"{'sqlcipher3 (SQLCipher)' if forced == 'sqlcipher' else 'sqlean-py'} (PAPERCLIP_SQLITE)"
    if _can_load_extensions(_stdlib_sqlite3):
        return _stdlib_sqlite3, "stdlib sqlite3"
    if (module := _sqlcipher()) is not None:
        return module, "sqlcipher3 (SQLCipher; stdlib sqlite3 cannot load extensions)"
    if (module := _sqlean()) is not None:
        return module, "sqlean-py (stdlib sqlite3 cannot load extensions)"
    return _stdlib_sqlite3, "stdlib sqlite3 (no extension loading; sqlean-py missing)"


def can_encrypt() -> bool:
    """Whether the chosen SQLite is SQLCipher (``PRAGMA key`` encrypts the file)."""
    return sqlite.__name__.startswith("sqlcipher3")


sqlite, BACKEND_NAME = _pick()
# The connection type in annotations: sqlcipher3's and sqlean's connections have the stdlib's API.
Connection = _stdlib_sqlite3.Connection
Cursor = _stdlib_sqlite3.Cursor
Row = _stdlib_sqlite3.Row


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


def load_vec(conn: Connection) -> None:
    """Load sqlite-vec into ``conn`` (raises if this SQLite cannot load extensions)."""
    import sqlite_vec

    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)
