"""Memory you can see and steer: the panel, its keys, slash commands, forgetting."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.screens.dialogs import ConfirmDialog, NameDialog
from desktop_app.ui.screens.memory_item import MemoryItemScreen
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView
from desktop_app.ui.widgets.memory_panel import MemoryPanel


def panel_text(app) -> str:
    listing = app.chat.query_one("#memory-list", OptionList)
    return "\n".join(str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count))


async def open_panel_on(pilot, value_part: str) -> MemoryPanel:
    """Show the panel, focus its list and highlight the item whose value contains ``value_part``."""
    app = pilot.app
    panel = app.chat.query_one(MemoryPanel)
    if not panel.display:
        await pilot.press("f4")
    await pilot.pause()
    item = next(i for i in panel.state.items if value_part in i.value)
    listing = panel.query_one("#memory-list", OptionList)
    listing.focus()
    panel.select_item(item.id)
    await pilot.pause()
    assert panel.highlighted_item_id() == item.id
    return panel


async def test_panel_shows_a_directive_stated_in_the_chat(settings, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        panel = app.chat.query_one(MemoryPanel)
        assert not panel.display
        await ui.send(pilot, "Always answer in Chinese.")
        await pilot.press("f4")
        await pilot.pause()
        assert panel.display
        text = panel_text(app)
        assert "Rules" in text
        assert "Always answer in Chinese" in text
        assert "turn 1" in text  # the source turn is shown
        await pilot.press("f4")
        assert not panel.display


async def test_correcting_a_fact_in_the_panel_changes_the_next_prompt(settings, db_path, ui):
    engine = ScriptedEngine("Noted.")
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        assert "5000" in engine.calls[-1][-1]["content"]
        await open_panel_on(pilot, "5000")
        await pilot.press("c")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NameDialog)
        dialog.query_one(Input).value = "8000"
        await pilot.press("enter")
        await ui.settle(pilot)
        assert "8000" in panel_text(app)
        assert "5000" not in panel_text(app)
        await ui.send(pilot, "How much can I spend?")
    tail = engine.calls[-1][-1]["content"]  # memory changed since the head was folded: before the input
    assert "My budget is 8000 yuan (was My budget is 5000 yuan" in tail
    assert "5000" not in engine.calls[-1][0]["content"]
    with Store(db_path) as store:
        old, new = store.list_items(store.latest_session().id)
        assert (old.status, new.status, new.supersedes, new.origin) == ("superseded", "active", old.id, "user")


async def test_a_pending_rule_is_confirmed_with_one_key(settings, db_path, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Always answer in English.")
        await ui.send(pilot, "Always answer in Chinese.")
        notes = [v.content for v in app.chat.query_one(ChatLog).query(MessageView) if v.role == "command"]
        assert any("conflicts with active rule" in note for note in notes)  # the question is asked in the chat
        await open_panel_on(pilot, "Chinese")
        assert "Waiting for confirmation" in panel_text(app)
        await pilot.press("y")
        await ui.settle(pilot)
        assert "Waiting for confirmation" not in panel_text(app)
    with Store(db_path) as store:
        items = {i.value: i.status for i in store.list_items(store.latest_session().id)}
    assert items == {"Always answer in English": "superseded", "Always answer in Chinese": "active"}


async def test_pin_and_revoke_from_the_item_details(settings, db_path, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        await open_panel_on(pilot, "CSV")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MemoryItemScreen)
        assert "Never modify the source CSV" in ui.text_of(app.screen.query_one("#item-details"))
        await pilot.press("p")
        await ui.settle(pilot)
        assert "★" in panel_text(app)
        await open_panel_on(pilot, "CSV")
        await pilot.press("r")
        await ui.settle(pilot)
        assert "CSV" not in panel_text(app)
    with Store(db_path) as store:
        (item,) = store.list_items(store.latest_session().id)
        assert item.pinned
        assert item.status == "revoked"
        assert [c.action for c in store.item_changes(item.id)] == ["add", "pin", "revoke"]


async def test_forgetting_removes_the_item_its_history_and_its_turns_from_the_database(settings, db_path, ui):
    app = ui.scripted_app(settings, ScriptedEngine("Fine."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        await ui.send(pilot, "Actually the budget is 6000.")
        await ui.send(pilot, "Always answer in Chinese.")
        await open_panel_on(pilot, "6000")
        await pilot.press("d")
        await ui.settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert "2 memory items" in dialog.question
        assert "4 conversation turns" in dialog.question
        await pilot.press("y")
        await ui.settle(pilot)
        assert "budget" not in panel_text(app)
        assert "Chinese" in panel_text(app)
        shown = [v.content for v in app.chat.query_one(ChatLog).query(MessageView)]
        assert not any("5000" in text or "6000" in text for text in shown)
    with Store(db_path) as store:
        session = store.latest_session()
        assert [i.value for i in store.list_items(session.id)] == ["Always answer in Chinese"]
        assert store.search_messages("budget") == []
        assert store.search_messages("5000") == []
        assert not any("5000" in c.patch.get("value", "") for c in store.session_changes(session.id))
        assert [m.content for m in store.list_messages(session.id)] == ["Always answer in Chinese.", "Fine."]
        for row in store.list_turn_log(session.id):  # (timings are numbers that may hold the digits)
            assert "6000" not in row.record.model_dump_json(exclude={"first_token_seconds"})
        assert store.latest_fold(session.id) is None  # the folded head held a copy


async def test_memory_slash_command_answers_without_the_model(settings, ui):
    engine = ScriptedEngine("ok")
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        calls = len(engine.calls)
        await ui.send(pilot, "/memory")
        note = app.chat.query_one(ChatLog).query(MessageView).last()
        assert note.role == "command"
        assert "Never modify the source CSV" in note.content
        assert note.content.startswith("/memory\n")
        await ui.send(pilot, "/pin 1")
        assert len(engine.calls) == calls
        assert "★" in panel_text(app)


async def test_forgetting_a_topic_lists_what_goes_and_keeps_the_rest(settings, db_path, ui):
    app = ui.scripted_app(settings, ScriptedEngine("ok"))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "We decided to go to Kyoto in May.")
        await ui.send(pilot, "Never modify the source CSV.")
        await pilot.press("f4")
        app.chat.query_one("#memory-list").focus()
        await pilot.press("t")
        await pilot.pause()
        app.screen.query_one(Input).value = "Kyoto"
        await pilot.press("enter")
        await ui.settle(pilot)
        assert "“Kyoto”" in app.screen.question
        await pilot.press("y")
        await ui.settle(pilot)
    with Store(db_path) as store:
        session = store.latest_session()
        assert [i.value for i in store.list_items(session.id)] == ["Never modify the source CSV"]
        assert all("Kyoto" not in m.content for m in store.list_messages(session.id))


async def test_pinning_in_the_panel_shows_the_pin_at_once(settings, ui):
    app = ui.scripted_app(settings, ScriptedEngine("Fine."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        panel = await open_panel_on(pilot, "CSV")
        assert "★" not in panel_text(app)
        await pilot.press("p")
        await ui.settle(pilot)
        assert "★" in panel_text(app)
        item = next(i for i in panel.state.items if "CSV" in i.value)
        assert item.pinned, "the highlight stays on the item"
        assert panel.highlighted_item_id() == item.id, "the highlight stays on the item"


async def test_f4_puts_the_focus_on_the_panel_so_its_keys_work_at_once(settings, ui):
    from desktop_app.ui.widgets.chat_input import ChatInput

    app = ui.scripted_app(settings, ScriptedEngine("Fine."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        await pilot.press("f4")
        await pilot.pause()
        assert app.focused is app.chat.query_one("#memory-list", OptionList)
        await pilot.press("p")
        await ui.settle(pilot)
        assert "★" in panel_text(app)
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.focused, ChatInput), "closing the panel gives the focus back to the message box"


async def test_the_models_memory_pass_runs_while_idle_and_the_panel_shows_origin_and_scope(settings, ui):
    """With memory_model on, the scripted engine's JSON fills in what the rules missed; the
    panel marks it 'by model', the profile item for all sessions, and `s` moves it."""
    import json

    entries = {"items": [{"quote": "shellfish makes me sick", "subject": "shellfish", "value": "makes me sick",
                          "kind": "fact", "scope": "profile", "change": "new"}]}

    def reply(messages):
        return json.dumps(entries) if "JSON" in messages[0]["content"] else "Good to know."

    engine = ScriptedEngine(reply)
    app = ui.scripted_app(settings.model_copy(update={"memory_model": "always"}), engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Just so you know, shellfish makes me sick.")
        store = app.chat.store
        await ui.wait_until(pilot, lambda: any(i.origin == "model" for i in store.list_items(app.chat.session.id)))
        await pilot.press("f4")
        await ui.wait_until(pilot, lambda: "by model" in panel_text(app))
        assert "profile · all sessions" in panel_text(app)
        panel = await open_panel_on(pilot, "makes me sick")
        await pilot.press("s")
        await ui.wait_until(pilot, lambda: all(i.scope == "session" for i in store.list_items(app.chat.session.id)
                                               if "sick" in i.value))
        assert panel.display


async def test_the_highlight_follows_an_item_superseded_meanwhile(settings, db_path, ui):
    """A model pass (or another process) supersedes the highlighted item: the next key acts on its
    successor, not on whatever moved into its row (found in the tmux walk: `p` pinned the rule)."""
    app = ui.scripted_app(settings, ScriptedEngine("Fine."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        await ui.send(pilot, "The budget must stay under 5000 dollars.")
        panel = await open_panel_on(pilot, "5000")
        with Store(db_path) as store:  # what the model's pass does from its own connection
            from desktop_app.memory.controls import run_command

            session = store.latest_session()
            budget = next(i for i in store.list_items(session.id) if "5000" in i.value)
            run_command(store, session, "correct", f"{budget.id} 7000", 0.0)
        app.chat.refresh_memory()
        await ui.settle(pilot)
        successor = next(i for i in panel.state.items if "7000" in i.value)
        assert panel.highlighted_item_id() == successor.id
        await pilot.press("p")
        await ui.settle(pilot)
        pinned = [i for i in panel.state.items if i.pinned]
        assert [i.id for i in pinned] == [successor.id], "the CSV rule stays unpinned"


async def test_the_sidebar_makes_way_for_the_panel_when_the_terminal_narrows(settings, ui):
    from desktop_app.ui.widgets.session_list import Sidebar

    app = ui.scripted_app(settings, ScriptedEngine("Fine."))
    async with app.run_test(size=(200, 50)) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f4")
        await pilot.pause()
        sidebar = app.chat.query_one(Sidebar)
        assert sidebar.display, "at 200 columns both fit"
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not sidebar.display
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        assert sidebar.display
        await pilot.press("f4")
        await pilot.pause()
        assert sidebar.display
        assert not app.chat.query_one(MemoryPanel).display


async def test_escape_closes_the_panel_and_the_next_keys_go_to_the_message_box(settings, ui):
    """A user's walk, round twenty-five: Esc left the panel open and the next message was typed into it."""
    from desktop_app.ui.widgets.chat_input import ChatInput

    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Always answer in Chinese.")
        panel = await open_panel_on(pilot, "Chinese")
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display
        assert isinstance(app.focused, ChatInput)


async def test_a_value_cut_in_the_note_under_a_reply_is_marked_so(settings, ui):
    """A user's walk, round twenty-five: "#1 hey, I'm throwing a housewarming party a" read as a typo."""
    from desktop_app.ui.widgets.chat_log import ChatLog, MessageView

    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget for the housewarming party at my new apartment is 5000 yuan.")
        await ui.send(pilot, "What should I cook?")
        notes = [v.content for v in app.chat.query_one(ChatLog).query(MessageView) if v.role == "command"]
        assert any("…" in note for note in notes), notes
