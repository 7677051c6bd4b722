"""The TUI's error boundary: an unhandled failure ends the app with one line on the terminal (what
to do, for a failure the user can act on); a bug's traceback goes to crash.log."""

from __future__ import annotations

from desktop_app.memory.store.sqlite_backend import sqlite
from desktop_app.ui.screens.chat import ChatScreen


async def test_a_full_disk_in_a_handler_ends_in_one_line_and_keeps_what_was_stored(settings, ui, monkeypatch,
                                                                                  paperclip_home, capsys):
    def full(self):
        raise sqlite.OperationalError("database or disk is full")

    app = ui.scripted_app(settings)
    try:
        async with app.run_test(size=ui.size) as pilot:
            await ui.wait_for_model(pilot)
            await pilot.press(*"keep me", "enter")
            await ui.wait_for_reply(pilot)
            monkeypatch.setattr(ChatScreen, "action_toggle_sidebar", full)
            await pilot.press("ctrl+b")
            await pilot.pause()
    except sqlite.OperationalError:
        pass  # Pilot re-raises the app's exception for the test framework
    assert app.return_code == 1
    err = capsys.readouterr().err
    assert err.strip() == ("paperclip: the disk is full: nothing that was saved is lost; free some space and "
                           "run it again")
    assert not (paperclip_home / "data" / "crash.log").exists()
    assert [m.content for m in ui.stored_messages(settings.db_path)][:1] == ["keep me"]


async def test_a_bug_goes_to_the_crash_log_not_over_the_terminal(settings, ui, monkeypatch, paperclip_home, capsys):
    def bug(self):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(ChatScreen, "action_toggle_sidebar", bug)
    app = ui.scripted_app(settings)
    try:
        async with app.run_test(size=ui.size) as pilot:
            await ui.wait_for_model(pilot)
            await pilot.press("ctrl+b")
            await pilot.pause()
    except RuntimeError:
        pass  # Pilot re-raises the app's exception for the test framework
    assert app.return_code == 1
    log = paperclip_home / "data" / "crash.log"
    assert "RuntimeError: a bug in a handler" in log.read_text(encoding="utf-8")
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    err = capsys.readouterr().err  # what the app printed as it exited
    assert "Traceback" not in err
    assert "crash.log" in err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("paperclip: unexpected error (RuntimeError: a bug in a handler)")
