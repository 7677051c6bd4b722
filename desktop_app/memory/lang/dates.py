"""Calendar days named without a year, as (month, day): "10月1号", "July 14", "14th of July".

A date is two numbers that count one thing together: "10月1号" is not named by a reply that says
"10月2日" and "一个", though both numbers are there. The month names are the lexicon's
``time.month`` (English), the Chinese form its ``time.month_day``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from desktop_app.lexicon import each_pattern, lexicon


@dataclass(frozen=True)
class MonthDay:
    """A day of a month named in a text, with where it stands."""

    month: int
    day: int
    start: int
    end: int


@lru_cache(maxsize=1)
def _forms() -> tuple[tuple[re.Pattern[str], ...], dict[str, int]]:
    months = {name: place for place, name in enumerate(lexicon("en")["time"]["month"]["words"], start=1)}
    # A month's first three letters or more stand for it ("Jul 14", "Sept 14"); "may" only as a name
    # (capitalised).
    forms = sorted({form for name in months if name != "may" for form in (name, name[:3])} | {"sept"}, key=len, reverse=True)
    names = "|".join([*(rf"{form}\b\.?" for form in forms), "(?-i:May)"])
    english = (re.compile(rf"\b(?P<month>{names})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:[:.]\d|%))",
                          re.IGNORECASE),
               re.compile(rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{names})(?![a-z])",
                          re.IGNORECASE))
    chinese = tuple(re.compile(p.pattern) for p in each_pattern("time.month_day", "zh"))
    # "7/14", "10/1出发": month first (a day first where no month can be: "14/7")
    numeric = (re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})(?![\d/]|\.\d)"),)
    return english + chinese + numeric, months


# The second day of a range in one month: "10月1日至7日", "July 14-18".
_RANGE_END = re.compile(r"\s*(?:到|至|-|–|~|～|to|through|until)\s*(\d{1,2})(?:st|nd|rd|th|日|号)?(?![\d月/])")


def month_days(text: str) -> list[MonthDay]:
    """Every (month, day) ``text`` names, in order; impossible days are none."""
    forms, months = _forms()
    found: dict[int, MonthDay] = {}
    for form in forms:
        for m in form.finditer(text):
            if "month" in form.groupindex:
                name = m.group("month").lower().rstrip(".")
                month = next((place for full, place in months.items() if full.startswith(name[:3])), 0)
                day = int(m.group("day"))
            else:
                month, day = int(m.group(1)), int(m.group(2))
                if "/" in m.group(0) and month > 12:
                    month, day = day, month
            if 1 <= month <= 12 and 1 <= day <= 31 and m.start() not in found:
                found[m.start()] = MonthDay(month, day, m.start(), m.end())
                end = _RANGE_END.match(text, m.end())
                if end is not None and day < int(end.group(1)) <= 31:
                    found[end.start(1)] = MonthDay(month, int(end.group(1)), end.start(1), end.end())
    return [found[k] for k in sorted(found)]


def days_said(pattern: re.Pattern[str], value: str) -> list[str]:
    """The days (or times) a text says, one written right after another as one ("改到9月6号周六吧" says one day,
    "9月6号周六", not two new ones)."""
    days: list[tuple[int, int]] = []
    for m in pattern.finditer(value):
        # (a weekday, no number: "10月3号 2号那天满了" says two days)
        if days and _ADJACENT.fullmatch(value[days[-1][1]:m.start()]) and not re.search(r"\d", m.group(0)):
            # (with its bracket closed: "June 15 (Saturday)", not "June 15 (Saturday")
            days[-1] = (days[-1][0], m.end() + (value[m.end():m.end() + 1] in (")", "）")))
        else:
            days.append((m.start(), m.end()))
    return [value[start:end] for start, end in days]


# What may stand between a day and the weekday said with it: "9月6号周六", "June 8 (Saturday)".
_ADJACENT = re.compile(r"\s?[(（]?\s?")


# A year with no 29 February: a day put off past the end of February lands on 1 March.
_COMMON_YEAR = 2001


def deferred(text: str, days: int) -> str | None:
    """``text`` with the days it names put off by ``days`` (brought forward when negative), written as ``text`` writes
    them: "we're leaving june 14" + 7 is "we're leaving june 21", "12月20号" + 7 "12月27号", "Sept 28" + 7 "Oct 5",
    "march 3 to 6" + 7 "march 10 to 13"; None when it names none."""
    found = month_days(text)
    if not found:
        return None
    for day in reversed(found):  # (from the end: the places before stay where they are)
        moved = date(_COMMON_YEAR, day.month, day.day) + timedelta(days=days)
        said = _redated(text[day.start:day.end], moved, day.month)
        if said is None:
            return None
        text = text[:day.start] + said + text[day.end:]
    return text


def _redated(said: str, moved: date, month: int) -> str | None:
    """A day as written (``said``, of ``month``) written as ``moved``."""
    # its digits: after 月 or the slash, else the only number ("June 14", "19 September", "14" of a range)
    digits = re.search(r"(?<=月)\d{1,2}", said) or re.search(r"(?<=/)\d{1,2}", said) or re.search(r"\d{1,2}", said)
    if digits is None:
        return None
    said = said[:digits.start()] + str(moved.day) + said[digits.end():]
    said = re.sub(r"(?<=\d)(?:st|nd|rd|th)\b", _ordinal(moved.day), said, count=1)
    return _month_renamed(said, month, moved.month) if moved.month != month else said


def _ordinal(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_renamed(said: str, old: int, new: int) -> str:
    """``said`` (a day as written) with its month ``old`` written as ``new``: "10月", "October", "Oct", "10/"."""
    chinese = re.sub(rf"(?<!\d){old}(?=\s*月)", str(new), said, count=1)
    if chinese != said:
        return chinese
    months: list[str] = [str(m) for m in lexicon("en")["time"]["month"]["words"]]
    word = next((w for w in re.finditer(r"[A-Za-z]+", said) if months[old - 1].startswith(w.group(0).lower()[:3])), None)
    if word is not None:
        name = months[new - 1] if len(word.group(0)) > 4 else months[new - 1][:3]
        name = name.capitalize() if word.group(0)[:1].isupper() else name
        return said[:word.start()] + name + said[word.end():]
    return re.sub(rf"(?<!\d){old}(?=/)", str(new), said, count=1)


def day_in(day: MonthDay, lang: str) -> str:
    """A day of a month as ``lang`` writes it ("July 15", "7月15号"): how the program names a day said in the other
    language (under an English rule, "最好7月15号开营的" is noted "July 15")."""
    if lang == "zh":
        return f"{day.month}月{day.day}号"
    return f"{str(lexicon('en')['time']['month']['words'][day.month - 1]).capitalize()} {day.day}"
