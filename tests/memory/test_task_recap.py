"""Active replay: when the talk returns to the task after a detour, or every N turns, a short
recap of the task (goal, current step, key limits) sits right before the input (no model)."""

from __future__ import annotations

TASK_EN = ["My goal is to plan a five-day family trip to Dali in October.",
           "Our total budget is 8000 yuan for flights and hotels.",
           "We decided to stay in the old town."]
DETOUR_EN = ["What's a good podcast about history?", "How do I make pour-over coffee?",
             "Any tips for sleeping on a plane?"]
TASK_ZH = ["我的目标是安排一次十月份去大理的五天家庭旅行。", "我们的总预算是8000元，包括机票和住宿。", "我们决定住在古城里。"]
DETOUR_ZH = ["推荐一个讲历史的播客吧。", "手冲咖啡怎么做？", "在飞机上怎么睡得好？"]


def _recap_line(plan, lang):
    marker = "Back to the task" if lang == "en" else "回到正题"
    return [line for line in plan.layer("recalled").text.splitlines() if marker in line]


def test_a_return_to_the_task_after_a_detour_brings_a_recap(conversation):
    for lang, task, detour, back in (("en", TASK_EN, DETOUR_EN, "OK, back to the Dali trip: what should day two look like?"),
                                     ("zh", TASK_ZH, DETOUR_ZH, "回到大理旅行，第二天怎么安排？")):
        chat = conversation(f"recap-{lang}", lang=lang)
        for line in task:
            chat.say(line)
        kinds = {i.kind for i in chat.active()}
        assert {"goal", "constraint"} <= kinds, kinds
        for line in detour:
            assert not _recap_line(chat.say(line), lang)  # the detour itself gets no recap
        plan = chat.say(back)
        recap = _recap_line(plan, lang)
        assert len(recap) == 1, plan.layer("recalled").text
        assert "8000" in recap[0]
        assert "Dali" in recap[0] or "大理" in recap[0]
        assert plan.messages[-1]["content"].endswith(back)


def test_no_recap_while_the_talk_stays_on_the_task(conversation):
    chat = conversation("on-task")
    for line in TASK_EN:
        chat.say(line)
    for line in ["Which flights to Dali are cheapest?", "Is the old town in Dali quiet at night?",
                 "What should we eat in Dali?", "And day two of the Dali trip?"]:
        assert not _recap_line(chat.say(line), "en")


def test_a_recap_every_n_turns_when_set(store, settings):
    from tests.memory.conftest import Conversation

    chat = Conversation(store, settings.model_copy(update={"recap_every": 2}), name="every")
    recaps = [bool(_recap_line(chat.say(line), "en")) for line in [*TASK_EN, *DETOUR_EN]]
    assert recaps[3]
    assert recaps[5]
    assert not recaps[4]
