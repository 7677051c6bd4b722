"""How the replies read (what comes first, the tone, the script, the units): a rule the user keeps, with "from now on"
or not, one at a time — a later one replaces the earlier and holds only what it asks for now (integrity's third and
fourth sets: "give me the reasoning first" was filed as nothing, "be gentle" waited as a conflict, "还是用简体吧" was a
fact beside the rule)."""

from __future__ import annotations

import pytest


def _rules(convo) -> list[tuple[str, str]]:
    return [(i.subject, i.value) for i in convo.active("directive")]


@pytest.mark.parametrize("lang, first, then, subject, now, gone", [
    ("en", "From now on, lead with the bottom line first, details after.",
     "new format: put the explanation first and the answer at the end", "answer order", "explanation first",
     "bottom line"),
    ("en", "be blunt with me from now on, no fluff", "hmm too harsh. be gentle with me from here", "tone", "gentle",
     "blunt"),
    ("en", "always give me weights in imperial", "switch to metric please, I'm in Germany now", "units", "metric",
     "imperial"),
    ("zh", "以后回答都用简体", "改一下，还是用繁体吧，简体我读着不习惯", "script", "繁体", "简体"),
    ("zh", "以后回答先说理由", "还是先说结论吧，理由放后面", "answer order", "先说结论", "先说理由"),
    ("zh", "以后温度都用摄氏", "改成华氏吧，摄氏我没概念", "units", "华氏", "摄氏"),
])
def test_a_later_way_of_replying_replaces_the_earlier_one(conversation, lang, first, then, subject, now, gone):
    convo = conversation(lang=lang)
    convo.say(first)
    assert [s for s, _ in _rules(convo)] == [subject], _rules(convo)
    convo.say(then)
    rules = _rules(convo)
    assert len(rules) == 1 and rules[0][0] == subject and now in rules[0][1] and gone not in rules[0][1], rules
    assert not convo.active("fact") and not convo.active("goal"), [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, said", [
    ("zh", "帮我把这段话改得正式一点：'本周五下午三点开会，请准时到。'"),  # the text handed over, not the replies
    ("zh", "语气再谦虚一点"),
    ("en", "should I use metric or imperial for a US audience?"),  # a question
])
def test_the_way_a_text_reads_or_a_question_is_no_reply_rule(conversation, lang, said):
    convo = conversation(lang=lang)
    convo.say(said)
    assert not convo.active("directive"), _rules(convo)


def test_a_change_of_plan_on_the_format_is_no_text_handed_over(conversation):
    """"…on the format: give me…" is the user's own words (a processing verb "format" took all after the colon)."""
    convo = conversation(lang="en")
    convo.say("Always give me the conclusion first, then the reasoning")
    convo.say("change of plan on the format: give me the reasoning first and put the conclusion at the very end")
    assert [(s, "reasoning first" in v) for s, v in _rules(convo)] == [("answer order", True)]
