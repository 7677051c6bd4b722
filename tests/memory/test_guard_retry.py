"""A reply that states an old value is asked for once more with a one-line correction (scripted engine)."""

from __future__ import annotations

import pytest

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.scripted import ScriptedEngine


def turn(store, settings, engine, text, **kwargs):
    settings = settings.model_copy(update={"lang": "en", **kwargs})
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    return run_turn(pipeline, store.session_named("launch"), engine, text, settings=settings)


def test_an_old_budget_is_corrected_once_and_the_fixed_reply_kept(store, settings):
    replies = ["Noted.", "Noted, 8000 it is.", "With the 5000 dollar budget, book the small hall.",
               "With the 8000 dollar budget, book the main hall."]
    engine = ScriptedEngine(lambda messages: replies.pop(0))
    turn(store, settings, engine, "The budget must stay under 5000 dollars.")
    turn(store, settings, engine, "Change the budget to 8000 dollars.")
    retried = []
    settings_ = settings.model_copy(update={"lang": "en"})
    result = run_turn(pipeline_for(store, settings_, counter=engine.counter, n_ctx=engine.n_ctx),
                      store.session_named("launch"), engine, "Which hall should we book?", settings=settings_,
                      on_retry=retried.append)
    guard = result.record.guard
    assert guard is not None
    assert guard.retried
    assert [f.kind for f in guard.first_findings] == ["superseded"]
    assert guard.findings == [], "the second reply agrees with memory"
    assert result.reply.content.startswith("With the 8000")
    note = engine.calls[-1][-1]["content"]
    assert note.startswith("Note for this reply:"), "the correction sits right before the input"
    assert "8000" in note, "the correction sits right before the input"
    assert note.endswith("Which hall should we book?")
    assert engine.calls[-1][:-1] == engine.calls[-2][:-1], "everything before the input is the cached prefix"
    assert retried
    stored = store.last_turn_record(store.session_named("launch").id)
    assert stored.guard.retried


def test_flag_mode_keeps_the_reply_and_records_the_finding(store, settings):
    replies = ["Noted.", "Noted.", "With the 5000 dollar budget, book the small hall."]
    engine = ScriptedEngine(lambda messages: replies.pop(0))
    turn(store, settings, engine, "The budget must stay under 5000 dollars.", guard="flag")
    turn(store, settings, engine, "Change the budget to 8000 dollars.", guard="flag")
    result = turn(store, settings, engine, "Which hall should we book?", guard="flag")
    assert not result.record.guard.retried
    assert [f.kind for f in result.record.guard.findings] == ["superseded"]
    assert len(engine.calls) == 3, "flag mode never asks again"


def test_off_runs_no_guard(store, settings):
    engine = ScriptedEngine("With the 5000 dollar budget, book the small hall.")
    result = turn(store, settings, engine, "Which hall should we book?", guard="off")
    assert result.record.guard is None


@pytest.mark.parametrize("lang, rule, ask, note_words", [
    ("en", "The budget must stay under 5000 dollars.", "Okay, summarise all my constraints and give me the final plan.",
     ["name each of these", "5000 dollars"]),
    ("zh", "预算不超过5000元。", "好，把我所有要求总结一下，给我最终方案", ["逐一写出", "5000元"]),
])
def test_a_summary_that_leaves_a_current_value_out_is_asked_for_again(store, settings, lang, rule, ask, note_words):
    replies = ["OK.", "Final plan: book the small hall. 最终方案：订小厅。",
           "Final plan: the small hall, within 5000 dollars. 最终方案：小厅，预算5000元以内。"]
    engine = ScriptedEngine(lambda messages: replies.pop(0))
    turn(store, settings, engine, rule, lang=lang)
    result = turn(store, settings, engine, ask, lang=lang)
    guard = result.record.guard
    assert guard is not None
    assert guard.retried
    assert [f.kind for f in guard.first_findings] == ["omitted"]
    assert guard.findings == []
    note = engine.calls[-1][-1]["content"]
    for word in note_words:
        assert word in note
