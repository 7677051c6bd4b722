"""Bad files and bad input end in one line and a non-zero exit, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests.reliability.conftest import raw_rows


def _transcript(tmp_path, n: int, name: str = "t.jsonl", size: int = 40):
    path = tmp_path / name
    filler = "x" * size
    lines = [json.dumps({"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i} {filler}",
                         "id": f"{path.stem}-{i}"}) for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def good_db(cli, tmp_path):
    db = tmp_path / "good.db"
    ran = cli("import", _transcript(tmp_path, 300, size=400), "--db", db, "--session", "s")
    assert ran.code == 0, ran.err
    return db


@pytest.mark.parametrize("damage", ["truncated", "random bytes", "damaged pages"])
def test_a_damaged_database_is_one_line_and_doctor_fails(cli, tmp_path, good_db, damage):
    raw = good_db.read_bytes()
    bad = tmp_path / "bad.db"
    if damage == "truncated":
        bad.write_bytes(raw[: len(raw) // 3])
    elif damage == "random bytes":
        bad.write_bytes(os.urandom(len(raw)))
    else:  # the header and schema survive, the pages after them are garbage
        bad.write_bytes(raw[:8192] + os.urandom(len(raw) - 8192))
    for args in (("export", "--session", "s"), ("sessions",), ("import", _transcript(tmp_path, 2, "more.jsonl"))):
        ran = cli(*args, "--db", bad)
        assert ran.one_line_error, (args, ran.code, ran.err)
    ran = cli("doctor", "--no-load", "--json", "--db", bad)
    assert ran.code != 0
    check = next(c for c in json.loads(ran.out)["checks"] if c["check"] == "database")
    assert not check["ok"]
    assert "damaged" in check["detail"]
    ran = cli("doctor", "--no-load", "--json", "--db", good_db)
    check = next(c for c in json.loads(ran.out)["checks"] if c["check"] == "database")
    assert check["ok"]
    assert "quick_check ok" in check["detail"]


def test_a_read_only_database_reads_and_refuses_writes_in_one_line(cli, tmp_path, good_db):
    before = raw_rows(good_db, "SELECT count(*) FROM messages")
    os.chmod(good_db, 0o444)
    try:
        ran = cli("sessions", "--db", good_db)
        assert ran.code == 0, ran.err
        assert "300 messages" in ran.out
        assert cli("export", "--db", good_db, "--session", "s").code == 0
        ran = cli("import", _transcript(tmp_path, 4, "more.jsonl"), "--db", good_db, "--session", "s")
        assert ran.one_line_error, ran.err
        assert "read-only" in ran.err.lower()
    finally:
        os.chmod(good_db, 0o600)
    assert raw_rows(good_db, "SELECT count(*) FROM messages") == before


@pytest.fixture
def mount_tmpfs(tmp_path):
    """``mount_tmpfs(options)`` mounts a tmpfs under tmp_path (skipped where mounting is not allowed)."""
    mounted = []

    def mount(options: str):
        where = tmp_path / f"mnt{len(mounted)}"
        where.mkdir()
        if shutil.which("mount") is None:
            pytest.skip("no mount command here")
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip() or done.returncode})")
        mounted.append(where)
        return where

    yield mount
    for where in mounted:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_database_on_a_read_only_mount_is_one_line(cli, tmp_path, mount_tmpfs):
    where = mount_tmpfs("size=1m,ro")
    ran = cli("import", _transcript(tmp_path, 2), "--db", where / "sub" / "p.db")
    assert ran.one_line_error, ran.err
    assert "read-only" in ran.err.lower()


def test_a_database_on_a_mount_made_read_only_is_read(cli, tmp_path, mount_tmpfs):
    where = mount_tmpfs("size=8m")
    db = where / "p.db"
    assert cli("import", _transcript(tmp_path, 6), "--db", db, "--session", "s").code == 0
    done = subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot remount read-only here ({done.stderr.decode().strip()})")
    ran = cli("sessions", "--db", db)
    assert ran.code == 0, ran.err
    assert "6 messages" in ran.out
    ran = cli("import", _transcript(tmp_path, 2, "more.jsonl"), "--db", db, "--session", "s")
    assert ran.one_line_error, ran.err
    assert "read-only" in ran.err


def test_a_full_disk_is_one_line_and_loses_nothing(cli, tmp_path, mount_tmpfs):
    where = mount_tmpfs("size=3m")
    db = where / "p.db"
    ran = cli("import", _transcript(tmp_path, 4, "small.jsonl"), "--db", db, "--session", "s")
    assert ran.code == 0, ran.err
    ran = cli("import", _transcript(tmp_path, 3000, "big.jsonl", size=1500), "--db", db, "--session", "s")
    assert ran.one_line_error, ran.err
    assert "disk is full" in ran.err
    shutil.copy(db, tmp_path / "copy.db")  # read it where there is room for the -shm
    for suffix in ("-wal",):
        if db.with_name(db.name + suffix).exists():
            shutil.copy(db.with_name(db.name + suffix), tmp_path / f"copy.db{suffix}")
    assert raw_rows(tmp_path / "copy.db", "PRAGMA integrity_check") == [("ok",)]
    assert raw_rows(tmp_path / "copy.db", "SELECT count(*) FROM messages") == [(4,)]


def test_deeply_nested_json_is_one_line(cli, tmp_path):
    for name in ("deep.jsonl", "deep.json"):
        path = tmp_path / name
        path.write_text("[" * 100_000 + "\n", encoding="utf-8")
        ran = cli("import", path, "--db", tmp_path / "p.db")
        assert ran.one_line_error, ran.err
        assert "nested too deeply" in ran.err


@pytest.mark.parametrize("message, stdin, expected", [
    ("", None, "empty"),
    ("-", b"x" * 200_001, "limit"),
    ("-", b"abc\x00def", "NUL"),
    ("-", b"\xff\xfe\xfa", "UTF-8"),
], ids=["empty", "too long", "binary", "not UTF-8"])
def test_ask_rejects_bad_input_before_loading_a_model(cli, tmp_path, message, stdin, expected):
    # A model that does not exist: had ask loaded it first, this would be the error.
    ran = cli("ask", message, "--db", tmp_path / "p.db", "--model", tmp_path / "missing.gguf", stdin=stdin)
    assert ran.one_line_error, ran.err
    assert expected in ran.err
    assert "missing.gguf" not in ran.err
    if (tmp_path / "p.db").exists():
        assert raw_rows(tmp_path / "p.db", "SELECT count(*) FROM messages") == [(0,)]


def test_connections_checkpoint_and_limit_the_wal(store):
    assert store.conn.execute("PRAGMA journal_size_limit").fetchone()[0] == 1 << 20
    assert store.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 256
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
