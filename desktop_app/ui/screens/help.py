"""The help screen (F1): every key binding, read from the live widgets so it never drifts,
plus the memory commands that can be typed in the chat."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from desktop_app.ui.i18n import SLASH_HELP, current_lang, t
from desktop_app.ui.screens.dialogs import Dialog


def key_label(app, key: str) -> str:
    return " / ".join(app.get_key_display(Binding(k.strip(), "")) for k in key.split(","))


def bindings_table(app, title: str, bindings) -> Table:
    """One row per binding that has a description, in declaration order, without duplicates."""
    table = Table(title=title, title_justify="left", title_style="bold", show_header=False, expand=True,
                  show_edge=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True, min_width=14)
    table.add_column(ratio=1)
    keys: dict[str, list[str]] = {}
    described: dict[str, str] = {}
    for binding in bindings:
        if binding.description:
            keys.setdefault(binding.action, []).append(key_label(app, binding.key))
            described.setdefault(binding.action, binding.description)
    for action, labels in keys.items():
        table.add_row(Text(" / ".join(dict.fromkeys(labels))), Text(described[action]))
    return table


def help_renderable(app) -> Group:
    from desktop_app.ui.widgets.chat_log import ChatLog
    from desktop_app.ui.widgets.memory_panel import MemoryPanel

    chat = app.chat
    screen_bindings = [b for bindings in chat._bindings.key_to_bindings.values() for b in bindings]
    extra = [Binding("enter", "submit", t("bind.submit")), Binding("ctrl+p", "command_palette", t("bind.command_palette")),
             Binding("ctrl+q", "quit", t("bind.quit"))]
    log = [b for bindings in chat.query_one(ChatLog)._bindings.key_to_bindings.values() for b in bindings]
    panel = [b for bindings in chat.query_one(MemoryPanel)._bindings.key_to_bindings.values() for b in bindings]
    slash = Table(title=t("help.slash"), title_justify="left", title_style="bold", show_header=False, expand=True,
                  show_edge=False, box=None, padding=(0, 2, 0, 0))
    slash.add_column(style="bold", no_wrap=True)
    slash.add_column(ratio=1)
    zh = current_lang() == "zh"
    for command, (en_text, zh_text) in SLASH_HELP.items():
        slash.add_row(Text(command), Text(zh_text if zh else en_text))
    return Group(bindings_table(app, t("help.keys"), [*extra, *screen_bindings]), Text(""),
                 bindings_table(app, t("help.log_keys"), log), Text(""),
                 bindings_table(app, t("help.panel_keys"), panel), Text(""), slash)


class HelpScreen(Dialog[None]):
    BINDINGS = [Binding("escape,f1,q", "close", "Close")]

    def __init__(self) -> None:
        super().__init__(classes="dialog")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="help-box"):
            yield Label(t("help.title"), classes="dialog-title", markup=False)
            with VerticalScroll(id="help-scroll"):
                yield Static(help_renderable(self.app), id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)
