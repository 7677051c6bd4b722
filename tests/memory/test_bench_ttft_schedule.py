"""The TTFT benchmark's session really changes memory at the rate it claims (no model needed)."""

from __future__ import annotations

import pytest

from desktop_app.bench.ttft import CHANGE_EVERY, mode_settings, typed_so_far, user_turn


def test_the_schedule_adds_changes_and_revokes_memory_every_seven_turns(conversation):
    chat = conversation()
    actions = []
    for turn in range(1, 70):
        chat.user(user_turn(turn))
        if turn % CHANGE_EVERY == 3:
            actions += [o.action for o in chat.outcomes]
        chat.plan()
        chat.reply("Noted, here is a short answer.")
    assert {"added", "superseded", "revoked"} <= set(actions), actions


def test_bench_modes_map_to_the_settings_they_claim(settings):
    label, before, think, memory = mode_settings(settings, "layered-before", 8.0)
    assert (label, before.head_updates, before.warm_idle, before.kv_shift, think, memory) == \
        ("layered", "live", False, False, 0.0, "")
    label, after, think, _ = mode_settings(settings, "layered", 8.0)
    assert (after.head_updates, after.warm_idle, after.kv_shift, think) == ("fold", True, True, 8.0)
    assert mode_settings(settings, "layered@0", 8.0)[2] == 0.0
    assert mode_settings(settings, "layered+memory", 8.0)[1].memory_model == "always"
    assert mode_settings(settings, "layered:asked", 8.0)[1].recall == "asked"
    label, asked, think, extra = mode_settings(settings, "layered:asked+typing", 8.0)
    assert (label, asked.recall, asked.memory_model, extra) == ("layered", "asked", settings.memory_model, "typing")
    with pytest.raises(ValueError):
        mode_settings(settings, "layered+telepathy", 8.0)


def test_the_typed_draft_is_a_prefix_of_the_message():
    assert typed_so_far("one two three four five six") == "one two three four"
    assert typed_so_far("上次说的预算是多少") == "上次说的预算是多少"[:6]
    for turn in range(1, 30):
        text = user_turn(turn)
        assert text.startswith(typed_so_far(text))
        assert len(typed_so_far(text)) < len(text)
