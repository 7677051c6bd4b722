"""Numbers in text with what they count: "5,000", "5k", "3.5万", "三万五" normalised, and whether
each is money, people, days or a measure (the units are the lexicon's ``unit.*``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from desktop_app.lexicon import LANGS, alternatives, cue, fires, lexicon, subject_labels
from desktop_app.memory.lang.text import canonical_subject, numbers

# "measure" (metres, kilograms, minutes …) only keeps a number from being read as a bare amount.
UNITS = ("money", "people", "days", "measure")


@dataclass(frozen=True)
class Amount:
    """A number in a text, normalised ("5k", "3.5万", "三万五" → 5000, 35000), with what it counts."""

    value: float
    start: int
    end: int
    unit: str | None  # "money", "people", "days" or None


@lru_cache(maxsize=1)
def _scales() -> dict[str, float]:
    """Multipliers written after a number, from every lexicon ("k", "thousand", "万")."""
    return {k.lower(): float(v) for lang in LANGS for k, v in lexicon(lang)["number"]["scale"].items()}


@lru_cache(maxsize=1)
def _arabic() -> re.Pattern[str]:
    """A number in digits ("5,000", "3.5"), with the multiplier after it, if any; a digit glued to a
    Chinese character still counts ("预算8000元")."""
    scales = "|".join(sorted((re.escape(k) for k in _scales()), key=len, reverse=True))
    # Not a piece of a phone number or code ("555-0300", "(212) 555", "6282 9260"): digits joined
    # by a dash or a space.
    # ("€6, 500": the 0.5B writes a space after the thousands comma; the amount is one.)
    return re.compile(rf"(?<![0-9A-Za-z.,\-])(?<!\d\)\s)(?<!\d\s)(\d{{1,3}}(?:, ?\d{{3}}(?!\d))+|\d+(?:\.\d+)?)(?![-‐]\d)"
                      rf"(?:\s*({scales})(?![A-Za-z]))?", re.IGNORECASE)


@lru_cache(maxsize=1)
def _chinese_numeral() -> re.Pattern[str]:
    table = lexicon("zh")["number"]
    chars = "".join([*table["digits"], *table["units"]])
    digits = "".join(table["digits"])
    # A single numeral counts when a unit or measure word follows it (the lexicon's ``unit.counter``).
    return re.compile(f"(?:[{digits}]|十)[{chars}]+|[{digits}](?=(?:{alternatives('unit.counter', ('zh',))}))")


def chinese_value(text: str) -> float | None:
    """The value of a Chinese numeral ("三万五" 35000, "两千" 2000, "十二" 12); None if it is none."""
    table = lexicon("zh")["number"]
    digits, units = table["digits"], table["units"]
    total, section, digit, last_unit = 0, 0, None, None
    for ch in text:
        if ch in digits:
            digit = digits[ch]
        elif ch in units:
            unit = units[ch]
            if unit >= 10000:
                total = (total + section + (digit or 0)) * unit
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * unit
                digit = None
            last_unit = unit
        else:
            return None
    if digit is not None:  # "三万五": a trailing digit counts one place below the last unit
        section += digit * (last_unit // 10 if last_unit and last_unit >= 10 and last_unit != 10 else 1)
    value = total + section
    return float(value) if value else None


def amounts(text: str) -> list[Amount]:
    """Every number in ``text`` with its value and unit, in order."""
    found: list[Amount] = []
    scales = _scales()
    for m in _arabic().finditer(text):
        if found and m.start() < found[-1].end:
            continue  # (the "5" of "1万5", taken in with it)
        raw = m.group(1).replace(",", "").replace(" ", "")
        scale = (m.group(2) or "").lower()
        if scale == "m" and text[max(0, m.start() - 2):m.start()].rstrip()[-1:] not in tuple("$€£¥￥"):
            # "3,454 m" is a height; "$2m" is money.
            found.append(Amount(float(raw), m.start(), m.end(), "measure"))
            continue
        value = float(raw) * scales.get(scale, 1.0)
        end = m.end()
        if scale in _SPOKEN_TAIL and (tail := _TAIL.match(text, end)) is not None:
            # "1万5" is 15000, "2千5" 2500, "1万2千" 12000: a digit after 万 or 千 counts the place below it, or its own
            value += int(tail.group(1)) * (_SPOKEN_TAIL[tail.group(2)] if tail.group(2) else _SPOKEN_TAIL[scale] / 10)
            end = tail.end()
        found.append(Amount(value, m.start(), end, _unit(text, m.start(), end)))
    for m in _chinese_numeral().finditer(text):
        numeral = chinese_value(m.group(0))
        if numeral == 1 and (each := cue("amount.per_person", "zh")) is not None and each.match(text, m.end()):
            continue  # "预算一个人3000以内": the money is per person, and no one is counted
        if numeral is not None and not any(a.start <= m.start() < a.end for a in found):
            found.append(Amount(numeral, m.start(), m.end(), _unit(text, m.start(), m.end())))
    return sorted(found, key=lambda a: a.start)


# The Chinese digits ("一", "两", "七"), as characters: a value named by one alone names no thing.
ZH_DIGITS = frozenset(lexicon("zh")["number"]["digits"])


# Chinese places a bare digit may follow, spoken ("1万5", "3千2"), with what each is worth.
_SPOKEN_TAIL = {"万": 10000.0, "千": 1000.0, "百": 100.0}
_TAIL = re.compile(r"(\d)(?![\d.,])(千|百)?")


def written_numbers(text: str) -> list[str]:
    """The numbers of ``text`` as written, in digits or in Chinese ("1.5k", "8000元", "七千", "八千五");
    digits that are no amount (a phone number's pieces) still count as numbers."""
    return [text[a.start:a.end] for a in amounts(text)] or numbers(text)


def says_a_number(text: str) -> bool:
    """``text`` names a number in any way a person writes one: digits, Chinese numerals ("五千",
    "十个人") or a small number spelled out ("two of us")."""
    if written_numbers(text) or _chinese_numeral().search(text):
        return True
    spelled = {word for lang in LANGS for word in lexicon(lang)["number"].get("spelled", {})}
    return any(word in spelled for word in re.findall(r"[a-z]+", text.lower()))


# Where a number is a piece of a date or a time: what stands right before it ("10:", "7/", "10月") and right
# after it ("月", "号", "点", ":45", "pm").
_DATE_BEFORE = re.compile(r"\d[:/]$|月$")
_DATE_AFTER = re.compile(r"[:/]\d|\s*(?:[月号日点时]|am\b|pm\b)", re.IGNORECASE)


def dateless_amounts(text: str) -> list[Amount]:
    """The amounts of ``text`` that are no piece of a date or a time ("10月1号", "10:45", "7pm", "July 14")."""
    # (A time is found by its marks around the number: "at 50" is a count as often as a time.)
    spans = [m.span() for lang in LANGS if (pattern := cue("time.date", lang)) is not None for m in pattern.finditer(text)]
    return [a for a in amounts(text) if not _DATE_BEFORE.search(text[max(0, a.start - 2):a.start])
            and not _DATE_AFTER.match(text[a.end:a.end + 3]) and not any(s <= a.start and a.end <= e for s, e in spans)]


def counted(text: str) -> set[str]:
    """What the numbers of ``text`` count, where it says (money, people, days, a measure)."""
    return {a.unit for a in amounts(text) if a.unit}


def only_counts(text: str) -> frozenset[tuple[float, str]]:
    """The amounts of ``text``, each with what it counts, when every number in it counts money,
    people or days ("8 guests", "八个人", "8000元"); empty when one stands bare or measures
    something ("10月1号出发", "3,454 m", "压到1200吧"): such a text says more than its counts."""
    said = amounts(text)
    if not said or len(said) < len(numbers(text)) or any(a.unit in (None, "measure") for a in said):
        return frozenset()
    return frozenset((a.value, a.unit) for a in said if a.unit)


def amount_phrase(text: str, amount: Amount, *, measure: bool = False) -> str:
    """``amount`` as ``text`` writes it with its currency and its unit ("$350", "5个人", "10 people",
    "2.5万"; with ``measure``, a measure's word too: "100 words", "200字"): the words a reply or an
    acknowledgment names it by."""
    start = amount.start - 1 if text[max(0, amount.start - 1):amount.start] in tuple("$€£¥￥") else amount.start
    found = _unit_match(text, amount.end, amount.unit) if amount.unit and (amount.unit != "measure" or measure) \
        else None
    return text[start:found.end() if found else amount.end].strip()


def _unit_match(text: str, end: int, unit: str) -> re.Match[str] | None:
    """``unit``'s words right after a number ending at ``end`` (spaces between), in any language."""
    after = text[end:end + 14]
    offset = end + len(after) - len(after.lstrip())
    for lang in LANGS:
        pattern = cue(f"unit.{unit}", lang)
        found = pattern.match(text, offset) if pattern is not None else None
        if found:
            return found
    return None


def _unit(text: str, start: int, end: int) -> str | None:
    if (unit := next((u for u in UNITS if _unit_match(text, end, u)), None)) is not None:
        return unit
    before = text[max(0, start - 2):start].rstrip()
    if before and before[-1] in "$€£¥￥":
        return "money"
    return None


# Canonical subjects whose value is a date (the 0.5B filed "出发日期: 老人腿脚不太好" over "10月1号出发").
DATED_SUBJECTS = ("departure",)


def in_subject(unit: str, subject: str) -> bool:
    """Whether a lower-cased subject holds a piece that names ``unit`` (the lexicon's ``unit.in_subject``)."""
    return any(piece in subject for lang in LANGS for piece in lexicon(lang)["unit"]["in_subject"].get(unit, []))


def subject_counts(subject: str, canonical: str | None = None) -> set[str]:
    """What a subject says it counts among money, people and days: its own words ("days", "人数"),
    and for a canonical subject the words of its label in each language ("head count" is 人数)."""
    named = counted(f"1 {subject.split(':', 1)[-1]}")
    for lang in LANGS if canonical else ():
        label = subject_labels(lang).get(canonical or "")
        if label:
            named |= counted(f"1 {label}")
    return named - {"measure"}


def item_counts(value: str, subject: str) -> set[str]:
    """What an item's number counts among money, people and days: by its value's words or by its subject
    ("head count", "budget")."""
    return (counted(value) | subject_counts(subject, canonical_subject(subject))) - {"measure"}


def holds_its_kind(canonical: str, text: str) -> bool:
    """``text`` says the kind of value the canonical subject holds: a count of what it counts
    ("来80个人" for the head count), a date for the departure."""
    if canonical in DATED_SUBJECTS:
        return fires("time.date", text)
    wanted = subject_counts(canonical, canonical)
    return bool(wanted & counted(text))

