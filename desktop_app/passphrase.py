"""Where the database passphrase comes from (optional encryption at rest).

Never from ``config.toml``. In order: ``PAPERCLIP_PASSPHRASE`` (for scripts and tests: an
environment variable other processes of the same user can read, so prefer the others), the OS
keyring (``encryption = "keyring"``, or whenever the keyring holds one for this database), and a
prompt on the terminal. The entry point calls :func:`unlock` once, before anything opens the
database; an unencrypted database with encryption off asks nothing.
"""

from __future__ import annotations

import getpass
import logging
import os
import sys
from pathlib import Path

from desktop_app.memory.store.encryption import EncryptionError, is_encrypted, register_passphrase, set_key_source
from desktop_app.memory.store.sqlite_backend import can_encrypt

log = logging.getLogger(__name__)

ENV = "PAPERCLIP_PASSPHRASE"
KEYRING_SERVICE = "paperclip"


class PassphraseError(RuntimeError):
    """No passphrase could be had; one line for the user."""


def _keyring_get(db: Path) -> str | None:
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, str(db.resolve()))
    except Exception as exc:  # no keyring package or no backend: the prompt is the fallback
        log.info("keyring unavailable: %s", exc)
        return None


def keyring_set(db: Path, passphrase: str) -> bool:
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, str(db.resolve()), passphrase)
        return True
    except Exception as exc:
        log.warning("could not save the passphrase in the OS keyring: %s", exc)
        return False


def ask(prompt: str, *, confirm: bool = False) -> str:
    """A passphrase typed on the terminal (twice when ``confirm``)."""
    if not sys.stdin.isatty():
        raise PassphraseError(f"a passphrase is needed and there is no terminal to ask on; set {ENV} for scripts")
    first = getpass.getpass(prompt)
    if confirm and getpass.getpass("again: ") != first:
        raise PassphraseError("the two passphrases differ; nothing was changed")
    if not first:
        raise PassphraseError("the passphrase is empty")
    return first


def new_passphrase(db: Path) -> str:
    return os.environ.get(ENV) or ask(f"new passphrase for {db}: ", confirm=True)


def stored_passphrase(db: Path) -> str | None:
    """The passphrase that can be had without asking: the environment, then the OS keyring."""
    return os.environ.get(ENV) or _keyring_get(db)


def unlock(settings) -> bool:
    """Register the passphrase of the configured database when it is encrypted, or when
    encryption is on and the database is new; True when one was registered. A database
    encrypted later, while this process waits for it, finds its passphrase in
    :func:`stored_passphrase` (the ``Store`` asks when it opens the file)."""
    set_key_source(stored_passphrase)
    db = Path(settings.db_path)
    fresh = not db.exists() or db.stat().st_size == 0
    if not can_encrypt() or not is_encrypted(db) and not (fresh and settings.encryption != "off"):
        return False  # a file that only looks encrypted without SQLCipher is reported as damaged
    passphrase = os.environ.get(ENV)
    from_keyring = False
    if not passphrase and (settings.encryption == "keyring" or not fresh):
        passphrase = _keyring_get(db)
        from_keyring = bool(passphrase)
    if not passphrase and settings.encryption == "off":
        return False  # encrypted, or random bytes: opening it says which to check
    if not passphrase:
        passphrase = ask(f"new passphrase for {db}: " if fresh else f"passphrase for {db}: ", confirm=fresh)
    try:
        register_passphrase(db, passphrase)
    except EncryptionError as exc:
        raise PassphraseError(str(exc)) from None
    if settings.encryption == "keyring" and not from_keyring and fresh:
        keyring_set(db, passphrase)
    return True
