"""The store queries behind the UI: cross-session search, forgetting a topic with its pages,
and versions whose archived tails take their pages, summaries and memory with them."""

from __future__ import annotations

from desktop_app.memory.core.models import SummaryContent, SummaryEntry
from desktop_app.memory.core.plan import Layer
from desktop_app.memory.core.records import TurnRecord
from desktop_app.memory.turn import remember_input


def say(store, session, text: str, reply: str = "ok"):
    message = store.add_message(session.id, "user", text)
    remember_input(store, message)
    store.add_message(session.id, "assistant", reply)
    return message


def test_search_spans_sessions_and_matches_chinese_of_any_length(store):
    a, b = store.create_session("a"), store.create_session("b")
    say(store, a, "我们的预算是五千元")
    say(store, b, "The budget meeting is on Friday")
    assert [(h.session_name, h.content) for h in store.search_messages("预算是")] == [("a", "我们的预算是五千元")]
    assert [h.session_name for h in store.search_messages("预算")] == ["a"]  # 2 characters: substring scan
    assert {h.session_name for h in store.search_messages("budget Friday")} == {"b"}
    assert store.search_messages('"quoted" OR') == []  # FTS syntax in the query is taken literally


def test_forgetting_a_topic_deletes_its_pages_bookmarks_and_summary_lines(store):
    session = store.create_session("s")
    first = say(store, session, "The hotel in Kyoto costs 200 a night.")
    say(store, session, "Never modify the source CSV.")
    page = store.create_page(session.id, store.list_messages(session.id)[:2], now=1.0)
    store.add_bookmark(session.id, keywords=["kyoto", "hotel"], description="Kyoto hotel price", origin="auto",
                       now=1.0, page_id=page.id)
    store.save_summary(session.id, SummaryContent(topics=[SummaryEntry(text="turn 1: Kyoto hotel", turn=1),
                                                          SummaryEntry(text="turn 2: the CSV rule", turn=2)],
                                                  first_turn=1, last_turn=2), first.id + 1, now=2.0)
    plan = store.plan_forget_topic(session.id, "Kyoto")
    assert [p.id for p in plan.pages] == [page.id]
    assert [m.content for m in plan.messages] == ["The hotel in Kyoto costs 200 a night.", "ok"]
    assert len(plan.bookmarks) == 1
    counts = store.forget(plan)
    assert counts["pages"] == 1
    assert counts["messages"] == 2
    assert store.list_pages(session.id) == []
    assert store.list_bookmarks(session.id) == []
    assert [e.text for e in store.latest_summary(session.id).content.topics] == ["turn 2: the CSV rule"]
    assert store.search_messages("Kyoto") == []
    assert "Never modify the source CSV." in [m.content for m in store.list_messages(session.id)]


def test_forget_redacts_text_values_but_never_json_keys(store):
    session = store.create_session("s")
    say(store, session, "My budget is 5000 yuan.")
    record = TurnRecord(mode="layered", total_tokens=1, budget=1, n_ctx=1, warnings=["budget 5000 and text"],
                        layers={"state": Layer(text="text")})
    store.add_turn_log(session.id, user_message_id=None, reply_message_id=None, record=record, now=1.0)
    plan = store.plan_forget_topic(session.id, "text")  # also the name of a key in the record
    store.forget(plan)
    (row,) = store.list_turn_log(session.id)
    assert row.record.warnings == ["budget 5000 and [forgotten]"]
    assert row.record.layers["state"].text == "[forgotten]"


def test_archiving_a_tail_unpages_its_page_and_drops_summaries_that_folded_it(store):
    session = store.create_session("s")
    say(store, session, "turn one")
    second = say(store, session, "turn two")
    say(store, session, "turn three")
    messages = store.list_messages(session.id)
    page = store.create_page(session.id, messages[:4], now=10.0)  # turns one and two
    store.save_summary(session.id, SummaryContent(first_turn=1, last_turn=2), messages[3].id, now=10.0)
    report = store.archive_tail(session.id, store.anchor_before(second.id))
    assert report.messages == 4
    assert report.pages == 1
    assert store.get_page(page.id) is None
    assert store.latest_summary(session.id) is None
    assert [m.content for m in store.unpaged_messages(session.id)] == ["turn one", "ok"]


def test_versions_are_numbered_by_age_and_restoring_swaps_the_live_tail(store):
    session = store.create_session("s")
    question = say(store, session, "question", reply="first answer")
    store.archive_tail(session.id, question.id)
    store.add_message(session.id, "assistant", "second answer")
    slots = store.versions_at(session.id, question.id)
    assert [(s.preview, s.version_id is None) for s in slots] == [("first answer", False), ("second answer", True)]
    live_reply = store.last_messages(session.id, 1)[0]
    assert store.version_notes(session.id) == {live_reply.id: (question.id, 2, 2)}
    store.restore_version(slots[0].version_id)
    assert [m.content for m in store.list_messages(session.id)] == ["question", "first answer"]
    assert [s.preview for s in store.versions_at(session.id, question.id)] == ["first answer", "second answer"]


def test_rollback_keeps_changes_the_user_made_between_turns(store):
    from desktop_app.memory.controls import run_command

    session = store.create_session("s")
    say(store, session, "Never modify the source CSV.")
    run_command(store, session, "pin", "1", 5.0)  # a panel action, not part of any turn
    later = say(store, session, "Always answer in Chinese.")
    report = store.archive_tail(session.id, store.anchor_before(later.id))
    items = store.list_items(session.id)
    assert [(i.value, i.pinned) for i in items] == [("Never modify the source CSV", True)]
    assert report.deleted_items == [2]
    assert report.reset_items == []


def test_forgetting_an_item_deletes_the_vectors_of_its_turns(store):
    import numpy as np
    import pytest

    if not store.vec_enabled:
        pytest.skip("sqlite-vec cannot be loaded here")
    session = store.create_session("s")
    say(store, session, "My budget is 5000 yuan.")
    say(store, session, "Never modify the source CSV.")
    store.reset_vector_tables(8)
    vector = (np.ones(8) / np.sqrt(8)).astype(np.float32)
    store.save_embeddings([(m.id, session.id, vector.tobytes()) for m in store.list_messages(session.id)])
    budget = next(i for i in store.list_items(session.id) if "5000" in i.value)
    store.forget(store.plan_forget_item(budget.id))
    kept = {m.id for m in store.list_messages(session.id)}
    vec_ids = {r[0] for r in store.conn.execute("SELECT message_id FROM recall_vec")}
    assert vec_ids == kept
    assert len(kept) == 2
    assert store.count_pending_embeddings() == 0
