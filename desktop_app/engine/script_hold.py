"""Sampling that stays in the reply's language: in a Chinese reply no lower-case English word starts
against its characters ("糖糖自己走了三 step", "一些基本的 ingredients和步骤"), in an English reply no Chinese
characters appear ("you can take a 出租车") — unless the user wrote them, or the language itself writes
them so ("app", "wifi", "km"; the caller says which).

The 0.5B slipped the other language into 6 of bench health G4's 401 replies, each after its retry had
slipped again (``memory.reply_health`` finds it and asks once more; sampling picks it again). Ruling
the word out while it is sampled costs a look at the likeliest next tokens and nothing else. Pure text
arithmetic on token texts, like ``engine.no_copy``; no llama.cpp.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from desktop_app.engine.no_copy import BANNED, CANDIDATES
from desktop_app.engine.protocol import ScriptHold
from desktop_app.lexicon import CJK, HAN

ENGLISH_BEFORE_QUOTE = 3  # English words an English reply says before it may quote the user's Chinese
# A Chinese reply opens with no English word this many tokens in, until it has said a Chinese character (bench health
# G8: "The budget is $30,000." under a Chinese rule, asked in English, after its retry); but for code and acronyms.
OPENING_TOKENS = 24
OPENING_PREFIX = 3  # letters, at least, that may begin a word Chinese writes in Latin letters at the opening
_CJK_ANY = re.compile(f"[{CJK}]")
_ACRONYM = re.compile(r"\s?[A-Z]{2,4}(?![A-Za-z])")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
KEPT = 40  # free tokens among the likeliest, at least: llama-cpp-python samples among the top 40
MOST_LOOKED = 4096  # tokens looked at, at most, at one step
_HAN_RUN = re.compile(f"[{HAN}]+")
_HAN_RUN_END = re.compile(f"[{HAN}]+$")
_MARKS = "，。、；：！？（）《》“”"
# The Latin word being written at the end of a Chinese reply, after a Chinese character or mark and at most one space.
_WORD_AT_END = re.compile(f"[{CJK}{_MARKS}]\\s?([a-z]*)$")
_LEADING_LETTERS = re.compile(r"\s?([a-z]+)")


def _han_ranges() -> list[tuple[bytes, bytes]]:
    """The Han ranges of ``lexicon.HAN`` as the UTF-8 bytes of their first and last characters."""
    ends = re.findall(r"(.)-(.)", HAN)
    return [(low.encode(), high.encode()) for low, high in ends]


_HAN_BYTES = _han_ranges()


def may_begin_han(pending: bytes) -> bool:
    """Whether ``pending``, the first bytes of a character, may be those of a Han character (UTF-8 keeps
    the order of code points, so the character lies in a range when its first bytes lie between the ends')."""
    size = len(pending)
    return bool(pending) and any(low[:size] <= pending <= high[:size] for low, high in _HAN_BYTES)


@dataclass
class ScriptBlock:
    """A llama-cpp-python logits processor: ``(input_ids, scores) -> scores``, holding a reply to ``hold.lang``.

    ``detokenize`` gives a token's bytes: a rarer Chinese character is two or three tokens of one
    byte or two, so its first token is no character yet and is judged by the bytes it begins with."""

    hold: ScriptHold
    detokenize: Callable[[Sequence[int]], bytes] = lambda tokens: b""
    start: int | None = None
    _pieces: dict[int, bytes] = field(default_factory=dict)
    _opening: bool = False

    def __post_init__(self) -> None:
        self._said = [text.encode() for text in self.hold.said]

    def piece(self, token: int) -> bytes:
        if token not in self._pieces:
            self._pieces[token] = self.detokenize([token])
        return self._pieces[token]

    def breaks(self, made: bytes, piece: bytes) -> bool:
        """Whether ``piece`` written after the reply so far (``made``) puts a word of the other language in it."""
        if self.hold.lang == "zh":
            return self._starts_english(made.decode("utf-8", "replace"), piece.decode("utf-8", "replace"))
        if self.hold.lang == "en":
            return self._writes_chinese(made, piece)
        return False

    def _starts_english(self, text: str, piece: str) -> bool:
        """A lower-case Latin word against Chinese that no allowed word begins like; at the reply's opening, any
        English word that no ``opening`` word begins like."""
        if self._opening:
            return self._opens_english(text, piece)
        at_end = _WORD_AT_END.search(text[-40:])
        if at_end is None:
            return False  # after Latin letters, digits or at the start: an English phrase, a unit, a name
        if at_end.group(1):
            letters = re.match(r"[a-z]+", piece)
            if letters is None:
                return False  # the word ends here (it was let through: it begins like an allowed one)
            word = at_end.group(1) + letters.group(0)
        else:
            leading = _LEADING_LETTERS.match(piece)
            if leading is None or (piece[:1].isspace() and text[-1:].isspace()):
                return False
            word = leading.group(1)
        return bool(word) and not any(allowed.startswith(word) for allowed in self.hold.words)

    def _opens_english(self, text: str, piece: str) -> bool:
        """A Latin word at the opening of a Chinese reply (before any Chinese), not an acronym ("PPT") and not one
        Chinese writes in Latin letters ("app")."""
        letters = re.match(r"\s?([A-Za-z]+)", piece)
        if letters is None or _ACRONYM.match(piece):
            return False
        going_on = re.search(r"[A-Za-z]+$", text) if not piece[:1].isspace() else None
        word = ((going_on.group(0) if going_on else "") + letters.group(1)).lower()
        # (a letter or two begins too many words: "A" began "app", and the reply went on "A $30, 000 (USD) in a …")
        return word not in self.hold.opening and not (len(word) >= OPENING_PREFIX
                                                      and any(allowed.startswith(word) for allowed in self.hold.opening))

    def _writes_chinese(self, made: bytes, piece: bytes) -> bool:
        """Han characters (or the first bytes of one) that, with those just before them, no message of the user's holds;
        any, before the reply has said a few English words (bench health G6: "口语最差" to "What should I focus on first?
        我口语最差" under an English rule, the user's own words and no English)."""
        before, before_pending = _decoded(made)
        if len(_LATIN_WORD.findall(before)) < ENGLISH_BEFORE_QUOTE:
            return may_begin_han(piece[:3]) or bool(_HAN_RUN.search(_decoded(made + piece)[0][len(before):]))
        text, pending = _decoded(made + piece)
        runs = [m for m in _HAN_RUN.finditer(text) if m.end() > len(before)]
        new = [m.group(0).encode() for m in runs]
        if may_begin_han(pending) and pending != before_pending:
            tail = _HAN_RUN_END.search(text)
            new.append((tail.group(0).encode() if tail else b"") + pending)
        return any(not any(run in said for said in self._said) for run in new)

    def __call__(self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]) -> npt.NDArray[np.single]:
        if self.start is None:
            self.start = len(input_ids)
        made = [int(t) for t in input_ids[self.start:]]
        text = self.detokenize(made[-24:]) if made else b""
        shown = text.decode("utf-8", "replace")
        self._opening = self.hold.lang == "zh" and self.hold.hold_opening and len(made) < OPENING_TOKENS \
            and not _CJK_ANY.search(shown) and "`" not in shown
        # Tokens are looked at likeliest first until KEPT of them are free: the sampler takes its pick among the
        # likeliest (top-k 40), so none it may take is one not looked at.
        banned: list[int] = []
        looked = 0
        while looked < min(len(scores), MOST_LOOKED):
            size = min(len(scores), looked + CANDIDATES + len(banned))
            order = np.argpartition(scores, -size)[-size:] if size < len(scores) else np.arange(len(scores))
            likely = order[np.argsort(-scores[order])][looked:]
            banned += [int(t) for t in likely if self.breaks(text, self.piece(int(t)))]
            looked = size
            if looked - len(banned) >= KEPT:
                break
        if banned:
            scores = np.copy(scores)
            scores[banned] = BANNED
        return scores


def _decoded(data: bytes) -> tuple[str, bytes]:
    """``data`` decoded, and the bytes at its end that begin a character not yet whole."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    text = decoder.decode(data, final=False)
    return text, decoder.getstate()[0]
