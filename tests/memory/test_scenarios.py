"""The user's stories, end to end through the store, extraction, paging and assembly.

A small window (n_ctx 1024–2048) so paging really happens; chit-chat between the important turns.
"""

import pytest

from desktop_app.bench.context import replay
from desktop_app.bench.scenarios import active_present, changes, long_session, retention, superseded_as_current
from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.engine.tokens import fallback_counter


def prompt_text(plan) -> str:
    return "\n".join(m["content"] for m in plan.messages)


def feed(chat, scenario, upto):
    """Play the scenario's turns 1..upto-1 whole, then the user message of turn ``upto``; return its plan."""
    for step in scenario.turns[: upto - 1]:
        chat.say(step.user, step.assistant)
    chat.user(scenario.turns[upto - 1].user)
    return chat.plan()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_constraints_from_turns_4_9_15_are_all_in_the_prompt_at_turn_18(conversation, lang):
    """Seed 002: a 20-turn task; the user adds constraints at turns 4, 9 and 15 between chit-chat."""
    scenario = retention(lang)
    chat = conversation(n_ctx=1024, lang=lang)
    plan = feed(chat, scenario, 18)
    assert chat.paging, "the small window must have paged turns out"
    archived = [m.content for e in chat.paging for m in chat.store.page_messages(e.page_id)]
    assert scenario.turns[3].user in archived  # turn 4 left the recent window …
    assert scenario.turns[3].user not in plan.layers["recent"].text
    probe = scenario.probes[0]
    assert active_present(plan.messages, probe.active) == 3  # … but its constraint is still in the prompt
    anchors = plan.layers["anchors"].text
    assert sum(marker in anchors for marker in probe.active) >= 2
    assert plan.total_tokens <= plan.budget


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_requirements_changed_at_turns_3_12_19_only_current_ones_at_turn_30(conversation, lang):
    """Seed 003: the format, budget and deadline change at turns 3, 12 and 19 of 30."""
    scenario = changes(lang)
    chat = conversation(n_ctx=1024, lang=lang)
    plan = feed(chat, scenario, 30)
    probe = scenario.probes[0]
    assert active_present(plan.messages, probe.active) == 3
    assert superseded_as_current(plan.messages, probe.superseded) == 0
    # What they superseded is still visible in `memory show`.
    from desktop_app.memory.controls import handle_slash
    old = [i for i in chat.store.list_items(chat.sid) if i.status == "superseded"]
    assert len(old) == 3
    for item in old:
        shown = handle_slash(chat.store, chat.store.get_session(chat.sid), f"/show {item.id}")
        assert [c["status"] for c in shown.data["chain"]][-1] == "active"
        assert any(marker in shown.text for marker in probe.superseded)


def test_a_long_session_prompt_stays_under_15_percent_of_full_history(store, settings):
    """Turn 50 of a long session: layered carries every active constraint in a fraction of full."""
    scenario = long_session("en")
    results = {r.mode: r for r in replay(scenario, store, settings=settings, counter=fallback_counter(),
                                          n_ctx=2048, modes=("layered", "full"))}
    layered, full = results["layered"], results["full"]
    assert layered.active_present == 1.0
    assert layered.superseded_current == 0.0
    assert layered.probe_tokens <= 0.15 * full.probe_tokens
    assert full.superseded_current == 1.0  # the raw history still shows the old budget as if current


def test_sliding_window_forgets_what_layered_keeps(store, settings):
    results = {r.mode: r for r in replay(retention("en"), store, settings=settings, counter=fallback_counter(),
                                          n_ctx=1024, modes=("layered", "sliding"))}
    assert results["layered"].active_present == 1.0
    assert results["sliding"].active_present < 1.0


def test_run_turn_uses_the_layered_prompt_and_logs_the_turn(store, settings):
    """The real turn runner: extraction before the prompt, paging after the reply, a turn_log row."""
    settings = settings.model_copy(update={"reply_retry": False})  # one reply, said every turn: no copy check
    engine = ScriptedEngine("Happy to help with that; here are some thoughts on the matter at hand.", n_ctx=1024)
    session = store.session_named("chat")
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    run_turn(pipeline, session, engine, "Never modify the original CSV file.", settings=settings)
    for i in range(12):
        run_turn(pipeline, store.get_session(session.id), engine, f"Tell me a fun fact number {i}.",
                 settings=settings)
    result = run_turn(pipeline, store.get_session(session.id), engine, "What about the CSV?", settings=settings)
    sent = prompt_text(result.plan)
    assert "Hard limits: " in sent
    assert "original CSV" in sent
    assert engine.calls[-1] == result.plan.messages
    log = store.list_turn_log(session.id, limit=100)
    assert len(log) == 14
    assert set(log[-1].record.layers) == {"system", "anchors", "state", "summary", "recent", "recalled", "changes",
                                          "input"}
    assert any(row.record.paging for row in log), "a page-out should be logged"
    assert log[0].record.memory[0].action == "added"


def test_import_runs_memory_as_if_typed(store, settings):
    session = store.session_named("imported")
    turns = [{"role": "user", "content": "我的预算是5000元"}, {"role": "assistant", "content": "记住了"},
             {"role": "user", "content": "预算改成8000元"}, {"role": "assistant", "content": "好的"}]
    pipeline = pipeline_for(store, settings, counter=fallback_counter(), n_ctx=2048)
    for turn in turns:
        pipeline.import_message(session, turn["role"], turn["content"])
    [budget] = store.list_items(session.id, statuses=("active",))
    assert "8000" in budget.value
