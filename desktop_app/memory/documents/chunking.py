"""Structure-aware chunking: chunks never cross a page or a heading, break at paragraphs
first, then sentences, then (for run-on text) characters, stay under a token bound and
repeat a little of the previous chunk's tail (the overlap) so an answer that straddles a
break is found whole in one of them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.memory.documents.parsers import Section

if TYPE_CHECKING:
    from desktop_app.engine.protocol import TokenCounter

MAX_CHUNK_TOKENS = 200  # MiniLM embeds the first 128 of its own tokens; prompts stay small
OVERLAP_TOKENS = 30
# No text has more characters than this per token (runs of one letter come close at 8), so a span
# longer than max_tokens times this is over the bound without counting. Counting it would cost
# time quadratic in its length when it holds no space (BPE on one huge "word").
_MAX_CHARS_PER_TOKEN = 16

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|(?<=[。！？；])|\n")


@dataclass(frozen=True)
class Chunk:
    """A retrievable span: ``text`` is ``sections[section].text[char_start:char_end]``."""

    section: int
    page: int | None
    heading: str | None
    char_start: int
    char_end: int
    text: str
    tokens: int


def chunk_sections(sections: Iterable[Section], counter: TokenCounter, *, max_tokens: int = MAX_CHUNK_TOKENS,
                   overlap_tokens: int = OVERLAP_TOKENS) -> Iterator[tuple[Section, list[Chunk]]]:
    """Each section with its chunks, lazily (the caller may stop between sections)."""
    for index, section in enumerate(sections):
        yield section, list(chunk_text(section, index, counter, max_tokens=max_tokens, overlap_tokens=overlap_tokens))


def chunk_text(section: Section, index: int, counter: TokenCounter, *, max_tokens: int = MAX_CHUNK_TOKENS,
               overlap_tokens: int = OVERLAP_TOKENS) -> Iterator[Chunk]:
    """The chunks of one section (see the module docstring)."""
    text = section.text
    spans = [(s, e, counter.count(text[s:e])) for s, e in _pieces(text, counter, max_tokens)]
    start = 0
    while start < len(spans):
        end, used = start, 0
        while end < len(spans) and (end == start or used + spans[end][2] <= max_tokens):
            used += spans[end][2]
            end += 1
        first, last = spans[start][0], spans[end - 1][1]
        yield Chunk(section=index, page=section.page, heading=section.heading, char_start=first, char_end=last,
                    text=text[first:last], tokens=used)
        if end >= len(spans):
            break
        # The next chunk repeats the tail of this one, up to ``overlap_tokens`` (whole pieces).
        back, carried = end, 0
        while back - 1 > start and carried + spans[back - 1][2] <= overlap_tokens:
            back -= 1
            carried += spans[back][2]
        start = back


def _pieces(text: str, counter: TokenCounter, max_tokens: int) -> list[tuple[int, int]]:
    """``(start, end)`` spans of paragraphs; a paragraph over the bound is cut into sentences,
    a sentence over the bound into equal character runs. No span longer than
    ``max_tokens * _MAX_CHARS_PER_TOKEN`` characters is ever counted."""
    longest = max_tokens * _MAX_CHARS_PER_TOKEN
    out: list[tuple[int, int]] = []
    for start, end in _split(text, 0, len(text), _PARAGRAPH):
        if end - start <= longest and counter.count(text[start:end]) <= max_tokens:
            out.append((start, end))
            continue
        for s_start, s_end in _split(text, start, end, _SENTENCE_END):
            if s_end - s_start > longest:  # a run-on: cut into runs of about one chunk, then count those
                for r_start in range(s_start, s_end, max_tokens * 4):
                    out += _runs(text, r_start, min(r_start + max_tokens * 4, s_end), counter, max_tokens)
                continue
            out += _runs(text, s_start, s_end, counter, max_tokens)
    return out


def _runs(text: str, start: int, end: int, counter: TokenCounter, max_tokens: int) -> list[tuple[int, int]]:
    """``text[start:end]`` whole if it is under the bound, else cut into equal character runs that are."""
    tokens = counter.count(text[start:end])
    if tokens <= max_tokens:
        return [(start, end)]
    parts = -(-tokens // max_tokens) + 1
    step = max(1, -(-(end - start) // parts))
    return [(p, min(p + step, end)) for p in range(start, end, step)]


def _split(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """Non-blank spans of ``text[start:end]`` between matches of ``pattern``, trimmed."""
    spans = []
    pos = start
    for match in pattern.finditer(text, start, end):
        spans.append((pos, match.start()))
        pos = match.end()
    spans.append((pos, end))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out
