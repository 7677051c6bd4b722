"""Snapshot tests (pytest-textual-snapshot) for the layout-critical screens: the chat, the
memory panel and the context inspector. Deterministic: a fixed terminal size, a scripted
engine, a database seeded at a fixed time. Update with ``pytest tests/ui --snapshot-update``
after an intended change, and look at the new SVGs before committing them.
"""

from __future__ import annotations

import time

import pytest
from textual.widgets import TextArea

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.config import Settings
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.app import PaperclipApp

SIZE = (110, 34)
FIXED = 1_767_261_600.0  # 2026-01-01 10:00 UTC
TURNS = ("My budget is 5000 yuan.", "Always answer in Chinese.", "Never modify the source CSV.",
         "We decided to go to Kyoto in May.", "How much can I spend on the hotel?")


@pytest.fixture
def seeded_app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> PaperclipApp:
    engine = ScriptedEngine("Noted — I will keep that in mind.", n_ctx=2048)
    with monkeypatch.context() as frozen:
        frozen.setattr(time, "time", lambda: FIXED)
        with Store(settings.db_path) as store:
            session = store.session_named("trip")
            pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
            for text in TURNS:
                run_turn(pipeline, store.get_session(session.id), engine, text, settings=settings)
    return PaperclipApp(settings, engine_factory=lambda _settings: engine)


async def _ready(pilot) -> None:
    """The model loaded and the idle work it starts (warming the session's head) done, so the
    footer shows no "warming context…" progress."""
    chat = pilot.app.chat
    while chat.engine is None or chat.session is None:
        await pilot.pause(0.02)
    await pilot.pause()
    while len(chat.jobs) or chat.jobs.running or [w for w in pilot.app.workers
                                                  if w.group == "memory-jobs" and w.is_running]:
        await pilot.pause(0.02)
    for area in pilot.app.query(TextArea):  # a blinking cursor is drawn or not by the clock
        area.cursor_blink = False
    await pilot.pause()


def test_main_screen(seeded_app, snap_compare):
    assert snap_compare(seeded_app, terminal_size=SIZE, run_before=_ready)


def test_memory_panel(seeded_app, snap_compare):
    async def open_panel(pilot) -> None:
        await _ready(pilot)
        await pilot.press("f4")
        await pilot.pause()

    assert snap_compare(seeded_app, terminal_size=SIZE, run_before=open_panel)


def test_inspector(seeded_app, snap_compare):
    async def open_inspector(pilot) -> None:
        await _ready(pilot)
        await pilot.press("f5")
        await pilot.pause()

    assert snap_compare(seeded_app, terminal_size=SIZE, run_before=open_inspector)
