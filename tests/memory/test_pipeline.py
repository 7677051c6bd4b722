"""One turn sequence for every caller: the stages hand typed results forward, planning writes
nothing, a preview is exactly what the turn then sends, and the SQL a turn costs does not
grow with the length of the session."""

from __future__ import annotations

import statistics

from desktop_app.bench.pipeline import CountingConnection, user_text
from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.core.plan import LAYER_ORDER, ContextPlan
from desktop_app.memory.core.records import TurnRecord
from desktop_app.memory.turn import RecordedInput, RecordedReply


def test_the_stages_hand_typed_results_forward(store, settings):
    engine = ScriptedEngine("Noted.")
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    session = store.session_named("s")
    recorded = pipeline.record_input(session, "The budget must stay under 5000 dollars.")
    assert isinstance(recorded, RecordedInput)
    assert recorded.memory[0].action == "added"
    assert recorded.turn == 1
    plan = pipeline.plan(recorded)
    assert isinstance(plan, ContextPlan)
    assert list(plan.layers) == list(LAYER_ORDER)
    assert "5000" not in plan.layers["changes"].text  # the input says it itself …
    assert plan.layers["input"].items[0].message_id == recorded.message.id
    reply = pipeline.record_reply(session, "Noted.")
    later = pipeline.plan(pipeline.record_input(session, "What next?"))
    assert "5000" in later.layers["changes"].text  # … and the next turn lists it before its input
    assert isinstance(reply, RecordedReply)
    assert reply.message.turn == 1
    assert reply.paging is None
    record = pipeline.log(recorded, plan, reply, first_token_seconds=0.1)
    assert isinstance(record, TurnRecord)
    assert record.memory == recorded.memory
    [logged] = store.list_turn_log(session.id)
    assert logged.record == record
    assert logged.reply_message_id == reply.message.id
    assert logged.record.layers["recent"].text == "", "the log does not copy the turns' text again"


def test_planning_writes_nothing(store, settings):
    engine = ScriptedEngine("ok")
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=1024)
    session = store.session_named("s")
    for turn in range(1, 40):
        run_turn(pipeline, store.get_session(session.id), engine, user_text(turn), settings=settings)
    assert store.list_pages(session.id), "the small window pages out"
    recorded = pipeline.record_input(store.get_session(session.id), "What did we say earlier about the coffee?")
    before = store.conn.total_changes
    for mode in ("layered", "retrieval", "full", "sliding", "summary"):
        pipeline.plan(recorded, mode=mode)
    assert store.conn.total_changes == before


def test_a_preview_is_exactly_what_the_turn_sends(store, settings):
    answer = {"text": "Sure."}
    engine = ScriptedEngine(lambda messages: answer["text"])
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=1024)
    session = store.session_named("s")
    for turn in range(1, 30):
        run_turn(pipeline, store.get_session(session.id), engine, user_text(turn), settings=settings)
    question = "Remind me what you said before about octopuses."
    preview, _ = pipeline.preview(store.get_session(session.id), question, now=0)
    messages_before = len(store.list_messages(session.id))
    assert len(store.list_messages(session.id)) == messages_before, "a preview stores nothing"
    # (an answer to the question, not "Sure.": a word to a question of eight is asked for again, round twenty-five)
    answer["text"] = "Octopuses have three hearts and blue blood, as I said."
    result = run_turn(pipeline, store.get_session(session.id), engine, question, settings=settings)
    assert engine.calls[-1] == preview.messages == result.plan.messages


def test_sql_statements_per_turn_do_not_grow_with_the_session(store, settings):
    engine = ScriptedEngine("Sure, here is a short and friendly answer to that.")
    counting = CountingConnection(store.conn)
    store.conn = counting
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=2048)
    session = store.session_named("s")
    per_turn = []
    for turn in range(1, 121):
        counting.statements = 0
        run_turn(pipeline, store.get_session(session.id), engine, user_text(turn), settings=settings)
        per_turn.append(counting.statements)
    assert len(store.list_pages(session.id)) >= 3, "the benchmark must page out several times"
    # Once there is an archive to recall from (turn ~25 here) the cost is flat: the same
    # statements at turn 100 as at turn 40, and no turn far above the rest.
    early, late = statistics.median(per_turn[30:70]), statistics.median(per_turn[80:120])
    assert late <= early + 1, (early, late)
    assert max(per_turn) <= early + 20, per_turn
    store.conn = counting.inner
