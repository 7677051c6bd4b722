"""``encrypt``/``decrypt`` never replace a file another Paperclip process has open, and what a
killed conversion leaves (after ``decrypt``, a plaintext copy) is removed by the next run and by
``doctor``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from desktop_app.memory.store import Store
from desktop_app.memory.store.lock import DatabaseBusy, acquire_shared, conversion_path, exclusive, release_shared
from desktop_app.memory.store.sqlite_backend import can_encrypt

needs_sqlcipher = pytest.mark.skipif(not can_encrypt(), reason="SQLCipher (sqlcipher3) is not installed")

HOLD = textwrap.dedent("""
    import sys, time
    from desktop_app.memory.store import Store
    store = Store(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.readline()
    store.close()
""")


def _turns(tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": "我的预算是8000元。"}) + "\n"
                          + json.dumps({"role": "assistant", "content": "好的。"}) + "\n", encoding="utf-8")
    return transcript


@needs_sqlcipher
def test_encrypt_refuses_while_another_process_has_the_database_open(cli, tmp_path, isolated_home):
    db = isolated_home / "data" / "paperclip.db"
    assert cli("import", _turns(tmp_path), "--session", "s").code == 0
    before = db.read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        refused = cli("encrypt", env={"PAPERCLIP_PASSPHRASE": "secret"})
        assert refused.one_line_error, refused.err
        assert f"pid {holder.pid}" in refused.err
        assert "open in another Paperclip process" in refused.err
        assert db.read_bytes()[:16] == before[:16] == b"SQLite format 3\x00"
        assert not conversion_path(db).exists()
    finally:
        holder.communicate("\n", timeout=30)
    # Once it has closed, the conversion goes ahead.
    assert cli("encrypt", env={"PAPERCLIP_PASSPHRASE": "secret"}).code == 0
    assert not db.read_bytes().startswith(b"SQLite format 3")


@needs_sqlcipher
def test_decrypt_refuses_too(cli, tmp_path, isolated_home):
    db = isolated_home / "data" / "paperclip.db"
    key = {"PAPERCLIP_PASSPHRASE": "secret"}
    assert cli("import", _turns(tmp_path), "--session", "s").code == 0
    assert cli("encrypt", env=key).code == 0
    holder = subprocess.Popen([sys.executable, "-c", "import os, sys\nfrom desktop_app.memory.store.encryption "
                               "import register_passphrase\nregister_passphrase(sys.argv[1], 'secret')\n" + HOLD,
                               str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        refused = cli("decrypt", env=key)
        assert refused.one_line_error
        assert f"pid {holder.pid}" in refused.err
        assert not db.read_bytes().startswith(b"SQLite format 3")
    finally:
        holder.communicate("\n", timeout=30)


def test_opening_waits_for_a_running_conversion_then_says_so(tmp_path):
    db = tmp_path / "p.db"
    Store(db).close()
    converting = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys
        from pathlib import Path
        from desktop_app.memory.store.lock import exclusive
        with exclusive(Path(sys.argv[1])):
            print("ready", flush=True)
            sys.stdin.readline()
    """), str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert converting.stdout.readline().strip() == "ready"
        with pytest.raises(DatabaseBusy, match="being converted"):
            acquire_shared(db, wait=0.2)
    finally:
        converting.communicate("\n", timeout=30)
    with Store(db) as store:  # free again
        assert store.conn.execute("select 1").fetchone()[0] == 1


def test_a_conversion_refuses_while_this_process_has_it_open(tmp_path):
    db = tmp_path / "p.db"
    with Store(db), pytest.raises(DatabaseBusy, match="still open in this process"), exclusive(db):
        pass


def test_the_lock_is_counted_per_process(tmp_path):
    db = tmp_path / "p.db"
    first, second = Store(db), Store(db)
    first.close()
    with pytest.raises(DatabaseBusy), exclusive(db):  # the second still holds it
        pass
    second.close()
    second.close()  # closing twice releases once
    with exclusive(db):
        pass


def test_a_killed_conversions_copy_is_removed_by_the_next_run_and_by_doctor(cli, tmp_path, isolated_home):
    db = isolated_home / "data" / "paperclip.db"
    assert cli("import", _turns(tmp_path), "--session", "s").code == 0
    leftover = conversion_path(db)
    leftover.write_bytes(db.read_bytes())  # what `decrypt` killed after its export leaves: plaintext
    leftover.with_name(leftover.name + "-wal").write_bytes(b"x")
    doctor = cli("doctor", "--json")
    assert "left by an interrupted encrypt/decrypt" in doctor.out
    assert not leftover.exists()
    assert not leftover.with_name(leftover.name + "-wal").exists()
    leftover.write_bytes(b"plaintext")
    assert cli("sessions").code == 0
    assert not leftover.exists()


def test_a_store_on_a_read_only_folder_opens_without_a_lock(tmp_path):
    db = tmp_path / "ro" / "p.db"
    db.parent.mkdir()
    Store(db).close()
    (db.parent / (db.name + ".lock")).unlink()
    db.parent.chmod(0o500)
    try:
        acquire_shared(db)
        release_shared(db)
    finally:
        db.parent.chmod(0o700)



CONVERT = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from desktop_app.memory.store.encryption import convert
    from desktop_app.memory.store.lock import exclusive, holders
    db, old, new = Path(sys.argv[1]), (sys.argv[2] or None), (sys.argv[3] or None)
    with exclusive(db):
        print("ready", flush=True)
        waiter = int(sys.stdin.readline())
        # Convert once the command has looked its passphrase up and waits for the lock.
        deadline = time.monotonic() + 60
        while waiter not in [pid for pid, _ in holders(db)] and time.monotonic() < deadline:
            time.sleep(0.05)
        convert(db, old=old, new=new)
""")


@needs_sqlcipher
@pytest.mark.parametrize("direction", ["encrypt", "decrypt"])
def test_a_command_started_during_a_conversion_opens_the_file_as_it_now_is(cli, tmp_path, isolated_home, direction):
    """The file changes form after the command looked up its passphrase: an import started while
    `encrypt` ran opened the encrypted file without a key (and after `decrypt`, a plain one with
    a key): "file is not a database" (bench faults, the conversion beside an import)."""
    db = isolated_home / "data" / "paperclip.db"
    key = {"PAPERCLIP_PASSPHRASE": "secret"}
    assert cli("import", _turns(tmp_path), "--session", "s").code == 0
    if direction == "decrypt":
        assert cli("encrypt", env=key).code == 0
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"role": "user", "content": "the dentist is on May 3"}) + "\n", encoding="utf-8")
    converter = subprocess.Popen([sys.executable, "-c", CONVERT, str(db), "secret" if direction == "decrypt" else "",
                                  "" if direction == "decrypt" else "secret"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    importing = None
    try:
        assert converter.stdout.readline().strip() == "ready"  # it holds the lock: the import will wait
        importing = subprocess.Popen(
            [sys.executable, "-m", "desktop_app", "import", str(more), "--session", "s"],
            env={**os.environ, "PAPERCLIP_MODELS_DIR": str(isolated_home.parent / "no-models"),
                 "PAPERCLIP_EMBED_MODEL": "off", **key},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        converter.communicate(f"{importing.pid}\n", timeout=90)
        assert converter.returncode == 0
        out, err = importing.communicate(timeout=120)
    finally:
        for process in (converter, importing):
            if process is not None and process.poll() is None:
                process.kill()
    assert importing.returncode == 0, err
    assert "imported 1 turns" in out
    assert db.read_bytes().startswith(b"SQLite format 3") == (direction == "decrypt")
    listed = cli("sessions", "--json", env=key)
    assert json.loads(listed.out)[0]["message_count"] == 3
