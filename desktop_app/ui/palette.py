"""Command palette (Ctrl+P) entries for Paperclip's main actions and every session."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from desktop_app.ui.i18n import t
from desktop_app.ui.shown import shown


class _App(Protocol):
    """What the palette needs of the app (the app module imports this one)."""

    chat: Any
    store: Any

    def toggle_theme(self) -> None: ...

Command = tuple[str, Callable[[], object], str]


class PaperclipCommands(Provider):
    """Actions first (in the order people need them), then "Switch to session: …".

    Quit is the system command (its callback is the app's safe ``action_quit``).
    """

    def _commands(self) -> list[Command]:
        app = cast(_App, self.app)
        chat = app.chat
        actions = [
            ("new_session", chat.action_new_session), ("rename_session", chat.action_rename_session),
            ("delete_session", chat.action_delete_session), ("session_settings", chat.action_session_settings),
            ("search", chat.action_search), ("stop_reply", chat.action_stop_reply),
            ("regenerate", chat.action_regenerate), ("edit_last", chat.action_edit_last),
            ("select_messages", chat.action_select_messages), ("toggle_memory", chat.action_toggle_memory),
            ("what_remembered", lambda: chat.run_slash("/memory")),
            ("forget_topic", lambda: chat.call_next(chat.item_action, "forget_topic", None)),
            ("inspector", chat.action_open_inspector), ("export", chat.action_export_session),
            ("import", chat.action_import_file), ("settings", chat.action_settings),
            ("theme", app.toggle_theme), ("sidebar", chat.action_toggle_sidebar),
            ("reload_model", chat.action_reload_model), ("help", chat.action_help),
        ]
        commands: list[Command] = [(t(f"palette.{key}"), callback, t(f"palette.{key}.help"))
                                   for key, callback in actions]
        current = chat.session.id if chat.session else None
        for session in app.store.list_sessions():
            if session.id != current:
                commands.append((t("palette.switch", name=shown(session.name)), partial(chat.switch_session, session.id),
                                 t("palette.switch.help", n=session.message_count)))
        return commands

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            if (score := matcher.match(name)) > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
