"""Sampling that cannot copy: a retried reply may not open like a rejected one, nor write a run of
characters of a text it must not repeat (the rejected reply, the earlier reply it copied, the line
saying what was wrong with it).

A small model asked again often writes the same reply behind another first word, or with a word
changed: ruling out the opening, or runs of the same tokens, does not stop it. Here a likely next
token is ruled out when the reply's last letters, followed by its letters, would make a run of
``RUN_CJK`` Chinese characters or ``RUN_LATIN`` letters and digits that stands in a source (case,
spaces and punctuation aside): the reply can reuse a name, a number or a few words, never a clause.
Pure text arithmetic on token texts, no llama.cpp.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from desktop_app.lexicon import CJK

RUN_CJK = 8  # characters: a reply shares fewer in a row with a Chinese source (a name is 2–4)
RUN_LATIN = 24  # letters and digits (spaces aside): about five words
# A run of the program's own line to the model ("本次回复请注意：…", "In this reply, …") is ruled out from half the
# length (bench health: retried, the 0.5B wrote "这次回复请注意：用我自己的话回答" and "下次回复请注意：…", one character
# changed in every run of eight).
LINE_RUN_MIN = 4
CANDIDATES = 64  # the likeliest next tokens checked at each step (the rest are never sampled)
BANNED = -1e9  # not -inf: the sampler's softmax stays finite when every candidate is ruled out


def letters(text: str) -> str:
    """``text`` as a copy is compared: letters, digits and ideographs only, lower case."""
    return "".join(c for c in text.lower() if unicodedata.category(c)[0] in "LN")


def run_for(text: str) -> int:
    """How many characters in a row of ``text`` make a copy (fewer for Chinese, denser)."""
    return RUN_CJK if 2 * len(_CJK_CHAR.findall(text)) >= len(text) else RUN_LATIN


_CJK_CHAR = re.compile(f"[{CJK}]")


@dataclass
class CopyBlock:
    """A llama-cpp-python logits processor: ``(input_ids, scores) -> scores``.

    ``input_ids`` is the prompt then what was generated; the prompt's length is taken from the
    first call (made before the first generated token)."""

    opening: frozenset[int] = frozenset()
    windows: dict[int, frozenset[str]] = field(default_factory=dict)  # run length → runs of the sources
    detokenize: Callable[[Sequence[int]], str] = lambda tokens: ""
    start: int | None = None
    _pieces: dict[int, str] = field(default_factory=dict)

    @classmethod
    def build(cls, tokenize: Callable[[str], Sequence[int]], detokenize: Callable[[Sequence[int]], str], *,
              openings: Iterable[str] = (), sources: Iterable[str] = (), lines: Iterable[str] = ()) -> CopyBlock:
        """The first token of each of ``openings`` is ruled out as the reply's first token; no run
        of any of ``sources`` (``run_for`` characters of it, ``letters`` only) may be written, nor a shorter one of
        ``lines`` (the program's own words to the model: half the run)."""
        opening = frozenset(toks[0] for text in openings if text.strip() and (toks := tokenize(text.strip())))
        windows: dict[int, set[str]] = {}
        for text, short in [*((t, False) for t in sources), *((t, True) for t in lines)]:
            plain = letters(text)
            run = max(LINE_RUN_MIN, run_for(plain) // 2) if short else run_for(plain)
            windows.setdefault(run, set()).update(plain[i: i + run] for i in range(len(plain) - run + 1))
        return cls(opening, {run: frozenset(w) for run, w in windows.items() if w}, detokenize)

    def __bool__(self) -> bool:
        return bool(self.opening or self.windows)

    def piece(self, token: int) -> str:
        if token not in self._pieces:
            self._pieces[token] = letters(self.detokenize([token]))
        return self._pieces[token]

    def copies(self, tail: str, piece: str) -> bool:
        """Whether ``piece`` written after ``tail`` (both ``letters``) completes a run of a source."""
        if not piece:
            return False
        text = tail + piece
        for run, runs in self.windows.items():
            for end in range(max(run, len(tail) + 1), len(text) + 1):
                if text[end - run: end] in runs:
                    return True
        return False

    def tail(self, made: Sequence[int]) -> str:
        """The last letters of the reply so far (as many as the longest run needs)."""
        longest = max(self.windows, default=0)
        return letters(self.detokenize(list(made[-longest - 2:])))[-longest:] if longest and len(made) else ""

    def __call__(self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]) -> npt.NDArray[np.single]:
        if self.start is None:
            self.start = len(input_ids)
        made = [int(t) for t in input_ids[self.start:]]
        banned = set(self.opening) if not made else set()
        if self.windows:
            tail = self.tail(made)
            likely = np.argpartition(scores, -CANDIDATES)[-CANDIDATES:] if len(scores) > CANDIDATES \
                else np.arange(len(scores))
            banned |= {int(t) for t in likely if self.copies(tail, self.piece(int(t)))}
        if banned:
            scores = np.copy(scores)
            scores[[t for t in banned if 0 <= t < len(scores)]] = BANNED
        return scores
