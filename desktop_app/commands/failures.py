"""The CLI's error boundary: a failure the user can act on becomes one sentence, never a traceback.

``cli.main`` calls :func:`explain_failure` for anything a command raised; ``CommandError``
(a user mistake a command already explained) is handled before it. What is mapped: a damaged,
read-only, busy or full database, file-system refusals (read-only mount, permissions, no space)
and input nested too deeply to parse. ``PAPERCLIP_DEBUG=1`` shows the traceback instead.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from desktop_app.memory.core.safe_text import plain_line
from desktop_app.memory.store.db import DatabaseError, damage_hint
from desktop_app.memory.store.sqlite_backend import sqlite
from desktop_app.memory.write.patches import PatchRejected

_SQLITE_ERRORS = tuple({sqlite.DatabaseError, sqlite3.DatabaseError})
DISK_FULL = "the disk is full: nothing that was saved is lost; free some space and run it again"


def explain_failure(exc: BaseException, db_path: Path | None) -> str | None:
    """One line for ``exc``, or None when it is not a failure we know how to explain."""
    where = f" {db_path}" if db_path else ""
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read; nothing was stored"
    if isinstance(exc, DatabaseError):
        return str(exc)
    if isinstance(exc, _SQLITE_ERRORS):
        return _database_failure(str(exc), where)
    if isinstance(exc, PatchRejected):
        return f"memory changed while this ran (another Paperclip process?): {exc}; run it again"
    if isinstance(exc, OSError) and exc.errno is not None:
        return _os_failure(exc)
    return None


def _database_failure(text: str, where: str) -> str:
    lowered = text.lower()
    if "disk is full" in lowered or "database or disk is full" in lowered:
        return DISK_FULL
    if "readonly" in lowered or "read-only" in lowered:
        return (f"the database{where} is read-only: reading works, changes do not; make the file and its folder "
                f"writable to change it")
    if "locked" in lowered or "busy" in lowered:
        return f"the database{where} is busy in another Paperclip process; run it again when that finishes"
    if "unable to open" in lowered:
        return f"cannot open the database{where}: check that the folder exists and that you may read it"
    hint = damage_hint(Exception(text))
    if hint:
        return f"the database{where} is damaged ({text}){hint}"
    return f"the database{where} refused the change ({text}); nothing of it was saved"


def _os_failure(exc: OSError) -> str:
    name = f" {exc.filename}" if exc.filename else ""
    if exc.errno == errno.ENOSPC:
        return DISK_FULL
    if exc.errno == errno.EROFS:
        return f"cannot write{name}: the file system is read-only; choose a writable place (--db, --out, PAPERCLIP_HOME)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied:{name}; check its owner and mode (ls -l), or choose another place"
    return f"{exc.strerror or exc}:{name}"


def one_line(message: str) -> str:
    """The message as one printable line."""
    return plain_line(" ".join(message.split()))
