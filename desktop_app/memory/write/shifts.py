"""A value changed by an amount, not to one: "再加500吧" after "给我妈买生日礼物，预算1000" is 1500, "let's
halve that" after a gift budget of 800 is 400, "2 more people are coming" after "we're 8 people" is 10.

Read as a value of its own, such a sentence did damage: "add 300 to the budget" became the budget
(300), "预算再减500" a budget of 500. Here the sentence names the change; the item it changes is the
latest that holds an amount of the kind (the subject the sentence names, else what its number counts,
else a bare amount of a size the change fits); its one such amount is computed anew and written in
the item's own words ("买车预算15万" + "再加三万" → "买车预算18万"). Pure: the caller hands the items
over and writes what comes back. The words are the lexicon's ``shift.*``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from desktop_app.lexicon import CJK, LANGS, alternatives, first_match, lexicon
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import Amount, amounts, counted, dateless_amounts, in_subject

# What may follow a bare number that a shift adds or takes away ("再加500吧", "another 500 on top of
# that", "add 300 to the budget"); anything else names what it counts ("加3个菜", "add 2 dishes").
_BARE_AFTER = re.compile(r"\s*(?:$|[吧了啊呗呀嘛的，,。.!！?？;；…~)]|%|(?:on|to|for|from|bucks|each|per|lol|haha|tho|though|"
                         r"pls|please|then|now|ok|okay|too|instead|this|that|it|in|at|of|and|but|so|because)\b)", re.IGNORECASE)
# What a number counts when no unit says it: the counter right after it ("2桌", "500字", "5页") or the word
# ("3 dishes", "2 rooms").
_NOUN = re.compile(f"\\s*([{CJK}]{{1,2}}|[A-Za-z]+)")
_SIGN = "$€£¥￥"
SHIFTED = "changed_by"  # the detail of an item whose amount the program computed: the sentence that changed it
MAX_DELTA = 2.0  # a bare amount added is at most this many times the value it changes ("再加三万" to 15万)


@dataclass(frozen=True)
class Shift:
    """A change by an amount: ``delta`` added (negative: taken away) or ``factor`` multiplied, with
    what the number counts when the sentence says (``unit``)."""

    delta: float = 0.0
    factor: float = 1.0
    unit: str | None = None
    bare: bool = False  # the number stands alone (no unit, no words of what it counts after it)
    noun: str | None = None  # what else it counts, as said right after it ("2桌", "500字", "3 dishes")


@lru_cache(maxsize=1)
def _cues() -> dict[str, re.Pattern[str]]:
    def before(name: str) -> re.Pattern[str]:
        return re.compile(rf"(?:{alternatives(name)})(?:了|上|掉)?\s*[{_SIGN}]?\s*$", re.IGNORECASE)

    def after(name: str) -> re.Pattern[str] | None:
        joined = alternatives(name)
        # (a word of what it counts may come between: "3 people dropped out", "5个人来不了了")
        return re.compile(rf"\s*%?\s*(?:(?!or\b|and\b|no\b|than\b)[a-z]+\s+|[个位名人桌]{{1,2}})?(?:{joined})",
                          re.IGNORECASE) if joined else None

    cues = {"more": before("shift.more"), "less": before("shift.less"),
            "negated": re.compile(rf"(?:{alternatives('shift.negated')})", re.IGNORECASE)}
    for name in ("more_after", "less_after"):
        if (found := after(f"shift.{name}")) is not None:
            cues[name] = found
    return cues


@lru_cache(maxsize=1)
def _factors() -> tuple[tuple[re.Pattern[str], float], ...]:
    table = {phrase: float(factor) for lang in LANGS for phrase, factor in lexicon(lang)["shift"]["factor"].items()}
    def word(phrase: str) -> str:  # an English phrase is a whole word ("halve that", not "behalve that")
        return rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])" if phrase.isascii() else re.escape(phrase)

    return tuple((re.compile(word(p), re.IGNORECASE), f) for p, f in table.items())


def shift_in(sentence: str) -> Shift | None:
    """The change by an amount ``sentence`` says, if it says one and no other number: "再加500吧" (+500),
    "预算再减500" (−500), "2 more people are coming" (+2 people), "10% more than that" (×1.1), "let's
    halve that" (×0.5). None for a value said anew ("加到2000", "two more, so 10")."""
    cues = _cues()
    factor = next(((m, f) for pattern, f in _factors() if (m := pattern.search(sentence))), None)
    if factor is not None:  # "打个八折" (its 八 is no amount), "let's halve that"
        if dateless_amounts(sentence[:factor[0].start()] + sentence[factor[0].end():]) \
                or cues["negated"].search(sentence[:factor[0].start()]):
            return None
        return Shift(factor=factor[1])
    said = dateless_amounts(sentence)
    if len(said) != 1 or len(said) < len(amounts(sentence)):
        return None
    amount = said[0]
    before, after = sentence[:amount.start], sentence[amount.end:]
    more, less = cues["more"].search(before), cues["less"].search(before)
    more_after = cues["more_after"].match(after) if "more_after" in cues else None
    less_after = cues["less_after"].match(after) if "less_after" in cues else None
    sign = 1 if more or more_after else -1 if less or less_after else 0
    cue = more or less
    if not sign or cues["negated"].search(before[:cue.start()] if cue else before):
        return None  # "nah not gonna add 300", "先不加300了"
    if after.lstrip().startswith("%"):
        return Shift(factor=1 + sign * amount.value / 100)
    said_after = more_after or less_after
    rest = after[said_after.end():] if said_after else after
    unit = amount.unit if amount.unit != "measure" else None
    unit = unit or next(iter((counted(f"1 {_after_cue(after)}") | counted(f"1 {after[:20]}")) - {"measure"}), None)
    bare = unit is None and bool(_BARE_AFTER.match(rest))
    noun = _NOUN.match(_after_cue(after)) if unit is None and not bare else None
    return Shift(delta=sign * amount.value, unit=unit, bare=bare, noun=noun.group(1).lower() if noun else None)


def _after_cue(after: str) -> str:
    """The words after "more"/"fewer" that say what the number counts ("2 more people": "people")."""
    return re.sub(r"^\s*(?:more|extra|fewer|less|cheaper|lower|higher)\b", "", after, flags=re.IGNORECASE)[:20]


def shift_target(items: Sequence[MemoryItem], shift: Shift, subject: str | None) -> tuple[MemoryItem, Amount] | None:
    """The item ``shift`` changes and the amount in it: the latest item of ``subject`` (the canonical
    subject the sentence names, "预算再减500") holding one amount; else the latest whose amount counts
    what the shift's number counts (people, money); else, for a bare number or a factor, the latest
    holding one amount of money or of no unit that the change fits. None when no item or several
    amounts in one could be meant (nothing is written then)."""
    def fits(item: MemoryItem) -> Amount | None:
        held = [a for a in dateless_amounts(item.value) if a.value > 0]
        unit = shift.unit
        if shift.noun is not None:
            held = [a for a in held if _counts_noun(item.value, a, shift.noun)]
        elif unit is not None:
            held = [a for a in held if a.unit == unit or a.unit is None and in_subject(unit, item.subject.lower())]
        elif subject is None:
            # A bare number adds to a count of people only where its size fits ("+4 more" to 10 people, not
            # "再加500" to 12); a factor never doubles one unnamed.
            held = [a for a in held if a.unit in (None, "money") or a.unit == "people" and shift.delta]
            if not shift.delta and in_subject("people", item.subject.lower()):
                held = []
        if shift.delta and not shift.unit:
            held = [a for a in held if abs(shift.delta) <= MAX_DELTA * a.value]
        if shift.delta < 0:
            held = [a for a in held if a.value + shift.delta > 0]
        return held[0] if len(held) == 1 else None

    if shift.delta and not shift.unit and not shift.bare and not shift.noun:
        return None
    pool = sorted(items, key=lambda i: (i.updated_at, i.id), reverse=True)
    if subject:
        named = [i for i in pool if i.subject == subject or i.subject.startswith(f"{subject}:")]
        if not named and ":" in subject:
            return None  # "吃的预算再加五百" with no food budget known: not the whole budget's change
        pool = named or pool
    for item in pool:
        if (amount := fits(item)) is not None:
            return item, amount
    return None


def _counts_noun(value: str, amount: Amount, noun: str) -> bool:
    """``amount`` in ``value`` counts ``noun`` ("6桌" counts 桌; "3 dishes" counts dishes, "3 dish" too)."""
    after = value[amount.end:].lstrip().lower()
    return after.startswith(noun) or len(noun) > 3 and after.startswith(noun.rstrip("s"))


def shifted_value(value: str, amount: Amount, shift: Shift) -> str:
    """``value`` with ``amount`` changed by ``shift``, written as the value wrote it: "15万" stays in
    万 ("18万"), "1,500" keeps its comma ("2,000"), "三千" becomes digits."""
    new = amount.value * shift.factor + shift.delta
    written = value[amount.start:amount.end]
    scale = re.search(r"\s*[^\d.,\s]+$", written) if written[:1].isdigit() else None
    unit_value = amount.value / float(written[: scale.start()].replace(",", "")) if scale else 1.0
    number = new / unit_value
    text = f"{number:,.2f}" if "," in written else f"{number:.2f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return value[:amount.start] + text + (scale.group(0) if scale else "") + value[amount.end:]


# How many days a unit of a day shift is ("a week" is 7; the lexicon's ``shift.days_later`` group ``unit``).
_DAYS_IN = {"周": 7, "星期": 7, "礼拜": 7, "天": 1, "week": 7, "weeks": 7, "day": 1, "days": 1}
_HOW_MANY = {"a": 1, "an": 1, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4}


def days_shift(sentence: str) -> int | None:
    """The days a sentence puts a day off by, no new day said ("let's push the whole thing back a week" is 7, "那往后挪
    一周吧" 7, "提前两天" −2; the lexicon's ``shift.days_later`` and ``shift.days_earlier``); None when it says none."""
    for name, sign in (("shift.days_later", 1), ("shift.days_earlier", -1)):
        found = first_match(name, sentence, LANGS)
        if found is None:
            continue
        n = found.group("n").lower()
        count = int(n) if n.isdigit() else _HOW_MANY.get(n) or lexicon("en")["number"]["spelled"].get(n)
        unit = _DAYS_IN.get(found.group("unit").lower())
        if count and unit:
            return sign * int(count) * unit
    return None
