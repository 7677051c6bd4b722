"""Calendar days named without a year, as (month, day): "10月1号", "July 14", "14th of July".

A date is two numbers that count one thing together: "10月1号" is not named by a reply that says
"10月2日" and "一个", though both numbers are there. The month names are the lexicon's
``time.month`` (English), the Chinese form its ``time.month_day``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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
