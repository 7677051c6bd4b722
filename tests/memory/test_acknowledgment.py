"""What the program answers when no attempt answered a message that told something (memory.acknowledgment)."""

from __future__ import annotations

import pytest

from desktop_app.memory.acknowledgment import Noted, acknowledgment, changed_part


@pytest.mark.parametrize("new, old, shown", [
    ("周六在家请客，大概10个人", "周六在家请客，大概8个人", ("大概10个人", "大概8个人")),
    ("预算: 1200", "预算: 1500", ("预算: 1200", "1500")),  # the label stays with the new value
    ("We'll be 10 people", "We'll be 8 people", ("10 people", "8 people")),
    ("Dinner party on Saturday for 10", "Dinner party on Saturday for 8", ("for 10", "for 8")),
    ("Budget is 300", "Budget was 250", ("Budget is 300", "Budget was 250")),  # no number alone differs
])
def test_a_change_is_said_by_the_part_that_changed(new, old, shown):
    assert changed_part(new, old) == shown


def test_a_change_says_the_new_value_then_the_old_in_either_language():
    assert acknowledgment([Noted("大概10个人", "大概8个人")], [], "zh") == "好的，记下了：大概10个人（之前是大概8个人）。"
    assert acknowledgment([Noted("10 people", "8 people")], [], "en") == "Got it. Noted: 10 people (was 8 people)."


def test_the_message_is_not_said_back_its_name_is():
    message = "我表妹小雨对虾过敏，很严重那种，虾一定不能有"
    assert acknowledgment([Noted("我表妹小雨对虾过敏", label="过敏")], [], "zh", message) == "好的，记下了：过敏。"
    assert acknowledgment([Noted("以后回答都先说结论")], [], "zh", "以后回答都先说结论") == "好的，记下了。"
    assert acknowledgment([Noted("Jake has a shellfish allergy", label="allergy")], [], "en",
                          "Also, Jake has a shellfish allergy!") == "Got it. Noted: allergy."
    # A value in other words than the message's is said.
    assert "12个人" in acknowledgment([Noted("人数: 12个人")], [], "zh", "大概12个人，老老少少都有")


def test_a_dropped_rule_is_said_no_longer_in_force():
    said = acknowledgment([], ["以后回答都先说结论"], "zh", "结论先行那个不用了")
    assert said == "好的，这条不用再照做了：以后回答都先说结论。"
    assert acknowledgment([], ["Always answer in bullet points"], "en") == \
        "Got it. I'll drop this one: Always answer in bullet points."
    assert acknowledgment([], [], "zh") == "", "nothing written, nothing to say"


def test_a_long_value_is_clipped():
    said = acknowledgment([Noted("很长的说明" * 30)], [], "zh")
    assert said.endswith("…。") and len(said) < 80


@pytest.mark.parametrize("lang, noted, dropped, message", [
    ("zh", [Noted("预算: 1200", "预算: 1500"), Noted("我表妹小雨对虾过敏", label="过敏")], ["以后回答都先说结论"],
     "预算压到1200吧，我表妹小雨对虾过敏，结论先行那个不用了"),
    ("en", [Noted("budget: 300 dollars", "budget: 250 dollars")], ["Always answer in bullet points"],
     "Budget goes up to 300 dollars, and no more bullet points"),
])
def test_the_acknowledgment_holds_none_of_the_prompts_wording(lang, noted, dropped, message):
    """The chat does not check the program's own words: they must pass the reply checks (run here: an
    early wording, "这条不再适用：", was the prompt's label for a dropped rule)."""
    from desktop_app.memory.reply_health import check_reply

    said = acknowledgment(noted, dropped, lang, message)
    assert check_reply(said, user_text=message, expected_lang=lang, memory_held=True,
                       notes=[n.value for n in noted]) == []
