"""A goal's number said anew ("算了还是130吧" after "想减到125") changes the goal, not a value beside it; the
user's weight now is a lasting fact of its own, apart from the goal that starts from it; a day in a goal is no aim."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang, turns, now, gone", [
    ("zh", ["今年目标是存够5万", "感觉有点难，先定个3万吧"], "3万", "5万"),
    ("zh", ["我现在体重140斤 想减到125", "算了还是130吧 125太难了"], "130", "125"),
    ("en", ["I'm 185 lbs right now and I want to get down to 160 by summer", "ok 170 then"], "170", "160"),
    ("en", ["I weigh 80 kg and I want to get down to 72", "eh, let's say 75"], "75", "72"),
    ("en", ["My goal is to save 20k this year", "too ambitious, make that 15k"], "15k", "20k"),
])
def test_a_number_said_anew_changes_the_goal(conversation, lang, turns, now, gone):
    convo = conversation(lang=lang)
    for turn in turns:
        convo.say(turn)
    goals = [i.value for i in convo.active("goal")]
    assert len(goals) == 1 and now in goals[0] and gone not in goals[0], goals


@pytest.mark.parametrize("lang, said, weight, aim", [
    ("zh", "我现在140斤，想减到125", "140斤", "125"),
    ("zh", "我现在体重140斤 想减到125", "140斤", "125"),
    ("en", "I'm 185 lbs right now and I want to get down to 160 by summer", "185 lbs", "160"),
])
def test_the_weight_now_is_a_profile_fact_beside_the_goal(conversation, lang, said, weight, aim):
    convo = conversation(lang=lang)
    convo.say(said)
    convo.say("算了还是130吧" if lang == "zh" else "ok 170 then")
    facts = [i for i in convo.active("fact") if i.subject == "weight"]
    assert len(facts) == 1 and weight in facts[0].value and facts[0].scope == "profile", facts
    goals = [i.value for i in convo.active("goal")]
    assert goals and weight not in goals[-1] and aim not in goals[-1], goals  # the goal's number changed, not the weight


def test_a_day_is_no_goal_aim(conversation):
    """"make that layover limit 3 hours" does not move the flight of "Flying … on 14 September" to the 3rd."""
    convo = conversation()
    convo.say("No flights with layovers longer than 2 hours.")
    convo.say("Flying from Dublin to Athens on 14 September.")
    convo.say("Actually make that layover limit 3 hours, options are too thin.")
    values = " | ".join(i.value for i in convo.active())
    assert "14 September" in values and "3 September" not in values, values
