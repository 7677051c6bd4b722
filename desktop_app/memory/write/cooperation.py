"""Merging what the model proposes with what the rules already wrote, into one patch.

The rules run first and instantly (the floor). The model pass, in the background, then:
- **deduplicates**: an entry the state already holds writes nothing;
- **refines**: an item the rules took from the same message is restated in normal form
  ("budget: 300 EUR" for "my budget is 300 euros"), or split into one item per subject, but
  only when every number of the rule item survives in what replaces it — nothing a rule
  wrote is dropped silently;
- **fills in** what the rules missed;
- **supersedes** the older item of the same subject ("venue capacity: 150" → "…: 120"), or
  asks first when that item was stated explicitly by the user, or is a standing rule the
  entry does not clearly replace;
- **revokes** the one rule a cancellation clearly names; an unclear one goes to pending and
  the assistant asks.

Everything is pure: :func:`merge_ops` reads the vetted entries, the message and the state,
and returns the operations; the caller applies them as one patch against ``state_version``.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from desktop_app.lexicon import CJK, LANGS, alternatives, each_pattern, fires, lexicon
from desktop_app.memory.core.models import PROFILE_SUBJECTS, REVOKE_MARK, MemoryItem, Message
from desktop_app.memory.lang.text import canonical_subject, clip, marks_aside, numbers, term_set
from desktop_app.memory.write.kind_cues import settle_kind
from desktop_app.memory.write.mood import negated, rx
from desktop_app.memory.write.patches import ORIGIN_RANK, AddItem, PatchOp, SetStatus
from desktop_app.memory.write.proposals import Proposal
from desktop_app.memory.write.sentence import CHANGE, CORRECT, dropped_value
from desktop_app.memory.write.vetting import Vetted

REVOCABLE = ("directive", "constraint", "preference", "decision")
SESSION_ONLY_KINDS = ("decision", "goal", "open_question")
_NORM = re.compile(r"[\s，,。.!！?？；;：:\"'“”]+")


# Words in the quote itself that say a value changed ("so 9 of us now", "一共35人", "moved it to 11:40"):
# the lexicon's ``change.said``, case-insensitive.
CHANGED = rx(alternatives("change.said", ("en", "zh")))
# A number and what it counts: a word in Latin letters or one Chinese character.
_UNIT = re.compile(rf"(\d+(?:[.,:]\d+)*)\s*([A-Za-z]+|[{CJK}])")
# Words beside a number that count nothing ("3 to 5", "10 am"): the lexicon's ``unit.not_counted``.
_NOT_UNITS = frozenset(word.lower() for lang in LANGS for word in lexicon(lang)["unit"]["not_counted"]["words"])


def _units(text: str) -> set[str]:
    """What the numbers of ``text`` count ("35人" → 人, "150 guests" → guests, "March 10" → march)."""
    found = {m.group(2).lower() for m in _UNIT.finditer(text)}
    found |= {m.group(1).lower() for m in re.finditer(r"([A-Za-z]+)\s+\d", text)}
    return found - _NOT_UNITS


def says_changed(quote: str) -> bool:
    """The quote itself says a value changed (not only the message around it)."""
    return bool(CHANGED.search(quote) or CHANGE.search(quote) or CORRECT.search(quote))


class MergePlan(BaseModel):
    """The operations of one model pass, and a line for each entry saying what became of it."""

    ops: list[PatchOp] = []
    notes: list[str] = []


def subject_key(subject: str) -> str:
    """The key items are matched by: a canonical subject ("budget") or the lowercased words."""
    return canonical_subject(subject) or " ".join(subject.lower().split())


def presented(subject: str, value: str) -> str:
    """The value as stored: "subject: value", unless the value already starts with its subject."""
    return value if _norm(value).startswith(_norm(subject)) else f"{subject}: {value}"


def _norm(text: str) -> str:
    return _NORM.sub("", text.lower())


def _subject_terms(text: str) -> set[str]:
    return term_set(text.split(":", 1)[-1] if text.startswith(("fact:", "directive:", "constraint:")) else text)


def same_subject(item: MemoryItem, key: str, subject: str) -> bool:
    """Whether ``item`` is about the subject an entry names (key, canonical form, or most words)."""
    if item.subject == key or subject_key(item.subject) == key:
        return True
    mine, theirs = _subject_terms(subject), _subject_terms(item.subject) | _subject_terms(item.value.split(":", 1)[0])
    if not mine or not theirs:
        return False
    return len(mine & theirs) * 2 >= max(len(mine), 2) and len(mine & theirs) * 3 >= len(theirs)


def _held_by_name(subject: str) -> bool:
    """``subject`` is one the program names and reads (a profile subject, "allergy:friend", or a canonical one)."""
    return subject.partition(":")[0] in PROFILE_SUBJECTS or canonical_subject(subject) is not None


def _compatible(item: MemoryItem, kind: str) -> bool:
    if (item.kind == "directive") != (kind == "directive"):
        return False
    return item.kind not in ("goal", "open_question") or item.kind == kind


def _also_holds(value: str, mine: MemoryItem, own: list[MemoryItem]) -> MemoryItem | None:
    """Another item the rules took from the same message that ``value``, restating ``mine``, holds too."""
    held = marks_aside(value)
    return next((i for i in own if i.id != mine.id and i.status == "active" and len(marks_aside(i.value)) >= 4
                 and marks_aside(i.value) in held), None)


def _overlaps(item: MemoryItem, quote: str) -> bool:
    mine, theirs = _norm(quote), _norm(item.source_quote or item.value)
    return bool(mine) and bool(theirs) and (mine in theirs or theirs in mine or len(term_set(quote) & term_set(theirs)) >= 2)


# Canonical subjects that belong to a task, whatever the model says: never the profile.
TASK_SUBJECTS = ("budget", "deadline", "length", "format", "audience")


# Words about the user alone, and about a group the user is part of (the lexicon's ``address.me``,
# ``address.us``), case-insensitive.
_ABOUT_ME = rx(alternatives("address.me", ("en", "zh")))
_ABOUT_US = rx(alternatives("address.us", ("en", "zh")))


def _scope(entry: Proposal, key: str) -> str:
    """The profile takes facts about the user, never task limits, decisions, goals or speculation,
    and never what a group plans ("we are 14 people"): the quote must speak of the user."""
    if entry.kind in (*SESSION_ONLY_KINDS, "constraint") or key in TASK_SUBJECTS:
        return "session"
    if key in PROFILE_SUBJECTS:
        return "profile"
    personal = _ABOUT_ME.search(entry.quote) is not None and _ABOUT_US.search(entry.quote) is None
    return "profile" if entry.scope == "profile" and personal else "session"


def merge_ops(vetted: list[Vetted], message: Message, items: list[MemoryItem]) -> MergePlan:
    """The patch operations for the vetted entries of ``message`` given the state ``items``
    (active and pending, as the session sees them)."""
    plan = MergePlan()
    active = [i for i in items if i.status == "active"]
    replaced: set[int] = set()
    written: list[object] = []  # normalised values (and subject + numbers) this pass already adds
    own = [i for i in active if i.source_message_id == message.id and i.origin in ("rule", "user")]
    coverage = _coverage(vetted, own)
    for v in vetted:
        entry = v.proposal
        if v.verdict == "drop":
            plan.notes.append(f"dropped “{clip(entry.quote, 40)}”: {v.reason}")
            continue
        if entry.change == "cancel":
            _cancel(plan, entry, active, message, replaced)
            continue
        kind = settle_kind(entry.kind, v.sentence or entry.quote)
        if kind == "goal" and _has_goal(active, message) and not fires("request.task", v.sentence or entry.quote):
            # The task has its goal; a detail of it ("国庆10月1号出发玩6天", "the bonus came in") is a
            # fact, not a second goal. A new request ("now help me write …") is still a goal.
            kind = "fact"
        if kind == "open_question" and entry.kind != kind:
            # Undecided: the user's own sentence is the question ("Lisbon or Porto" stays whole).
            sentence = (v.sentence or entry.quote).strip(" 。.!！")[:120]
            if _norm(sentence) in written:
                continue
            written.append(_norm(sentence))
            entry = entry.model_copy(update={"value": sentence})
        entry = entry.model_copy(update={"kind": kind})
        dropped, kept_words = dropped_value(entry.value)
        if dropped and kept_words:  # "周四: 说错了，是下周四，不是周三" holds the old day it drops
            entry = entry.model_copy(update={"value": kept_words})
        key = subject_key(entry.subject)
        value = presented(entry.subject, entry.value)
        counted = (key, tuple(sorted(numbers(entry.value)))) if numbers(entry.value) else None
        if _norm(value) in written or (counted and counted in written) or _duplicate(items, key, entry, message):
            plan.notes.append(f"already known: {clip(value, 50)}")
            continue
        status = "pending" if v.verdict == "pending" else "active"
        base = {"kind": entry.kind, "subject": key, "value": value, "origin": "model",
                "source_message_id": message.id, "source_quote": entry.quote, "scope": _scope(entry, key)}
        mine = next((i for i in own if i.id not in replaced and _overlaps(i, entry.quote)), None)
        if mine is not None and mine.kind == "open_question" and entry.kind != "open_question":
            plan.notes.append(f"kept as speculation: {clip(mine.value, 50)}")
            continue
        # Speculation ("maybe we move it to 10") is an open question beside the value, never its replacement.
        older = None if entry.kind == "open_question" else _older(active, replaced, message, entry, key)
        if older is not None and _newer_than(older, message):
            # Written after the message this pass reads (a later statement, your correction): the
            # pass is stale about it and changes nothing.
            plan.notes.append(f"#{older.id} is newer than this message: kept")
            continue
        if mine is not None and mine.kind == "goal" and (coverage.get(mine.id, False) or (
                term_set(entry.value) and term_set(entry.value) <= term_set(mine.value))):
            # (Run N: "hosting dinner party" beside the goal "I'm hosting a dinner party on Saturday the 18th…".)
            # The plan stays in the user's words ("party: …" would turn it into a detail of itself).
            plan.notes.append(f"kept the goal #{mine.id} in the user's words")
            continue
        target = mine if mine is not None and coverage.get(mine.id, False) else older
        if target is not None and (spanned := _also_holds(value, target, own)):
            # Run N: "friend Priya: Dietary stuff: my friend Priya is vegetarian, and Jake has a shellfish allergy"
            # restated the diet and held the allergy the rules had apart: one thing is one item.
            plan.notes.append(f"kept #{target.id}: the entry also holds #{spanned.id}")
            continue
        if mine is not None and coverage.get(mine.id, False) and older is None \
                and mine.subject.partition(":")[0] in PROFILE_SUBJECTS and not _held_by_name(key):
            # (A user's walk, round twenty-five: "allergy:friend" restated as "friend: <the sentence>" was no allergy
            # any more to the reply guard.) The rules' item under the subject the program knows stays.
            plan.notes.append(f"kept #{mine.id} under its subject {mine.subject}")
            continue
        if mine is not None and coverage.get(mine.id, False):
            if older is not None and mine.status == "active":
                # The rules kept this message's change as a new item ("it: 11:40"); the model knows
                # which earlier value it changes: the restated value replaces that one, and the
                # rule item it restates is superseded too.
                plan.ops.append(SetStatus(item_id=mine.id, status="superseded", action="supersede",
                                          reason="restated by the model's pass"))
                replaced.add(mine.id)
            else:
                kind = mine.kind if mine.is_hard and entry.kind not in ("directive", "constraint") else entry.kind
                scope = "profile" if mine.scope == "profile" else base["scope"]
                plan.ops.append(AddItem(**{**base, "kind": kind, "scope": scope, "status": mine.status},
                                        supersedes=mine.id, refines=True, pinned=mine.pinned))
                replaced.add(mine.id)
                written += [_norm(value), counted]
                plan.notes.append(f"normal form of #{mine.id}: {clip(value, 50)}")
                continue
        elif mine is not None and subject_key(mine.subject) == key:
            plan.notes.append(f"kept the rule item #{mine.id} (it holds values the entry lacks)")
            continue
        if older is not None:
            explicit = ORIGIN_RANK.get(older.origin, 0) > ORIGIN_RANK["model"]
            unclear_rule = older.kind == "directive" and entry.change != "update"
            # A profile item is every session's: an inferred change to it is asked first, unless
            # the quote says it changed and the sentence names it ("so my diet is pescatarian now").
            shared = older.scope == "profile" and not (says_changed(entry.quote) and _named(older, v.sentence or entry.quote))
            status = "pending" if explicit or unclear_rule or shared or status == "pending" else "active"
            # A new value of the same thing is the same kind of memory (a changed choice is still a
            # choice, though the model called "navy works better" a fact).
            plan.ops.append(AddItem(**{**base, "kind": older.kind, "subject": older.subject, "status": status,
                                       "scope": "profile" if older.scope == "profile" else base["scope"]},
                                    supersedes=older.id))
            if status == "active":
                replaced.add(older.id)
            written += [_norm(value), counted]
            verb = "replaces" if status == "active" else "asks to replace"
            plan.notes.append(f"{verb} #{older.id}: {clip(value, 50)}")
            continue
        plan.ops.append(AddItem(**base, status=status))
        written += [_norm(value), counted]
        plan.notes.append(f"{'new' if status == 'active' else 'pending'}: {clip(value, 50)}")
    return plan


def _has_goal(active: list[MemoryItem], message: Message) -> bool:
    """An active goal set before ``message``."""
    return any(i.kind == "goal" and i.source_message_id != message.id for i in active)


def _older(active: list[MemoryItem], replaced: set[int], message: Message, entry: Proposal, key: str) -> MemoryItem | None:
    """The earlier item an entry gives a new value for: the same subject and shape; for an
    explicit update, else the one recent item of that shape sharing a word of its subject."""
    pool = [i for i in reversed(active) if i.id not in replaced and i.source_message_id != message.id
            and _compatible(i, entry.kind) and _same_shape(i, entry.value)]
    found = next((i for i in pool if same_subject(i, key, entry.subject)), None)
    if found is not None:
        return found
    if entry.change == "update":
        words = _subject_terms(entry.subject)
        sharing = [i for i in pool if words & (_subject_terms(i.subject) | _subject_terms(i.value.split(":", 1)[0]))]
        if len(sharing) == 1:
            return sharing[0]
    return _changed_value_of(pool, entry) if numbers(entry.value) and says_changed(entry.quote) else None


def _named(item: MemoryItem, sentence: str) -> bool:
    """The sentence itself names the item's subject ("so pescatarian now" names the diet): a
    model's label alone ("name" for "我搬到重庆了") never changes a profile item unasked."""
    key = subject_key(item.subject)
    return canonical_subject(sentence) == key or bool(_subject_terms(item.subject) & term_set(sentence))


def _changed_value_of(pool: list[MemoryItem], entry: Proposal) -> MemoryItem | None:
    """The one earlier value a quote that says "changed" gives a new number for, though the model
    named the subject differently: it counts the same thing ("30人" → "一共35人", "March 10" →
    "to March 17") or its source names a word of the quote ("the venue holds 150" → "the venue
    can only take 120"). None when no item, or more than one, fits."""
    units = _units(entry.value) | _units(entry.quote)
    words = term_set(entry.quote) - set(numbers(entry.quote))
    fitting = [i for i in pool if numbers(i.value) and (
        units & (_units(i.value) | _units(i.source_quote or ""))
        or words & (_subject_terms(i.subject) | term_set(i.source_quote or i.value)))]
    return fitting[0] if len(fitting) == 1 else None


def _newer_than(item: MemoryItem, message: Message) -> bool:
    """Whether ``item`` states something said after ``message``: it comes from a later message, or
    from a command (a correction in the panel, ``/fact``) given after the message was written."""
    if item.source_message_id is not None:
        return item.source_message_id > message.id
    return item.created_at > message.created_at


def _coverage(vetted: list[Vetted], own: list[MemoryItem]) -> dict[int, bool]:
    """For each rule item of the message: do the entries overlapping it keep all its numbers?"""
    out = {}
    for item in own:
        kept = [v.proposal for v in vetted if v.verdict != "drop" and v.proposal.change != "cancel"
                and _overlaps(item, v.proposal.quote)]
        values = " ".join(p.value + " " + p.subject for p in kept)
        same_polarity = all(negated(p.value) == negated(item.value) for p in kept) if negated(item.value) else True
        # A plan restated as a detail of itself loses the plan ("party: 20 guests" for "I'm hosting a party
        # on Saturday"), and a restatement that drops a name drops what it names ("trip length: 5 days"
        # for "We're going to Kyoto for 5 days in October").
        plan_kept = item.kind != "goal" or any(p.kind == "goal" for p in kept)
        names_kept = all(name.lower() in values.lower() for name in _names(item.value))
        out[item.id] = bool(kept) and same_polarity and plan_kept and names_kept \
            and all(n in numbers(values) for n in numbers(item.value))
    return out


# A name in English text: a capitalised word that does not open a sentence ("Kyoto", "Marriott").
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b(?!I\b)[A-Z][a-z]+")


def _names(text: str) -> set[str]:
    """The names ``text`` says: capitalised English words, and places said as Chinese says them ("杭州" of "去杭州玩两天")."""
    places = {m.group("name") for lang in LANGS for pattern in each_pattern("name.place", lang) for m in pattern.finditer(text)}
    return set(_NAME.findall(text.strip())) | places


def _duplicate(items: list[MemoryItem], key: str, entry: Proposal, message: Message) -> bool:
    """The state already says this: the same subject with the same value (numbers and words),
    or the very same presented value. Rule items of this message are refined, not matched here."""
    value_terms, value_numbers = term_set(entry.value), set(numbers(entry.value))
    shown = _norm(presented(entry.subject, entry.value))
    for item in items:
        if item.status not in ("active", "pending"):
            continue
        if item.source_message_id == message.id and item.origin in ("rule", "user") and _norm(item.value) != shown:
            continue
        if _norm(item.value) == shown:
            return True
        if subject_key(item.subject) == key and value_terms and value_terms <= term_set(item.value) \
                and value_numbers <= set(numbers(item.value)):
            return True
    return False


def _same_shape(old: MemoryItem, value: str) -> bool:
    """A new value can replace an old one of the same shape: both with numbers, or both without
    ("day: Friday" is not replaced by "4 now" because a model named the subject wrongly)."""
    return bool(numbers(old.value.split(":", 1)[-1])) == bool(numbers(value))


def _cancel(plan: MergePlan, entry: Proposal, active: list[MemoryItem], message: Message, replaced: set[int]) -> None:
    words = term_set(f"{entry.subject} {entry.value} {entry.quote}")
    key = subject_key(entry.subject)
    scored = sorted(((len(words & (term_set(i.value) | _subject_terms(i.subject))) + (3 if subject_key(i.subject) == key else 0), i)
                     for i in active if i.kind in REVOCABLE and i.source_message_id != message.id
                     and i.id not in replaced), key=lambda pair: (-pair[0], -pair[1].id))
    scored = [pair for pair in scored if pair[0] > 0]
    if not scored:  # "drop that rule": which one? the latest rules are the candidates
        scored = [(0, i) for i in reversed(active) if i.kind == "directive" and i.source_message_id != message.id]
        if not scored:
            plan.notes.append(f"nothing to cancel for “{clip(entry.quote, 40)}”")
            return
    clear = scored[0][0] >= 3 or (scored[0][0] >= 2 and (len(scored) == 1 or scored[0][0] >= scored[1][0] + 2))
    if clear and scored[0][1].scope != "profile":
        target = scored[0][1]
        plan.ops.append(SetStatus(item_id=target.id, status="revoked", action="revoke", reason=entry.quote))
        replaced.add(target.id)
        plan.notes.append(f"revoked #{target.id}: {clip(target.value, 50)}")
        return
    options = [item.id for _, item in scored[:4]]
    plan.ops.append(AddItem(kind="directive", subject="revoke", value=f"{REVOKE_MARK}{clip(entry.quote, 200)}",
                            status="pending", origin="model", source_message_id=message.id, source_quote=entry.quote,
                            details={"proposal": "revoke", "candidates": options}))
    plan.notes.append(f"asks which rule to drop: {', '.join(f'#{i}' for i in options)}")
