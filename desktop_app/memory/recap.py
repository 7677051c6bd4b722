"""A summary of everything must name every current value: what it left out, and the lines the
program adds when the model, asked once more, still leaves it out.

Asked "summarise everything and give me the final plan", a reply names a value when it states each
of its amounts counting the same thing (a date by its month and day together), or most of its
words within one sentence. The program then lists the values left out and the questions still
open, in the turn's language. Pure and deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import CJK, LANGS, alternatives, fires, lexicon, subject_labels
from desktop_app.memory.acknowledgment import label_of, named_value
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.core.records import GuardFinding
from desktop_app.memory.lang.amounts import Amount, amounts, in_subject
from desktop_app.memory.lang.dates import month_days
from desktop_app.memory.lang.text import (
    CANONICAL_SUBJECTS,
    CJK_CHAR,
    REPLY_SENTENCE,
    ZH_STOPCHARS,
    numbers,
    term_set,
    unlabelled,
    without_lead_in,
)
from desktop_app.memory.lang.voice import in_your_voice
from desktop_app.memory.prompt.render import in_language, plain_value
from desktop_app.memory.stated_values import numbering, superseded, unit_of_item
from desktop_app.memory.write.sentence import NEED_PREFIX
from desktop_app.prompts import guard_text

# What a summary of "everything I asked for" must name: the current values (not the rules on the
# reply or what is still undecided; the goal only where it holds a date or a number, see _part_of_plan).
RECAP_KINDS = ("fact", "constraint", "decision", "preference")
MAX_RECAP = 8  # values named in one correction
# values in the program's list of everything asked for (the list of hc-zh-06 had ten: the eighth cut the party's day)
MAX_LISTED = 16
RECAP_SHARE = 0.5  # more than this share of a wordy value's terms (or Chinese characters) in one sentence names it


def mentioned(item: MemoryItem, reply: str, said: list[Amount]) -> bool:
    """``reply`` names ``item``'s value: each of its amounts, else more than half of its words (Chinese: of
    its characters that are not grammar, as a summary rewords "我妈一点辣都不能吃" into "妈妈不吃辣")
    within one sentence of the reply — a long plan holds every common character somewhere."""
    value = plain_value(item.value)
    dated = month_days(value)
    if dated:
        # A date is its month and day together: "10月2日" and "一个" do not name "10月1号出发".
        named = {(d.month, d.day) for d in month_days(reply)}
        if any((d.month, d.day) not in named for d in dated):
            return False
    own = [a for a in amounts(value) if a.value and not any(d.start <= a.start < d.end for d in dated)][:2]
    if dated and not own:
        return True
    if own:
        # Each of its numbers (a date has two), counting the same thing; a list's own numbering
        # ("1. …", "### 6. …") names nothing.
        counted = [a for a in said if not numbering(reply, a)]
        spelled = {n for lang in LANGS for word, n in lexicon(lang)["number"].get("spelled", {}).items()
                   if re.search(rf"\b{re.escape(word)}\b", reply, re.IGNORECASE)}
        return all(any(abs(a.value - v.value) < 1e-9 and _counts_alike(reply, a, v, item) for a in counted)
                   or v.value in spelled for v in own)
    words = {t for t in term_set(value) if not CJK_CHAR.match(t)}
    chars = set(CJK_CHAR.findall(value))
    chars = (chars - ZH_STOPCHARS) or chars
    if not words and not chars:
        return True
    for sentence in (m.group(0) for m in REPLY_SENTENCE.finditer(reply)):
        if words and len(words & term_set(sentence)) > RECAP_SHARE * len(words):
            return True
        if chars and len(chars & set(CJK_CHAR.findall(sentence))) > RECAP_SHARE * len(chars):
            return True
    return False


_UNIT_FOLLOWS = re.compile(rf"\s*[A-Za-z{CJK}]")
UNIT_WINDOW = 16  # characters before a bare number where its label ("人数：", "guests:") may stand


def _counts_alike(reply: str, said: Amount, own: Amount, item: MemoryItem) -> bool:
    """The reply's number counts what the item's does: the same unit, or a bare number (nothing
    counted right after it, or the unit's label just before: "人数：5", "Guests: 10") where the item
    or its subject says what it counts — "6个月" does not name "玩6天", nor "(10 now)" "head count: 10"."""
    unit = unit_of_item(item, own)
    if said.unit is not None and unit is not None:
        return said.unit == unit
    if said.unit is not None or unit is None:
        return True
    if not _UNIT_FOLLOWS.match(reply, said.end):
        return True
    before = reply[max(0, said.start - UNIT_WINDOW):said.start].lower()
    return in_subject(unit, before) or (
        bool(term_set(item.subject)) and term_set(item.subject) <= term_set(before))


def left_out(reply: str, active: Sequence[MemoryItem], user_text: str,
             history: Sequence[MemoryItem] = (), limit: int = MAX_RECAP) -> list[MemoryItem]:
    """The current values a reply to "summarise everything and give me the final plan" does not
    name (at most ``limit``); empty when ``user_text`` asks for no such summary. A value said in
    the sentence that also held an old one ("4 of us, flying out July 14", ``history``) is asked for
    without the clauses stating the old value ("flying out July 14"; ``_fresh_part``)."""
    if not user_text or not fires("request.recap", user_text):
        return []
    found = amounts(reply)
    left = [i for i in active if _part_of_plan(i) and not mentioned(i, reply, found) and not _part_of_another(i, active)]
    past = list(history)
    out: list[MemoryItem] = []
    for item in left:
        # An active profile item is current whatever a replaced copy held (run I: the pass's copy of "Priya
        # is vegetarian, and Jake has a shellfish allergy", replaced by Priya's vegan diet, made the current
        # "Jake has a shellfish allergy" look stale, and the final plan lost it); a profile item is only
        # ever replaced by one about the same thing.
        if item.scope == "profile" or not superseded(item.value, amounts(item.value), active, past):
            out.append(item)
        elif (fresh := _fresh_part(item, active, past)) is not None and not mentioned(fresh, reply, found):
            out.append(fresh)
    return out[:limit]


_CLAUSE = re.compile(alternatives("clause.split", ("zh", "en")), re.IGNORECASE)


def _fresh_part(item: MemoryItem, active: Sequence[MemoryItem], history: list[MemoryItem]) -> MemoryItem | None:
    """The clauses of a value that state no replaced value, as the item ("Jake has a shellfish allergy"
    of "Priya is vegetarian, and Jake has a shellfish allergy" once Priya is vegan): the rest of a
    sentence that also held an old value is still asked for. None when every clause is stale."""
    parts = [without_lead_in(p.strip(), edge=" ,;，；") for p in _CLAUSE.split(plain_value(item.value))]
    parts = [p for p in parts if p.strip()]
    kept = [p for p in parts if not superseded(p, amounts(p), active, history)]
    if not kept or len(kept) == len(parts):
        return None
    return item.model_copy(update={"value": "; ".join(kept)})


def _part_of_plan(item: MemoryItem) -> bool:
    """A value a final plan must name: a limit, a choice or a preference; a fact the rules took; the
    goal where it holds a date or a number;
    or one the model's pass filed that is about the person (an allergy, a diet), a canonical subject
    (the head count, the departure), or holds a number or a date. A remark the 0.5B filed as a fact
    ("ugh the weather is awful today", "it's fine either way") is no part of it."""
    value = plain_value(item.value)
    if item.kind == "goal":  # the task itself, where it holds the plan's date or size ("on Saturday the 18th")
        return bool(numbers(value)) or fires("time.date", value)
    if item.kind not in RECAP_KINDS:
        return False
    if item.kind != "fact" or item.origin != "model" or item.scope == "profile" or item.subject in CANONICAL_SUBJECTS:
        return True
    return bool(numbers(value)) or fires("time.date", value)


def _part_of_another(item: MemoryItem, active: Sequence[MemoryItem]) -> bool:
    """The item's value is a piece of another current value ("吃饭的时候要注意" of "我妈一点辣都不能吃，
    吃饭的时候要注意"): naming the whole names it."""
    mine = re.sub(r"\W+", "", plain_value(item.value).lower())
    return bool(mine) and any(other.id != item.id and mine in re.sub(r"\W+", "", plain_value(other.value).lower())
                              and len(other.value) > len(item.value) for other in active)


def still_open(reply: str, active: Sequence[MemoryItem], user_text: str) -> list[MemoryItem]:
    """The user's open questions a reply to "summarise everything" does not name ("鱼要不要整条蒸？"
    asked two turns before): a final plan says what is still to decide. Empty for another message."""
    if not user_text or not fires("request.recap", user_text):
        return []
    found = amounts(reply)
    return [i for i in active if i.kind == "open_question" and not mentioned(i, reply, found)
            and not _part_of_another(i, active)][:MAX_RECAP]


def completion(left: Sequence[MemoryItem], lang: str, open_questions: Sequence[MemoryItem] = ()) -> str:
    """Lines that add to a summary of everything the values it left out (``left_out``), one per
    line under a short lead-in, in ``lang``, then the questions still open it did not name
    (``still_open``) under another; "" when nothing was left out. The program states what memory
    holds when the model, asked once more, still leaves it out, with its labels in ``lang``
    ("budget: 2.5万" is "预算：2.5万" in a Chinese reply)."""
    return "".join(f"\n\n{block}" for block in _blocks(left, lang, open_questions, "recap"))


def summary(values: Sequence[MemoryItem], lang: str, open_questions: Sequence[MemoryItem] = ()) -> str:
    """The program's list of everything a summary must name (``left_out`` of an empty reply), ahead of the model's
    plan: "Everything you have asked for, as it stands:" and a value per line, then the questions still open; ""
    when memory holds none."""
    return "\n\n".join(_blocks(values, lang, open_questions, "everything"))


def recap_lead(user_text: str, active: Sequence[MemoryItem], history: list[MemoryItem], lang: str) -> str:
    """To "summarise everything and give me the plan", the program's list of every current value and open
    question (``summary``), said before the model's plan; "" for any other message or an empty memory."""
    if not fires("request.recap", user_text):
        return ""
    values = left_out("", active, user_text, history=history, limit=MAX_LISTED)
    # The task itself opens the list (hc-zh-03's "下个月要搬家，从朝阳搬到海淀": a list of the limits alone never said
    # where the move went, nor hc-en-09's whose party it was)
    tasks = [i for i in active if i.kind == "goal" and i not in values]
    return summary([*tasks, *values][:MAX_LISTED], lang, still_open("", active, user_text))


def plan_only_note(lang: str) -> str:
    """The line before the input under the program's list: the requirements are listed already, write the plan."""
    text = guard_text(lang)
    return f"{text['lead']}{text['plan_only']}{text['end']}"


def _blocks(values: Sequence[MemoryItem], lang: str, open_questions: Sequence[MemoryItem], lead: str) -> list[str]:
    text = guard_text(lang)
    return [f"{text[head]}\n" + "\n".join(f"- {line}" for line in _once([_stated(i, lang) for i in items]))
            for head, items in ((lead, values), ("still_open", open_questions)) if items]


_TASK_ASKED = re.compile(alternatives("recap.task_asked", LANGS), re.IGNORECASE)
_LABEL = re.compile(r"^[^:：\n]{1,12}[:：]\s*")  # "虾过敏: ", "Priya's diet: "


def _once(lines: list[str]) -> list[str]:
    """``lines`` without one another says in full (round seventeen's list: "虾过敏: 虾一定不能有" under "你表妹小雨对虾
    过敏，很严重那种，虾一定不能有")."""
    bodies = [" ".join(re.sub(r"[\W_]+", " ", _LABEL.sub("", line)).lower().split()) for line in lines]
    return [line for n, (line, mine) in enumerate(zip(lines, bodies, strict=True))
            if not any(m != n and mine and _within(mine, other) and (len(mine) < len(other) or m < n)
                       for m, other in enumerate(bodies))]


def _within(mine: str, other: str) -> bool:
    """``mine`` said in ``other`` as whole words and numbers ("5 people" is not in "15 people")."""
    return re.search(rf"(?<![0-9a-z]){re.escape(mine)}(?![0-9a-z])", other) is not None


def _stated(item: MemoryItem, lang: str) -> str:
    """A value as the program lists it: a value of a subject the program has a name for by what it holds ("departure
    July 21", "5个人", "Priya's diet: vegan"; run S listed "Tom just checked and flights are way cheaper if we leave
    July 21 instead", the user's sentence, which read as the user's message said back), any other as memory holds it,
    in the program's voice ("你妈一点辣都不能吃")."""
    value = unlabelled(plain_value(item.value))
    if item.kind == "goal" or item.subject.startswith(NEED_PREFIX):  # ("help you plan a menu", "make 2 of the 5 …")
        value = _TASK_ASKED.sub("", value).strip() or value
    names = subject_labels(lang)
    if item.subject.partition(":")[0] in names and (named := named_value(value, label_of(item.subject, value, names, lang),
                                                                          lang)):
        return in_your_voice(named, lang)  # ("4 of you", as the acknowledgment said it: the list said "4 of us")
    return in_your_voice(in_language(value, lang), lang)


def omitted(reply: str, active: Sequence[MemoryItem], history: Sequence[MemoryItem], user_text: str,
             lang: str) -> list[GuardFinding]:
    """A summary of everything that leaves current values out."""
    left = left_out(reply, active, user_text, history)
    if not left:
        return []
    values = guard_text(lang)["join"].join(plain_value(i.value) for i in left)
    return [GuardFinding(kind="omitted", item=left[0].id, detail=f"leaves out {len(left)}: {values}", current=values)]
