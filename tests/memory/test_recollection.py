"""Asked what the user said, a reply that does not say it gives way to (or is followed by) the program's
sentence saying what memory holds: run N's "10 now." to "What budget did I give you?", run M's "我怕记
混了。" to "我刚才说谁过敏来着？对什么过敏？"."""

from __future__ import annotations

import pytest

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.recollection import asked_about, recollection, unanswered


@pytest.fixture
def settings(settings):
    """The model answers here (``acknowledge = "first"``, the default, has memory answer a message that only asks
    what the user said: tests/memory/test_reply_retry.py)."""
    return settings.model_copy(update={"acknowledge": "fallback"})


def _item(n: int, subject: str, value: str, kind: str = "fact") -> MemoryItem:
    return MemoryItem(id=n, session_id=1, kind=kind, subject=subject, value=value, status="active", origin="rule", state_version=1,
                      created_at=float(n), updated_at=float(n))


ITEMS = [
    _item(1, "head count", "It'll be 8 guests including me"),
    _item(2, "budget", "Budget for food and drinks is around $250", "constraint"),
    _item(3, "allergy:jake", "Jake has a shellfish allergy"),
    _item(4, "departure", "打算国庆去，10月1号出发，玩6天"),
    _item(5, "allergy:小雨", "我表妹小雨对虾过敏，很严重那种，虾一定不能有"),
    _item(6, "length", "Keep answers under 100 words", "directive"),
]


@pytest.mark.parametrize("question, expected", [
    ("What budget did I give you?", [2]),
    ("How many guests did we say again?", [1]),
    ("Remind me, who had the allergy?", [3, 5]),
    ("我之前说的几号出发来着？", [4]),
    ("我刚才说谁过敏来着？对什么过敏？我怕记混了", [5]),
])
def test_a_question_about_what_was_said_finds_the_items_it_asks_about(question, expected):
    assert [i.id for i in asked_about(question, ITEMS)] == expected


def test_a_time_asked_back_finds_the_item_saying_one_though_it_shares_no_word():
    """Bench health G5, hc-en-07: "Remind me, what time window did I say?" found nothing in "10am to 2pm"."""
    items = [*ITEMS, _item(7, "fact:am/pm", "10am to 2pm"), _item(8, "fact:courtyard", "in the shop and the courtyard")]
    assert [i.id for i in asked_about("Remind me, what time window did I say?", items)] == [7]
    assert [i.id for i in asked_about("我说的几点来着？", [*ITEMS[:3], _item(9, "fact:下午", "下午3点到6点")])] == [9]


def test_a_weight_asked_back_finds_the_item_saying_one_by_its_unit():
    """Bench health G6, hc-en-04: "What was my weight limit again?" found nothing in "under 1.5 kg" (no shared word)."""
    laptop = _item(7, "constraint:possible/something", "I'd like something light, under 1.5 kg if possible", "constraint")
    assert [i.id for i in asked_about("What was my weight limit again?", [*ITEMS, laptop])] == [7]
    bag = _item(8, "constraint:行李", "行李不能超过20公斤", "constraint")
    assert [i.id for i in asked_about("我说的重量上限是多少来着？", [*ITEMS, bag])] == [8]


def test_a_question_about_nothing_memory_holds_finds_nothing():
    assert asked_about("What did I say about the weather?", ITEMS) == []


def test_the_sentence_says_the_value_and_the_one_it_replaced_in_the_turns_language():
    assert recollection([ITEMS[1]], {2: "Budget is $200"}, "en") == \
        "What I have noted: Budget for food and drinks is around $250 (was Budget is $200)."
    assert recollection([ITEMS[3]], {}, "zh") == "我记下的是：打算国庆去，10月1号出发，玩6天。"


@pytest.mark.parametrize("reply, missed", [
    ("10 now.", True), ("You said about $250 for food and drinks.", False), ("It was $250.", False),
])
def test_a_reply_naming_the_value_answers(reply, missed):
    assert unanswered(reply, [ITEMS[1]]) is missed


def answering(replies: dict[str, str]) -> ScriptedEngine:
    """An engine that answers each message with its own reply (the same reply twice is a copy)."""
    def reply(messages) -> str:
        asked = messages[-1]["content"]
        return next((r for m, r in replies.items() if asked.endswith(m)), "Noted, thanks for telling me.")
    return ScriptedEngine(reply)


def _turn(store, settings, engine, text, lang):
    pipeline = pipeline_for(store, settings.model_copy(update={"lang": lang}), counter=engine.counter,
                            n_ctx=engine.n_ctx)
    return run_turn(pipeline, store.session_named("party"), engine, text, settings=settings)


def test_a_short_reply_naming_none_of_it_gives_way_to_what_memory_holds(store, settings):
    engine = ScriptedEngine("10 now.")
    _turn(store, settings, engine, "It'll be 8 guests including me. Budget for food and drinks is around $250.", "en")
    asked = _turn(store, settings, engine, "What budget did I give you?", "en")
    assert asked.reply.content == "What I have noted: Budget for food and drinks is around $250.", asked.reply.content
    assert asked.record.health.acknowledged and asked.record.health.model_reply == "10 now."
    assert asked.reply.unhealthy, "the program's words are kept out of the model's history"


def test_an_echo_to_a_question_about_what_was_said_gives_way_to_it_in_chinese(store, settings):
    engine = ScriptedEngine("我怕记混了。")
    _turn(store, settings, engine, "我表妹小雨对虾过敏，很严重那种，虾一定不能有", "zh")
    asked = _turn(store, settings, engine, "我刚才说谁过敏来着？对什么过敏？我怕记混了", "zh")
    assert asked.reply.content.startswith("我记下的是：你表妹小雨对虾过敏"), asked.reply.content


def test_a_long_reply_naming_none_of_it_is_followed_by_it(store, settings):
    long = "Here is a menu idea for your party: a tomato and burrata starter, mushroom risotto, and a lemon tart."
    engine = answering({"What budget did I give you?": long})
    _turn(store, settings, engine, "Budget for food and drinks is around $250.", "en")
    asked = _turn(store, settings, engine, "What budget did I give you?", "en")
    assert asked.reply.content.startswith(long)
    assert asked.reply.content.endswith("What I have noted: Budget for food and drinks is around $250.")
    assert asked.record.health.recollected and not asked.record.health.acknowledged


def test_a_reply_that_names_it_is_left_alone_and_other_questions_too(store, settings):
    engine = answering({"What budget did I give you?": "You gave me about $250 for food and drinks."})
    _turn(store, settings, engine, "Budget for food and drinks is around $250.", "en")
    asked = _turn(store, settings, engine, "What budget did I give you?", "en")
    assert asked.reply.content == "You gave me about $250 for food and drinks."
    other = _turn(store, settings, ScriptedEngine("10 now."), "What starter would you suggest?", "en")
    assert other.reply.content == "10 now."


def test_a_reply_that_only_promises_gives_way_too(store, settings):
    """Run O: "对不起，我之前的回答中提到的虾过敏情况与你的描述完全不符。…" (a promise, not a copy) to the question."""
    promise = "对不起，我之前的回答中提到的虾过敏情况与你的描述完全不符。请告诉我更多细节，我会尽快为你确认。"
    engine = answering({"我刚才说谁过敏来着？对什么过敏？": promise})
    _turn(store, settings, engine, "我表妹小雨对虾过敏，很严重那种，虾一定不能有", "zh")
    asked = _turn(store, settings, engine, "我刚才说谁过敏来着？对什么过敏？", "zh")
    assert asked.reply.content.startswith("我记下的是：你表妹小雨对虾过敏"), asked.reply.content


def test_what_was_said_is_said_once_without_labels_or_a_restatement_as_its_old_value():
    """Run U said "我记下的是：虾过敏: 你表妹小雨对虾过敏，很严重那种，虾一定不能有（之前是你表妹小雨对虾过敏）；虾过敏:
    虾一定不能有。"."""
    from desktop_app.memory.core.models import MemoryItem
    from desktop_app.memory.recollection import recollection

    def item(id_: int, subject: str, value: str) -> MemoryItem:
        return MemoryItem(id=id_, session_id=1, kind="fact", subject=subject, value=value, status="active", origin="rule",
                          state_version=1, created_at=0.0, updated_at=0.0)

    said = recollection([item(1, "allergy:表妹小雨", "虾过敏: 我表妹小雨对虾过敏，很严重那种，虾一定不能有"),
                         item(2, "虾过敏", "虾过敏: 虾一定不能有")], {1: "我表妹小雨对虾过敏"}, "zh")
    assert said == "我记下的是：你表妹小雨对虾过敏，很严重那种，虾一定不能有。"
    assert recollection([item(3, "budget", "budget: 1200")], {3: "budget: 1500"}, "zh") == "我记下的是：预算：1200（之前是1500）。"


def test_a_value_restated_with_the_same_amount_has_no_old_value():
    """Run U: "What I have noted: budget: $250 (was Budget for food and drinks is around $250).", the model's pass having
    restated the rules' item."""
    from desktop_app.memory.core.models import MemoryItem
    from desktop_app.memory.recollection import recollection

    item = MemoryItem(id=1, session_id=1, kind="constraint", subject="budget", value="budget: $250", status="active",
                      origin="model", state_version=1, created_at=0.0, updated_at=0.0)
    said = recollection([item], {1: "Budget for food and drinks is around $250"}, "en")
    assert "was" not in said and "$250" in said, said


@pytest.mark.parametrize("question", ["我之前说的几号出发来着？", "我们几号走来着？", "When do we leave, what did I say?"])
def test_asked_when_the_trip_leaves_the_departure_is_found_under_its_label(question):
    """bench health, round eighteen: the 0.5B's pass had filed the day as "departure: 10月1号" (no "出发" in it), so
    "我之前说的几号出发来着？" found nothing and the model answered "…是10月4号"."""
    items = [_item(1, "departure", "departure: 10月1号"), _item(2, "trip length", "玩6天"),
             _item(3, "budget", "预算: 2.5万", "constraint")]
    assert [i.id for i in asked_about(question, items)] == [1]


def test_asked_a_name_a_reply_stating_the_misspelt_one_gives_way_to_the_names_held(store, settings):
    """A user's walk (round nineteen): "我叫什么名字？同事叫什么？" after "哎打错了，是王霆" got "我的名字是王婷，同事叫
    小邹" three times (the guard saw the old name each time) and was kept."""
    engine = ScriptedEngine("我的名字是王婷，同事叫小邹。")
    _turn(store, settings, engine, "你好，我叫王婷，下个月想带爸妈去三亚", "zh")
    _turn(store, settings, engine, "哎打错了，是王霆，雷霆的霆", "zh")
    _turn(store, settings, engine, "我们组新来的同事叫小邹，他推荐了亚龙湾的酒店", "zh")
    asked = _turn(store, settings, engine, "我叫什么名字？同事叫什么？", "zh")
    assert "王婷" not in asked.reply.content.replace("之前是", "").split("（")[0], asked.reply.content
    assert "王霆" in asked.reply.content and "小邹" in asked.reply.content, asked.reply.content


def test_asked_my_name_in_english_too(store, settings):
    engine = ScriptedEngine("Your name is Katie.")
    _turn(store, settings, engine, "hi, my name's Katie", "en")
    _turn(store, settings, engine, "ugh typo, Katy", "en")
    asked = _turn(store, settings, engine, "what's my name?", "en")
    assert "Katy" in asked.reply.content and "Katie" not in asked.reply.content.split("(")[0], asked.reply.content
