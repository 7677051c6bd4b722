"""Food an allergy or a diet in memory rules out, offered by a reply ("Sushi with Shrimp" for a
guest with a shellfish allergy, "Chicken salad" for a vegetarian; run G and the issue's first walk).

Pure text against the lexicon's ``food`` tables: an active item that restricts what someone eats
(``food.restriction``: an allergy, an intolerance, a diet) rules out each family whose ``by`` words
it holds; a reply offers a food of such a family when one of its ``words`` stands in a clause that
does not keep it out (``food.avoided`` anywhere in the clause, ``food.avoided_before`` before it:
"skip the shrimp", "no peanuts", "用豆腐代替虾", "peanut-free"), once the family's look-alikes
(``except``: "butternut", "素鸡", "vegan cheese") are set aside.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from desktop_app.lexicon import CJK, LANGS, cue, fires, lexicon
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.prompt.render import plain_value

RESTRICTING_KINDS = ("fact", "constraint", "preference", "decision")
# Where a reply's clause ends: sentence and clause marks, a line, a dash between list parts.
_CLAUSE_END = re.compile(r"[,;:，；：。.!?！？\n、()（）]|\s[-–—]\s")


@dataclass(frozen=True)
class Family:
    name: str
    foods: re.Pattern[str]
    by: re.Pattern[str]
    looks_alike: re.Pattern[str] | None


@dataclass(frozen=True)
class Offered:
    """A food a reply offers that ``item`` rules out."""

    item: MemoryItem
    food: str


def _words(words: Sequence[str]) -> re.Pattern[str] | None:
    """Whole words (anywhere, for Chinese), longest first, case-insensitive."""
    if not words:
        return None
    parts = [re.escape(w) if re.search(f"[{CJK}]", w) else rf"(?<![\w-]){re.escape(w)}(?![\w])"
             for w in sorted(words, key=len, reverse=True)]
    return re.compile("|".join(parts), re.IGNORECASE)


@lru_cache(maxsize=1)
def families() -> tuple[Family, ...]:
    """The lexicon's food families, each language's words together (a reply and an item may be in
    either language)."""
    names = sorted({name for lang in LANGS for name in lexicon(lang)["food"]["ruled_out"]})
    out = []
    for name in names:
        tables = [lexicon(lang)["food"]["ruled_out"][name] for lang in LANGS]
        foods = _words([w for t in tables for w in t["words"]])
        by = _words([w for t in tables for w in t["by"]])
        if foods is not None and by is not None:
            out.append(Family(name, foods, by, _words([w for t in tables for w in t.get("except", [])])))
    return tuple(out)


def restricts(item: MemoryItem) -> bool:
    """``item`` limits what someone eats: an allergy, an intolerance or a diet."""
    return item.kind in RESTRICTING_KINDS and item.status == "active" and (
        fires("food.restriction", plain_value(item.value)) or item.subject.split(":", 1)[0] in ("allergy", "diet"))


def ruled_out_by(item: MemoryItem) -> list[Family]:
    value = plain_value(item.value)
    return [f for f in families() if f.by.search(value)] if restricts(item) else []


def offered(reply: str, active: Sequence[MemoryItem]) -> list[Offered]:
    """Each restricting item whose ruled-out food the reply offers (the first such food), in order."""
    out: list[Offered] = []
    for item in active:
        for family in ruled_out_by(item):
            if _catered_apart(item, family, reply):
                continue
            food = _offers(reply, family)
            if food:
                out.append(Offered(item, food))
                break
    return out


def _catered_apart(item: MemoryItem, family: Family, reply: str) -> bool:
    """A guest's diet (not the user's, not an allergy) that the reply caters for apart: the diet's
    word or the guest's name stands in it ("a lentil dish for your vegetarian guest"), so a dish it
    offers the others is theirs."""
    value = plain_value(item.value)
    who = item.subject.split(":", 1)[1] if item.subject.startswith("diet:") else ""
    if fires("food.allergy", value) or not (who or not fires("address.me", value)):
        return False
    word = family.by.search(value)
    return bool(word and re.search(re.escape(word.group(0)), reply, re.IGNORECASE)) or bool(who and who in reply.lower())


def _offers(reply: str, family: Family) -> str:
    text = family.looks_alike.sub(lambda m: " " * len(m.group(0)), reply) if family.looks_alike else reply
    for found in family.foods.finditer(text):
        start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, found.start())), default=0)
        end = next((m.start() for m in _CLAUSE_END.finditer(text, found.end())), len(text))
        before, clause = text[start:found.start()], text[start:end]
        if _kept_out(clause, before):
            continue
        return found.group(0)
    return ""


def _kept_out(clause: str, before: str) -> bool:
    return fires("food.avoided", clause) or any(
        (p := cue("food.avoided_before", lang)) is not None and p.search(before) is not None for lang in LANGS)
