"""Edit a message and regenerate from there, regenerate a reply, switch between versions;
memory written by a discarded branch is rolled back and comes back with it."""

from __future__ import annotations

import itertools

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.screens.dialogs import TextDialog
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView


def counting_engine() -> ScriptedEngine:
    numbers = itertools.count(1)
    return ScriptedEngine(lambda messages: f"Answer number {next(numbers)}.")


def shown(app) -> list[tuple[str, str]]:
    return [(v.role, v.content) for v in app.chat.query_one(ChatLog).query(MessageView)
            if not v.content.startswith(("memory in this reply", "rules in force"))]


def title(view: MessageView) -> str:
    return str(view.query_one(".message-title").render())


def memory(db_path) -> dict[str, str]:
    with Store(db_path) as store:
        return {i.value: i.status for i in store.list_items(store.latest_session().id)}


async def test_regenerate_keeps_both_versions_and_switches_between_them(settings, db_path, ui):
    app = ui.scripted_app(settings, counting_engine())
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Tell me a story.")
        await pilot.press("ctrl+r")
        await ui.wait_for_reply(pilot)
        await ui.settle(pilot)
        assert shown(app) == [("user", "Tell me a story."), ("assistant", "Answer number 2.")]
        reply = app.chat.query_one(ChatLog).query(MessageView).last()
        assert "version 2/2" in title(reply)

        await pilot.press("ctrl+up")  # select the last message, then ← for the older version
        await pilot.press("left")
        await ui.settle(pilot)
        assert shown(app)[-1] == ("assistant", "Answer number 1.")
        assert "version 1/2" in title(app.chat.query_one(ChatLog).query(MessageView).last())
        assert [m.content for m in ui.stored_messages(db_path)] == ["Tell me a story.", "Answer number 1."]

        await pilot.press("right")
        await ui.settle(pilot)
        assert shown(app)[-1] == ("assistant", "Answer number 2.")
    with Store(db_path) as store:
        session = store.latest_session()
        anchor = store.user_message_ids(session.id)[-1]
        assert [s.preview for s in store.versions_at(session.id, anchor)] == ["Answer number 1.", "Answer number 2."]


async def test_regenerated_prompt_is_the_same_question_without_the_old_reply(settings, ui):
    engine = counting_engine()
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "First question.")
        await ui.send(pilot, "Second question.")
        await pilot.press("ctrl+r")
        await ui.wait_for_reply(pilot)
    first, regenerated = engine.calls[1], engine.calls[2]
    assert regenerated == first  # same prompt: the discarded reply is not in it


async def test_editing_a_message_regenerates_from_there_and_rolls_back_its_memory(settings, db_path, ui):
    app = ui.scripted_app(settings, counting_engine())
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        await ui.send(pilot, "Always answer in Chinese.")
        await ui.send(pilot, "Never modify the source CSV.")
        assert set(memory(db_path)) == {"My budget is 5000 yuan", "Always answer in Chinese",
                                        "Never modify the source CSV"}

        log = app.chat.query_one(ChatLog)
        second = next(v for v in log.query(MessageView) if v.content == "Always answer in Chinese.")
        log.focus()
        await pilot.pause()
        log._select(second)
        await pilot.press("e")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TextDialog)
        dialog.query_one("#text-input").text = "Always answer in French."
        await pilot.press("ctrl+s")
        await ui.wait_for_reply(pilot)
        await ui.settle(pilot)

        assert shown(app) == [("user", "My budget is 5000 yuan."), ("assistant", "Answer number 1."),
                              ("user", "Always answer in French."), ("assistant", "Answer number 4.")]
        # the discarded branch's rule and constraint are gone; the earlier budget stays
        assert memory(db_path) == {"My budget is 5000 yuan": "active", "Always answer in French": "active"}

        edited = next(v for v in log.query(MessageView) if v.content == "Always answer in French.")
        assert "version 2/2" in title(edited)
        log.focus()
        await pilot.pause()
        log._select(edited)
        await pilot.press("left")
        await ui.settle(pilot)
        assert [c for _, c in shown(app)] == ["My budget is 5000 yuan.", "Answer number 1.",
                                             "Always answer in Chinese.", "Answer number 2.",
                                             "Never modify the source CSV.", "Answer number 3."]
        # switching back brings the old branch's memory back, and takes the new one's away
        assert memory(db_path) == {"My budget is 5000 yuan": "active", "Always answer in Chinese": "active",
                                   "Never modify the source CSV": "active"}


async def test_a_superseded_fact_is_restored_when_the_correction_is_discarded(settings, db_path, ui):
    app = ui.scripted_app(settings, ScriptedEngine("ok"))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        await ui.send(pilot, "Actually the budget is 8000.")
        assert memory(db_path) == {"My budget is 5000 yuan": "superseded", "My budget is 8000 yuan": "active"}
        app.chat.edit_message(3)
        await pilot.pause()
        app.screen.query_one("#text-input").text = "What was my budget?"
        await pilot.press("ctrl+s")
        await ui.wait_for_reply(pilot)
        await ui.settle(pilot)
        assert memory(db_path) == {"My budget is 5000 yuan": "active"}
    with Store(db_path) as store:
        session = store.latest_session()
        changes = store.session_changes(session.id)
        assert changes[-1].action == "rollback"
        assert changes[-1].item_id is None
        assert [c.action for c in store.item_changes(1)] == ["add"]  # its "superseded" change was undone


async def test_the_selected_message_is_visibly_highlighted(settings, ui):
    from desktop_app.ui.widgets.chat_log import ChatLog

    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "first question")
        await pilot.press("ctrl+up")
        await pilot.pause()
        log = app.chat.query_one(ChatLog)
        selected = log.selected
        assert selected is not None
        assert selected.has_class("-selected")
        title = selected.query_one(".message-title")
        assert title.styles.text_style.reverse
        assert selected.styles.border_left[0] == "thick"
        await pilot.press("up")
        await pilot.pause()
        assert log.selected is not selected
        assert not selected.has_class("-selected")
        assert log.selected.query_one(".message-title").styles.text_style.reverse


async def test_regenerate_keeps_the_notes_under_earlier_replies(settings, ui):
    """A user's walk, round twenty-five: Ctrl+R took every earlier reply's memory note off the screen."""
    app = ui.scripted_app(settings, counting_engine())
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        await ui.send(pilot, "Tell me a story about the budget.")
        await ui.send(pilot, "And another one.")
        views = list(app.chat.query_one(ChatLog).query(MessageView))
        last_user = max(i for i, v in enumerate(views) if v.role == "user")
        earlier_notes = [v for v in views[:last_user] if v.role == "command"]
        assert earlier_notes, "an earlier reply has its memory note"
        await pilot.press("ctrl+r")
        await ui.wait_for_reply(pilot)
        await ui.settle(pilot)
        now = list(app.chat.query_one(ChatLog).query(MessageView))
        assert all(note in now for note in earlier_notes), "the notes under earlier replies stay"
        assert [v.content for v in now if v.role == "user"][-1] == "And another one."
