"""The Documents panel: the documents this session sees, adding files or folders in the
background with a progress bar (files, pages, chunks) that can be cancelled, sync and remove.

Ingestion runs in a thread worker with its own ``Store``; each file is one transaction, so a
cancel keeps every file finished before it and nothing of the file being read.
"""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Checkbox, DataTable, Label, ProgressBar
from textual.worker import WorkerState, get_current_worker

from desktop_app.memory.documents.parsers import SUPPORTED
from desktop_app.ui.i18n import document_reason, t
from desktop_app.ui.screens.dialogs import Dialog
from desktop_app.ui.shown import shown

if TYPE_CHECKING:
    from textual import getters

    from desktop_app.ui.screens.host import AppHost


def outcome_line(outcome) -> str:
    """One file's outcome (``ingest.FileOutcome``) as the status line shows it, in the UI language."""
    file = Path(outcome.path).name
    if outcome.status in ("added", "updated"):
        pages = t("docs.line.pages", n=outcome.pages) if outcome.pages else ""
        extra = f" ({document_reason(outcome.reason)})" if outcome.reason else ""
        return t(f"docs.line.{outcome.status}", file=file, name=outcome.name, pages=pages, chunks=outcome.chunks,
                 extra=extra)
    if outcome.status in ("duplicate", "unchanged", "missing"):
        return t(f"docs.line.{outcome.status}", file=file, name=outcome.name)
    return t("docs.line.failed", file=file, reason=document_reason(outcome.reason))


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


class DocumentsScreen(Dialog[None]):
    """List, add (file picker; files or folders), sync and remove documents."""

    if TYPE_CHECKING:
        app = getters.app(AppHost)  # the app it runs in (for the type checker)

    BINDINGS = [Binding("escape", "close", "Close"), Binding("a", "add", "Add"), Binding("s", "sync", "Sync"),
                Binding("delete", "remove", "Remove")]

    class Progressed(Message):
        def __init__(self, files_done: int, files_total: int, pages: int, chunks: int, current: str) -> None:
            super().__init__()
            self.files_done, self.files_total = files_done, files_total
            self.pages, self.chunks, self.current = pages, chunks, current

    def __init__(self, settings, session, *, counter=None, add: list[Path] | None = None,
                 session_only: bool = False) -> None:
        super().__init__(classes="dialog")
        self.settings = settings
        self.session = session
        self.session_only = session_only  # the scope box, as the user last left it for this session
        self.counter = counter
        self.pending_add = add or []
        self.cancel_event = threading.Event()
        self.running = False
        self.last_report = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="docs-box"):
            yield Label(t("docs.title"), classes="dialog-title", markup=False)
            yield DataTable(id="docs-table", cursor_type="row", zebra_stripes=True)
            yield Checkbox(shown(t("docs.session_only", name=self.session.name)), self.session_only,
                           id="docs-session-only")
            yield ProgressBar(total=1, show_eta=False, id="docs-progress")
            yield Label(t("docs.hint"), id="docs-status", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("docs.add"), variant="primary", id="docs-add")
                yield Button(t("docs.sync"), id="docs-sync")
                yield Button(t("docs.remove"), id="docs-remove")
                yield Button(t("docs.cancel"), id="docs-cancel", disabled=True)
                yield Button(t("docs.close"), id="docs-close")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("name", "format", "pages", "chunks", "size", "language", "scope", "added"):
            table.add_column(t(f"docs.col.{key}"), key=key)
        self.refresh_table()
        table.focus()
        if self.pending_add:
            self.start_ingest(self.pending_add)

    def refresh_table(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for d in self.app.chat.store.list_documents(self.session.id):
            table.add_row(shown(d.name), d.format, str(d.pages or "—"), str(d.chunk_count), _size(d.size), d.language or "?",
                          t(f"docs.scope.{d.scope}"), datetime.fromtimestamp(d.added_at).strftime("%Y-%m-%d %H:%M"),
                          key=str(d.id))

    # -- adding ---------------------------------------------------------------------------
    def action_add(self) -> None:
        from desktop_app.ui.screens.file_picker import FilePicker

        if self.running:
            return

        def picked(path: Path | None) -> None:
            if path:
                self.start_ingest([path])

        self.app.push_screen(FilePicker(Path.home(), tuple(s for s in SUPPORTED if s), title=t("docs.pick"),
                                        allow_folders=True), picked)

    def action_sync(self) -> None:
        if not self.running:
            self.start_ingest([], sync=True)

    def start_ingest(self, paths: list[Path], *, sync: bool = False) -> None:
        if self.running:
            self.notify(t("docs.busy"), markup=False, severity="warning")
            return
        self.running = True
        self.cancel_event.clear()
        self._buttons(running=True)
        self.query_one("#docs-progress", ProgressBar).update(total=None, progress=0)
        session_only = self.query_one("#docs-session-only", Checkbox).value
        scope = self.session.id if session_only else None
        if sync:
            self.query_one("#docs-status", Label).update(t("docs.reading"))
        else:
            dest = t("docs.dest.session", name=shown(self.session.name)) if session_only else t("docs.dest.library")
            what = ", ".join(shown(Path(p).name) for p in paths)
            self.query_one("#docs-status", Label).update(t("docs.reading_to", what=what, dest=dest))
        self.ingest(paths, scope, sync)

    @on(Checkbox.Changed, "#docs-session-only")
    def _scope_changed(self, event: Checkbox.Changed) -> None:
        self.session_only = event.value
        self.app.chat.docs_session_only[self.session.id] = event.value  # the next /doc add uses it too

    def _buttons(self, *, running: bool) -> None:
        for name in ("add", "sync", "remove"):
            self.query_one(f"#docs-{name}", Button).disabled = running
        self.query_one("#docs-cancel", Button).disabled = not running
        # The scope of a read is fixed when it starts: a box ticked meanwhile would not apply.
        self.query_one("#docs-session-only", Checkbox).disabled = running

    @work(thread=True, exclusive=True, group="docs-ingest", exit_on_error=False)
    def ingest(self, paths: list[Path], scope: int | None, sync: bool):
        from desktop_app.engine.tokens import fallback_counter
        from desktop_app.memory.documents.ingest import add_documents, sync_documents
        from desktop_app.memory.store import Store

        worker = get_current_worker()

        def stop() -> bool:
            return self.cancel_event.is_set() or worker.is_cancelled

        def progress(state, _outcome) -> None:
            self.post_message(self.Progressed(state.files_done, state.files_total, state.pages, state.chunks,
                                              state.current))

        counter = self.counter or fallback_counter()
        with Store(self.settings.db_path) as store:
            if sync:
                return sync_documents(store, session_id=self.session.id, counter=counter, should_stop=stop,
                                      progress=progress)
            return add_documents(store, paths, session_id=scope, counter=counter, should_stop=stop,
                                 progress=progress)

    def on_documents_screen_progressed(self, message: DocumentsScreen.Progressed) -> None:
        bar = self.query_one("#docs-progress", ProgressBar)
        bar.update(total=max(1, message.files_total), progress=message.files_done)
        self.query_one("#docs-status", Label).update(
            t("docs.progress", done=message.files_done, total=message.files_total, pages=message.pages,
              chunks=message.chunks, name=message.current))

    def on_worker_state_changed(self, event) -> None:
        if event.worker.group != "docs-ingest" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self.running = False
        self._buttons(running=False)
        if event.state == WorkerState.ERROR:
            from desktop_app.ui.inference import one_line

            self.query_one("#docs-status", Label).update(t("job.failed", error=one_line(event.worker.error)))
            return
        report = self.last_report = event.worker.result
        added = report.count("added") + report.count("updated")
        lines = [outcome_line(o) for o in report.outcomes if o.status != "unchanged"]
        summary = t("docs.cancelled" if report.cancelled else "docs.done", added=added, failed=len(report.failed),
                    chunks=sum(o.chunks for o in report.outcomes))
        self.query_one("#docs-status", Label).update("\n".join([summary, *lines[-6:]]))
        self.query_one("#docs-progress", ProgressBar).update(total=1, progress=1)
        for failure in report.failed:
            self.notify(outcome_line(failure), markup=False, severity="warning", timeout=8)
        self.refresh_table()
        if added:
            self.app.chat.embed_documents()

    # -- removing and closing ---------------------------------------------------------------
    def action_remove(self) -> None:
        table = self.query_one(DataTable)
        if self.running or not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        assert key is not None  # every row is added with its document id as the key
        document = self.app.chat.store.get_document(int(key))
        if document is None:
            return

        def removed(chunks: int) -> None:
            self.notify(t("docs.removed", name=document.name, chunks=chunks), markup=False)
            self.refresh_table()

        self.app.chat.run_store_job(lambda store: store.delete_document(document.id), removed)

    def action_cancel_ingest(self) -> None:
        if self.running:
            self.cancel_event.set()
            self.query_one("#docs-status", Label).update(t("docs.cancelling"))

    def action_close(self) -> None:
        if self.running:  # Esc while reading cancels first; a second Esc closes
            self.action_cancel_ingest()
            return
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"docs-add": self.action_add, "docs-sync": self.action_sync, "docs-remove": self.action_remove,
                   "docs-cancel": self.action_cancel_ingest, "docs-close": self.action_close}
        assert event.button.id is not None  # every button here has an id
        actions[event.button.id]()
