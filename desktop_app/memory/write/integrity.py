"""What no model proposal may do to memory, whatever it says.

The model's memory pass is a proposal (:mod:`~desktop_app.memory.write.cooperation`,
:mod:`~desktop_app.memory.write.change_resolution`); before its operations are applied, the program
checks them against invariants that hold for the memory as a whole:

- a subject is made of the user's words (or is a canonical subject the message names), and
  holds a word (the 0.5B filed "预算总共2万左右" under "6");
- a standing rule's sentence is never re-filed as a fact, a limit or a choice, nor what a message
  dropping a rule says beside the drop ("it's fine either way");
- one thing is one item: a value the state already holds, or one the same pass writes twice
  under another label, is not written again;
- an item replaces another only when both are about the same thing — the same canonical
  subject, shared subject words, or a sentence that names the old item — and is of its kind;
  a number never replaces one that counts something else ("5 people" for "7 days"), and a
  subject that names what it counts ("days") holds no value counting another thing, nor a bare
  number the message says nothing of; a departure holds a date;
- a profile item (name, allergy, diet, family …) is replaced only by an item about the same
  thing, named in the user's sentence;
- a canonical subject ("budget") is never traded for a stray label by a restatement;
- no template placeholder ("?", "#?") is ever a subject or a value;
- a fact, a liking or a choice holds no request to the assistant ("帮我想想菜单"): the clauses asking
  for something are left out, and a value made only of them is none.

Everything is pure: :func:`guard_model_ops` reads the operations, the state and the message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from desktop_app.lexicon import CJK, LANGS, alternatives, cue, fires, subject_labels
from desktop_app.memory.core.models import MemoryItem, Message
from desktop_app.memory.lang.amounts import DATED_SUBJECTS, amounts, counted, says_a_number, subject_counts
from desktop_app.memory.lang.text import (
    CANONICAL_SUBJECTS,
    SUBJECT_NAMES,
    clip,
    numbers,
    script_language,
    split_sentences,
    subjects_named,
    term_set,
)
from desktop_app.memory.write.cooperation import same_subject, says_changed, subject_key
from desktop_app.memory.write.mood import is_question, only_chatter
from desktop_app.memory.write.names import is_name_subject
from desktop_app.memory.write.patches import AddItem, PatchOp, SetStatus
from desktop_app.memory.write.twins import amount_twin, amount_values, body, budget_twin, held_apart, said_amounts
from desktop_app.memory.write.vetting import chatting

_SQUASH = re.compile(r"[\W_]+")
_CJK_RUN = re.compile(f"[{CJK}]{{2,}}")
_NAMING = re.compile(f"[A-Za-z{CJK}]")  # a subject holds a word, not only digits and marks
_PLACEHOLDER = re.compile(r"^[\s?？#“”\"'.…]*$|#\?")
MIN_RULE_CHARS = 6  # a rule sentence this long (squashed) or longer is recognised inside another value
# Where a value's clauses divide (the lexicon's ``clause.split``, the separators kept).
_CLAUSES = re.compile(f"((?:{alternatives('clause.split', ('zh', 'en'))}))", re.IGNORECASE)
STATING_KINDS = ("fact", "preference", "decision")


@dataclass
class Guarded:
    """The operations that keep the invariants, and a note for each one that did not."""

    ops: list[PatchOp] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def squash(text: str) -> str:
    return _SQUASH.sub("", text.lower())


def grounded_subject(subject: str, text: str) -> bool:
    """The subject is the user's: a canonical subject the message names, or words of the message
    (every CJK run of it a contiguous part of the message; most English words in it)."""
    key = subject_key(subject)
    if key in subjects_named(text):
        return True
    lowered = text.lower()
    runs = _CJK_RUN.findall(subject)
    if runs and not all(run in lowered for run in runs):
        return False
    words = {w for w in term_set(subject) if not _CJK_RUN.fullmatch(w)}
    if words:
        return len(words & term_set(text)) * 2 >= len(words)
    return bool(runs)


def _rule_texts(items: list[MemoryItem]) -> list[str]:
    texts = []
    for item in items:
        if item.kind == "directive" and item.status in ("active", "pending") and not item.details.get("proposal"):
            for text in (body(item.value), item.source_quote or ""):
                squashed = squash(text)
                if len(squashed) >= MIN_RULE_CHARS:
                    texts.append(squashed)
    return texts


def refiles_rule(op: AddItem, items: list[MemoryItem]) -> bool:
    """A non-rule item whose value is a standing rule's sentence (or holds it whole), or whose
    quote is part of a rule's sentence from the same message ("理由: 再说理由" beside "以后每次回答
    都先给结论，再说理由"): one sentence, one item."""
    if op.kind == "directive":
        return False
    mine = squash(body(op.value))
    if len(mine) >= MIN_RULE_CHARS and any(rule in mine or (mine in rule and len(mine) * 2 >= len(rule))
                                           for rule in _rule_texts(items)):
        return True
    quote = squash(op.source_quote or "")
    # (A limit on the reply counts too: "answers: keep answers" beside "keep your answers short, 3
    # sentences max" is a piece of it, though a fact holding an amount may be split off a limit.)
    ruling = ("directive", "constraint") if op.kind == "fact" and not numbers(body(op.value)) else ("directive",)
    return bool(quote) and any(
        item.kind in ruling and item.status in ("active", "pending") and item.source_message_id == op.source_message_id
        and item.id != op.supersedes and quote in squash(item.source_quote or item.value) for item in items)


def _about_same_thing(old: MemoryItem, op: AddItem, message: Message) -> bool:
    key = subject_key(op.subject)
    if old.subject == op.subject or subject_key(old.subject) == key or same_subject(old, key, op.subject):
        return True
    return names_item(old, message.content)


def _named_instead(old: MemoryItem, op: AddItem, active: list[MemoryItem], message: Message) -> MemoryItem | None:
    """An earlier item the message names, where neither it nor the new value names ``old``, whose own words the model
    reused as the subject (a canonical subject, as "budget", is replaced by what it holds, not by its name)."""
    if subject_key(old.subject) in CANONICAL_SUBJECTS or names_item(old, message.content) or names_item(old, body(op.value)):
        return None
    return next((i for i in active if i.id != old.id and i.source_message_id != message.id
                 and names_item(i, message.content)), None)  # (an item of this message says what it says: "bonus: 2800")


def names_item(item: MemoryItem, sentence: str) -> bool:
    """The sentence names the item: its canonical subject, or a word of its subject or label."""
    key = subject_key(item.subject)
    if key in subjects_named(sentence):
        return True
    label = item.value.split(":", 1)[0] if ":" in item.value[:40] else ""
    words = term_set(item.subject.split(":", 1)[-1]) | term_set(label)
    return bool(words - set(numbers(sentence)) & term_set(sentence))


def guard_model_ops(ops: list[PatchOp], items: list[MemoryItem], message: Message,
                    changed: Sequence[MemoryItem] = ()) -> Guarded:
    """The model pass's ``ops`` for ``message`` that keep the invariants, given the state ``items``
    (active and pending) and the values ``changed`` since (superseded and revoked). Operations of
    other origins pass unchanged."""
    out = Guarded()
    by_id = {i.id: i for i in items}
    active = [i for i in items if i.status == "active"]
    written: set[str] = set()
    replacing = {op.item_id for op in ops if isinstance(op, SetStatus) and op.action in ("supersede", "revoke")} \
        | {op.supersedes for op in ops if isinstance(op, AddItem) and op.supersedes is not None}
    # A passing remark the rules took nothing from gives the pass nothing either (bench health: "Biscuit just climbed
    # into an empty box, she's packing herself" as a liking, "haha ok, Alfama sounds cute…" as a choice).
    remark = chatting(message.content) and not any(
        i.source_message_id == message.id and i.origin in ("rule", "user") for i in (*items, *changed))
    for op in ops:
        if not isinstance(op, AddItem) or op.origin != "model":
            out.ops.append(op)
            continue
        if remark:
            out.notes.append(f"refused “{clip(op.value, 40)}”: a passing remark, nothing to remember")
            continue
        replaced = by_id.get(op.supersedes) if op.supersedes is not None else None
        if op.kind == "open_question" and replaced is not None and replaced.kind != "open_question":
            # A question stands beside the value it is about, never in its place (the 0.5B turned
            # "Let's push everything back a week, still 7 days" into the open question "days: 7 days").
            op = op.model_copy(update={"supersedes": None, "refines": False})
            replacing.discard(replaced.id)
        if replaced is not None and replaced.source_message_id == message.id and _other_canonical(op, replaced):
            # Under Pilot the 0.5B "restated" the rules' trip ("我们周日带爸妈去杭州玩两天", from "不对，改到周日
            # 出发了，预算加到四千") as "budget: 4千" in its place, and the trip was gone: a restatement under
            # another canonical subject is a piece of the message beside the item, never its new form.
            op = op.model_copy(update={"supersedes": None, "refines": False})
            replacing.discard(replaced.id)
        if op.kind in STATING_KINDS and (stated := without_requests(op.value)) != op.value:
            # The 0.5B filed "菜单: 有点慌，帮我想想菜单" (the message's request) as a fact, and the chat
            # model read it back as the user's words.
            if len(squash(body(stated))) < MIN_PIECE and not says_a_number(body(stated)):
                # what is left beside the request is a remark ("有点慌"), or nothing
                out.notes.append(f"refused “{clip(op.value, 40)}”: a request to the assistant, not a value")
                continue
            op = op.model_copy(update={"value": stated})
        reason = _refusal(op, by_id, active, items, message, written, replacing) or _brought_back(op, changed, message) \
            or _other_language(op, message)
        if reason:
            out.notes.append(f"refused “{clip(op.value, 40)}”: {reason}")
            continue
        old = by_id.get(op.supersedes) if op.supersedes is not None else None
        if old is not None and old.scope == "profile" and (op.kind, op.scope) != (old.kind, old.scope):
            # "vegetarian: I'm vegetarian" as a decision restating the rules' profile fact: a fact
            # about the user stays one, whatever the pass calls it.
            op = op.model_copy(update={"kind": old.kind, "scope": old.scope})
        key = subject_key(op.subject)
        if old is not None and old.subject in CANONICAL_SUBJECTS and (key == old.subject or key not in CANONICAL_SUBJECTS) \
                and (key != old.subject or op.kind != old.kind):
            # (Another canonical subject is a split of a compound item: "name: Bob" off "my name is Bob
            # and the budget is 300 euros".)
            # A restatement keeps the canonical subject, its kind ("trip length: 5 days" is no goal) and
            # its label ("instead: €6,500" is the budget).
            # (labelled in the message's language: a Pilot walk showed "head count: 我们一家四口" in the panel)
            names = subject_labels(script_language(message.content) or "en")
            value = f"{names.get(old.subject, old.subject)}: {body(op.value)}" if body(op.value) != op.value else op.value
            op = op.model_copy(update={"subject": old.subject, "kind": old.kind, "value": value})
        written.add(squash(body(op.value)))
        out.ops.append(op)
    replaced_by_something = any(isinstance(op, AddItem) and op.origin == "model" and op.status == "active"
                                and op.kind != "open_question"
                                or (isinstance(op, SetStatus) and op.action == "confirm") for op in out.ops)
    if not replaced_by_something:
        # An item is superseded by the pass only beside the item replacing it: with the
        # replacement refused, or only asked about, nothing it meant to replace loses its value.
        kept = [op for op in out.ops if not (isinstance(op, SetStatus) and op.action == "supersede")]
        if len(kept) < len(out.ops):
            out.notes.append("kept what a refused or unconfirmed entry would have replaced")
        out.ops = kept
    return out


def _refusal(op: AddItem, by_id: dict[int, MemoryItem], active: list[MemoryItem], items: list[MemoryItem],
             message: Message, written: set[str], replacing: set[int]) -> str:
    if _PLACEHOLDER.search(op.value) or _PLACEHOLDER.search(op.subject):
        return "a placeholder, not a value"
    if op.details.get("proposal"):
        return ""  # a question to the user ("revoke? …") writes nothing until answered
    if fires("request.recap", message.content):
        # The 0.5B filed "final plan: Great. Give me the full final plan…" as a decision, in place of
        # the one the user had made ("…the vegetarian option needs to be vegan now").
        return "a request for a summary says nothing to remember"
    if _only_asked(body(op.value), message.content):
        # The 0.5B read "What should we eat there?" as a new diet ("vegetarian: eat there").
        return "the words of a question the message asks, not a value it states"
    if not _NAMING.search(op.subject):
        return f"the subject “{clip(op.subject, 20)}” names nothing (a number is not a subject)"
    if only_chatter(op.subject):
        # bench health: the 0.5B filed "haha ok, Alfama sounds cute but I'm not hauling suitcases…" as "haha", a choice
        return f"the subject “{clip(op.subject, 20)}” is laughter, it names nothing"
    if _framing(op.subject):
        # bench health: "change of plan: go vegan", beside the rules' "Priya's diet" from the same message
        return f"the subject “{clip(op.subject, 20)}” frames the message, it names nothing"
    if squash(body(op.value)) in _LABELS:
        # sixth set, rules + the 0.5B: "allergy: 过敏" (the allergy said, not to what)
        return "the value only names its subject"
    if op.kind == "fact" and is_name_subject(op.subject) and not _gives_a_name(body(op.value), items, message):
        # sixth set, rules + the 0.5B: "name: 苏州" in place of "name: 小王", from "哦说错了 我在苏州上班 不是杭州"
        return "a name the message does not give as the user's"
    if op.kind in _CHOSEN_KINDS and (said := term_set(body(op.value))) and said <= term_set(op.subject):
        # bench health: "sam partner: Sam and his partner" as a choice, from "two more people confirmed, Sam and his partner"
        return "the value only says its subject again"
    if (piece := _piece_of_a_word(op.subject, f"{message.content} {body(op.value)}")) is not None:
        # The 0.5B filed "pen: EpiPen" from "he carries an EpiPen" (a decision, in the final plan).
        return f"the subject “{clip(op.subject, 20)}” is a piece of the word “{piece}”"
    if fires("integrity.health_subject", op.subject) and not fires("integrity.health_subject", message.content) \
            and not fires("integrity.health_subject", body(op.value)):
        # Under Pilot the 0.5B filed "今天好累啊" as "儿童过敏: 今天好累啊", beside the son's peanut allergy.
        return f"the subject “{clip(op.subject, 20)}” is a health condition the message does not speak of"
    old = by_id.get(op.supersedes) if op.supersedes is not None else None
    refining = old is not None and old.source_message_id == message.id and old.origin in ("rule", "user")
    if refining and old is not None and old.scope == "profile" and _whose(old) and _whose(old) not in op.value.lower():
        # "friend: Priya" restating "my friend Priya is vegetarian, and Jake has a shellfish allergy"
        # (filed as Jake's allergy) lost the allergy.
        return f"a restatement of #{old.id} without whose it is ({_whose(old)})"
    if refining and old is not None and is_name_subject(old.subject) and not is_name_subject(op.subject):
        # a user's walk (round nineteen): "同事: 小邹" restating the rules' "name:同事" (the coworker's name spelt
        # anew) took its place, and "同事叫什么？" found no name
        return f"a restatement of #{old.id}, a name the rules read, under another subject"
    if refining and old is not None and (kept := numbers(body(old.value))) and not set(kept) & set(numbers(body(op.value))):
        # bench health: "push everything back" restating the rules' "Let's push everything back a week, still 7 days"
        # lost the trip's length from the final list
        return f"a restatement of #{old.id} without its number ({kept[0]})"
    if not refining and op.subject.split(":", 1)[0] in ("directive", "fact", "constraint") \
            and not (old is not None and op.subject == old.subject):
        return f"the subject “{clip(op.subject, 20)}” is a label made by the rules, not the user's words"
    if not refining and any(i.subject.partition(":")[2] == op.subject for i in items
                            if op.subject and i.origin == "rule" and i.subject.partition(":")[0] in _TOPIC_KINDS):
        # A Pilot walk: "分钟/左右: 45分钟", the rules' "constraint:分钟/左右" without its kind, filed as a goal
        return f"the subject “{clip(op.subject, 20)}” is a label made by the rules, not the user's words"
    owner = _label_owner(op, [i for i in active if i.id not in replacing], message)
    if owner is not None:
        return f"the subject “{clip(op.subject, 20)}” belongs to #{owner.id}, which the message does not name"
    if refiles_rule(op, items):
        return "a standing rule's sentence filed as another kind"
    if op.kind != "directive" and drops_a_rule(message.content) and not said_amounts(body(op.value)) \
            and not fires("time.date", body(op.value)):
        return "the message drops a rule; what it says is no value (“it's fine either way”)"
    if _LOOP.search(body(op.value)):
        # The 0.5B filed "head count: 4个人，60多，60多，60多，…" until its tokens ran out.
        return "a piece said over and over, not a value"
    if (subject_key(op.subject) == "budget"
            or subject_counts(op.subject, subject_key(op.subject)) & {"money", "people", "days"}) \
            and not says_a_number(body(op.value)):
        # "预算: 不折腾了" from "预算也还是按1500吧，不折腾了", "people: 老老少少都有", "trip length: push everything
        # back" in place of "Let's push everything back a week, still 7 days" (bench health): a budget holds an
        # amount, a head count or a length a number, or it is none of them.
        return f"the subject “{clip(op.subject, 20)}” holds an amount or a count, and the value names no number"
    if (subject_key(op.subject) == "budget" or subject_counts(op.subject, subject_key(op.subject)) & {"money", "people"}) \
            and fires("amount.relative", body(op.value)) and len(amounts(body(op.value))) <= 1:
        # "people: two more people" (run I, beside the rules' "We're at 10 now"): a difference, not the count
        return f"the subject “{clip(op.subject, 20)}” holds a count, and the value says only how many more or fewer"
    if subject_key(op.subject) in DATED_SUBJECTS and not fires("time.date", body(op.value)):
        return f"the subject “{clip(op.subject, 20)}” is a date, and the value names none"
    miscounted = _miscounted(body(op.value), message.content)
    if miscounted:
        return miscounted
    named, counted = subject_counts(op.subject, subject_key(op.subject)), _counted_in(body(op.value), message.content)
    if named and numbers(body(op.value)) and not counted:
        return f"the subject “{clip(op.subject, 20)}” counts {'/'.join(sorted(named))}, and the message says " \
               "nothing of what the value's number counts"
    if named and counted and not named & counted:
        return f"the subject “{clip(op.subject, 20)}” counts {'/'.join(sorted(named))}, the value " \
               f"{'/'.join(sorted(counted))}"
    mine = squash(body(op.value))
    if mine in written:
        return "written twice in one pass"
    if any(squash(body(i.value)) == mine for i in active if i.id != op.supersedes and i.id not in replacing):
        return "memory already holds it"
    others = [i for i in active if i.id != op.supersedes and i.id not in replacing]
    twin = amount_twin(op, others) or budget_twin(op, others)
    if twin is not None:
        return f"#{twin.id} already holds {clip(body(op.value), 20)}"
    held = held_apart(op, [i for i in active if (i.id not in replacing or i.id == op.supersedes)
                            and i.source_message_id == message.id])
    if held:
        # "预算: 哎算了，二姨又说能来了……还是12个人，预算也还是按1500吧" beside the rules' head count of 12 and
        # budget of 1500 from that message: its values, each already an item of its own (a booking of "4晚，
        # 4个人" beside an earlier head count of 4 and 4 days is news).
        return f"its amounts are held one by one ({', '.join(f'#{i.id}' for i in held)})"
    whole = next((i for i in active if i.id != op.supersedes and i.id not in replacing and len(mine) >= MIN_PIECE
                  and mine in squash(body(i.value)) and not _split_off(op, i)), None)
    if whole is not None:
        # The 0.5B filed "weekend: 带我妈去体检" beside the rules' "还有周日要带我妈去体检": one thing, one item.
        return f"a piece of #{whole.id}, which already holds it"
    if old is not None and not refining:
        if op.kind != old.kind:
            return f"a {op.kind} cannot replace the {old.kind} #{old.id}"
        if not _about_same_thing(old, op, message) and not _same_counted_thing(old, op, message):
            return f"#{old.id} is about something else"
        if (other := _named_instead(old, op, active, message)) is not None:
            # bench health: "stirring: the vegetarian option needs to be vegan now" in place of "stirring: a lot of
            # stirring", from a message about Priya's diet
            return f"the message speaks of #{other.id}, not of #{old.id}"
        theirs = _counted(body(old.value))
        if theirs and counted and not theirs & counted:
            return f"#{old.id} counts {'/'.join(sorted(theirs))}, not {'/'.join(sorted(counted))}"
        if old.scope == "profile" and op.status == "active" and not names_item(old, message.content):
            return f"the profile item #{old.id} is not named in the message"
    return ""


_CHOSEN_KINDS = ("decision", "preference", "goal", "open_question")  # a fact may say what its subject is ("vegetarian")
_LABELS = frozenset(squash(name) for name in SUBJECT_NAMES)  # the names of the subjects, in every language


def _gives_a_name(value: str, items: list[MemoryItem], message: Message) -> bool:
    """The message gives ``value`` as the user's name: it says a name ("我叫…", "I'm …", "call me …"; the lexicon's
    ``fact.name``, ``rule.address``) holding it, or names a name memory holds (a correction of its spelling)."""
    text = message.content
    said = [m.group(0) for lang in LANGS for concept in ("fact.name", "rule.address")
            if (pattern := cue(concept, lang)) is not None for m in pattern.finditer(text)]
    held = [body(i.value) for i in items if is_name_subject(i.subject) and i.status == "active"]
    return any(squash(value) in squash(s) for s in said) or any(squash(h) and squash(h) in squash(text) for h in held)


def _framing(subject: str) -> bool:
    """``subject`` is made only of the words that open or frame a message ("change of plan", "对了")."""
    rest = subject.split(":", 1)[-1].strip()
    for lang in LANGS:
        if (pattern := cue("integrity.discourse_subject", lang)) is not None:
            rest = pattern.sub("", rest)
    return bool(subject.strip()) and not re.sub(r"[\W_]+", "", rest)


def without_requests(value: str) -> str:
    """``value`` without its clauses that ask the assistant for something ("有点慌，帮我想想菜单" →
    "有点慌"; the "subject: " label kept); empty when every clause asks."""
    text = body(value)
    label = value[:len(value) - len(text)]
    pieces = _CLAUSES.split(text)
    kept = [(clause, sep) for clause, sep in zip(pieces[::2], [*pieces[1::2], ""], strict=True)
            if clause.strip() and not fires("request.to_assistant", clause.strip())]
    if len(kept) == len([c for c in pieces[::2] if c.strip()]):
        return value
    stated = "".join(clause + sep for clause, sep in kept[:-1]) + (kept[-1][0] if kept else "")
    return f"{label}{stated.strip()}" if stated.strip() else ""


_LATIN_WORDS = re.compile(r"[a-z]+")


def _piece_of_a_word(subject: str, text: str) -> str | None:
    """A word of ``subject`` that ``text`` holds only as the inner capitalised part of a longer word
    ("pen" of "EpiPen"; "day" of "birthday" and "diet" of "dietary" are words of their own): that
    word, or None."""
    said = set(_LATIN_WORDS.findall(text.lower()))
    for word in _LATIN_WORDS.findall(subject.lower()):
        if len(word) >= 2 and word not in said:
            inner = re.search(rf"\b[A-Za-z]*[a-z](?-i:{word[0].upper()}){re.escape(word[1:])}[A-Za-z]*", text)
            if inner is not None:
                return inner.group(0)
    return None


# A piece of two or more characters said four times in a row, with at most marks between.
_LOOP = re.compile(r"(\S{2,}?)(?:[\s,，、;；]*\1){3,}")


def _only_asked(value: str, message: str) -> bool:
    """Every word of ``value`` comes from the message's questions and none from what it states."""
    mine = term_set(value)
    sentences = split_sentences(message)
    asked = [s for s in sentences if is_question(s)]
    if not mine or not asked:
        return False
    stated = term_set(" ".join(s for s in sentences if not is_question(s)))
    return mine <= term_set(" ".join(asked)) and not mine & stated


MIN_PIECE = 6  # characters (spaces and marks aside): a shorter value ("5 days", "虾过敏") is no telling piece


def _split_off(op: AddItem, whole: MemoryItem) -> bool:
    """``op`` splits a compound item into a canonical subject of its own ("name: Bob" off "my name is
    Bob and the budget is 300 euros"): a piece, but another thing."""
    key = subject_key(op.subject)
    return key in CANONICAL_SUBJECTS and key != subject_key(whole.subject)


def _counted(text: str) -> set[str]:
    """What the numbers of ``text`` count among money, people and days (a measure only keeps a
    number from being an amount): "5 people" never replaces "7 days", and a subject "days" never
    holds "5 people"."""
    return counted(text) - {"measure"}


def _miscounted(value: str, message: str) -> str:
    """Why ``value`` counts one of its numbers as another thing than the message does ("still 7
    people" from "Let's push everything back a week, still 7 days"; the 0.5B then had 7 people
    going), else ""."""
    said: dict[float, set[str | None]] = {}
    for a in amounts(message):
        said.setdefault(a.value, set()).add(a.unit)
    for a in amounts(value):
        theirs = said.get(a.value)
        if a.unit and a.unit != "measure" and theirs and None not in theirs and a.unit not in theirs:
            number = f"{a.value:g}"
            return f"the message counts {number} as {'/'.join(sorted(str(u) for u in theirs))}, the value as {a.unit}"
    return ""


def drops_a_rule(text: str) -> bool:
    """A sentence of ``text`` drops a standing rule ("You can drop the conclusion-first thing now",
    "不用再列表了"; the lexicon's ``intent.revoke``)."""
    return any(fires("intent.revoke", sentence) for sentence in split_sentences(text))


# The openings of the labels the rules make of a sentence's words ("constraint:分钟/左右", "forbid:driving/hours"; memory/write/
# sentence.py; not "fact:", which holds the user's own "my X"): what follows them is no subject of the user's.
_TOPIC_KINDS = frozenset({"directive", "constraint", "forbid", "pref", "decision", "q", "when"})


def _brought_back(op: AddItem, replaced: Sequence[MemoryItem], message: Message) -> str:
    """Why ``op`` is a value the user has changed since ``message``, else "": under Pilot the pass read
    the first message after the third had raised the budget, and filed "budget about 600 euros" again
    beside the new 800. (A later message saying the old value again is read as it comes.)"""
    mine, said = squash(body(op.value)), amount_values(body(op.value))
    budget = subject_key(op.subject) == "budget"
    counts = {a.unit for a in amounts(body(op.value)) if a.unit} | subject_counts(op.subject, subject_key(op.subject))
    old = next((i for i in replaced if i.source_message_id is not None and message.id <= i.source_message_id
                and (mine and squash(body(i.value)) == mine
                     or budget and said and subject_key(i.subject) == "budget"
                     and amount_values(body(i.value)) == said
                     # "party: 8 people" from the first message, after "it's 10 people now" replaced its 8
                     or counts & {"people", "days", "money"} and _counted_in_old(op, i))),
               None)
    return f"#{old.id} held it and was changed since" if old is not None else ""


def _counted_in_old(op: AddItem, old: MemoryItem) -> bool:
    """Each amount of ``op`` stands in ``old``, counting the same thing there or nothing said."""
    mine, theirs = amounts(body(op.value)), amounts(body(old.value))
    return bool(mine) and all(any(t.value == a.value and t.unit in (None, a.unit) for t in theirs) for a in mine)


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _other_language(op: AddItem, message: Message) -> str:
    """Why ``op``'s value is in another language than the message, else "": run G (round nine) filed
    "head count: 5 people" for "我弟说他也要跟着去，那就5个人了", and the Chinese final plan said "5 people"."""
    lang, value = script_language(message.content), body(op.value)
    if lang == "zh":
        words = {w.lower() for w in _LATIN_WORD.findall(value)} - {w.lower() for w in _LATIN_WORD.findall(message.content)}
        return f"the value is in English ({', '.join(sorted(words))}), the message in Chinese" if words else ""
    if lang == "en":
        runs = [run for run in _CJK_RUN.findall(value) if run not in message.content]
        return f"the value is in Chinese ({runs[0]}), the message in English" if runs else ""
    return ""


def _other_canonical(op: AddItem, old: MemoryItem) -> bool:
    """``op`` is under a canonical subject other than ``old``'s ("budget" for a "trip length") and
    states what ``old`` does not hold: no split of a compound item ("budget: 300 EUR" off "My name is
    Bob and the budget is 300 euros" holds the item's own amount) but another thing."""
    mine, theirs = subject_key(op.subject), subject_key(old.subject)
    if not (mine in CANONICAL_SUBJECTS and theirs in CANONICAL_SUBJECTS and mine != theirs):
        return False
    said = amount_values(body(op.value))
    if said:
        return not said <= amount_values(old.value)
    return not term_set(body(op.value)) <= term_set(old.value)


def _whose(item: MemoryItem) -> str:
    """Whose profile fact an item is, where its subject says ("allergy:jake" → "jake")."""
    return item.subject.split(":", 1)[1].strip().lower() if ":" in item.subject else ""


def _counted_in(value: str, message: str) -> set[str]:
    """What the numbers of ``value`` count: where the value says ("8个人"), else where the message
    says it of the same number ("1200" from "预算就压到1200元" is money; from "压到1200吧", nothing)."""
    mine = _counted(value)
    if mine:
        return mine
    said = amount_values(value)
    return {a.unit for a in amounts(message) if a.value in said and a.unit and a.unit != "measure"}


def _label_owner(op: AddItem, active: list[MemoryItem], message: Message) -> MemoryItem | None:
    """An existing item whose subject or label the entry borrows though the message names neither
    ("花生过敏: <a rule>", "name: vegetarian"): the label is that item's, not this message's."""
    key = subject_key(op.subject)
    for item in active:
        if item.id == op.supersedes or item.source_message_id == message.id:
            continue
        label = item.value.split(":", 1)[0].strip() if ":" in item.value[:40] else ""
        if key in (subject_key(item.subject), subject_key(label) if label else None) \
                and not grounded_subject(op.subject, message.content) and not names_item(item, message.content):
            return item
    return None


# A number and what it counts, written right after it (the lexicon's ``unit.suffix``, or any word in
# Latin letters); group 2 is the unit.
_UNIT = re.compile(rf"(\d+(?:[.,]\d+)*)\s*({alternatives('unit.suffix', ('zh', 'en'))}|[A-Za-z]+)")


def _same_counted_thing(old: MemoryItem, op: AddItem, message: Message) -> bool:
    """A new number in the same unit as the old one ("预算改成12000元" after "总预算是8000元"), in a
    message that says the value changed: the same value, though the subjects were worded apart."""
    theirs = {m.group(2).lower() for m in _UNIT.finditer(body(old.value) + " " + (old.source_quote or ""))}
    mine = {m.group(2).lower() for m in _UNIT.finditer(body(op.value) + " " + message.content)}
    return bool(theirs & mine) and says_changed(message.content) and old.scope != "profile"


def revocation_twins(revoked: MemoryItem, active: list[MemoryItem]) -> list[MemoryItem]:
    """Other active items holding the revoked content: the same value under another label, or the
    same sentence of the same message filed again (a rule copied as a fact)."""
    content = squash(body(revoked.value))
    quote = squash(revoked.source_quote or "")
    twins = []
    for item in active:
        if item.id == revoked.id or item.status != "active":
            continue
        theirs = squash(body(item.value))
        same_value = len(content) >= MIN_RULE_CHARS and (theirs == content or content in theirs)
        same_sentence = bool(quote) and len(quote) >= MIN_RULE_CHARS and item.source_message_id == revoked.source_message_id \
            and squash(item.source_quote or "") == quote
        if same_value or same_sentence:
            twins.append(item)
    return twins


def revocations_reaching_twins(ops: list[PatchOp], items: list[MemoryItem]) -> list[PatchOp]:
    """``ops`` with a revocation added for every twin of each revoked item (see :func:`revocation_twins`)."""
    by_id = {i.id: i for i in items}
    active = [i for i in items if i.status == "active"]
    touched = {op.item_id for op in ops if isinstance(op, SetStatus)}
    extra: list[PatchOp] = []
    for op in ops:
        if isinstance(op, SetStatus) and op.action == "revoke" and op.item_id in by_id:
            for twin in revocation_twins(by_id[op.item_id], active):
                if twin.id not in touched:
                    touched.add(twin.id)
                    extra.append(SetStatus(item_id=twin.id, status="revoked", action="revoke",
                                           reason=f"holds what #{op.item_id} held"))
    return [*ops, *extra]
