"""Who has the database open: a lock every Paperclip process holds while it uses the file.

SQLite's own locks protect transactions, not the file's identity: ``paperclip encrypt`` replaces
the file, and a process that still has the old one open goes on writing into a file nobody will
read again. So every ``Store`` holds a *shared* ``flock`` on ``<db>.lock`` (a separate, empty file:
opening and closing the database file itself would drop SQLite's POSIX locks), and a conversion
takes it *exclusively*, refusing with one line, naming the other processes, while anyone holds it.

The lock file is never the database and holds no content. Where it cannot be created (a
read-only folder) or ``flock`` does not exist (Windows), nothing is locked: no conversion can
happen there either, or it is the user's own risk on a platform without advisory locks.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from desktop_app.memory.store.db import DatabaseError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# How long opening waits for a running conversion to finish before it says so.
CONVERSION_WAIT_SECONDS = 30.0
_POLL_SECONDS = 0.1


class DatabaseBusy(DatabaseError):
    """The database cannot be taken now; the message is one line for the user."""


class _Held:
    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.count = 0


_HELD: dict[str, _Held] = {}
_MUTEX = threading.Lock()


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def conversion_path(db: Path) -> Path:
    """The temporary copy an ``encrypt``/``decrypt`` writes before it replaces the database."""
    return db.with_name(db.name + ".converting")


def _key(db: Path) -> str:
    return str(db.expanduser().resolve())


def _open_lock_file(db: Path) -> int | None:
    if fcntl is None:
        return None
    try:
        return os.open(lock_path(db), os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError:
        return None


def _try(fd: int, mode: int) -> bool:
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def remove_conversion_leftovers(db: Path) -> list[Path]:
    """Delete what a killed conversion left (its copy may be a plaintext database). Only safe
    while this process holds the lock, which no conversion can then hold."""
    removed = []
    target = conversion_path(db)
    for leftover in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm"),
                     target.with_name(target.name + "-journal")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
            removed.append(leftover)
    return removed


def acquire_shared(db: Path, *, wait: float = CONVERSION_WAIT_SECONDS) -> None:
    """Hold ``db`` open for this process (counted: every ``Store`` calls it once). Waits for a
    running conversion up to ``wait`` seconds, then raises ``DatabaseBusy``."""
    if str(db) == ":memory:":
        return
    key = _key(db)
    with _MUTEX:
        held = _HELD.get(key)
        if held is None:
            fd = _open_lock_file(db)
            if fd is None:
                return
            deadline = time.monotonic() + wait
            while not _try(fd, fcntl.LOCK_SH):
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise DatabaseBusy(f"{db} is being converted by `paperclip encrypt` or `decrypt` "
                                       f"({_holders_text(db)}); try again when it has finished")
                time.sleep(_POLL_SECONDS)
            held = _HELD[key] = _Held(fd)
        held.count += 1
        # No conversion can be running while we hold the lock: what one left is from one that was killed.
        remove_conversion_leftovers(db)


def release_shared(db: Path) -> None:
    if str(db) == ":memory:":
        return
    key = _key(db)
    with _MUTEX:
        held = _HELD.get(key)
        if held is None:
            return
        held.count -= 1
        if held.count <= 0:
            del _HELD[key]
            os.close(held.fd)  # closing drops the flock


@contextlib.contextmanager
def exclusive(db: Path) -> Iterator[None]:
    """Take ``db`` for a conversion: refuses (``DatabaseBusy``, naming them) while another
    process has it open. This process's own ``Store``\\s must be closed first."""
    key = _key(db)
    with _MUTEX:
        if key in _HELD:
            raise DatabaseBusy(f"{db} is still open in this process; close it before converting it")
        fd = _open_lock_file(db)
        if fd is None:
            if fcntl is None:
                yield
                return
            raise DatabaseBusy(f"cannot create {lock_path(db)} to lock the database; is its folder writable?")
        if not _try(fd, fcntl.LOCK_EX):
            others = _holders_text(db)
            os.close(fd)
            raise DatabaseBusy(f"{db} is open in another Paperclip process ({others}); close it and run "
                               f"this again (the database is unchanged)")
        _HELD[key] = _Held(fd)
        _HELD[key].count = 1
    try:
        yield
    finally:
        with _MUTEX:
            _HELD.pop(key, None)
            os.close(fd)


def holders(db: Path) -> list[tuple[int, str]]:
    """The other processes with ``db``'s lock file open: (pid, command line). Linux only (reads
    ``/proc``); elsewhere an empty list."""
    target = str(lock_path(db).expanduser().resolve())
    found: list[tuple[int, str]] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return found
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:
            continue
        if target in links:
            try:
                raw = (entry / "cmdline").read_bytes()
            except OSError:
                raw = b""
            words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
            found.append((int(entry.name), " ".join(_short_command(words))))
    return sorted(found)


def _short_command(words: list[str]) -> list[str]:
    """``paperclip ask …`` rather than ``/path/to/.venv/bin/python /path/to/paperclip ask …``."""
    for i, word in enumerate(words):
        if Path(word).name in ("paperclip", "desktop_app") or word == "desktop_app":
            return ["paperclip", *words[i + 1:i + 4]]
    return [Path(w).name if i == 0 else w for i, w in enumerate(words[:4])]


def _holders_text(db: Path) -> str:
    found = holders(db)
    if not found:
        return "another process"
    shown = ", ".join(f"pid {pid}: {command}" if command else f"pid {pid}" for pid, command in found[:3])
    return shown + (f" and {len(found) - 3} more" if len(found) > 3 else "")
