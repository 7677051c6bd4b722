"""The sidebar: every session, most recently active first; selecting one opens it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from desktop_app.memory.core.models import Session
from desktop_app.ui.i18n import t
from desktop_app.ui.shown import Text


class SessionList(OptionList):
    """Options are keyed by session id (``"s<id>"``)."""

    class SessionChosen(Message):
        def __init__(self, session_id: int) -> None:
            super().__init__()
            self.session_id = session_id

    def show_sessions(self, sessions: list[Session], current_id: int | None) -> None:
        self.set_options(self._option(s, s.id == current_id) for s in sessions)
        if current_id is not None:
            try:
                self.highlighted = self.get_option_index(f"s{current_id}")
            except Exception:
                self.highlighted = 0 if sessions else None

    @staticmethod
    def _option(session: Session, current: bool) -> Option:
        prompt = Text()
        prompt.append(("▸ " if current else "  ") + session.name, style="bold" if current else "")
        prompt.append(f"  {session.message_count}", style="dim")
        return Option(prompt, id=f"s{session.id}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.SessionChosen(int(event.option.id[1:])))


class Sidebar(Vertical):
    """Title plus the session list; hidden and shown with Ctrl+B, focused with Ctrl+O."""

    def compose(self) -> ComposeResult:
        yield Label(t("sidebar.title"), classes="sidebar-title")
        yield SessionList(id="session-list")
