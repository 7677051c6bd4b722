"""Command palette (Ctrl+P) entries for Paperclip's main actions and every session."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from desktop_app.ui.app import PaperclipApp

Command = tuple[str, Callable[[], object], str]


class PaperclipCommands(Provider):
    """Actions first (in the order people need them), then "Switch to session: …".

    Quit is the system command (its callback is the app's safe ``action_quit``).
    """

    def _commands(self) -> list[Command]:
        app: PaperclipApp = self.app  # type: ignore[assignment]
        chat = app.chat
        commands: list[Command] = [
            ("New session", chat.action_new_session, "start an empty session (Ctrl+N)"),
            ("Rename session", chat.action_rename_session, "rename the open session (F2)"),
            ("Delete session", chat.action_delete_session, "delete the open session after confirming (F8)"),
            ("Stop reply", chat.action_stop_reply, "stop the reply being written; the partial is kept (Esc)"),
            ("Toggle sidebar", chat.action_toggle_sidebar, "show or hide the session list (Ctrl+B)"),
            ("Reload model", chat.action_reload_model, "load the chat model again"),
        ]
        current = chat.session.id if chat.session else None
        for session in app.store.list_sessions():
            if session.id != current:
                commands.append((f"Switch to session: {session.name}", partial(chat.switch_session, session.id),
                                 f"{session.message_count} messages"))
        return commands

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            if (score := matcher.match(name)) > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
