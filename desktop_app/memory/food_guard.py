"""Food an allergy or a diet in memory rules out, offered by a reply ("Sushi with Shrimp" for a
guest with a shellfish allergy, "Chicken salad" for a vegetarian; run G and the issue's first walk).

Pure text against the lexicon's ``food`` tables. An active item that restricts what someone eats
(``food.restriction``) rules out each family whose ``diets`` it names ("vegetarian", "吃素"), or
whose ``by`` foods it names as an allergy or a refusal (``food.refused``: "shellfish allergy", "我妈
不吃辣"); words that lift a restriction (``food.lifted``: "not allergic to shrimp after all") lift the
foods the item names. A reply offers such a food when one of the family's ``words`` stands in a
sentence that does not keep it out — ``food.avoided`` from the sentence's start through the food's
clause ("Avoid anything with shellfish, like shrimp", "用豆腐代替虾"), ``food.avoided_before`` right
before it ("no peanuts") — and is neither a stand-in (the family's ``stand_ins`` right before it:
"vegan mozzarella", "素鸡") nor a look-alike (its ``except``: "butternut", "鱼香", "钓鱼"). A guest's
diet (not an allergy) that another clause caters for ("a lentil dish for your vegetarian guest")
leaves the others their dish, unless the dish is served to the whole table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from desktop_app.lexicon import CJK, LANGS, cue, fires, lexicon
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.text import REPLY_SENTENCE
from desktop_app.memory.prompt.render import plain_value

RESTRICTING_KINDS = ("fact", "constraint", "preference", "decision")
# Where a reply's clause ends: clause marks, a dash between list parts.
_CLAUSE_END = re.compile(r"[,;:，；：、()（）]|\s[-–—]\s")
_CJK_CHAR = re.compile(f"[{CJK}]")


@dataclass(frozen=True)
class Family:
    name: str
    foods: re.Pattern[str]
    diets: re.Pattern[str] | None
    by: re.Pattern[str] | None
    stand_in_before: re.Pattern[str] | None  # a stand-in word ending the text before a food
    looks_alike: re.Pattern[str] | None


@dataclass(frozen=True)
class Offered:
    """A food a reply offers that ``item`` rules out."""

    item: MemoryItem
    food: str


def _words(words: Sequence[str]) -> re.Pattern[str] | None:
    """Whole words (anywhere, for Chinese), longest first, case-insensitive."""
    return re.compile(_alternation(words), re.IGNORECASE) if words else None


def _alternation(words: Sequence[str]) -> str:
    return "|".join(re.escape(w) if _CJK_CHAR.search(w) else rf"(?<![\w-]){re.escape(w)}(?![\w])"
                    for w in sorted(set(words), key=len, reverse=True))


@lru_cache(maxsize=1)
def families() -> tuple[Family, ...]:
    """The lexicon's food families, each language's words together (a reply and an item may be in
    either language)."""
    names = sorted({name for lang in LANGS for name in lexicon(lang)["food"]["ruled_out"]})
    out = []
    for name in names:
        tables = [lexicon(lang)["food"]["ruled_out"][name] for lang in LANGS]
        foods = _words([w for t in tables for w in t["words"]])
        stand_ins = [w for t in tables for w in t.get("stand_ins", [])]
        if foods is not None:
            out.append(Family(name, foods, _words([w for t in tables for w in t.get("diets", [])]),
                              _words([w for t in tables for w in t.get("by", [])]),
                              re.compile(f"(?:{_alternation(stand_ins)})[\\s-]*$", re.IGNORECASE) if stand_ins else None,
                              _words([w for t in tables for w in t.get("except", [])])))
    return tuple(out)


def restricts(item: MemoryItem) -> bool:
    """``item`` limits what someone eats: an allergy, an intolerance or a diet."""
    value = plain_value(item.value)
    return item.kind in RESTRICTING_KINDS and item.status == "active" and (
        fires("food.restriction", value) or item.subject.split(":", 1)[0] in ("allergy", "diet"))


def ruled_out_by(item: MemoryItem) -> list[Family]:
    """The food families ``item`` rules out. Where it lifts a restriction ("not allergic to shrimp
    after all", "eating fish again, so I'm pescatarian now", "我现在不吃素了"), the families whose
    foods it names, or whose diet the lifting words name, are no longer ruled out."""
    if not restricts(item):
        return []
    value = plain_value(item.value)
    refused = fires("food.refused", value)
    found = [f for f in families() if (f.diets is not None and f.diets.search(value))
             or (refused and f.by is not None and f.by.search(value))]
    lifts = [m.group(0) for lang in LANGS if (p := cue("food.lifted", lang)) is not None for m in p.finditer(value)]
    if not lifts:
        return found
    return [f for f in found if not (f.foods.search(value) or (f.by is not None and f.by.search(value))
                                     or any(f.diets is not None and f.diets.search(words) for words in lifts))]


def offered(reply: str, active: Sequence[MemoryItem]) -> list[Offered]:
    """Each restricting item whose ruled-out food the reply offers (the first such food), in order."""
    sentences = [m.group(0) for m in REPLY_SENTENCE.finditer(reply) if m.group(0).strip()]
    clauses = [c for s in sentences for c in _CLAUSE_END.split(s) if c.strip()]
    out: list[Offered] = []
    for item in active:
        found = next((food for family in ruled_out_by(item) for sentence in sentences
                      for food, clause in _offers(sentence, family)
                      if not _catered_apart(item, family, clauses, clause, reply)), "")
        if found:
            out.append(Offered(item, found))
    return out


def _offers(sentence: str, family: Family) -> list[tuple[str, str]]:
    """The family's foods ``sentence`` offers, each with its clause."""
    text = family.looks_alike.sub(lambda m: " " * len(m.group(0)), sentence) if family.looks_alike else sentence
    out = []
    for found in family.foods.finditer(text):
        start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, found.start())), default=0)
        end = next((m.start() for m in _CLAUSE_END.finditer(text, found.end())), len(text))
        near = text[start:found.start()]
        if fires("food.avoided", text[:end]) or fires("food.avoided_before", near) \
                or (family.stand_in_before is not None and family.stand_in_before.search(text[start:found.start()])):
            continue
        out.append((found.group(0), text[start:end]))
    return out


def _catered_apart(item: MemoryItem, family: Family, clauses: list[str], clause: str, reply: str) -> bool:
    """A guest's diet (not the user's, not an allergy) that another clause gives a dish of its own
    (``food.for_guest`` with the diet's word or the guest's name: "a lentil dish for your vegetarian
    guest", "Priya gets a chickpea curry"), in a reply that serves no dish to the whole table before
    this one: the dish in ``clause`` is the others'."""
    value = plain_value(item.value)
    who = item.subject.split(":", 1)[1] if item.subject.startswith("diet:") else ""
    diet = family.diets.search(value) if family.diets is not None else None
    if diet is None or fires("food.allergy", value) or not (who or not fires("address.me", value)):
        return False  # (a food refused by name, "doesn't eat pork", is refused at every seat)
    upto = reply[:reply.find(clause) + len(clause)] if clause in reply else reply
    if fires("food.everyone", upto):
        return False  # (a menu "for the whole table, Priya included" serves her each dish after it)
    names = [diet.group(0).lower(), *([who] if who else [])]
    return any(c is not clause and c != clause and fires("food.for_guest", c) and any(n in c.lower() for n in names)
               for c in clauses)
