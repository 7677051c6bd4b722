"""``paperclip encrypt`` / ``paperclip decrypt``: convert the database to and from SQLCipher.

Encrypting rewrites the file with a new passphrase (asked twice, or ``PAPERCLIP_PASSPHRASE``;
``--keyring`` also keeps it in the OS keyring); decrypting rewrites it as a plain SQLite file.
The saved prompt states (``kv/``) are plain llama.cpp files: both commands delete them.
"""

from __future__ import annotations


def register(subparsers):
    encrypt = subparsers.add_parser("encrypt", help="encrypt the database with a passphrase (SQLCipher)")
    encrypt.add_argument("--keyring", action="store_true", help="also keep the passphrase in the OS keyring")
    encrypt.set_defaults(func=run_encrypt)
    decrypt = subparsers.add_parser("decrypt", help="rewrite an encrypted database as a plain SQLite file")
    decrypt.set_defaults(func=run_decrypt)
    return [encrypt, decrypt]


def _convert(settings, *, old: str | None, new: str | None) -> None:
    from desktop_app.commands.common import CommandError
    from desktop_app.memory.forgetting import clear_states
    from desktop_app.memory.store.encryption import EncryptionError, convert
    from desktop_app.memory.store.lock import DatabaseBusy, exclusive
    from desktop_app.memory.store.sqlite_backend import sqlite

    try:
        # No other Paperclip process may have the file open while it is replaced: it would go on
        # writing into the old file, and everything it wrote after the swap would be lost.
        with exclusive(settings.db_path):
            convert(settings.db_path, old=old, new=new)
    except DatabaseBusy as exc:
        raise CommandError(f"cannot convert now: {exc}") from None
    except (EncryptionError, sqlite.DatabaseError) as exc:
        raise CommandError(f"cannot convert {settings.db_path}: {exc}; the original is unchanged") from None
    clear_states(settings.db_path)


def run_encrypt(args, settings) -> int:
    from desktop_app.commands.common import CommandError
    from desktop_app.memory.core.safe_text import plain_line
    from desktop_app.memory.store.encryption import is_encrypted, register_passphrase
    from desktop_app.passphrase import keyring_set, new_passphrase

    db = settings.db_path
    if not db.exists():
        raise CommandError(f"no database at {db} yet; set encryption = \"prompt\" in config.toml and a new one "
                           f"is created encrypted")
    if is_encrypted(db):
        raise CommandError(f"{db} is already encrypted")
    passphrase = new_passphrase(db)
    _convert(settings, old=None, new=passphrase)
    register_passphrase(db, passphrase)
    saved = args.keyring and keyring_set(db, passphrase)
    where = _remember_setting(args, "keyring" if saved else "prompt")
    print(plain_line(f"encrypted {db} (SQLCipher 4){'; the passphrase is in the OS keyring' if saved else ''}; "
                     f"{where} now says encryption = {'keyring' if saved else 'prompt'}"))
    return 0


def _remember_setting(args, value: str):
    """Set ``encryption`` in the config file (only that key: flags of this run are not saved)."""
    import tomli_w

    from desktop_app import paths
    from desktop_app.config import read_config_file
    from desktop_app.private_files import write_private_text

    path = getattr(args, "config", None) or paths.config_file()
    data = read_config_file(path)
    data["encryption"] = value
    write_private_text(path, tomli_w.dumps(data))
    return path


def run_decrypt(args, settings) -> int:
    from desktop_app.commands.common import CommandError
    from desktop_app.memory.core.safe_text import plain_line
    from desktop_app.memory.store.encryption import forget_passphrase, is_encrypted, passphrase_for

    db = settings.db_path
    if not is_encrypted(db):
        raise CommandError(f"{db} is not encrypted")
    _convert(settings, old=passphrase_for(db), new=None)
    forget_passphrase(db)
    _remember_setting(args, "off")
    print(plain_line(f"decrypted {db}: it is a plain SQLite file now"))
    return 0
