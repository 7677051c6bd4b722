"""Forget means gone: after ``paperclip memory forget … --yes`` the secret is in no byte of the
database, its WAL or its shared-memory file — not in free pages, FTS segments, turn records,
summaries, reply versions, the change log, bookmarks, another session — and the exports and saved
prompt states that held it are deleted. Revoke, by contrast, keeps the history."""

from __future__ import annotations

import json

import pytest

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.config import load_settings
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.engine.tokens import fallback_counter
from desktop_app.memory.store import Store
from tests.reliability.conftest import raw_rows

CHATTER = ("Tell me more about the history of tea in the region and how it is grown today, "
           "with the seasons and the hills and the small farms along the river. ") * 3
CASES = {
    "en": {"secret": "QZ7741ARDWICK", "say": "Remember that my locker code is QZ7741ARDWICK.",
           "again": "Once more, the locker code is QZ7741ARDWICK, do not lose it.",
           "keep": "Never modify the source CSV file."},
    "zh": {"secret": "紫檀七七四一号", "say": "记住我的门禁密码是紫檀七七四一号。",
           "again": "再说一遍，门禁密码是紫檀七七四一号，别弄丢了。",
           "keep": "永远不要修改原始CSV文件。"},
}


def raw_hits(db, secret: str) -> dict[str, int]:
    """Occurrences of the secret (UTF-8, and JSON's \\u escapes) in each file of the database."""
    forms = [secret.encode(), json.dumps(secret)[1:-1].encode()]
    hits = {}
    for suffix in ("", "-wal", "-shm"):
        path = db.with_name(db.name + suffix)
        data = path.read_bytes() if path.exists() else b""
        hits[suffix or "db"] = sum(data.count(form) for form in set(forms))
    return hits


def build_session(db, case, exports, kv) -> int:
    """A session that says the secret, pages it out, repeats it later, and leaves it in a reply
    version, an export file, a bookmark, the turn records and another session."""
    settings = load_settings({"db": db}).model_copy(update={"memory_model": "off", "warm_idle": False})
    secret = case["secret"]
    with Store(db) as store:
        pipeline = pipeline_for(store, settings, counter=fallback_counter(), n_ctx=1024)
        engine = ScriptedEngine(lambda messages: f"Noted: {secret}." if secret in messages[-1]["content"]
                                else "Tea grows on the hills.", n_ctx=1024)
        session = store.session_named("s")
        run_turn(pipeline, session, engine, case["say"], settings=settings)
        run_turn(pipeline, store.get_session(session.id), engine, case["keep"], settings=settings)
        for _ in range(12):
            run_turn(pipeline, store.get_session(session.id), engine, CHATTER, settings=settings)
        assert store.list_pages(session.id), "the secret's turn should be paged out"
        last = run_turn(pipeline, store.get_session(session.id), engine, case["again"], settings=settings)
        store.archive_tail(session.id, last.user_message.id)  # the reply becomes an old version
        store.add_message(session.id, "assistant", "A second answer.")
        store.add_bookmark(session.id, keywords=["locker", secret], description=f"code {secret}", origin="user",
                           now=1.0, message_id=last.user_message.id)
        other = store.session_named("other")
        store.add_message(other.id, "user", f"My friend asked about {secret} yesterday.")
        store.reset_vector_tables(8)
        vector = bytes(32)
        store.save_embeddings([(m.id, m.session_id, vector) for s in (session, other)
                               for m in store.list_messages(s.id)])
        item = next(i for i in store.list_items(session.id) if secret in i.value)
        exports.mkdir(parents=True, exist_ok=True)
        (exports / "s.md").write_text(f"user: {case['say']}\n", encoding="utf-8")
        (exports / "unrelated.md").write_text("nothing to see\n", encoding="utf-8")
        kv.mkdir(parents=True, exist_ok=True)
        (kv / "abc-1.kv").write_bytes(b"state")
        (kv / "abc-1.json").write_text("{}", encoding="utf-8")
        return item.id


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("by", ["id", "topic"])
def test_forget_leaves_no_bytes_of_the_secret(cli, isolated_home, tmp_path, lang, by):
    case = CASES[lang]
    db, exports, kv = tmp_path / "paperclip.db", isolated_home / "exports", tmp_path / "kv"
    item_id = build_session(db, case, exports, kv)
    before = raw_hits(db, case["secret"])
    assert sum(before.values()) > 3, f"the setup should store the secret several times: {before}"

    target = str(item_id) if by == "id" else case["secret"]
    refused = cli("memory", "forget", target, "--db", db, "--session", "s")  # no tty, no --yes
    assert refused.one_line_error
    assert "nothing deleted" in refused.err
    assert sum(raw_hits(db, case["secret"]).values()) > 0

    done = cli("memory", "forget", target, "--yes", "--lang", lang, "--db", db, "--session", "s")
    assert done.code == 0, done.err
    assert raw_hits(db, case["secret"]) == {"db": 0, "-wal": 0, "-shm": 0}
    assert not (exports / "s.md").exists()
    assert (exports / "unrelated.md").exists()
    assert not list(kv.glob("*.kv"))
    assert not list(kv.glob("*.json"))
    assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert raw_rows(db, "INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')") == []
    kept = [r[0] for r in raw_rows(db, "SELECT content FROM messages")]
    assert case["keep"] in kept, "what was not forgotten stays"
    assert raw_rows(db, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?",
                    (json.dumps(case["keep"][:6], ensure_ascii=False),)) != [(0,)], "search still finds what stays"


def test_revoke_keeps_history_and_forget_without_a_match_says_so(cli, tmp_path, isolated_home):
    case = CASES["en"]
    db = tmp_path / "paperclip.db"
    item_id = build_session(db, case, isolated_home / "exports", tmp_path / "kv")
    revoked = cli("memory", "revoke", str(item_id), "--db", db, "--session", "s")
    assert revoked.code == 0
    assert "history kept" in revoked.out
    assert raw_rows(db, "SELECT status FROM memory_items WHERE id = ?", (item_id,)) == [("revoked",)]
    assert sum(raw_hits(db, case["secret"]).values()) > 0
    missing = cli("memory", "forget", "zebra-unicorn", "--yes", "--db", db, "--session", "s")
    assert missing.one_line_error
    assert "Nothing stored matches" in missing.err


def test_a_forget_killed_midway_is_all_or_nothing_and_a_rerun_finishes_it(tmp_path, isolated_home):
    import os
    import random
    import signal
    import subprocess
    import sys
    import time

    case = CASES["en"]
    rng = random.Random(13)
    for attempt in range(3):
        db = tmp_path / f"k{attempt}" / "paperclip.db"
        db.parent.mkdir()
        build_session(db, case, isolated_home / "exports", tmp_path / "kv")
        before = raw_rows(db, "SELECT count(*) FROM messages")[0][0]
        args = [sys.executable, "-m", "desktop_app", "memory", "forget", case["secret"], "--yes", "--db", str(db),
                "--session", "s"]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.4, 1.6))  # start-up, planning, the transaction, the vacuum
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]
        left = raw_rows(db, "SELECT count(*) FROM messages WHERE instr(content, ?) > 0", (case["secret"],))[0][0]
        after = raw_rows(db, "SELECT count(*) FROM messages")[0][0]
        assert (left == 0) == (after < before), "either the whole forget committed or none of it"
        rerun = subprocess.run(args, capture_output=True, text=True)
        assert rerun.returncode in (0, 1)
        assert "Traceback" not in rerun.stderr
        assert raw_hits(db, case["secret"]) == {"db": 0, "-wal": 0, "-shm": 0}
