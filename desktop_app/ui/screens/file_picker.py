"""A file picker: a directory tree filtered to the wanted suffixes, plus a path box.

Dismisses with the chosen :class:`~pathlib.Path` or None. Typing a path and pressing Enter
works too (for files outside the tree, or when the tree is slow on a huge folder).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DirectoryTree, Input, Label

from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog


class FilteredTree(DirectoryTree):
    """Folders and files with one of ``suffixes``; hidden entries are left out."""

    def __init__(self, path: Path, suffixes: tuple[str, ...], **kwargs) -> None:
        self.suffixes = suffixes
        super().__init__(path, **kwargs)

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".")
                and (p.is_dir() or not self.suffixes or p.suffix.lower() in self.suffixes)]


class FilePicker(Dialog[Path | None]):
    """Choose a file under ``start`` (a file's folder when given a file)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, start: Path | None, suffixes: tuple[str, ...] = (".gguf",), title: str | None = None,
                 *, allow_folders: bool = False) -> None:
        super().__init__(classes="dialog")
        start = Path(start).expanduser() if start else Path.home()
        self.initial = start if start.is_file() else None
        folder = start.parent if start.is_file() or not start.exists() else start
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        self.folder = folder
        self.suffixes = suffixes
        self.allow_folders = allow_folders  # OK on a folder chooses it (documents: add a whole folder)
        self.title_text = title or t("picker.title")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="picker-box"):
            shown = ", ".join(self.suffixes) if len(self.suffixes) <= 8 else ", ".join(self.suffixes[:8]) + ", …"
            yield Label(f"{self.title_text} ({shown})", classes="dialog-title", markup=False)
            yield FilteredTree(self.folder, self.suffixes, id="picker-tree")
            yield Input(str(self.initial or self.folder), id="picker-path")
            with Horizontal(classes="dialog-buttons"):
                yield Button("..", id="up")
                yield Button(t("dialog.ok"), variant="primary", id="ok")
                yield Button(t("dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#picker-tree").focus()

    @on(DirectoryTree.FileSelected)
    def _file(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        self.query_one("#picker-path", Input).value = str(event.path)
        self.dismiss(Path(event.path))

    @on(DirectoryTree.DirectorySelected)
    def _folder(self, event: DirectoryTree.DirectorySelected) -> None:
        event.stop()
        self.query_one("#picker-path", Input).value = str(event.path)

    @on(Input.Submitted, "#picker-path")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        self._accept()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self._accept()
        elif event.button.id == "up":
            tree = self.query_one("#picker-tree", FilteredTree)
            tree.path = Path(tree.path).parent
            self.query_one("#picker-path", Input).value = str(tree.path)
        else:
            self.dismiss(None)

    def _accept(self) -> None:
        path = Path(self.query_one("#picker-path", Input).value.strip()).expanduser()
        if path.is_dir() and self.allow_folders:
            self.dismiss(path)
            return
        if path.is_dir():
            self.query_one("#picker-tree", FilteredTree).path = path
            self.notify(t("picker.not_file"), markup=False, severity="warning")
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
