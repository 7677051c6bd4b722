"""Export a session (Markdown or JSON with its memory state) and import conversations
(ChatGPT ``conversations.json``, Paperclip JSON exports, JSON Lines) with a progress bar.

Both run in thread workers with their own database connection; the import reports each
stored turn, because memory extraction and paging run on it as if it had been typed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, ProgressBar, Select
from textual.worker import get_current_worker

from desktop_app import paths
from desktop_app.memory.core.models import Session
from desktop_app.private_files import write_private_text
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog
from desktop_app.ui.shown import shown

if TYPE_CHECKING:
    from textual import getters

    from desktop_app.ui.screens.host import AppHost

FORMATS = {"markdown": ".md", "json": ".json"}


def default_export_path(session: Session, fmt: str, folder: Path | None = None) -> Path:
    safe = re.sub(r"[^\w.-]+", "-", session.name, flags=re.UNICODE).strip("-") or f"session-{session.id}"
    return (folder or paths.exports_dir()) / f"{safe}{FORMATS[fmt]}"


def export_session(store, session_id: int, fmt: str, path: Path) -> Path:
    """Write the session to ``path`` (folders created); returns the path."""
    from desktop_app.exchange.export import session_to_dict, session_to_markdown

    session = store.get_session(session_id)
    if fmt == "json":
        text = json.dumps(session_to_dict(store, session), ensure_ascii=False, indent=2)
    else:
        text = session_to_markdown(store, session)
    return write_private_text(path, text)  # 0600: an export is the whole conversation


def read_conversations(path: Path):
    """Parse (and validate) the whole file before anything is stored."""
    from desktop_app.exchange.importers import read_conversations as read_file

    return read_file(path.read_bytes(), path.name, path=path, title=path.stem)


class ExportScreen(Dialog[Path | None]):
    """Choose the format and the file; dismisses with the written path. Enter in the file field
    or Ctrl+S exports (the Export button has the focus when the dialog opens)."""

    if TYPE_CHECKING:
        app = getters.app(AppHost)  # the app it runs in (for the type checker)

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "export", "Export", priority=True)]

    def __init__(self, session: Session) -> None:
        super().__init__(classes="dialog")
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="export-box"):
            yield Label(shown(t("export.title", name=self.session.name)), classes="dialog-title", markup=False)
            yield Label(t("export.format"), classes="field-label", markup=False)
            yield Select([("Markdown", "markdown"), ("JSON (+ memory)", "json")], value="markdown",
                         allow_blank=False, id="export-format")
            yield Label(t("export.path"), classes="field-label", markup=False)
            yield Input(str(default_export_path(self.session, "markdown")), id="export-path")
            yield ProgressBar(total=1, show_eta=False, id="export-progress")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("export.button"), variant="primary", id="export")
                yield Button(t("dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#export", Button).focus()

    @on(Input.Submitted, "#export-path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_export()

    def action_export(self) -> None:
        if not self.query_one("#export", Button).disabled:
            self.start()

    @on(Select.Changed, "#export-format")
    def _format(self, event: Select.Changed) -> None:
        field = self.query_one("#export-path", Input)
        field.value = str(Path(field.value).with_suffix(FORMATS[str(event.value)]))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export":
            self.start()
        else:
            self.dismiss(None)

    def start(self) -> None:
        path = Path(self.query_one("#export-path", Input).value.strip()).expanduser()
        fmt = str(self.query_one("#export-format", Select).value)
        self.query_one("#export-progress", ProgressBar).update(total=None)
        self.query_one("#export", Button).disabled = True
        self.app.chat.run_store_job(lambda store: export_session(store, self.session.id, fmt, path), self.finished,
                                    group="export")

    def finished(self, path: Path) -> None:
        self.query_one("#export-progress", ProgressBar).update(total=1, progress=1)
        self.notify(t("export.done", path=path), markup=False)
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ImportScreen(Dialog[list | None]):
    """Pick a file, import it; the bar counts stored turns. Dismisses with ``[(session, turns)]``."""

    if TYPE_CHECKING:
        app = getters.app(AppHost)  # the app it runs in (for the type checker)

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    class Progressed(Message):
        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    def __init__(self, start: Path | None = None) -> None:
        super().__init__(classes="dialog")
        self.start_path = start
        self.running = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="import-box"):
            yield Label(t("import.title"), classes="dialog-title", markup=False)
            yield Label(t("import.path"), classes="field-label", markup=False)
            with Horizontal(classes="field-row"):
                yield Input(str(self.start_path or ""), id="import-path", classes="field-input")
                yield Button(t("dialog.browse"), id="browse", classes="field-button")
            yield ProgressBar(total=1, show_eta=False, id="import-progress")
            yield Label("", id="import-status", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("import.button"), variant="primary", id="import")
                yield Button(t("dialog.cancel"), id="cancel")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "import":
            self.start()
        elif event.button.id == "browse":
            from desktop_app.ui.screens.file_picker import FilePicker

            field = self.query_one("#import-path", Input)
            start = Path(field.value).expanduser() if field.value.strip() else Path.home()

            def picked(path: Path | None) -> None:
                if path:
                    field.value = str(path)

            self.app.push_screen(FilePicker(start, (".json", ".jsonl", ".ndjson")), picked)
        else:
            self.action_cancel()

    def start(self) -> None:
        if self.running:
            return
        path = Path(self.query_one("#import-path", Input).value.strip()).expanduser()
        if not path.is_file():
            self.notify(t("job.failed", error=f"{path} is not a file"), markup=False, severity="error")
            return
        self.running = True
        self.query_one("#import", Button).disabled = True
        self.query_one("#import-status", Label).update(t("import.running"))
        chat = self.app.chat
        counter = chat.engine.counter if chat.engine is not None else None
        self.import_file(path, chat.settings, counter)

    @work(thread=True, exclusive=True, group="import", exit_on_error=False)
    def import_file(self, path: Path, settings, counter) -> list:
        from desktop_app.engine.tokens import fallback_counter
        from desktop_app.exchange.importers import import_conversations
        from desktop_app.memory.store import Store

        worker = get_current_worker()
        conversations = read_conversations(path)
        with Store(settings.db_path) as store:
            def progress(done: int, total: int) -> None:
                if not worker.is_cancelled:
                    self.post_message(self.Progressed(done, total))

            return import_conversations(store, conversations, counter=counter or fallback_counter(),
                                        settings=settings, progress=progress)

    def on_import_screen_progressed(self, message: ImportScreen.Progressed) -> None:
        self.query_one("#import-progress", ProgressBar).update(total=message.total, progress=message.done)
        self.query_one("#import-status", Label).update(f"{t('import.running')} — {message.done}/{message.total}")

    def on_worker_state_changed(self, event) -> None:
        from textual.worker import WorkerState

        if event.worker.group != "import":
            return
        if event.state == WorkerState.SUCCESS:
            imported = event.worker.result or []
            self.notify(t("import.done", turns=sum(n for _, n in imported), sessions=len(imported)), markup=False)
            self.running = False
            self.dismiss(imported)
        elif event.state == WorkerState.ERROR:
            from desktop_app.ui.inference import one_line

            self.running = False
            self.query_one("#import", Button).disabled = False
            self.query_one("#import-status", Label).update(t("job.failed", error=one_line(event.worker.error)))
            self.notify(t("job.failed", error=one_line(event.worker.error)), markup=False, severity="error")

    def action_cancel(self) -> None:
        if self.running:
            self.notify(t("import.running"), markup=False, severity="warning")
            return
        self.dismiss(None)
