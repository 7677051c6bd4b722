"""Changes as people word them: a rule dropped by a name made of its words is revoked; a question
about dropping one reaches the prompt as the user's words, never as the program's "revoke?" mark
(the 0.5B answered "Revoke."); a long correction that names nothing is news, not a new value of
whatever was said last."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("rule, drop", [
    ("Oh, one thing: from now on please give me the conclusion first, then the details.",
     "You can drop the conclusion-first thing now, it's fine either way."),
    ("From now on, always answer with bullet points.", "You can stop the bullet-point thing."),
])
def test_a_rule_dropped_by_a_hyphenated_name_is_revoked(conversation, rule, drop):
    convo = conversation()
    convo.say(rule)
    convo.say("Which neighbourhoods are good with kids?")
    convo.say(drop)
    assert not convo.active("directive"), [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, rules, unclear", [
    ("en", ["From now on, always answer in one short paragraph."], "Never mind that rule."),
    ("zh", ["以后回答都先说结论再说细节。", "以后每次回答都用中文。"], "那个不用了"),
])
def test_a_pending_question_about_a_rule_reaches_the_prompt_without_the_mark(conversation, lang, rules, unclear):
    convo = conversation(lang=lang)
    for rule in rules:
        convo.say(rule)
    convo.say(unclear)
    pending = convo.store.list_items(convo.sid, statuses=("pending",))
    plan = convo.say("OK." if lang == "en" else "好的。")
    prompt = "\n".join(m["content"] for m in plan.messages)
    assert pending, "an unclear drop is asked about"
    assert pending[0].value.startswith("revoke?"), "the memory panel still shows the question"
    assert "revoke?" not in prompt.lower()


@pytest.mark.parametrize("lang, count, news", [
    ("en", "We're at 10 now.", "Change of plan: Priya told me she went fully vegan last month, so the vegetarian "
                               "option needs to be vegan now."),
    ("zh", "我们现在一共10个人。", "计划有变：小雨说她上个月开始吃全素，所以那道素菜得换成纯素的做法才行。"),
])
def test_a_long_correction_naming_nothing_never_replaces_the_last_value(conversation, lang, count, news):
    convo = conversation(lang=lang)
    convo.say(count)
    convo.say(news)
    assert any("10" in i.value for i in convo.active()), [i.value for i in convo.active()]
