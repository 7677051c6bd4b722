"""Idle-time warming (issue 11) with a scripted engine that counts the tokens it evaluates."""

from __future__ import annotations

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.jobs import JobContext, JobQueue
from desktop_app.memory.warming import WarmJob, next_prefix


def setup(store, settings, **engine_kw):
    engine = ScriptedEngine("Sure, here is a short answer.", **engine_kw)
    jobs = JobQueue()
    settings = settings.model_copy(update={"max_tokens": 32})
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, jobs=jobs)
    return engine, jobs, pipeline, settings


def idle(store, jobs, engine, *, stop_after: int | None = None):
    checks = {"n": 0}

    def stop() -> bool:
        checks["n"] += 1
        return stop_after is not None and checks["n"] > stop_after

    return jobs.run_pending(lambda s: JobContext(store=store, should_stop=s, chat_engine=engine), should_stop=stop)


def test_idle_warming_leaves_only_the_new_input_to_evaluate(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings)
    session = store.session_named("warm")
    run_turn(pipeline, session, engine, "The budget must stay under 5000 dollars.", settings=settings)
    outcomes = idle(store, jobs, engine)
    assert [o.job for o in outcomes] == ["warm"] and outcomes[0].status == "done"
    result = run_turn(pipeline, store.get_session(session.id), engine, "Where should we go in May?", settings=settings)
    total = len(engine.prompt_tokens(result.plan.messages))
    lead = result.plan.layers["changes"].text  # the rule of turn 1, in the block before the input
    assert lead and result.plan.messages[-1]["content"].startswith(lead)
    assert engine.last_reused_tokens == len(engine.prefix_tokens(result.plan.messages[:-1], lead + "\n\n"))
    # only the new input and the reply marker were left
    assert result.record.prefill.evaluated == total - engine.last_reused_tokens == 6 + 2  # 6 words


def test_warming_evaluates_the_prefix_the_next_turn_sends(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings)
    session = store.session_named("warm")
    for text in ("Hello there.", "Never book flights before 9am.", "What about trains?"):
        run_turn(pipeline, store.get_session(session.id), engine, text, settings=settings)
    prefix, lead = next_prefix(pipeline, store.get_session(session.id))
    assert lead.startswith("Memory changes since turn 1")  # the rule of turn 2, known before the input
    idle(store, jobs, engine)
    result = run_turn(pipeline, store.get_session(session.id), engine, "And buses?", settings=settings)
    assert result.plan.messages[:-1] == prefix and result.plan.messages[-1]["content"].startswith(lead)
    warmed = engine.prefix_tokens(prefix, lead)
    assert engine.cached[: len(warmed)] == warmed
    # only the input itself (and the reply marker) was left for the turn
    assert result.record.prefill.evaluated == 2 + 2  # "And buses?"


def test_a_new_message_cancels_warming_and_the_turn_continues_from_it(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings)
    engine.batch = 4
    session = store.session_named("warm")
    run_turn(pipeline, session, engine, "Tell me about the harbour. " * 10, settings=settings)
    engine.cached = []  # as after a session switch: the whole prefix is cold
    before = engine.evaluated
    outcomes = idle(store, jobs, engine, stop_after=3)
    assert outcomes[-1].status == "postponed" and jobs.pending()[0].name == "warm"  # back at the front
    warmed = engine.evaluated - before
    assert 0 < warmed < len(engine.prefix_tokens(*next_prefix(pipeline, store.get_session(session.id))))
    result = run_turn(pipeline, store.get_session(session.id), engine, "Go on.", settings=settings)
    assert result.record.prefill.reused == warmed  # nothing evaluated twice
    total = len(engine.prompt_tokens(result.plan.messages))
    assert engine.evaluated - before == total  # warmed part + the rest, each token once


def test_a_stop_during_pre_fill_leaves_no_reply_and_keeps_what_was_evaluated(store, settings):
    engine, _, pipeline, settings = setup(store, settings)
    engine.batch = 2
    session = store.session_named("warm")
    calls = {"n": 0}

    def stop() -> bool:
        calls["n"] += 1
        return calls["n"] > 2

    result = run_turn(pipeline, session, engine, "A long question about many things " * 5, settings=settings,
                      should_stop=stop)
    assert result.reply is None or result.reply.content == ""
    assert 0 < len(engine.cached) < len(engine.prompt_tokens(result.plan.messages))


def test_warming_is_off_when_the_setting_says_so(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings.model_copy(update={"warm_idle": False}))
    run_turn(pipeline, store.session_named("warm"), engine, "Hello.", settings=settings)
    assert not any(isinstance(j, WarmJob) for j in jobs.pending())


def test_warming_skips_engines_without_a_prefix(store, settings):
    engine = ScriptedEngine()
    session = store.session_named("warm")
    job = WarmJob(session.id, pipeline_for(store, settings, counter=engine.counter, n_ctx=4096).options)
    outcome = job.run(JobContext(store=store, should_stop=lambda: False, chat_engine=object()))  # an HTTP server, say
    assert outcome.status == "done" and "no evaluated prefix" in outcome.detail
