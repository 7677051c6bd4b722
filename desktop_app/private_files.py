"""Files only their owner can read: folders 0700, files 0600, whatever the umask.

The database holds every conversation; its ``-wal`` and ``-shm`` are created by SQLite with the
database file's own mode, so creating the database file 0600 first covers all three. Existing
files are never changed behind the user's back: ``paperclip doctor`` reports those others can
read and ``doctor --fix`` tightens them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(path: Path) -> Path:
    """Create ``path`` and its missing parents as 0700 folders (existing ones are left as they are)."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:  # another process made it first
            continue
        os.chmod(folder, PRIVATE_DIR)  # mkdir's mode is filtered by the umask
    return path


def create_private_file(path: Path) -> bool:
    """Create ``path`` empty with mode 0600 when it does not exist; True when it was created."""
    if os.path.lexists(path):
        return False
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)
    return True


def write_private_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically (a 0600 temporary file renamed over it)."""
    path = Path(path)
    private_dir(path.parent)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            fd = -1
            handle.write(text)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(path)
    return path


def exposed(path: Path) -> str | None:
    """``"0644"`` when group or others may access ``path``; None when it is private or absent."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None
    return f"{mode:04o}" if mode & 0o077 else None


def make_private(path: Path) -> None:
    """Take group and other permissions away from ``path`` (0700 for folders, 0600 for files)."""
    os.chmod(path, PRIVATE_DIR if Path(path).is_dir() else PRIVATE_FILE)
