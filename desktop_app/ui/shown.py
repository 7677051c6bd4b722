"""Stored text shown in the TUI without its terminal escapes.

Textual writes a widget's characters to the terminal as they are: an ESC sequence inside a message,
a session name or a document (a CSI that clears the screen, an OSC 52 that writes the clipboard)
would reach the terminal and run. Everything the UI shows from the database goes through
:func:`shown` or :class:`Text` (a ``rich.text.Text`` that strips them on the way in); the database
keeps the verbatim text.
"""

from __future__ import annotations

from rich.text import Text as _RichText

from desktop_app.memory.core.safe_text import plain


def shown(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and newline stay)."""
    return plain(text) if text else text


class Text(_RichText):
    """``rich.text.Text`` whose text — given at creation or appended — is made safe to show."""

    def __init__(self, text: str = "", *args, **kwargs) -> None:
        super().__init__(shown(text), *args, **kwargs)

    def append(self, text, style=None):
        return super().append(shown(text) if isinstance(text, str) else text, style)
