"""A name corrected: "哦打错了，应该是小邹" right after "你可以叫我小周", "Oops, typo, it's John" after
"You can call me Jon", or with the old spelling named whenever it is said ("it's spelled Kathryn not
Katherine", "是李炜，不是李伟"). Such a correction names no subject and holds no number, so nothing
else reads it. The words are the lexicon's ``name`` tables: ``not`` stands before the old spelling,
``lead`` opens a correction that only gives the name, ``before`` stands before a name in Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import CJK, LANGS, cue
from desktop_app.memory.core.models import MemoryItem

NAME_SUBJECTS = ("name", "name:called")
_CJK_NAME = re.compile(f"[{CJK}]{{2,4}}")
_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN_NAME = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")
_CLAUSE = re.compile(r"[，,、；;\s]+")
MAX_CORRECTION_CHARS = 24  # a longer sentence is news, not a spelling fixed (unless it names the old one)


def corrected_name(active: Sequence[MemoryItem], said: str) -> tuple[MemoryItem, str] | None:
    """The name item ``said`` corrects and its value with the new spelling in place, or None."""
    said = said.split(": ", 1)[-1].strip(" .。!！")
    if not said or any(ch.isdigit() for ch in said) or not active:
        return None
    named = old_name_said(active, said)
    if named is not None or len(said) > MAX_CORRECTION_CHARS:
        return named
    latest = max(active, key=lambda i: (i.updated_at, i.id))
    if latest.subject not in NAME_SUBJECTS:
        return None
    new = _name_in(said)
    old = _nearest(latest.value, new) if new is not None else None
    return (latest, latest.value.replace(old, new, 1)) if old is not None and new is not None else None


def old_name_said(active: Sequence[MemoryItem], said: str) -> tuple[MemoryItem, str] | None:
    """A correction that names the old spelling after "not" ("it's spelled Kathryn not Katherine",
    "是李炜，不是李伟"), however long and whenever said: the name item holding it, with the name said
    before "not" in its place. "It's Katherine, not Kathryn" keeps Katherine."""
    negation = _first("name.not", said)
    if negation is None:
        return None
    right, wrong = said[:negation.start()], said[negation.end():]
    for item in reversed([i for i in active if i.subject in NAME_SUBJECTS]):
        for old in _names_held(item.value):
            if not _says(wrong, old) or _says(right, old):
                continue
            new = [n for n in _names_said(right) if n != old and _distance(n, old) <= max(2, len(old) // 2)]
            if new:
                return item, item.value.replace(old, new[-1], 1)
    return None


def _first(name: str, text: str) -> re.Match[str] | None:
    found = [m for lang in LANGS if (p := cue(name, lang)) is not None and (m := p.search(text)) is not None]
    return min(found, key=lambda m: m.start()) if found else None


def _says(text: str, name: str) -> bool:
    """``text`` holds ``name`` as a word of its own ("Dan's" is not "Dan"; Chinese has no word edges)."""
    if _CJK_CHAR.match(name):
        return name in text
    return re.search(rf"(?<![\w'’]){re.escape(name)}(?![\w'’])", text) is not None


def _names_held(value: str) -> set[str]:
    """The names a stored name item holds: its capitalised words, and in Chinese what follows "叫我",
    "我叫" (``name.before``)."""
    held = set(_LATIN_NAME.findall(value))
    before = _first("name.before", value)
    if before is not None:
        run = _CJK_NAME.match(value, before.end())
        if run is not None:
            held.add(run.group(0)[:3])
    return held


def _names_said(text: str) -> list[str]:
    """Names in a correction: capitalised words, and Chinese clauses of two to four characters once
    their opening ("是", "应该是": ``name.lead``) is taken off."""
    clauses = (_without_lead(c) for c in _CLAUSE.split(text))
    return [*_LATIN_NAME.findall(text), *(c for c in clauses if _CJK_NAME.fullmatch(c))]


def _without_lead(text: str) -> str:
    lead = _first("name.lead", text)
    return text[lead.end():].strip() if lead is not None and lead.start() == 0 else text


def _name_in(said: str) -> str | None:
    """The one name a short correction gives ("it's John", "应该是小邹", "李炜，火字旁那个")."""
    latin = _LATIN_NAME.findall(said)
    if latin:
        return latin[-1] if len(latin) == 1 or _first("name.lead", said) is not None else None
    first = _without_lead(re.split(r"[，,、；;（(]", said, maxsplit=1)[0])
    return first if _CJK_NAME.fullmatch(first) else None


def _nearest(value: str, new: str) -> str | None:
    """The word of ``value`` the new name is a near spelling of (not the same)."""
    if _CJK_NAME.fullmatch(new):
        # A whole name: what stands after "叫我", "我叫" (or a mark) up to the end or a mark, not the
        # 小明 of 王小明.
        held = _names_held(value)
        pieces = {p for h in held for p in (h, h[:len(new)]) if len(p) == len(new)} or {
            value[i:i + len(new)] for i in range(len(value) - len(new) + 1)
            if (i == 0 or not _CJK_CHAR.match(value[i - 1])) and
            (i + len(new) == len(value) or not _CJK_CHAR.match(value[i + len(new)]))}
        limit = 1
    else:
        pieces = set(_LATIN_NAME.findall(value))
        limit = 1 if len(new) <= 4 else 2
    close = sorted((_distance(p, new), p) for p in pieces if p != new and re.fullmatch(r"\w+", p))
    return close[0][1] if close and close[0][0] <= limit and (len(close) == 1 or close[1][0] > close[0][0]) else None


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace; case aside) between two short words."""
    a, b = a.lower(), b.lower()
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]
