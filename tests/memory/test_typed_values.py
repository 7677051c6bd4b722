"""Values read by their type, not by the words around them (round eight): an amount written in
Chinese numerals, a day or a time of day moved by news of a change, a budget said anew as a limit;
and the standing rules named by their place. Each test names a class; the sentences are not the
benchmark's (``bench memory --integrity`` measures the classes on sentences of its own)."""

from __future__ import annotations

import pytest

from desktop_app.memory.write.extraction import extract
from tests.support.conversations import holding, said


@pytest.mark.parametrize("lang, turns, new, old", [
    ("zh", ["想换台洗衣机，预算三千左右", "看了一圈三千的都一般，加到四千五"], "四千五", "三千"),
    ("zh", ["装修预算二十万", "行吧，预算提到二十五万"], "二十五万", "二十万"),
    ("zh", ["婚纱照预算六千", "不对，是八千"], "八千", "六千"),
    ("en", ["the budget for the sofa is about 1.2k", "ok we can go up to 1500"], "1500", "1.2k"),
])
def test_an_amount_in_any_writing_is_changed_in_place(conversation, lang, turns, new, old):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert holding(chat, new), [i.value for i in chat.active()]
    assert not holding(chat, old), [i.value for i in chat.active()]


@pytest.mark.parametrize("lang, turns, new, old", [
    # bench health hc-zh-02 (round eight): "人少了那预算就压到1200吧" was the budget of "了那", beside the old one.
    ("zh", ["这次总预算八千", "人少了那预算就压到六千吧"], "六千", "八千"),
    # ... and beside "买菜预算控制在1500以内": the only budget there is, changed.
    ("zh", ["搬家预算三千", "算了，那就把预算压到两千五"], "两千五", "三千"),
    ("en", ["the food budget is 300 dollars", "let's raise the budget to 400"], "400", "300"),
])
def test_words_before_the_budget_that_name_no_part_leave_it_the_whole(conversation, lang, turns, new, old):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert holding(chat, new) and not holding(chat, old), [(i.subject, i.value) for i in chat.active()]


def test_a_part_of_the_budget_keeps_its_own_item_beside_the_whole(conversation):
    chat = conversation(lang="zh")
    said(chat, ["这次总预算八千", "吃的预算再加五百"])
    assert {i.subject for i in chat.active()} == {"budget", "budget:吃的"}, [(i.subject, i.value) for i in chat.active()]


@pytest.mark.parametrize("lang, turns, new, old", [
    ("en", ["Budget for the laptop is around 900.", "final call: 1300 max, the better screen is worth it"], "1300", "900"),
    ("zh", ["给爸爸买个手机，预算两千", "最后说定了，三千封顶"], "三千", "两千"),
])
def test_a_new_limit_of_the_same_money_is_the_budget_said_anew(conversation, lang, turns, new, old):
    chat = conversation(lang=lang)
    said(chat, turns)
    [budget] = [i for i in chat.active() if i.subject == "budget"]
    assert new in budget.value and old not in budget.value
    assert len(holding(chat, new)) == 1


@pytest.mark.parametrize("lang, turns", [
    ("en", ["Our budget is 3000 for the whole trip.", "Hotels should be at most 150 a night."]),
    ("zh", ["这次旅行总预算一万。", "酒店每晚不超过五百。"]),
])
def test_a_limit_per_night_is_not_a_new_total(conversation, lang, turns):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert len(chat.active()) == 2, [i.value for i in chat.active()]


@pytest.mark.parametrize("lang, turns, new, gone", [
    ("en", ["my parents are staying with us march 3 to 9", "they moved their flights, now it's march 5 to 11",
            "changed again lol, now march 12 to 18"], "march 12 to 18", ("march 3", "march 5")),
    ("en", ["dentist appointment thursday 4pm", "oops meant 5pm", "they called, pushing it to friday 9am"],
     "friday 9am", ("thursday", "4pm", "5pm")),
    ("zh", ["约了物业周三上午来修水管", "说错了，是周四上午", "物业又说周四没空，改到下周一下午三点"],
     "下周一下午三点", ("周三", "周四")),
    ("zh", ["孩子的钢琴考级是6月8号", "考级通知改期了，最终是6月15号"], "6月15号", ("6月8",)),
])
def test_a_day_or_time_moved_by_news_of_a_change_moves_in_place(conversation, lang, turns, new, gone):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert [i for i in chat.active() if new in i.value], [i.value for i in chat.active()]
    assert not [old for old in gone for i in chat.active() if old in f"{i.subject} {i.value}"], \
        [(i.subject, i.value) for i in chat.active()]


@pytest.mark.parametrize("lang, turns, new, old", [
    ("en", ["the exam is on may 9", "my bad, it's actually may 16, may 9 was the mock one"], "may 16", "may 9"),
    ("zh", ["面试在3月12号下午", "搞错了，是3月19号，12号那天是笔试"], "3月19号", "3月12"),
])
def test_a_change_naming_the_old_day_too_moves_the_old_one(conversation, lang, turns, new, old):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert [i for i in chat.active() if new in i.value] and not holding(chat, old), \
        [i.value for i in chat.active()]


@pytest.mark.parametrize("lang, turns, new, old", [
    ("en", ["the recital is on the 12th", "sorry, the 13th, I always get that wrong"], "13th", "12th"),
    ("zh", ["我后天早上7:15的火车", "不对，是8:15，看错票了"], "8:15", "7:15"),
])
def test_a_slip_said_with_an_apology_corrects_the_day_and_writes_no_rule(conversation, lang, turns, new, old):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert not [i for i in chat.active() if i.kind == "directive"]
    assert holding(chat, new) and not holding(chat, old), [i.value for i in chat.active()]


@pytest.mark.parametrize("text", ["Give me ideas for Saturday brunch.", "suggest a playlist for friday night",
                                  "帮我想想周末吃什么"])
def test_asking_for_ideas_for_a_day_writes_nothing(text):
    assert extract(text) == []


@pytest.mark.parametrize("lang, rules, drop, kept, gone", [
    ("en", ["From now on, answer in bullet points.", "Also always mention the source."], "ok scratch that last rule",
     "bullet", "source"),
    ("en", ["Always reply in British spelling.", "Never use exclamation marks."], "drop the first rule please",
     "exclamation", "British"),
    ("zh", ["以后回答都用表格。", "还有说话别太正式。"], "第一条取消吧", "正式", "表格"),
    ("zh", ["以后每次回答先说结论。", "以后别用网络用语。"], "最后那条不要了", "结论", "网络用语"),
])
def test_a_rule_named_by_its_place_is_the_one_dropped(conversation, lang, rules, drop, kept, gone):
    chat = conversation(lang=lang)
    said(chat, [*rules, drop])
    assert holding(chat, kept) and not holding(chat, gone), [i.value for i in chat.active()]


@pytest.mark.parametrize("lang, text, word", [
    ("en", "please stop adding disclaimers to your answers", "disclaimers"),
    ("zh", "回答里别再用表情了", "表情"),
])
def test_told_to_stop_with_no_such_rule_standing_is_a_new_rule(conversation, lang, text, word):
    chat = conversation(lang=lang)
    chat.say(text)
    assert [i.kind for i in holding(chat, word)] == ["directive"]


def test_a_rule_let_go_that_was_never_set_writes_nothing(conversation):
    chat = conversation()
    chat.say("Emojis are fine again too.")
    assert chat.active() == []


@pytest.mark.parametrize("text", [
    "forwarding from my landlord: 'rent goes up to 1900 from june, please confirm by friday'",
    "fwd from the school: \"Pickup moves to 2:45pm on wednesdays.\"",
    "转发一下公司群里的通知：'下周一全员上午9点开会，请准时参加。'",
    "and 'my husband is a doctor'",
    "'我们家住在十楼' 呢",
])
def test_a_message_passed_on_or_quoted_for_translation_writes_nothing(text):
    assert extract(text) == []


@pytest.mark.parametrize("lang, turns, new, old", [
    ("en", ["going with Airbnb for the stay", "actually a hotel was cheaper, switching to the Hilton"], "Hilton",
     "Airbnb"),
    ("zh", ["决定报瑜伽课了", "体验了一节改主意了，还是报普拉提"], "普拉提", "瑜伽"),
])
def test_a_choice_switched_replaces_the_old_one_and_its_name(conversation, lang, turns, new, old):
    chat = conversation(lang=lang)
    said(chat, turns)
    assert holding(chat, new) and not holding(chat, old), [(i.subject, i.value) for i in chat.active()]


@pytest.mark.parametrize("lang, text, word", [
    ("en", "and always include the prices", "prices"),
    ("zh", "还有说话别那么啰嗦", "啰嗦"),
])
def test_a_rule_after_a_spoken_opening_is_still_a_rule(conversation, lang, text, word):
    chat = conversation(lang=lang)
    chat.say(text)
    assert [i.kind for i in holding(chat, word)] == ["directive"]


@pytest.mark.parametrize("text, subject", [
    ("想了想还是买iPhone 15", None),  # "还是" is no "X is Y"
    ("因为预算只有5000，所以别太贵", "budget"),  # "因为" is no part of the budget
])
def test_a_word_holding_is_or_a_function_word_names_no_subject(text, subject):
    subjects = [c.subject for c in extract(text)]
    assert not any(s.startswith("fact:") for s in subjects), subjects
    if subject:
        assert subject in subjects, subjects


@pytest.mark.parametrize("rule, drop, dropped", [
    ("以后回答都用要点列出来", "算了，不用列要点了", True),  # 列 and 点 shared; no bigram is (要 is grammar)
    ("以后回答都用要点列出来", "算了，今天不想出门了", False),
])
def test_the_only_rule_is_dropped_by_a_revocation_sharing_its_characters(conversation, rule, drop, dropped):
    chat = conversation(lang="zh")
    chat.say(rule)
    chat.say(drop)
    assert (not chat.active("directive")) is dropped, [(i.status, i.value) for i in chat.store.list_items(chat.sid)]


@pytest.mark.parametrize("lang, turns, moved, gone, budget", [
    ("zh", ["我们下周六带爸妈去杭州玩两天，预算三千左右", "不对，改到周日出发了，预算加到四千"], "周日", "下周六", "四千"),
    ("en", ["We're driving to Denver on june 10, budget about 1.5k",
            "actually we leave june 12 and the budget goes up to 2000"], "june 12", "june 10", "2000"),
])
def test_a_correction_of_a_day_and_an_amount_moves_both(conversation, lang, turns, moved, gone, budget):
    # Under Pilot (round eight) the budget changed and the trip kept its old day.
    chat = conversation(lang=lang)
    said(chat, turns)
    assert holding(chat, moved) and not holding(chat, gone), [(i.subject, i.value) for i in chat.active()]
    assert [i for i in chat.active() if i.subject == "budget" and budget in i.value]
    assert len(chat.active()) == 2
