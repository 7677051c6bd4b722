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
