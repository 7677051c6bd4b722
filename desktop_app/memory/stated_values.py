"""Which value of memory a reply's number or word states, shared by the reply guard and the recap.

A number in a reply counts what an item's does when the units agree (a bare amount of money is a
budget's; a list's own numbering counts nothing); an old value is stated as current when the reply
says what only it said, outside a sentence that marks it as history ("was 4", "原为8000"). Pure; the
words it reads live in ``assets/lexicon``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import LANGS, cue, fires
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.core.records import GuardFinding
from desktop_app.memory.lang.amounts import Amount, amounts, in_subject
from desktop_app.memory.lang.text import (
    CJK_CHAR,
    split_sentences,
    term_set,
)

# A value compared as words holds no amount (a number up to a day of the month may be a date) and
# only a few words of its own ("Rome", "vegetarian", "国庆去三亚"), not a whole sentence.
MAX_DAY = 31
MAX_NAMED_TERMS = 8
HISTORY_WINDOW = 24  # characters either side of an old value where a history word ("was", "原来") counts
_YEAR = range(1900, 2101)


# "1. ", "2、": a number at a line's start that only counts the lines of a list
_LIST_NUMBER = re.compile(r"\d{1,2}(?:[.)](?:\*\*)?\s|[、）])")
_LIST_PREFIX = re.compile(r"[\s#*>（(]*")
_LIST_MARKS = re.compile(f"(?m)^{_LIST_PREFIX.pattern}{_LIST_NUMBER.pattern}")  # the numbers of a list's lines


def numbering(text: str, amount: Amount) -> bool:
    """``amount`` only numbers a line of a list or a heading ("1. ", "6、", "### 5. ", "**2.** ")."""
    line_start = text.rfind("\n", 0, amount.start) + 1
    return bool(_LIST_PREFIX.fullmatch(text, line_start, amount.start) and _LIST_NUMBER.match(text, amount.start))


def unit_of_item(item: MemoryItem, amount: Amount) -> str | None:
    """What an item's number counts: its own unit, else what its subject says (a budget is money) —
    unless another number of the value already counts that ("我们一共3个人，…5岁的儿子" under 人数: the 3
    is the head count, the 5 an age; "蜜月总预算3.5万，两个人" under 预算: 3.5万 is still the money)."""
    if amount.unit:
        return amount.unit
    subject = item.subject.lower()
    if fires("unit.money", subject) or in_subject("money", subject):
        unit = "money"
    elif fires("unit.people", subject) or in_subject("people", subject):
        unit = "people"
    else:
        return None
    return None if any(other.unit == unit for other in amounts(item.value)) else unit


def same_kind(reply: Amount, item_unit: str | None, value: float) -> bool:
    """A reply's number counts the same thing as an item's: same unit, or a bare amount of money
    large enough to be one (a bare "8000" next to a budget of 8000 yuan; not a year, not "3")."""
    if reply.unit is not None or item_unit is None:
        return reply.unit == item_unit and item_unit is not None
    return item_unit == "money" and reply.value >= 100 and not (reply.value.is_integer() and int(reply.value) in _YEAR)


def near(text: str, amount: Amount, concept: str, window: int = HISTORY_WINDOW) -> bool:
    return fires(concept, text[max(0, amount.start - window):amount.end + window])


def replacement(item: MemoryItem, items: Sequence[MemoryItem]) -> MemoryItem | None:
    """The active item that replaced ``item`` (following a chain of replacements), or None."""
    by_old = {i.supersedes: i for i in items if i.supersedes is not None}
    seen: set[int] = set()
    current = by_old.get(item.id)
    while current is not None and current.id not in seen:
        if current.status == "active":
            return current
        seen.add(current.id)
        current = by_old.get(current.id)
    return None


def superseded(reply: str, found: list[Amount], active: Sequence[MemoryItem],
                history: Sequence[MemoryItem]) -> list[GuardFinding]:
    out: list[GuardFinding] = []
    everything = [*active, *history]
    for old in history:
        if old.status != "superseded":
            continue
        new = replacement(old, everything)
        if new is None:
            continue
        new_values = {a.value for a in amounts(new.value)}
        if any(a.value in new_values for a in found):
            continue  # the current value is there: the old one is history beside it
        for stale in (a for a in amounts(old.value) if a.value not in new_values):
            unit = unit_of_item(old, stale)
            hit = next((a for a in found if a.value == stale.value and same_kind(a, unit, a.value)
                        and not near(reply, a, "guard.history")), None)
            if hit is not None:
                out.append(GuardFinding(kind="superseded", item=old.id, detail=f"states {reply[hit.start:hit.end]} "
                                        f"from “{old.value}”, replaced by “{new.value}”", current=new.value,
                                        old=old.value))
                break
        else:
            word = stale_word(reply, old, new)
            if word is not None:
                out.append(GuardFinding(kind="superseded", item=old.id, detail=f"states “{word}” from “{old.value}”, "
                                        f"replaced by “{new.value}”", current=new.value, old=old.value))
    return out


def _current_terms(text: str) -> set[str]:
    """The terms of a new value outside what it marks as dropped ("Florence *instead of Rome*",
    "改去厦门，*不去三亚*")."""
    for lang in LANGS:
        pattern = cue("guard.dropped", lang)
        if pattern is not None:
            text = pattern.sub(" ", text)
    return term_set(text)


def stale_word(reply: str, old: MemoryItem, new: MemoryItem, *, beside_new: bool = False) -> str | None:
    """A word of a replaced value that the reply states as current: the reply uses what only the
    old value said ("Rome", "vegetarian", "三亚", "May 10") in a sentence that does not mark it as
    history, and nothing that only the new value says. Names, places, diets and dates have no
    number to compare; these are compared as words."""
    if any(a.value > MAX_DAY for a in (*amounts(old.value), *amounts(new.value))):
        return None  # an amount changed, or a value was reworded around the same amount: numbers decide
    old_terms = term_set(old.value) - term_set(old.subject)
    if len(old_terms) > MAX_NAMED_TERMS:
        return None  # a whole sentence, not a named value: its other words are not what changed
    current = _current_terms(new.value)
    stale = {t for t in old_terms - current if len(t) >= 4 or t.isdigit() or CJK_CHAR.match(t)}
    fresh = current - term_set(old.value) - term_set(new.subject)
    if not stale or not fresh:
        return None
    reply = _LIST_MARKS.sub("", reply)  # ("4. Visit Belém" states no head count of 4)
    said = term_set(reply)
    if said & fresh and not beside_new:
        # the current value is there: the old one is history beside it (``beside_new``: one sentence is judged, and the
        # two in it with nothing marking the old one as history are a mix-up: "After the appointment on October 16 and
        # next checkup is oct 9", bench health's hc-en-13)
        return None
    hits: list[str] = []
    for sentence in split_sentences(reply):
        if fires("guard.history", sentence):
            continue
        hits.extend(t for t in sorted(stale & term_set(sentence)) if t not in hits)
    if not hits:
        return None
    named = [t for t in hits if t.isdigit() or CJK_CHAR.match(t) or _proper(t, old.value)]
    return (named or hits)[0] if named or len(hits) >= 2 else None


def _proper(term: str, text: str) -> bool:
    """``term`` is written capitalised inside ``text`` (a name or a place), not only at its start."""
    return any(m.start() > 0 and m.group()[0].isupper() for m in re.finditer(rf"(?i)\b{re.escape(term)}\b", text))
