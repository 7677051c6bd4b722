"""Does the reply agree with what memory holds? The program's check of every reply, no model.

The model may state an old value as current (or a budget memory never held), propose a total
over the budget, ignore a standing rule it was given, apply a rule the user dropped, or stop at
the length limit. Each finding names the memory item it concerns, so the chat can ask once more
with a one-line correction and otherwise show the conflict under the reply. Pure and
deterministic; the words it reads (history words, limit cues, units, list rules) live in
``assets/lexicon``.

What it cannot check it does not guess: a value without a number is only compared with the
reply when the two share a unit, a date after a deadline is not read, and "conclusion first" is
left to the reader. A summary of everything is checked in :mod:`~desktop_app.memory.recap`; which
value a number or a word states, in :mod:`~desktop_app.memory.stated_values`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from desktop_app.lexicon import LANGS, cue, fires, first_match
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.core.records import GuardFinding
from desktop_app.memory.food_guard import offered
from desktop_app.memory.lang.amounts import Amount, amounts
from desktop_app.memory.lang.text import (
    CJK_CHAR,
    REPLY_SENTENCE,
    rule_language,
    split_sentences,
    term_set,
    unlabelled,
)
from desktop_app.memory.prompt.render import in_language, plain_value
from desktop_app.memory.recap import omitted
from desktop_app.memory.reply_health import reply_language
from desktop_app.memory.stated_values import (
    near,
    numbering,
    replacement,
    same_kind,
    stale_word,
    superseded,
    unit_of_item,
)
from desktop_app.memory.write.sentence import DATE
from desktop_app.memory.write.typed_values import same_when

_LIST_LINE = re.compile(r"(?m)^\s*(?:[-*•·]|\d+[.)、]|[（(]?\d+[)）])\s+\S")
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")
BUDGET_WINDOW = 24  # characters before an amount where "the budget is" may stand (after it: "… budget")


def _misstated(reply: str, found: list[Amount], active: Sequence[MemoryItem], history: Sequence[MemoryItem],
               user_text: str) -> list[GuardFinding]:
    """A budget the reply states that memory never held ("预算为8000元" when it is 2.5万 and was 2万;
    the 0.5B makes one up): only where memory holds one budget, the reply calls the amount the
    budget ("the budget is", not "the food budget"), and neither memory nor the message has it."""
    budgets = [i for i in active if i.kind in ("constraint", "fact", "decision")
               and fires("guard.ceiling", f"{i.subject} {i.value}")
               and any(unit_of_item(i, a) == "money" for a in amounts(i.value))]
    values = {a.value for i in budgets for a in amounts(i.value) if unit_of_item(i, a) == "money"}
    if len(values) != 1:
        return []  # no budget, or several (food, hotel, total): which one a sentence means is not read
    held = {a.value for i in (*active, *history) for a in amounts(i.value)} | {a.value for a in amounts(user_text)}
    for a in found:
        if a.value in held or not same_kind(a, "money", a.value) or numbering(reply, a) \
                or near(reply, a, "guard.per_person", window=12) or near(reply, a, "guard.per_period", window=12) \
                or near(reply, a, "guard.history"):
            continue
        start, end = max(0, a.start - BUDGET_WINDOW), min(len(reply), a.end + BUDGET_WINDOW)
        before = next((m.start() for lang in LANGS if (p := cue("guard.budget_stated", lang)) is not None
                       and (m := p.search(reply, start, a.start)) is not None), None)
        after = next((m.end() for lang in LANGS if (p := cue("guard.budget_after", lang)) is not None
                      and (m := p.match(reply, a.end, end)) is not None), None)
        if before is not None or after is not None:
            said = re.sub(r"\*+", "", reply[a.start if before is None else before:a.end if after is None else after])
            return [GuardFinding(kind="superseded", item=budgets[0].id, detail=f"says “{said}”; "
                                 f"memory holds “{budgets[0].value}”", current=budgets[0].value, old=said)]
    return []


DEPARTURE_WINDOW = 32  # characters before a day that the lexicon's ``guard.departure_stated`` reads


def _misdated(reply: str, active: Sequence[MemoryItem], history: Sequence[MemoryItem],
              user_text: str, lang: str) -> list[GuardFinding]:
    """A day of leaving the reply states that memory never held ("我之前说的几号出发来着是10月4号" when it is 10月1号;
    "Departure date: 2024-01-01"; the 0.5B makes one up), reported as an old value would be (the day that counts
    is said with the retry): only where memory holds one departure, the reply calls the day the departure in so
    many words ("出发日期：", "you leave on", "10月4号出发"), not as a supposition ("If you depart on July 22
    instead"), and neither the departure (now or before) nor the message holds it."""
    departures = [i for i in active if i.subject == "departure" and DATE.search(i.value)]
    if len(departures) != 1:
        return []
    # (A day other items hold is no alibi: "You leave on the 28th" when the 28th is the day home.)
    held = [m.group(0) for i in (*departures, *(i for i in history if i.subject == "departure"))
            for m in DATE.finditer(i.value)] + [m.group(0) for m in DATE.finditer(user_text)]
    sentences = [m for m in REPLY_SENTENCE.finditer(reply) if m.group(0).strip()]
    for day in DATE.finditer(reply):
        said = day.group(0)
        sentence = next((m.group(0) for m in sentences if m.start() <= day.start() < m.end()), reply)
        if any(same_when(said, h) for h in held) or fires("guard.departure_maybe", sentence) \
                or not _called_departure(reply, day.start(), day.end()):
            continue
        current = in_language(unlabelled(plain_value(departures[0].value)), lang)
        return [GuardFinding(kind="superseded", item=departures[0].id, detail=f"says “{said}” for the day of leaving; "
                             f"memory holds “{current}”", current=current, old=said)]
    return []


def _called_departure(reply: str, start: int, end: int) -> bool:
    """The day at ``start``–``end`` is called the day of leaving: by the words right before it, or right after."""
    for lang in LANGS:
        before, after = cue("guard.departure_stated", lang), cue("guard.departure_after", lang)
        if before is not None and before.search(reply, max(0, start - DEPARTURE_WINDOW), start):
            return True
        if after is not None and after.match(reply, end):
            return True
    return False


# A sentence of a reply with where it stands: up to its end mark (an English full stop only before a
# space or the end), a line's end, or the text's.
_SENTENCE = REPLY_SENTENCE


def stale_sentences(reply: str, active: Sequence[MemoryItem], history: Sequence[MemoryItem]) -> list[str]:
    """The sentences of ``reply`` that state an amount of a superseded value as current ("for our 4
    people" when it is 5 now), or a replaced day or name ("on July 14" when it is July 21), though the
    current value may stand elsewhere in the reply; a sentence that marks it as history ("was 4",
    "原为8000") or a list's own numbering are not among them."""
    everything = [*active, *history]
    spans: set[tuple[int, int]] = set()
    found = [a for a in amounts(reply) if not numbering(reply, a)]
    sentences = [(m.start(), m.end()) for m in _SENTENCE.finditer(reply) if m.group(0).strip()]
    for old in history:
        new = replacement(old, everything) if old.status == "superseded" else None
        if new is None:
            continue
        new_values = {a.value for a in amounts(new.value)}
        for stale in (a for a in amounts(old.value) if a.value not in new_values):
            unit = unit_of_item(old, stale)
            for hit in found:
                if hit.value == stale.value and (same_kind(hit, unit, hit.value) or unit is None and _counted_alike(
                        old.value, stale, reply, hit)) and not near(reply, hit, "guard.history"):
                    spans.update(span for span in sentences if span[0] <= hit.start < span[1])
        # A replaced day or name said as current ("on July 14" when it is July 21 now; run H).
        spans.update(span for span in sentences
                     if stale_word(reply[span[0]:span[1]], old, new, beside_new=True) is not None)
    return [reply[start:end] for start, end in sorted(spans)]


_COUNTED = re.compile(r"\s*([^\W\d_]+)")


def _counted_alike(said: str, amount: Amount, reply: str, hit: Amount) -> bool:
    """A number with no unit the program knows, said in ``reply`` with the word (or Chinese counter) that follows it
    in ``said`` ("7座" of "所以想要7座的" in "准备一套7座的二手车": bench health, the old seat count under the list)."""
    mine, theirs = _COUNTED.match(said, amount.end), _COUNTED.match(reply, hit.end)
    if mine is None or theirs is None:
        return False
    return _counter(mine.group(1)) == _counter(theirs.group(1))


def _counter(word: str) -> str:
    """What a number counts by the word after it: a Chinese run's first character ("座" of "座的二手车"), else the word."""
    return word[0] if CJK_CHAR.match(word) else word.lower()


def ruled_out_sentences(reply: str, active: Sequence[MemoryItem]) -> list[str]:
    """The sentences (list lines) of ``reply`` that offer a food an allergy or a diet in memory
    rules out (``memory.food_guard``)."""
    return [m.group(0) for m in _SENTENCE.finditer(reply) if m.group(0).strip() and offered(m.group(0), active)]


def without_sentences(reply: str, sentences: Sequence[str]) -> str:
    """``reply`` without ``sentences``; a line left empty (or only a list mark) goes too."""
    for sentence in sentences:
        reply = reply.replace(sentence, "", 1)
    lines = [line.rstrip() for line in reply.split("\n")]
    kept = [line for line in lines if not re.fullmatch(r"\s*(?:[-*•]|\d{1,2}[.)、])?\s*[，,:：]?\s*", line)
            or not line.strip()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def _limits(reply: str, found: list[Amount], active: Sequence[MemoryItem],
            history: Sequence[MemoryItem]) -> list[GuardFinding]:
    out: list[GuardFinding] = []
    old_values = {a.value for i in history for a in amounts(i.value)}
    for item in active:
        if item.kind not in ("constraint", "fact", "decision"):
            continue
        text = f"{item.subject} {item.value}"
        ceiling, floor = fires("guard.ceiling", text), fires("guard.floor", text)
        per_person = fires("guard.per_person", text)
        for limit in amounts(item.value):
            unit = unit_of_item(item, limit)
            if unit in (None, "measure") or (unit != "people" and not (ceiling or floor)):
                continue  # a measure ("3 km", "150 minutes") mixes units too freely to compare
            for a in found:
                if a.value in old_values or a.value == limit.value or not same_kind(a, unit, a.value):
                    continue
                if unit == "money" and near(reply, a, "guard.per_person", window=12) != per_person:
                    continue  # a price per person against a total, or a total against a per-person limit
                if unit == "people" and near(reply, a, "guard.per_group", window=8):
                    continue  # "9 per table", "每组5个人": a share of the group, not its size
                broken = (ceiling and a.value > limit.value) or (floor and a.value < limit.value) or (
                    unit == "people" and not ceiling and not floor and a.unit == "people")
                if broken:
                    out.append(GuardFinding(kind="limit", item=item.id, detail=f"{reply[a.start:a.end]} breaks "
                                            f"“{item.value}”", current=item.value))
                    break
            else:
                continue
            break
    return out


def _list_lines(reply: str) -> int:
    return len(_LIST_LINE.findall(reply))


def _length(reply: str, lang: str) -> tuple[int, str]:
    cjk = len(CJK_CHAR.findall(reply))
    return (cjk, "characters") if cjk > len(_LATIN_WORD.findall(reply)) else (len(_LATIN_WORD.findall(reply)), "words")


def _directive_broken(rule: MemoryItem, reply: str) -> str | None:
    """Why ``reply`` breaks the checkable rule ``rule`` (None: kept, or not checkable)."""
    text = rule.value
    for name, counted in (("guard.length_words", "words"), ("guard.length_chars", "characters")):
        m = first_match(name, text)
        if m is not None:
            limit = int(m.group("n"))
            count = len(_LATIN_WORD.findall(reply)) if counted == "words" else len(CJK_CHAR.findall(reply))
            if counted == "characters" and count == 0:
                count = len(reply.strip())
            return f"{count} {counted}, over {limit}" if count > limit else None
    if fires("guard.bullets_off", text):
        return f"{_list_lines(reply)} list lines" if _list_lines(reply) >= 2 else None
    if fires("guard.bullets_on", text):
        return "no list" if _list_lines(reply) == 0 and len(split_sentences(reply)) >= 3 else None
    m = first_match("guard.forbid", text)
    if m is not None:
        word = m.group("w").strip(" '\"“”")
        if len(word) >= 2 and _mentions(reply, word):
            return f"mentions “{word}”"
    return None


def _mentions(reply: str, word: str) -> bool:
    """``word`` appears in a clause of ``reply`` that does not say it is kept out ("I won't …")."""
    clauses = (c for sentence in split_sentences(reply) for c in re.split(r"[，,;；:：]", sentence))
    return any(word.lower() in clause.lower() and not fires("guard.keeps_rule", clause) for clause in clauses)


def _directives(reply: str, active: Sequence[MemoryItem]) -> list[GuardFinding]:
    out: list[GuardFinding] = []
    rules = [i for i in active if i.kind in ("directive", "constraint")]
    wanted = rule_language(i.value for i in rules if i.kind == "directive")
    said = reply_language(reply)
    if wanted and said and said != wanted:
        rule = next(i for i in reversed(rules) if rule_language([i.value]) == wanted)
        out.append(GuardFinding(kind="directive", item=rule.id, detail=f"in {said}; the rule says {wanted}",
                                current=rule.value))
    for rule in rules:
        if any(f.item == rule.id for f in out):
            continue
        why = _directive_broken(rule, reply)
        if why:
            out.append(GuardFinding(kind="directive", item=rule.id, detail=f"{why} (“{rule.value}”)", current=rule.value))
    return out


def _revoked(reply: str, active: Sequence[MemoryItem], history: Sequence[MemoryItem], lang: str) -> list[GuardFinding]:
    out: list[GuardFinding] = []
    live = {i.value for i in active}
    for rule in history:
        if rule.status != "revoked" or rule.kind != "directive" or rule.value in live:
            continue
        named = rule_language([rule.value])
        said = reply_language(reply)
        applied = bool(named and said == named and named != lang and not rule_language(i.value for i in active))
        if not applied and fires("guard.cites_rule", reply):
            applied = _directive_broken(_opposite(rule), reply) is not None
        if not applied:
            applied = _restates(rule.value, reply)
        if applied:
            out.append(GuardFinding(kind="revoked", item=rule.id, detail=f"applies the dropped rule “{rule.value}”",
                                    old=rule.value))
    return out


_QUOTED_PHRASE = re.compile(r"[“\"'‘「『]([^”\"'’」』]{2,40})[”\"'’」』]")


def _restates(rule: str, reply: str) -> bool:
    """The reply restates or carries out ``rule``: a sentence holding most of its words, or half of
    them next to "as you asked"/"老规矩", or the exact phrase the rule quoted ("end with 'Happy
    planning!'") — never in a sentence that says the rule is gone."""
    words = term_set(rule)
    for sentence in split_sentences(reply):
        if fires("guard.history", sentence):
            continue
        shared = len(words & term_set(sentence))
        if len(words) >= 3 and (shared >= 0.7 * len(words) or (fires("guard.cites_rule", sentence)
                                                                and shared >= 0.4 * len(words))):
            return True
    return any(phrase.strip() and phrase.strip() in reply for phrase in _QUOTED_PHRASE.findall(rule))


def _opposite(rule: MemoryItem) -> MemoryItem:
    """A rule's checkable opposite (a dropped "use bullet points" is applied when the reply
    would break "no bullet points")."""
    if fires("guard.bullets_on", rule.value):
        return rule.model_copy(update={"value": "no bullet points"})
    return rule.model_copy(update={"value": ""})


def _ruled_out(reply: str, active: Sequence[MemoryItem]) -> list[GuardFinding]:
    """Food an allergy or a diet in memory rules out, offered by the reply (``memory.food_guard``)."""
    return [GuardFinding(kind="ruled_out", item=o.item.id, detail=f"offers {o.food}, ruled out by “{plain_value(o.item.value)}”",
                         current=plain_value(o.item.value), old=o.food) for o in offered(reply, active)]


def guard_reply(reply: str, *, active: Sequence[MemoryItem], history: Iterable[MemoryItem] = (), lang: str = "en",
                finished: bool = True, user_text: str = "") -> list[GuardFinding]:
    """What in ``reply`` disagrees with memory: ``active`` items (current values and rules),
    ``history`` (superseded and revoked items), ``lang`` the turn's language, ``finished`` False
    when generation stopped at the length limit, ``user_text`` the message it answers (a request
    to sum everything up must name every current value)."""
    past = list(history)
    found = amounts(reply)
    limits = _limits(reply, found, active, past)
    misstated = [f for f in _misstated(reply, found, active, past, user_text) if all(g.item != f.item for g in limits)]
    misstated += [f for f in _misdated(reply, active, past, user_text, lang) if all(g.item != f.item for g in misstated)]
    findings = [*superseded(reply, found, active, past), *limits, *misstated,
                *_directives(reply, active), *_revoked(reply, active, past, lang),
                *omitted(reply, active, past, user_text, lang), *_ruled_out(reply, active)]
    if not finished:
        findings.append(GuardFinding(kind="cut_off", item=None, detail="stopped at the length limit"))
    return findings
