"""Open Paperclip's one SQLite file: WAL, foreign keys, sqlite-vec, migrations."""

from __future__ import annotations

from pathlib import Path

from desktop_app.memory.migrations import migrate
from desktop_app.memory.sqlite_backend import load_vec, sqlite


class DatabaseError(RuntimeError):
    """The database file cannot be opened or used; the message is one line for the user."""


def connect(path: Path | str, *, migrate_schema: bool = True, require_vec: bool = False):
    """Open (creating if needed) the database at ``path``.

    Autocommit mode (``isolation_level=None``): transactions are explicit, which is what
    lets each migration and each memory patch be all-or-nothing. sqlite-vec is loaded when
    the SQLite build allows it; ``require_vec`` turns its absence into an error.
    """
    path = Path(path)
    if str(path) != ":memory:":
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10)
        conn.row_factory = sqlite.Row
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite.DatabaseError as exc:
        raise DatabaseError(f"cannot open database {path}: {exc}") from None
    try:
        load_vec(conn)
    except Exception as exc:
        if require_vec:
            conn.close()
            raise DatabaseError(f"sqlite-vec could not be loaded: {exc}") from None
    if migrate_schema:
        try:
            migrate(conn)
        except (sqlite.DatabaseError, RuntimeError) as exc:
            conn.close()
            raise DatabaseError(f"database {path} is not usable: {exc}") from None
    return conn


def vec_available(conn) -> bool:
    """Whether sqlite-vec is loaded on this connection."""
    try:
        conn.execute("select vec_version()").fetchone()
        return True
    except sqlite.OperationalError:
        return False
