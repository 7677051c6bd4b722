"""Per-session settings: the context mode and the system prompt (empty = the defaults).

Dismisses with ``{"mode": str, "system_prompt": str}`` ("" meaning "use the default") or None.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Select, TextArea

from desktop_app.config import CONTEXT_MODES, Settings
from desktop_app.memory.core.models import Session
from desktop_app.prompts import default_system_prompt
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog

DEFAULT = "default"


class SessionSettingsScreen(Dialog[dict | None]):
    """Ctrl+S saves, Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save", priority=True)]

    def __init__(self, session: Session, settings: Settings) -> None:
        super().__init__(classes="dialog")
        self.session = session
        self.settings = settings

    def compose(self) -> ComposeResult:
        options = [(t("session.default_mode", mode=self.settings.mode), DEFAULT)] + [(m, m) for m in CONTEXT_MODES]
        with Vertical(classes="dialog-box dialog-wide", id="session-box"):
            yield Label(t("session.title", name=self.session.name), classes="dialog-title", markup=False)
            yield Label(t("session.mode"), classes="field-label", markup=False)
            yield Select(options, value=self.session.mode or DEFAULT, allow_blank=False, id="session-mode")
            yield Label(t("session.prompt"), classes="field-label", markup=False)
            area = TextArea(self.session.system_prompt or "", id="session-prompt", soft_wrap=True, tab_behavior="focus")
            area.placeholder = self.settings.system_prompt or default_system_prompt(self.settings.lang)
            yield area
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("dialog.save") + " (Ctrl+S)", variant="primary", id="save")
                yield Button(t("dialog.cancel"), id="cancel")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        mode = str(self.query_one("#session-mode", Select).value)
        prompt = self.query_one("#session-prompt", TextArea).text.strip()
        self.dismiss({"mode": "" if mode == DEFAULT else mode, "system_prompt": prompt})

    def action_cancel(self) -> None:
        self.dismiss(None)
