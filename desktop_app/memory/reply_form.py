"""Replies that fail by their form, whatever they say: a block said twice, a list promised and not given,
the user's question said back, the user's own sentence said as the reply's.

Each was read "bad" by a blind reader of bench health run S while the judge passed it. Pure and
deterministic; ``memory.reply_health.check_reply`` asks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from desktop_app.lexicon import cue
from desktop_app.memory.lang.text import CJK_CHAR, marks_aside
from desktop_app.memory.repeats import similarity
from desktop_app.memory.write.mood import is_question

# Sentences (and lines) of a reply: after an end mark, or at a line break; not after a list's number
# ("1. **Casa de Prata**: …" is one).
_SENTENCE = re.compile(r"(?<=[。！？])\s*|(?<=[.!?])(?<!\b\d\.)\s+|\n+")
# A block of sentences said again later in the reply is a loop from this many characters on (marks aside; Chinese:
# characters): two recipes may share their last two ingredient lines ("Salt and pepper to taste", 80 letters).
BLOCK_CHARS, BLOCK_CJK = 120, 30


def _spans(text: str) -> list[tuple[int, str]]:
    """The reply's sentences (marks aside, none empty), each with where it starts in ``text``."""
    out, at = [], 0
    for gap in (*_SENTENCE.finditer(text), None):
        end = gap.start() if gap is not None else len(text)
        piece = text[at:end]
        if marks_aside(piece):
            out.append((at + len(piece) - len(piece.lstrip()), piece.strip()))
        if gap is not None:
            at = gap.end()
    return out


def _sentences(text: str) -> list[str]:
    return [s for _, s in _spans(text)]


def _long(piece: str, latin: int, cjk: int) -> bool:
    bare = marks_aside(piece)
    return len(bare) >= (cjk if 2 * len(CJK_CHAR.findall(bare)) >= len(bare) else latin)


def _repeat(reply: str) -> tuple[str, int] | None:
    """The opening of a block of sentences said again, and where its second saying starts."""
    spans = _spans(reply)
    units = [marks_aside(s) for _, s in spans]
    for i in range(len(units) - 1):
        for j in range(i + 2, len(units) - 1):
            same = 0
            while j + same < len(units) and i + same < j and units[i + same] == units[j + same]:
                same += 1
            if same >= 2 and _long("".join(units[i:i + same]), BLOCK_CHARS, BLOCK_CJK):
                return spans[i][1], spans[j][0]
    return None


def repeated_block(reply: str) -> str | None:
    """Sentences in a row that the reply says again, in the same order, later on (run S: "Here are some other
    options: 1. **Casa de Prata**: This is another popular option… It's also known for…" twice, the second cut
    short): the block's opening, or None. One sentence again is no loop ("Breakfast at the hotel." on every day of a
    plan), nor are lines that differ by their day."""
    found = _repeat(reply)
    return found[0] if found is not None else None


def _opens_a_list(line: str) -> bool:
    return line.rstrip().endswith((":", "：")) and len(marks_aside(line)) >= 8


def unfilled_list(reply: str, lang: str) -> str | None:
    """A line that opens a list ("Here are some starter ideas for your dinner party:") with nothing after it but a
    closing ("I hope these suggestions help…", run S twice): that line, or None."""
    lines = [line.strip() for line in reply.splitlines() if line.strip()]
    sign_off = cue("reply.sign_off", lang)
    for at, line in enumerate(lines):
        if not _opens_a_list(line):
            continue
        after = lines[at + 1:]
        if all(sign_off is not None and sign_off.search(rest) for rest in after):
            return line
    return None


MENDABLE = frozenset({"loop", "unfilled", "scaffolding"})  # what ``mended`` (with scaffolding's) takes out
# What a mended reply keeps must still say something (marks aside; Chinese: characters).
MENDED_CHARS, MENDED_CJK = 40, 12


def mended(reply: str, lang: str) -> str:
    """``reply`` without what breaks its form where the rest stands on its own: a block said again loses its second
    saying and all after it (run U: "The budget was $6, 500 before this note was applied…" twice, the retry too); a
    list announced and never given loses the announcing sentence and the closing after it ("I'm glad you found
    Alfama cute! I'm excited to help… Here are some tips that should get you started:"). ``reply`` when neither is
    there; "" when too little would be left."""
    text = reply
    if (found := _repeat(text)) is not None:
        text = text[:found[1]].rstrip()
    if (line := unfilled_list(text, lang)) is not None:
        at = text.find(line)
        opening = [start for start, _ in _spans(text) if at <= start < at + len(line)]
        text = text[:opening[-1] if opening else at].rstrip()
    if text == reply:
        return reply
    return text if _long(text, MENDED_CHARS, MENDED_CJK) else ""


_CLAUSE = re.compile(r"[^，,。！!？?；;\n]+[？?]?")
ASKED_BACK = 0.8  # a clause of the reply this like the user's question is the question said back
# … in a reply at most this many times as long as the question (a long answer may restate it first).
ASKED_BACK_LENGTH = 2


def asks_it_back(reply: str, user_text: str) -> str | None:
    """The reply is the user's question said back, still a question, perhaps with a word of its own ("我老公60多，香格里拉
    海拔高的是不是就别去了。" to "对了我爸有高血压，香格里拉那种海拔高的是不是就别去了？", run S): the question, or None."""
    whole = marks_aside(reply)
    clauses: list[str] = [c for sentence in _sentences(user_text) for c in _CLAUSE.findall(sentence)]
    for question in (c for c in clauses if c.rstrip().endswith(("?", "？")) or is_question(c)):
        asked = marks_aside(question)
        if len(asked) < 5 or len(whole) > ASKED_BACK_LENGTH * len(asked):
            continue
        # (still a question: "No, you don't need a visa for Portugal." to "Do I need a visa for Portugal?" answers it)
        if any(similarity(marks_aside(c), asked) >= ASKED_BACK and (c.rstrip().endswith(("?", "？")) or is_question(c))
               for s in _sentences(reply) for c in _CLAUSE.findall(s)):
            return question.strip()
    return None


AS_USER = 0.8  # a sentence of the reply this like one of the user's, in the first person, is the user's said back
AS_USER_CHARS, AS_USER_CJK = 30, 10


def _windows(sentence: str) -> list[str]:
    """The sentence and each run of its clauses in a row ("今年年夜饭轮到我家做，有点慌" of "今年年夜饭轮到我家做，有点慌，帮我想想
    菜单": run U's reply opened "今天年夜饭轮到我家，有点慌。")."""
    clauses = [c for c in _CLAUSE.findall(sentence) if marks_aside(c)]
    return [sentence] + ["".join(clauses[i:j]) for i in range(len(clauses)) for j in range(i + 1, len(clauses) + 1)
                         if j - i < len(clauses)]


def speaks_as_user(reply: str, messages: Sequence[str], lang: str) -> str | None:
    """A sentence of the reply that is a sentence of the user's again, first person and all ("I'm planning a family
    trip to Portugal this summer and could use help getting it organised." opening run S's final plan): the reply
    speaks as the user. Quoted words are the user's, quoted. The sentence, or None."""
    me = cue("address.me", lang)
    if me is None:
        return None
    said = [w for m in messages for s in _sentences(m) for w in _windows(s) if _long(w, AS_USER_CHARS, AS_USER_CJK)
            and me.search(w)]
    for sentence in _sentences(reply):
        if re.search(r"[\"“「『]", sentence) or not _long(sentence, AS_USER_CHARS, AS_USER_CJK) or not me.search(sentence):
            continue
        if any(similarity(marks_aside(sentence), marks_aside(s)) >= AS_USER for s in said):
            return sentence
    return None


FormKind = Literal["loop", "unfilled", "echo"]


def form_finding(reply: str, *, user_text: str, messages: Sequence[str], lang: str) -> tuple[FormKind, str] | None:
    """The first of the checks above that fires, as (kind, detail) of a health finding; None when none does.
    (A summary of everything is judged for speaking as the user too: it states the values, not the user's
    sentences in the user's voice.)"""
    if (block := repeated_block(reply)) is not None:
        return "loop", f"says the block {block[:40]!r}… twice"
    if (line := unfilled_list(reply, lang)) is not None:
        return "unfilled", f"promises a list it does not give: {line[:60]!r}"
    if (question := asks_it_back(reply, user_text)) is not None:
        return "echo", f"says the user's question back: {question[:40]!r}"
    if (sentence := speaks_as_user(reply, [user_text, *messages], lang)) is not None:
        return "echo", f"says the user's own sentence as its own: {sentence[:40]!r}"
    return None
