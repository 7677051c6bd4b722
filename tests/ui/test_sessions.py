"""Sessions survive restarts and can be created, renamed, switched and deleted."""

from __future__ import annotations

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.palette import PaperclipCommands
from desktop_app.ui.screens.dialogs import ConfirmDialog, NameDialog
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView
from desktop_app.ui.widgets.session_list import SessionList


def shown(app) -> list[tuple[str, str]]:
    return [(v.role, v.content) for v in app.chat.query_one(ChatLog).query(MessageView)]


def session_names(db_path) -> list[str]:
    with Store(db_path) as store:
        return [s.name for s in store.list_sessions()]


async def test_a_restarted_app_reopens_the_session_with_its_messages(settings, db_path, ui):
    first = ui.scripted_app(settings, ScriptedEngine("First answer."), session_name="notes")
    async with first.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"remember the budget is 5000", "enter")
        await ui.wait_for_reply(pilot)
        await pilot.press("ctrl+q")

    second = ui.scripted_app(settings, ScriptedEngine("Second answer."))
    async with second.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert second.chat.session.name == "notes"
        assert second.sub_title == "notes"
        assert shown(second) == [("user", "remember the budget is 5000"), ("assistant", "First answer.")]
        await pilot.press(*"and now?", "enter")
        await ui.wait_for_reply(pilot)
    assert [m.content for m in ui.stored_messages(db_path, "notes")] == [
        "remember the budget is 5000", "First answer.", "and now?", "Second answer."]


async def test_first_start_creates_the_default_session(settings, db_path, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await pilot.pause()
        assert app.chat.session.name == "default"
        assert app.chat.query(".empty-hint")
    assert session_names(db_path) == ["default"]


async def test_session_name_flag_opens_or_creates_that_session(settings, db_path, ui):
    with Store(db_path) as store:
        store.create_session("older")
        store.create_session("newest")
    app = ui.scripted_app(settings, session_name="older")
    async with app.run_test(size=ui.size) as pilot:
        await pilot.pause()
        assert app.chat.session.name == "older"


async def test_new_rename_and_delete_through_key_bindings(settings, db_path, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"hi", "enter")
        await ui.wait_for_reply(pilot)

        await pilot.press("ctrl+n")
        assert isinstance(app.screen, NameDialog)
        await pilot.press(*"work", "enter")
        await ui.settle(pilot)  # the new session is created by a store job
        assert app.chat.session.name == "work"
        assert app.sub_title == "work"
        assert shown(app) == []
        assert session_names(db_path) == ["work", "default"]

        await pilot.press("f2")
        assert isinstance(app.screen, NameDialog)
        await pilot.press(*"work plans", "enter")
        await ui.settle(pilot)
        assert app.chat.session.name == "work plans"
        assert app.sub_title == "work plans"
        assert "work plans" in session_names(db_path)

        await pilot.press("f8")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # cancelling keeps it
        await pilot.pause()
        assert "work plans" in session_names(db_path)

        await pilot.press("f8")
        await pilot.pause()
        await pilot.click("#confirm")
        await ui.settle(pilot)
        assert session_names(db_path) == ["default"]
        assert app.chat.session.name == "default"
        assert shown(app) == [("user", "hi"), ("assistant", "Hello from **the script**.")]


async def test_duplicate_names_are_refused_with_a_message(settings, db_path, ui, notifications):
    with Store(db_path) as store:
        store.create_session("taken")
        store.create_session("mine")
    app = ui.scripted_app(settings, session_name="mine")
    async with app.run_test(size=ui.size) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        await pilot.press("f2", *"taken", "enter")
        await ui.settle(pilot)
        assert app.chat.session.name == "mine"
        assert "already exists" in notifications.text()


async def test_deleting_the_only_session_leaves_a_fresh_default(settings, db_path, ui):
    app = ui.scripted_app(settings, session_name="solo")
    async with app.run_test(size=ui.size) as pilot:
        await pilot.pause()
        await app.chat.delete_current_session().wait()
        await pilot.pause()
        assert app.chat.session.name == "default"
    assert session_names(db_path) == ["default"]


async def test_choosing_a_session_in_the_sidebar_switches_to_it(settings, db_path, ui):
    with Store(db_path) as store:
        other = store.create_session("other")
        store.add_message(other.id, "user", "a question from before")
        store.create_session("current")
    app = ui.scripted_app(settings, session_name="current")
    async with app.run_test(size=ui.size) as pilot:
        await pilot.pause()
        sessions = app.chat.query_one(SessionList)
        assert [o.id for o in sessions.options] == ["s2", "s1"]  # most recently active first
        await pilot.press("ctrl+o")
        assert app.focused is sessions
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.chat.session.name == "other"
        assert shown(app) == [("user", "a question from before")]


async def test_switching_is_refused_while_a_reply_streams(settings, db_path, ui, notifications):
    with Store(db_path) as store:
        store.create_session("elsewhere")
    engine = ui.HoldingEngine("one two three four", hold_after=1)
    app = ui.scripted_app(settings, engine, session_name="here")
    async with app.run_test(size=ui.size) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        await pilot.press(*"go", "enter")
        await ui.wait_until(pilot, engine.held.is_set)
        await app.chat.switch_session(1)
        await pilot.press("ctrl+n")
        assert app.chat.session.name == "here"
        assert not isinstance(app.screen, NameDialog)
        assert "Stop the reply first" in notifications.text()
        engine.release.set()
        await ui.wait_for_reply(pilot)


async def test_command_palette_offers_the_main_actions_and_each_session(settings, db_path, ui):
    with Store(db_path) as store:
        store.create_session("archive")
    app = ui.scripted_app(settings, session_name="today")
    async with app.run_test(size=ui.size) as pilot:
        await pilot.pause()
        provider = PaperclipCommands(app.screen)
        titles = [hit.text async for hit in provider.discover()]
        for title in ("New session", "Rename session", "Delete session", "Stop reply", "Toggle sidebar"):
            assert title in titles
        assert "Switch to session: archive" in titles
        assert "Switch to session: today" not in titles  # already open

        hits = [hit async for hit in provider.search("switch archive")]
        assert hits
        assert hits[0].text == "Switch to session: archive"
        await hits[0].command()
        assert app.chat.session.name == "archive"
        assert "Quit" in [c.title for c in app.get_system_commands(app.screen)]


async def test_sidebar_toggles(settings, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        sidebar = app.chat.query_one("#sidebar")
        assert sidebar.display
        await pilot.press("ctrl+b")
        assert not sidebar.display
        await pilot.press("ctrl+b")
        assert sidebar.display


async def test_long_history_shows_the_last_page_and_loads_earlier_pages(settings, db_path, ui):
    with Store(db_path) as store:
        session = store.create_session("long")
        for i in range(130):
            store.add_message(session.id, "user" if i % 2 == 0 else "assistant", f"message {i}")
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        log = app.chat.query_one(ChatLog)
        await ui.wait_until(pilot, lambda: log.query("#earlier") and log.max_scroll_y > 0)
        assert [c for _, c in shown(app)] == [f"message {i}" for i in range(30, 130)]
        await ui.wait_until(pilot, lambda: log.scroll_y == log.max_scroll_y)  # opened at the newest

        button = log.query_one("#earlier")
        assert "30 earlier messages" in str(button.label)
        button.press()
        await ui.wait_until(pilot, lambda: len(shown(app)) == 130 and not log.query("#earlier"))
        assert [c for _, c in shown(app)] == [f"message {i}" for i in range(130)]

        await pilot.press("shift+pageup")
        await pilot.pause()
        assert log.scroll_y < log.max_scroll_y


async def test_the_delete_dialog_answers_to_y_and_n_and_shows_its_focus(settings, db_path, ui):
    from textual.widgets import Button

    with Store(db_path) as store:
        store.create_session("keep")
        store.create_session("doomed")
    app = ui.scripted_app(settings, session_name="doomed")
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f8")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert app.focused is dialog.query_one("#cancel", Button), "the safe answer has the focus"
        assert "(y)" in str(dialog.query_one("#confirm", Button).label)
        assert "n / Esc" in str(dialog.query_one("#cancel", Button).label)
        await pilot.press("n")
        await ui.settle(pilot)
        assert session_names(db_path) == ["doomed", "keep"] or set(session_names(db_path)) == {"doomed", "keep"}
        await pilot.press("f8")
        await pilot.pause()
        await pilot.press("y")
        await ui.settle(pilot)
        assert session_names(db_path) == ["keep"]
        assert app.chat.session.name == "keep"
