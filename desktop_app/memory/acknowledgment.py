"""What the program answers when the model had no answer to a message that only told something.

A small model asked "我弟说他也要跟着去，那就5个人了" may say the message back, or an earlier reply, once
more after its retry. Memory took the news in all the same; the user reads what it took in, in a
sentence, instead of a parrot: "好的，记下了：5个人（之前是4个人）。" Pure: the caller hands over what
the message wrote (each new value with the one it replaced) and what it dropped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.memory.lang.text import marks_aside
from desktop_app.prompts import acknowledge_text

MAX_VALUE = 60  # characters of one value shown
_CLAUSE_END = re.compile(r"[，,;；:：、]\s*")
_TRIM = " ，,。.!！；;：:"


def changed_part(new: str, old: str) -> tuple[str, str]:
    """The parts of ``new`` and ``old`` that differ: the clauses ("周六在家请客，大概10个人" of "周六在家请客，
    大概8个人" is "大概10个人" against "大概8个人"), then the words from a number that differs ("We'll be 10
    people": "10 people"; a bare number keeps the word before it: "for 10"). A label stays with the
    new value: "预算: 1200" against "1500"."""
    shared = 0
    for match in _CLAUSE_END.finditer(new):
        if old.startswith(new[: match.end()]) and match.end() < len(new):
            shared = match.end()
    if new[:shared].rstrip().endswith((":", "：")):
        return new, old[shared:]
    new, old = new[shared:], old[shared:]
    same = len(os.path.commonprefix([new, old]))
    cut = new.rfind(" ", 0, same + 1) if new[same:same + 1].isdigit() else -1
    if cut > 0 and not re.search(r"[^\W\d_]", new[cut:]):
        cut = new.rfind(" ", 0, cut)
    return (new[cut + 1:], old[cut + 1:]) if cut > 0 else (new, old)


def _clip(text: str) -> str:
    text = " ".join(text.split()).strip(_TRIM)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1].rstrip(_TRIM) + "…"



@dataclass(frozen=True)
class Noted:
    """A value the message wrote: the value replaced (None for a new one) and what it is, when the
    program has a name for it ("人数", "budget")."""

    value: str
    old: str | None = None
    label: str | None = None


def acknowledgment(noted: Sequence[Noted], dropped: Sequence[str], lang: str, message: str = "") -> str:
    """One or two sentences saying what memory took in: ``noted`` the values written, ``dropped`` the
    values no longer in force; "" when there is nothing. A new value the ``message`` says word for
    word is not said back (that would be the message again): its name is, or nothing."""
    text = acknowledge_text(lang)
    said = []
    for item in noted:
        if item.old:
            new, old = changed_part(item.value, item.old)
            said.append(_clip(new) + (text["was"].format(old=_clip(old)) if _clip(old) else ""))
        elif marks_aside(item.value) not in marks_aside(message):
            said.append(_clip(item.value))
        elif item.label:
            said.append(item.label)
    out = []
    if said:
        out.append(text["noted"].format(values=text["join"].join(dict.fromkeys(said))))
    if dropped:
        out.append(text["dropped"].format(values=text["join"].join(_clip(d) for d in dropped)))
    if not out and noted:
        out.append(text["plain"])
    return text["lead"] + text["sentences"].join(out) if out else ""
