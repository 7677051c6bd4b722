"""The one SQLite file: migrations, WAL, sessions and messages that survive a reopen."""

import pytest

from desktop_app.memory.store import Store
from desktop_app.memory.store.migrations import MIGRATIONS, migrate
from desktop_app.memory.store.sessions import SessionNotFound


def test_new_database_is_migrated_in_wal_mode_with_sqlite_vec(store):
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.vec_enabled
    assert store.conn.execute("select vec_version()").fetchone()[0].startswith("v")


def test_migrating_twice_changes_nothing(store):
    assert migrate(store.conn) == len(MIGRATIONS)


def test_database_newer_than_the_app_is_refused(db_path):
    from desktop_app.memory.store.db import DatabaseError

    with Store(db_path) as s:
        s.conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises((RuntimeError, DatabaseError), match="newer"):
        Store(db_path)


def test_corrupt_database_file_is_a_one_line_error(tmp_path):
    from desktop_app.memory.store.db import DatabaseError

    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseError) as info:
        Store(bad)
    assert "\n" not in str(info.value)


def test_a_turn_is_still_there_after_reopening(db_path):
    with Store(db_path) as s:
        session = s.session_named("trip")
        s.add_message(session.id, "user", "预算是 5000 元")
        s.add_message(session.id, "assistant", "好的", stopped=True)
    with Store(db_path) as s:
        again = s.session_named("trip", create=False)
        messages = s.list_messages(again.id)
    assert [m.content for m in messages] == ["预算是 5000 元", "好的"]
    assert messages[1].stopped is True
    assert again.message_count == 2
    assert len(messages[0].content_hash) == 64


def test_sessions_are_listed_most_recent_first_and_can_be_renamed_and_deleted(store):
    a = store.create_session("a", now=1.0)
    b = store.create_session("b", now=2.0)
    assert [s.name for s in store.list_sessions()] == ["b", "a"]
    store.add_message(a.id, "user", "hello")
    assert store.list_sessions()[0].name == "a"
    store.rename_session(a.id, "alpha")
    with pytest.raises(ValueError, match="already exists"):
        store.rename_session(b.id, "alpha")
    store.delete_session(a.id)
    assert [s.name for s in store.list_sessions()] == ["b"]
    assert store.conn.execute("select count(*) from messages").fetchone()[0] == 0
    with pytest.raises(SessionNotFound):
        store.session_named("alpha", create=False)


def test_failed_transaction_leaves_nothing_behind(store):
    session = store.session_named("s")
    with pytest.raises(RuntimeError), store.transaction():
        store.add_message(session.id, "user", "half")
        raise RuntimeError("boom")
    assert store.list_messages(session.id) == []


def test_exports_follow_paperclip_home(isolated_home, monkeypatch, tmp_path):
    from desktop_app import paths
    from desktop_app.memory.core.models import Session
    from desktop_app.ui.screens.exchange import default_export_path

    session = Session(id=1, name="trip plans", created_at=0, updated_at=0)
    assert default_export_path(session, "json") == isolated_home / "exports" / "trip-plans.json"
    monkeypatch.delenv("PAPERCLIP_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert paths.exports_dir() == tmp_path / "paperclip-exports"
