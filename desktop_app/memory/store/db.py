"""Open Paperclip's one SQLite file: WAL, foreign keys, sqlite-vec, migrations.

A database the user cannot write (a read-only mount, a file without write permission) is
opened read-only: reading works, and a write fails with SQLite's "readonly database" error,
which the CLI reports as one line. A new database file is created 0600 in a 0700 folder
(``desktop_app.private_files``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import quote

from desktop_app.memory.store.encryption import apply_key, is_encrypted, passphrase_for
from desktop_app.memory.store.migrations import MIGRATIONS, migrate
from desktop_app.memory.store.sqlite_backend import Connection, load_vec, sqlite
from desktop_app.private_files import create_private_file, private_dir

# Writers wait this long for the lock (another Paperclip process) before "database is locked".
BUSY_TIMEOUT_MS = 10_000
# Checkpoint the WAL every 256 pages (1 MiB at 4 KiB pages), and truncate it back to 1 MiB after
# a checkpoint: the default (1000 pages, never truncated) left 3 MB of WAL next to a 240 KB file.
WAL_AUTOCHECKPOINT_PAGES = 256
JOURNAL_SIZE_LIMIT_BYTES = 1 << 20


class DatabaseError(RuntimeError):
    """The database file cannot be opened or used; the message is one line for the user."""


def is_read_only(path: Path) -> bool:
    """Whether an existing database file must be opened read-only: its owner has no write
    permission (also for root, who could override it), or the file or its folder cannot be
    written (WAL mode writes ``-wal`` and ``-shm`` next to it)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # not there (or not reachable): creating it says what is wrong
        return False
    if not mode & stat.S_IWUSR:
        return True
    return not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK | os.X_OK)


def _open(path: Path, read_only: bool) -> Connection:
    """A connection with the registered passphrase (``memory.encryption``) already sent."""
    if not read_only:
        conn: Connection = sqlite.connect(str(path), isolation_level=None, check_same_thread=False,
                              timeout=BUSY_TIMEOUT_MS / 1000)
        apply_key(conn, path)
        return conn
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = sqlite.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    apply_key(conn, path)
    try:
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        return conn
    except sqlite.OperationalError:
        conn.close()
    # A WAL database whose -shm cannot be created: its folder is read-only, so no writer can
    # create one either and the file cannot change while we read it: read it as immutable.
    conn = sqlite.connect(uri + "&immutable=1", uri=True, isolation_level=None, check_same_thread=False)
    apply_key(conn, path)
    return conn


def connect(path: Path | str, *, migrate_schema: bool = True, require_vec: bool = False) -> Connection:
    """Open (creating if needed) the database at ``path``.

    Autocommit mode (``isolation_level=None``): transactions are explicit, which is what
    lets each migration and each memory patch be all-or-nothing. sqlite-vec is loaded when
    the SQLite build allows it; ``require_vec`` turns its absence into an error.
    """
    path = Path(path)
    in_memory = str(path) == ":memory:"
    read_only = not in_memory and is_read_only(path)
    if not in_memory and not read_only:
        try:
            # 0600 before SQLite opens it: SQLite gives -wal and -shm the database file's mode.
            private_dir(path.parent)
            create_private_file(path)
        except OSError as exc:
            raise DatabaseError(f"cannot create the database {path}: {exc.strerror}; choose a writable place "
                                f"with --db or PAPERCLIP_HOME") from None
    try:
        conn = _open(path, read_only)
        conn.row_factory = sqlite.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not read_only:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
            conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT_BYTES}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite.DatabaseError as exc:
        raise DatabaseError(f"cannot open database {path}: {exc}{damage_hint(exc, path)}") from None
    try:
        load_vec(conn)
    except Exception as exc:
        if require_vec:
            conn.close()
            raise DatabaseError(f"sqlite-vec could not be loaded: {exc}") from None
    if migrate_schema:
        try:
            if read_only:
                _check_schema_read_only(conn, path)
            else:
                migrate(conn)
        except (sqlite.DatabaseError, RuntimeError) as exc:
            conn.close()
            raise DatabaseError(f"database {path} is not usable: {exc}{damage_hint(exc, path)}") from None
    return conn


def _check_schema_read_only(conn: Connection, path: Path) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version != len(MIGRATIONS):
        raise RuntimeError(f"it is read-only and has schema version {version}, this Paperclip needs "
                           f"{len(MIGRATIONS)}; make it writable once so it can be upgraded")


def damage_hint(exc: BaseException, path: Path | None = None) -> str:
    """What to do about a damaged file, when ``exc`` says it is one."""
    text = str(exc).lower()
    if path is not None and "not a database" in text and is_encrypted(path):
        if passphrase_for(path) is None:
            return (" (if it is encrypted, give its passphrase: encryption = \"prompt\" or \"keyring\" in "
                    "config.toml, or PAPERCLIP_PASSPHRASE for scripts; otherwise it is damaged: run `paperclip "
                    "doctor`, and restore it from a backup)")
        return " (it is encrypted and the passphrase is wrong)"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return " (the file is damaged: run `paperclip doctor`, and restore it from a backup)"
    return ""


def quick_check(path: Path) -> str | None:
    """Open an existing database read-only and run ``PRAGMA quick_check``; None when it is sound,
    else one line saying what is wrong. Nothing is created or migrated."""
    path = Path(path)
    try:
        conn = _open(path, read_only=True)
    except sqlite.DatabaseError as exc:
        return f"cannot open: {exc}"
    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
        conn.execute("SELECT count(*) FROM messages").fetchone()
    except sqlite.DatabaseError as exc:
        return str(exc)
    finally:
        conn.close()
    if rows != ["ok"]:
        return "; ".join(rows[:3]) + (f" (and {len(rows) - 3} more problems)" if len(rows) > 3 else "")
    return None


def integrity_check(path: Path) -> list[str]:
    """``PRAGMA integrity_check`` of the file at ``path`` (read-only): ``[]`` when sound."""
    conn = _open(Path(path), read_only=True)
    try:
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
    finally:
        conn.close()
    return [] if rows == ["ok"] else rows


def vec_available(conn: Connection) -> bool:
    """Whether sqlite-vec is loaded on this connection."""
    try:
        conn.execute("select vec_version()").fetchone()
        return True
    except sqlite.OperationalError:
        return False
