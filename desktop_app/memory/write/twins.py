"""Amounts told apart and matched (memory.write.integrity's checks on a model's entry): the same amounts under a second
label are one thing, a measure memory holds is not filed again, an entry whose amounts the rules already hold one by
one says nothing new."""

from __future__ import annotations

import re

from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import amounts, only_counts
from desktop_app.memory.write.cooperation import subject_key
from desktop_app.memory.write.patches import AddItem
from desktop_app.memory.write.typed_values import MEASURED


def body(value: str) -> str:
    """An item's value without its "subject: " label."""
    return value.split(":", 1)[1].strip() if ":" in value[:40] and not re.search(r"\d:\d", value[:40]) else value


def said_amounts(text: str) -> frozenset[tuple[float, str]]:
    return frozenset((a.value, a.unit) for a in amounts(text) if a.unit and a.unit != "measure")


def amount_twin(op: AddItem, active: list[MemoryItem]) -> MemoryItem | None:
    """An active item that says the same amounts, each counting the same thing, as the entry
    ("旅游预算: 8000元" beside "总预算是8000元", "公司年会: 80个人" beside "来80个人"): one thing under
    a second label, which would stay behind when the first one changes. An entry holding a date or
    another number beside its counts says more, and is no twin."""
    mine = only_counts(body(op.value))
    if not mine:
        # Measures alone ("45分钟", "5 km"), each the same number of the same measure word as an item holds: a Pilot walk
        # filed "饮食: 每天45分钟" beside the rules' "每次45分钟左右".
        measured = _measured(body(op.value))
        return next((i for i in active if measured and i.kind not in ("directive", "open_question")
                     and _measured(body(i.value)) == measured), None) if not said_amounts(body(op.value)) else None
    return next((i for i in active if i.kind not in ("directive", "open_question")
                 and said_amounts(body(i.value)) == mine), None)


def _measured(text: str) -> frozenset[tuple[str, str]]:
    """The measures ``text`` says, each its number and the word after it ("45分" of "45分钟"; "5 km"), when every amount
    it says is a measure; else none."""
    said = amounts(text)
    if not said or any(a.unit != "measure" for a in said):
        return frozenset()
    return frozenset((m.group(1), m.group(2).lower()) for m in MEASURED.finditer(text))


def held_apart(op: AddItem, active: list[MemoryItem]) -> list[MemoryItem]:
    """The ``active`` items (the rules' items of the entry's message) that between them hold each of the
    entry's two or more amounts (the same number counting the same thing), each holding fewer than the
    entry, when they do; else none."""
    mine = {(a.value, a.unit) for a in amounts(body(op.value))}
    if len(mine) < 2:
        return []
    holders: list[MemoryItem] = []
    for said in sorted(mine, key=str):
        holder = next((i for i in active if i.kind not in ("directive", "open_question")
                       and said in (theirs := {(a.value, a.unit) for a in amounts(body(i.value))})
                       and len(theirs) < len(mine)), None)
        if holder is None:
            return []
        if all(h.id != holder.id for h in holders):
            holders.append(holder)
    return holders


def amount_values(text: str) -> set[float]:
    """The amounts ``text`` names, whatever they count ("4千" and "四千左右" both 4000)."""
    return {a.value for a in amounts(text)}


def budget_twin(op: AddItem, active: list[MemoryItem]) -> MemoryItem | None:
    """The budget held, when ``op`` states the same amount as the budget ("预算：4千" beside the rules'
    "预算四千左右": the amounts carry no unit, so ``_amount_twin`` cannot tell)."""
    if subject_key(op.subject) != "budget":
        return None
    mine = amount_values(body(op.value))
    return next((i for i in active if subject_key(i.subject) == "budget" and i.kind in ("constraint", "fact", "decision")
                 and mine and amount_values(body(i.value)) == mine), None)
