"""A value changed by an amount, not to one ("再加500吧", "add 300 to the budget", "let's halve that"):
the item it changes holds the amount computed anew, in its own words; read as a value of its own
it had become the budget ("add 300 to the budget" a budget of 300, "预算再减500" one of 500). What
only looks like one ("至少30篇", "加3个菜", a question) changes nothing."""

from __future__ import annotations

import pytest

from desktop_app.memory.write.shifts import shift_in


def _active(convo):
    return [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, said, change, now, gone", [
    ("zh", "给我妈买生日礼物，预算1000", "再加500吧，难得一次", "给我妈买生日礼物，预算1500", "预算1000"),
    ("zh", "买车预算15万", "再加三万吧，想上个顶配", "买车预算18万", "15万"),
    ("zh", "预算2000", "预算再减500", "预算1500", "预算2000"),
    ("zh", "我们一共4个人", "再加两个人", "我们一共6个人", "4个人"),
    ("zh", "年夜饭预算1200", "预算翻倍吧", "年夜饭预算2400", "1200"),
    ("en", "budget is 1200", "add 300 to the budget", "budget is 1500", "1200"),
    ("en", "shopping for a couch, I'm thinking 2000 max", "ok you know what, I can stretch another 500 on top of that",
     "shopping for a couch, I'm thinking 2500 max", "2000 max"),
    ("en", "christmas gift budget this year: 800 for everyone combined", "ok after looking at my bank account... "
     "let's halve that", "christmas gift budget this year: 400 for everyone combined", "800"),
    ("en", "Our budget is $1,500 for the party.", "Cut 200 from that.", "Our budget is $1,300 for the party", "1,500"),
    # (the count and the money per table are two items since round eighteen: the one counting tables changes)
    ("zh", "婚宴订了6桌，每桌预算3000", "亲戚太多了，再加2桌", "婚宴订了8桌", "6桌"),
    ("en", "The timeline is 6 weeks.", "Client wants more polish, push it out 2 more weeks.", "The timeline is 8 weeks",
     "6 weeks"),
])
def test_a_value_changed_by_an_amount_is_computed_anew(conversation, lang, said, change, now, gone):
    convo = conversation(lang=lang)
    convo.say(said)
    convo.say(change)
    values = _active(convo)
    assert now in values, values
    assert not any(gone in v for v in values), values


@pytest.mark.parametrize("lang, said, change, now", [
    ("en", "We're 8 people, budget 1500.", "2 more people are coming.", "10 people"),
    ("zh", "我们一共12个人，预算1500", "又来了3个人", "15个人"),
])
def test_a_count_of_people_changes_the_head_count_not_the_budget(conversation, lang, said, change, now):
    convo = conversation(lang=lang)
    convo.say(said)
    convo.say(change)
    values = _active(convo)
    assert any(now in v for v in values), values
    assert any("1500" in v for v in values), values


@pytest.mark.parametrize("lang, said, other", [
    ("zh", "我们一共12个人，预算1500", "加3个菜，要软烂一点的"),
    ("zh", "论文预算2000", "导师要求参考文献至少30篇"),
    ("zh", "预算1000", "要不要再加500？"),
    ("zh", "我们一共12个人", "想减肥，目标减10斤"),
    ("en", "We're 12 people, budget 1500.", "add 2 dishes with no nuts"),
    ("en", "budget is 1200", "should I add another 200?"),
    ("en", "budget is 1200", "if we added 300 would we get the nicer cabin?"),
    ("en", "budget is 1200", "my sister said she'd add 300 to hers"),
])
def test_what_only_looks_like_a_change_by_an_amount_changes_nothing(conversation, lang, said, other):
    convo = conversation(lang=lang)
    convo.say(said)
    before = _active(convo)
    convo.say(other)
    assert all(v in _active(convo) for v in before), (before, _active(convo))


@pytest.mark.parametrize("lang, change", [("en", "add 300 to the budget"), ("zh", "预算再减500")])
def test_a_change_by_an_amount_of_a_value_never_said_writes_no_value(conversation, lang, change):
    convo = conversation(lang=lang)
    convo.say(change)
    assert not any(ch.isdigit() for v in _active(convo) for ch in v), _active(convo)


@pytest.mark.parametrize("sentence, delta, factor", [
    ("再加500吧", 500, 1.0), ("今年再多包200", 200, 1.0), ("少了4个人", -4, 1.0), ("再涨10%", 0, 1.1),
    ("砍一半", 0, 0.5), ("500 more", 500, 1.0), ("150 less", -150, 1.0), ("knock off 100", -100, 1.0),
    ("10% more than that", 0, 1.1), ("double that", 0, 2.0), ("emmm打个八折吧", 0, 0.8), ("actually knock 50 off", -50, 1.0),
    ("3 people dropped out this morning", -3, 1.0), ("有5个人来不了了", -5, 1.0),
])
def test_the_change_a_sentence_says(sentence, delta, factor):
    shift = shift_in(sentence)
    assert shift is not None and shift.delta == delta and shift.factor == pytest.approx(factor)


@pytest.mark.parametrize("sentence", [
    "加到2000", "压到1200吧", "至少30篇", "我们参加3天", "老板说可以加到2000", "more than 500", "no more than 6 hours",
    "10 or more people", "cut it to 200", "Book it for 7pm", "又加了10个，90人了", "a budget of 500", "nah not gonna add 300",
    "先不加300了，就这样", "don't halve it",
])
def test_a_value_said_anew_or_a_bound_is_no_change_by_an_amount(sentence):
    assert shift_in(sentence) is None
