"""The language knowledge of rule-based extraction, of change resolution and of merging the
model's pass lives in the lexicon (``fact.*``, ``polarity.*``, ``small_talk.*``, ``goal.*``,
``mood.*``, ``answer.*``, ``intent.*``, ``rule.*``, ``kind.*``, ``speech.*``, ``request.*``,
``time.*``, ``address.*``, ``change.*``, ``number.numerals``, ``unit.not_counted``): each cue exists
in both languages, fires where it should and only there, and the code still reads it."""

from __future__ import annotations

import pytest

from desktop_app import lexicon
from desktop_app.memory.write.change_resolution import _LET_GO, _MISTAKEN, _MOVED, _ZH_NUMERALS, _counted, mentions_change
from desktop_app.memory.write.cooperation import _ABOUT_ME, _ABOUT_US, CHANGED, _units, says_changed
from desktop_app.memory.write.extraction import extract
from desktop_app.memory.write.mood import (
    _IMPERATIVE,
    _PERSONAL,
    ASKS,
    RELAYED,
    REPORTED,
    REQUEST,
    USES_VALUE,
    is_hypothetical,
    is_question,
    is_small_talk,
    negated,
)
from desktop_app.memory.write.sentence import (
    _ADDRESSES_RULE,
    _ARTICLE,
    _CHANGE_SPLIT,
    _COPULA,
    _EN_CHANGE,
    _SUBJECT_LEAD,
    CHANGE,
    CHANGE_LEAD,
    CORRECT,
    DATE,
    DECISION,
    FACT_CUES,
    GOAL,
    LIMIT,
    PREFERENCE,
    PROHIBIT,
    REPLY_BEHAVIOUR,
    REVOKE,
    SPECULATION,
    STANDING,
    STEP_DONE,
    classify,
)
from tests.support.lexicon_cases import cue_table_tests

MIGRATED = [name for name, _ in FACT_CUES] + ["polarity.negation", "small_talk.ack", "small_talk.laughter",
                                              "small_talk.greeting", "small_talk.amused", "goal.step_done",
                                              "mood.speculation", "answer.affirm", "answer.deny", "mood.question",
                                              "mood.hypothetical", "intent.revoke", "intent.correct",
                                              "rule.standing", "rule.prohibit", "rule.reply", "rule.limit",
                                              "kind.preference", "kind.decision", "kind.goal", "kind.plan", "kind.trip",
                                              "change.not_old", "clause.split", "speech.reported",
                                              "speech.common", "speech.relayed", "request.ask",
                                              "time.date", "request.uses_value",
                                              "request.task", "address.personal", "mood.imperative",
                                              "change.value", "change.split", "change.lead", "change.subject_lead",
                                              "fact.copula", "address.rule", "change.let_go", "change.mistaken",
                                              "change.moved", "change.said", "address.me", "address.us",
                                              "goal.target", "address.pronoun", "address.named_before",
                                              "name.not", "name.lead", "name.typo",
                                              "food.restriction", "food.refused", "food.allergy", "food.lifted",
                                              "food.everyone", "food.for_guest", "food.avoided", "food.avoided_before",
                                              "plan.cancel", "clause.enumeration", "guard.departure_stated",
                                              "guard.departure_after", "guard.departure_maybe"]
# Concepts one language has no words for (Chinese has no articles, and its changes divide at
# ``change.split``): the entry exists in both, empty in the other.
ONE_LANGUAGE = {"change.verb": "en", "change.article": "en", "number.numerals": "zh", "unit.not_counted": "en",
                "change.kept": "en", "address.nickname": "zh", "name.before": "zh", "mood.indefinite": "zh"}


@pytest.mark.parametrize("name, lang, text, group, value", [
    ("fact.name", "zh", "我叫小明，来自上海", "value", "小明"),
    ("fact.name", "en", "Hi, my name is Ann Lee.", "value", "Ann Lee"),
    ("fact.person_name", "en", "my manager's name is Deborah, I need help", "value", "Deborah"),
    ("fact.person_name", "en", "our new neighbor is called Priya Shah", "subject", "neighbor"),
    ("fact.person_name", "zh", "我们组新来的同事叫小周，负责设计", "value", "小周"),
    ("fact.person_name", "zh", "我房东叫王建国", "subject", "房东"),
    ("fact.person_name", "en", "our new intern is Aiden", "value", "Aiden"),
    ("fact.person_name", "en", "my son's teacher is Mrs. Thompson", "value", "Thompson"),
    ("fact.person_name", "zh", "我们班主任是杨丽老师", "value", "杨丽"),
    ("fact.person_name", "zh", "我的主治医生是马永强", "value", "马永强"),
    ("fact.location", "zh", "我住在北京海淀区。", "value", "北京海淀区"),
    ("fact.location", "en", "I live in Paris, near the river.", "value", "Paris"),
    ("fact.allergy", "zh", "我对花生过敏", "value", "花生"),
    ("fact.allergy", "en", "I'm allergic to shellfish.", "value", "shellfish"),
    ("fact.family_allergy", "en", "Our younger one, Mia, has a tree nut allergy.", "value", "tree nut"),
    ("fact.family_allergy", "en", "My son is allergic to peanuts.", "subject", "son"),
    ("fact.family_allergy", "zh", "我儿子对花生过敏", "value", "花生"),
    ("fact.health", "en", "My dad has high blood pressure, so no salty food.", "value", "high blood pressure"),
    ("fact.health", "zh", "我爸有高血压，香格里拉是不是别去了", "value", "高血压"),
    ("fact.head_count", "en", "There'll be 4 of us: me, my husband Tom, and our two kids.", "value", "4 of us"),
    ("fact.head_count", "zh", "我弟说他也要跟着去，那就5个人了", "value", "5个人"),
    ("fact.diet", "zh", "我吃素", "value", "素"),
    ("fact.diet", "en", "I'm vegetarian", "value", "vegetarian"),
    ("fact.occupation", "zh", "我是一名护士", "value", "护士"),
    ("fact.occupation", "en", "I am a nurse", "value", "nurse"),
    ("fact.occupation", "en", "I work as a welder", "value", "welder"),
    ("fact.occupation", "zh", "我在青岛做会计", "value", "会计"),
    ("fact.name", "en", "I'm Oskar, by the way", "value", "Oskar"),
    ("fact.name", "zh", "我是周婷，多指教", "value", "周婷"),
    ("fact.pets", "en", "my cat Juno hates the vet", "value", "Juno"),
    ("fact.pets", "zh", "我养了条狗叫旺财", "value", "旺财"),
    ("fact.family", "en", "I have two daughters", "value", "two daughters"),
    ("fact.family", "zh", "大宝叫毛毛", "value", "毛毛"),
    ("fact.my_subject", "zh", "我的生日是五月三号", "subject", "生日"),
    ("fact.my_subject", "en", "My favourite colour is green.", "subject", "favourite colour"),
    ("fact.numbered_subject", "zh", "预算应该是5000元", "subject", "预算"),
    ("fact.numbered_subject", "en", "The team size is 12 people", "subject", "team size"),
    ("fact.schedule", "en", "My ferry departs at 9:30 on Monday", "subject", "ferry"),
    ("fact.schedule", "zh", "我后天下午3点的面试", "subject", "面试"),
])
def test_fact_cues_fire_and_name_their_group(name, lang, text, group, value):
    found = lexicon.first_match(name, text, (lang,))
    assert found is not None
    assert found.group(group).strip() == value
    assert lexicon.fires(name, text, (lang,))


@pytest.mark.parametrize("name, lang, text", [
    ("fact.name", "en", "The name of the hotel is unknown."),
    ("fact.allergy", "zh", "花生很好吃"),
    ("fact.allergy", "en", "I love peanuts."),
    ("fact.family_allergy", "en", "Is Mia allergic to nuts?"),
    ("fact.family_allergy", "zh", "我对花生过敏"),
    ("fact.health", "en", "The hotel has a pool."),
    ("fact.health", "zh", "我有两个孩子"),
    ("fact.head_count", "en", "The restaurant seats 40 people."),
    ("fact.head_count", "zh", "这家店能坐40个人"),
    ("fact.diet", "en", "I'm hungry"),
    ("fact.diet", "zh", "我是学生"),
    ("fact.name", "en", "I'm Irish, so tea it is"),
    ("fact.person_name", "en", "my friend called me yesterday"),
    ("fact.person_name", "zh", "同事叫我去吃饭"),
    ("fact.person_name", "zh", "老师叫家长明天去学校"),
    ("fact.person_name", "zh", "我老板是个好人"),
    ("fact.person_name", "zh", "我同事张罗了一桌菜"),
    ("fact.person_name", "zh", "我同事徐鹏今天请假了"),  # a person in passing, not introduced
    ("fact.person_name", "en", "my coworker Dave just bought a Tesla"),
    ("fact.person_name", "en", "my doctor said it's fine"),
    ("fact.name", "zh", "我是学生"),
    ("fact.pets", "en", "my dog is old"),
    ("fact.pets", "zh", "邻居家的狗叫得很凶"),
    ("fact.family", "en", "I have two meetings today"),
    ("fact.family", "zh", "我叫了外卖"),
    ("fact.numbered_subject", "en", "The weather is nice"),
    ("fact.schedule", "en", "My train was late again"),
    ("fact.schedule", "zh", "航班经常延误"),
    ("fact.numbered_subject", "zh", "天气很好"),
])
def test_fact_cues_stay_quiet_elsewhere(name, lang, text):
    assert lexicon.first_match(name, text, (lang,)) is None
    assert not lexicon.fires(name, text, (lang,))


@pytest.mark.parametrize("sentence, subject", [
    ("我对花生过敏", "allergy"),
    ("I'm vegetarian", "diet"),
    ("我叫小明", "name"),
    ("I live in Paris", "location"),
])
def test_extraction_reads_the_fact_cues(sentence, subject):
    candidate = classify(sentence)
    assert candidate is not None
    assert candidate.kind == "fact"
    assert candidate.subject == subject


@pytest.mark.parametrize("lang, text, says_no", [
    ("en", "I don't eat pork", True),
    ("en", "no猪肉 please", True),  # ASCII word edges: a CJK letter next to "no" does not hide it
    ("en", "We are no longer going to Rome", True),
    ("en", "I eat pork", False),
    ("en", "Let's meet at noon in Knottingley", False),  # "no" inside a word is not a no
    ("zh", "我不吃猪肉", True),
    ("zh", "别放香菜", True),
    ("zh", "我吃猪肉", False),
])
def test_negation_fires_per_language(lang, text, says_no):
    assert lexicon.fires("polarity.negation", text, (lang,)) is says_no
    assert negated(text) is says_no


# Sentence → whether a cue fires, per language: one table that grows with each miss.
CUE_CASES = [
    ("intent.revoke", "en", "You can drop the conclusion-first thing now, it's fine either way.", True),
    ("intent.revoke", "zh", "结论先行那个不用了，正常说就行", True),
    ("intent.revoke", "zh", "谢谢，不用了", False),  # declining an offer names no rule
    ("intent.revoke", "en", "Swear words are fine again", True),
    ("intent.revoke", "en", "The weather is fine today", False),
    ("intent.revoke", "zh", "结尾那句鼓励去掉吧", True),
    ("intent.revoke", "zh", "油炸的也可以推荐了", True),
    ("intent.revoke", "zh", "把糖去掉再试试", False),
    ("speech.common", "zh", "我妈常说早睡早起身体好", True),
    ("speech.common", "zh", "结论先行那个不用了，正常说就行", False),  # 正常说 is how to talk, not a saying
    ("small_talk.ack", "en", "Thanks, sounds good!", True),
    ("small_talk.ack", "en", "thanksss", True),  # no word edges: still thanks
    ("small_talk.ack", "en", "The hotel is on Main Street", False),
    ("small_talk.ack", "zh", "谢谢，辛苦了", True),
    ("small_talk.ack", "zh", "预算是5000元", False),
    ("small_talk.laughter", "en", "hahaha lol", True),
    ("small_talk.laughter", "en", "I booked a room", False),
    ("small_talk.laughter", "zh", "哈哈哈哈", True),
    ("small_talk.laughter", "zh", "我们去北京", False),
    ("small_talk.greeting", "en", "good morning", True),
    ("small_talk.greeting", "en", "Thank you", True),
    ("small_talk.greeting", "en", "The hotel is in Paris", False),
    ("small_talk.greeting", "zh", "早上好", True),
    ("small_talk.greeting", "zh", "预算是5000元", False),
    ("small_talk.amused", "en", "so funnyyy", True),  # no word edges: still amused
    ("small_talk.amused", "en", "The show was boring", False),
    ("small_talk.amused", "zh", "笑死我了", True),
    ("small_talk.amused", "zh", "我们去北京", False),
    ("goal.step_done", "en", "I finished the slides", True),
    ("goal.step_done", "en", "The draft is done.", True),
    ("goal.step_done", "en", "The slides are unfinished", False),  # a word inside a word is not the word
    ("goal.step_done", "zh", "PPT做完了", True),
    ("goal.step_done", "zh", "我们明天做PPT", False),
    ("mood.speculation", "en", "Maybe Rome, not sure yet", True),
    ("mood.speculation", "en", "Could be Rome", True),
    ("mood.speculation", "en", "It depends on whether the flights are cheap", True),
    ("mood.speculation", "en", "We are going to Rome", False),
    ("mood.speculation", "en", "I'm at the mighty river", False),
    ("mood.speculation", "zh", "还没决定去哪", True),
    ("mood.speculation", "zh", "我们去罗马", False),
    ("answer.affirm", "en", "yes", True),
    ("answer.affirm", "en", "Okay", True),
    ("answer.affirm", "en", "yesterday", False),  # a word inside a word is not the word
    ("answer.affirm", "zh", "是的", True),
    ("answer.affirm", "zh", "我们去罗马", False),
    ("answer.deny", "en", "nope", True),
    ("answer.deny", "en", "noon", False),
    ("answer.deny", "zh", "算了", True),
    ("answer.deny", "zh", "我们去罗马", False),
    ("mood.question", "en", "What is the budget", True),
    ("mood.question", "en", "Whatever works for you", False),  # the whole word opens the sentence
    ("mood.question", "en", "The budget is 5000", False),
    ("mood.question", "zh", "预算是多少", True),
    ("mood.question", "zh", "你去北京吗", True),
    ("mood.question", "zh", "预算是5000元", False),
    ("mood.hypothetical", "en", "If I had more time, I would go", True),
    ("mood.hypothetical", "en", "I wish we had a car", True),
    ("mood.hypothetical", "en", "It would be great if it rained", True),
    ("mood.hypothetical", "en", "The budget is 5000", False),
    ("mood.hypothetical", "zh", "如果明天下雨", True),
    ("mood.hypothetical", "zh", "明天下雨的话，我们不去", True),
    ("mood.hypothetical", "zh", "音乐的话，我喜欢爵士", False),  # names a topic, supposes nothing
    ("intent.revoke", "en", "Stop using emoji", True),
    ("intent.revoke", "en", "Never mind the rule about bullets", True),
    ("intent.revoke", "en", "Forget my instructions about the tone", True),
    ("intent.revoke", "en", "You don't need to answer in English anymore", True),
    ("intent.revoke", "en", "The stopwatch is broken", False),  # a word inside a word is not the word
    ("intent.revoke", "en", "The budget is 5000", False),
    ("intent.revoke", "zh", "取消之前那条规则", True),
    ("intent.revoke", "zh", "忘记那条", True),
    ("intent.revoke", "zh", "预算是5000元", False),
    ("intent.correct", "en", "Actually, the budget is 6000", True),
    ("intent.correct", "en", "Not Rome but Paris", True),
    ("intent.correct", "en", "That's wrongheaded", True),  # no word edges: "that's wrong" is written as is
    ("intent.correct", "en", "It is factually true", False),
    ("intent.correct", "zh", "不对，预算是6000", True),
    ("intent.correct", "zh", "应该是6000", True),
    ("intent.correct", "zh", "我觉得不对", False),  # "不对" corrects at the start only
    ("rule.standing", "en", "From now on, answer in English", True),
    ("rule.standing", "en", "Always reply briefly", True),
    ("rule.standing", "en", "Going forward, use bullets", True),
    ("rule.standing", "en", "The light is always-on", True),  # "-" is a word edge
    ("rule.standing", "en", "Nevertheless, the budget is 5000", False),  # a word inside a word is not the word
    ("rule.standing", "zh", "以后都用中文回答", True),
    ("rule.standing", "zh", "预算是5000元", False),
    ("rule.prohibit", "en", "Never use emoji", True),
    ("rule.prohibit", "en", "Don't use bullets", True),
    ("rule.prohibit", "en", "I bought a donut", False),
    ("rule.prohibit", "zh", "别再用表情符号", True),
    ("rule.prohibit", "zh", "不要放香菜", True),
    ("rule.prohibit", "zh", "这个特别好吃", False),  # "别" inside "特别" forbids nothing
    ("rule.prohibit", "zh", "我们去北京", False),
    ("rule.reply", "en", "Always reply in English", True),
    ("rule.reply", "en", "Keep answers short", True),  # a word edge at the start only: "answers" is an answer
    ("rule.reply", "en", "Call me Ann", True),
    ("rule.reply", "en", "Use bullets", True),
    ("rule.reply", "en", "The stone is heavy", False),  # a word inside a word is not the word
    ("rule.reply", "en", "Rewrite the draft", False),
    ("rule.reply", "zh", "以后都用英文回答", True),
    ("rule.reply", "zh", "用中文", True),
    ("rule.reply", "zh", "我们去北京", False),
    ("rule.limit", "en", "My budget is at most 5000 dollars", True),
    ("rule.limit", "en", "Finish it by Friday", True),
    ("rule.limit", "en", "The maximum is 12 people", True),
    ("rule.limit", "en", "I bought a minimal lamp", False),
    ("rule.limit", "en", "The bypass is closed", False),
    ("rule.limit", "zh", "预算不超过5000元", True),
    ("rule.limit", "zh", "周五之前完成", True),
    ("rule.limit", "zh", "我们去北京", False),
    ("kind.preference", "en", "I really prefer window seats", True),
    ("kind.preference", "en", "I'd rather fly", True),
    ("kind.preference", "en", "I likely will come", False),  # a word inside a word is not the word
    ("kind.preference", "zh", "我更喜欢靠窗的座位", True),
    ("kind.preference", "zh", "我倾向坐火车", True),
    ("kind.preference", "zh", "他喜欢猫", False),  # the user's own liking only
    ("kind.decision", "en", "Let's go with Rome", True),
    ("rule.prohibit", "en", "I'm not flying with them ever again", True),
    ("rule.prohibit", "en", "Not again, the printer jammed", False),
    ("rule.prohibit", "zh", "那家店我再也不去了", True),
    ("rule.prohibit", "zh", "再也不会有这么好的机会了", False),
    ("kind.decision", "zh", "那就定青岛吧", True),
    ("kind.trip", "en", "We're flying to Oslo next week", True),
    ("kind.trip", "en", "We're flying over the Alps", False),
    ("kind.trip", "zh", "周末想带爸妈去黄山", True),
    ("kind.trip", "zh", "他想去北京", False),
    ("kind.plan", "en", "I'm hosting a dinner on Friday", True),
    ("kind.plan", "en", "Planning is the hard part", False),
    ("kind.plan", "zh", "打算学游泳", True),
    ("kind.plan", "zh", "学游泳难不难", False),
    ("kind.decision", "en", "We'll use Python", True),
    ("kind.decision", "en", "We will use Python", True),
    ("kind.decision", "en", "We are undecided to a point", False),
    ("kind.decision", "zh", "我们决定去罗马", True),
    ("kind.decision", "zh", "我们去北京", False),
    ("kind.goal", "en", "My goal is to finish the report", True),
    ("kind.goal", "en", "Help me plan a trip", True),
    ("kind.goal", "en", "Help me planet", False),
    ("kind.goal", "zh", "帮我规划一下行程", True),
    ("kind.goal", "zh", "我想写一本书", True),
    ("kind.goal", "zh", "我们去北京", False),
    ("speech.reported", "en", 'She said: "always reply in English"', True),
    ("speech.reported", "en", "he said 'no emoji'", True),
    ("speech.reported", "en", "My mother keeps saying I should rest", True),
    ("speech.reported", "en", "The threads are loose", False),  # a word inside a word is not the word
    ("speech.reported", "en", "She said no", False),  # no quotation mark
    ("speech.reported", "zh", "他说：“以后用中文”", True),
    ("speech.reported", "zh", "邮件里说不要迟到", True),
    ("speech.reported", "zh", "他说以后用中文", False),
    ("speech.reported", "en", "my brother texted me: 'never trust a cheap tent'", True),
    ("speech.reported", "en", "I texted my brother about the tent", False),
    ("speech.reported", "zh", "我哥发来一句：'别买便宜帐篷'", True),
    ("speech.reported", "zh", "我发了一个帐篷的链接给他", False),
    ("speech.common", "en", "Everyone says so", True),
    ("speech.common", "en", "Everyone says sooo", False),
    ("speech.common", "zh", "我妈常说要早睡", True),
    ("speech.common", "zh", "我们去北京", False),
    ("speech.relayed", "en", "My boss told me to answer in English", True),
    ("speech.relayed", "en", "The sign said no diving", True),
    ("speech.relayed", "en", "I think the sign said no diving", False),  # "the … said" opens the sentence
    ("speech.relayed", "en", "I said no", False),
    ("speech.relayed", "zh", "老板说要加班", True),
    ("speech.relayed", "zh", "我觉得老板说得对", False),  # at the start only
    ("request.ask", "en", "Can you plan it within my budget?", True),
    ("request.ask", "en", "Please write it", True),
    ("request.ask", "en", "pleased to meet you", False),
    ("request.ask", "en", "Bookings are closed", False),
    ("request.ask", "en", "I will book it", False),  # at the start only
    ("request.ask", "zh", "请按我的预算规划", True),
    ("request.ask", "zh", "我想请你帮忙", False),  # at the start only
    ("time.date", "en", "The meeting is on Sept. 12", True),
    ("time.date", "en", "Due 2025-06-01", True),
    ("time.date", "en", "Dismay 3 times", False),  # a word inside a word is not the word
    ("time.date", "en", "We meet in May", False),
    ("time.date", "zh", "5月3日之前完成", True),
    ("time.date", "zh", "周五开会", True),
    ("time.date", "zh", "周末去爬山", False),
    ("request.uses_value", "en", "Plan it within my usual budget", True),
    ("request.uses_value", "en", "Pick one that fits our style", True),
    ("request.uses_value", "en", "It is within their budget", False),
    ("request.uses_value", "en", "Within my budgetary rules", False),
    ("request.uses_value", "zh", "按我的预算推荐几家酒店", True),
    ("request.uses_value", "zh", "我的预算是5000元", False),
    ("request.task", "en", "Could you draft a reply", True),
    ("request.task", "en", "The room is drafty", False),  # a word inside a word is not the word
    ("request.task", "zh", "按预算推荐几家酒店", True),
    ("request.task", "zh", "预算是5000元", False),
    ("address.personal", "en", "Our budget is 5000", True),
    ("address.personal", "en", "Traffic is always terrible", False),
    ("address.personal", "en", "The minefield is closed", False),  # "mine" inside a word is no "mine"
    ("address.personal", "zh", "请用中文", True),
    ("address.personal", "zh", "交通总是很堵", False),
    ("mood.imperative", "en", "Always reply briefly", True),
    ("mood.imperative", "en", "Make sure to add sources", True),
    ("mood.imperative", "en", "Traffic is always terrible", False),  # at the start only
    ("mood.imperative", "en", "Note the time", False),  # "no" inside a word is no "no"
    ("mood.imperative", "zh", "以后用中文", True),
    ("mood.imperative", "zh", "算了，还是用英文", True),
    ("mood.imperative", "zh", "全部用中文写", True),
    ("mood.imperative", "zh", "交通总是很堵", False),
    ("change.value", "en", "Change it to 8000", True),
    ("change.value", "en", "Now we go with Rome instead", True),
    ("change.value", "en", "The budget is 8000", False),
    ("change.value", "zh", "预算改成8000", True),
    ("change.value", "zh", "预算是8000", False),
    ("change.split", "en", "The budget is 6000", True),
    ("change.split", "en", "It should be 5", True),
    ("change.split", "en", "Listen to this", False),  # a word inside a word is not the word
    ("change.split", "zh", "预算应该是6000", True),
    ("change.split", "zh", "预算不变", False),
    ("change.verb", "en", "Set the budget to 6000", True),
    ("change.verb", "en", "I set off early", False),
    ("change.verb", "zh", "把预算改成6000", False),  # empty in Chinese
    ("change.lead", "en", "Actually, 6000", True),
    ("change.lead", "en", "Sorry, 6000", True),
    ("change.lead", "en", "The budget is 6000", False),
    ("change.lead", "zh", "不对，6000", True),
    ("change.lead", "zh", "预算是6000", False),
    ("change.subject_lead", "en", "Let's make it 6000", True),
    ("change.subject_lead", "en", "Budget 6000", False),
    ("change.subject_lead", "zh", "把预算改成6000", True),
    ("change.subject_lead", "zh", "预算改成6000", False),
    ("change.article", "en", "The budget", True),
    ("change.article", "en", "A budget", False),
    ("change.article", "zh", "预算", False),  # empty in Chinese
    ("fact.copula", "en", "The budget is 5000", True),
    ("fact.copula", "en", "This island", False),  # a word inside a word is not the word
    ("fact.copula", "zh", "预算是5000", True),
    ("fact.copula", "zh", "预算5000", False),
    ("address.rule", "en", "Can you stop answering in English?", True),
    ("address.rule", "en", "Stop doing that?", True),
    ("address.rule", "en", "Can you stop the music?", False),
    ("address.rule", "zh", "可以不用英文回答吗？", True),
    ("address.rule", "zh", "可以停一下吗？", False),
    ("change.let_go", "en", "Switch back to English", True),
    ("change.let_go", "en", "Emojis are fine again", True),
    ("change.let_go", "en", "I don't need it anymore", True),
    ("change.let_go", "en", "Go back home", False),
    ("change.let_go", "zh", "正常写就行", True),
    ("change.let_go", "zh", "还是用中文吧", True),
    ("change.let_go", "zh", "用中文写", False),
    ("change.mistaken", "en", "I got that wrong", True),
    ("change.mistaken", "en", "I mixed up the dates", True),
    ("change.mistaken", "en", "My mistakes", True),  # a word edge at the start only
    ("change.mistaken", "en", "Nothing went wrongly", False),  # a word inside a word is not the word
    ("change.mistaken", "zh", "之前搞错了", True),
    ("change.mistaken", "zh", "预算是5000", False),
    ("change.moved", "en", "Stretch it to 2500", True),
    ("change.moved", "en", "Bumped it up to 3000", True),
    ("change.moved", "en", "Setup to 5", False),
    ("change.moved", "zh", "现在72.5了", True),
    ("change.moved", "zh", "体重72.5", False),
    ("number.numerals", "zh", "三室两厅", True),
    ("number.numerals", "zh", "零", False),  # zero counts nothing, as when written in the code
    ("number.numerals", "en", "three rooms", False),  # empty in English
    ("change.said", "en", "So 9 of us now", True),
    ("change.said", "en", "The venue can only take 120", True),
    ("change.said", "en", "Nowhere to park", False),  # a word inside a word is not the word
    ("change.said", "zh", "一共35人", True),
    ("change.said", "zh", "最后定在周五", True),
    ("change.said", "zh", "我们有30人", False),
    ("address.me", "en", "I'm vegetarian", True),
    ("address.me", "en", "The team is vegetarian", False),
    ("address.me", "en", "Imagine that", False),  # a word inside a word is not the word
    ("address.me", "zh", "我吃素", True),
    ("address.me", "zh", "我们吃素", False),  # "我" inside "我们" is the group
    ("address.us", "en", "We are 14 people", True),
    ("address.us", "en", "Wear a hat", False),
    ("address.us", "zh", "我们一共14人", True),
    ("address.us", "zh", "我吃素", False),
    ("unit.not_counted", "en", "from 3 to 5", True),
    ("unit.not_counted", "en", "150 guests", False),
    ("unit.not_counted", "zh", "35人", False),  # empty in Chinese
    ("goal.target", "en", "I weigh 180 and want to get down to 160", True),
    ("goal.target", "en", "I need to reach the gym by 7", False),
    ("goal.target", "zh", "我现在体重140斤，想减到125", True),
    ("goal.target", "zh", "导师要求参考文献至少30篇", False),
    ("change.kept", "en", "Actually keep the budget at 1500", True),
    ("change.kept", "en", "We leave at 7 from the airport", False),
    ("change.kept", "zh", "预算还是按1500", False),  # empty in Chinese
    ("address.pronoun", "en", "she", True),
    ("address.pronoun", "en", "Priya", False),
    ("address.pronoun", "zh", "她", True),
    ("address.pronoun", "zh", "小雨", False),
    ("address.named_before", "en", "Change of plan: Priya told me ", True),
    ("address.named_before", "en", "Change of plan: told me ", False),
    ("address.named_before", "zh", "小雨说", True),
    ("address.named_before", "zh", "我觉得", False),
    ("address.nickname", "zh", "小雨", True),
    ("address.nickname", "zh", "今天中午", False),
    ("address.nickname", "en", "Priya", False),  # empty in English: a name has its capital
    ("name.not", "en", "it's Kathryn not Katherine", True),
    ("name.not", "en", "Nothing changed", False),
    ("name.not", "zh", "是李炜，不是李伟", True),
    ("name.not", "zh", "是李炜", False),
    ("name.typo", "en", "ugh typo, Katy", True),
    ("name.typo", "en", "sorry autocorrect, it's Debra", True),
    ("name.typo", "en", "the types of tea", False),
    ("name.typo", "zh", "手滑打错了，是李纳", True),
    ("name.typo", "zh", "打电话给他", False),
    ("name.lead", "en", "it's John", True),
    ("name.lead", "en", "John it is", False),
    ("name.lead", "zh", "应该是小邹", True),
    ("name.lead", "zh", "小邹", False),
    ("name.before", "zh", "你可以叫我小周", True),
    ("name.before", "zh", "小周来了", False),
    ("name.before", "en", "call me Jon", False),  # empty in English
    ("food.restriction", "en", "Jake has a shellfish allergy", True),
    ("food.restriction", "en", "Jake loves shrimp", False),
    ("food.restriction", "zh", "我妈不吃辣", True),
    ("food.restriction", "zh", "我妈爱吃辣", False),
    ("food.refused", "en", "Grandma doesn't eat pork", True),
    ("food.refused", "en", "I'm vegetarian", False),
    ("food.refused", "zh", "我对虾过敏", True),
    ("food.refused", "zh", "我吃素", False),
    ("food.allergy", "en", "a severe peanut allergy", True),
    ("food.allergy", "en", "Priya is vegan", False),
    ("food.allergy", "zh", "对花生过敏", True),
    ("food.allergy", "zh", "我吃素", False),
    ("food.lifted", "en", "Turns out I'm not allergic to shrimp after all", True),
    ("food.lifted", "en", "I don't eat meat anymore", False),
    ("food.lifted", "zh", "其实我对虾不过敏", True),
    ("food.lifted", "zh", "我现在吃素，不再吃肉了", False),
    ("food.everyone", "en", "a menu for the whole table, Priya included", True),
    ("food.everyone", "en", "For everyone else, grilled chicken", False),
    ("food.everyone", "zh", "大家都能吃", True),
    ("food.everyone", "zh", "给小雨单独做一份", False),
    ("food.for_guest", "en", "a lentil dish for your vegetarian guest", True),
    ("food.for_guest", "en", "Priya will love them", False),
    ("food.for_guest", "zh", "给吃素的表妹做个豆腐煲", True),
    ("food.for_guest", "zh", "小雨很喜欢", False),
    ("food.avoided", "en", "Avoid anything with shellfish, like shrimp", True),
    ("food.avoided", "en", "Check out the shrimp tacos", False),
    ("food.avoided", "zh", "点菜时避开这些：虾、蟹", True),
    ("food.avoided", "zh", "不要错过这家的烤鸭", False),
    ("food.avoided_before", "en", "make sure nothing has ", True),
    ("food.avoided_before", "en", "Garlic ", False),
    ("food.avoided_before", "zh", "没有", True),
    ("food.avoided_before", "zh", "不错的选择是", False),
    ("plan.cancel", "en", "actually cancel the dentist thing", True),
    ("plan.cancel", "en", "the Friday dinner isn't happening", True),
    ("plan.cancel", "en", "I am not getting enough sleep lately", False),
    ("plan.cancel", "en", "not going to lie, I'm dreading it", False),
    ("plan.cancel", "zh", "银行那个不去了", True),
    ("plan.cancel", "zh", "货拉拉取消了", True),
    ("plan.cancel", "zh", "今天健身房不去了 太累", False),
    ("clause.enumeration", "en", "ages 5 and 8", True),
    ("clause.enumeration", "en", "agenda is full", False),
    ("clause.enumeration", "zh", "一个5岁", True),
    ("clause.enumeration", "zh", "酒店是丽思卡尔顿", False),
    ("mood.indefinite", "zh", "什么都行", True),
    ("mood.indefinite", "zh", "我妈开始研究穿什么拍照了", True),
    ("mood.indefinite", "zh", "为什么都要带身份证", False),
    ("mood.indefinite", "zh", "十个人要点几个菜", False),
    ("guard.departure_stated", "en", "Departure date: ", True),
    ("guard.departure_stated", "en", "you leave on ", True),
    ("guard.departure_stated", "en", "Check out and leave the hotel on ", False),
    ("guard.departure_stated", "en", "Book your flight by ", False),
    ("guard.departure_stated", "zh", "出发日期：", True),
    ("guard.departure_stated", "zh", "返程航班是", False),
    ("guard.departure_after", "en", " departure works", True),
    ("guard.departure_after", "en", ": leave Kyoto early", False),
    ("guard.departure_after", "zh", "出发比较好", True),
    ("guard.departure_after", "zh", "返程", False),
    ("guard.departure_maybe", "en", "If you depart on July 22 instead, fares drop.", True),
    ("guard.departure_maybe", "en", "You depart on July 22.", False),
    ("guard.departure_maybe", "zh", "如果10月3号出发会便宜些", True),
    ("guard.departure_maybe", "zh", "你10月3号出发", False),
]


test_every_migrated_cue_is_in_both_languages, test_a_one_language_cue_is_empty_in_the_other, \
    test_each_cue_fires_where_it_should_and_only_there = cue_table_tests(MIGRATED, ONE_LANGUAGE, CUE_CASES)


@pytest.mark.parametrize("text, small", [
    ("Thanks, sounds good!", True),
    ("hahaha thanks!", True),
    ("哈哈哈，谢谢！太好了", True),
    ("谢谢 thanks 😂", True),
    ("Thanks! My budget is 5000 dollars.", False),
    ("哈哈，我的预算是5000元", False),
])
def test_small_talk_reads_the_lexicon(text, small):
    assert is_small_talk(text) is small


@pytest.mark.parametrize("text, small", [
    ("Good night!", True),  # a greeting, the whole message
    ("晚安。", True),
    ("hahaha so funny, I can't stop", True),  # amused, at the start of what is left
    ("哈哈哈，太好笑了，我要分享给朋友", True),
    ("Good night, and my budget is 5000 dollars", False),
    ("I said it was so funny, my budget is 5000", False),  # "so funny" not at the start
    ("这个笑话笑死了，我的预算是5000元", False),
])
def test_small_talk_reads_greetings_and_amusement_from_the_lexicon(text, small):
    assert is_small_talk(text) is small


# Extraction's compiled patterns read the lexicon: a pattern, a sentence, whether it matches.
PATTERN_CASES = [
    (STEP_DONE, "I finished the slides", True),
    (SPECULATION, "I finished the slides", False),
    (STEP_DONE, "PPT已完成", True),
    (SPECULATION, "PPT已完成", False),
    (STEP_DONE, "Maybe Rome", False),
    (SPECULATION, "Maybe Rome", True),
    (STEP_DONE, "Could be Rome", False),
    (SPECULATION, "Could be Rome", True),
    (STEP_DONE, "It could be Rome", False),
    (SPECULATION, "It could be Rome", False),  # "could be" speculates only at the start
    (STEP_DONE, "Rome\ncould be nice", False),
    (SPECULATION, "Rome\ncould be nice", False),  # … of the sentence, not of a line
    (STEP_DONE, "也许去罗马", False),
    (SPECULATION, "也许去罗马", True),
    (REVOKE, "Stop using emoji", True),
    (CORRECT, "Stop using emoji", False),
    (REVOKE, "不用再用英文回答了", True),
    (CORRECT, "不用再用英文回答了", False),
    (REVOKE, "Actually, the budget is 6000", False),
    (CORRECT, "Actually, the budget is 6000", True),
    (REVOKE, "不对，预算是6000", False),
    (CORRECT, "不对，预算是6000", True),
    (REVOKE, "好的\n不对", False),
    (CORRECT, "好的\n不对", False),  # "不对" opens the sentence, not a line
    (REVOKE, "The stopwatch is broken", False),
    (CORRECT, "The stopwatch is broken", False),
    (STANDING, "From now on, answer in English", True),
    (PROHIBIT, "From now on, answer in English", False),
    (STANDING, "以后都用中文回答", True),
    (PROHIBIT, "以后都用中文回答", False),
    (STANDING, "Never use emoji in replies", True),
    (PROHIBIT, "Never use emoji in replies", True),
    (STANDING, "别再用表情符号", False),
    (PROHIBIT, "别再用表情符号", True),
    (STANDING, "这个特别好吃", False),
    (PROHIBIT, "这个特别好吃", False),
    (STANDING, "The budget is 5000", False),
    (PROHIBIT, "The budget is 5000", False),
    (REPLY_BEHAVIOUR, "Always reply in English", True),
    (LIMIT, "Always reply in English", False),
    (REPLY_BEHAVIOUR, "以后都用英文回答", True),
    (LIMIT, "以后都用英文回答", False),
    (REPLY_BEHAVIOUR, "My budget is at most 5000 dollars", False),
    (LIMIT, "My budget is at most 5000 dollars", True),
    (REPLY_BEHAVIOUR, "预算不超过5000元", False),
    (LIMIT, "预算不超过5000元", True),
    (REPLY_BEHAVIOUR, "The bypass is closed", False),
    (LIMIT, "The bypass is closed", False),
    (PREFERENCE, "I really prefer window seats", True),
    (DECISION, "I really prefer window seats", False),
    (GOAL, "I really prefer window seats", False),
    (PREFERENCE, "我更喜欢靠窗的座位", True),
    (DECISION, "我更喜欢靠窗的座位", False),
    (GOAL, "我更喜欢靠窗的座位", False),
    (PREFERENCE, "Let's go with Rome", False),
    (DECISION, "Let's go with Rome", True),
    (GOAL, "Let's go with Rome", False),
    (PREFERENCE, "就用这个方案", False),
    (DECISION, "就用这个方案", True),
    (GOAL, "就用这个方案", False),
    (PREFERENCE, "Help me plan a trip to Rome", False),
    (DECISION, "Help me plan a trip to Rome", False),
    (GOAL, "Help me plan a trip to Rome", True),
    (PREFERENCE, "帮我规划一下行程", False),
    (DECISION, "帮我规划一下行程", False),
    (GOAL, "帮我规划一下行程", True),
    (PREFERENCE, "The planet is big", False),
    (DECISION, "The planet is big", False),
    (GOAL, "The planet is big", False),
    (REPORTED, 'She said: "always reply in English"', True),
    (RELAYED, 'She said: "always reply in English"', True),
    (REQUEST, 'She said: "always reply in English"', False),
    (REPORTED, "Everyone says so", True),
    (RELAYED, "Everyone says so", False),
    (REQUEST, "Everyone says so", False),
    (REPORTED, "这话谁信", True),
    (RELAYED, "这话谁信", False),
    (REQUEST, "这话谁信", False),
    (REPORTED, "My boss told me to answer in English", False),
    (RELAYED, "My boss told me to answer in English", True),
    (REQUEST, "My boss told me to answer in English", False),
    (REPORTED, "老板说要加班", False),
    (RELAYED, "老板说要加班", True),
    (REQUEST, "老板说要加班", False),
    (REPORTED, "Can you plan it within my budget?", False),
    (RELAYED, "Can you plan it within my budget?", False),
    (REQUEST, "Can you plan it within my budget?", True),
    (REQUEST, "OK\nplease write it", False),  # "please" opens the sentence, not a line
    (RELAYED, "OK\nthe sign said no", False),
    (REPORTED, "帮我写一封邮件", False),
    (RELAYED, "帮我写一封邮件", False),
    (REQUEST, "帮我写一封邮件", True),
    (DATE, "Finish it by May 3", True),
    (USES_VALUE, "Finish it by May 3", False),
    (DATE, "5月3日之前完成", True),
    (USES_VALUE, "5月3日之前完成", False),
    (DATE, "Plan it within my budget", False),
    (USES_VALUE, "Plan it within my budget", True),
    (DATE, "按我的预算推荐几家酒店", False),
    (USES_VALUE, "按我的预算推荐几家酒店", True),
    (DATE, "The dismay 3 times over", False),
    (USES_VALUE, "The dismay 3 times over", False),
    (_IMPERATIVE, "Always reply briefly", True),
    (_PERSONAL, "Always reply briefly", False),
    (ASKS, "Always reply briefly", False),
    (_IMPERATIVE, "Please list our options", True),
    (_PERSONAL, "Please list our options", True),
    (ASKS, "Please list our options", True),
    (_IMPERATIVE, "OK\nalways reply briefly", False),  # an imperative opens the sentence, not a line
    (_IMPERATIVE, "把它换成蓝色", True),
    (_PERSONAL, "把它换成蓝色", False),
    (ASKS, "把它换成蓝色", False),
    (_IMPERATIVE, "帮我推荐一家酒店", False),
    (_PERSONAL, "帮我推荐一家酒店", True),
    (ASKS, "帮我推荐一家酒店", True),
    (_IMPERATIVE, "Traffic is always terrible", False),
    (_PERSONAL, "Traffic is always terrible", False),
    (ASKS, "Traffic is always terrible", False),
    (CHANGE, "Change it to 8000", True),
    (CHANGE, "预算改成8000", True),
    (CHANGE, "The budget is 8000", False),
    (_CHANGE_SPLIT, "The budget is 8000", True),
    (_CHANGE_SPLIT, "预算应该是8000", True),
    (_CHANGE_SPLIT, "预算8000", False),
    (_EN_CHANGE, "Set the budget to 6000", True),
    (_EN_CHANGE, "Set the budget to 6000\nok", False),  # the value runs to the end of the sentence
    (_EN_CHANGE, "把预算改成6000", False),
    (_COPULA, "The budget is 5000", True),
    (_COPULA, "预算为5000", True),
    (_COPULA, "预算：5000", True),  # a colon, in either width
    (_COPULA, "This island", False),
    (_ADDRESSES_RULE, "Can you stop answering in English?", True),
    (_ADDRESSES_RULE, "可以不用英文回答吗？", True),
    (_ADDRESSES_RULE, "Can you stop the music?", False),
    (CHANGE_LEAD, "Actually, the budget is 6000", True),
    (CHANGE_LEAD, "不对，预算是6000", True),
    (CHANGE_LEAD, "The budget is actually 6000", False),  # at the start only
    (_SUBJECT_LEAD, "Please make it 6000", True),
    (_SUBJECT_LEAD, "把预算改成6000", True),
    (_SUBJECT_LEAD, "预算改成6000", False),
    (_ARTICLE, "the budget", True),
    (_ARTICLE, "budget", False),
    (_ARTICLE, "theme", False),  # a space follows
    (_LET_GO, "Emojis are fine again", True),
    (_LET_GO, "正常写就行", True),
    (_LET_GO, "The fine print", False),
    (_MISTAKEN, "I got that wrong", True),
    (_MISTAKEN, "之前搞错了", True),
    (_MISTAKEN, "Nothing went wrongly", False),
    (_MOVED, "Stretch it to 2500", True),
    (_MOVED, "现在72.5了", True),
    (_MOVED, "Go to bed", False),
    (_ZH_NUMERALS, "三室两厅", True),
    (_ZH_NUMERALS, "3 rooms", False),
    (CHANGED, "So 9 of us now", True),
    (CHANGED, "一共35人", True),
    (CHANGED, "Totally fine, 5 people", False),
    (_ABOUT_ME, "I'm vegetarian", True),
    (_ABOUT_US, "I'm vegetarian", False),
    (_ABOUT_ME, "我们一共14人", False),
    (_ABOUT_US, "我们一共14人", True),
]


@pytest.mark.parametrize("pattern, text, fires", PATTERN_CASES)
def test_extraction_patterns_read_the_lexicon(pattern, text, fires):
    assert (pattern.search(text) is not None) is fires


@pytest.mark.parametrize("text, action", [
    ("Yes.", "confirm"),
    ("okay!", "confirm"),
    ("好的。", "confirm"),
    ("是的", "confirm"),
    ("Nope", "reject"),
    ("don't!", "reject"),
    ("不是", "reject"),
    ("算了！", "reject"),
])
def test_a_whole_yes_or_no_confirms_or_rejects(text, action):
    assert [c.action for c in extract(text)] == [action]


@pytest.mark.parametrize("text", ["yes please, my budget is 5000", "yes!!", "No, the budget is 5000", "不是5000，是6000"])
def test_yes_or_no_inside_a_longer_message_is_no_answer(text):
    assert all(c.action not in ("confirm", "reject") for c in extract(text))


@pytest.mark.parametrize("text, question", [
    ("What is the budget", True),
    ("预算是多少", True),
    ("你去北京吗", True),
    ("The budget is 5000", False),
    ("So what is the budget", False),  # the interrogative opens the sentence …
    ("Fine\nwhat is the budget", False),  # … not a line
    ("预算是5000元", False),
])
def test_extraction_reads_the_question_cues(text, question):
    assert is_question(text) is question


@pytest.mark.parametrize("text, hypothetical", [
    ("If I had more time, I would go to Rome", True),
    ("Suppose the budget is 5000", True),
    ("要是有车就好了", True),
    ("如果明天下雨，我们就不去", True),
    ("The budget is 5000", False),
    ("Fine\nif so, the budget is 5000", False),  # "if" opens the sentence, not a line
    ("音乐的话，我喜欢爵士", False),
])
def test_extraction_reads_the_hypothetical_cues(text, hypothetical):
    assert is_hypothetical(text) is hypothetical


@pytest.mark.parametrize("sentence, action", [
    ("Stop using emoji", "revoke"),
    ("取消之前那条规则", "revoke"),
    ("Actually, the budget is 6000", "correct"),
    ("不对，预算是6000", "correct"),
])
def test_a_revocation_or_correction_is_classified_so(sentence, action):
    candidate = classify(sentence)
    assert candidate is not None
    assert candidate.action == action


@pytest.mark.parametrize("sentence, subject, value", [
    ("Actually, the budget is 6000", "budget", "budget: 6000"),
    ("不对，预算应该是6000", "budget", "预算: 6000"),
    ("把预算改成8000", "budget", "预算: 8000"),
    ("Let's change the venue to the park", "fact:venue", "venue: the park"),
])
def test_a_change_divides_into_what_changes_and_its_new_value(sentence, subject, value):
    candidate = classify(sentence)
    assert candidate is not None
    assert candidate.action == "correct"
    assert (candidate.subject, candidate.value) == (subject, value)


@pytest.mark.parametrize("text, changes", [
    ("We got a bonus, so 2800 is okay now", True),
    ("Stretch it to 2500", True),
    ("之前搞错了，是三室", True),
    ("正常写就行", True),
    ("My mistake?", False),  # a question says nothing changed
    ("The budget is 5000", False),
])
def test_change_resolution_reads_the_change_cues(text, changes):
    assert mentions_change(text) is changes


@pytest.mark.parametrize("quote, changed", [
    ("So 9 of us now", True),
    ("一共35人", True),
    ("moved it to 11:40", True),  # change.value, read by extraction
    ("Totally fine, 5 people", False),
    ("我们有30人", False),
])
def test_cooperation_reads_the_words_that_say_a_value_changed(quote, changed):
    assert says_changed(quote) is changed


def test_words_beside_a_number_that_count_nothing_are_no_unit():
    assert _units("3 to 5 guests, 10 am, 35人") == {"guests", "人"}


def test_chinese_numerals_count_as_numbers():
    assert _counted("三室两厅 12") == {"三", "两", "12"}
    assert _counted("零〇亿") == set()


@pytest.mark.parametrize("sentence, revokes", [
    ("Can you stop answering in English?", True),  # a question that names the rule it revokes
    ("取消之前那条规则吗？", True),
    ("Can you stop the music?", False),
])
def test_a_revocation_asked_as_a_question_names_what_it_revokes(sentence, revokes):
    candidate = classify(sentence)
    assert (candidate is not None and candidate.action == "revoke") is revokes


@pytest.mark.parametrize("sentence, kind", [
    ("From now on, answer in English", "directive"),
    ("以后都用中文回答", "directive"),
    ("Don't put pork in anything", "constraint"),  # "I don't eat pork" is a diet fact
    ("不要放香菜", "constraint"),
])
def test_a_standing_rule_or_prohibition_is_classified_so(sentence, kind):
    candidate = classify(sentence)
    assert candidate is not None
    assert candidate.action == "add"
    assert candidate.kind == kind


@pytest.mark.parametrize("sentence, kind, subject", [
    ("Always reply in English", "directive", "language"),
    ("以后都用英文回答", "directive", "language"),
    ("My budget is at most 5000 dollars", "constraint", "budget"),
    ("预算不超过5000元", "constraint", "budget"),
])
def test_a_reply_rule_or_limit_is_classified_so(sentence, kind, subject):
    candidate = classify(sentence)
    assert candidate is not None
    assert (candidate.kind, candidate.subject) == (kind, subject)


@pytest.mark.parametrize("sentence, kind", [
    ("I'd rather fly", "preference"),
    ("我倾向坐火车", "preference"),
    ("Let's go with Rome", "decision"),
    ("我们决定去罗马", "decision"),
    ("My goal is to finish the report", "goal"),
    ("我想写一本书", "goal"),
])
def test_a_preference_decision_or_goal_is_classified_so(sentence, kind):
    candidate = classify(sentence)
    assert candidate is not None
    assert candidate.action == "add"
    assert candidate.kind == kind

