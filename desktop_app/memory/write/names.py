"""A name corrected by itself: "哦打错了，应该是小邹" right after "你可以叫我小周", "Oops, typo, it's John"
after "You can call me Jon". The correction names no subject and holds no number, so nothing else
reads it; it corrects the user's name when that was the last thing said and the new name is a
near spelling of the old one (one character in Chinese, two letters in English)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import CJK
from desktop_app.memory.core.models import MemoryItem

NAME_SUBJECTS = ("name", "name:called")
_CJK_NAME = re.compile(f"[{CJK}]{{2,4}}")
_LATIN_NAME = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")
_ZH_LEAD = re.compile(r"^(?:应该|其实|是|叫|写作|写成)+")
_ZH_NAMED = re.compile(f"(?<=叫我|我叫|我是|字是|称呼)[{CJK}]{{2,3}}(?=[^{CJK}]|$)")
_BEFORE_NAME = "叫我是为"  # the character before a name in "叫我小周", "我叫王小明", "名字是…", "称呼为…"
MAX_CORRECTION_CHARS = 24  # a longer sentence is news, not a spelling fixed


def corrected_name(active: Sequence[MemoryItem], said: str) -> tuple[MemoryItem, str] | None:
    """The name item ``said`` corrects and its value with the new spelling in place, or None."""
    said = said.split(": ", 1)[-1].strip(" .。!！")
    if not said or any(ch.isdigit() for ch in said) or not active:
        return None
    named = old_name_said(active, said)
    if named is not None:
        return named
    if len(said) > MAX_CORRECTION_CHARS:
        return None
    latest = max(active, key=lambda i: (i.updated_at, i.id))
    if latest.subject not in NAME_SUBJECTS:
        return None
    new = _name_in(said)
    if new is None:
        return None
    old = _nearest(latest.value, new)
    return (latest, latest.value.replace(old, new, 1)) if old is not None else None


def old_name_said(active: Sequence[MemoryItem], said: str) -> tuple[MemoryItem, str] | None:
    """A correction that names the old spelling too ("it's spelled Kathryn not Katherine", "是李炜，不是
    李伟"), however long and whenever said: the name item holding it, with the other name in its place."""
    for item in reversed([i for i in active if i.subject in NAME_SUBJECTS]):
        for old in {*_LATIN_NAME.findall(item.value), *_ZH_NAMED.findall(item.value)}:
            if old not in said:
                continue
            clauses = (_ZH_LEAD.sub("", c) for c in re.split(r"[，,、；;\s]+", said))
            others = [n for n in (*_LATIN_NAME.findall(said), *(c for c in clauses if _CJK_NAME.fullmatch(c)))
                      if n != old and old not in n and n not in old and _distance(n, old) <= max(2, len(old) // 2)]
            if others:
                return item, item.value.replace(old, others[0], 1)
    return None


def _name_in(said: str) -> str | None:
    """The one name a short correction gives ("it's John", "应该是小邹")."""
    latin = _LATIN_NAME.findall(said)
    if latin:
        return latin[-1] if len(latin) == 1 or said.lower().startswith(("it's", "its", "it is")) else None
    first = re.split(r"[，,、；;（(]", _ZH_LEAD.sub("", said), maxsplit=1)[0]  # "李炜，火字旁那个"
    return first if _CJK_NAME.fullmatch(first) else None


def _nearest(value: str, new: str) -> str | None:
    """The word of ``value`` the new name is a near spelling of (not the same)."""
    if _CJK_NAME.fullmatch(new):
        # A whole name: what stands after "叫我", "我叫", "是" (or a mark) up to the end or a mark, not
        # the 小明 of 王小明.
        pieces = {value[i:i + len(new)] for i in range(len(value) - len(new) + 1)
                  if (i == 0 or value[i - 1] in _BEFORE_NAME or not _CJK_NAME.match(value[i - 1] * 2))
                  and (i + len(new) == len(value) or not _CJK_NAME.match(value[i + len(new)] * 2))}
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
