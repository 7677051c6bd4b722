"""Which of a reply's sentences were said before: in earlier replies or in the user's messages.

A small model that has run out of answers says an earlier reply again sentence by sentence, reworded
a little ("好的，我们将按照以下步骤进行：首先，我们需要考虑天气条件、预算等因素…" to three messages in a row), or
says the user's message back in its own words ("根据你的描述，我妈一点辣都不能吃，吃饭的时候要注意。"). No whole
reply is 0.8 like another then, so a check of whole texts passes it; read sentence by sentence, most
of the reply was said before. Pure and deterministic (no model).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from desktop_app.lexicon import alternatives
from desktop_app.memory.lang.text import marks_aside

SENTENCE_ALIKE = 0.75  # a sentence this like one said before is that sentence again
SAID_BEFORE_SHARE = 0.5  # a reply whose sentences are this share said before (by length) says nothing new
# Characters, marks aside: shorter pieces ("好的！", "Sure!") are not compared; nor is a short answer that
# mirrors a yes-or-no question ("当然，鱼不需要整条蒸。" to "鱼要不要整条蒸？").
MIN_SENTENCE = 8

_LEAD_IN = re.compile(alternatives("reply.lead_in"), re.IGNORECASE)
_SIGN_OFF = re.compile(alternatives("reply.sign_off"), re.IGNORECASE)
_CODE = re.compile(r"```.*?(?:```|$)", re.S)
_SENTENCE = re.compile(r"[^。！？!?\n]+?(?:[。！？!?]+|\.(?=\s)|$)", re.M)


def squash(text: str) -> str:
    """``text`` lower-cased, its spacing made single."""
    return re.sub(r"\s+", " ", text).strip().lower()


def similarity(a: str, b: str) -> float:
    """How alike two texts are (0–1), spacing and case aside."""
    a, b = squash(a), squash(b)
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def without_empty_opening(text: str) -> str:
    """``text`` without a reply's opening that says nothing ("根据您的描述，", "Based on the information provided,";
    the lexicon's ``reply.lead_in``; a spoken value's opening is ``lang.text.without_lead_in``)."""
    return _LEAD_IN.sub("", text.strip(), count=1)


def _pieces(text: str) -> list[str]:
    """``text``'s sentences and list lines, marks aside, without an opening that says nothing and
    without a closing that any reply may have ("希望对你有帮助！", "Let me know if you need anything
    else!"; the lexicon's ``reply.sign_off``) or code (a fix repeats the lines it fixes)."""
    text = _CODE.sub("\n", text)
    pieces = (s.strip() for s in _SENTENCE.findall(text))
    return [marks_aside(without_empty_opening(p)) for p in pieces if p and not _SIGN_OFF.search(p)]


def sentences(text: str) -> list[str]:
    """``text``'s sentences, as compared (``_pieces``), long enough to compare."""
    return [p for p in _pieces(text) if len(p) >= MIN_SENTENCE]


def _alike(piece: str, earlier: str) -> bool:
    matcher = SequenceMatcher(None, piece, earlier, autojunk=False)
    return matcher.real_quick_ratio() >= SENTENCE_ALIKE and matcher.quick_ratio() >= SENTENCE_ALIKE \
        and matcher.ratio() >= SENTENCE_ALIKE


@dataclass(frozen=True)
class SaidBefore:
    """How much of a reply was said before, and where most of it was."""

    share: float  # of the reply's compared sentences, by length
    from_replies: bool  # more of it was in earlier replies than in the user's messages


def said_before(reply: str, *, earlier_replies: Sequence[str] = (), messages: Sequence[str] = ()) -> SaidBefore | None:
    """How much of ``reply`` repeats, sentence by sentence, ``earlier_replies`` or the user's
    ``messages`` (its short sentences count in its length: "喜洲粑粑很好吃。" is news beside a closing said
    before); None when it has no sentence long enough to compare."""
    every = [p for p in _pieces(reply) if p]
    own = [p for p in every if len(p) >= MIN_SENTENCE]
    if not own:
        return None
    replied = [s for text in earlier_replies for s in sentences(text)]
    told = [s for text in messages for s in sentences(text)]
    from_replies = from_messages = 0
    for piece in own:
        if any(_alike(piece, s) for s in replied):
            from_replies += len(piece)
        elif any(_alike(piece, s) for s in told):
            from_messages += len(piece)
    total = sum(len(p) for p in every)
    return SaidBefore((from_replies + from_messages) / total, from_replies >= from_messages)
