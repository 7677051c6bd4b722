"""Text that is safe to print on a terminal: no escape sequences, no control characters.

Stored content stays verbatim (the messages table keeps what was typed or imported); what goes
to a terminal as plain text, and the memory values the program itself writes, pass through
:func:`plain` first. A transcript can carry ``ESC ] 52 ; c ; … BEL`` (an OSC 52 clipboard write)
or a CSI that moves the cursor and rewrites what the user sees; printed raw, the terminal obeys.
``--json`` output needs nothing: JSON escapes C0 characters itself.
"""

from __future__ import annotations

import re

# Whole escape sequences first, so "\x1b[31mred" becomes "red", not "[31mred":
# CSI (ESC [ or 8-bit 0x9b) … final byte; OSC (ESC ] or 0x9d) … BEL or ST; DCS/SOS/PM/APC strings … ST;
# then any other two-byte ESC sequence.
_SEQUENCES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]"
)
# C0 except tab and newline, DEL, and C1.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain(text: str) -> str:
    """``text`` without terminal escape sequences and C0/C1 control characters (tab and newline stay)."""
    if not text:
        return text
    text = text.replace("\r\n", "\n")
    return _CONTROLS.sub("", _SEQUENCES.sub("", text))


def plain_line(text: str) -> str:
    """:func:`plain` on one line: newlines and tabs become spaces (titles, list rows)."""
    return plain(text).replace("\n", " ").replace("\t", " ")


def has_controls(text: str) -> bool:
    """Whether :func:`plain` would change ``text``."""
    return bool(_CONTROLS.search(text.replace("\r\n", "\n")))
