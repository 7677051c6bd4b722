"""Model bookmarks and summaries for archived pages: used only when they pass the checks."""

from __future__ import annotations

from desktop_app.memory.background.archive_jobs import BookmarkJob, SummaryJob
from desktop_app.memory.background.memory_pass import MemoryModel
from desktop_app.memory.background.queue import JobContext
from desktop_app.memory.prompt.summary_text import render_summary, stale_values
from tests.support.engines import replying


def paged(conversation):
    convo = conversation(n_ctx=1024)
    convo.say("The launch budget is 9000 dollars.", "Noted: 9000 dollars.")
    convo.say("We might move the launch to Lisbon, not sure yet.")
    for n in range(20):
        convo.say(f"Tell me about harbour cranes, part {n}.", "Cranes lift containers all day long. " * 8)
        if convo.paging:
            break
    assert len(convo.paging) == 1, "one page was archived"
    return convo


def run(job, store, replies):
    engine = replying(*replies)
    return job.run(JobContext(store=store, should_stop=lambda: False, engine=engine)), engine


def test_a_model_bookmark_replaces_the_rule_one_only_with_words_from_the_page(store, conversation):
    convo = paged(conversation)
    event = convo.paging[0]
    rule = store.get_bookmark(event.bookmark_id)
    outcome, _ = run(BookmarkJob(convo.sid, event.page_id, event.bookmark_id, MemoryModel("always")), store,
                     [{"keywords": ["spaceship", "moon"], "description": "A trip to the moon"}])
    assert outcome.status == "rejected"
    assert store.get_bookmark(event.bookmark_id) == rule
    outcome, _ = run(BookmarkJob(convo.sid, event.page_id, event.bookmark_id, MemoryModel("always")), store,
                     [{"keywords": ["发布预算", "里斯本"], "description": "发布预算和地点"}])
    assert outcome.status == "rejected", "an English page gets an English description"
    outcome, _ = run(BookmarkJob(convo.sid, event.page_id, event.bookmark_id, MemoryModel("always")), store,
                     [{"keywords": ["launch budget", "Lisbon", "cranes"], "description": "Launch budget and venue"}])
    mark = store.get_bookmark(event.bookmark_id)
    assert outcome.status == "done"
    assert mark.author == "model"
    assert "Lisbon" in mark.keywords


def test_a_model_summary_must_keep_the_hard_values_and_keep_speculation_apart(store, conversation):
    convo = paged(conversation)
    event = convo.paging[0]
    before = store.latest_summary(convo.sid)
    loses_value = {"decisions": [], "constraints": ["launch budget set"], "facts": [], "preferences": [],
                   "open_questions": ["maybe Lisbon"]}
    speculation_as_fact = {"decisions": ["move the launch to Lisbon"], "constraints": ["launch budget: 9000 dollars"],
                           "facts": [], "preferences": [], "open_questions": []}
    outcome, engine = run(SummaryJob(convo.sid, event.page_id, MemoryModel("always")), store,
                          [loses_value, speculation_as_fact])
    assert outcome.status == "rejected"
    assert "stated as settled" in outcome.detail
    assert len(engine.calls) == 2, "one retry, told why"
    assert "refused" in engine.calls[1][-1]["content"], "one retry, told why"
    assert store.latest_summary(convo.sid).version == before.version, "the rule summary stands"
    good = {"decisions": [], "constraints": ["launch budget: 9000 dollars"], "facts": [], "preferences": [],
            "open_questions": ["launch city: maybe Lisbon, undecided"]}
    outcome, _ = run(SummaryJob(convo.sid, event.page_id, MemoryModel("always")), store,
                     [{**good, "facts": ["the user mentioned cranes"]}, good])
    latest = store.latest_summary(convo.sid)
    assert outcome.status == "done"
    assert latest.content.author == "model"
    assert [e.text for e in latest.content.constraints] == ["launch budget: 9000 dollars"]


def test_a_model_summary_line_with_a_superseded_value_is_not_shown_as_current(store, conversation):
    convo = paged(conversation)
    event = convo.paging[0]
    good = {"decisions": [], "constraints": ["launch budget: 9000 dollars"], "facts": [], "preferences": [],
            "open_questions": ["launch city: maybe Lisbon, undecided"]}
    run(SummaryJob(convo.sid, event.page_id, MemoryModel("always")), store, [good])
    convo.say("Actually the launch budget is 12000 dollars.")
    items = store.list_items(convo.sid)
    current = [i for i in items if i.status in ("active", "pending")]
    history = [i for i in items if i.status in ("superseded", "revoked")]
    text, _ = render_summary(store.latest_summary(convo.sid).content, {i.id for i in current},
                             stale=stale_values(current, history))
    assert "9000" not in text
