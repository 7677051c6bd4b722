"""The chat screen: session sidebar, conversation, model status, the message box, the memory
panel and the footer with the context meter.

It owns the worker threads — model loading, inference, embeddings and short store jobs — and
turns their messages into widget updates. Threading rules (one user of the engine at a time,
one SQLite connection per thread) are kept in :mod:`desktop_app.ui.inference` and
:mod:`desktop_app.ui.jobs`. Session, memory, version and tool actions live in mixins.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header
from textual.worker import Worker, WorkerState, get_current_worker

from desktop_app.config import Settings
from desktop_app.engine.kv_cache import KvCache
from desktop_app.engine.protocol import ChatEngine
from desktop_app.memory.background.queue import JobQueue
from desktop_app.memory.core.models import Session
from desktop_app.memory.store import Store
from desktop_app.memory.turn import InputRejected, clean_user_text
from desktop_app.memory.warming import ContextOwner, DraftWarmJob, WarmJob, worth_drafting
from desktop_app.ui.i18n import t, translate_bindings
from desktop_app.ui.inference import EngineFactory, generate_reply, load_engine
from desktop_app.ui.jobs import StoreJobs
from desktop_app.ui.messages import (
    ContextProgress,
    ModelLoaded,
    ModelLoadFailed,
    ReplyFailed,
    ReplyFinished,
    ReplyRetrying,
    ReplyStarted,
    TokenReceived,
)
from desktop_app.ui.screens.branch_actions import BranchActions
from desktop_app.ui.screens.memory_actions import MemoryActions
from desktop_app.ui.screens.sessions import SessionActions
from desktop_app.ui.screens.tools import ToolActions
from desktop_app.ui.widgets.chat_input import ChatInput
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView, ReplyView
from desktop_app.ui.widgets.context_meter import ContextMeter
from desktop_app.ui.widgets.footer import FittedFooter
from desktop_app.ui.widgets.memory_panel import MemoryPanel
from desktop_app.ui.widgets.model_status import ModelStatus, model_label
from desktop_app.ui.widgets.session_list import Sidebar

if TYPE_CHECKING:
    from desktop_app.engine.guard import LockedEmbedder

TYPING_PAUSE_SECONDS = 0.8  # idle work (type-ahead first) resumes after this long without a keystroke
MAX_DRAFT_CHARS = 4000  # a long paste is recalled on when sent, not while it sits in the box

def is_document_command(text: str) -> bool:
    """``/doc`` or ``/docs`` (the Documents panel), optionally ``add PATH``."""
    words = text.strip().split(maxsplit=1)
    return bool(words) and words[0].lower() in ("/doc", "/docs")


class ChatScreen(SessionActions, MemoryActions, BranchActions, ToolActions, StoreJobs, Screen):
    """The main (and default) screen."""

    BINDINGS = [
        Binding("escape", "stop_reply", "Stop reply"),
        Binding("f1", "help", "Help"),
        Binding("f4", "toggle_memory", "Memory"),
        Binding("f5", "open_inspector", "Inspector"),
        Binding("ctrl+t,f6", "documents", "Documents", show=False),
        Binding("f3,ctrl+f", "search", "Search"),
        Binding("ctrl+r", "regenerate", "Regenerate"),
        Binding("ctrl+up", "select_messages", "Select", show=False),
        Binding("ctrl+n", "new_session", "New"),
        Binding("f2", "rename_session", "Rename", show=False),
        Binding("f8", "delete_session", "Delete", show=False),
        Binding("f9", "settings", "Settings", show=False),
        Binding("f10", "session_settings", "Session", show=False),
        Binding("ctrl+s", "export_session", "Export", show=False),
        Binding("ctrl+l", "import_file", "Import", show=False),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar", show=False),
        Binding("ctrl+o", "focus_sessions", "Sessions", show=False),
        Binding("shift+pageup", "scroll_history(-1)", "Scroll up", show=False),
        Binding("shift+pagedown", "scroll_history(1)", "Scroll down", show=False),
    ]

    generating: var[bool] = var(False)

    def __init__(self, settings: Settings, store: Store, engine_factory: EngineFactory,
                 session_name: str | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.store = store
        self.engine_factory = engine_factory
        self.session_name = session_name
        self.session: Session | None = None
        self.engine: ChatEngine | None = None
        self.model_error: str | None = None
        self._told_model = False
        self.stop_requested = threading.Event()
        # Set while no reply is being generated; quitting waits on it so the partial is stored.
        self.reply_done = threading.Event()
        self.reply_done.set()
        self._reply_view: ReplyView | None = None
        self._user_view: MessageView | None = None
        self.embedder: LockedEmbedder | None = None  # loaded by the jobs worker on first use
        self.embedder_error: str | None = None
        self.jobs = JobQueue()  # background memory work, run while the chat is idle
        self.kv_cache = KvCache.for_settings(settings)  # the chat context's state per session, across restarts
        self.context_owner = ContextOwner()  # which session the chat context holds
        self._idle_timer: Timer | None = None
        self.covered = False  # a dialog (or the palette) is over the chat
        self.queued: list[tuple[str, MessageView]] = []  # sent while a reply streamed, oldest first
        self.docs_session_only: dict[int, bool] = {}  # the Documents panel's scope box, per session
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield Sidebar(id="sidebar")
            with Vertical(id="main"):
                yield ModelStatus(id="model-status")
                yield ChatLog(id="chat-log")
                yield ChatInput(id="chat-input", placeholder=t("chat.placeholder"))
            yield MemoryPanel(id="memory-panel")
        with Horizontal(id="status-bar"):
            yield FittedFooter()
            yield ContextMeter(id="context-meter")

    async def on_mount(self) -> None:
        for widget in (self.query_one(ChatLog), self.query_one(MemoryPanel), self.query_one(ChatInput)):
            translate_bindings(widget)
        self.query_one(MemoryPanel).display = False
        self.query_one(ModelStatus).show_loading(self.settings.model_path)
        self.load_model()
        self.open_initial_session()
        self.query_one(ChatInput).focus()

    @property
    def n_ctx(self) -> int | None:
        """The window in force: the loaded model's, else the configured size (0 = unknown)."""
        return self.engine.n_ctx if self.engine is not None else (self.settings.ctx or None)

    def show_context(self, used: int | None = None) -> None:
        """The footer meter: ``used`` tokens (default: the last recorded prompt) of the window."""
        if used is None and self.session is not None:
            record = self.store.last_turn_record(self.session.id)
            used = record.total_tokens if record else 0
        self.query_one(ContextMeter).show(used, self.n_ctx)

    # -- model ----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="model", exit_on_error=False)
    def load_model(self) -> None:
        worker = get_current_worker()

        def post(message) -> None:
            if not worker.is_cancelled:  # a reload superseded this load: drop its result
                self.post_message(message)

        load_engine(self.settings, self.engine_factory, post)

    def on_model_loaded(self, message: ModelLoaded) -> None:
        self.engine, self.model_error = message.engine, None
        self.context_owner.session_id = None  # a fresh context holds nothing
        self.query_one(ModelStatus).show_ready(model_label(message.engine), message.engine.n_ctx, message.seconds)
        if self.settings.model is None and getattr(message.engine, "model_path", None) == self.settings.model_path \
                and not self._told_model:
            from desktop_app.config import default_model_choice

            self._told_model = True  # which model the machine got, and why: once per start
            self.notify(t("model.picked", why=default_model_choice()[1]), markup=False)
        self.show_context()
        if self.session is not None:
            self.warm_session(self.session.id)
        self.run_memory_jobs()

    # -- the chat context's evaluated prefix --------------------------------------
    def cache_key(self, session_id: int) -> str:
        return KvCache.key(self.settings.db_path, session_id, self.settings.model_path)

    def warm_session(self, session_id: int, *, leaving: int | None = None) -> None:
        """Queue restoring (from the saved state) and warming the session's prompt head, saving
        the state of the session left first; runs while idle."""
        if self.engine is None or not (self.settings.warm_idle or self.kv_cache):
            return
        from desktop_app.memory.turn import TurnOptions

        self.jobs.submit(WarmJob(
            session_id, TurnOptions.from_settings(self.settings), stage="open", cache=self.kv_cache,
            cache_key=self.cache_key(session_id), owner=self.context_owner,
            progress=lambda done, total: self.post_message(ContextProgress(done, total)),
            leaving=(leaving, self.cache_key(leaving)) if leaving is not None else None))

    def save_context(self) -> int:
        """Save the chat context's state under the session it holds (on quit); bytes written."""
        owner = self.context_owner.session_id
        if self.kv_cache is None or self.engine is None or owner is None:
            return 0
        self.jobs.interrupt()  # a warm-up stops at its next chunk and frees the context
        return self.kv_cache.save(self.engine, self.cache_key(owner))

    def on_context_progress(self, message: ContextProgress) -> None:
        meter = self.query_one(ContextMeter)
        if message.total and message.done < message.total:
            meter.show_progress(message.kind, message.done / message.total)
        else:
            meter.show_progress(None)

    @on(ChatInput.Changed)
    def _on_typing(self, event: ChatInput.Changed) -> None:
        """Typing stops a warm-up between chunks (the CPU goes to the terminal); it resumes once
        the user pauses, and a message sent meanwhile goes on from what was evaluated."""
        if isinstance(self.jobs.current, WarmJob):
            self.jobs.interrupt()
        if self._idle_timer is not None:
            self._idle_timer.stop()
        self._idle_timer = self.set_timer(TYPING_PAUSE_SECONDS, self._resume_idle_work)

    def on_screen_suspend(self) -> None:
        """A dialog or the palette opened over the chat: background model work (warming, the
        memory pass) gives the CPU back at its next check, so drawing the dialog and the keys
        typed into it are not starved on a small machine; it resumes once the chat is back."""
        self.covered = True
        self.jobs.interrupt()
        if self._idle_timer is not None:
            self._idle_timer.stop()
            self._idle_timer = None

    def on_screen_resume(self) -> None:
        if self.covered:
            self.covered = False
            self._idle_timer = self.set_timer(TYPING_PAUSE_SECONDS, self._resume_idle_work)

    def _resume_idle_work(self) -> None:
        self._idle_timer = None
        if not self.generating and not self.covered:
            self.warm_draft()
            self.run_memory_jobs()

    def warm_draft(self) -> None:
        """Type-ahead: queue evaluating the prompt the typed words would send, up to the input
        (the archived turns they recall, the changes block), first in line and replacing the
        previous draft. A command, a short draft or a busy window queues nothing."""
        text = self.query_one(ChatInput).text
        if self.engine is None or self.session is None or not self.settings.warm_idle or \
                text.lstrip().startswith("/") or not worth_drafting(text) or len(text) > MAX_DRAFT_CHARS:
            return
        from desktop_app.memory.turn import TurnOptions

        self.jobs.submit(DraftWarmJob(self.session.id, TurnOptions.from_settings(self.settings), text,
                                      owner=self.context_owner), replace=True, first=True)

    def on_model_load_failed(self, message: ModelLoadFailed) -> None:
        self.engine, self.model_error = None, message.error
        self.query_one(ModelStatus).show_failed(message.error)
        self.notify(message.error, title=t("model.not_loaded"), markup=False, severity="error", timeout=10)

    def action_reload_model(self) -> None:
        if self.generating:
            self.notify(t("chat.stop_first", what=t("what.reload")), markup=False, severity="warning")
            return
        self.engine, self.model_error = None, None
        self.query_one(ModelStatus).show_loading(self.settings.model_path)
        self.load_model()

    # -- sending and streaming ------------------------------------------------------------
    @on(ChatInput.Submitted)
    async def _on_submitted(self, event: ChatInput.Submitted) -> None:
        event.stop()
        await self.send(event.text)

    async def send(self, raw_text: str) -> bool:
        """Start a turn; on any refusal the text stays in the input so nothing is lost.

        Memory commands (``/memory``, ``/pin 3`` …) are answered from memory, without the model.
        """
        if self.session is not None and is_document_command(raw_text):
            self.query_one(ChatInput).clear()
            self.document_command(raw_text.strip())
            return True
        if self.session is not None and self.is_memory_command(raw_text):
            self.query_one(ChatInput).clear()
            self.run_slash(raw_text.strip())
            return True
        if self.generating:
            return await self.queue_message(raw_text)
        return await self.start_turn(raw_text)

    async def queue_message(self, raw_text: str) -> bool:
        """A message sent while a reply streams waits, shown as queued, and is sent when that
        reply ends (finished, stopped or failed) — nothing typed is dropped or sits unexplained."""
        try:
            text = clean_user_text(raw_text)
        except InputRejected as exc:
            self.notify(str(exc), title=t("chat.not_sent"), markup=False, severity="warning")
            return False
        self.query_one(ChatInput).clear()
        view = await self.query_one(ChatLog).add_user(text, queued=True)
        self.queued.append((text, view))
        return True

    async def send_queued(self) -> None:
        """Send the oldest queued message; one the chat cannot take now goes back into the box."""
        if not self.queued or self.generating:
            return
        text, view = self.queued.pop(0)
        if await self.start_turn(text, queued_view=view):
            return
        await view.remove()
        chat_input = self.query_one(ChatInput)
        if not chat_input.text.strip():
            chat_input.text = text

    async def start_turn(self, raw_text: str | None, *, anchor_id: int | None = None,
                         queued_view: MessageView | None = None) -> bool:
        """Send ``raw_text`` (None: answer the stored message ``anchor_id`` again).

        With ``anchor_id`` every message after it becomes a stored version first (edit and
        regenerate), inside the worker, together with the memory it wrote.
        """
        if self.generating:
            self.notify(t("chat.busy"), markup=False, severity="warning")
            return False
        text = None
        if raw_text is not None:
            try:
                text = clean_user_text(raw_text)
            except InputRejected as exc:
                self.notify(str(exc), title=t("chat.not_sent"), markup=False, severity="warning")
                return False
        if self.engine is None or self.session is None:
            reason = self.model_error or t("chat.still_loading")
            self.notify(t("chat.not_loaded", reason=reason), title=t("chat.not_sent"), markup=False, severity="error")
            return False
        log = self.query_one(ChatLog)
        if anchor_id is not None:
            # What follows the message answered again goes, the notes under it too; the notes under earlier replies
            # stay (a user's walk, round twenty-five: Ctrl+R took every earlier reply's memory note off the screen).
            past = False
            for view in list(log.query(MessageView)):
                past = past or (view.message_id is not None and view.message_id >= anchor_id)
                if past and view.message_id != anchor_id:
                    await view.remove()
        if queued_view is not None:
            queued_view.remove_class("-queued")
            queued_view.set_note("")
            self._user_view = queued_view
        elif text is not None:
            if anchor_id is None:
                self.query_one(ChatInput).clear()
            self._user_view = await log.add_user(text)
        self._reply_view = await log.start_reply()
        self.jobs.interrupt()  # background memory work yields the model at its next check
        self.context_owner.session_id = self.session.id
        self.stop_requested.clear()
        self.reply_done.clear()
        self.generating = True
        self.generate(self.engine, self.session.id, text, anchor_id)
        return True

    @work(thread=True, exclusive=True, group="inference", exit_on_error=False)
    def generate(self, engine: ChatEngine, session_id: int, text: str | None, anchor_id: int | None = None) -> None:
        worker = get_current_worker()
        try:
            generate_reply(self.settings, engine, session_id, text, anchor_id=anchor_id,
                           should_stop=lambda: self.stop_requested.is_set() or worker.is_cancelled,
                           post=self.post_message, embedder=self.embedder, jobs=self.jobs,
                           context=self.context_owner)
        finally:
            self.reply_done.set()

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if await self.finish_store_job(event):
            return
        if event.worker.group == "memory-jobs" and event.state == WorkerState.SUCCESS:
            self.query_one(ContextMeter).show_progress(None)
            outcomes = event.worker.result or []
            interrupted = bool(outcomes) and outcomes[-1].status == "postponed"  # typing or a turn: they resume it
            if len(self.jobs) and not self.generating and not interrupted:  # queued while it was finishing
                self.call_later(self.run_memory_jobs)
            if any(o.job == "extract" and o.status == "done" for o in outcomes):
                self.refresh_memory()  # what the model's pass added shows in the panel
            return
        # generate_reply reports its own failures; this catches what escaped it, so the
        # screen never stays stuck in "generating".
        if event.worker.group == "inference" and event.state == WorkerState.ERROR and self.generating:
            self.reply_done.set()
            self.notify(t("chat.reply_failed", error=event.worker.error), markup=False, severity="error")
            if self._reply_view is not None:
                self._reply_view.set_note(t("note.failed"))
            self._end_reply()

    def on_reply_started(self, message: ReplyStarted) -> None:
        if self._user_view is not None and message.user_message is not None:
            self._user_view.message_id = message.user_message.id
        if self.engine is not None:
            self.query_one(ModelStatus).show_usage(model_label(self.engine), message.n_ctx, message.prompt_tokens)
        self.query_one(ContextMeter).show(message.prompt_tokens, message.n_ctx)
        if message.over_warning:
            share = message.prompt_tokens / message.n_ctx if message.n_ctx else 0
            self.notify(t("chat.prompt_share", share=share), markup=False, severity="warning")

    async def on_reply_retrying(self, message: ReplyRetrying) -> None:
        if self._reply_view is not None:
            await self._reply_view.restart(t("reply.retrying"))

    async def on_token_received(self, message: TokenReceived) -> None:
        if self._reply_view is not None:
            await self._reply_view.append(message.text)

    async def on_reply_finished(self, message: ReplyFinished) -> None:
        if self._reply_view is not None:
            text = message.reply.content if message.reply else ""
            note = "" if text or message.stopped else t("note.empty")
            await self._reply_view.finish(text, stopped=message.stopped, note=note)
            if message.reply is not None:
                self._reply_view.message_id = message.reply.id
        if message.pieces:
            self.query_one(ModelStatus).show_speed(t("model.speed", pieces=message.pieces,
                                                     speed=message.tokens_per_second))
        await self.show_memory_notices(message.record)
        self._end_reply()

    async def on_reply_failed(self, message: ReplyFailed) -> None:
        if message.rejected:
            for view in (self._reply_view, self._user_view):
                if view is not None:
                    await view.remove()
            chat_input = self.query_one(ChatInput)
            if not chat_input.text.strip():
                chat_input.text = message.text
            self.notify(message.error, title=t("chat.not_sent"), markup=False, severity="warning")
        else:
            if self._reply_view is not None:
                await self._reply_view.finish(None, stopped=True, note=t("note.failed"))
            self.notify(message.error, title=t("chat.reply_failed_title"), markup=False, severity="error", timeout=10)
        self._end_reply()

    def _end_reply(self) -> None:
        self._reply_view = self._user_view = None
        self.generating = False
        self.refresh_sessions()
        self.refresh_memory()
        if self.session is not None:
            self.query_one(ChatLog).show_versions(self.store.version_notes(self.session.id))
        if self.queued:
            self.call_later(self.send_queued)
        else:
            self.run_memory_jobs()

    def watch_generating(self, generating: bool) -> None:
        self.set_class(generating, "-generating")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_reply":
            return self.generating
        return True

    def action_stop_reply(self) -> None:
        """Stop between tokens; the worker stores the partial reply flagged ``stopped``."""
        if self.generating and not self.stop_requested.is_set():
            self.stop_requested.set()
            if self._reply_view is not None:
                self._reply_view.set_note(t("note.stopping"))

    async def stop_reply_and_wait(self, timeout: float = 10.0) -> bool:
        """Stop any reply and wait until it is stored (used on quit); True when idle."""
        if not self.reply_done.is_set():
            self.stop_requested.set()
            deadline = time.monotonic() + timeout
            while not self.reply_done.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        return self.reply_done.is_set()

    # -- view -----------------------------------------------------------------------------
    def action_toggle_sidebar(self) -> None:
        sidebar = self.query_one(Sidebar)
        sidebar.display = not sidebar.display

    def action_scroll_history(self, direction: int) -> None:
        log = self.query_one(ChatLog)
        log.scroll_page_up() if direction < 0 else log.scroll_page_down()
