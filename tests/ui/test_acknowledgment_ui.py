"""With the shipped setting (acknowledge = "first"), a message that only tells something memory takes in
is answered in the chat by the program at once, in the user's language; a question still goes to the model."""

from __future__ import annotations

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.ui.i18n import set_lang
from desktop_app.ui.widgets.chat_log import ReplyView


def replies(app) -> list[str]:
    return [v.content for v in app.chat.query(ReplyView)]


async def test_a_statement_is_answered_by_what_memory_took_in_and_a_question_by_the_model(settings, ui):
    shipped = settings.model_copy(update={"lang": "zh", "acknowledge": type(settings)().acknowledge})
    assert shipped.acknowledge == "first", "the shipped default"
    set_lang("zh")
    engine = ScriptedEngine("第一天：大理古城；第二天：洱海骑行。")
    app = ui.scripted_app(shipped, engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "帮我规划一下带爸妈去云南玩的行程，我们一共4个人")
        asked = len(engine.calls)
        await ui.send(pilot, "我弟说他也要跟着去，那就5个人了")
        assert replies(app)[-1] == "好的，记下了：5个人（之前是4个人）。"
        assert len(engine.calls) == asked, "the model was not asked"
        await ui.send(pilot, "大理和丽江选一个还是都去？")
        assert replies(app)[-1].startswith("第一天") and len(engine.calls) > asked, "a question is the model's"


async def test_a_summary_shows_the_programs_list_then_the_models_plan_also_after_a_retry(settings, ui):
    shipped = settings.model_copy(update={"lang": "en", "acknowledge": "first", "reply_retry": True})
    set_lang("en")
    plan = "Day 1: Baixa and the river. Day 2: Belém. Day 3: Sintra by train."
    # the first attempt at the plan is no answer ("OK."), the second (another seed) is the plan
    engine = ScriptedEngine(lambda messages: "OK." if engine.variations[-1] is None else plan)
    app = ui.scripted_app(shipped, engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "There'll be 5 of us, flying out July 21 for 7 days.")
        await ui.send(pilot, "Okay, summarise all my constraints and give me the final plan.")
        shown = replies(app)[-1]
        # (in the program's voice, as its acknowledgment says it: round twenty-one)
        assert shown.startswith("Everything you have asked for, as it stands:\n- 5 of you"), shown
        assert shown.endswith(plan) and shown.count("Everything you have asked for") == 1, shown
