"""The reply checks (memory.reply_health): pure, no model, both languages."""

from __future__ import annotations

import pytest

from desktop_app.memory.reply_health import (
    check_reply,
    degenerate,
    degenerate_opening,
    expected_language,
    reply_language,
    worth_retry,
)
from desktop_app.memory.scaffolding import pasted_notes, scaffolding_in, without_scaffolding


def kinds(reply: str, **kwargs) -> set[str]:
    kwargs.setdefault("user_text", "帮我安排一个5天的大理行程")
    return {f.kind for f in check_reply(reply, **kwargs)}


@pytest.mark.parametrize("reply", [
    "【关键】 请提供您的旅行计划，我将帮助您安排和执行。",
    "提醒——与本条消息相关的规则： #3 [constraint] 机票和住宿: 我们的总预算是8000元",
    "请按这些当前的数值回答（旧的数值已不再适用）：预算12000元",
    "[记忆：“以后每次回答都先给结论”已被 #? 取代：“?”]",
    "Memory state v4 (authoritative; newest wins): #2 [fact] name: Li Wei",
    "【关键】From now on, always answer in one short paragraph（第2轮）",
    "You said at 2026-12-03 13:58 that the budget is 8000.",
    "As noted at turn 3, the budget changed.",
    "在第1轮的回忆中，预算是8000元。",
    "Here is the quote: <<< text >>>",
    "The user's standing rules for your replies (follow them without mentioning them): be short.",
    "你了解的用户和当前任务的情况（以最新的为准）：预算12000元。",
    "The task at hand: flight: 7 days; still undecided: date: July 14.",
    "当前任务：规划大理之行。",
    "之后有变化（以此为准）：旅行: 5天（原为 我们一家四口去大理玩5天），花生过敏。",
])
def test_the_prompts_scaffolding_is_found_in_either_language(reply):
    assert scaffolding_in(reply) is not None
    assert "scaffolding" in kinds(reply)


@pytest.mark.parametrize("reply", [
    "The key to a good trip is rest: plan two slow days in Dali.",
    "Day 1: arrive in Dali, walk the old town. Day 2: Erhai lake by bike.",
    "第一天：到达大理古城，晚上逛人民路。第二天：环洱海骑行。",
    "Use #1 grade paper, or see section 2.3.",
    "预算12000元够用：机票4000，住宿3000，其余吃喝玩乐。",
    "The task at hand is simple: book the flights first.",
    "我们当前任务是订酒店。",
])
def test_ordinary_answers_carry_no_scaffolding(reply):
    assert scaffolding_in(reply) is None


def test_a_retry_avoids_the_replies_a_first_attempt_stopped_early_was_copying(store, settings):
    from desktop_app.chat import pipeline_for
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.turn import RecordedInput

    pipeline = pipeline_for(store, settings, counter=fallback_counter(), n_ctx=4096)
    session = store.session_named("s")
    long_reply = "Sure! Let's set up the itinerary step by step: 1. Choose your accommodation near the old town. " * 5
    for text, reply in (("plan Lisbon", long_reply), ("4 of us", "Four people fit a two-bedroom flat.")):
        recorded = pipeline.record_input(store.get_session(session.id), text)
        pipeline.record_reply(store.get_session(session.id), reply)
    recorded = RecordedInput(session=store.get_session(session.id),
                             message=pipeline.record_input(store.get_session(session.id), "budget 5000").message)
    assert pipeline.similar_replies(recorded, long_reply[:60]) == [long_reply]


def test_a_near_copy_of_an_earlier_reply_is_degenerate_and_a_short_repeat_is_not():
    first = "请提供您的旅行计划，我将帮助您安排和执行。"
    findings = check_reply(first + "！", user_text="预算改成12000", earlier_replies=["第一天去古城。", first])
    assert "copy" in {f.kind for f in findings}
    assert degenerate(findings)
    assert not degenerate(check_reply("好的！", user_text="谢谢", earlier_replies=["好的！"]))
    fresh = "Day 1: Lisbon old town; day 2: Sintra by train; day 3: the coast at Cascais."
    assert "copy" not in kinds(fresh, user_text="plan 3 days", earlier_replies=["Porto is lovely in May."])


def test_an_echo_of_the_users_message_is_degenerate():
    message = "Plan a simple dinner for my family of four"
    assert "echo" in kinds("Plan a simple dinner for my family of four.", user_text=message)
    assert "echo" not in kinds("A simple dinner for four: lentil soup, bread and a salad.", user_text=message)
    # A short question echoed back word for word (the 0.5B did this in a real Chinese session).
    assert "echo" in kinds("手冲咖啡怎么做？", user_text="手冲咖啡怎么做？")
    assert "echo" not in kinds("好的", user_text="好的")
    # hc-zh-02, round six: a short question said back word for word, then a value pasted after it.
    asked = "我刚才说谁过敏来着？对什么过敏？我怕记混了"
    assert "echo" in kinds("我刚才说谁过敏来着？对什么过敏？\n\n预算: 1200", user_text=asked)
    assert "echo" not in kinds("是表妹小雨，她对虾过敏，很严重。", user_text=asked)
    rule = "Oh, one thing: from now on please give me the conclusion first, then the details."
    assert "echo" in kinds("Oh, one thing: From now on please give me the conclusion first, then the details. Sure!",
                           user_text=rule)
    assert "echo" in kinds("Oh, one thing: From now on please give me the conclusion first, then the details. Sure!",
                           user_text="Mia has a tree nut allergy. Is eating out going to be a nightmare?",
                           earlier_messages=["We fly on July 14.", rule])


def test_the_reply_language_follows_the_turn_or_a_language_rule():
    assert reply_language("第一天去大理古城，第二天环洱海。") == "zh"
    assert reply_language("Day one in the old town, day two around the lake.") == "en"
    assert reply_language("OK") is None
    assert "language" in kinds("Day one in the old town, day two around the lake.", expected_lang="zh")
    assert expected_language("帮我安排行程", [], "en") == "zh"
    assert expected_language("plan my trip", ["以后都用中文回答我"], "en") == "zh"
    assert expected_language("帮我安排行程", ["Always answer in English from now on"], "zh") == "en"
    assert expected_language("ok", [], "zh") == "zh"


def test_a_reply_that_only_asks_for_what_memory_holds_is_no_answer():
    assert "promise" in kinds("请提供您的旅行计划，我将帮助您安排。", memory_held=True)
    assert "promise" in kinds("Sure! Please provide your budget and dates.", user_text="plan it", memory_held=True)
    assert "promise" not in kinds("请提供您的旅行计划，我将帮助您安排。", memory_held=False)
    # A Pilot walk: memory held the party, the 0.5B said it knew nothing of it.
    assert "promise" in kinds("I'm sorry, but I don't have any information about the dinner party you mentioned.",
                              user_text="Priya is vegetarian and Jake is allergic to nuts", memory_held=True)
    assert "promise" in kinds("抱歉，我没有关于晚宴的信息。", user_text="小美吃素", memory_held=True)
    assert "promise" not in kinds("Sorry to hear that. Let's plan around it: a nut-free menu.", memory_held=True)
    long_answer = "第一天到大理古城。" * 20 + "请告诉我你们喜欢什么。"
    assert "promise" not in kinds(long_answer, memory_held=True)


def test_an_empty_reply_is_found_and_is_not_degenerate():
    findings = check_reply("  …  ", user_text="hi")
    assert [f.kind for f in findings] == ["empty"]
    assert not degenerate(findings)
    assert [f.kind for f in check_reply("OK", user_text="hi")] == ["empty"]


@pytest.mark.parametrize("reply, user_text", [
    ("One thing.", "Our younger one, Mia, has a tree nut allergy. Is eating out in Portugal going to be a nightmare?"),
    ("好的。", "还有我妈一点辣都不能吃，吃饭的时候要注意，你帮我看看哪些菜可以点"),
])
def test_a_word_or_two_for_a_long_message_is_empty(reply, user_text):
    assert [f.kind for f in check_reply(reply, user_text=user_text)] == ["empty"]


@pytest.mark.parametrize("reply, user_text", [("You are welcome!", "haha thanks"), ("好的。", "谢谢"), ("Yes, sure.", "ok?")])
def test_a_short_reply_to_a_short_message_is_an_answer(reply, user_text):
    assert "empty" not in [f.kind for f in check_reply(reply, user_text=user_text)]


@pytest.mark.parametrize("reply", ["July 14", "14 July.", "5 people", "10月1号"])
def test_a_short_answer_with_a_number_is_an_answer(reply):
    assert "empty" not in [f.kind for f in check_reply(reply, user_text="What was the flight date I said again?")]


@pytest.mark.parametrize("reply", ["I'm sorry, but I can't assist with that.", "抱歉，我无法协助完成这个请求。",
                                   # bench health run N: not knowing what the user plainly named
                                   "I'm sorry, I don't know which flight date you meant to say again.",
                                   "抱歉，我不知道你指的是哪一条。"])
def test_a_short_refusal_of_an_ordinary_request_is_degenerate(reply):
    findings = check_reply(reply, user_text="There'll be 4 of us, flying out July 14.")
    assert [f.kind for f in findings] == ["refusal"]
    assert degenerate(findings)


def test_the_memory_notes_pasted_back_are_scaffolding_but_a_summary_using_them_is_not():
    from desktop_app.memory.reply_health import check_reply

    notes = ["列表: 以后都用列表回答我", "虾过敏: 我表妹小雨对虾过敏，很严重那种，虾一定不能有", "家庭: 12个人"]
    pasted = "好的。列表: 以后都用列表回答我；虾过敏: 我表妹小雨对虾过敏，很严重那种，虾一定不能有。"
    kinds = [f.kind for f in check_reply(pasted, user_text="帮我想想菜单", expected_lang="zh", notes=notes)]
    assert kinds == ["scaffolding"]
    summary = "最终方案：一共12个人，所有菜都不放虾（小雨对虾过敏），菜单按列表写在下面。\n- 红烧鱼\n- 白切鸡"
    assert check_reply(summary, user_text="总结一下", expected_lang="zh", notes=notes) == []
    en_notes = ["budget: 8000 dollars", "party size: 5 people"]
    assert [f.kind for f in check_reply("budget: 8000 dollars; party size: 5 people.", user_text="Plan it",
                                        expected_lang="en", notes=en_notes)] == ["scaffolding"]


def test_a_translation_is_answered_in_the_language_asked_for():
    """Seen in a real session: "请翻译成英文：…" answered in English was retried as the wrong language."""
    from desktop_app.memory.reply_health import asks_for_translation

    assert asks_for_translation("请翻译成英文：以后每次都用日语回答。")
    assert asks_for_translation("How do you say 'good morning' in Chinese?")
    assert not asks_for_translation("帮我安排一个5天的大理行程")
    assert "language" not in kinds("From now on, always answer in Japanese.", user_text="请翻译成英文：以后每次都用日语回答。",
                                   expected_lang=None)


@pytest.mark.parametrize("user_text, reply", [
    ("Hi! I'm planning a family trip to Lisbon this summer and could use some help getting it organised.",
     "Hi! I'm planning a family trip to Lisbon this summer and could use some help organizing it. We're thinking 7 days."),
    ("帮我规划一下带爸妈去云南玩的行程呗，我们想轻松一点，别太赶",
     "帮我规划一下带爸妈去云南玩的行程，我们想轻松一点，别太赶。第一天到昆明，第二天去大理古城慢慢逛。"),
])
def test_a_reply_that_opens_with_the_users_message_reworded_is_an_echo(user_text, reply):
    assert "echo" in [f.kind for f in check_reply(reply, user_text=user_text)]
    assert degenerate_opening(reply, user_text=user_text) is not None


def test_a_reply_that_takes_up_the_users_words_is_no_echo():
    user_text = "Which neighbourhoods in Lisbon are good to stay in with two kids and a grandmother?"
    reply = "Good neighbourhoods in Lisbon for kids and a grandmother: Baixa (flat, central) and Parque das Nações."
    assert "echo" not in [f.kind for f in check_reply(reply, user_text=user_text)]
    assert degenerate_opening(reply, user_text=user_text) is None


@pytest.mark.parametrize("reply, kept", [
    ("Sure, I can adjust the budget. Here is how: hard limits: budget 6,500 euros. Enjoy Lisbon!",
     "Sure, I can adjust the budget. Enjoy Lisbon!"),
    ("In this reply, keep to: instead: 6,500 euros.", ""),
    ("当前任务：帮我规划行程。\n\n1. 住宿：选大理古城。\n2. 预算 8000 元。", "1. 住宿：选大理古城。\n2. 预算 8000 元。"),
    ("Version 1.5 is fine. See #3 [fact] there.", "Version 1.5 is fine."),
    ("Nothing to cut here. 这里也没有。", "Nothing to cut here. 这里也没有。"),
])
def test_without_scaffolding_leaves_out_only_the_sentences_holding_labels(reply, kept):
    assert without_scaffolding(reply) == kept


@pytest.mark.parametrize("reply, notes, user_text", [
    ("Our younger one, Mia, has a tree nut allergy. Cashews, almonds, all of it. Budget is about €5,000.",
     ["tree nut allergy: Our younger one, Mia, has a tree nut allergy", "Cashews, almonds, all of it"],
     "Which neighbourhoods are good with kids?"),
    ("From now on please give me the conclusion first, then the details. Our younger one, Mia, has a tree nut "
     "allergy.", ["from now on please give me the conclusion first, then the details",
                  "Our younger one, Mia, has a tree nut allergy"], "Is eating out hard?"),
    ("好的。我们一共4个人，我、我老公，还有我爸妈\n- 人多了预算也加点吧，2.5万",
     ["人数: 我们一共4个人，我、我老公，还有我爸妈", "人多了预算也加点吧，2.5万"], "大理和丽江选哪个？"),
])
def test_notes_pasted_one_after_another_are_scaffolding_whatever_stands_between(reply, notes, user_text):
    from desktop_app.memory.reply_health import check_reply

    assert "scaffolding" in {f.kind for f in check_reply(reply, user_text=user_text, notes=notes)}


@pytest.mark.parametrize("reply, notes, user_text", [
    ("Budget 6,500 euros for 5 people, 7 days in Lisbon.", ["budget: 6,500 euros", "5 people", "7 days"],
     "Which neighbourhoods are good with kids?"),
    ("Final plan:\n- Our younger one, Mia, has a tree nut allergy\n- Cashews, almonds, all of it",
     ["tree nut allergy: Our younger one, Mia, has a tree nut allergy", "Cashews, almonds, all of it"],
     "Okay, summarise all my constraints and give me the final plan."),
    ("最终方案：\n- 我们一共4个人，我、我老公，还有我爸妈\n- 人多了预算也加点吧，2.5万",
     ["我们一共4个人，我、我老公，还有我爸妈", "人多了预算也加点吧，2.5万"], "好，把我所有要求总结一下，给我最终方案"),
])
def test_short_values_in_a_row_and_a_summary_listing_the_notes_are_answers(reply, notes, user_text):
    from desktop_app.memory.reply_health import check_reply

    assert "scaffolding" not in {f.kind for f in check_reply(reply, user_text=user_text, notes=notes)}


@pytest.mark.parametrize("reply", [
    "5. The user asked for everything: name each of these current values in the reply",
    "本次回复请注意：回复里要逐一写出这些当前的值。",
])
def test_the_guards_correction_pasted_back_is_scaffolding(reply):
    assert scaffolding_in(reply) is not None


def test_the_line_the_program_adds_to_a_summary_is_not_scaffolding():
    from desktop_app.prompts import guard_text

    for lang in ("en", "zh"):
        assert scaffolding_in(guard_text(lang)["recap"] + "\n- 5 people") is None
        assert scaffolding_in(guard_text(lang)["still_open"] + "\n- 鱼要不要整条蒸") is None


@pytest.mark.parametrize("reply, user_text", [
    ("1200", "人少了那预算就压到1200吧"),
    ("虾过敏", "我表妹小雨对虾过敏，很严重那种，虾一定不能有"),
    ("8 people", "My aunt's family can't come, so we're 8 people now."),
])
def test_a_piece_of_the_message_said_back_is_an_echo(reply, user_text):
    assert [f.kind for f in check_reply(reply, user_text=user_text)] == ["echo"]


@pytest.mark.parametrize("reply, user_text", [
    # run M, hc-zh-02: the clause after the questions, said back as the whole reply.
    ("我怕记混了。", "我刚才说谁过敏来着？对什么过敏？我怕记混了"),
    ("I always mix them up.", "Who was allergic to what again? I always mix them up."),
    ("老人腿脚不太好，不想太折腾", "大理和丽江选一个还是都去？老人腿脚不太好，不想太折腾"),
])
def test_a_told_clause_of_a_question_said_back_is_an_echo(reply, user_text):
    assert [f.kind for f in check_reply(reply, user_text=user_text)] == ["echo"]


@pytest.mark.parametrize("reply, user_text", [
    ("小雨对虾过敏。", "我刚才说谁过敏来着？对什么过敏？我怕记混了"),
    ("Sesame, it's Mia.", "Who was allergic to what again? I always mix them up."),
    ("Porto, for the quiet.", "Lisbon or Porto? Porto is quieter, I hear."),
])
def test_an_answer_made_of_other_words_than_the_told_clause_is_no_echo(reply, user_text):
    assert "echo" not in [f.kind for f in check_reply(reply, user_text=user_text)]


@pytest.mark.parametrize("reply, user_text", [("Lisbon", "Lisbon or Porto?"), ("小雨", "我刚才说谁过敏来着？"),
                                              ("好的", "好的")])
def test_a_word_of_a_question_or_a_whole_short_message_is_no_echo(reply, user_text):
    assert "echo" not in [f.kind for f in check_reply(reply, user_text=user_text)]


@pytest.mark.parametrize("reply", [
    # bench health hc-en-01, round five: the 0.5B said the retry's line back, reworded.
    "Note for this response: say something new in a sentence and do not repeat earlier reply; the trip is set.",
    "Acknowledge it in a sentence: I'm sorry, but the task at hand is already complete.",
    "下次回复请注意：说点新，不要重复之前的回答；你已经告诉过我的情况不要再问，直接给予具体建议。",
    # Run M, hc-zh-01's final plan: a six-character piece of the retry's line as a bullet.
    "### 结论：\n\n- 用一句话确认\n- 10月1号出发，玩6天",
    # Run Q (round fourteen), hc-en-01 turn 9: the line reworded, a sentence of its own before the rest.
    "Acknowledge it in a new sentence and say what it creates for the plan. With her coming we can stretch the budget "
    "even further, let's say €7,000 instead.",
])
def test_the_retry_line_said_back_reworded_is_scaffolding(reply):
    assert scaffolding_in(reply)
    assert without_scaffolding(reply) != reply


@pytest.mark.parametrize("reply", [
    "Let me give you a concrete suggestion: stay in Baixa, it is flat.",
    "Sure! Here's a plan: day 1 Alfama, day 2 Belem.",
    "我会用一句话回答你：可以去。",
    "好的，已经确认：现在是5个人，预算要相应增加。",
])
def test_an_answer_using_a_phrase_of_the_retry_line_is_no_scaffolding(reply):
    assert scaffolding_in(reply) is None


def test_the_message_said_back_cut_short_is_an_echo():
    # bench health hc-zh-02, round five: similarity 0.78, under the 0.8 of a near-copy.
    ask = "今年年夜饭轮到我家做，有点慌，帮我想想菜单"
    assert [f.kind for f in check_reply("今年年夜饭轮到我家做，有点慌。", user_text=ask)] == ["echo"]
    assert not check_reply("年夜饭别慌：凉菜四个，热菜六个，再来一条鱼。", user_text=ask)


@pytest.mark.parametrize("reply, looped", [
    ("新情况：我要计划一次带爸妈去云南玩。人数：4个人，60多，60多，60多，60多，60多，60多，60多，60多。", True),
    ("Here is the plan: Lisbon Lisbon Lisbon Lisbon Lisbon Lisbon Lisbon.", True),
    ("| a | b | c | d | e |\n|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 |", False),
    ("- **Day 1**: Alfama\n- **Day 2**: Belém\n- **Day 3**: Sintra\n- **Day 4**: Cascais\n- **Day 5**: rest", False),
    ("第一天：大理古城。第二天：洱海。第三天：丽江。第四天：玉龙雪山。第五天：返程。", False),
])
def test_a_reply_saying_one_piece_over_and_over_is_a_loop(reply, looped):
    findings = check_reply(reply, user_text="帮我规划一下" if "的" in reply else "Plan it please")
    assert any(f.kind == "loop" for f in findings) is looped, findings
    if looped:
        assert degenerate(findings) and worth_retry(findings)


def test_a_chinese_word_inside_an_english_reply_is_the_wrong_language():
    """Seen under Pilot: "…with an initial预算 of 800 euros" to an English message."""
    user = "Actually make the budget 1000. What should we eat there?"
    assert "language" in kinds("We have an initial预算 of 800 euros for the weekend in Porto.", user_text=user,
                               expected_lang="en")
    assert "language" not in kinds("We have a budget of 1000 euros for the weekend in Porto.", user_text=user,
                                   expected_lang="en")
    # A name the user wrote in Chinese is theirs to quote; a Chinese reply may hold English words.
    assert "language" not in kinds("Try the dumplings at 鼎泰丰 on your first evening, they're famous.",
                                   user_text="We're going to 鼎泰丰 in Taipei, what should we order?", expected_lang="en")
    assert "language" not in kinds("第一天去大理古城，晚上可以找一家有Wi-Fi的客栈。", expected_lang="zh")


@pytest.mark.parametrize("reply, lang", [
    ("Dear [Wife's Name],\n\nI'm writing to plan our weekend in Porto with a budget of 1000 euros.\n\n"
     "Best regards,\n[Your Name]", "en"),
    ("尊敬的[收件人]：\n\n我们计划五一去大理玩五天，预算五千元。\n\n此致\n[您的名字]", "zh"),
])
def test_a_letter_with_blanks_to_fill_is_asked_for_once_more(reply, lang):
    """Seen under Pilot: every English reply of the 0.5B was a letter, "Dear [Wife's Name], …"."""
    from desktop_app.memory.reply_health import retry_note, worth_retry

    user = "Plan our weekend in Porto, the budget is 1000 euros." if lang == "en" else "五一去大理玩五天，预算五千。"
    findings = check_reply(reply, user_text=user, expected_lang=lang)
    # (The letter says the message back in its own words too: an echo, kept out of the history.)
    assert {f.kind for f in findings} == {"template", "echo"}
    assert worth_retry(findings)
    assert retry_note(findings, user, lang)
    assert "template" not in kinds("Use [brackets] for citations, like [1].", user_text="How do I cite?", expected_lang="en")


@pytest.mark.parametrize("reply", [
    "菜单: 有点慌，帮我想想菜单。",
    "菜单: 有点慌，帮我想想菜单；人数：12个人（原为 大概12个人，老老少少都有）；people: 老老少少都有。",
    "菜预算: 1500内。",
])
def test_labelled_notes_said_back_a_word_off_are_the_notes_pasted(reply):
    """bench health hc-zh-02 (round seven): the 0.5B answered most turns with the briefing's labelled
    notes, a character changed here and there, which the verbatim check missed."""
    notes = ["年夜饭: 今年年夜饭轮到我家做，有点慌，帮我想想菜单", "菜单: 有点慌，帮我想想菜单", "head count: 12个人",
             "people: 老老少少都有", "菜预算: 1500以内"]
    assert "scaffolding" in kinds(reply, user_text="还有我奶奶牙口不好，得有几个软烂的菜", expected_lang="zh", notes=notes)
    # An answer laid out with labels of its own is an answer.
    assert "scaffolding" not in kinds("凉菜: 拍黄瓜、凉拌木耳；热菜: 红烧肉、清蒸鲈鱼、蒜蓉西兰花", user_text="几个凉菜几个热菜？",
                                      expected_lang="zh", notes=notes)


@pytest.mark.parametrize("reply, user_text, kind", [
    ("Okay, here's a new and concise version of your response:\n\n**New Info:**\n\nOur younger one Mia has a tree nut "
     "allergy. Cashews, almonds, all of it.\n\nIs eating out going to be a problem?",
     "Oh, our younger one Mia has a tree nut allergy. Cashews, almonds, all of it. Is eating out going to be a problem?",
     "echo"),
    ("Here's the revised response:\n\n**Plan:** a day trip to Sintra with the kids, the budget stays €6,500.",
     "Is a day trip to Sintra worth it with kids?", "scaffolding"),
    ("以下是修改后的回答：第一天去大理古城，第二天环洱海。", "帮我安排一下大理的行程", "scaffolding"),
    ("好的，我会尽量不重复之前的回答。第一天去古城。", "帮我安排一下大理的行程", "scaffolding"),
    ("好的！补充信息：我表妹小雨对虾过敏，很严重那种，虾一定不能有。那菜单就去掉白灼虾，换成清蒸鲈鱼。",
     "我表妹小雨对虾过敏，很严重那种，虾一定不能有", "echo"),
])
def test_a_retry_answering_its_note_or_saying_the_message_back_inside_is_no_answer(reply, user_text, kind):
    """bench health round eight: retried, the 0.5B wrote "Here's the revised response: **New Info:**"
    and the user's message, which the echo check (the whole, or its opening) let through."""
    assert kind in kinds(reply, user_text=user_text, expected_lang=None)


@pytest.mark.parametrize("reply, user_text", [
    ("Eating out is fine: tell the waiter 'alergia a frutos secos' and skip almond pastries.",
     "Oh, our younger one Mia has a tree nut allergy. Cashews, almonds, all of it. Is eating out going to be a problem?"),
    ("Here's the full final plan with all your constraints summarised: Lisbon, 7 days, €6,500.",
     "Great. Give me the full final plan with all my constraints summarised."),
])
def test_an_answer_using_words_of_the_message_is_no_echo(reply, user_text):
    assert not kinds(reply, user_text=user_text, expected_lang="en") & {"echo", "scaffolding"}


def test_the_mark_before_an_old_value_is_scaffolding():
    """bench health round eight, hc-zh-01 t12: "人数：5个人（原为 我弟说他也要跟着去，那就5个人了）"."""
    assert "scaffolding" in kinds("好的，以下是结论：人数：5个人（原为 我弟说他也要跟着去，那就5个人了）。", expected_lang="zh")
    assert "scaffolding" not in kinds("原为了省钱才选的民宿，现在预算够了可以换酒店。", expected_lang="zh")


@pytest.mark.parametrize("reply, said, user_text, lang", [
    # bench health round eight, hc-en-01 t13: the reply to a change of dates was a clause the user
    # wrote four turns before.
    ("Let's say €6,500 instead.", "With her coming we can stretch the budget a bit. Let's say €6,500 instead.",
     "Tom checked and flights are cheaper if we leave July 21 instead.", "en"),
    ("人多了预算也加点吧。", "人多了预算也加点吧，2.5万，住好一点的酒店", "还有我妈一点辣都不能吃", "zh"),
])
def test_a_reply_that_is_a_piece_of_an_earlier_message_is_an_echo(reply, said, user_text, lang):
    assert "echo" in kinds(reply, user_text=user_text, expected_lang=lang, earlier_messages=[said])
    answer = {"en": "Leaving July 21 works: the €6,500 budget still covers 7 days.",
              "zh": "好的，2.5万够五个人住市中心的酒店，吃饭都点不辣的菜。"}[lang]
    assert "echo" not in kinds(answer, user_text=user_text, expected_lang=lang, earlier_messages=[said])


@pytest.mark.parametrize("reply", [
    # bench health round eight (hc-zh-02): English words in the 0.5B's Chinese replies.
    "现在，年夜饭：今年过年在家做了，有点忙。帮我想想menu。",
    "虾可能会对 my饮食造成什么直接影响？建议减少海鲜。",
    "带爸妈人数为5个人（including我、我老公和爸妈），行程放慢一些。",
])
def test_an_english_word_inside_a_chinese_reply_is_the_wrong_language(reply):
    assert "language" in kinds(reply, expected_lang="zh")


@pytest.mark.parametrize("reply, user_text", [
    ("可以用app订票，酒店连wifi也方便。", "怎么订票方便？"),
    ("推荐用 Airbnb 订房，离地铁近。", "住哪里好？"),
    ("早上9:00 am 出发，下午去洱海。", "第一天怎么安排？"),
    ("蛋糕就选 tiramisu 吧，不含坚果。", "甜点做 tiramisu 还是芝士蛋糕？"),
])
def test_latin_letters_chinese_writes_itself_or_the_user_wrote_are_no_wrong_language(reply, user_text):
    assert "language" not in kinds(reply, user_text=user_text, expected_lang="zh")


@pytest.mark.parametrize("reply, lang", [
    # bench health run G (round nine), hc-en-01 t12 and t13: the retry's line said back as the answer.
    ("Let's say something new: acknowledge the changes.", "en"),
    ("Let's say something new: we're planning a family trip to Lisbon this summer.", "en"),
    ("好的，说点新的：我们计划去云南玩六天。", "zh"),
])
def test_the_retry_line_said_back_as_the_answer_is_no_answer(reply, lang):
    assert "scaffolding" in kinds(reply, expected_lang=lang)
    assert "scaffolding" not in kinds("Something new on the list: the Oceanário opens at 10." if lang == "en"
                                      else "新开的餐厅不错，可以说点新鲜的话题。", expected_lang=lang)


@pytest.mark.parametrize("reply, user_text, retried", [
    ("12人", "大概12个人，老老少少都有", True),  # run H: said twice to what the user told
    ("5", "How many of us are going?", False),  # a number alone answers "how many?"
    ("Noted.", "The budget must stay under 5000 dollars.", False),  # an acknowledgement is an answer
    # Round twenty-four (bench health G4, hc-en-03): a word or two to a long message is no answer either.
    ("Full-service movers", "Should we hire full-service movers or just a man-and-van?", True),
    ("Biscuit, packing herself", "lol Biscuit just climbed into an empty box, she's packing herself", True),
    ("Sure!", "Thanks!", False),
    # Round twenty-five (G8, hc-zh-04): no word at all to a remark of some length.
    ("ok", "哈哈好难，看你的英文我都要查词典", True),
    ("ok", "lol my cat just knocked my coffee over again", True),
])
def test_a_number_alone_to_a_message_that_only_tells_is_asked_for_again(reply, user_text, retried):
    from desktop_app.memory.reply_health import worth_retry

    assert worth_retry(check_reply(reply, user_text=user_text)) is retried


def test_the_same_number_said_again_is_a_copy():
    # Run H, hc-zh-02: "12人" to six messages in a row, each seeing the last in its history.
    findings = check_reply("12人", user_text="凉菜几个比较合适？", earlier_replies=["好的，记下了。", "12人"])
    assert [f.kind for f in findings] == ["copy"] and degenerate(findings)
    assert [f.kind for f in check_reply("12人", user_text="几个人？", earlier_replies=["好的。"])] == ["empty"]


@pytest.mark.parametrize("reply, user_text, earlier, copied", [
    # Run I, hc-zh-02: "菜单更新了。" to five messages in a row.
    ("菜单更新了。", "我刚才说谁过敏来着？对什么过敏？", ["好的。", "菜单更新了。"], True),
    ("Menu updated.", "Who had the allergy again?", ["Menu updated."], True),
    ("菜单更新了。", "我刚才说谁过敏来着？", ["菜单更新了。", "好的。"], False),  # not the last one
    ("OK!", "thanks!", ["OK!"], False),  # small talk answered alike is fine
    ("好的，已记下。", "预算改成6000元。", ["好的，已记下。"], False),  # and so is what the user tells
    # A third time in a row, it says nothing of what was told (run I: "菜单更新了。" to "大概12个人").
    ("菜单更新了。", "大概12个人，老老少少都有", ["菜单更新了。", "菜单更新了。"], True),
    ("Got it.", "We're 10 people now.", ["Got it.", "Got it."], True),
    ("好的，已记下。", "预算改成6000元。", ["好的，已记下。", "好的。"], False),
])
def test_the_same_short_reply_again_is_a_copy(reply, user_text, earlier, copied):
    kinds = [f.kind for f in check_reply(reply, user_text=user_text, earlier_replies=earlier)]
    assert ("copy" in kinds) is copied, kinds


@pytest.mark.parametrize("reply, user_text, earlier, said, kind", [
    # Run J, hc-zh-01: an earlier reply again, sentence by sentence, a word changed (no whole reply 0.8 alike).
    ("好的，我们将按照以下步骤进行：首先，我们需要考虑天气条件、预算等因素，还要考虑到当地的文化特色与习俗。",
     "我弟说他也要跟着去，那就5个人了",
     ["大理和丽江都是很好的选择。在旅行过程中，我们不仅要考虑天气条件、预算等因素。",
      "好的，根据您的要求，我们已经为您规划了一个带爸妈去云南玩行程。我们将按照以下步骤进行：首先，我们需要考虑天气条件、"
      "预算等因素，还要考虑到当地的文化特色与习俗。对于老人来说，大理更轻松。"], [], "copy"),
    # Run I, hc-en-02: the same numbered list as two replies back, under a new opening.
    ("Okay, here are some additional details:\n1. **Choose a Date**: Choose the same date as Priya's birthday.\n"
     "2. **Send Invitations**: Send invitations to all your guests a week ahead.",
     "We're at 10 people now.",
     ["Sure, here are some additional suggestions:\n1. **Choose a Date**: Choose a date that's convenient for all.\n"
      "2. **Send Invitations**: Send the invitations to all your guests a week ahead.", "A mocktail works."], [], "copy"),
    # Run I, hc-zh-01: the message said back in the model's words.
    ("根据你的描述，我妈一点辣都不能吃，吃饭的时候要注意。", "还有我妈一点辣都不能吃，吃饭的时候要注意",
     ["好的。"], [], "echo"),
    ("So your mom cannot eat anything spicy at all, and meals need care.",
     "Also my mom can't eat anything spicy at all, meals need care", [], [], "echo"),
    # An earlier message of the user's said back to a new one.
    ("我们一共4个人，我、我和他俩都60多了。", "打算国庆去，10月1号出发，玩6天", [],
     ["我们一共4个人，我、我老公，还有我爸妈，他俩都60多了"], "echo"),
])
def test_a_reply_mostly_said_before_is_no_answer(reply, user_text, earlier, said, kind):
    found = [f for f in check_reply(reply, user_text=user_text, earlier_replies=earlier, earlier_messages=said)]
    assert kind in {f.kind for f in found}, found
    assert degenerate(found)


@pytest.mark.parametrize("reply, user_text, earlier, said", [
    # A new answer that shares one sentence with an earlier reply says something new.
    ("对于老人来说，大理更轻松。香格里拉海拔3300米，高血压的人最好别去，可以换成洱海边的慢行。",
     "对了我爸有高血压，香格里拉那种海拔高的是不是就别去了？", ["对于老人来说，大理更轻松。"], []),
    ("Alfama is hilly. Stay in Baixa or Chiado instead: flat streets, near the metro and trams.",
     "OK, Alfama sounds cute but I'm not hauling suitcases up those hills", ["Alfama is hilly."], []),
    # "What did I say?" is answered with the user's earlier words.
    ("你之前说的是打算国庆去，10月1号出发，玩6天。", "我之前说的几号出发来着？", [], ["打算国庆去，10月1号出发，玩6天"]),
    ("You said the flight is on July 14, and we stay 7 days.", "What date did I say for the flight?", [],
     ["The flight is on July 14, and we stay 7 days."]),
    # "What did you recommend?" is answered with the earlier reply's words.
    ("我刚才推荐的是洱海边的双廊古镇，安静，适合老人慢慢走。", "你刚才推荐的那个地方叫什么？",
     ["我推荐洱海边的双廊古镇，安静，适合老人慢慢走。"], []),
    # A summary of everything restates what was said.
    ("最终方案：10月1号出发，玩6天。一共5个人，预算2.5万。我妈一点辣都不能吃。", "好，把我所有要求总结一下，给我最终方案",
     ["一共5个人，预算2.5万。"], ["我妈一点辣都不能吃"]),
    # Thanks may get the same thanks back.
    ("不客气，祝你们玩得开心！", "谢谢！", ["不客气，祝你们玩得开心！有需要再找我。"], []),
])
def test_a_reply_that_repeats_a_sentence_for_a_reason_is_an_answer(reply, user_text, earlier, said):
    found = check_reply(reply, user_text=user_text, earlier_replies=earlier, earlier_messages=said)
    assert not {f.kind for f in found} & {"copy", "echo"}, found


@pytest.mark.parametrize("reply, user_text", [
    # Run K, hc-zh-02: the question said back under an opening that says nothing.
    ("根据您的描述，几个凉菜和热菜比较合适。", "几个凉菜几个热菜比较合适？"),
    ("根据您的描述，奶奶牙口不好，得几个软烂的菜。", "还有我奶奶牙口不好，得有几个软烂的菜"),
    ("Based on the information provided, Alfama sounds cute but you're not hauling suitcases up those hills.",
     "OK, Alfama sounds cute but I'm not hauling suitcases up those hills lol"),
])
def test_a_message_said_back_under_an_empty_opening_is_an_echo(reply, user_text):
    assert "echo" in {f.kind for f in check_reply(reply, user_text=user_text)}


def test_a_short_answer_mirroring_a_yes_or_no_question_is_an_answer():
    assert not check_reply("当然，鱼不需要整条蒸。", user_text="鱼要不要整条蒸？年年有余嘛")


PACKING = ("1. 帐篷和睡袋，每人一个防潮垫。\n2. 头灯和备用电池，手机充电宝。\n3. 防晒霜、驱蚊液和急救包。\n"
           "4. 保暖外套，山里晚上会冷。")
ITINERARY = "Day 1: the old town and the Baixa by tram.\nDay 2: Belém and the river walk.\nDay 3: Sintra by train."


@pytest.mark.parametrize("reply, user_text, earlier, said", [
    # A question's answer may mirror the question (review: "Yes,", "No," and "是的，" are answers).
    ("No, you don't need a visa for Portugal.", "Do I need a visa for Portugal?", [], []),
    ("No, the Louvre is closed on Tuesdays.", "Is the Louvre open on Tuesdays?", [], []),
    ("是的，鱼可以提前一天腌好。", "鱼可以提前一天腌好吗？", [], []),
    ("对，高铁上可以带充电宝。", "高铁上可以带充电宝吗？", [], []),
    ("嗯，故宫周一是闭馆的。", "故宫周一是闭馆的吗？", [], []),
    ("Yes, you mentioned Mia is allergic to tree nuts.", "Did I mention that Mia is allergic to tree nuts?", [], []),
    # … or give back what the user told.
    ("你们预算是两万五，10月1号出发。", "我们预算是多少？", [], ["预算两万五", "10月1号出发"]),
    ("你妈妈一点辣都不能吃。其他人没有忌口。", "有谁有忌口吗？", [], ["我妈一点辣都不能吃"]),
    # A closing any reply has is not what makes a new answer a copy.
    ("喜洲粑粑很好吃。希望对你有帮助！如果还有其他问题，随时告诉我！", "大理有什么小吃？",
     ["洱海边骑车很舒服。希望对你有帮助！如果还有其他问题，随时告诉我！"], []),
    ("The train from Lisbon takes about 3 hours. Let me know if you'd like me to adjust anything!",
     "How long is the train to Porto?", ["Sintra is an easy day trip. Let me know if you'd like me to adjust anything!"], []),
    # A plan changed as asked repeats most of the last one.
    (PACKING + "\n5. 烧烤架、木炭和烤串签子。", "再加上烧烤要用的东西", [PACKING], []),
    (ITINERARY.replace("Day 3: Sintra by train.", "Day 3: Cascais by the sea, no hills."),
     "My parents can't do hills, change day 3 of the plan to something easy", [ITINERARY], []),
    # A fix of the user's code repeats its lines.
    ("The list is empty, so `items[0]` fails. Check it first:\n```python\ndef first(items):\n    if not items:\n"
     "        return None\n    return items[0]\n```",
     "This crashes with IndexError, why?\n```python\ndef first(items):\n    return items[0]\n```", [], []),
    # Thanks, a third time, may get the same thanks back.
    ("不客气！", "谢谢", ["不客气！", "不客气！"], []),
])
def test_answers_that_share_sentences_with_what_was_said_are_answers(reply, user_text, earlier, said):
    """The review of the sentence check (round twelve): each of these was called a copy or an echo."""
    found = check_reply(reply, user_text=user_text, earlier_replies=earlier, earlier_messages=said)
    assert not {f.kind for f in found} & {"copy", "echo"}, found


MENU = "红烧肉、清蒸鱼、凉拌黄瓜、西红柿炒蛋，再加一个紫菜蛋花汤。"


@pytest.mark.parametrize("reply, user_text, earlier", [
    # Asking for something new is no question about what was said: a copy stays a copy.
    (MENU, "你给我再推荐几个素菜", [MENU]),
    (MENU, "你说我要不要再加个甜品？", [MENU]),
    ("Here is the plan: the old town on day 1, Belém on day 2, Sintra on day 3.", "Update your plan, we're 10 people now.",
     ["Here is the plan: the old town on day 1, Belém on day 2, Sintra on day 3."]),
])
def test_a_request_for_something_new_answered_by_the_last_reply_is_a_copy(reply, user_text, earlier):
    assert "copy" in {f.kind for f in check_reply(reply, user_text=user_text, earlier_replies=earlier)}


@pytest.mark.parametrize("text, tells", [
    ("我弟说他也要跟着去，那就5个人了", True),
    ("Scratch that, it's 10 people now.", True),
    ("预算改成1200吧", True),
    ("Change the budget to 350 dollars.", True),
    # Review of round twelve: each of these asks for something; "Noted" is no answer to it.
    ("现在12个人了，菜够不够", False),
    ("We're 10 people now, so update the menu", False),
    ("Budget is 1500 now, please redo the itinerary", False),
    ("再加上烧烤要用的东西", False),
    ("Add what we need for a barbecue", False),
    # bench health's openings ask for help mid-sentence: with acknowledge = "first" the program must not answer them.
    ("Hi! I'm planning a family trip to Lisbon this summer and could use some help getting it organised.", False),
    ("Need help picking a laptop for uni. I'm starting a computer science degree in September.", False),
    ("planning a camping trip with friends, lake district, need help", False),
    ("我要考雅思，想让你帮我做个复习计划", False),
    ("早中晚都帮我安排下，周一到周五", False),
    ("毕业旅行想去日本 帮我们规划下", False),
    ("We can go up to $38,000 with help from both families.", True),
    ("我表弟阿伟来帮忙，加上我和一个员工，一共3个人看店", True),
    ("以后每次回答最后都帮我算一下人均花多少", True),
    ("I've got my CFA Level 1 exam coming up and I need a study plan. Like, a real one I'll actually follow.", False),
    ("I want to throw a surprise 40th birthday party for my husband, Marcus. He has NO idea. Help!", False),
    ("Actually, add Saturday lunch too since we're home then.", False),
    ("周末也顺便安排一下吧，周末可以稍微放纵一点", False),
    ("我发现我有点乳糖不耐，喝牛奶肚子不舒服，换掉", False),
    ("我看了下7月机票太贵了 改6月25号出发吧 还是7天", True),
    # The final recap is the question of the whole conversation.
    ("Okay, final answer time: list all my constraints and give me the complete party plan.", False),
    ("sum up all constraints + final plan pls", False),
    # A rule led by "From now on," is told, not asked (bench health G4 and G5, hc-en-14: the model answered it).
    ("From now on, give me a one-line answer first and then the details underneath.", True),
    ("以后，回答都先给结论", True),
    ("From now on, can you plan the trip in detail?", False),
    ("From now on answer in English, and can you plan the trip?", False),
])
def test_only_a_message_that_asks_nothing_in_any_clause_only_tells(text, tells):
    from desktop_app.memory.reply_health import only_tells

    assert only_tells(text) is tells


@pytest.mark.parametrize("reply, user_text, echo", [
    # A Pilot walk: the message said back cut up, in its order, nothing of the reply's own.
    ("请客，小雨对虾过敏", "周六在家请客，大概8个人，我表妹小雨对虾过敏", True),
    ("Jake, shellfish allergy.", "Also Jake has a shellfish allergy, a bad one.", True),
    # run O: a word of its own put in ("已经") is still the message said back
    ("结论已经先行，正常说就行。", "结论先行那个不用了，正常说就行", True),
    ("好的，以后正常说就行。", "结论先行那个不用了，正常说就行", False),
    # Words of its own, or an answer made of a question's words, are no echo.
    ("好的，8个人，小雨不吃虾。", "周六在家请客，大概8个人，我表妹小雨对虾过敏", False),
    ("不用，鱼切块蒸就好", "鱼要不要整条蒸？", False),
])
def test_the_message_said_back_cut_up_is_an_echo(reply, user_text, echo):
    assert ("echo" in {f.kind for f in check_reply(reply, user_text=user_text)}) is echo


@pytest.mark.parametrize("reply, echo", [
    # run P, three times: the user's words in quotation marks as the answer
    ('To help you organize your plan, I would recommend the new itinerary for your family:\n"We\'re thinking 7 days. "',
     True),
    ('Sure, here\'s a possible itinerary for your family trip to Lisbon:\n"We\'re thinking 7 days. Budget is about €5,000 '
     'total. "', True),
    ("好的，我给你的方案是：“我们打算国庆去玩6天”。", True),
    # a quote inside an answer of its own, or words the user never wrote, are no echo
    ('You said "We\'re thinking 7 days", so here is a plan: day 1 Belém and the tower, day 2 the Oceanarium with the '
     'kids, day 3 a tram ride to Alfama by the funicular, day 4 Sintra by train, then three quiet beach days.', False),
    ('My suggestion: "Stay in Parque das Nações, it is flat and close to the Oceanarium."', False),
])
def test_the_users_words_in_quotation_marks_as_the_answer_are_an_echo(reply, echo):
    said = ["We're thinking 7 days, flying out July 14.", "Budget is about €5,000 total, including flights.",
            "我们打算国庆去玩6天，预算2万"]
    findings = check_reply(reply, user_text="Which neighbourhoods are good with kids?", earlier_messages=said)
    assert ("echo" in {f.kind for f in findings}) is echo, findings


@pytest.mark.parametrize("reply, kind", [
    # a Pilot walk, round thirteen: labels of the 0.5B's own before its answer, and the notes joined as the
    # briefing joins them, a short one beside a long one
    ("最近回复：虽然我无法直接访问外部互联网，但我有几种方式可以帮助您。", "scaffolding"),
    ("最新的消息：预算1000；我表妹小雨对虾过敏，很严重。", "scaffolding"),
    ("预算1000；我表妹小雨对虾过敏，很严重。", "scaffolding"),
    ("好的，预算1000以内，我表妹小雨对虾过敏，很严重，所以菜单里不放虾。", None),
    ("预算1000，10个人的话人均100，可以做六个菜。", None),
])
def test_labels_of_its_own_and_notes_joined_as_the_briefing_joins_them_are_scaffolding(reply, kind):
    notes = ["大概10个人", "预算1000", "我表妹小雨对虾过敏，很严重"]
    kinds = {f.kind for f in check_reply(reply, user_text="又来了两个人", notes=notes, memory_held=True)}
    assert (kind in kinds) if kind else not kinds, kinds


def test_a_reply_alike_in_wording_that_names_the_messages_new_number_is_no_copy():
    """bench health round fifteen: two acknowledgments of one budget, the second naming the new amount."""
    earlier = ["Got it. Noted: budget €5,000."]
    news = "With her coming we can stretch the budget a bit. Let's say €6,500 instead."
    assert "copy" not in kinds("Got it. Noted: budget €6,500 (was €5,000).", user_text=news, earlier_replies=earlier)
    # compared by value: "1万" is news after "1万5" (its digits are not: bench health round twenty)
    assert "copy" not in kinds("好的，记下了：预算 1万（之前是1万5）。", user_text="在家附近的农家乐办，预算控制在1万",
                               earlier_replies=["好的，记下了：预算 1万5。"])
    # a day as written: "April 5" is news after "moving day March 29", whatever list numbers were said before
    assert "copy" not in kinds("Got it. Noted: moving day April 5 (was March 29).",
                               user_text="The landlord pushed the move-in date back, so moving day is now April 5.",
                               earlier_replies=["Got it. Noted: moving day March 29.", "1. Book the van\n5. Pack the kitchen"])
    # a value the message's number comes to: "9000（之前是8000）" to "人均再加1000吧" (bench health round twenty-one)
    assert "copy" not in kinds("好的，记下了：人均的预算 9000（之前是8000）。", user_text="人均再加1000吧 温泉贵",
                               earlier_replies=["好的，记下了：4个人（之前是5个人）。"])
    # The same reply again is still a copy, number and all.
    assert "copy" in kinds("Got it. Noted: budget €5,000 for the trip.", user_text=news,
                           earlier_replies=["Got it. Noted: budget €5,000 for the trip!"])


def test_the_programs_recollection_of_a_labelled_note_is_no_note_pasted_back():
    # round seventeen's run: the program's answer to "我刚才说谁过敏来着？对什么过敏？" was judged a pasted note
    notes = ["虾过敏: 我表妹小雨对虾过敏，很严重那种，虾一定不能有", "虾过敏: 虾一定不能有", "我奶奶牙口不好"]
    assert pasted_notes("我记下的是：你表妹小雨对虾过敏，很严重那种，虾一定不能有。", notes) is None
    assert pasted_notes("What I have noted: Mia has a tree nut allergy.", ["allergy: Mia has a tree nut allergy"]) is None
    assert pasted_notes("虾过敏: 我表妹小雨对虾过敏，很严重那种", notes) is not None, "the model's paste still is"


@pytest.mark.parametrize("lang, noted, asked, answer", [
    # bench health, round eighteen: the program's recollection judged a copy of its own earlier note
    ("zh", "好的，记下了：出发日期 10月1号；6天。", "我之前说的几号出发来着？", "我记下的是：出发日期：10月1号。"),
    ("en", "Got it. Noted: budget €6,500 (was €5,000).", "What budget did I give you again?",
     "What I have noted: budget €6,500 (was €5,000)."),
])
def test_asked_what_the_user_said_the_answer_may_say_what_a_reply_noted(lang, noted, asked, answer):
    from desktop_app.memory.reply_health import check_reply

    assert not [f for f in check_reply(answer, user_text=asked, earlier_replies=[noted], expected_lang=lang)
                if f.kind == "copy"]


@pytest.mark.parametrize("reply, kept", [
    # bench health round twenty-one: the chit-chat note pasted at the top of a reply, said across two clauses
    ("The user is just chatting. Reply in one short, friendly sentence.\n\nSounds like a fun trip!", "Sounds like a fun trip!"),
    ("Sounds like a fun trip! Enjoy it.", "Sounds like a fun trip! Enjoy it."),
])
def test_a_prompt_note_said_across_clauses_is_taken_out(reply, kept):
    assert without_scaffolding(reply) == kept


def test_a_value_said_anew_is_news_though_an_earlier_plan_numbered_its_steps_with_it():
    """Bench health G5, hc-zh-04: "能花的时间：5个小时（之前是3个小时）" was "100% said in earlier replies" after a plan
    numbered 1 to 8 (its "5." taken for the amount 5)."""
    earlier = ["复习计划：\n\n1. 听力\n2. 阅读\n3. 写作\n4. 口语\n5. 模考\n6. 复盘", "好的，记下了：能花的时间：3个小时。"]
    reply = "好的，记下了：能花的时间：5个小时（之前是3个小时）。"
    assert not check_reply(reply, user_text="放暑假以后每天可以学5个小时了", earlier_replies=earlier, expected_lang="zh",
                           memory_held=True, earlier_messages=["我现在大三，平时每天最多能挤出3个小时"])
    assert check_reply(earlier[1], user_text="每天能学多久来着，还是3个小时吧", earlier_replies=earlier,
                       expected_lang="zh", memory_held=True), "the same value again is still a copy"


def test_whats_without_its_apostrophe_asks_what_was_said():
    """A user's walk, round twenty-five: "wait whats my budget again?" went to the 0.5B, which gave the old budget."""
    from desktop_app.memory.reply_health import only_asks_what_was_said

    assert only_asks_what_was_said("wait whats my budget again?")


def test_a_rule_dropped_is_named_in_the_words_said_before_and_that_is_no_copy():
    """Bench health G11, hc-en-14: "Got it. I'll stop following this rule: a one-line answer first and then the details
    underneath." was judged 93% said in earlier replies (an earlier plan opened "here's a one-line answer first and then
    the details underneath")."""
    earlier = ["Based on your description, here's a one-line answer first and then the details underneath: two desks."]
    reply = "Got it. I'll stop following this rule: a one-line answer first and then the details underneath."
    assert not check_reply(reply, user_text="You can stop doing the one-line-answer-first format now.",
                           earlier_replies=earlier, expected_lang="en", memory_held=True)
    assert check_reply(earlier[0], user_text="Two desks then, what chairs?", earlier_replies=earlier, expected_lang="en",
                       memory_held=True), "the same plan again is still a copy"


def test_a_value_said_with_the_one_it_replaces_is_news_though_an_earlier_plan_named_it():
    """Bench health G13, hc-en-10: "Got it. Noted: budget £150 (was £120)." was judged 80% said before: the 0.5B had
    priced tents at £150 two replies back."""
    earlier = ["Got it. Noted: budget £120.", "Renting tents costs around £80 per person, buying around £150 per person."]
    reply = "Got it. Noted: budget £150 (was £120)."
    assert not check_reply(reply, user_text="ok since there's fewer of us we can go up to £150 each",
                           earlier_replies=earlier, expected_lang="en", memory_held=True)
    zh = ["好的，记下了：预算 1200。", "帐篷买的话大概1500一顶。"]
    assert not check_reply("好的，记下了：预算 1500（之前是1200）。", user_text="人少了，预算可以到1500", earlier_replies=zh,
                           expected_lang="zh", memory_held=True)
    assert check_reply(earlier[0], user_text="ok fine, still £120 then", earlier_replies=earlier, expected_lang="en",
                       memory_held=True), "the same value again is still a copy"
