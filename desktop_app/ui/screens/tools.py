"""The chat screen's tools: help, settings, per-session settings, export, import, search, the
context inspector, and the worker that runs the background memory jobs while the chat is idle.
"""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.worker import get_current_worker

from desktop_app.ui.i18n import t
from desktop_app.ui.screens.host import ChatHost
from desktop_app.ui.widgets.chat_log import ChatLog


class ToolActions(ChatHost):
    """Expects the chat screen's ``store``, ``settings``, ``session`` and session helpers."""

    def action_help(self) -> None:
        from desktop_app.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_settings(self) -> None:
        from desktop_app.config import ConfigError, read_config_file
        from desktop_app.ui.screens.settings import SettingsScreen

        try:
            saved_lang = read_config_file().get("lang")
        except ConfigError:
            saved_lang = None
        self.app.push_screen(SettingsScreen(self.settings, saved_lang), self._settings_chosen)

    def _settings_chosen(self, changes: dict | None) -> None:
        if changes:
            self.app.apply_settings(changes)

    def action_session_settings(self) -> None:
        from desktop_app.ui.screens.session_settings import SessionSettingsScreen

        if self.session is not None:
            self.app.push_screen(SessionSettingsScreen(self.store.get_session(self.session.id), self.settings),
                                 self._session_settings_chosen)

    def _session_settings_chosen(self, values: dict | None) -> None:
        if values is None or self.session is None:
            return
        session_id = self.session.id

        def saved(_session) -> None:
            self.refresh_sessions()
            self.notify(t("session.saved"), markup=False)

        self.run_store_job(lambda store: store.update_session_settings(session_id, **values), saved)

    def action_export_session(self) -> None:
        from desktop_app.ui.screens.exchange import ExportScreen

        if self.session is not None:
            self.app.push_screen(ExportScreen(self.store.get_session(self.session.id)))

    def action_import_file(self) -> None:
        from desktop_app.ui.screens.exchange import ImportScreen

        self.app.push_screen(ImportScreen(Path.home()), self._imported)

    def _imported(self, imported: list | None) -> None:
        if imported:
            self.refresh_sessions()
            self.run_memory_jobs()

    def action_search(self) -> None:
        from desktop_app.ui.screens.search import SearchScreen

        self.app.push_screen(SearchScreen(self.store.list_sessions()),
                             lambda found: self.call_next(self.open_search_result, found))

    async def open_search_result(self, found: tuple[int, int | None] | None) -> None:
        if found is None:
            return
        session_id, message_id = found
        await self.switch_session(session_id)
        if message_id is None or self.session is None or self.session.id != session_id:
            return
        log = self.query_one(ChatLog)
        view = log.view_of(message_id)
        if view is not None:
            log.focus()
            log._select(view)

    def action_open_inspector(self) -> None:
        from desktop_app.ui.screens.inspector import InspectorScreen

        if self.session is not None:
            self.app.push_screen(InspectorScreen(self.store, self.store.get_session(self.session.id)))

    # -- background memory jobs ----------------------------------------------------------
    # -- documents ------------------------------------------------------------------------
    def action_documents(self, add: list[Path] | None = None) -> None:
        """The Documents panel; with ``add`` it starts reading those paths at once."""
        from desktop_app.ui.screens.documents import DocumentsScreen

        if self.session is not None:
            counter = self.engine.counter if self.engine is not None else None
            self.app.push_screen(DocumentsScreen(self.settings, self.store.get_session(self.session.id),
                                                 counter=counter, add=add,
                                                 session_only=self.docs_session_only.get(self.session.id, False)))

    def document_command(self, text: str) -> None:
        """``/doc`` opens the panel; ``/doc add PATH`` opens it reading PATH (a file or a folder)."""
        parts = text.split(maxsplit=2)
        if len(parts) == 1:
            self.action_documents()
        elif parts[1].lower() == "add" and len(parts) == 3:
            path = Path(parts[2].strip().strip("'\"")).expanduser()
            if not path.exists():
                self.notify(t("docs.no_path", path=path), markup=False, severity="warning")
                return
            self.action_documents(add=[path])
        else:
            self.notify(t("docs.usage"), markup=False, severity="warning")

    def embed_documents(self) -> None:
        """New chunks get vectors in the background, like new turns (ReembedJob does both)."""
        self.run_memory_jobs()

    def run_memory_jobs(self) -> None:
        """Queue re-embedding of every session's new turns and drain the queue while idle."""
        from desktop_app.memory.background.memory_pass import MemoryModel, queue_backlog
        from desktop_app.memory.background.queue import ReembedJob

        if getattr(self.app, "embedder_factory", None) is not None and not getattr(self, "embedder_error", None):
            self.jobs.submit(ReembedJob(session_id=None))
        if self.settings.memory_model != "off" and self.engine is not None:
            # Turns an earlier run (or `ask --no-wait`, an import) left for the model's memory pass.
            queue_backlog(self.store, self.jobs, MemoryModel(self.settings.memory_model, lang=self.settings.lang))
        # One drain at a time: a new (exclusive) worker would cancel the running one and then find
        # the queue's runner lock still held, and nothing would run. The running one picks up what
        # was queued meanwhile; on_worker_state_changed starts another if anything is left.
        running = [w for w in self.workers if w.group == "memory-jobs" and w.is_running]
        if len(self.jobs) and not self.generating and not running and not self.covered:
            self.memory_jobs_worker()

    def memory_engine(self):
        """The engine memory jobs use: a second llama.cpp context on the chat model's weights
        (so the chat's evaluated prefix survives), made on first use; a server or a scripted
        engine serves both. Runs in the jobs worker."""
        from desktop_app.engine.guard import LockedEngine

        engine = self.engine
        if engine is None or self.settings.memory_model == "off":
            self._memory_engine = None  # the model went away: let its second context go too
            return engine
        inner = getattr(engine, "inner", engine)
        # On a GPU a second context would load the weights twice into VRAM (and pre-fill is fast
        # there): share the chat's context instead.
        other = self.settings.memory_model_file
        if not hasattr(inner, "sibling") or (getattr(getattr(inner, "settings", None), "n_gpu_layers", 0) and not other):
            return engine
        cached = getattr(self, "_memory_engine", None)
        if cached is None or cached[0] is not inner:
            try:
                cached = (inner, LockedEngine(inner.sibling(model_path=other)))
            except Exception:  # no memory for a second context: share the chat's
                cached = (inner, engine)
            self._memory_engine = cached
        return cached[1]

    @work(thread=True, exclusive=True, group="memory-jobs", exit_on_error=False)
    def memory_jobs_worker(self) -> list:
        """The chat is idle: run the queued jobs; a new message interrupts them (``jobs.interrupt``)."""
        worker = get_current_worker()
        from desktop_app.engine.guard import LockedEmbedder
        from desktop_app.ui.inference import one_line, run_memory_jobs

        factory = getattr(self.app, "embedder_factory", None)
        if self.embedder is None and factory is not None and not self.embedder_error:
            try:
                # Behind its lock: the turn's recall and the jobs share this one context.
                self.embedder = LockedEmbedder(factory(self.settings))
            except Exception as exc:  # recall still works on full text and bookmarks
                self.embedder_error = one_line(exc)
        try:
            return run_memory_jobs(self.settings, self.jobs, engine=self.memory_engine(), embedder=self.embedder,
                                   should_stop=lambda: worker.is_cancelled or self.generating or self.covered,
                                   chat_engine=self.engine)
        except Exception as exc:
            self.embedder_error = one_line(exc)
            return []
