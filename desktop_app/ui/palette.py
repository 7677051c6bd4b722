"""Command palette (Ctrl+P) entries for Paperclip's main actions and every session."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from desktop_app.ui.shown import shown

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
            ("Session settings", chat.action_session_settings, "context mode and system prompt of this session (F10)"),
            ("Search all sessions", chat.action_search, "find a phrase in every session, Chinese too (F3, Ctrl+F)"),
            ("Stop reply", chat.action_stop_reply, "stop the reply being written; the partial is kept (Esc)"),
            ("Regenerate last reply", chat.action_regenerate, "answer again; the old reply stays as a version (Ctrl+R)"),
            ("Edit last message", chat.action_edit_last, "edit your last message and regenerate from there"),
            ("Select messages", chat.action_select_messages,
             "↑↓ pick a message, e edit, r regenerate, ←→ versions (Ctrl+↑)"),
            ("Toggle memory panel", chat.action_toggle_memory, "what Paperclip remembers, and steer it (F4)"),
            ("What do you remember?", lambda: chat.run_slash("/memory"), "the /memory answer, from memory"),
            ("Forget a topic", lambda: chat.call_next(chat.item_action, "forget_topic", None),
             "delete a topic's items, turns and pages after confirming"),
            ("Context inspector", chat.action_open_inspector, "what the last prompts were made of (F5)"),
            ("Export session", chat.action_export_session, "Markdown or JSON with memory (Ctrl+S)"),
            ("Import conversations", chat.action_import_file, "ChatGPT conversations.json or Paperclip JSON (Ctrl+L)"),
            ("Settings", chat.action_settings, "model, context, GPU layers, threads, language, theme (F9)"),
            ("Toggle dark/light theme", app.toggle_theme, "switch between the dark and the light theme"),
            ("Toggle sidebar", chat.action_toggle_sidebar, "show or hide the session list (Ctrl+B)"),
            ("Reload model", chat.action_reload_model, "load the chat model again"),
            ("Help", chat.action_help, "keys and memory commands (F1)"),
        ]
        current = chat.session.id if chat.session else None
        for session in app.store.list_sessions():
            if session.id != current:
                commands.append((f"Switch to session: {shown(session.name)}", partial(chat.switch_session, session.id),
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
