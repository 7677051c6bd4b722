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


def test_a_name_is_corrected_only_when_it_was_the_last_thing_said(conversation):
    convo = conversation(lang="zh")
    convo.say("你可以叫我小周")
    convo.say("预算控制在1500以内")
    convo.say("哦打错了，应该是小邹")
    assert _names(convo) == ["你可以叫我小周"]


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
