"""Encryption at rest with SQLCipher (the optional ``encryption`` extra): the database, its WAL and
what recall needs (sqlite-vec, FTS5) work encrypted; the passphrase never comes from the config
file; a wrong or missing passphrase is one line; encrypt/decrypt keep every row."""

from __future__ import annotations

import json

import pytest

from desktop_app.memory.store.sqlite_backend import can_encrypt

pytestmark = pytest.mark.skipif(not can_encrypt(), reason="SQLCipher (sqlcipher3) is not installed")

SECRET = "QZ7741ARDWICK"
TURNS = (json.dumps({"role": "user", "content": f"My locker code is {SECRET}. 我的门禁密码是紫檀七七四一号。"}) + "\n"
         + json.dumps({"role": "assistant", "content": "Noted."}) + "\n")


def file_bytes(db) -> bytes:
    return b"".join(p.read_bytes() for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def test_a_new_database_is_encrypted_and_recall_works(cli, tmp_path, isolated_home):
    (isolated_home / "config").mkdir(parents=True)
    (isolated_home / "config" / "config.toml").write_text('encryption = "prompt"\n', encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(TURNS, encoding="utf-8")
    db = isolated_home / "data" / "paperclip.db"
    key = {"PAPERCLIP_PASSPHRASE": "correct horse"}
    assert cli("import", transcript, "--session", "s", env=key).code == 0
    data = file_bytes(db)
    assert not data.startswith(b"SQLite format 3")
    assert SECRET.encode() not in data
    assert "紫檀".encode() not in data
    found = cli("recall", SECRET, "--session", "s", env=key)  # FTS5 trigram through SQLCipher
    assert found.code == 0
    assert SECRET in found.out
    context = cli("context", "what is my locker code?", "--json", "--session", "s", env=key)
    assert context.code == 0
    assert json.loads(context.out)
    doctor = cli("doctor", env=key)
    assert "sqlite-vec" in doctor.out
    assert "encrypted" in doctor.out

    wrong = cli("sessions", env={"PAPERCLIP_PASSPHRASE": "wrong"})
    assert wrong.one_line_error
    assert "passphrase is wrong" in wrong.err
    missing = cli("sessions")  # no terminal to ask on
    assert missing.one_line_error
    assert "PAPERCLIP_PASSPHRASE" in missing.err


def test_the_passphrase_cannot_live_in_the_config_file(cli, isolated_home):
    (isolated_home / "config").mkdir(parents=True)
    (isolated_home / "config" / "config.toml").write_text('passphrase = "x"\n', encoding="utf-8")
    ran = cli("sessions")
    assert ran.one_line_error
    assert "passphrase" in ran.err


def test_encrypt_and_decrypt_keep_every_row(cli, tmp_path, isolated_home):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(TURNS, encoding="utf-8")
    db = isolated_home / "data" / "paperclip.db"
    assert cli("import", transcript, "--session", "s").code == 0
    before = cli("export", "--format", "json", "--session", "s").out
    assert SECRET.encode() in file_bytes(db)
    key = {"PAPERCLIP_PASSPHRASE": "pa'ss"}  # a quote in the passphrase
    assert cli("encrypt", env=key).code == 0
    assert SECRET.encode() not in file_bytes(db)
    assert cli("export", "--format", "json", "--session", "s", env=key).out == before
    assert cli("encrypt", env=key).one_line_error  # already encrypted
    assert cli("decrypt", env=key).code == 0
    assert file_bytes(db).startswith(b"SQLite format 3")
    assert cli("export", "--format", "json", "--session", "s").out == before


def test_keyring_mode_asks_once_then_reads_the_os_keyring(tmp_path, monkeypatch):
    import keyring
    from keyring.backend import KeyringBackend

    from desktop_app import passphrase as pp
    from desktop_app.config import load_settings
    from desktop_app.memory.store import Store
    from desktop_app.memory.store.encryption import forget_passphrase, is_encrypted

    class MemoryKeyring(KeyringBackend):
        priority = 1
        saved: dict = {}

        def get_password(self, service, username):
            return self.saved.get((service, username))

        def set_password(self, service, username, password):
            self.saved[(service, username)] = password

        def delete_password(self, service, username):
            self.saved.pop((service, username), None)

    original = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        monkeypatch.delenv(pp.ENV, raising=False)
        asked = []
        monkeypatch.setattr(pp.getpass, "getpass", lambda prompt: asked.append(prompt) or "s3cret")
        monkeypatch.setattr(pp.sys.stdin, "isatty", lambda: True)
        db = tmp_path / "k.db"
        settings = load_settings({"db": db, "encryption": "keyring"})
        assert pp.unlock(settings)
        assert len(asked) == 2  # a new passphrase is typed twice
        with Store(db) as store:
            store.session_named("s")
        assert is_encrypted(db)
        forget_passphrase(db)
        assert pp.unlock(settings), "the second start reads the keyring"
        assert len(asked) == 2, "the second start reads the keyring"
        with Store(db) as store:
            assert store.session_named("s", create=False).name == "s"
    finally:
        keyring.set_keyring(original)
