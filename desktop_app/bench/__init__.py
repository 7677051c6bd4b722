"""Benchmarks behind ``paperclip bench``: they print numbers and compare against a baseline."""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel


def labelled_set(given: str | None, default: Path) -> Path | None:
    """The labelled cases a benchmark reads (``--cases`` or its own); None, said on stderr, when missing."""
    path = Path(given) if given else default
    if not path.exists():
        print(f"error: no labelled cases at {path}", file=sys.stderr)
        return None
    return path


def percentile(values: list[float], q: float) -> float:
    """The value at share ``q`` of the sorted values (nearest rank; 0 when there are none)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


# The kind of an item from a memory that has no kinds (a peer library's free-text memories, ``bench
# peers``): it is matched on its words alone.
KINDLESS = "*"


class Expect(BaseModel):
    """An item a labelled case expects: its kind (or an accepted other), scope and words."""

    kind: str
    alt_kinds: list[str] = []
    scope: str | None = None
    terms: list[str]

    def matches(self, item) -> bool:
        text = f"{item.subject} {item.value}".lower()
        kind_ok = item.kind == KINDLESS or item.kind in (self.kind, *self.alt_kinds)
        return kind_ok and all(t.lower() in text for t in self.terms)
