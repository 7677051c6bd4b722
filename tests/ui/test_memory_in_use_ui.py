"""Under each reply, the memory the prompt gave the model and which of it the reply used; when a
session with standing rules opens, the rules are listed once."""

from __future__ import annotations

from desktop_app.cli import main
from desktop_app.engine.scripted import ScriptedEngine
from tests.ui.test_guard_note import answering, notes


async def test_the_memory_in_use_line_follows_the_reply(settings, ui):
    engine = ScriptedEngine(answering({"dollars.": ["Noted."],
                                       "Which hall should we book?": ["Within 5000 dollars, book the small hall."]}))
    app = ui.scripted_app(settings.model_copy(update={"guard": "off"}), engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "The budget must stay under 5000 dollars.")
        before = len(notes(app))
        await ui.send(pilot, "Which hall should we book?")
        shown = [n for n in notes(app)[before:] if "memory in this reply" in n]
        assert shown, notes(app)
        assert "5000" in shown[-1]
        assert "✓" in shown[-1]
        assert "F4" in shown[-1]


async def test_the_rules_in_force_are_listed_when_the_session_opens(settings, ui, db_path, capsys):
    assert main(["memory", "directive", "always answer in one short paragraph", "--db", str(db_path),
                 "--session", "plans"]) == 0
    capsys.readouterr()
    app = ui.scripted_app(settings, ScriptedEngine(lambda messages: "OK."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.pause()
        listed = [n for n in notes(app) if "rules in force" in n]
        assert len(listed) == 1, notes(app)
        assert "always answer in one short paragraph" in listed[0]
