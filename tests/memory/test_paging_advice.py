"""Paging decisions ahead of a page-out: the rule cache, one batched model call, the fallback."""

from __future__ import annotations

import json

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.background.memory_pass import MemoryModel
from desktop_app.memory.background.paging_advice import PagingAdviceJob
from desktop_app.memory.background.queue import JobContext, JobQueue
from desktop_app.memory.core.records import TurnRecord
from desktop_app.memory.scheduling import queue_jobs
from desktop_app.ui.widgets import turn_record
from tests.support.engines import replying

CHATTER = "We talked about the weather, the garden, some music and a few recipes for dinner tonight."
IMPORTANT = "The caterer's phone number is 555-0199 and we still have to call them about the cake."


def filler(n: int) -> tuple[str, str]:
    """A turn that shares at most one word with any other turn (the rule cache cannot tell)."""
    return f"Remember quill{n} and lantern{n} again, it was a long day of errands.", f"Sure, harbour{n} too."


def fill_to_the_brink(chat):
    """Turns until the next reply would page out (the recent layer just under the high mark)."""
    chat.say(IMPORTANT, "I will keep that number at hand.")
    chat.say("thanks!", "You're welcome.")
    n = 0
    while True:
        before = len(chat.store.list_pages(chat.sid))
        with chat.store.dry_run():
            chat.say(*filler(n))
            would_page = len(chat.store.list_pages(chat.sid)) > before
        chat.paging.clear()
        if would_page:
            return n
        chat.say(*filler(n))
        n += 1


def advise(chat, replies, *, mode="always"):
    """Run the job once with a scripted model: a function of the messages, or replies in turn."""
    if callable(replies):
        engine = ScriptedEngine(replies)
    else:
        engine = replying(*(replies or ["{}"]))
    system = chat.pipeline.system_prompt(chat.store.get_session(chat.sid))
    job = PagingAdviceJob(chat.sid, MemoryModel(mode), counter=chat.counter, n_ctx=chat.n_ctx, system_prompt=system)
    return job.run(JobContext(store=chat.store, should_stop=lambda: False, engine=engine)), engine


def keep_the_caterer(messages):
    """The scripted model: keep the turn about the caterer, let the rest leave."""
    lines = [line for line in messages[-1]["content"].splitlines() if line[:1].isdigit()]
    return json.dumps({"keep": [n for n, line in enumerate(lines, start=1) if "caterer" in line]})


def test_an_exchange_the_latest_message_is_about_stays_for_one_page_out(conversation):
    chat = conversation(n_ctx=1024)
    fill_to_the_brink(chat)
    important = chat.store.unpaged_messages(chat.sid)[0]
    thanks = next(m for m in chat.store.unpaged_messages(chat.sid) if m.content == "thanks!")
    while not chat.paging:  # the user keeps coming back to the caterer
        chat.say("Should we call the caterer about the cake today?", "Yes, call them this afternoon.")
    [event] = chat.paging
    assert event.kept_turns == [important.turn_number], "the rule cache: it shares words with the message"
    record = TurnRecord(mode="layered", total_tokens=0, budget=0, n_ctx=1024, paging=event)
    assert f"turns {important.turn_number}" in turn_record.paging(record).plain, "the inspector says what stayed"
    paged = chat.store.page_messages(event.page_id)
    assert important.id not in {m.id for m in paged}
    assert thanks.id in {m.id for m in paged}
    assert chat.store.unpaged_messages(chat.sid)[0].id == important.id, "it stays first in the recent layer"
    chat.user("And the phone number of the caterer again?")
    assert "555-0199" in chat.plan().layer("recent").text
    chat.reply("555-0199.")
    n = 0
    while len(chat.paging) < 2:
        chat.say(*filler(n))
        n += 1
    assert important.id in {m.id for m in chat.store.page_messages(chat.paging[1].page_id)}, "one page-out only"
    # A page with a kept exchange behind it is read by page id, not by its id range.
    texts = chat.store.page_message_texts([event.page_id])[event.page_id]
    assert important.id not in {mid for mid, _ in texts}


def test_the_model_decides_what_the_rules_leave_open(conversation):
    chat = conversation(n_ctx=1024)
    fill_to_the_brink(chat)
    important = chat.store.unpaged_messages(chat.sid)[0]
    chat.user("Any news about the cake?")  # one word in common: the rules cannot tell
    outcome, engine = advise(chat, keep_the_caterer)
    assert outcome.status == "done"
    assert f"keep turn {important.turn_number}" in outcome.detail
    [call] = engine.calls
    asked = call[-1]["content"]
    assert "caterer" in asked, "small talk and unrelated turns are the rule cache's"
    assert "thanks!" not in asked, "small talk and unrelated turns are the rule cache's"
    advice = chat.store.paging_advice(chat.sid)
    assert advice[important.id].decision == "keep"
    assert advice[important.id].origin == "model"
    again, engine = advise(chat, keep_the_caterer)
    assert engine.calls == [], "decided exchanges are not asked again"
    chat.reply("Not yet.")
    while not chat.paging:
        chat.say("Any news about the cake?", "Not yet.")
    [event] = chat.paging
    assert event.kept_turns == [important.turn_number]
    assert chat.store.paging_advice(chat.sid)[important.id].reason == "kept at one page-out already"


def test_invalid_replies_leave_the_page_out_oldest_first(conversation):
    chat = conversation(n_ctx=1024)
    fill_to_the_brink(chat)
    chat.user("Any news about the cake?")
    outcome, engine = advise(chat, ["not json", '{"keep": "all"}'])
    assert outcome.status == "rejected", "retried once"
    assert len(engine.calls) == 2, "retried once"
    assert "→" not in engine.calls[1][-1]["content"], "the retry is shorter (no replies)"
    assert chat.store.paging_advice(chat.sid) == {}
    first = chat.store.unpaged_messages(chat.sid)[0]
    chat.reply("Not yet.")
    while not chat.paging:
        chat.say("Any news about the cake?", "Not yet.")
    assert chat.paging[0].kept_turns == []
    assert chat.paging[0].first_message_id == first.id


def test_an_exchange_whose_memory_is_not_settled_stays_until_it_is(conversation):
    chat = conversation(n_ctx=1024)
    fill_to_the_brink(chat)
    important = chat.store.unpaged_messages(chat.sid)[0]
    chat.store.add_to_backlog(chat.sid, [important.id])  # the model's memory pass has not read it yet
    outcome, engine = advise(chat, [], mode="off")
    assert engine.calls == []
    assert "rules" in outcome.detail
    n = 100
    while not chat.paging:
        chat.say(*filler(n))
        n += 1
    assert chat.paging[0].kept_turns == [important.turn_number]
    chat.store.remove_from_backlog([important.id])
    while len(chat.paging) < 2:
        chat.say(CHATTER, CHATTER)
    assert chat.paging[1].first_message_id == important.id, "settled: it leaves oldest first"


def test_the_job_is_queued_with_the_model_memory_on_once_a_page_out_is_in_sight(store, settings):
    from desktop_app.chat import pipeline_for
    from desktop_app.engine.tokens import fallback_counter

    for mode in ("off", "always"):
        jobs = JobQueue()
        pipeline = pipeline_for(store, settings.model_copy(update={"memory_model": mode}), counter=fallback_counter(),
                                n_ctx=1024, jobs=jobs)
        session = store.session_named(f"s-{mode}")
        queued = []
        for _ in range(12):
            recorded = pipeline.record_input(session, CHATTER)
            reply = pipeline.record_reply(session, CHATTER)
            jobs.cancel()
            queue_jobs(pipeline, session, recorded, reply)
            queued.append("paging" in [job.name for job in jobs.pending()])
        if mode == "off":
            assert not any(queued)
        else:
            assert not queued[0], "not for a short chat; once the recent layer fills up"
            assert any(queued), "not for a short chat; once the recent layer fills up"


def test_odd_replies_are_no_decision():
    from desktop_app.memory.background.paging_advice import Exchange, parse_advice

    ex = [Exchange(message_id=7, turn=1, user="u", reply="r"), Exchange(message_id=8, turn=2, user="v", reply="s")]
    for data in (None, [], {"keep": None}, {"keep": 5}, {"pages": [1]}):
        assert parse_advice(data, ex, None) == []
    advice = parse_advice({"keep": [1, 1, True, "2", 9]}, ex, 9)
    assert [(a.message_id, a.decision) for a in advice] == [(7, "keep"), (8, "evict")]
    assert all(a.input_message_id == 9 and a.origin == "model" for a in advice)


def test_a_hold_lasts_one_page_out(conversation):
    chat = conversation(n_ctx=1024)
    fill_to_the_brink(chat)
    important = chat.store.unpaged_messages(chat.sid)[0]
    chat.store.add_to_backlog(chat.sid, [important.id])  # and the model's pass never comes
    n = 100
    while not chat.paging:
        chat.say(*filler(n))
        n += 1
    assert chat.paging[0].kept_turns == [important.turn_number]
    while len(chat.paging) < 2:
        chat.say(CHATTER, CHATTER)
    assert chat.paging[1].first_message_id == important.id
    assert chat.paging[1].kept_turns == []
