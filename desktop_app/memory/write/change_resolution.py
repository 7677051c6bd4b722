"""Which earlier item does a change of mind change? The model points, the program decides.

The extraction pass reads one message at a time, so a change of mind that names neither the
subject nor the unit of the value it replaces ("We got a bonus, so 2800 is okay now" after
"Keep the trip under 2000 dollars"; "还是租两室的吧" after "房子想租三室的") comes out as a
new item beside the old one, and both stay active. When a message says it changes something
and the pass replaced nothing, the model is shown the remembered items and asked
to copy the one the message changes and say its new value (the model cooperates
in its own memory).

Its answer is a proposal: the item must be one shown, the new value's numbers and words must
be the user's own, its shape (with or without a number) must match the old value's, and a
plain cancellation only revokes a rule, a limit, a like or a choice. An explicit statement or a
profile item the sentence does not name is asked about (pending), unless the extraction pass
asked to replace that very item too (two calls agree, on the user's own change words). The
items this message's pass wrote for the same value are folded into the replacement, so the new
value is stated once. :func:`resolve_ops` is pure; the job that asks the model applies it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from desktop_app.engine.protocol import ChatMessage
from desktop_app.lexicon import alternatives
from desktop_app.memory.core.models import REVOKE_MARK, MemoryItem, Message
from desktop_app.memory.lang.amounts import counted, item_counts
from desktop_app.memory.lang.text import canonical_subject, clip, marks_aside, numbers, split_sentences, term_set
from desktop_app.memory.write.cooperation import REVOCABLE, presented, says_changed, subject_key
from desktop_app.memory.write.mood import is_hypothetical, is_question, is_reported, negated, rx
from desktop_app.memory.write.patches import ORIGIN_RANK, AddItem, PatchOp, SetStatus
from desktop_app.memory.write.sentence import REVOKE
from desktop_app.memory.write.vetting import grounded, ungrounded_numbers
from desktop_app.prompts import templates

MAX_CANDIDATES = 8
RESOLVE_MAX_TOKENS = 48
CHANGEABLE = ("fact", "constraint", "directive", "preference", "decision")
# "Switch … back to", "go ahead, … fine again", "正常写就行": a standing rule let go of (the lexicon's
# ``change.let_go``), case-insensitive.
_LET_GO = rx(alternatives("change.let_go", ("en", "zh")))
# Letters that write a number ("三室"): the lexicon's ``number.numerals``.
_ZH_NUMERALS = re.compile(alternatives("number.numerals", ("zh", "en")))


NONE = "none"


def shown_values(shown: list[MemoryItem]) -> list[str]:
    """How each candidate is shown to the model (and what it copies back to name one)."""
    return [clip(item.value, 90) for item in shown]


def resolve_schema(shown: list[MemoryItem]) -> dict[str, Any]:
    """The reply: a copy of the changed item as shown (or "none") and its new value ('' = dropped).
    Copying one of the shown lines is easier for a small model than counting, and the enum
    keeps it to those lines."""
    return {
        "type": "object",
        "properties": {"old": {"enum": [*dict.fromkeys(shown_values(shown)), NONE]},
                       "new": {"type": "string", "maxLength": 80}},
        "required": ["old", "new"],
    }


class ChangeAnswer(BaseModel):
    """The model's pointer at the item a message changes."""

    old: str
    new: str = ""

    def item(self, shown: list[MemoryItem]) -> int:
        """The 1-based position of the item named, 0 for none."""
        values = shown_values(shown)
        return values.index(self.old) + 1 if self.old in values else 0


# "之前搞错了", "I got that wrong": what was said before is corrected (the lexicon's ``change.mistaken``).
_MISTAKEN = rx(alternatives("change.mistaken", ("zh", "en")))
# A value moved without the words the extraction rules know ("stretch it to $2500", "现在72.5了"; the
# lexicon's ``change.moved``).
_MOVED = rx(alternatives("change.moved", ("en", "zh")))


def mentions_change(text: str) -> bool:
    """The user's words say something changed, was wrong or is dropped, in a sentence that is
    neither a question, a hypothetical nor someone else's words."""
    return any((says_changed(s) or REVOKE.search(s) or _LET_GO.search(s) or _MISTAKEN.search(s) or _MOVED.search(s))
               and not is_question(s)
               and not is_hypothetical(s) and not is_reported(s, text)
               for s in split_sentences(text))


def candidates(items: list[MemoryItem], message: Message) -> list[MemoryItem]:
    """Active items stated before ``message`` that a change can replace, newest first."""
    earlier = [i for i in items if i.status == "active" and i.kind in CHANGEABLE and i.source_message_id is not None
               and i.source_message_id < message.id]
    return sorted(earlier, key=lambda i: (i.source_message_id, i.id), reverse=True)[:MAX_CANDIDATES]


def resolve_messages(text: str, shown: list[MemoryItem], *, lang: str = "en") -> list[ChatMessage]:
    """The prompt: instructions and fixed examples (a stable head), then the items shown and the message."""
    spec = templates(lang)["resolve"]
    messages: list[ChatMessage] = [{"role": "system", "content": spec["system"]}]
    for example in spec["examples"]:
        messages.append({"role": "user", "content": example["ask"]})
        messages.append({"role": "assistant", "content": example["answer"]})
    listed = "\n".join(f"- {value}" for value in shown_values(shown))
    messages.append({"role": "user", "content": spec["ask"].format(items=listed, message=text[:600])})
    return messages


def already_resolved(ops: list[PatchOp], message: Message, items: list[MemoryItem]) -> bool:
    """The extraction pass already replaced or revoked something stated before this message (a
    replacement it only asks about does not count: the model's pointer may settle it)."""
    earlier = {i.id for i in items if i.source_message_id is not None and i.source_message_id < message.id}
    return any((isinstance(op, AddItem) and op.status == "active" and op.supersedes in earlier)
               or (isinstance(op, SetStatus) and op.item_id in earlier) for op in ops)



def _bare(value: str) -> str:
    return value.split(":", 1)[-1].strip() if ":" in value[:40] else value


class Resolution(BaseModel):
    """What the program makes of the model's answer: operations and a line saying why."""

    ops: list[PatchOp] = []
    note: str


def _restated(old: MemoryItem, value: str, text: str) -> str:
    """The new value under the old one's label ("trip budget: 2800"); an old value that is a
    raw sentence with a rule key for a subject gives the user's own sentence holding the value."""
    if ":" in old.value[:40]:
        return presented(old.value.split(":", 1)[0].strip(), value)
    if ":" not in old.subject and "/" not in old.subject:
        return presented(old.subject, value)
    needle = value.lower()
    sentence = next((s for s in split_sentences(text) if needle in s.lower()), value)
    return sentence.strip().rstrip("。.!！")[:200]


def resolve_ops(answer: ChangeAnswer, shown: list[MemoryItem], message: Message,
                own: list[MemoryItem], twins: Sequence[MemoryItem] = ()) -> Resolution:
    """The patch for the model's ``answer`` about ``message`` (``shown``: the items the model saw;
    ``own``: the items this message already wrote; ``twins``: see :func:`twins_of`)."""
    position = answer.item(shown)
    if position == 0:
        return Resolution(note="changes nothing remembered")
    old = shown[position - 1]
    value = " ".join(answer.new.split()).strip(" .。!！")
    if ":" in value[:30] and not re.search(r"\d:\d", value):  # "Python: write all examples in Python"
        value = value.split(":", 1)[1].strip()
    text = message.content
    if not value:
        if old.kind not in REVOCABLE or old.scope == "profile":
            return Resolution(note=f"not dropped: #{old.id} is not a rule or choice of this task")
        if not (REVOKE.search(text) or _LET_GO.search(text) or negated(text)):
            return Resolution(note=f"not dropped: the message does not say #{old.id} is let go")
        if ORIGIN_RANK.get(old.origin, 0) > ORIGIN_RANK["model"]:  # an explicit statement: asked, never dropped unasked
            return Resolution(ops=[AddItem(kind="directive", subject="revoke", value=f"{REVOKE_MARK}{clip(text, 200)}",
                                           status="pending", origin="model", source_message_id=message.id,
                                           source_quote=text, details={"proposal": "revoke", "candidates": [old.id]})],
                              note=f"asks whether to drop #{old.id}")
        return Resolution(ops=[SetStatus(item_id=item.id, status="revoked", action="revoke", reason=clip(text, 200))
                               for item in (old, *twins)], note=f"revoked #{old.id}: {clip(old.value, 50)}")
    if not numbers(value) and any(marks_aside(value) == marks_aside(s) for s in split_sentences(text)):
        # "Go ahead, they're fine again." copied whole is no value of anything.
        return Resolution(note="refused: the whole sentence is no new value")
    if ungrounded_numbers(value, text):
        return Resolution(note=f"refused “{clip(value, 40)}”: a number the message does not hold")
    if not grounded(value, text, old.subject) or not term_set(value) - term_set(_bare(old.value)):
        return Resolution(note=f"refused “{clip(value, 40)}”: not what the message says, or no change")
    if bool(_counted(_bare(old.value))) != bool(_counted(value)):
        return Resolution(note=f"refused “{clip(value, 40)}”: another shape than #{old.id}")
    if (counts := item_counts(old.value, old.subject)) and (said := _counts_said(value, own)) and not counts & said:
        # Run N: "10 now" of "We're at 10 now" (a head count) pointed at the budget, and replaced it.
        return Resolution(note=f"refused “{clip(value, 40)}”: it counts {'/'.join(sorted(said))}, #{old.id} "
                               f"{'/'.join(sorted(counts))}")
    named = canonical_subject(text) == subject_key(old.subject) or bool(term_set(old.subject) & term_set(text))
    explicit = ORIGIN_RANK.get(old.origin, 0) > ORIGIN_RANK["model"]
    asking = next((i for i in own if i.status == "pending" and i.supersedes == old.id), None)
    if asking is not None and not explicit:
        # The extraction pass asked to replace this very item and the pointer agrees: two model
        # calls and the user's own change words settle it ("so pescatarian now", "还是用中文吧").
        ops: list[PatchOp] = [SetStatus(item_id=asking.id, status="active", action="confirm",
                                        reason="the change was placed twice")]
        ops += [SetStatus(item_id=t.id, status="superseded", action="supersede", reason=f"the same value as #{old.id}")
                for t in twins]
        return Resolution(ops=ops, note=f"confirmed #{asking.id}: it replaces #{old.id} (placed twice)")
    asked = explicit or (old.scope == "profile" and not named)
    new_value = _restated(old, value, text)
    ops = [AddItem(kind=old.kind, subject=old.subject, value=new_value, status="pending" if asked else "active",
                   origin="model", source_message_id=message.id, source_quote=clip(text, 400),
                   scope=old.scope, supersedes=old.id, pinned=old.pinned)]
    if not asked:
        # The old value stated twice by the first pass ("派对: …12个小朋友", "小朋友: 12个") goes too.
        ops += [SetStatus(item_id=twin.id, status="superseded", action="supersede",
                          reason=f"the same value as #{old.id}, replaced") for twin in twins]
        # The pass's own items for the same value ("bonus: 2800", "最后: 10个") are the new value
        # under a stray label: folded into the replacement, which keeps every number they hold.
        wanted = set(numbers(value))
        for item in (i for i in own if i.status == "active"):
            held = set(numbers(_bare(item.value)))
            if item.origin != "model" and not (held and held <= wanted):
                continue
            if (held and held <= wanted) or (not held and term_set(value) <= term_set(_bare(item.value))):
                ops.append(SetStatus(item_id=item.id, status="superseded", action="supersede",
                                     reason=f"the same change as the replacement of #{old.id}"))
    verb = "asks to replace" if asked else "replaces"
    return Resolution(ops=ops, note=f"{verb} #{old.id} (changed): {clip(new_value, 50)}")


def _counts_said(value: str, own: Sequence[MemoryItem]) -> set[str]:
    """What a new value's number counts: by its words, else by the subject of the item this message
    already wrote holding that number ("We're at 10 now" under the head count)."""
    said = counted(value) - {"measure"}
    wanted = set(numbers(value))
    return said or {u for i in own if wanted and wanted <= set(numbers(i.value)) for u in item_counts(i.value, i.subject)}


def _counted(text: str) -> set[str]:
    return set(numbers(text)) | set(_ZH_NUMERALS.findall(text))


def twins_of(old: MemoryItem, items: list[MemoryItem]) -> list[MemoryItem]:
    """Other active items from the same message that state the old value again: the same
    numbers ("房子想租三室的" beside "房子: 三室"), or, without numbers, the same kind and most of
    the words (the rule's sentence beside the model's normal form)."""
    held, words = _counted(_bare(old.value)), term_set(_bare(old.value))

    def restates(item: MemoryItem) -> bool:
        if held or _counted(_bare(item.value)):
            return bool(held) and _counted(_bare(item.value)) == held
        theirs = term_set(_bare(item.value))
        return item.kind == old.kind and bool(words & theirs) and len(words & theirs) * 2 >= min(len(words), len(theirs))

    return [i for i in items if i.id != old.id and i.status == "active"
            and i.source_message_id == old.source_message_id and restates(i)]
