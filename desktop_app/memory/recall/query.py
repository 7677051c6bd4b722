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

from desktop_app.memory.lang.text import EN_STOPWORDS, ZH_STOPCHARS

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][a-z]+)?", re.UNICODE)
# Words that ask, not tell: they never help find the answer turn.
QUESTION_WORDS = frozenset(["what", "when", "where", "which", "who", "whom", "whose", "why", "how", "does", "did", "do", "is", "are", "was", "were", "has", "have", "had", "ever", "kind", "type", "sort", "name", "names", "list", "many", "much", "long", "often", "recently", "yet", "still"])

# Chinese question frames: like QUESTION_WORDS they ask, and their trigrams ("我曾经", "的名字是")
# would match every turn that asks or remembers something. Longest first.
ZH_QUESTION_PHRASES = tuple(sorted(["我曾经", "你曾经", "我们曾经", "曾经", "你还记得", "还记得", "记得吗", "你记得", "我当时", "当时", "它的名字是", "名字是", "叫什么名字", "叫什么", "是什么", "是哪些", "是哪个", "是哪里", "是谁", "有哪些", "哪些", "哪个", "哪里", "哪儿", "什么", "多少", "多久", "怎么样", "怎么", "为什么", "吗", "呢", "和你", "跟你", "给你", "对你", "向你", "你说过", "提到过", "分享过", "推荐过", "告诉过", "说过", "提过"], key=len, reverse=True))
_ZH_FRAME = re.compile("|".join(re.escape(p) for p in ZH_QUESTION_PHRASES))

# "Page faults": the input points back at something outside the window.
PAGE_FAULT_MARKERS_ZH = ("刚才", "之前", "上次", "以前", "那个文件", "那份", "那个", "你说过", "你说的", "我说过",
                         "我们说过", "提到过", "提过", "前面", "早些时候", "还记得", "记得吗", "原来的", "当时")
PAGE_FAULT_MARKERS_EN = ("earlier", "last time", "that file", "you said", "you told",
                         "i said", "i told", "i mentioned", "we discussed", "we talked", "as discussed",
                         "remember", "previously", "the other day", "back when", "that document", "mentioned")
_EN_MARKER = re.compile(r"\b(" + "|".join(re.escape(m) for m in PAGE_FAULT_MARKERS_EN) + r")\b", re.IGNORECASE)


def is_page_fault(text: str) -> bool:
    """Whether ``text`` refers back to earlier conversation ("刚才", "that file", "you said" …)."""
    return any(marker in text for marker in PAGE_FAULT_MARKERS_ZH) or bool(_EN_MARKER.search(text))


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


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH = "|".join(_MONTHS)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH}),?\s+(\d{{4}})\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH}),?\s+(?:of\s+)?(\d{{4}})\b")
_YEAR = re.compile(r"\b(?:in|during|of|since)\s+((?:19|20)\d\d)\b")
_ISO_DATE = re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b")
_ZH_DATE = re.compile(r"(?:((?:19|20)\d\d)年)?(\d{1,2})月(?:(\d{1,2})[日号])?")
_ZH_MONTH_DAY = re.compile(r"(?<![年\d])(\d{1,2})月(\d{1,2})[日号]")
_ASKS_WHEN = re.compile(r"^\s*(when|what (?:date|day|year|month|time)|how long ago|since when)\b"
                        r"|什么时候|哪天|哪一天|几号|几月|哪年|何时", re.IGNORECASE)


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


# Turns that place something in time: what a "when" question is usually answered by.
_TEMPORAL = re.compile(
    r"\b(yesterday|today|tomorrow|tonight|ago|recently|since|weekend|weeks?|months?|years?|"
    r"(?:last|next|this) (?:week|month|year|weekend|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:19|20)\d\d|" + _MONTH + r")\b|昨天|今天|明天|上周|下周|上个月|下个月|去年|明年|前天|后天|最近|周末|\d+月|\d+号|\d+日",
    re.IGNORECASE)


def mentions_time(text: str) -> bool:
    """Whether a turn places something in time ("yesterday", "last week", "5月", "2023" …)."""
    return bool(_TEMPORAL.search(text))
