"""A reply language set by a rule holds for the program's own lines too, and for the messages written in the other
language: "以后都用英文回复我，…中文不太行" sets English (read whole it named two languages and set none, and every
acknowledgment after it stayed Chinese); a Chinese message under an English rule is asked for in English."""

from __future__ import annotations

import pytest

from desktop_app.memory.lang.text import rule_language

RULE_EN = "以后都用英文回复我，我要直接转发给老板Mike，他是美国人，中文不太行"


@pytest.mark.parametrize("rule, lang", [
    (RULE_EN, "en"),
    ("以后都用英文回答我吧，正好练练阅读", "en"),
    ("please reply in Chinese from now on, my English is not great", "zh"),
    ("From now on answer in English.", "en"),
    ("我中文英文都会", None),  # no reply said: no language set
])
def test_the_clause_that_says_how_to_reply_names_the_language(rule, lang):
    assert rule_language([rule]) == lang


def _before_input(plan) -> str:
    final, text = plan.messages[-1]["content"], plan.layer("input").text
    return final[: len(final) - len(text)]


@pytest.mark.parametrize("rule, message, note", [
    (RULE_EN, "有两个同事是清真，吃饭要注意", "answer in English"),
    ("以后都用英文回答我吧，正好练练阅读", "What should I focus on first? 我口语最差", "answer in English"),  # mixed
    ("From now on, always reply in Chinese.", "What should I pack for Kunming in October?", "用中文回答"),
])
def test_a_message_in_another_language_than_the_rule_is_asked_for_in_the_rules(conversation, rule, message, note):
    convo = conversation(lang="zh" if "用" in rule or "以后" in rule else "en")
    convo.say(rule)
    plan = convo.say(message)
    before = _before_input(plan)
    assert note in before, before


def test_no_note_without_a_rule_or_in_the_rules_language(conversation):
    convo = conversation(lang="zh")
    assert "answer in" not in _before_input(convo.say("有两个同事是清真，吃饭要注意"))
    assert "用中文回答" not in _before_input(convo.say("好"))
    convo.say(RULE_EN)
    assert "answer in English" not in _before_input(convo.say("We are 38 people now."))


def test_the_acknowledgment_follows_the_rule(conversation):
    convo = conversation(lang="zh")
    convo.user(RULE_EN)
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert said.startswith("Got it."), said
    convo.reply(said)
    convo.user("老板说人均可以到1000，让大家玩好点")
    assert convo.pipeline.acknowledgment(convo.recorded).startswith("Got it."), convo.pipeline.acknowledgment(convo.recorded)


@pytest.mark.parametrize("lang, rule, back, now", [
    ("en", "Actually, I'm trying to practise my Chinese. Can you reply in Chinese from now on? Simplified please.",
     "OK switch back to English please, my brain is fried.", "en"),
    ("zh", "以后都用英文回答我吧，正好练练阅读", "还是换回中文吧", "zh"),
])
def test_switching_back_replaces_the_language_rule(conversation, lang, rule, back, now):
    """(the change went to pending, as a fact beside the rule, and every reply after it was asked in the old language)"""
    convo = conversation(lang=lang)
    convo.say(rule)
    convo.say(back)
    rules = [i.value for i in convo.active("directive")]
    assert rule_language(rules) == now, rules
    assert not convo.store.list_items(convo.sid, statuses=("pending",))
