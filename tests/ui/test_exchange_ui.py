"""Export a session (Markdown, JSON with memory) and import it back, or a ChatGPT export,
through the app's dialogs, with the progress bar."""

from __future__ import annotations

import json

from textual.widgets import Input, ProgressBar, Select

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.screens.exchange import ExportScreen, ImportScreen


async def export_to(pilot, ui, path, fmt: str) -> None:
    app = pilot.app
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert isinstance(app.screen, ExportScreen)
    app.screen.query_one("#export-format", Select).value = fmt
    await pilot.pause()
    app.screen.query_one("#export-path", Input).value = str(path)
    await pilot.click("#export")
    await ui.settle(pilot)
    await ui.wait_until(pilot, lambda: not isinstance(app.screen, ExportScreen))


async def import_from(pilot, ui, path) -> list:
    app = pilot.app
    await pilot.press("ctrl+l")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ImportScreen)
    seen: list[tuple[int, int]] = []
    bar = screen.query_one("#import-progress", ProgressBar)
    original = bar.update

    def record(**kwargs):
        seen.append((kwargs.get("progress"), kwargs.get("total")))
        original(**kwargs)

    bar.update = record  # the screen moves the bar once per stored turn
    screen.query_one("#import-path", Input).value = str(path)
    await pilot.click("#import")
    await ui.wait_until(pilot, lambda: not isinstance(app.screen, ImportScreen), timeout=20)
    await ui.settle(pilot)
    steps = [(done, total) for done, total in seen if done is not None and total is not None]
    assert bar.progress == bar.total == steps[-1][1]
    return list(dict.fromkeys(steps))


async def test_export_then_import_round_trips_a_session_with_its_memory(settings, db_path, tmp_path, ui):
    app = ui.scripted_app(settings, ScriptedEngine("Understood."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        await ui.send(pilot, "Always answer in Chinese.")
        await export_to(pilot, ui, tmp_path / "out" / "trip.json", "json")
        exported = json.loads((tmp_path / "out" / "trip.json").read_text(encoding="utf-8"))
        assert exported["format"] == "paperclip-session"
        assert {m["value"] for m in exported["memory"]} == {"My budget is 5000 yuan", "Always answer in Chinese"}

        progress = await import_from(pilot, ui, tmp_path / "out" / "trip.json")
        assert progress[-1] == (4, 4)
        assert len(progress) == 4
    with Store(db_path) as store:
        original, copy = store.find_session("default"), store.find_session("default (2)")
        assert copy is not None
        as_pairs = lambda s: [(m.role, m.content) for m in store.list_messages(s.id)]  # noqa: E731
        assert as_pairs(copy) == as_pairs(original)
        # memory extraction ran on the imported turns as if they had been typed
        values = lambda s: {(i.kind, i.value, i.status) for i in store.list_items(s.id)}  # noqa: E731
        assert values(copy) == values(original)


async def test_markdown_export_is_a_readable_transcript(settings, tmp_path, ui):
    app = ui.scripted_app(settings, ScriptedEngine("Noted."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        await export_to(pilot, ui, tmp_path / "t.md", "markdown")
    text = (tmp_path / "t.md").read_text(encoding="utf-8")
    assert text.startswith("# default")
    assert "Never modify the source CSV." in text
    assert "## Memory" in text


def chatgpt_export(path) -> None:
    def node(node_id, parent, role, text, children):
        message = None if role is None else {"id": node_id, "author": {"role": role}, "create_time": 1700000000,
                                             "content": {"content_type": "text", "parts": [text]}}
        return {"id": node_id, "parent": parent, "children": children, "message": message}

    conversation = {"title": "Trip planning", "current_node": "c", "mapping": {
        "root": node("root", None, None, "", ["a"]),
        "a": node("a", "root", "user", "我们的预算是五千元。", ["b"]),
        "b": node("b", "a", "assistant", "好的，预算五千元。", ["c"]),
        "c": node("c", "b", "user", "Always answer in Chinese.", []),
    }}
    path.write_text(json.dumps([conversation], ensure_ascii=False), encoding="utf-8")


async def test_importing_a_chatgpt_export_makes_a_session_and_extracts_memory(settings, db_path, tmp_path, ui):
    chatgpt_export(tmp_path / "conversations.json")
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        progress = await import_from(pilot, ui, tmp_path / "conversations.json")
        assert progress == [(1, 3), (2, 3), (3, 3)]
        assert "Trip planning" in [s.name for s in app.store.list_sessions()]
    with Store(db_path) as store:
        session = store.find_session("Trip planning")
        assert [m.content for m in store.list_messages(session.id)][0] == "我们的预算是五千元。"
        assert "Always answer in Chinese" in {i.value for i in store.list_items(session.id)}


async def test_a_broken_import_file_says_why_and_keeps_the_dialog_open(settings, tmp_path, ui, notifications):
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        await pilot.press("ctrl+l")
        await pilot.pause()
        app.screen.query_one("#import-path", Input).value = str(tmp_path / "bad.json")
        await pilot.click("#import")
        await ui.wait_until(pilot, lambda: "not valid JSON" in notifications.text())
        assert isinstance(app.screen, ImportScreen)
        assert not app.screen.running


async def test_enter_exports_to_the_suggested_file_under_paperclip_home(settings, ui, isolated_home):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "hello")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#export")
        await pilot.press("enter")
        await ui.settle(pilot)
    written = isolated_home / "exports" / "default.md"
    assert written.exists()
    assert "hello" in written.read_text(encoding="utf-8")
