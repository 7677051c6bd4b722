"""End to end with the real default model: it proposes, the program vets and applies."""

from __future__ import annotations

import re

import pytest

from desktop_app.engine.guard import LockedEngine
from desktop_app.memory.background.memory_pass import ExtractJob, MemoryModel
from desktop_app.memory.background.queue import JobContext
from desktop_app.memory.lang.text import numbers

pytestmark = pytest.mark.model


def run_pass(convo, engine, mode="always"):
    job = ExtractJob(convo.sid, [convo.recorded.message.id], MemoryModel(mode))
    return job.run(JobContext(store=convo.store, should_stop=lambda: False, engine=engine)), job


def test_the_default_model_fills_in_what_the_rules_missed_and_invents_no_numbers(store, conversation, real_engine):
    engine = LockedEngine(real_engine)
    convo = conversation()
    text = "Our office has 40 desks and 12 meeting rooms."  # (two numbers: no one number the rules file alone)
    convo.user(text)
    assert not store.list_items(convo.sid), "the rules miss this phrasing"
    outcome, job = run_pass(convo, engine, mode="auto")  # the default model passes the JSON self-test
    assert outcome.status == "done", outcome.detail
    items = store.list_items(convo.sid, statuses=("active", "pending"))
    assert any("40" in i.value and i.origin == "model" for i in items), job.notes
    for item in items:
        assert set(numbers(item.value)) <= set(numbers(text)), f"a number the user never said: {item.value}"
        assert item.source_quote
        assert re.sub(r"\W", "", item.source_quote.lower()) in re.sub(r"\W", "", text.lower())


def test_the_default_model_writes_nothing_for_a_hypothetical(store, conversation, real_engine):
    convo = conversation()
    convo.user("If I had a boat I would sail to Crete every summer.")
    outcome, job = run_pass(convo, LockedEngine(real_engine))
    assert outcome.status == "done"
    assert not store.list_items(convo.sid, statuses=("active", "pending")), job.notes
