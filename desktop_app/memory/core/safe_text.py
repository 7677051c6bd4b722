"""Text that is safe to print on a terminal: no escape sequences, no control characters.

Stored content stays verbatim (the messages table keeps what was typed or imported); what goes
to a terminal as plain text, and the memory values the program itself writes, pass through
:func:`plain` first. A transcript can carry ``ESC ] 52 ; c ; … BEL`` (an OSC 52 clipboard write)
or a CSI that moves the cursor and rewrites what the user sees; printed raw, the terminal obeys.
``--json`` output needs nothing: JSON escapes C0 characters itself.

Text from files the user did not write (document names and text) can also hide in plain sight:
a bidi override makes ``invoice\u202efdp.exe`` read as ``invoiceexe.pdf``, a zero-width space
splits a word no one can see split. :func:`visible` shows each such character as ``<U+202E>``.
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
# Characters that change how the text around them looks without showing themselves: the Arabic
# letter mark, zero-width space / non-joiner / joiner, LRM and RLM, bidi embeddings and overrides,
# the word joiner and invisible operators, bidi isolates, the zero-width no-break space (BOM).
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


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


def visible(text: str) -> str:
    """:func:`plain`, with each invisible formatting character (bidi controls, zero-width
    characters) written out as ``<U+XXXX>``: for text the user did not write."""
    if not text:
        return text
    return _INVISIBLE.sub(lambda found: f"<U+{ord(found.group()):04X}>", plain(text))


def visible_line(text: str) -> str:
    """:func:`visible` on one line: newlines and tabs become spaces (file names, list rows)."""
    return visible(text).replace("\n", " ").replace("\t", " ")
