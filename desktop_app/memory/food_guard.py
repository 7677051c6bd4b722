"""Food an allergy or a diet in memory rules out, offered by a reply ("Sushi with Shrimp" for a
guest with a shellfish allergy, "Chicken salad" for a vegetarian; run G and the issue's first walk).

Pure text against the lexicon's ``food`` tables. An active item that restricts what someone eats
(``food.restriction``) and lifts nothing (``food.lifted``: "not allergic after all") rules out each
family whose ``diets`` it names ("vegetarian", "吃素"), or whose ``by`` foods it names as an allergy
or a refusal (``food.refused``: "shellfish allergy", "不吃辣"). A reply offers such a food when one of
the family's ``words`` stands in a clause that does not keep it out (``food.avoided`` anywhere in
the clause, ``food.avoided_before`` before it: "skip the shrimp", "no peanuts", "用豆腐代替虾"), is
no stand-in (``food.substitute`` right before it: "vegan mozzarella", "素鸡"), and is no look-alike
(``except``: "butternut", "鱼香"). A guest's diet (not an allergy) catered for apart ("a lentil dish
for your vegetarian guest") leaves the others their dish, unless the reply serves everyone.
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
# A sentence or a list line of a reply.
_SENTENCE = re.compile(r"[^\n]+?(?:[。！？!?；]+|\.(?=\s|$)|(?=\n)|$)")
SUBSTITUTE_REACH = 16  # characters before a food where its stand-in word ("vegan", "素") may stand


@dataclass(frozen=True)
class Family:
    name: str
    foods: re.Pattern[str]
    diets: re.Pattern[str] | None
    by: re.Pattern[str] | None
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
             for w in sorted(set(words), key=len, reverse=True)]
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
        if foods is not None:
            out.append(Family(name, foods, _words([w for t in tables for w in t.get("diets", [])]),
                              _words([w for t in tables for w in t.get("by", [])]),
                              _words([w for t in tables for w in t.get("except", [])])))
    return tuple(out)


@lru_cache(maxsize=1)
def _substitute_before() -> re.Pattern[str]:
    words = [w for lang in LANGS for w in lexicon(lang)["food"]["substitute"]["words"]]
    pattern = _words(words)
    assert pattern is not None
    return re.compile(f"(?:{pattern.pattern})[\\s-]*$", re.IGNORECASE)


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
    """Each restricting item whose ruled-out food the reply offers (the first such food), in order;
    the reply is read clause by clause."""
    sentences = [c for m in _SENTENCE.finditer(reply) for c in _CLAUSE_END.split(m.group(0)) if c.strip()]
    out: list[Offered] = []
    for item in active:
        found = next((food for family in ruled_out_by(item) for at, sentence in enumerate(sentences)
                      if (food := _offers(sentence, family))
                      and not _catered_apart(item, family, sentences, at)), "")
        if found:
            out.append(Offered(item, found))
    return out


def _catered_apart(item: MemoryItem, family: Family, sentences: list[str], at: int) -> bool:
    """A guest's diet (not the user's, not an allergy) that another clause of the reply caters for
    (the diet's word or the guest's name: "a lentil dish for your vegetarian guest"), while the
    reply serves no one everything up to it: the dish in clause ``at`` is the others'."""
    value = plain_value(item.value)
    who = item.subject.split(":", 1)[1] if item.subject.startswith("diet:") else ""
    if fires("food.allergy", value) or not (who or not fires("address.me", value)) \
            or fires("food.everyone", " ".join(sentences[:at + 1])):
        return False  # (a menu "for the whole table, Priya included" serves her each dish after it)
    diet = family.diets.search(value) if family.diets is not None else None
    if diet is None:
        return False  # a food refused by name ("doesn't eat pork") is refused at every seat
    names = [diet.group(0).lower(), *([who] if who else [])]
    mine = sentences[at].lower()
    return not any(n in mine for n in names) and any(n in s.lower() for n in names for s in sentences)


def _offers(text: str, family: Family) -> str:
    if family.looks_alike is not None:
        text = family.looks_alike.sub(lambda m: " " * len(m.group(0)), text)
    for found in family.foods.finditer(text):
        start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, found.start())), default=0)
        end = next((m.start() for m in _CLAUSE_END.finditer(text, found.end())), len(text))
        before, clause = text[start:found.start()], text[start:end]
        if _kept_out(clause, before) or _substitute_before().search(before[-SUBSTITUTE_REACH:]):
            continue
        return found.group(0)
    return ""


def _kept_out(clause: str, before: str) -> bool:
    return fires("food.avoided", clause) or any(
        (p := cue("food.avoided_before", lang)) is not None and p.search(before) is not None for lang in LANGS)
