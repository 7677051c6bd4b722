"""The turn record keeps the recall hits that entered the prompt, with per-signal scores."""

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.config import Settings
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.engine.tokens import fallback_counter


def test_recall_hits_with_their_signals_are_logged_for_the_inspector(tmp_path):
    from desktop_app.memory.store import Store

    settings = Settings(db=tmp_path / "r.db", ctx=1024, max_tokens=8)
    turns = [{"role": "user", "content": "The warehouse door code is 4417, keep it handy."},
             {"role": "assistant", "content": "Noted the warehouse door code."}]
    for i in range(40):
        turns += [{"role": "user", "content": f"Tell me something about topic number {i} and its history."},
                  {"role": "assistant", "content": "Here is a fairly long answer about that topic. " * 4}]
    with Store(settings.db_path) as store:
        session = store.session_named("s")
        importer = pipeline_for(store, settings, counter=fallback_counter(), n_ctx=1024)
        for turn in turns:
            importer.import_message(session, turn["role"], turn["content"])
        assert store.list_pages(session.id), "the small window must have paged the first turns out"
        engine = ScriptedEngine("ok", n_ctx=1024)
        pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
        run_turn(pipeline, store.get_session(session.id), engine,
                 "What was the warehouse door code you noted earlier?", settings=settings)
        record = store.list_turn_log(session.id)[-1].record
        door_id = next(hit.message_id for hit in record.recall.hits if "4417" in hit.snippet)
        # Only the log stage counts a recalled turn as referenced; planning alone never does.
        assert store.reference_counts([door_id]) == {door_id: 1}
        pipeline.preview(store.get_session(session.id), "What was the warehouse door code you noted earlier?")
        assert store.reference_counts([door_id]) == {door_id: 1}
    hits = record.recall.hits
    assert hits, "the archived turn with the door code should have been recalled"
    [door] = [hit for hit in hits if "4417" in hit.snippet]
    assert door.signals["bm25"].rank >= 1
    assert door.score > 0
    assert "4417" in record.layers["recalled"].text


def test_a_turn_without_recall_logs_an_empty_hit_list(tmp_path):
    from desktop_app.memory.store import Store

    settings = Settings(db=tmp_path / "r.db", ctx=4096, max_tokens=8)
    with Store(settings.db_path) as store:
        session = store.session_named("s")
        engine = ScriptedEngine("ok")
        run_turn(pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx), session, engine,
                 "hello there", settings=settings)
        assert store.list_turn_log(session.id)[-1].record.recall.hits == []
