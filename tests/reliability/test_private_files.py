"""Paperclip's folders are 0700 and its files 0600 whatever the umask; doctor finds and fixes the rest."""

from __future__ import annotations

import json
import os
import stat

import pytest

from desktop_app import paths


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_default_data_dir_and_database_are_private(cli, tmp_path, isolated_home):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"role": "user", "content": "my budget is 5000 euros"}\n', encoding="utf-8")
    ran = cli("import", transcript, umask=0o022)  # no --db: the platform data dir under PAPERCLIP_HOME
    assert ran.code == 0, ran.err
    db = paths.default_db_path()
    assert db.is_file()
    assert mode(db) == 0o600
    assert mode(db.parent) == 0o700
    assert mode(isolated_home) == 0o700  # created on the way, also private


def test_wal_and_shm_follow_the_database(tmp_path, umask_022):
    from desktop_app.memory.store import Store

    db = tmp_path / "fresh" / "p.db"
    with Store(db) as store:
        store.add_message(store.session_named("s").id, "user", "a secret")
        wal, shm = db.with_name("p.db-wal"), db.with_name("p.db-shm")
        assert wal.exists()
        assert shm.exists()
        assert (mode(db), mode(wal), mode(shm)) == (0o600, 0o600, 0o600)
    assert mode(db.parent) == 0o700


def test_config_file_is_private(umask_022):
    from desktop_app.config import Settings, save_config

    written = save_config(Settings(temperature=0.3))
    assert written == paths.config_file()
    assert mode(written) == 0o600
    assert mode(paths.config_dir()) == 0o700


def test_export_file_is_private(cli, tmp_path):
    db = tmp_path / "p.db"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"role": "user", "content": "hello"}\n', encoding="utf-8")
    assert cli("import", transcript, "--db", db, "--session", "s").code == 0
    out = tmp_path / "exports" / "s.md"
    ran = cli("export", "--db", db, "--session", "s", "--out", out, umask=0o022)
    assert ran.code == 0, ran.err
    assert mode(out) == 0o600
    assert mode(out.parent) == 0o700
    assert "hello" in out.read_text(encoding="utf-8")


def test_doctor_warns_about_readable_files_and_fixes_them(cli, tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"role": "user", "content": "hello"}\n', encoding="utf-8")
    assert cli("import", transcript).code == 0
    db = paths.default_db_path()
    os.chmod(db, 0o644)  # as an older Paperclip left it
    os.chmod(db.parent, 0o755)

    ran = cli("doctor", "--no-load", "--json")
    check = next(c for c in json.loads(ran.out)["checks"] if c["check"] == "private files")
    assert not check["ok"]
    assert str(db) in check["detail"]
    assert "0644" in check["detail"]
    assert "doctor --fix" in check["detail"]
    assert "chmod go-rwx" in check["detail"]

    ran = cli("doctor", "--no-load", "--fix")
    assert "tightened" in ran.out, ran.out
    assert mode(db) == 0o600
    assert mode(db.parent) == 0o700
    ran = cli("doctor", "--no-load", "--json")
    check = next(c for c in json.loads(ran.out)["checks"] if c["check"] == "private files")
    assert check["ok"], check
