"""Stored text with terminal escapes (a CSI that clears the screen, an OSC 52 clipboard write) is
shown without them in the TUI — messages, the streaming reply, session names, the memory panel,
search and the inspector — while the database keeps it verbatim."""

from __future__ import annotations

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store

EVIL = "safe\x1b]52;c;ZXZpbA==\x07 text\x1b[2J here\x9b31m"


def painted(app) -> str:
    """Every character the compositor would write for the current screen, rows joined."""
    update = app.screen._compositor.render_update(full=True)
    return "\n".join("".join(segment.text for segment in strip) for strip in update.strips)


async def test_escapes_in_stored_text_never_reach_the_terminal(settings, db_path, ui):
    with Store(db_path) as store:
        session = store.create_session(f"trip{EVIL}")
        store.add_message(session.id, "user", f"user says {EVIL}")
        store.add_message(session.id, "assistant", f"assistant says {EVIL}")
    app = ui.scripted_app(settings, ScriptedEngine(f"streamed {EVIL}"))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"hello", "enter")
        await ui.wait_for_reply(pilot)
        await pilot.press("f4")
        await ui.settle(pilot)
        screen = painted(app)
        assert "user says safe text here" in screen
        assert "streamed safe text here" in screen
        assert "\x1b" not in screen
        assert "\x9b" not in screen
        assert "\x07" not in screen
    with Store(db_path) as store:
        stored = [m.content for m in store.list_messages(store.latest_session().id)]
    assert f"user says {EVIL}" in stored, "the database keeps the verbatim text"
