"""Turning a user's question into index queries, and spotting "page faults".

English: words minus stopwords (question words too), each quoted for FTS5 and OR-ed, so
BM25 ranks turns by how many rare question words they share. Chinese/Japanese/Korean:
runs of 3+ characters are cut into overlapping trigrams for the trigram index; shorter
pieces (most Chinese words are two characters) go to a plain substring scan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from desktop_app.memory.text import EN_STOPWORDS, ZH_STOPCHARS

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][a-z]+)?", re.UNICODE)
# Words that ask, not tell: they never help find the answer turn.
QUESTION_WORDS = frozenset("""
what when where which who whom whose why how does did do is are was were has have had ever
kind type sort name names list many much long often recently yet still
""".split())

# "Page faults": the input points back at something outside the window.
PAGE_FAULT_MARKERS_ZH = ("刚才", "之前", "上次", "以前", "那个文件", "那份", "那个", "你说过", "你说的", "我说过",
                         "我们说过", "提到过", "提过", "前面", "早些时候", "还记得", "记得吗", "原来的", "当时")
PAGE_FAULT_MARKERS_EN = ("earlier", "before", "last time", "that file", "the file", "you said", "you told",
                         "i said", "i told", "i mentioned", "we discussed", "we talked", "as discussed",
                         "remember", "previously", "the other day", "back when", "that document", "mentioned")
_EN_MARKER = re.compile(r"\b(" + "|".join(re.escape(m) for m in PAGE_FAULT_MARKERS_EN) + r")\b", re.IGNORECASE)


def is_page_fault(text: str) -> bool:
    """Whether ``text`` refers back to earlier conversation ("刚才", "that file", "you said" …)."""
    return any(marker in text for marker in PAGE_FAULT_MARKERS_ZH) or bool(_EN_MARKER.search(text))


def has_cjk(text: str) -> bool:
    return bool(_CJK_RUN.search(text))


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass(frozen=True)
class QueryPlan:
    """What each index is asked for one question."""

    text: str
    words: list[str] = field(default_factory=list)        # English/Latin content words
    trigrams: list[str] = field(default_factory=list)     # CJK 3-character pieces
    short_terms: list[str] = field(default_factory=list)  # CJK pieces under 3 characters
    substring: str | None = None                          # whole query when shorter than 3 characters

    @property
    def words_match(self) -> str | None:
        """FTS5 expression for the word index (Porter-stemmed BM25)."""
        return " OR ".join(_quote(w) for w in self.words) or None

    @property
    def trigram_match(self) -> str | None:
        """FTS5 expression for the trigram index (CJK trigrams + Latin words of 3+ letters)."""
        pieces = self.trigrams + [w for w in self.words if len(w) >= 3]
        return " OR ".join(_quote(p) for p in dict.fromkeys(pieces)) or None

    @property
    def is_empty(self) -> bool:
        return not (self.words or self.trigrams or self.short_terms or self.substring)


def _cjk_pieces(run: str) -> tuple[list[str], list[str]]:
    """Trigrams of a CJK run, plus its bigrams that are not grammar-only (for substring scans)."""
    if len(run) < 3:
        return [], ([run] if not all(ch in ZH_STOPCHARS for ch in run) else [])
    trigrams = [run[i:i + 3] for i in range(len(run) - 2)]
    bigrams = [run[i:i + 2] for i in range(len(run) - 1)]
    bigrams = [b for b in bigrams if not any(ch in ZH_STOPCHARS for ch in b)]
    return trigrams, bigrams


def plan_query(text: str, *, extra_stopwords: frozenset[str] = frozenset()) -> QueryPlan:
    """Analyse ``text`` into the pieces each index understands."""
    text = text.strip()
    stripped = "".join(text.split())
    if 0 < len(stripped) < 3:
        return QueryPlan(text=text, substring=stripped)
    latin = _CJK_RUN.sub(" ", text)
    stop = EN_STOPWORDS | QUESTION_WORDS | extra_stopwords
    words = []
    for raw in _WORD.findall(latin.lower()):
        word = raw.replace("’", "'")
        word = word[:-2] if word.endswith("'s") else word
        if word and word not in stop and (len(word) > 1 or word.isdigit()):
            words.append(word)
    trigrams: list[str] = []
    short: list[str] = []
    for run in _CJK_RUN.findall(text):
        run_trigrams, run_short = _cjk_pieces(run)
        trigrams += run_trigrams
        short += run_short
    return QueryPlan(text=text, words=list(dict.fromkeys(words)), trigrams=list(dict.fromkeys(trigrams)),
                     short_terms=list(dict.fromkeys(short)))
