"""Benchmarks behind ``paperclip bench``: they print numbers and compare against a baseline."""

from __future__ import annotations

import sys
from pathlib import Path


def labelled_set(given: str | None, default: Path) -> Path | None:
    """The labelled cases a benchmark reads (``--cases`` or its own); None, said on stderr, when missing."""
    path = Path(given) if given else default
    if not path.exists():
        print(f"error: no labelled cases at {path}", file=sys.stderr)
        return None
    return path
