"""Values read by their type (round eight): a day or a time of day moved by news of a change, and a
budget said anew as a limit. What changes is found by the kind of value the message says, not by
the words around it: "she pushed it again lol, now june 19 to 23" moves the visit's days,
"最后说定了，八千五封顶" is the budget's new amount."""

from __future__ import annotations

import re
from functools import lru_cache

from desktop_app.lexicon import CJK, LANGS, alternatives, fires, lexicon_words
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import amounts, chinese_value
from desktop_app.memory.lang.dates import days_said, month_days
from desktop_app.memory.lang.text import named_terms
from desktop_app.memory.write.mood import rx
from desktop_app.memory.write.sentence import CLOCK, DATE, LIMIT, MOVED, Candidate

# The kinds whose value a newer one replaces.
VALUE_KINDS = ("fact", "constraint", "decision", "preference")
# Words in a quote that say a value changed (the lexicon's ``change.said``; ``change.moved`` is MOVED).
CHANGED = rx(alternatives("change.said", ("en", "zh")))
# What says when, by the way it says it: a change of one moves the same in the item it changes.
WHEN = {"date": DATE, "clock": CLOCK}


# A new limit is the budget said anew only within this factor of it: "max 180 a night" is no new
# total after "3000 for everything", "final: 2300 max" is after "like 1.5k".
_BUDGET_RATIO = 3.0


def one_sum(value: str) -> float | None:
    """The one amount of money (or one bare amount) ``value`` states; None when it states none or several."""
    said = amounts(value)
    return said[0].value if len(said) == 1 and said[0].unit in ("money", None) and said[0].value > 0 else None


def budget_said_anew(cand: Candidate, active: list[MemoryItem]) -> MemoryItem | None:
    """The whole budget a limit or a decision states anew without naming it: one amount of money (or
    a bare one), said as a limit or a change, not per person or per night, within a few times the
    budget's amount."""
    if cand.kind not in ("constraint", "decision") or cand.subject.startswith("budget") or \
            not (LIMIT.search(cand.quote) or CHANGED.search(cand.quote) or MOVED.search(cand.quote)):
        return None
    said = one_sum(cand.value)
    if said is None or fires("guard.per_period", cand.value) or fires("guard.per_person", cand.value):
        return None
    for item in reversed(active):
        held = one_sum(item.value) if item.subject == "budget" and item.kind in VALUE_KINDS else None
        if held is not None:
            ratio = said / held
            return item if 1 / _BUDGET_RATIO <= ratio <= _BUDGET_RATIO else None
    return None


# A limit of one thing said anew as the budget is within this factor of it ("cap it at 700 instead" after "max $900";
# "Total budget is 4000 euros" is no new value of "hotels max 1500 euros").
_LIMIT_RATIO = 2.0


def limit_said_anew(cand: Candidate, active: list[MemoryItem], *, corrected: bool = False) -> MemoryItem | None:
    """The money limit a budget said as a change replaces when no item is the budget yet ("cap it at 700 instead"
    after "I need a new laptop for school, max $900", integrity's fourth set; ``corrected``: the message is a
    correction, "预算改成2500吧" after "最多3000元"): the latest limit of one amount of money, within twice or half the
    new one (a budget for one part, "hotel budget is 1500 euros", stays beside it)."""
    said = one_sum(cand.value)
    if cand.subject != "budget" or said is None \
            or not (corrected or CHANGED.search(cand.quote) or MOVED.search(cand.quote)) \
            or any(i.subject == "budget" for i in active):
        return None
    for item in reversed(active):
        held = amounts(item.value)
        if item.kind == "constraint" and not item.subject.startswith("budget:") and len(held) == 1 \
                and held[0].unit == "money" and LIMIT.search(item.value) \
                and not fires("guard.per_period", item.value) and not fires("guard.per_person", item.value):
            return item if 1 / _LIMIT_RATIO <= said / max(held[0].value, 1e-9) <= _LIMIT_RATIO else None
    return None


def length_said_anew(cand: Candidate, active: list[MemoryItem]) -> MemoryItem | None:
    """The length rule a new length rule of another number replaces at once ("50 words max going forward" after
    "keep your answers under 100 words from now on", integrity's fourth set): a new value of the same rule, not
    a conflicting one to confirm). A length said without "from now on" while one stands is that rule said anew
    too ("还是太长，100字以内吧" after "以后回答控制在200字以内")."""
    said = amounts(cand.value)
    if cand.subject != "length" or len(said) != 1 or not (
            cand.kind == "directive" or cand.kind == "constraint" and fires("rule.length_again", cand.value)):
        return None
    for item in reversed(active):
        held = amounts(item.value) if item.kind == "directive" and item.subject == "length" else []
        if len(held) == 1 and held[0].unit == said[0].unit:
            return item if held[0].value != said[0].value else None
    return None


def when_news(cand: Candidate, active: list[MemoryItem]) -> tuple[MemoryItem, str] | None:
    """News that a day or time changed ("she pushed it again lol, now june 19 to 23", "师傅又说周日有事，
    改到下周二下午两点"): the item it moves, with the new day or time (said after the news word)."""
    cues = [m for pattern in (CHANGED, MOVED) for m in pattern.finditer(cand.value)]
    if not cues:
        return None
    return when_moved(active, cand.value) or when_moved(active, cand.value[max(m.end() for m in cues):])


# A number and what it counts: the character after it in Chinese ("15桌"), the word after it in English ("12 tables").
MEASURED = re.compile(rf"(\d+(?:\.\d+)?)\s*([{CJK}]|[A-Za-z]+)")


@lru_cache(maxsize=1)
def _not_measures() -> frozenset[str]:
    # Words after a number that say a date, a time, an age or money (the lexicon's ``count.not_measure``): no count.
    return frozenset(w for lang in LANGS for w in lexicon_words("count.not_measure", lang))


def count_said_anew(cand: Candidate, active: list[MemoryItem]) -> tuple[MemoryItem, str] | None:
    """A choice that settles a count of the same measure as an item holds ("不行 最后定了20桌" after "宝宝满月酒
    打算请15桌", "we settled on 12 tables in the end"): that item, with the new number in the old one's place."""
    if cand.kind != "decision" or not (CHANGED.search(cand.quote) or fires("change.mind", cand.quote)):
        return None
    said = [m for m in MEASURED.finditer(cand.value) if m.group(2).lower() not in _not_measures()]
    if len(said) != 1:
        return None
    number, measure = said[0].group(1), said[0].group(2).lower()
    for item in reversed(active):
        if item.kind in ("directive", "open_question"):
            continue
        same = [m for m in MEASURED.finditer(item.value) if m.group(2).lower() == measure]
        if len(same) == 1 and same[0].group(1) != number:
            return item, item.value[:same[0].start(1)] + number + item.value[same[0].end(1):]
    return None


def says_when(text: str) -> bool:
    return any(pattern.search(text) for pattern in WHEN.values())


def when_moved(active: list[MemoryItem], value: str) -> tuple[MemoryItem, str] | None:
    """A change that says when (a day, a time of day, or both): the latest item saying when in the
    same way, with the new day or time in the old one's place ("约了师傅周六上午来" + "改到下周二下午两点"
    → "约了师傅下周二下午两点来"); a time the item lacks goes after its day. Where the change names
    two days, the one the item holds is the old one ("June 21, the 14th was the old option")."""
    said = {kind: list(dict.fromkeys(days_said(pattern, value))) for kind, pattern in WHEN.items()}
    said = {kind: found for kind, found in said.items() if found}
    if not said:
        return None
    # (The item holding a day the change names as the old one comes first: "the 14th" is the wedding's, not the
    # caterer's "may 1" said since. Only a change naming two days of a kind names an old one; with one, the item
    # already holding it would be found and nothing moved.)
    old_named = [f for kind, found in said.items() if len(found) > 1 for f in found]
    named = [i for i in active if any(same_when(f, m.group(0)) for f in old_named
                                      for pattern in WHEN.values() for m in pattern.finditer(i.value))]
    # (Then one the change names: "年会挪到1月25号了" moves the party's day, not the deposit's said since.)
    topic = named_terms(CHANGED.sub(" ", MOVED.sub(" ", CLOCK.sub(" ", DATE.sub(" ", value)))))
    sharing = [i for i in active if topic & named_terms(i.value)] if topic else []
    # (Then the latest saying a day the way the change does: "改到6月22号吧" moves "搬家日子定在6月15号", not the "周六"
    # said beside it and kept as its own item.)
    latest = sorted(reversed(active), key=lambda i: not _dated_alike(value, i.value))
    for item in [*reversed(named), *reversed(sharing), *latest]:
        if item.kind in ("directive", "open_question") or not any(WHEN[kind].search(item.value) for kind in said):
            continue
        moved = item.value
        for kind, found in said.items():
            held = [m.group(0) for m in WHEN[kind].finditer(item.value)]
            new = [f for f in found if not any(same_when(f, h) for h in held)]
            if len(new) > 1 or (len(found) > 1 and not new):
                return None  # two new days: which replaces which is not said
            if not new:
                continue
            at = WHEN[kind].search(moved)
            if at is not None:
                moved = moved[:at.start()] + new[0] + moved[at.end():]
            elif kind == "clock" and (day := WHEN["date"].search(moved)) is not None:
                gap = " " if new[0].isascii() else ""
                moved = moved[:day.end()] + gap + new[0] + moved[day.end():]
        return (item, moved) if moved != item.value else None
    return None


def _dated_alike(said: str, held: str) -> bool:
    """Both name a day of the month ("6月22号", "June 14"), or neither does."""
    return bool(month_days(_in_digits(said))) == bool(month_days(_in_digits(held)))


def same_when(said: str, held: str) -> bool:
    """The same day or time, however written ("the 14th" is "June 14"; "周三" is "周三"; "十月三号" is "10月3号";
    "2024-07-21" is "July 21"; "7月7日" is not "7月17日")."""
    if said.lower() == held.lower():
        return True
    said, held = _in_digits(said), _in_digits(held)
    said_days, held_days = month_days(said), month_days(held)
    if said_days and held_days:
        return {(d.month, d.day) for d in said_days} <= {(d.month, d.day) for d in held_days}
    digits = re.findall(r"\d+", said)
    return bool(digits) and set(digits) <= set(re.findall(r"\d+", held))


def _in_digits(text: str) -> str:
    """A day with its numbers in digits, month first, without its year ("十月三号" → "10月3号", "2024-07-04" → "7/4")."""
    text = re.sub(r"(?<!\d)\d{4}-(\d{1,2})-(\d{1,2})(?!\d)", lambda m: f"{int(m.group(1))}/{int(m.group(2))}", text)
    text = re.sub(r"\d{4}年(?=\d{1,2}月)", "", text)  # ("2025年1月15日": the year says no other day)
    return re.sub(r"[一二三四五六七八九十]+(?=[月日号])",
                  lambda m: f"{int(v)}" if (v := chinese_value(m.group(0))) else m.group(0), text)
