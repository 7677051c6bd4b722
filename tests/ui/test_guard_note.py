"""The reply guard in the chat: what it found is shown under the reply, naming the memory item."""

from __future__ import annotations

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView


def answering(replies: dict[str, list[str]]):
    """A scripted model that answers by the user's last message (the memory pass calls it too)."""
    def reply(messages) -> str:
        asked = messages[-1]["content"]
        for question, answers in replies.items():
            if asked.endswith(question):
                return answers.pop(0) if len(answers) > 1 else answers[0]
        return "{}"
    return reply


def notes(app) -> list[str]:
    return [v.content for v in app.chat.query_one(ChatLog).query(MessageView) if v.role == "command"]


async def test_flag_mode_shows_the_old_value_and_the_current_one_under_the_reply(settings, ui):
    engine = ScriptedEngine(answering({"dollars.": ["Noted."],
                                       "Which hall should we book?": ["With the 5000 dollar budget, book the small hall."]}))
    app = ui.scripted_app(settings.model_copy(update={"guard": "flag"}), engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "The budget must stay under 5000 dollars.")
        await ui.send(pilot, "Change the budget to 8000 dollars.")
        before = len(notes(app))
        await ui.send(pilot, "Which hall should we book?")
        shown = notes(app)[before:]
        assert any("check this reply" in n and "8000" in n and "F4" in n for n in shown), shown
    asked = [m[-1]["content"] for m in engine.calls if m[-1]["content"].endswith("Which hall should we book?")]
    assert len(asked) == 1, "flag mode shows the conflict and never asks again"


async def test_fix_mode_replaces_the_reply_and_shows_nothing_when_the_retry_agrees(settings, ui):
    engine = ScriptedEngine(answering({"dollars.": ["Noted."],
                                       "Which hall should we book?": ["With the 5000 dollar budget, book the small hall.",
                                                                      "With the 8000 dollar budget, book the main hall."]}))
    app = ui.scripted_app(settings.model_copy(update={"guard": "fix"}), engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "The budget must stay under 5000 dollars.")
        await ui.send(pilot, "Change the budget to 8000 dollars.")
        before = len(notes(app))
        await ui.send(pilot, "Which hall should we book?")
        replies_shown = [v.content for v in app.chat.query_one(ChatLog).query(MessageView) if v.role == "assistant"]
        assert replies_shown[-1] == "With the 8000 dollar budget, book the main hall."
        assert not any("check this reply" in n for n in notes(app)[before:])
