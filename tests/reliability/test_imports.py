"""Imports are all or nothing and idempotent: bad files store nothing, a killed import stores
nothing, and running a file again adds only the turns that are missing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.reliability.conftest import raw_rows


def write_jsonl(path, turns) -> None:
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")


def transcript(n: int, *, ids: bool = True, size: int = 60) -> list[dict]:
    turns = []
    for i in range(n):
        turn = {"role": "user" if i % 2 == 0 else "assistant",
                "content": f"turn {i}: my note number {i} is {'n' * size}", "time": 1_700_000_000 + i}
        if ids:
            turn["id"] = f"t{i}"
        turns.append(turn)
    return turns


def message_count(db) -> int:
    return raw_rows(db, "SELECT count(*) FROM messages")[0][0] if db.exists() else 0


def duplicates(db) -> list[tuple]:
    return raw_rows(db, """SELECT session_id, ext_id, count(*) FROM messages WHERE ext_id IS NOT NULL
                           GROUP BY session_id, ext_id HAVING count(*) > 1""")


@pytest.mark.parametrize("bad, reason", [
    ('{"role": "user", "content": "late", "time": NaN}', "finite"),
    ('{"role": "user", "content": "late", "time": Infinity}', "finite"),
    ('{"role": "user", "content": "late", "time": 1e300}', "outside"),
    ('{"role": "user", "content": "late", "time": "9999-12-31T00:00:00"}', "outside"),
    ('{"role": "robot", "content": "beep"}', "role"),
], ids=["NaN", "inf", "1e300", "year 9999", "role"])
def test_a_bad_line_is_one_line_and_stores_nothing(cli, tmp_path, bad, reason):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    lines = [json.dumps(t) for t in transcript(10)] + [bad]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ran = cli("import", path, "--db", db, "--session", "s")
    assert ran.one_line_error, ran.err
    assert reason in ran.err
    assert ":11" in ran.err
    assert message_count(db) == 0


def test_bad_times_in_a_chatgpt_export_store_nothing(cli, tmp_path):
    db = tmp_path / "p.db"
    mapping = {"a": {"id": "a", "parent": None, "children": ["b"],
                     "message": {"id": "a", "author": {"role": "user"}, "create_time": 1_700_000_000,
                                 "content": {"content_type": "text", "parts": ["hello"]}}},
               "b": {"id": "b", "parent": "a", "children": [],
                     "message": {"id": "b", "author": {"role": "assistant"}, "create_time": 1e300,
                                 "content": {"content_type": "text", "parts": ["hi"]}}}}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([{"title": "chat", "mapping": mapping, "current_node": "b"}]), encoding="utf-8")
    ran = cli("import", path, "--db", db)
    assert ran.one_line_error, ran.err
    assert "outside" in ran.err
    assert message_count(db) == 0


def test_a_missing_embedding_model_is_refused_before_storing(cli, tmp_path):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    write_jsonl(path, transcript(6))
    ran = cli("import", path, "--db", db, "--session", "s", "--embed-model", tmp_path / "nonexistent.gguf")
    assert ran.one_line_error, ran.err
    assert "nonexistent.gguf" in ran.err
    assert "nothing was imported" in ran.err
    assert message_count(db) == 0


def test_the_memory_pass_that_must_run_needs_its_model_first(cli, tmp_path):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    write_jsonl(path, transcript(6))
    ran = cli("import", path, "--db", db, "--session", "s", "--memory-model", "always",
              "--model", tmp_path / "missing.gguf")
    assert ran.one_line_error, ran.err
    assert "missing.gguf" in ran.err
    assert message_count(db) == 0


@pytest.mark.parametrize("ids", [True, False], ids=["with ids", "content hash"])
def test_running_an_import_again_adds_only_what_is_missing(cli, tmp_path, ids):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    turns = transcript(12, ids=ids)
    turns[5] = dict(turns[3], **({"id": "t5"} if ids else {}))  # the same words twice is two turns
    write_jsonl(path, turns[:8])
    assert cli("import", path, "--db", db, "--session", "s").code == 0
    write_jsonl(path, turns)  # the transcript grew
    ran = cli("import", path, "--db", db, "--session", "s")
    assert ran.code == 0, ran.err
    assert "imported 4 turns" in ran.out
    assert "8 were already there" in ran.out
    ran = cli("import", path, "--db", db, "--session", "s")
    assert "imported 0 turns" in ran.out
    assert raw_rows(db, "SELECT content FROM messages ORDER BY id") == [(t["content"],) for t in turns]


def test_a_chatgpt_export_imported_twice_keeps_one_session(cli, tmp_path):
    db = tmp_path / "p.db"
    mapping = {"a": {"id": "a", "parent": None, "children": ["b"],
                     "message": {"id": "a", "author": {"role": "user"}, "create_time": 1_700_000_000,
                                 "content": {"content_type": "text", "parts": ["hello"]}}},
               "b": {"id": "b", "parent": "a", "children": [],
                     "message": {"id": "b", "author": {"role": "assistant"}, "create_time": 1_700_000_001,
                                 "content": {"content_type": "text", "parts": ["hi"]}}}}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([{"title": "chat", "mapping": mapping, "current_node": "b"}]), encoding="utf-8")
    assert cli("import", path, "--db", db).code == 0
    assert cli("import", path, "--db", db).code == 0
    assert raw_rows(db, "SELECT name, message_count FROM sessions WHERE kind = 'chat'") == [("chat", 2)]


def _import_process(db, path, isolated_home):
    env = {**os.environ, "PAPERCLIP_MODELS_DIR": str(isolated_home.parent / "no-models"), "PAPERCLIP_EMBED_MODEL": "off"}
    (isolated_home.parent / "no-models").mkdir(exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "desktop_app", "import", str(path), "--db", str(db),
                             "--session", "s"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _wait_for_writes(db, process, *, timeout: float = 120) -> bool:
    """Until the import has written into the WAL (its transaction is under way) or ended."""
    wal = db.with_name(db.name + "-wal")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if wal.exists() and wal.stat().st_size > 256 * 1024:
            return True
        time.sleep(0.02)
    return False


def test_kill_9_mid_import_then_rerun_has_no_duplicates(cli, tmp_path, isolated_home):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    turns = transcript(1500, size=200)
    write_jsonl(path, turns)
    assert cli("import", _small(tmp_path), "--db", db, "--session", "s").code == 0  # schema in place, 2 turns
    process = _import_process(db, path, isolated_home)
    writing = _wait_for_writes(db, process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    if not writing:
        pytest.skip("the import finished before it could be killed")
    # All or nothing (nothing, unless the kill came as it committed), and the file is sound.
    assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert message_count(db) in (2, 2 + len(turns))
    ran = cli("import", path, "--db", db, "--session", "s")
    assert ran.code == 0, ran.err
    assert message_count(db) == 2 + len(turns)
    assert duplicates(db) == []
    assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]


def _small(tmp_path):
    path = tmp_path / "small.jsonl"
    write_jsonl(path, [{"role": "user", "content": "first", "id": "s0"},
                       {"role": "assistant", "content": "second", "id": "s1"}])
    return path


def test_two_imports_into_one_session_neither_crash_nor_interleave(cli, tmp_path, isolated_home):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    turns = transcript(300)
    write_jsonl(path, turns)
    assert cli("import", _small(tmp_path), "--db", db, "--session", "s").code == 0
    first, second = _import_process(db, path, isolated_home), _import_process(db, path, isolated_home)
    results = [p.communicate(timeout=600) + (p.returncode,) for p in (first, second)]
    for _out, err, code in results:
        assert code == 0, err.decode()
        assert b"Traceback" not in err
    assert message_count(db) == 2 + len(turns)
    assert duplicates(db) == []
    stored = [r[0] for r in raw_rows(db, "SELECT ext_id FROM messages ORDER BY id")]
    assert stored == ["s0", "s1"] + [t["id"] for t in turns]


def test_a_time_stored_by_an_older_version_does_not_break_reading(cli, tmp_path):
    db = tmp_path / "p.db"
    path = tmp_path / "t.jsonl"
    write_jsonl(path, transcript(4))
    assert cli("import", path, "--db", db, "--session", "s").code == 0
    from desktop_app.memory.store.sqlite_backend import sqlite

    conn = sqlite.connect(str(db))
    conn.execute("UPDATE messages SET created_at = 1e300 WHERE id = (SELECT min(id) FROM messages)")
    conn.commit()
    conn.close()
    for args in (("sessions", "--json"), ("export", "--session", "s"), ("export", "--format", "json", "--session", "s"),
                 ("context", "what did I note?", "--session", "s")):
        ran = cli(*args, "--db", db)
        assert ran.code == 0, (args, ran.err)
