"""The chat screen as its mixins see it — for the type checker only.

The chat screen's actions live in mixins (sessions, memory, versions, tools, store jobs) that
use the screen's state and each other's methods. Under ``TYPE_CHECKING`` they derive from
:class:`ChatHost`, which declares that state and those methods on a ``Screen``; at run time
``ChatHost`` is ``object``, so the mixins and the chat screen's MRO are as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

# A store job and what runs when it is done (desktop_app/ui/jobs.py).
Job = Callable[[Any], Any]
Done = Callable[[Any], Any]

if TYPE_CHECKING:
    import threading
    from pathlib import Path
    from typing import Any

    from textual import getters
    from textual.app import App
    from textual.screen import Screen
    from textual.worker import Worker

    from desktop_app.config import Settings
    from desktop_app.engine.guard import LockedEmbedder
    from desktop_app.engine.kv_cache import KvCache
    from desktop_app.engine.protocol import ChatEngine
    from desktop_app.memory.background.queue import JobQueue
    from desktop_app.memory.core.models import Session
    from desktop_app.memory.store import Store
    from desktop_app.memory.warming import ContextOwner
    from desktop_app.ui.widgets.chat_log import MessageView

    class AppHost(App[int]):
        """What the screens use of :class:`~desktop_app.ui.app.PaperclipApp`: declared here, not
        imported, because the app imports the screens."""

        chat: ChatHost

        def apply_settings(self, changes: dict[str, Any]) -> Path: ...

    class ChatHost(Screen[None]):
        """What :class:`~desktop_app.ui.screens.chat.ChatScreen` gives its mixins."""

        app = getters.app(AppHost)

        # -- state (set in ChatScreen.__init__) ------------------------------------------------
        settings: Settings
        store: Store
        session_name: str | None
        session: Session | None
        engine: ChatEngine | None
        model_error: str | None
        stop_requested: threading.Event
        reply_done: threading.Event
        embedder: LockedEmbedder | None
        embedder_error: str | None
        jobs: JobQueue
        kv_cache: KvCache | None
        context_owner: ContextOwner
        covered: bool
        queued: list[tuple[str, MessageView]]
        docs_session_only: dict[int, bool]
        generating: bool

        # -- the chat screen's own methods ------------------------------------------------------
        def show_context(self, used: int | None = None) -> None: ...
        def warm_session(self, session_id: int, *, leaving: int | None = None) -> None: ...
        async def start_turn(self, raw_text: str | None, *, anchor_id: int | None = None,
                             queued_view: MessageView | None = None) -> bool: ...

        # -- one mixin's methods used by another -------------------------------------------------
        def run_store_job(self, job: Job, done: Done | None = None, *, group: str = "store",
                          exclusive: bool = False) -> Worker[Any]: ...
        async def open_session(self, session: Session) -> None: ...
        async def switch_session(self, session_id: int) -> None: ...
        def refresh_sessions(self) -> None: ...
        def refresh_memory(self) -> None: ...
        def run_memory_jobs(self) -> None: ...
        def _busy(self, what: str) -> bool: ...
        def embed_documents(self) -> None: ...
else:
    ChatHost = object
