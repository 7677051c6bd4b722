"""Sampling that cannot copy: a retried reply may not open like a rejected one, nor go on copying
a run of tokens from a text it must not repeat (the user's message, an earlier reply).

A small model asked again often writes the same echo with another first word ("当然，我表妹小雨对虾
过敏…"); ruling out only the opening does not stop it. Here the next token is ruled out whenever
the last ``COPY_RUN - 1`` words of the reply, followed by it, would stand in a source: the reply
can quote a name, a number or a few words, never a sentence. Punctuation and spaces do not count
(a copy with "。" for "，" is a copy) and are never ruled out. Pure token arithmetic, no llama.cpp.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

COPY_RUN = 5  # word tokens: a reply shares at most COPY_RUN - 1 in a row with a source
BANNED = -1e9  # not -inf: the sampler's softmax stays finite when every candidate is ruled out


@dataclass
class CopyBlock:
    """A llama-cpp-python logits processor: ``(input_ids, scores) -> scores``.

    ``input_ids`` is the prompt then what was generated; the prompt's length is taken from the
    first call (made before the first generated token)."""

    opening: frozenset[int] = frozenset()
    follow: dict[tuple[int, ...], frozenset[int]] = field(default_factory=dict)
    text_of: Callable[[int], str] = str
    run: int = COPY_RUN
    start: int | None = None
    _words: dict[int, bool] = field(default_factory=dict)

    @classmethod
    def build(cls, tokenize: Callable[[str], Sequence[int]], text_of: Callable[[int], str], *,
              openings: Iterable[str] = (), sources: Iterable[str] = (), run: int = COPY_RUN) -> CopyBlock:
        """The first token of each of ``openings`` is ruled out as the reply's first token; no run
        of ``run`` word tokens of any of ``sources`` may appear in the reply (``text_of`` gives a
        token's text, to tell words from punctuation)."""
        opening = frozenset(toks[0] for text in openings if text.strip() and (toks := tokenize(text.strip())))
        block = cls(opening, {}, text_of, run)
        follow: dict[tuple[int, ...], set[int]] = {}
        for text in sources:
            toks = [t for t in tokenize(text.strip()) if block.is_word(t)] if text.strip() else []
            for i in range(len(toks) - run + 1):
                follow.setdefault(tuple(toks[i: i + run - 1]), set()).add(toks[i + run - 1])
        block.follow = {key: frozenset(v) for key, v in follow.items()}
        return block

    def __bool__(self) -> bool:
        return bool(self.opening or self.follow)

    def is_word(self, token: int) -> bool:
        """Whether the token holds a letter, digit or ideograph (not only punctuation or space)."""
        if token not in self._words:
            self._words[token] = any(unicodedata.category(c)[0] in "LN" for c in self.text_of(token))
        return self._words[token]

    def banned(self, made: Sequence[int]) -> frozenset[int]:
        """The tokens ruled out after ``made`` (the reply's tokens so far)."""
        if not made:
            return self.opening
        words: list[int] = []
        for token in reversed(made):
            if len(words) == self.run - 1:
                break
            if self.is_word(int(token)):
                words.append(int(token))
        if len(words) < self.run - 1:
            return frozenset()
        return self.follow.get(tuple(reversed(words)), frozenset())

    def __call__(self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]) -> npt.NDArray[np.single]:
        if self.start is None:
            self.start = len(input_ids)
        banned = self.banned(list(input_ids[self.start:]))
        if banned:
            scores = np.copy(scores)
            scores[[t for t in banned if 0 <= t < len(scores)]] = BANNED
        return scores
