"""Reading a sentence clause by clause: where it divides (:func:`clauses`), a statement of several values read one
item per value (:func:`value_by_value`), the statements a question follows (:func:`told_before_asking`), and which
clause's reading is an item on its own (:func:`stands_alone`). Used by :mod:`desktop_app.memory.write.extraction`."""

from __future__ import annotations

import re

from desktop_app.lexicon import alternatives, fires
from desktop_app.memory.lang.amounts import amounts
from desktop_app.memory.lang.text import CJK_CHAR, canonical_subject, topic_subject, without_lead_in
from desktop_app.memory.write.mood import RELAYED, REPORTED, REQUEST, TRIM, is_hypothetical, is_question, is_small_talk, rx
from desktop_app.memory.write.sentence import (
    CHANGE,
    CORRECT,
    MOVED,
    NEED_PREFIX,
    WHEN_PREFIX,
    Candidate,
    classify,
    dropped_value,
    owner_named,
)
from desktop_app.memory.write.shifts import shift_in
from desktop_app.memory.write.typed_values import says_when

# Where a sentence divides into clauses (the lexicon's ``clause.split``).
_CLAUSE = rx(alternatives("clause.split", ("zh", "en")))
# A value said alone: digits and the units of a day, a time or an age ("6月8号", "3岁", "10:30"; the lexicon's
# ``clause.bare_value``).
_BARE_VALUE = rx(alternatives("clause.bare_value", ("zh", "en")))


def clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence``, each a span of it, punctuation between them left out. A bare value after a
    space ("女儿生日派对 6月8号", "我家狗叫豆豆 3岁") stays with the clause before it: it is that one's day, or its age
    (a clause of its own, the day had no topic and the dog's age was the user's); not after a clause of the user's
    own ("我是程序员 35岁": the user's age, an item of its own)."""
    cuts = [(m.start(), m.end()) for m in _CLAUSE.finditer(sentence) if m.end() > m.start()]
    cuts = [(start, end) for start, end in cuts
            if not (sentence[start:end].isspace() and _bare_value_at(sentence, end, cuts))]
    bounds = [0, *(x for cut in cuts for x in cut), len(sentence)]
    parts = (sentence[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2))
    return [p for p in parts if len(p.strip(TRIM)) >= 2]


def _bare_value_at(sentence: str, start: int, cuts: list[tuple[int, int]]) -> bool:
    """Whether the clause from ``start`` is a value alone (a day, an age: digits and their units) said of the clause
    before it, which is not the user's own."""
    end = next((cut for cut, _ in cuts if cut > start), len(sentence))
    part = sentence[start:end].strip(TRIM)
    before = sentence[:start].strip(TRIM)
    opened = next((p for p in reversed(_CLAUSE.split(before)) if fires("self.opening", p.strip(TRIM))
                   or fires("self.other_opening", p.strip(TRIM))), "")
    return bool(part) and _BARE_VALUE.fullmatch(part) is not None and not fires("self.opening", opened.strip(TRIM))


# Kinds a statement of several values may be, clause by clause (a rule of several numbers stays one rule).
_VALUE_BY_VALUE = ("fact", "constraint", "decision", "goal", "preference")
# A clause with no value and no reading of its own this short is the topic of the next one ("考研", "kitchen reno").
_TOPIC_CHARS = 4


def value_by_value(parts: list[str], whole: Candidate | None) -> list[Candidate]:
    """A statement of several values in its clauses ("婚礼定在10月2号 酒店是丽思卡尔顿 大概30桌", "kitchen reno:
    budget 25k, want white shaker cabinets and quartz counters, contractor starts april 10"): one item per clause,
    so that a correction of one value changes that one and the rest stays (as one item, "更正一下 是10月3号" rewrote
    the sentence whole; a clause no rule read was lost beside two that did). A clause of few words and no value is
    the topic of the next; clauses of one kind and subject stay together; a clause no rule reads is kept when it
    holds a value, or names a thing in a sentence a rule read (not chatter). [] unless two clauses or more hold a
    value (a day, a time, an amount), and none asks, requests, supposes, changes something or lists the parts of
    one thing ("一个5岁，一个8岁")."""
    said_whole = " ".join(parts)
    if (whole is not None and whole.kind not in _VALUE_BY_VALUE) or sum(1 for p in parts if _holds_value(p)) < 2 \
            or news_of_change(parts) or MOVED.search(said_whole) or CHANGE.search(said_whole) \
            or CORRECT.search(said_whole) or _enumerates(parts) or dropped_value(said_whole.strip(TRIM))[0] \
            or any(shift_in(p.strip(TRIM)) is not None for p in parts):
        # (news of a change is read whole: "师傅又说周日有事，改到下周二下午两点" moves the visit; so is a value said
        # with the one it drops: "weekdays will be 1.5 hours, not 2" filed "not 2" as a fact of its own, and one said
        # with the change that makes it: "得加2桌，8桌吧" filed "得加2桌" beside the 8 tables)
        return []
    out: list[Candidate] = []
    topic = ""
    for part in parts:
        body = part.strip(TRIM)
        if is_question(part) or is_hypothetical(body):
            return []
        said = classify(f"{topic} {body}".strip() if topic else part)
        if said is not None and (said.action != "add" or said.kind not in _VALUE_BY_VALUE) \
                or said is None and REQUEST.search(body):
            return []  # a rule, a change, a question or a request among them: the sentence is read as before
        if said is None and not _holds_value(body):
            if _substance(body) < _TOPIC_CHARS:
                topic = f"{topic} {body}".strip()
            elif whole is not None and not is_small_talk(body):
                said = _clause_fact(body)
            if said is None:
                continue
        value = without_lead_in(f"{topic} {body}".strip() if topic else body, edge=TRIM) or body
        topic = ""
        said = (said or _clause_fact(value)).model_copy(update={"value": value, "quote": part.strip()})
        twin = next((i for i, c in enumerate(out) if (c.kind, c.subject) == (said.kind, said.subject)), None)
        if twin is None:
            out.append(said)
        else:
            joined = f"{out[twin].value}{'，' if CJK_CHAR.search(value) else ', '}{value}"
            out[twin] = out[twin].model_copy(update={"value": joined, "quote": joined})
    return out if len(out) >= 2 else []


# (an apostrophe inside a word is none: "My daughter's birthday party is on the 12th, can you help me plan it?")
_QUOTE_MARK = re.compile(r"[\"“”「」『』]|(?<![A-Za-z])['‘’]|['‘’](?![A-Za-z])")


def told_before_asking(parts: list[str]) -> list[Candidate]:
    """The statements a question follows in its sentence, each a fact ("新家是6楼没电梯，这个要提前跟搬家公司说吗", "Marcus
    loves 80s music and bourbon, can we theme it around that?"): what the question asks about is part of the plan (bench
    health round twenty-two lost both, and the final plans never said them). Only a clause that names something: a
    value, a person or a name; never chatter, a request, a supposition, or a rule."""
    out: list[Candidate] = []
    said_whole = " ".join(parts)
    if _QUOTE_MARK.search(said_whole) or REPORTED.search(said_whole) or RELAYED.search(said_whole):
        return out  # (someone else's words asked about: "我朋友发我这个：'二手iPad Pro 2021款，256G，3500出'，你觉得值吗")
    for at, part in enumerate(parts):
        body = part.strip(TRIM)
        if shift_in(body) is not None:
            return out  # a change asked about is a supposition ("我要是再加500，能住好点的吗？")
        said = classify(part)
        if is_question(part):
            # (the question may itself ask for a part of the plan: "有好几个小朋友，要有儿童餐吧？")
            if said is not None and said.kind == "constraint" and said.subject.startswith(NEED_PREFIX):
                out.append(said)
            break
        if said is None and not is_small_talk(body) and not REQUEST.search(body) and not is_hypothetical(body) \
                and _names_something(body):
            said = _clause_fact(body)
        if said is not None and said.action == "add" and said.kind == "fact":
            value = without_lead_in(said.value, edge=TRIM) or said.value
            said = owner_named(said, " ".join(parts[:at]))
            out.append(said.model_copy(update={"value": value, "quote": part.strip()}))
    return out


# A name written with its capital, not the sentence's first word ("Marcus loves 80s music", "I love Paris").
_NAMED = re.compile(r"(?<=\w )[A-Z][a-z]+|^[A-Z][a-z]+(?= [a-z])")


def _names_something(body: str) -> bool:
    """A clause that names a value, someone ("我室友小林也考") or something by its capitalised name ("Marcus loves 80s
    music"), not a mood ("I'm so tired", "今天好累")."""
    return _holds_value(body) or fires("address.kin", body) or _NAMED.search(body) is not None


def _clause_fact(value: str) -> Candidate:
    """A clause no rule reads, as a fact under the subject it names, or one made of its words."""
    canonical = canonical_subject(value)
    return Candidate(action="add", kind="fact", subject=canonical or topic_subject("fact", value), value=value,
                     quote=value, canonical=canonical is not None)


def _enumerates(parts: list[str]) -> bool:
    """Clauses that list the parts of one thing: one opens as a list's item does (``clause.enumeration``: "一个5岁",
    "ages 5 and 8")."""
    return any(fires("clause.enumeration", p.strip(TRIM)) for p in parts)


def _holds_value(part: str) -> bool:
    """A day, a time of day or an amount is said in ``part``."""
    return says_when(part) or bool(amounts(part))


def _substance(body: str) -> int:
    """How much a clause says: its Chinese characters and its English words, one each."""
    return len(CJK_CHAR.findall(body)) + len(re.findall(r"[A-Za-z]+", body))


# Kinds a clause may hold that replace an earlier value of theirs.
SUPERSEDING_KINDS = ("fact", "constraint", "preference", "decision")


def news_of_change(parts: list[str]) -> bool:
    """A clause tells of a change ("改到", "其实", "一共") — not a head count that says its total ("一共4个人" of
    "下周六出发，10月18号，一共4个人": a user's walk, round twenty-five, kept the sentence whole under the head count, so
    the count's change left the old one standing in it)."""
    return any(fires("change.said", p) and not ((said := classify(p)) is not None and said.subject == "head count"
                                                 and said.action == "add") for p in parts)


def stands_alone(candidate: Candidate, sentence: str = "") -> bool:
    """A clause's candidate that is an item on its own: a fact only under a named subject (a name,
    an allergy, a job; not "my monitors are huge"), a goal, a choice or a rule; a liking or a
    guess in a clause is the reason for the rest of the sentence, or part of its question."""
    if candidate.kind == "fact":
        # (a day said in a clause is when something happens, which a later day moves: "My fiancée is Lin, and we're
        # looking at October 10 next year for the date" kept the date in the name, and the move rewrote the name)
        # (not the reason a day is changed: "看了下7月机票太贵了 改6月25号出发吧")
        return candidate.canonical or candidate.subject.startswith(WHEN_PREFIX) and bool(sentence) \
            and not (CHANGE.search(sentence) or CORRECT.search(sentence) or MOVED.search(sentence)
                     or news_of_change(clauses(sentence)))
    return candidate.kind in ("goal", "decision", "constraint", "directive")
