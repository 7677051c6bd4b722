"""Which document chunks a reply rests on: the labels the model wrote, and — because small
models often answer without one — the chunks whose words the reply repeats (the program's
attribution, shown apart from the model's own citations)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import CJK
from desktop_app.memory.lang.text import EN_STOPWORDS

_CITED = re.compile(r"\[?doc:\s*([^,\]\n]+?)\s*(?:,\s*p\.?\s*(\d+))?\s*(?:§[^\]\n]*)?\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}|\d+(?:[.,]\d+)*")
_CJK = re.compile(f"[{CJK}]+")


def cited_pages(reply: str) -> list[tuple[str, int | None]]:
    """``(document, page)`` for each ``[doc: name, p. N]`` the reply itself contains."""
    return [(m.group(1).strip(), int(m.group(2)) if m.group(2) else None) for m in _CITED.finditer(reply)]


def _terms(text: str) -> set[str]:
    words = {w.lower().replace(",", "") for w in _WORD.findall(text)} - EN_STOPWORDS
    for run in _CJK.findall(text):
        words |= {run[i:i + 2] for i in range(len(run) - 1)}
    return words


def supporting_chunks(reply: str, chunks: Sequence[tuple[int, str]], *, min_share: float = 0.3) -> list[int]:
    """Ids of the chunks (``(id, text)``) that hold the reply's words: the best one, and any
    other nearly as good. Numbers count three times (they are what an answer quotes)."""
    terms = _terms(_CITED.sub(" ", reply))
    if not terms:
        return []
    weight = {t: 3.0 if t[0].isdigit() else 1.0 for t in terms}
    total = sum(weight.values())
    scores = []
    for chunk_id, text in chunks:
        lowered = _terms(text)
        scores.append((sum(w for t, w in weight.items() if t in lowered) / total, chunk_id))
    scores.sort(reverse=True)
    if not scores or scores[0][0] < min_share:
        return []
    best = scores[0][0]
    return [cid for share, cid in scores if share >= max(min_share, 0.8 * best)]
