"""Does the reply agree with what memory holds? The program's check of every reply, no model.

The model may state an old value as current (or a budget memory never held), propose a total
over the budget, ignore a standing rule it was given, apply a rule the user dropped, or stop at
the length limit. Each finding names the memory item it concerns, so the chat can ask once more
with a one-line correction and otherwise show the conflict under the reply. Pure and
deterministic; the words it reads (history words, limit cues, units, list rules) live in
``assets/lexicon``.

What it cannot check it does not guess: a value without a number is only compared with the
reply when the two share a unit, a date after a deadline is not read, and "conclusion first" is
left to the reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from desktop_app.lexicon import CJK, LANGS, alternatives, cue, fires, first_match, lexicon
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.core.records import GuardFinding
from desktop_app.memory.food_guard import offered
from desktop_app.memory.lang.amounts import Amount, amounts
from desktop_app.memory.lang.dates import month_days
from desktop_app.memory.lang.text import (
    CANONICAL_SUBJECTS,
    REPLY_SENTENCE,
    ZH_STOPCHARS,
    numbers,
    split_sentences,
    term_set,
    without_lead_in,
)
from desktop_app.memory.prompt.render import in_language, plain_value
from desktop_app.memory.reply_health import reply_language, rule_language
from desktop_app.prompts import guard_text

# A value compared as words holds no amount (a number up to a day of the month may be a date) and
# only a few words of its own ("Rome", "vegetarian", "国庆去三亚"), not a whole sentence.
MAX_DAY = 31
MAX_NAMED_TERMS = 8
HISTORY_WINDOW = 24  # characters either side of an old value where a history word ("was", "原来") counts
_LIST_LINE = re.compile(r"(?m)^\s*(?:[-*•·]|\d+[.)、]|[（(]?\d+[)）])\s+\S")
_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")
_YEAR = range(1900, 2101)


# "1. ", "2、": a number at a line's start that only counts the lines of a list
_LIST_NUMBER = re.compile(r"\d{1,2}(?:[.)](?:\*\*)?\s|[、）])")
_LIST_PREFIX = re.compile(r"[\s#*>（(]*")


def _numbering(text: str, amount: Amount) -> bool:
    """``amount`` only numbers a line of a list or a heading ("1. ", "6、", "### 5. ", "**2.** ")."""
    line_start = text.rfind("\n", 0, amount.start) + 1
    return bool(_LIST_PREFIX.fullmatch(text, line_start, amount.start) and _LIST_NUMBER.match(text, amount.start))


def _in_subject(unit: str, subject: str) -> bool:
    """Whether a lower-cased subject holds a piece that names ``unit`` (the lexicon's ``unit.in_subject``)."""
    return any(piece in subject for lang in LANGS for piece in lexicon(lang)["unit"]["in_subject"].get(unit, []))


def _unit_of_item(item: MemoryItem, amount: Amount) -> str | None:
    """What an item's number counts: its own unit, else what its subject says (a budget is money) —
    unless another number of the value already counts that ("我们一共3个人，…5岁的儿子" under 人数: the 3
    is the head count, the 5 an age; "蜜月总预算3.5万，两个人" under 预算: 3.5万 is still the money)."""
    if amount.unit:
        return amount.unit
    subject = item.subject.lower()
    if fires("unit.money", subject) or _in_subject("money", subject):
        unit = "money"
    elif fires("unit.people", subject) or _in_subject("people", subject):
        unit = "people"
    else:
        return None
    return None if any(other.unit == unit for other in amounts(item.value)) else unit


def _same_kind(reply: Amount, item_unit: str | None, value: float) -> bool:
    """A reply's number counts the same thing as an item's: same unit, or a bare amount of money
    large enough to be one (a bare "8000" next to a budget of 8000 yuan; not a year, not "3")."""
    if reply.unit is not None or item_unit is None:
        return reply.unit == item_unit and item_unit is not None
    return item_unit == "money" and reply.value >= 100 and not (reply.value.is_integer() and int(reply.value) in _YEAR)


def _near(text: str, amount: Amount, concept: str, window: int = HISTORY_WINDOW) -> bool:
    return fires(concept, text[max(0, amount.start - window):amount.end + window])


def replacement(item: MemoryItem, items: Sequence[MemoryItem]) -> MemoryItem | None:
    """The active item that replaced ``item`` (following a chain of replacements), or None."""
    by_old = {i.supersedes: i for i in items if i.supersedes is not None}
    seen: set[int] = set()
    current = by_old.get(item.id)
    while current is not None and current.id not in seen:
        if current.status == "active":
            return current
        seen.add(current.id)
        current = by_old.get(current.id)
    return None


def _superseded(reply: str, found: list[Amount], active: Sequence[MemoryItem],
                history: Sequence[MemoryItem]) -> list[GuardFinding]:
    out: list[GuardFinding] = []
    everything = [*active, *history]
    for old in history:
        if old.status != "superseded":
            continue
        new = replacement(old, everything)
        if new is None:
            continue
        new_values = {a.value for a in amounts(new.value)}
        if any(a.value in new_values for a in found):
            continue  # the current value is there: the old one is history beside it
        for stale in (a for a in amounts(old.value) if a.value not in new_values):
            unit = _unit_of_item(old, stale)
            hit = next((a for a in found if a.value == stale.value and _same_kind(a, unit, a.value)
                        and not _near(reply, a, "guard.history")), None)
            if hit is not None:
                out.append(GuardFinding(kind="superseded", item=old.id, detail=f"states {reply[hit.start:hit.end]} "
                                        f"from “{old.value}”, replaced by “{new.value}”", current=new.value,
                                        old=old.value))
                break
        else:
            word = _stale_word(reply, old, new)
            if word is not None:
                out.append(GuardFinding(kind="superseded", item=old.id, detail=f"states “{word}” from “{old.value}”, "
                                        f"replaced by “{new.value}”", current=new.value, old=old.value))
    return out


BUDGET_WINDOW = 24  # characters before an amount where "the budget is" may stand (after it: "… budget")


def _misstated(reply: str, found: list[Amount], active: Sequence[MemoryItem], history: Sequence[MemoryItem],
               user_text: str) -> list[GuardFinding]:
    """A budget the reply states that memory never held ("预算为8000元" when it is 2.5万 and was 2万;
    the 0.5B makes one up): only where memory holds one budget, the reply calls the amount the
    budget ("the budget is", not "the food budget"), and neither memory nor the message has it."""
    budgets = [i for i in active if i.kind in ("constraint", "fact", "decision")
               and fires("guard.ceiling", f"{i.subject} {i.value}")
               and any(_unit_of_item(i, a) == "money" for a in amounts(i.value))]
    values = {a.value for i in budgets for a in amounts(i.value) if _unit_of_item(i, a) == "money"}
    if len(values) != 1:
        return []  # no budget, or several (food, hotel, total): which one a sentence means is not read
    held = {a.value for i in (*active, *history) for a in amounts(i.value)} | {a.value for a in amounts(user_text)}
    for a in found:
        if a.value in held or not _same_kind(a, "money", a.value) or _numbering(reply, a) \
                or _near(reply, a, "guard.per_person", window=12) or _near(reply, a, "guard.per_period", window=12) \
                or _near(reply, a, "guard.history"):
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
    found = [a for a in amounts(reply) if not _numbering(reply, a)]
    sentences = [(m.start(), m.end()) for m in _SENTENCE.finditer(reply) if m.group(0).strip()]
    for old in history:
        new = replacement(old, everything) if old.status == "superseded" else None
        if new is None:
            continue
        new_values = {a.value for a in amounts(new.value)}
        for stale in (a for a in amounts(old.value) if a.value not in new_values):
            unit = _unit_of_item(old, stale)
            for hit in found:
                if hit.value == stale.value and _same_kind(hit, unit, hit.value) and not _near(reply, hit, "guard.history"):
                    spans.update(span for span in sentences if span[0] <= hit.start < span[1])
        # A replaced day or name said as current ("on July 14" when it is July 21 now; run H).
        spans.update(span for span in sentences if _stale_word(reply[span[0]:span[1]], old, new) is not None)
    return [reply[start:end] for start, end in sorted(spans)]


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


def _current_terms(text: str) -> set[str]:
    """The terms of a new value outside what it marks as dropped ("Florence *instead of Rome*",
    "改去厦门，*不去三亚*")."""
    for lang in LANGS:
        pattern = cue("guard.dropped", lang)
        if pattern is not None:
            text = pattern.sub(" ", text)
    return term_set(text)


def _stale_word(reply: str, old: MemoryItem, new: MemoryItem) -> str | None:
    """A word of a replaced value that the reply states as current: the reply uses what only the
    old value said ("Rome", "vegetarian", "三亚", "May 10") in a sentence that does not mark it as
    history, and nothing that only the new value says. Names, places, diets and dates have no
    number to compare; these are compared as words."""
    if any(a.value > MAX_DAY for a in (*amounts(old.value), *amounts(new.value))):
        return None  # an amount changed, or a value was reworded around the same amount: numbers decide
    old_terms = term_set(old.value) - term_set(old.subject)
    if len(old_terms) > MAX_NAMED_TERMS:
        return None  # a whole sentence, not a named value: its other words are not what changed
    current = _current_terms(new.value)
    stale = {t for t in old_terms - current if len(t) >= 4 or t.isdigit() or _CJK_CHAR.match(t)}
    fresh = current - term_set(old.value) - term_set(new.subject)
    if not stale or not fresh:
        return None
    said = term_set(reply)
    if said & fresh:
        return None  # the current value is there: the old one is history beside it
    hits: list[str] = []
    for sentence in split_sentences(reply):
        if fires("guard.history", sentence):
            continue
        hits.extend(t for t in sorted(stale & term_set(sentence)) if t not in hits)
    if not hits:
        return None
    named = [t for t in hits if t.isdigit() or _CJK_CHAR.match(t) or _proper(t, old.value)]
    return (named or hits)[0] if named or len(hits) >= 2 else None


def _proper(term: str, text: str) -> bool:
    """``term`` is written capitalised inside ``text`` (a name or a place), not only at its start."""
    return any(m.start() > 0 and m.group()[0].isupper() for m in re.finditer(rf"(?i)\b{re.escape(term)}\b", text))


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
            unit = _unit_of_item(item, limit)
            if unit in (None, "measure") or (unit != "people" and not (ceiling or floor)):
                continue  # a measure ("3 km", "150 minutes") mixes units too freely to compare
            for a in found:
                if a.value in old_values or a.value == limit.value or not _same_kind(a, unit, a.value):
                    continue
                if unit == "money" and _near(reply, a, "guard.per_person", window=12) != per_person:
                    continue  # a price per person against a total, or a total against a per-person limit
                if unit == "people" and _near(reply, a, "guard.per_group", window=8):
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
    cjk = len(_CJK_CHAR.findall(reply))
    return (cjk, "characters") if cjk > len(_LATIN_WORD.findall(reply)) else (len(_LATIN_WORD.findall(reply)), "words")


def _directive_broken(rule: MemoryItem, reply: str) -> str | None:
    """Why ``reply`` breaks the checkable rule ``rule`` (None: kept, or not checkable)."""
    text = rule.value
    for name, counted in (("guard.length_words", "words"), ("guard.length_chars", "characters")):
        m = first_match(name, text)
        if m is not None:
            limit = int(m.group("n"))
            count = len(_LATIN_WORD.findall(reply)) if counted == "words" else len(_CJK_CHAR.findall(reply))
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


# What a summary of "everything I asked for" must name: the current values (not the rules on the
# reply or what is still undecided; the goal only where it holds a date or a number, see _part_of_plan).
RECAP_KINDS = ("fact", "constraint", "decision", "preference")
MAX_RECAP = 8  # values named in one correction
RECAP_SHARE = 0.5  # more than this share of a wordy value's terms (or Chinese characters) in one sentence names it


def _mentioned(item: MemoryItem, reply: str, said: list[Amount]) -> bool:
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
        counted = [a for a in said if not _numbering(reply, a)]
        spelled = {n for lang in LANGS for word, n in lexicon(lang)["number"].get("spelled", {}).items()
                   if re.search(rf"\b{re.escape(word)}\b", reply, re.IGNORECASE)}
        return all(any(abs(a.value - v.value) < 1e-9 and _counts_alike(reply, a, v, item) for a in counted)
                   or v.value in spelled for v in own)
    words = {t for t in term_set(value) if not _CJK_CHAR.match(t)}
    chars = set(_CJK_CHAR.findall(value))
    chars = (chars - ZH_STOPCHARS) or chars
    if not words and not chars:
        return True
    for sentence in (m.group(0) for m in _SENTENCE.finditer(reply)):
        if words and len(words & term_set(sentence)) > RECAP_SHARE * len(words):
            return True
        if chars and len(chars & set(_CJK_CHAR.findall(sentence))) > RECAP_SHARE * len(chars):
            return True
    return False


_UNIT_FOLLOWS = re.compile(rf"\s*[A-Za-z{CJK}]")
UNIT_WINDOW = 16  # characters before a bare number where its label ("人数：", "guests:") may stand


def _counts_alike(reply: str, said: Amount, own: Amount, item: MemoryItem) -> bool:
    """The reply's number counts what the item's does: the same unit, or a bare number (nothing
    counted right after it, or the unit's label just before: "人数：5", "Guests: 10") where the item
    or its subject says what it counts — "6个月" does not name "玩6天", nor "(10 now)" "head count: 10"."""
    unit = _unit_of_item(item, own)
    if said.unit is not None and unit is not None:
        return said.unit == unit
    if said.unit is not None or unit is None:
        return True
    if not _UNIT_FOLLOWS.match(reply, said.end):
        return True
    before = reply[max(0, said.start - UNIT_WINDOW):said.start].lower()
    return _in_subject(unit, before) or (
        bool(term_set(item.subject)) and term_set(item.subject) <= term_set(before))


def left_out(reply: str, active: Sequence[MemoryItem], user_text: str,
             history: Sequence[MemoryItem] = ()) -> list[MemoryItem]:
    """The current values a reply to "summarise everything and give me the final plan" does not
    name (at most ``MAX_RECAP``); empty when ``user_text`` asks for no such summary. A value said in
    the sentence that also held an old one ("4 of us, flying out July 14", ``history``) is asked for
    without the clauses stating the old value ("flying out July 14"; ``_fresh_part``)."""
    if not user_text or not fires("request.recap", user_text):
        return []
    found = amounts(reply)
    left = [i for i in active if _part_of_plan(i) and not _mentioned(i, reply, found) and not _part_of_another(i, active)]
    past = list(history)
    out: list[MemoryItem] = []
    for item in left:
        if not _superseded(item.value, amounts(item.value), active, past):
            out.append(item)
        elif (fresh := _fresh_part(item, active, past)) is not None and not _mentioned(fresh, reply, found):
            out.append(fresh)
    return out[:MAX_RECAP]


_CLAUSE = re.compile(alternatives("clause.split", ("zh", "en")), re.IGNORECASE)


def _fresh_part(item: MemoryItem, active: Sequence[MemoryItem], history: list[MemoryItem]) -> MemoryItem | None:
    """The clauses of a value that state no replaced value, as the item ("Jake has a shellfish allergy"
    of "Priya is vegetarian, and Jake has a shellfish allergy" once Priya is vegan): the rest of a
    sentence that also held an old value is still asked for. None when every clause is stale."""
    parts = [without_lead_in(p.strip(), edge=" ,;，；") for p in _CLAUSE.split(plain_value(item.value))]
    parts = [p for p in parts if p.strip()]
    kept = [p for p in parts if not _superseded(p, amounts(p), active, history)]
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


def _unlabelled(value: str) -> str:
    """A value without its "label: " when the rest names it anyway ("tree nut allergy: Mia has a tree
    nut allergy" → "Mia has a tree nut allergy"; "flight: way cheaper" stays)."""
    label, colon, rest = value.partition(": ")
    if not colon or len(label) > 30 or not rest.strip():
        return value
    return rest.strip() if term_set(label) <= term_set(rest) else value


def still_open(reply: str, active: Sequence[MemoryItem], user_text: str) -> list[MemoryItem]:
    """The user's open questions a reply to "summarise everything" does not name ("鱼要不要整条蒸？"
    asked two turns before): a final plan says what is still to decide. Empty for another message."""
    if not user_text or not fires("request.recap", user_text):
        return []
    found = amounts(reply)
    return [i for i in active if i.kind == "open_question" and not _mentioned(i, reply, found)
            and not _part_of_another(i, active)][:MAX_RECAP]


def completion(left: Sequence[MemoryItem], lang: str, open_questions: Sequence[MemoryItem] = ()) -> str:
    """Lines that add to a summary of everything the values it left out (``left_out``), one per
    line under a short lead-in, in ``lang``, then the questions still open it did not name
    (``still_open``) under another; "" when nothing was left out. The program states what memory
    holds when the model, asked once more, still leaves it out, with its labels in ``lang``
    ("budget: 2.5万" is "预算：2.5万" in a Chinese reply)."""
    text = guard_text(lang)
    blocks = [f"{text[lead]}\n" + "\n".join(f"- {in_language(_unlabelled(plain_value(i.value)), lang)}" for i in items)
              for lead, items in (("recap", left), ("still_open", open_questions)) if items]
    return "".join(f"\n\n{block}" for block in blocks)


def _omitted(reply: str, active: Sequence[MemoryItem], history: Sequence[MemoryItem], user_text: str,
             lang: str) -> list[GuardFinding]:
    """A summary of everything that leaves current values out."""
    left = left_out(reply, active, user_text, history)
    if not left:
        return []
    values = guard_text(lang)["join"].join(plain_value(i.value) for i in left)
    return [GuardFinding(kind="omitted", item=left[0].id, detail=f"leaves out {len(left)}: {values}", current=values)]


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
    findings = [*_superseded(reply, found, active, past), *limits, *misstated,
                *_directives(reply, active), *_revoked(reply, active, past, lang),
                *_omitted(reply, active, past, user_text, lang), *_ruled_out(reply, active)]
    if not finished:
        findings.append(GuardFinding(kind="cut_off", item=None, detail="stopped at the length limit"))
    return findings
