"""Idle-time warming (issue 11) with a scripted engine that counts the tokens it evaluates."""

from __future__ import annotations

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.background.queue import JobContext, JobQueue
from desktop_app.memory.warming import (
    DraftWarmJob,
    WarmJob,
    draft_prefix,
    next_prefix,
    settled_words,
    worth_drafting,
)


def setup(store, settings, **engine_kw):
    engine = ScriptedEngine("Sure, here is a short answer.", **engine_kw)
    jobs = JobQueue()
    # The script gives every turn the same reply: the reply checks would ask again (test_reply_retry).
    settings = settings.model_copy(update={"max_tokens": 32, "reply_retry": False})
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
    assert [o.job for o in outcomes] == ["warm"]
    assert outcomes[0].status == "done"
    result = run_turn(pipeline, store.get_session(session.id), engine, "Where should we go in May?", settings=settings)
    total = len(engine.prompt_tokens(result.plan.messages))
    lead = result.plan.layers["changes"].text  # the rule of turn 1, in the block before the input
    assert lead
    assert result.plan.messages[-1]["content"].startswith(lead)
    assert engine.last_reused_tokens == len(engine.prefix_tokens(result.plan.messages[:-1], lead + "\n\n"))
    # only the new input and the reply marker were left
    assert result.record.prefill.evaluated == total - engine.last_reused_tokens == 6 + 2  # 6 words


def test_warming_evaluates_the_prefix_the_next_turn_sends(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings)
    session = store.session_named("warm")
    for text in ("Hello there.", "Never book flights before 9am.", "What about trains?"):
        run_turn(pipeline, store.get_session(session.id), engine, text, settings=settings)
    prefix, lead = next_prefix(pipeline, store.get_session(session.id))
    assert lead.startswith("Since then (this overrides the notes above)")  # the rule of turn 2, known before the input
    idle(store, jobs, engine)
    result = run_turn(pipeline, store.get_session(session.id), engine, "And buses?", settings=settings)
    assert result.plan.messages[:-1] == prefix
    assert result.plan.messages[-1]["content"].startswith(lead)
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
    assert outcomes[-1].status == "postponed"
    assert jobs.pending()[0].name == "warm"  # back at the front
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
    assert outcome.status == "done"
    assert "no evaluated prefix" in outcome.detail


def archived_session(store, settings, engine):
    """A session whose first turns (a door code among them) are paged out into the archive."""
    importer = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    session = store.session_named("archive")
    importer.import_message(session, "user", "The warehouse door code is 4417, keep it handy.")
    importer.import_message(session, "assistant", "Noted the warehouse door code.")
    for i in range(40):
        importer.import_message(session, "user", f"Tell me something about topic number {i} and its history.")
        importer.import_message(session, "assistant", "Here is a fairly long answer about that topic. " * 4)
    assert store.list_pages(session.id), "the small window must have paged the first turns out"
    return store.get_session(session.id)


def test_type_ahead_evaluates_what_the_draft_recalls_so_the_turn_reads_only_the_input(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings.model_copy(update={"ctx": 1024}), n_ctx=1024)
    session = archived_session(store, settings, engine)
    draft = "What was the warehouse door code"
    messages, lead = draft_prefix(pipeline, session, draft)
    assert "4417" in lead
    assert lead.endswith("What was the warehouse door")  # recalled, then the words so far
    jobs.submit(DraftWarmJob(session.id, pipeline.options, draft), first=True)
    [outcome] = idle(store, jobs, engine)
    assert outcome.job == "draft"
    assert outcome.status == "done"
    assert engine.cached[: len(engine.prefix_tokens(messages, lead))] == engine.prefix_tokens(messages, lead)
    sent = draft + " you noted earlier?"
    result = run_turn(pipeline, store.get_session(session.id), engine, sent, settings=settings)
    assert "4417" in result.plan.layers["recalled"].text
    # the recalled turn and the words typed were read ahead: only the last word of the draft (it
    # might have grown), the words typed after it and the reply marker were left
    assert result.record.prefill.evaluated == 1 + 3 + 2


def test_type_ahead_on_a_draft_that_recalls_nothing_still_warms_the_head(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings)
    session = store.session_named("plain")
    run_turn(pipeline, session, engine, "Never book flights before 9am.", settings=settings)
    jobs.cancel()
    engine.cached = []
    jobs.submit(DraftWarmJob(session.id, pipeline.options, "And what about"), first=True)
    idle(store, jobs, engine)
    result = run_turn(pipeline, store.get_session(session.id), engine, "And what about buses?", settings=settings)
    assert result.record.prefill.evaluated == 2 + 2  # "about buses?" and the reply marker


def test_the_last_word_of_a_draft_is_left_to_the_turn():
    assert settled_words("What was the door") == "What was the"
    assert settled_words("line one\nline") == "line one"
    assert settled_words("上次说的预算") == "上次说的预"
    assert settled_words("budget") == ""


def test_a_newer_draft_replaces_the_waiting_one_and_a_sent_message_drops_it(store, settings):
    engine, jobs, pipeline, settings = setup(store, settings)
    session = store.session_named("drafts")
    jobs.submit(WarmJob(session.id, pipeline.options))
    jobs.submit(DraftWarmJob(session.id, pipeline.options, "Where should"), replace=True, first=True)
    jobs.submit(DraftWarmJob(session.id, pipeline.options, "Where should we go"), replace=True, first=True)
    waiting = jobs.pending()
    assert [j.name for j in waiting] == ["draft", "warm"]
    assert waiting[0].draft == "Where should we go"
    run_turn(pipeline, session, engine, "Where should we go in May?", settings=settings)
    assert "draft" not in [j.name for j in jobs.pending()]  # it was for the message just answered


def test_drafts_worth_warming():
    assert not worth_drafting("ok")
    assert not worth_drafting("   hi  ")
    assert worth_drafting("What was the")
    assert worth_drafting("上次说的预算是")


def test_pages_the_draft_warmed_stay_first_when_the_message_recalls_an_older_one(store, settings):
    from desktop_app.memory.warming import ContextOwner

    engine, jobs, _, settings = setup(store, settings.model_copy(update={"ctx": 1024}), n_ctx=1024)
    owner = ContextOwner()
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, jobs=jobs, context=owner)
    importer = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    session = store.session_named("two codes")
    importer.import_message(session, "user", "The warehouse door code is 4417, keep it handy.")
    importer.import_message(session, "assistant", "Noted the warehouse door code.")
    for i in range(70):
        if i == 30:
            importer.import_message(session, "user", "The alarm panel pin is 9921, also keep it.")
            importer.import_message(session, "assistant", "Noted the alarm panel pin.")
        importer.import_message(session, "user", f"Tell me something about topic number {i} and its history.")
        importer.import_message(session, "assistant", "Here is a fairly long answer about that topic. " * 4)
    session = store.get_session(session.id)
    pages = store.list_pages(session.id)
    page_of = {m.content.split(" is ")[0]: m.page_id for p in pages for m in store.page_messages(p.id)}
    door, alarm = page_of["The warehouse door code"], page_of["The alarm panel pin"]
    assert door != alarm, "the two codes need their own pages"
    jobs.submit(DraftWarmJob(session.id, pipeline.options, "What was the alarm panel pin", owner=owner))
    idle(store, jobs, engine)
    assert owner.recalled_pages == (alarm,)
    assert owner.session_id == session.id
    warmed_head = len(engine.prefix_tokens(*draft_prefix(pipeline, session, "What was the alarm panel pin")))
    sent = "What was the alarm panel pin and the warehouse door code?"
    result = run_turn(pipeline, store.get_session(session.id), engine, sent, settings=settings)
    recalled = result.plan.layers["recalled"].text
    assert "9921" in recalled
    assert "4417" in recalled
    assert recalled.index("9921") < recalled.index("4417")  # the warmed page first, though it is the later one
    # the head and the warmed page were reused; the older page is new, and so what follows it
    final = result.plan.messages[-1]["content"]
    older = final.index("\nThe user said: The warehouse door code")  # the first line of the page not warmed
    held = engine.prefix_tokens(result.plan.messages[:-1], final[:older])
    assert len(held) > len(engine.prefix_tokens(result.plan.messages[:-1]))
    assert "9921" in final[:older]
    assert len(held) <= result.record.prefill.reused < warmed_head
    assert owner.recalled_pages == ()  # the next prompt holds no recalled block of this turn
