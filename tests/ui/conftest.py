"""Fixtures for driving the real Paperclip app with Pilot.

Every test gets its own ``PAPERCLIP_HOME`` and SQLite file under ``tmp_path``, so nothing
touches the user's folders, and a scripted engine so replies are deterministic.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_app.config import Settings
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.ui.app import PaperclipApp

SIZE = (110, 34)


@pytest.fixture(autouse=True)
def paperclip_home(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/conftest.py's ``isolated_home``, and no models folder from the environment either."""
    monkeypatch.delenv("PAPERCLIP_MODELS_DIR", raising=False)
    return isolated_home


@pytest.fixture(autouse=True)
def english_ui():
    """The UI language is process-wide: every test starts (and leaves) it English."""
    from desktop_app.ui.i18n import set_lang

    set_lang("en")
    yield
    set_lang("en")


@pytest.fixture
def settings(db_path: Path, tmp_path: Path) -> Settings:
    """Overrides tests/support's ``settings``: a scripted model's path, no reply retry, and the model answers
    every message."""
    # Scripted replies repeat themselves on purpose; the reply checks' retry has its own tests. The program's
    # own answer to a message that only tells (acknowledge = "first", the default) has its own Pilot test
    # (test_acknowledgment_ui.py); here the scripted model's words are what the tests read.
    return Settings(db=db_path, model=tmp_path / "scripted.gguf", reply_retry=False, acknowledge="fallback")


class HoldingEngine(ScriptedEngine):
    """Streams exactly ``hold_after`` pieces, then waits until the test sets ``release``.

    Makes "mid-stream" a definite state rather than a race against a timer.
    """

    def __init__(self, reply: str, hold_after: int, **kwargs) -> None:
        super().__init__(reply, **kwargs)
        self.hold_after = hold_after
        self.held = threading.Event()

    def stream_chat(self, messages, **kwargs):
        for count, piece in enumerate(super().stream_chat(messages, **kwargs), start=1):
            yield piece
            if count == self.hold_after:
                self.release.clear()
                self.held.set()


def scripted_app(settings: Settings, engine: ScriptedEngine | None = None, **kwargs) -> PaperclipApp:
    engine = engine or ScriptedEngine("Hello from **the script**.")
    return PaperclipApp(settings, engine_factory=lambda _settings: engine, **kwargs)


async def wait_until(pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds; fail loudly instead of hanging."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {getattr(condition, '__name__', condition)}")
        await pilot.pause(0.02)


async def wait_for_model(pilot) -> None:
    """Until the model has loaded (or failed) and the first session is open (both load in workers)."""
    chat = pilot.app.chat
    await wait_until(pilot, lambda: (chat.engine is not None or chat.model_error is not None)
                     and chat.session is not None)


async def wait_for_reply(pilot) -> None:
    """Until the worker has finished and the UI has handled its last message."""
    chat = pilot.app.chat
    await wait_until(pilot, lambda: chat.reply_done.is_set() and not chat.generating)
    await pilot.pause()


async def send(pilot, text: str) -> None:
    """Type ``text`` into the message box (set at once: typing key by key is slow), send it and
    wait for the reply and any store job it started."""
    from desktop_app.ui.widgets.chat_input import ChatInput

    chat_input = pilot.app.chat.query_one(ChatInput)
    chat_input.text = text
    chat_input.focus()
    await pilot.pause()
    await pilot.press("enter")
    await wait_for_reply(pilot)
    await settle(pilot)


async def settle(pilot) -> None:
    """Until every worker but the model loader is done (store jobs, slash commands, search) and
    the callbacks they triggered have run: idle twice in a row, since a job's ``done`` callback
    may start another job (forget → reopen the session)."""
    app = pilot.app

    def idle() -> bool:
        return not [w for w in app.workers if w.group not in ("model",) and w.is_running]

    for _ in range(2):
        await wait_until(pilot, idle)
        await pilot.pause()
        await pilot.pause(0.02)


def text_of(widget, width: int = 160) -> str:
    """What a ``Static`` shows, as plain text (rich tables and groups rendered)."""
    import io

    from rich.console import Console

    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(widget.content)
    return console.file.getvalue()


def stored_messages(db_path: Path, session_name: str | None = None):
    with Store(db_path) as store:
        session = store.find_session(session_name) if session_name else store.latest_session()
        return [] if session is None else store.list_messages(session.id)


class UIHelpers:
    """The helpers above as one fixture, so test modules need no imports from conftest."""

    HoldingEngine = HoldingEngine
    scripted_app = staticmethod(scripted_app)
    wait_until = staticmethod(wait_until)
    wait_for_model = staticmethod(wait_for_model)
    wait_for_reply = staticmethod(wait_for_reply)
    send = staticmethod(send)
    text_of = staticmethod(text_of)
    settle = staticmethod(settle)
    stored_messages = staticmethod(stored_messages)
    size = SIZE


@pytest.fixture
def ui() -> UIHelpers:
    return UIHelpers()


class Notifications(list):
    """Records ``app.notify`` calls as (message, severity)."""

    def __call__(self, message, *, title="", severity="information", timeout=None, markup=True):
        self.append((str(message), severity))

    def text(self) -> str:
        return "\n".join(message for message, _ in self)


@pytest.fixture
def notifications() -> Notifications:
    return Notifications()
