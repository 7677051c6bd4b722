"""The evaluated prefix, engine-neutral: how much of a new prompt the context already holds, the
block of turns that can be moved after a page-out, and the size of a pre-fill step."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

MIN_MOVED_BLOCK = 64  # a shorter run of reusable turns is evaluated again rather than moved
_PROBE = 16


def find_moved_block(cached: Sequence[int], tokens: Sequence[int], start: int) -> tuple[int, int, int] | None:
    """The longest run the evaluated ``cached`` tokens and the new ``tokens`` share after their
    common prefix ``start``, as ``(i, j, k)``: ``cached[i:i+k] == tokens[j:j+k]``, at least
    ``MIN_MOVED_BLOCK`` long (the recent turns that stay when older ones are paged out)."""
    if len(cached) - start < MIN_MOVED_BLOCK or len(tokens) - start < MIN_MOVED_BLOCK:
        return None
    where: dict[tuple[int, ...], list[int]] = {}
    for i in range(start, len(cached) - _PROBE + 1):
        where.setdefault(tuple(cached[i: i + _PROBE]), []).append(i)
    best: tuple[int, int, int] | None = None
    j = start
    while j <= len(tokens) - _PROBE:
        length = 0
        for i in where.get(tuple(tokens[j: j + _PROBE]), ()):
            k = common_prefix(cached[i:], tokens[j:])
            if k > length:
                length = k
                if best is None or k > best[2]:
                    best = (i, j, k)
        j += max(1, length)
    return best if best is not None and best[2] >= MIN_MOVED_BLOCK else None


def common_prefix(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """How many leading tokens ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class PrefillChunk:
    """How many tokens one pre-fill step evaluates: as many as take ≈0.25 s on this machine
    (measured as it runs), so a stop check comes often on a CPU and rarely slows a GPU."""

    TARGET_SECONDS = 0.25

    def __init__(self, n_batch: int, start: int = 32):
        self.limit = max(8, n_batch)
        self.size = min(start, self.limit)

    def observe(self, tokens: int, seconds: float) -> None:
        if tokens < self.size or seconds <= 0:
            return
        wanted = int(tokens * self.TARGET_SECONDS / seconds)
        self.size = max(8, min(self.limit, (self.size + wanted) // 2))
