"""Search across all sessions (Chinese too) and the per-session mode and system prompt."""

from __future__ import annotations

from textual.widgets import OptionList, Select, TextArea

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.screens.search import SearchScreen
from desktop_app.ui.screens.session_settings import SessionSettingsScreen
from desktop_app.ui.widgets.chat_log import ChatLog


def seed(db_path) -> None:
    with Store(db_path) as store:
        trip = store.create_session("trip", now=1_700_000_000)
        store.add_message(trip.id, "user", "我们的预算是五千元，住在京都。", created_at=1_700_000_000)
        store.add_message(trip.id, "assistant", "好的，我记住了。", created_at=1_700_000_001)
        work = store.create_session("work", now=1_700_000_100)
        store.add_message(work.id, "user", "The quarterly report is due Friday.", created_at=1_700_000_100)
        store.add_message(work.id, "assistant", "Noted.", created_at=1_700_000_101)


def results(app) -> list[str]:
    listing = app.screen.query_one("#search-results", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def search_for(pilot, ui, query: str) -> list[str]:
    app = pilot.app
    if not isinstance(app.screen, SearchScreen):
        await pilot.press("f3")
        await pilot.pause()
    app.screen.query_one("#search-input").value = query
    await ui.wait_until(pilot, lambda: any(query in r for r in results(app)) or "No matches." in results(app))
    return results(app)


async def test_search_finds_a_chinese_phrase_in_another_session_and_opens_it(settings, db_path, ui):
    seed(db_path)
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert app.chat.session.name == "work"  # the most recent one
        found = await search_for(pilot, ui, "预算是五千")
        assert any("trip" in r and "预算是五千" in r for r in found)
        await pilot.press("enter")  # from the box into the results
        await pilot.press("enter")  # open the first hit
        await ui.settle(pilot)
        assert not isinstance(app.screen, SearchScreen)
        assert app.chat.session.name == "trip"
        selected = app.chat.query_one(ChatLog).selected
        assert selected is not None
        assert selected.content.startswith("我们的预算")


async def test_short_chinese_words_and_session_names_are_found_too(settings, db_path, ui):
    seed(db_path)
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert any("京都" in r for r in await search_for(pilot, ui, "京都"))  # two characters: no trigram
        assert any("▸ work" in r for r in await search_for(pilot, ui, "work"))
        assert await search_for(pilot, ui, "nothing-like-this") == ["No matches."]


async def test_session_mode_and_system_prompt_are_used_by_the_next_turn(settings, db_path, ui):
    engine = ScriptedEngine("Arr.")
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f10")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SessionSettingsScreen)
        screen.query_one("#session-mode", Select).value = "sliding"
        screen.query_one("#session-prompt", TextArea).text = "You are a pirate."
        await pilot.press("ctrl+s")
        await ui.settle(pilot)
        await ui.send(pilot, "hello")
    assert engine.calls[-1][0]["content"].startswith("You are a pirate.")
    with Store(db_path) as store:
        session = store.latest_session()
        assert (session.mode, session.system_prompt) == ("sliding", "You are a pirate.")
        assert store.list_turn_log(session.id)[-1].mode == "sliding"
