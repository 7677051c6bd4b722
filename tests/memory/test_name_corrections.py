"""A name corrected by itself ("哦打错了，应该是小邹" right after "你可以叫我小周"): the name just said is
spelt anew; a short correction that is no near spelling of it leaves the name alone."""

from __future__ import annotations

import pytest


def _names(convo):
    return [i.value for i in convo.active() if i.subject in ("name", "name:called")]


@pytest.mark.parametrize("lang, said, correction, now", [
    ("zh", "你可以叫我小周", "哦打错了，应该是小邹", "你可以叫我小邹"),
    ("zh", "我叫王小明", "打错了，是王晓明", "我叫王晓明"),
    ("en", "You can call me Jon.", "Oops, typo, it's John.", "You can call me John"),
    ("en", "My name is Sara.", "Sorry, typo: it's Sarah.", "My name is Sarah"),
])
def test_a_name_spelt_anew_replaces_the_one_just_said(conversation, lang, said, correction, now):
    convo = conversation(lang=lang)
    convo.say(said)
    convo.say(correction)
    assert _names(convo) == [now], [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, said, correction", [
    ("zh", "我叫王小明", "说错了，是下周四"),
    ("zh", "我叫王小明", "哦打错了，应该是小邹"),  # no near spelling of 王小明: nothing to tell it belongs to
    ("en", "My name is Jon.", "sorry, I meant Tuesday"),
    ("en", "My name is Jon.", "Oops, typo, it's Margaret."),
])
def test_a_short_correction_that_is_no_near_spelling_leaves_the_name(conversation, lang, said, correction):
    convo = conversation(lang=lang)
    convo.say(said)
    convo.say(correction)
    assert _names(convo) == [said.rstrip(".")], [i.value for i in convo.active()]


def test_a_typo_owned_up_to_later_reaches_the_name_and_a_number_the_value(conversation):
    """Owning up to a typo reaches the name it is a near spelling of, whatever was said in between; a
    correction with a number is no name (it corrects the budget)."""
    convo = conversation(lang="zh")
    convo.say("你可以叫我小周")
    convo.say("预算控制在1500以内")
    convo.say("哦打错了，应该是1200")
    assert _names(convo) == ["你可以叫我小周"]
    assert any("1200" in i.value for i in convo.active()), [i.value for i in convo.active()]
    convo.say("哦打错了，应该是小邹")
    assert _names(convo) == ["你可以叫我小邹"]


@pytest.mark.parametrize("lang, turns, now", [
    ("en", ["hi I'm Katherine, I work as a data analyst at a bank", "btw it's spelled Kathryn not Katherine, autocorrect lol"],
     "I'm Kathryn"),  # (a clause's value starts at its words, not at its "hi")
    ("zh", ["我叫李伟。", "我在深圳做产品经理。", "名字写错了，是李炜，不是李伟"], "我叫李炜"),
])
def test_a_correction_naming_the_old_spelling_reaches_the_name_whenever_said(conversation, lang, turns, now):
    convo = conversation(lang=lang)
    for text in turns:
        convo.say(text)
    assert _names(convo) == [now], [i.value for i in convo.active()]
    assert any(i.subject == "occupation" for i in convo.active()), "the job said beside it stays"


@pytest.mark.parametrize("said, correction", [
    ("My name is Katherine.", "Actually it's Katherine, not Kathryn."),
    ("I'm Sam.", "Oops, typo, it's Sam not Pam, Pam is my sister"),
    ("My name is Dan.", "Actually my brother Dave is coming too, not Dan's wife."),
])
def test_the_name_before_not_is_the_right_one(conversation, said, correction):
    convo = conversation()
    convo.say(said)
    convo.say(correction)
    assert _names(convo) == [said.rstrip(".")], [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, turns, subject, now", [
    # A typo owned up to: the name is looked for in every clause, and may be two letters off.
    ("en", ["my name's Katie", "ugh typo, Katy. no ie"], "name", "my name's Katy"),
    ("zh", ["我叫王婷", "哎打错了，是王霆，雷霆的霆，我是男的哈哈"], "name", "我叫王霆"),
    # Someone else's name is an item of its own, and a typo owned up to spells it anew.
    ("en", ["my landlord is called Jeffery, he never fixes anything", "sorry autocorrect, it's Jeffrey not Jeffery"],
     "name:landlord", "my landlord is called Jeffrey"),
    ("zh", ["我室友叫李娜，人挺好的", "手滑打错了，是李纳，不是李娜"], "name:室友", "我室友叫李纳，人挺好的"),
])
def test_a_typo_owned_up_to_spells_the_name_anew(conversation, lang, turns, subject, now):
    convo = conversation(lang=lang)
    for text in turns:
        convo.say(text)
    held = [(i.subject, i.value) for i in convo.active() if i.subject.startswith("name")]
    assert held == [(subject, now)], [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, turns", [
    ("en", ["my boss is called Tom", "and my coworker is called Tim"]),  # two people, not a typo
    ("en", ["my name's Dana", "typo, I meant 3 days not 2"]),  # a typo owned up to about something else
    ("zh", ["我同事叫小周", "我朋友叫小邹"]),
    ("zh", ["我叫王婷", "打错了，是3天不是2天"]),
])
def test_another_person_or_another_typo_leaves_the_name(conversation, lang, turns):
    convo = conversation(lang=lang)
    for text in turns:
        convo.say(text)
    first = [i.value for i in convo.active() if i.subject.startswith("name")]
    assert turns[0] in first, [i.value for i in convo.active()]


def test_every_copy_of_a_misspelt_name_is_put_right_and_two_typos_in_one_message_both(conversation):
    """A user's walk (round nineteen): "it's Debra not Deborah" reached nothing (the manager was named only in the
    plan), and the message's other typo ("Katy") was the only one read."""
    convo = conversation(lang="en")
    convo.say("hi, my name's Katie. planning a trip to Lisbon with my manager, her name is Deborah")
    convo.say("ugh typo, Katy. and sorry autocorrect, it's Debra not Deborah")
    values = [i.value for i in convo.active()]
    assert not [v for v in values if "Katie" in v or "Deborah" in v], values
    assert any("Katy" in v for v in values) and any("Debra" in v and "Lisbon" in v for v in values), values
    [plan] = [i for i in convo.active() if i.kind == "goal"]
    assert plan.details.get("state") == "in_progress", "the plan keeps its progress"


def test_a_name_inside_its_clause_is_read_before_not(conversation):
    convo = conversation(lang="zh")
    convo.say("我们组新来的同事叫小周，他推荐了亚龙湾的酒店")
    convo.say("手滑了，同事是小邹，不是小周")
    assert [i.value for i in convo.active() if i.subject == "name:同事"] == ["我们组新来的同事叫小邹，他推荐了亚龙湾的酒店"]


@pytest.mark.parametrize("lang, turns, subject, now", [
    # a person said in passing is kept once the user spells the name anew: it matters now
    ("en", ["my flatmate Brendon left the oven on again", "*Brendan. sorry"], "name:flatmate",
     "my flatmate Brendan left the oven on again"),
    ("en", ["my daughter's coach, Mr. Henriksen, cancelled practice", "oops it's Henrikson, with an o"], "name:coach",
     "my daughter's coach, Mr. Henrikson, cancelled practice"),
    ("zh", ["我室友孙倩又把空调开到最低", "打错了 是孙茜"], "name:室友", "我室友孙茜又把空调开到最低"),
])
def test_a_name_said_in_passing_and_spelt_anew_is_kept(conversation, lang, turns, subject, now):
    convo = conversation(lang=lang)
    convo.say(turns[0])
    assert not convo.active()
    convo.say(turns[1])
    assert [(i.subject, i.value) for i in convo.active()] == [(subject, now)]


@pytest.mark.parametrize("lang, turns", [
    ("zh", ["约了修空调的师傅周四上午来", "打错了，是周五上午"]),  # a day, not a name
    ("zh", ["我叫陈明 帮我写个请假条 请两天假", "写错了 是请三天"]),  # the number, not the name
    ("en", ["my coworker Dave just bought a Tesla lol", "what should i get"]),  # said in passing, no typo: nothing
])
def test_a_typo_that_is_no_name_keeps_no_one(conversation, lang, turns):
    convo = conversation(lang=lang)
    for text in turns:
        convo.say(text)
    assert not [i for i in convo.active() if i.subject.startswith("name:")], [i.value for i in convo.active()]


@pytest.mark.parametrize("lang, turns, subject, now", [
    ("en", ["my coworker Shawna is out sick so i'm covering", "ugh, Shauna. not Shawna. autocorrect"], "fact:coworker shauna",
     "my coworker Shauna is out sick so i'm covering"),  # the subject holds no old spelling
    ("en", ["hi im Rebekah", "wait did i write Rebekah? it's Rebecca with a c"], "name", "hi im Rebecca"),
    ("en", ["our neighbour's called Stephen", "i mean Steven, it's spelled with a v"], "name:neighbour",
     "our neighbour's called Steven"),
    ("en", ["my landlord's Mr. Mcintyre", "oops it's MacIntyre, with an a"], "name:landlord", "my landlord's Mr. MacIntyre"),
    ("zh", ["我的名字叫刘洋", "写错字了 应该是刘扬"], "name", "我的名字叫刘扬"),
    ("zh", ["我女朋友叫林静", "不是林静，是林婧，女字旁"], "name:朋友", "我女朋友叫林婧"),  # "not" alone, no typo owned up to
])
def test_a_name_respelt_in_more_words(conversation, lang, turns, subject, now):
    convo = conversation(lang=lang)
    for text in turns:
        convo.say(text)
    assert [(i.subject, i.value) for i in convo.active()] == [(subject, now)]
