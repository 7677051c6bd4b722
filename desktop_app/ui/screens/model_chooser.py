"""Choose the chat model from a list: the catalog's installed entries and every GGUF found on
this computer (models/, Ollama, LM Studio, the Hugging Face cache, ``model_dirs``), each with
its size, quantization, context length — and a flag when it has no chat template."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog
from desktop_app.ui.shown import Text


def model_rows(model_dirs) -> list[tuple[Text, Path | None]]:
    """``(label, path)`` per model; a catalog entry that is not installed has no path."""
    from desktop_app.engine.discovery import discover
    from desktop_app.manifest import catalog

    rows: list[tuple[Text, Path | None]] = []
    listed: set[Path] = set()
    for entry in catalog().values():
        label = Text(f"{entry.key}  ", style="bold")
        label.append(f"{entry.size / 1e6:.0f} MB · {'/'.join(entry.languages)} · {entry.note}", style="dim")
        if not entry.installed:
            label.append(f"  — not installed: paperclip models fetch {entry.key}", style="yellow")
        rows.append((label, entry.path if entry.installed else None))
        listed.add(entry.path.resolve())
    for found in discover(model_dirs=model_dirs):
        if found.info is None or found.path.resolve() in listed:
            continue
        info = found.info
        label = Text(f"[{found.source}] {found.name}  ")
        label.append(f"{info.size / 1e6:.0f} MB · {info.quantization or '?'} · ctx {info.context_length or '?'}",
                     style="dim")
        if not info.has_chat_template:
            label.append("  ⚠ no chat template (ChatML fallback)", style="yellow")
        rows.append((label, found.path))
    return rows


class ModelChooser(Dialog[Path | None]):
    """Enter picks the highlighted model; Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, model_dirs=()) -> None:
        super().__init__(classes="dialog")
        self.model_dirs = list(model_dirs)
        self.paths: list[Path | None] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="model-chooser"):
            yield Label(t("models.title"), classes="dialog-title", markup=False)
            yield OptionList(Option(t("models.searching"), disabled=True), id="model-options")

    def on_mount(self) -> None:
        self.find_models()

    @work(thread=True, exclusive=True, group="models", exit_on_error=False)
    def find_models(self) -> None:
        rows = model_rows(self.model_dirs)
        self.app.call_from_thread(self._show, rows)

    def _show(self, rows: list[tuple[Text, Path | None]]) -> None:
        options = self.query_one("#model-options", OptionList)
        options.clear_options()
        self.paths = [path for _, path in rows]
        options.add_options([Option(label, disabled=path is None) for label, path in rows])
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.paths[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)
