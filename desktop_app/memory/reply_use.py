"""Which memory the prompt gave the model for this turn, and which of it the reply used.

A citation line under the reply: the items the prompt carried (its anchor zone and state) and,
for each, whether its value shows in the reply — a number of the value stated (in any form the
guard normalises: "8,000", "8k", "八千"), or most of the value's own words. Pure; no model.
"""

from __future__ import annotations

from collections.abc import Mapping

from desktop_app.memory.core.plan import Layer
from desktop_app.memory.core.records import ItemUse
from desktop_app.memory.lang.amounts import amounts
from desktop_app.memory.lang.text import term_set

# The layers whose items are memory the model was given (the rest are turns, pages and documents),
# and which of their item types are a current item: the head's anchors and state, what changed
# since the head was folded, and the items replayed before the input.
MEMORY_LAYERS = {"anchors": (None,), "state": (None,), "changes": ("new", "changed", "updated", "confirmed"),
                 "recalled": ("replay",)}
# Share of a value's words that must appear in the reply when it has no number to compare.
WORDS_USED = 0.5
_YEARISH = range(1900, 2101)


def given_items(layers: Mapping[str, Layer]) -> list[tuple[int, str, str]]:
    """(id, kind, value) of every current memory item in the prompt's memory layers, once each."""
    seen: dict[int, tuple[int, str, str]] = {}
    for name, types in MEMORY_LAYERS.items():
        layer = layers.get(name)
        for item in layer.items if layer else []:
            if item.id is None or item.value is None or item.type not in types:
                continue
            if item.status not in (None, "active"):
                continue
            seen.setdefault(item.id, (item.id, item.kind or "", item.value))
    return list(seen.values())


def value_used(value: str, reply: str) -> bool:
    """Whether ``reply`` shows ``value``: one of its numbers (not a bare small count), else most
    of its own words."""
    said = {a.value for a in amounts(reply)}
    numbers = [a.value for a in amounts(value) if a.value >= 10 or a.unit is not None]
    if numbers:
        return any(n in said for n in numbers)
    words = term_set(value)
    if len(words) < 2:
        return bool(words) and words <= term_set(reply)
    return len(words & term_set(reply)) >= WORDS_USED * len(words)


def memory_in_use(layers: Mapping[str, Layer], reply: str) -> list[ItemUse]:
    """The memory items this turn's prompt gave the model, each marked used or not by ``reply``."""
    return [ItemUse(id=i, kind=kind, value=value, used=value_used(value, reply)) for i, kind, value in given_items(layers)]
