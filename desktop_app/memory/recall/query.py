"""Turning a user's question into index queries, and spotting "page faults".

English: words minus stopwords (question words too), each quoted for FTS5 and OR-ed, so
BM25 ranks turns by how many rare question words they share. Chinese/Japanese/Korean:
runs of 3+ characters are cut into overlapping trigrams for the trigram index; shorter
pieces (most Chinese words are two characters) go to a plain substring scan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from desktop_app.lexicon import EAST_ASIAN, alternatives, each_pattern, fires, lexicon
from desktop_app.memory.lang.text import EN_STOPWORDS, ZH_STOPCHARS

_CJK_RUN = re.compile(f"[{EAST_ASIAN}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][a-z]+)?", re.UNICODE)
# Words that ask, not tell: they never help find the answer turn (the lexicon's English ``question.frame``).
QUESTION_WORDS = frozenset(lexicon("en")["question"]["frame"]["words"])

# Chinese question frames (the lexicon's Chinese ``question.frame``): like QUESTION_WORDS they ask, and
# their trigrams ("我曾经", "的名字是") would match every turn that asks or remembers something. Longest first.
ZH_QUESTION_PHRASES = tuple(sorted(lexicon("zh")["question"]["frame"]["words"], key=len, reverse=True))
_ZH_FRAME = re.compile("|".join(re.escape(p) for p in ZH_QUESTION_PHRASES))


def is_page_fault(text: str) -> bool:
    """Whether ``text`` refers back to earlier conversation ("刚才", "that file", "you said" …): the
    lexicon's ``reference.earlier``, a "page fault" (the input points outside the window)."""
    return fires("reference.earlier", text, ("zh", "en"))


def has_cjk(text: str) -> bool:
    return bool(_CJK_RUN.search(text))


def quote(term: str) -> str:
    """``term`` as an FTS5 string (a phrase: no operator inside it is interpreted)."""
    return '"' + term.replace('"', '""') + '"'


@dataclass(frozen=True)
class QueryPlan:
    """What each index is asked for one question."""

    text: str
    words: list[str] = field(default_factory=list)        # English/Latin content words
    trigrams: list[str] = field(default_factory=list)     # CJK 3-character pieces
    short_terms: list[str] = field(default_factory=list)  # CJK pieces under 3 characters
    substring: str | None = None                          # whole query when shorter than 3 characters
    dates: list[tuple[float, float]] = field(default_factory=list)  # [start, end) unix seconds named
    month_days: list[tuple[int, int]] = field(default_factory=list)  # (month, day) named without a year
    asks_when: bool = False                               # "when …?", "什么时候…?": wants a time

    @property
    def words_match(self) -> str | None:
        """FTS5 expression for the word index (Porter-stemmed BM25)."""
        return " OR ".join(quote(w) for w in self.words) or None

    @property
    def trigram_match(self) -> str | None:
        """FTS5 expression for the trigram index (CJK trigrams + Latin words of 3+ letters)."""
        pieces = self.trigrams + [w for w in self.words if len(w) >= 3]
        return " OR ".join(quote(p) for p in dict.fromkeys(pieces)) or None

    @property
    def is_empty(self) -> bool:
        return not (self.words or self.trigrams or self.short_terms or self.substring)


def _as_written(name: str, lang: str) -> re.Pattern[str]:
    """Concept ``name``'s one pattern in ``lang``, compiled as written (its groups are read by number)."""
    (pattern,) = each_pattern(name, lang)
    return re.compile(pattern.pattern)


# Month names, January first (the lexicon's ``time.month``), and the English date forms made of them.
_MONTHS = tuple(lexicon("en")["time"]["month"]["words"])
_MONTH = "|".join(_MONTHS)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH}),?\s+(\d{{4}})\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH}),?\s+(?:of\s+)?(\d{{4}})\b")
_YEAR = _as_written("time.year", "en")
_ISO_DATE = re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b")
# Chinese dates (the lexicon's ``time.calendar_date``, ``time.month_day``) and a question that asks
# for a time (``question.when``).
_ZH_DATE = _as_written("time.calendar_date", "zh")
_ZH_MONTH_DAY = _as_written("time.month_day", "zh")
_ASKS_WHEN = re.compile(alternatives("question.when", ("en", "zh")), re.IGNORECASE)


def _day(year: int, month: int, day: int) -> tuple[float, float] | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return start.timestamp(), (start + timedelta(days=1)).timestamp()


def _month(year: int, month: int) -> tuple[float, float]:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = (start + timedelta(days=32)).replace(day=1)
    return start.timestamp(), end.timestamp()


def query_dates(text: str) -> list[tuple[float, float]]:
    """Calendar dates named in ``text`` as ``[start, end)`` ranges: a day ("May 7, 2023",
    "7 May 2023", "2023-05-07", "5月7日" — the year defaults to none, so Chinese dates need
    one), else a month ("August 2023"), else a year ("in 2022")."""
    lowered = text.lower()
    found: list[tuple[float, float] | None] = []
    found += [_day(int(m[3]), _MONTHS.index(m[1]) + 1, int(m[2])) for m in _MONTH_DAY_YEAR.finditer(lowered)]
    found += [_day(int(m[3]), _MONTHS.index(m[2]) + 1, int(m[1])) for m in _DAY_MONTH_YEAR.finditer(lowered)]
    found += [_day(int(m[1]), int(m[2]), int(m[3])) for m in _ISO_DATE.finditer(lowered)]
    for m in _ZH_DATE.finditer(text):
        if m[1] and 1 <= int(m[2]) <= 12:
            found.append(_day(int(m[1]), int(m[2]), int(m[3])) if m[3] else _month(int(m[1]), int(m[2])))
    if not any(found):
        found += [_month(int(m[2]), _MONTHS.index(m[1]) + 1) for m in _MONTH_YEAR.finditer(lowered)]
    if not any(found):
        for m in _YEAR.finditer(lowered):
            year = int(m[1])
            found.append((datetime(year, 1, 1, tzinfo=UTC).timestamp(),
                          datetime(year + 1, 1, 1, tzinfo=UTC).timestamp()))
    return [f for f in found if f is not None]


def _cjk_pieces(run: str) -> tuple[list[str], list[str]]:
    """Trigrams of a CJK run, plus its bigrams that are not grammar-only (for substring scans)."""
    if len(run) < 3:
        # A lone character between digits or Latin words ("5月2日" → "月") matches everything.
        return [], ([run] if len(run) == 2 and not all(ch in ZH_STOPCHARS for ch in run) else [])
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
    for run in _CJK_RUN.findall(_ZH_FRAME.sub(" ", text)):
        run_trigrams, run_short = _cjk_pieces(run)
        trigrams += run_trigrams
        short += run_short
    return QueryPlan(text=text, words=list(dict.fromkeys(words)), trigrams=list(dict.fromkeys(trigrams)),
                     short_terms=list(dict.fromkeys(short)), dates=query_dates(text),
                     month_days=[(int(m[1]), int(m[2])) for m in _ZH_MONTH_DAY.finditer(text)
                                 if 1 <= int(m[1]) <= 12 and 1 <= int(m[2]) <= 31],
                     asks_when=bool(_ASKS_WHEN.search(text)))


# Turns that place something in time: what a "when" question is usually answered by (the lexicon's
# ``time.mention``, a year, a month's name).
_TEMPORAL = re.compile("|".join([alternatives("time.mention", ("en",)), r"\b(?:19|20)\d\d\b", alternatives("time.month", ("en",)),
                                 alternatives("time.mention", ("zh",))]), re.IGNORECASE)


def mentions_time(text: str) -> bool:
    """Whether a turn places something in time ("yesterday", "last week", "5月", "2023" …)."""
    return bool(_TEMPORAL.search(text))
