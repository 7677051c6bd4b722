"""Idle-time warming in the real app (issue 11): after a turn and on a session switch the
next prompt's head is evaluated while idle, the meter says so, and typing stops it."""

from __future__ import annotations

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.ui.widgets.chat_input import ChatInput
from desktop_app.ui.widgets.context_meter import ContextMeter


def prefix_of(chat, engine):
    from desktop_app.chat import pipeline_for
    from desktop_app.memory.warming import next_prefix

    pipeline = pipeline_for(chat.store, chat.settings, counter=engine.counter, n_ctx=engine.n_ctx)
    return engine.prefix_tokens(*next_prefix(pipeline, chat.store.get_session(chat.session.id)))


async def test_the_next_prompt_head_is_warm_after_a_turn_and_a_switch(settings, ui):
    engine = ScriptedEngine("Noted.")
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "The budget must stay under 5000 dollars.")
        chat = app.chat
        await ui.wait_until(pilot, lambda: any(o.job == "warm" for o in chat.jobs.history))
        await ui.settle(pilot)
        prefix = prefix_of(chat, engine)
        assert engine.cached[: len(prefix)] == prefix
        first = chat.session.id
        chat.create_session("second")
        await ui.wait_until(pilot, lambda: chat.session.id != first)
        await ui.send(pilot, "Hello there, second session.")
        await chat.switch_session(first)
        await ui.wait_until(pilot, lambda: [o for o in chat.jobs.history if o.job == "warm"][-1].session_id == first)
        await ui.settle(pilot)
        assert all(o.status != "failed" for o in chat.jobs.history)
        assert engine.cached[: len(prefix_of(chat, engine))] == prefix_of(chat, engine)
        assert chat.context_owner.session_id == first


async def test_typing_stops_a_warm_up_and_the_meter_shows_its_progress(settings, ui):
    engine = ScriptedEngine("Noted.")
    engine.batch, engine.eval_delay = 2, 0.05
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        chat = app.chat
        await ui.send(pilot, "Tell me about the harbour and its boats. " * 6)
        await ui.settle(pilot)
        engine.cached = []  # as after a model reload: the whole head is cold
        chat.warm_session(chat.session.id)
        chat.run_memory_jobs()
        meter = chat.query_one(ContextMeter)
        await ui.wait_until(pilot, lambda: meter.progress is not None)
        assert "warming context…" in str(meter.render())
        chat.query_one(ChatInput).text = "I am typ"
        await ui.wait_until(pilot, lambda: any(o.job == "warm" and o.status == "postponed" for o in chat.jobs.history))
        cut = len(engine.cached)
        assert 0 < cut < len(prefix_of(chat, engine))
        await ui.wait_until(pilot, lambda: len(engine.cached) >= len(prefix_of(chat, engine)), timeout=20)
        await ui.settle(pilot)
        assert meter.progress is None


async def test_a_pause_in_typing_reads_ahead_what_the_draft_recalls(settings, ui):
    """Type-ahead: at a pause the prompt for the typed words is evaluated up to the input, so
    sending evaluates only the message itself although it recalled an archived turn."""
    from desktop_app.chat import pipeline_for
    from desktop_app.memory.store import Store
    from desktop_app.memory.warming import draft_prefix

    settings = settings.model_copy(update={"ctx": 1024})
    engine = ScriptedEngine("Noted.", n_ctx=1024)
    with Store(settings.db_path) as store:
        session = store.session_named("archive")
        importer = pipeline_for(store, settings, counter=engine.counter, n_ctx=1024)
        importer.import_message(session, "user", "The warehouse door code is 4417, keep it handy.")
        importer.import_message(session, "assistant", "Noted the warehouse door code.")
        for i in range(40):
            importer.import_message(session, "user", f"Tell me something about topic number {i} and its history.")
            importer.import_message(session, "assistant", "Here is a fairly long answer about that topic. " * 4)
        archive = session.id
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        chat = app.chat
        if chat.session.id != archive:
            await chat.switch_session(archive)
        await ui.settle(pilot)
        draft = "What was the warehouse door code"
        chat_input = chat.query_one(ChatInput)
        chat_input.focus()
        chat_input.text = draft
        await ui.wait_until(pilot, lambda: any(o.job == "draft" and o.status == "done" for o in chat.jobs.history))
        await ui.settle(pilot)
        pipeline = pipeline_for(chat.store, settings, counter=engine.counter, n_ctx=1024)
        messages, lead = draft_prefix(pipeline, chat.store.get_session(archive), draft)
        assert "4417" in lead
        assert lead.endswith("What was the warehouse door")
        warmed = engine.prefix_tokens(messages, lead)
        assert engine.cached[: len(warmed)] == warmed
        chat_input.text = draft + " again?"
        await pilot.press("enter")
        await ui.wait_for_reply(pilot)
        await ui.settle(pilot)
        record = chat.store.list_turn_log(archive)[-1].record
        assert "4417" in record.layers["recalled"].text
        assert record.prefill.evaluated == 2 + 2  # "code again?" and the reply marker
