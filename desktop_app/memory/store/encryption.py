"""Encryption at rest (optional): SQLCipher 4 through the ``sqlcipher3`` package.

With the ``encryption`` extra installed, ``sqlite_backend`` runs Paperclip on SQLCipher's SQLite,
which still loads sqlite-vec and has FTS5. A database opened with a passphrase is encrypted page
by page (its WAL too; the ``-shm`` index holds no content); without one it is an ordinary SQLite
file. The passphrase never comes from the config file: the entry point asks for it (a prompt, the
OS keyring, or ``PAPERCLIP_PASSPHRASE`` for scripts) and registers it here for the database's
path; every connection this process opens to that file then sends ``PRAGMA key`` first.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from desktop_app.memory.store.sqlite_backend import Connection, can_encrypt, load_vec, sqlite

PLAIN_HEADER = b"SQLite format 3\x00"
_KEYS: dict[str, str] = {}
# Where a passphrase comes from without asking (set by the entry point: the environment, the OS keyring).
_KEY_SOURCE: Callable[[Path], str | None] | None = None


class EncryptionError(RuntimeError):
    """Encryption was asked for but cannot be done; the message is one line for the user."""


def _where(path: Path | str) -> str:
    return str(Path(path).expanduser().resolve())


def register_passphrase(path: Path | str, passphrase: str) -> None:
    """Open the database at ``path`` with ``passphrase`` from now on (this process only)."""
    if not passphrase:
        raise EncryptionError("the passphrase is empty")
    if not can_encrypt():
        raise EncryptionError("encryption needs SQLCipher: pip install 'paperclip[encryption]' "
                              "(the sqlcipher3-binary and keyring packages)")
    _KEYS[_where(path)] = passphrase


def forget_passphrase(path: Path | str) -> None:
    _KEYS.pop(_where(path), None)


def passphrase_for(path: Path | str) -> str | None:
    return _KEYS.get(_where(path)) if str(path) != ":memory:" else None


def set_key_source(source: Callable[[Path], str | None]) -> None:
    """How :func:`match_form` finds the passphrase of a file encrypted after this process started."""
    global _KEY_SOURCE
    _KEY_SOURCE = source


def match_form(path: Path) -> None:
    """Make the registered passphrase fit the file as it is now. Called with the file's lock held
    (so no conversion is running): a command started while ``paperclip encrypt`` or ``decrypt``
    ran looked its passphrase up before the file changed form, and would open an encrypted file
    without a key, or a plain one with a key ("file is not a database")."""
    if str(path) == ":memory:":
        return
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(PLAIN_HEADER))
    except OSError:
        return
    registered = passphrase_for(path) is not None
    if registered and head == PLAIN_HEADER:
        forget_passphrase(path)  # decrypted meanwhile
    elif not registered and head and head != PLAIN_HEADER and can_encrypt():
        found = _KEY_SOURCE(path) if _KEY_SOURCE is not None else None
        if found:
            _KEYS[_where(path)] = found  # encrypted meanwhile, and the passphrase is at hand
        # otherwise opening it says it needs a passphrase


def is_encrypted(path: Path | str) -> bool:
    """Whether the file exists, is not empty and does not start with SQLite's plain header."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(PLAIN_HEADER))
    except OSError:
        return False
    return bool(head) and head != PLAIN_HEADER


def key_statement(passphrase: str) -> str:
    """``PRAGMA key`` for ``passphrase`` (PRAGMA takes no parameters: the quote is doubled)."""
    return "PRAGMA key = '" + passphrase.replace("'", "''") + "'"


def quiet(conn: Connection) -> None:
    """SQLCipher logs a wrong key to stderr itself; Paperclip says it in one line instead."""
    if can_encrypt():
        conn.execute("PRAGMA cipher_log_level = NONE")


def apply_key(conn: Connection, path: Path | str) -> None:
    """Send the registered passphrase of ``path`` (if any) before anything else is read."""
    quiet(conn)
    passphrase = passphrase_for(path)
    if passphrase is not None:
        conn.execute(key_statement(passphrase))


def convert(path: Path, *, old: str | None, new: str | None) -> Path:
    """Rewrite the database at ``path`` with passphrase ``new`` (None: plain) from ``old`` (None:
    plain), through SQLCipher's ``sqlcipher_export`` into a private temporary file that replaces
    the original once it reads back; the old file's -wal/-shm are checkpointed away first."""
    if not can_encrypt():
        raise EncryptionError("encryption needs SQLCipher: pip install 'paperclip[encryption]'")
    target = path.with_name(path.name + ".converting")
    for leftover in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        leftover.unlink(missing_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    conn = sqlite.connect(str(path), isolation_level=None)
    quiet(conn)
    try:
        if old:
            conn.execute(key_statement(old))
        load_vec(conn)  # the vector tables are virtual: their module must be there to copy them
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        quoted = "'" + (new or "").replace("'", "''") + "'"
        conn.execute(f"ATTACH DATABASE '{str(target).replace(chr(39), chr(39) * 2)}' AS converted KEY {quoted}")
        conn.execute("SELECT sqlcipher_export('converted')")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute(f"PRAGMA converted.user_version = {int(version)}")
        conn.execute("DETACH DATABASE converted")
    except Exception:
        target.unlink(missing_ok=True)
        raise
    finally:
        conn.close()
    check = sqlite.connect(str(target))
    quiet(check)
    try:
        if new:
            check.execute(key_statement(new))
        if check.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise EncryptionError(f"the converted copy of {path} did not read back; the original is unchanged")
    finally:
        check.close()
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    target.replace(path)
    return path
