"""A memory patch decided from the state it read cannot go stale: another process that writes
meanwhile waits for it instead of changing the state underneath (which ended in PatchRejected)."""

from __future__ import annotations

import time

from desktop_app.memory.store.sqlite_backend import sqlite


def test_another_writer_waits_while_a_message_writes_memory(db_path, monkeypatch):
    from desktop_app.memory.store import Store
    from desktop_app.memory.write.extraction import extract
    from desktop_app.memory.write.updates import apply_candidate, remember_message

    with Store(db_path) as mine, Store(db_path) as other:
        session = mine.session_named("s")
        other.wait_for_writers(0.2)
        blocked = []
        real_list_items = type(mine).list_items

        def list_items_then_other_writes(self, *args, **kwargs):
            items = real_list_items(self, *args, **kwargs)
            if self is mine and not blocked:
                try:  # the other process remembers something about the same session right now
                    remember_message(other, session.id, "My budget is 300 euros.", source_message_id=None,
                                     now=time.time())
                    blocked.append(False)
                except sqlite.OperationalError as exc:
                    blocked.append("locked" in str(exc))
            return items

        monkeypatch.setattr(type(mine), "list_items", list_items_then_other_writes)
        [candidate] = extract("I live in Lisbon.")
        outcome = apply_candidate(mine, session.id, candidate, source_message_id=None, now=time.time())
        monkeypatch.undo()
        assert blocked == [True]
        assert outcome.action == "added"
        values = [i.value for i in mine.list_items(session.id, statuses=("active",))]
        assert len(values) == 1
        assert "Lisbon" in values[0]
