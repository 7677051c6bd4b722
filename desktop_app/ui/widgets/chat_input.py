"""The message box: a TextArea where Enter sends and pasting large text just works.

A single-line ``Input`` would mangle pasted documents (newlines lost); a plain ``TextArea``
would make Enter insert a newline, which is not what chat users expect. So Enter sends and
Shift+Enter / Ctrl+J / Alt+Enter insert a newline (terminals differ in which they report).
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import TextArea

NEWLINE_KEYS = frozenset({"shift+enter", "ctrl+j", "alt+enter", "ctrl+enter"})


class ChatInput(TextArea):
    """Multi-line input that posts :class:`ChatInput.Submitted` on Enter."""

    BINDINGS = [Binding("enter", "submit", "Send", key_display="⏎", show=True)]

    class Submitted(Message):
        """The user asked to send ``text`` (not yet validated or cleared)."""

        def __init__(self, chat_input: ChatInput, text: str) -> None:
            super().__init__()
            self.chat_input = chat_input
            self.text = text

        @property
        def control(self) -> ChatInput:
            return self.chat_input

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("soft_wrap", True)
        kwargs.setdefault("show_line_numbers", False)
        kwargs.setdefault("tab_behavior", "focus")
        kwargs.setdefault("placeholder", "Message Paperclip — Enter sends, Shift+Enter or Ctrl+J adds a line")
        super().__init__(**kwargs)

    async def _on_key(self, event: events.Key) -> None:
        # Runs before TextArea._on_key (MRO dispatch); prevent_default stops the base class
        # from also inserting a newline for Enter.
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.action_submit()
        elif event.key in NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.insert("\n")

    def action_submit(self) -> None:
        self.post_message(self.Submitted(self, self.text))
