"""Update rules: turn extracted candidates into validated patches.

Directives and facts follow different rules:
- a new fact (or constraint, decision, preference) about the same subject supersedes the old
  one at once — newest wins;
- a new directive that conflicts with an active one, or a revocation that does not clearly
  name one rule, goes to *pending* and the assistant asks the user to confirm;
- user corrections ("不对/actually/改成/change it to") carry origin ``user`` and always win
  over anything inferred; an inferred change to a user-stated item goes to pending instead.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from desktop_app.lexicon import CJK, LANGS, alternatives, fires, first_match, lexicon_words
from desktop_app.memory.core.models import PROFILE_SUBJECTS, REVOKE_MARK, MemoryItem
from desktop_app.memory.core.records import MemoryOutcome
from desktop_app.memory.lang.amounts import written_numbers
from desktop_app.memory.lang.dates import deferred, month_days
from desktop_app.memory.lang.notices import render_notice
from desktop_app.memory.lang.text import (
    CANONICAL_SUBJECTS,
    CJK_CHAR,
    CJK_RUN,
    SUBJECT_ALIASES,
    ZH_STOPCHARS,
    clip,
    languages_named,
    named_terms,
    term_set,
    topic_subject,
    without_lead_in,
)
from desktop_app.memory.write.clause_reading import clauses
from desktop_app.memory.write.corrections import (
    SUPERSEDABLE_KINDS,
    aim_added,
    answers_an_unfiled_number,
    by_words,
    corrected_value,
    goal_by_words,
    goal_said_anew,
    holding,
    latest_correctable,
    same_subject,
    swapped,
    trip_added,
)
from desktop_app.memory.write.extraction import extract, unshifted
from desktop_app.memory.write.integrity import revocations_reaching_twins
from desktop_app.memory.write.mood import is_question, rx
from desktop_app.memory.write.names import (
    corrected_name,
    is_name_subject,
    named_in_passing,
    names_in,
    old_name_said,
    owns_a_typo,
    respell,
    respell_subject,
    respellings,
)
from desktop_app.memory.write.patches import (
    ORIGIN_RANK,
    AddItem,
    PatchOp,
    PatchResult,
    SetDetails,
    SetStatus,
    apply_patch,
    propose,
)
from desktop_app.memory.write.sentence import (
    ADDRESSED_AS,
    CALLED_OFF,
    CHANGE_LEAD,
    CORRECT,
    HOW_REPLIES_READ,
    REPLY_BEHAVIOUR,
    TRIP,
    Candidate,
    dropped_value,
)
from desktop_app.memory.write.shifts import SHIFTED, days_shift, shift_in, shift_target, shifted_value
from desktop_app.memory.write.typed_values import (
    CHANGED,
    budget_said_anew,
    count_said_anew,
    length_said_anew,
    limit_said_anew,
    one_sum,
    says_when,
    when_moved,
    when_news,
)

if TYPE_CHECKING:
    from desktop_app.memory.store import Store

REVOCABLE_KINDS = ("directive", "constraint", "preference", "decision")
# Profile subjects a person has several of (allergies, health conditions): only a correction replaces one.
LIST_SUBJECTS = ("allergy", "health", "lacks")
_PASSING_TURNS = 6  # how far back a name said in passing is spelt anew by a typo owned up to
_EDGE = " ，,。.!！"


def _norm(text: str) -> str:
    return re.sub(r"[\s，,。.!！?？；;：:\"'“”]+", "", text.lower())


def remember_message(store: Store, session_id: int, text: str, *, source_message_id: int | None,
                     origin: str = "rule", now: float | None = None) -> list[MemoryOutcome]:
    """Extract from ``text`` and apply each candidate as its own validated patch."""
    now = time.time() if now is None else now
    respelled = _respell(store, session_id, text, source_message_id, origin, now)
    if respelled:  # "ugh, Sean. not Shawn. autocorrect": names spelt anew, and nothing else
        return respelled
    readdressed = _readdress(store, session_id, text, source_message_id, origin, now)
    if readdressed is not None:  # "hmm chief feels weird actually. Sam works"
        return [readdressed]
    outcomes = [apply_candidate(store, session_id, c, source_message_id=source_message_id, origin=origin, now=now)
                for c in extract(text)]
    _count_references(store, session_id, text, now)
    return [o for o in outcomes if o.action != "ignored"]


def _respell(store: Store, session_id: int, text: str, src: int | None, origin: str,
             now: float) -> list[MemoryOutcome]:
    """A typo owned up to (``names.respellings``): every active item holding an old spelling is written
    anew with the new one (the name item, and the plan that named the manager too), one patch each; so is
    one named after "not" ("不是何俊，是何峻")."""
    if not owns_a_typo(text) and not fires("name.not", text):
        return []
    with store.transaction():
        active = store.list_items(session_id, statuses=("active",))
        pairs = respellings(active, text)
        outcomes = []
        for item in active if pairs else []:
            value = respell(item.value, pairs)
            if value != item.value:
                # (the subject too: "fact:coworker shawn" holds the old spelling)
                named = item.model_copy(update={"subject": respell_subject(item.subject, pairs)})
                cand = Candidate(action="correct", kind=item.kind, subject=named.subject, value=value, quote=text)
                outcomes.append(_supersede(store, session_id, cand, named, value, item.kind, _explicit(origin), src,
                                           now, details=item.details or None))
        if outcomes:
            return outcomes
    if not owns_a_typo(text):  # (a name said in passing is spelt anew only by a typo owned up to: no reading back)
        return []
    earlier = [m.content for m in store.get_messages(
        [i for i in store.user_message_ids(session_id) if src is None or i < src][-_PASSING_TURNS:])]
    passing = named_in_passing(text, earlier)
    if passing is None:
        return []
    value, subject, _ = passing
    cand = Candidate(action="add", kind="fact", subject=subject, value=value, quote=text)
    return [apply_candidate(store, session_id, cand, source_message_id=src, origin=origin, now=now)]


def _readdress(store: Store, session_id: int, text: str, src: int | None, origin: str,
               now: float) -> MemoryOutcome | None:
    """A new name in words that could choose anything ("Sam works", "I'd prefer Beth"; the lexicon's
    ``rule.address_again``) replaces the one the user is called by only when the message also says the
    old name or speaks of names ("hmm chief feels weird actually. Sam works" after "just call me Chief"):
    the rule keeps its words with the new name in place of the old."""
    found = first_match("rule.address_again", text)
    if found is None:
        return None
    with store.transaction():
        rules = [i for i in store.list_items(session_id, statuses=("active",))
                 if i.kind == "directive" and i.subject == ADDRESSED_AS]
        if len(rules) != 1:
            return None
        old, new = rules[0], found.group("name")
        asking = {w for lang in LANGS for w in lexicon_words("rule.address_words", lang)}
        held = [w for w in re.findall(r"[A-Za-z]+", old.value) if w.lower() not in asking]
        said = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
        named = [w for w in held if w.lower() in said]
        if not held or new.lower() in {w.lower() for w in held} or not (named or "name" in said):
            return None
        gone = (named or held)[-1]
        value = re.sub(rf"\b{re.escape(gone)}\b", new, old.value, count=1, flags=re.IGNORECASE)
        cand = Candidate(action="add", kind="directive", subject=ADDRESSED_AS, value=value, quote=text, canonical=True)
        return _supersede(store, session_id, cand, old, value, "directive", _explicit(origin), src, now)


def _count_references(store: Store, session_id: int, text: str, now: float) -> None:
    words = term_set(text)
    if not words:
        return
    hits = [i.id for i in store.list_items(session_id, statuses=("active",))
            if len(words & term_set(i.value)) >= 2]
    if hits:
        store.touch_items(hits, now)


def apply_candidate(store: Store, session_id: int, cand: Candidate, *, source_message_id: int | None,
                    origin: str = "rule", now: float) -> MemoryOutcome:
    """Decide what ``cand`` does given the current state, then apply it as one patch.

    The decision and the patch share one write transaction: another process (an import, a
    second ``ask``) cannot change the state in between, so the patch is never stale."""
    handler = {"add": _add, "correct": _correct, "revoke": _revoke, "confirm": _confirm,
               "reject": _reject, "step_done": _step_done, "shift": _shift}[cand.action]
    with store.transaction():
        current = store.list_items(session_id, statuses=("active", "pending"))
        active = [i for i in current if i.status == "active"]
        return handler(store, session_id, cand, active, current, source_message_id, origin, now)


def _new(cand: Candidate, kind: str, subject: str, value: str, *, origin: str, source_message_id: int | None,
         status: str = "active", supersedes: int | None = None, details: dict[str, Any] | None = None) -> AddItem:
    # Facts about the user themself (name, home, allergies, diet, job) go to the profile, and so does
    # a family member's allergy ("allergy:mia").
    scope = "profile" if subject.split(":", 1)[0] in PROFILE_SUBJECTS and kind in ("fact", "preference", "directive") else None
    return AddItem(kind=kind, subject=subject, value=value, status=status, origin=origin,
                   source_message_id=source_message_id, source_quote=cand.quote, supersedes=supersedes,
                   details=details or {}, scope=scope)


def _commit(store: Store, session_id: int, ops: list[PatchOp], reason: str, now: float) -> PatchResult:
    # A revoked rule goes with every copy of it (the same sentence filed under another label).
    ops = revocations_reaching_twins(ops, store.list_items(session_id, statuses=("active",)))
    return apply_patch(store, propose(store, session_id, ops, reason=reason), now=now)


def _add(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
         src: int | None, origin: str, now: float) -> MemoryOutcome:
    for item in current:
        if item.kind == cand.kind and _norm(item.value) == _norm(cand.value):
            store.touch_items([item.id], now)
            return MemoryOutcome(action="duplicate", item_ids=[item.id])
    if cand.kind == "goal":
        old = next((i for i in active if i.kind == "goal"), None)
        value = (aim_added(old.value, cand.value) or trip_added(old.value, cand.value) if old else None) or cand.value
        op = _new(cand, "goal", "goal", value, origin=origin, source_message_id=src,
                  supersedes=old.id if old else None, details={"state": "in_progress", "steps_done": []})
        result = _commit(store, session_id, [op], "new goal", now)
        return MemoryOutcome(action="superseded" if old else "added", item_ids=result.added_ids)
    trip = next((i for i in active if i.kind == "goal" and TRIP.search(i.value)), None)
    if cand.kind == "decision" and trip is not None and CHANGED.search(cand.quote):
        # "最后还是定了海南三亚" after "打算去云南玩": the choice replaces the trip that was planned.
        op = _new(cand, "decision", cand.subject, cand.value, origin=origin, source_message_id=src, supersedes=trip.id)
        result = _commit(store, session_id, [op], "a choice replaces the planned trip", now)
        return MemoryOutcome(action="superseded", item_ids=result.added_ids)
    if cand.kind == "directive" and cand.replaces and (replaced := _replaced_rule(cand, active)) is not None:
        # "Actually that feels stiff. Be casual with me": the new way of answering replaces the old
        # one, and a question the same message raised about dropping it is answered.
        value = _without_the_old_way(cand.value, replaced.value, cand.subject) if cand.subject == replaced.subject \
            else cand.value
        ops: list[PatchOp] = [_new(cand, "directive", cand.subject, value, origin=origin, source_message_id=src,
                                   supersedes=replaced.id)]
        ops += [SetStatus(item_id=i.id, status="revoked", action="reject", reason="the rule was replaced")
                for i in current if i.status == "pending" and i.details.get("proposal") == "revoke"
                and set(i.details.get("candidates") or []) <= {replaced.id}]
        result = _commit(store, session_id, ops, "a new reply rule replaces the old one", now)
        return MemoryOutcome.told("superseded", "updated", result.added_ids, old=replaced.id,
                                  new_id=result.added_ids[0], value=clip(cand.value, 80))
    if cand.kind in SUPERSEDABLE_KINDS and not cand.canonical and (moved := when_news(cand, active)) is not None:
        # "she pushed it again lol, now june 19 to 23": news of a day or time moved moves it in place
        return _supersede(store, session_id, cand, moved[0], moved[1], moved[0].kind,
                          _explicit(origin), src, now)
    planned = [g for g in active if g.kind == "goal" and _COUNTS_TABLES.search(g.value)] if cand.subject == "tables" \
        and not any(i.subject == "tables" for i in active) else []
    if planned:
        # the tables the plan counts ("宝宝满月酒 打算请15桌"): a count settled takes its place there, one only
        # suggested ("我妈说亲戚多 要25桌") changes nothing
        settled = count_said_anew(cand.model_copy(update={"kind": "decision"}), planned)
        if settled is None:
            return MemoryOutcome(action="ignored")
        return _supersede(store, session_id, cand.model_copy(update={"subject": "goal"}), settled[0], settled[1],
                          "goal", _explicit(origin), src, now, details=settled[0].details)
    if (recounted := count_said_anew(cand, active)) is not None:
        # "不行 最后定了20桌" after "宝宝满月酒 打算请15桌": the count settled takes the old one's place
        return _supersede(store, session_id, cand, recounted[0], recounted[1], recounted[0].kind, _explicit(origin),
                          src, now)
    decided = [i for i in active if i.kind == "decision"]
    if cand.kind == "decision" and decided and fires("change.mind", cand.quote):
        # "试驾完改主意了，还是买小鹏P7" after "决定买比亚迪的汉了": a choice made instead replaces the last one
        return _supersede(store, session_id, cand, decided[-1], cand.value, "decision", origin, src, now)
    if (budget := budget_said_anew(cand, active)) is not None:
        # "最后说定了，八千五封顶" after "预算五千左右": a new limit of the same money is the budget's new value
        return _supersede(store, session_id, cand.model_copy(update={"subject": "budget"}), budget, cand.value,
                          "constraint", _explicit(origin), src, now)
    if (old := limit_said_anew(cand, active) or length_said_anew(cand, active)) is not None:
        # "cap it at 700 instead" after "max $900"; "50 words max going forward" after "under 100 words from now on"
        # (a length rule stays a rule: "still too long, 50 words max")
        kind = "directive" if old.kind == "directive" and cand.subject == "length" else cand.kind
        return _supersede(store, session_id, cand, old, cand.value, kind, _explicit(origin), src, now)
    same = same_subject(cand, active)
    if cand.subject == ADDRESSED_AS and same is None and fires("rule.address_short", cand.quote):
        return MemoryOutcome(action="ignored")  # "Just Tuesday is fine" with no name to replace names no one
    if (cand.subject == ADDRESSED_AS or cand.subject in HOW_REPLIES_READ and cand.kind == "directive") \
            and same is not None:
        # "还是叫我杰哥吧" after "叫我阿杰就行": the user is called one name at a time, the last one said; so is
        # the tone, what comes first, the script ("keep it honest but be gentle pls" after "be brutally honest")
        return _supersede(store, session_id, cand, same, cand.value, "directive", origin, src, now)
    if cand.kind == "directive" and same is not None and same.kind == "directive":
        op = _new(cand, "directive", cand.subject, cand.value, origin=origin, source_message_id=src,
                  status="pending", supersedes=same.id)
        result = _commit(store, session_id, [op], "directive conflicts with an active one", now)
        pid = result.added_ids[0]
        return MemoryOutcome.told("pending", "conflict", [pid], pid=pid, new=clip(cand.value, 60), old=same.id,
                                  old_value=clip(same.value, 60))
    if same is not None and cand.kind == "fact" and same.subject.split(":", 1)[0] in LIST_SUBJECTS:
        same = None  # a second allergy or condition is one more, not a new value of the first
    if same is not None and same.kind in SUPERSEDABLE_KINDS and cand.kind in SUPERSEDABLE_KINDS:
        if cand.subject == same.subject == "budget" and cand.kind == "constraint" and one_sum(cand.value) is not None \
                and CHANGED.search(cand.quote):
            # "ok final answer, lets cap it at 4200 total" after "hmm actually we can stretch to 3500": the
            # user says the budget's new amount outright, as a correction does ("My budget is 3000" alone
            # is asked about)
            origin = _explicit(origin)
        # A head count said alone ("10个人", "12 people") keeps what else its item said ("周六在家请客，一共10个人").
        value = corrected_value(same.value, cand.value) if fires("change.count_alone", cand.value.strip(_EDGE)) \
            else cand.value
        return _supersede(store, session_id, cand, same, value, same.kind if same.kind == "constraint" else cand.kind,
                          origin, src, now)
    op = _new(cand, cand.kind, cand.subject, cand.value, origin=origin, source_message_id=src)
    result = _commit(store, session_id, [op], f"new {cand.kind}", now)
    return MemoryOutcome(action="added", item_ids=result.added_ids)


_ONCE = re.compile(alternatives("change.once", ("zh", "en")), re.IGNORECASE)
_COUNTS_TABLES = re.compile(r"\d\s*桌|\d\s*tables\b", re.IGNORECASE)


def _replaced_rule(cand: Candidate, active: list[MemoryItem]) -> MemoryItem | None:
    """The reply rule a rule said instead replaces: the one under its subject, else the only one
    active, else the one sharing the most words with what the message said (none when tied)."""
    rules = [i for i in active if i.kind == "directive"]
    same = [i for i in rules if cand.subject and i.subject == cand.subject]
    if same or len(rules) <= 1:
        return (same or rules)[-1] if same or rules else None
    words = _rule_words(cand.quote)
    scored = sorted(((len(words & _rule_words(i.value)), i.id, i) for i in rules), reverse=True)
    return scored[0][2] if scored[0][0] > scored[1][0] else None


def _supersede(store: Store, session_id: int, cand: Candidate, old: MemoryItem, value: str, kind: str, origin: str,
               src: int | None, now: float, details: dict[str, Any] | None = None) -> MemoryOutcome:
    # A count the rules file under its canonical subject keeps it when it replaces the model's copy
    # ("guests: 8 guests" → "head count", not "guests": the pass then relabelled it "we're 10").
    subject = cand.subject if cand.subject in CANONICAL_SUBJECTS else _retitled(old.subject, value)
    if kind == "directive" and old.kind == "directive" and subject == old.subject:
        value = _without_the_old_way(value, old.value, subject)
    if ORIGIN_RANK.get(origin, 0) < ORIGIN_RANK.get(old.origin, 0):
        op = _new(cand, kind, subject, value, origin=origin, source_message_id=src, status="pending",
                  supersedes=old.id, details=details)
        result = _commit(store, session_id, [op], "inferred change to a user-stated item", now)
        pid = result.added_ids[0]
        return MemoryOutcome.told("pending", "user_set", [pid], pid=pid, old=old.id, old_value=clip(old.value, 60),
                                  new=clip(value, 60))
    op = _new(cand, kind, subject, value, origin=origin, source_message_id=src, supersedes=old.id, details=details)
    result = _commit(store, session_id, [op], f"newer {kind} for {subject}", now)
    return MemoryOutcome.told("superseded", "updated", result.added_ids, old=old.id, new_id=result.added_ids[0],
                              value=clip(value, 80))


def _without_the_old_way(value: str, old: str, subject: str) -> str:
    """A reply rule said in place of another without the clauses that only name the old way ("还是用简体吧" of
    "改一下，还是用简体吧，繁体我自己看着累" after "以后回答都用繁体字"): the rule holds what it asks for now. Only where
    the subject's names are its ways (the script, the language, the tone…; not "字以内" of two lengths)."""
    aliases = dict(SUBJECT_ALIASES).get(subject, ()) if subject in HOW_REPLIES_READ | {"language"} else ()
    old_ways = {a for a in aliases if a in old.lower()}
    parts = clauses(value)
    if not old_ways or len(parts) < 2:
        return value
    kept = [p for p in parts if any(a in p.lower() and a not in old_ways for a in aliases)] \
        or [p for p in parts if not any(a in p.lower() for a in old_ways)]
    return ("，" if CJK_CHAR.search(value) else ", ").join(p.strip(_EDGE) for p in kept) if kept else value


def _explicit(origin: str) -> str:
    """The origin of a change the user said outright: the user's, when the rules read it."""
    return "user" if origin in ("rule", "import") else origin


def _retitled(subject: str, value: str) -> str:
    """A subject made of an old value's words ("decision:hertz/rental") made anew from the value that
    replaces it, so that the old value does not stay behind in its name; other subjects stay."""
    prefix, _, words = subject.partition(":")
    if "/" not in words or all(word in value.lower() for word in words.split("/")):
        return subject
    return topic_subject(prefix, value)


def _correct(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
             src: int | None, origin: str, now: float) -> MemoryOutcome:
    if _says_nothing(cand.value):
        # "Oh wait, I mixed it up." before "The exam is actually on May 27": the slip owned up to is no value (it
        # replaced "Exam is on May 20", and the acknowledgment said "(was wait, you mixed it up)")
        return MemoryOutcome(action="ignored")
    if (renamed := old_name_said(active, cand.quote)) is not None:
        # "名字写错了，是李炜，不是李伟", "it's spelled Kathryn not Katherine": the name said, spelt anew
        item, value = renamed
        return _supersede(store, session_id, cand.model_copy(update={"subject": item.subject}), item, value,
                          item.kind, _explicit(origin), src, now)
    dropped, kept = dropped_value(cand.value)
    if dropped:  # "the 14th, not the 12th": the item holding the old value is the one corrected
        cand = cand.model_copy(update={"value": kept})
    target = holding(active, dropped) if dropped else None
    if target is None and cand.canonical and len(languages_named(cand.value)) == 1:
        # "OK switch back to English please" changes the reply rule, not a fact of that subject held beside it
        # ("I'm trying to practise my Chinese": the change went to pending under it, and the rule stayed)
        target = next((i for i in reversed(active) if i.kind == "directive" and i.subject == cand.subject), None)
    if target is None and cand.subject:
        target = same_subject(cand.model_copy(update={"kind": "fact"}), active)
    if target is None and cand.canonical:  # "actually, switch to French instead" changes the reply rule
        target = next((i for i in reversed(active) if i.kind == "directive" and i.subject == cand.subject), None)
    if target is not None and not dropped and written_numbers(cand.value) and not written_numbers(target.value):
        # A new number corrects the item of that subject that holds one ("budget: 4000", not "budget: Porto").
        target = next((i for i in reversed(active) if i.subject == target.subject and written_numbers(i.value)), target)
    if not dropped and says_when(said := cand.value.split(": ", 1)[-1]) and target is None \
            and (moved := when_moved(active, cand.quote) or when_moved(active, said)) is not None:
        # "哦说错了，是下周四" after "下周三要带我妈去医院复查", "pushing it to wednesday 10am": the day or
        # the time said is put in place of the old one
        return _move_when(store, session_id, cand, moved, _explicit(origin), src, now)
    if target is None and cand.subject and not cand.canonical:
        target = by_words(active, cand.subject.split(":", 1)[-1])
        if target is None and written_numbers(cand.value):
            target = goal_by_words(active, cand.subject.split(":", 1)[-1], cand.value.split(": ", 1)[-1])
        if target is None and written_numbers(cand.value) and not is_question(cand.quote):  # "my mistake, 14, one is off"
            target = latest_correctable(active, cand.value, cand.quote)
    elif target is None and not cand.subject:
        if (renamed := corrected_name(active, cand.value)) is not None:
            # "哦打错了，应该是小邹" right after "你可以叫我小周": the name just said, spelt anew
            item, value = renamed
            return _supersede(store, session_id, cand.model_copy(update={"subject": item.subject}), item, value,
                              item.kind, _explicit(origin), src, now)
        target = latest_correctable(active, cand.value, cand.quote)
        if answers_an_unfiled_number(_previous_said(store, session_id, src), cand.value, active):
            target = None
        elif (aimed := goal_said_anew(active, cand.value)) is not None \
                and (target is None or (aimed[0].updated_at, aimed[0].id) > (target.updated_at, target.id)):
            # "算了还是130吧" after "想减到125": the goal's target said anew, when no value of its size was said since
            goal, value = aimed
            return _supersede(store, session_id, cand.model_copy(update={"subject": goal.subject}), goal, value,
                              "goal", _explicit(origin), src, now, details=goal.details)
    if target is None and (limit := limit_said_anew(cand, active, corrected=True)) is not None:
        # "预算改成2500吧" after "帮我挑个新手机，最多3000元": the one money limit is the budget changed
        return _supersede(store, session_id, cand, limit, cand.value, "constraint", _explicit(origin), src, now)
    if target is None and cand.kind == "preference":
        # "scratch that, aisle seats are better for me": the liking it takes back shares its words
        target = by_words([i for i in active if i.kind == "preference"], cand.value)
    if target is not None and is_name_subject(target.subject) and not is_name_subject(cand.subject):
        # A name is corrected by its spelling (``names``), not by a sentence sharing a word with it
        # ("it's Sam not Pam, Pam is my sister" after "I'm Sam").
        target = None
    explicit = _explicit(origin)
    if target is None:
        if not cand.subject:
            return MemoryOutcome(action="ignored")
        kind = "constraint" if written_numbers(cand.value) and cand.canonical \
            else "preference" if cand.kind == "preference" else "fact"
        op = _new(cand, kind, cand.subject, cand.value, origin=explicit, source_message_id=src)
        result = _commit(store, session_id, [op], "correction with nothing to correct: new item", now)
        return MemoryOutcome(action="added", item_ids=result.added_ids)
    said = cand.value
    if not cand.canonical and target.subject != cand.subject and written_numbers(said.split(": ", 1)[-1]):
        # "看了下五千的都不太行，加到七千": the words before the change are a remark, not what changes;
        # the new number takes the old one's place in the item it corrects.
        said = said.split(": ", 1)[-1]
    value = swapped(target.value, dropped, said) if dropped else corrected_value(target.value, said)
    if not dropped and says_when(cand.quote) and not says_when(target.value) and \
            (moved := when_moved([i for i in active if i.id != target.id], cand.quote)) is not None:
        # "不对，改到周日出发了，预算加到四千": the day said beside the new budget moves the trip's day too
        _move_when(store, session_id, cand, moved, explicit, src, now)
    return _supersede(store, session_id, cand, target, value, target.kind, explicit, src, now)


def _says_nothing(value: str) -> bool:
    """A correction that names no value: only the words owning up to a slip ("Oh wait, I mixed it up", "sorry, my
    mistake"), no term and no number left."""
    rest = CORRECT.sub(" ", value)
    for _ in range(3):
        rest = CHANGE_LEAD.sub("", without_lead_in(rest.strip(_EDGE)).strip(_EDGE)).strip(_EDGE)
    return not term_set(rest) and not written_numbers(rest) and all(ch in ZH_STOPCHARS for ch in CJK_CHAR.findall(rest))


def _previous_said(store: Store, session_id: int, src: int | None) -> str:
    """What the user said in the message before ``src`` ("" when none)."""
    earlier = [m for m in store.last_messages(session_id, 8) if m.role == "user" and src is not None and m.id < src]
    return earlier[-1].content if earlier else ""


def _shift(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
           src: int | None, origin: str, now: float) -> MemoryOutcome:
    """A value changed by an amount ("再加500吧" after "预算1000"; ``shifts``): the item it changes, its
    amount computed anew in its own words. Nothing is written when no item fits."""
    pool = [i for i in active if i.kind in SUPERSEDABLE_KINDS and not is_name_subject(i.subject)]
    if (days := days_shift(cand.quote)) is not None:
        # "let's push the whole thing back a week": the latest day held, put off by that many days
        dated = [i for i in pool if month_days(i.value)]
        if not dated:
            return MemoryOutcome(action="ignored")
        target = max(dated, key=lambda i: (i.updated_at, i.id))
        # (the word that said it was the old day goes: "搬家日子原来定在6月15号" put off is "搬家日子定在6月22号")
        value = _ONCE.sub("", deferred(target.value, days) or target.value)
        return _supersede(store, session_id, cand.model_copy(update={"subject": target.subject}), target, value,
                          target.kind, _explicit(origin), src, now, details={**target.details, SHIFTED: cand.quote})
    shift = shift_in(cand.quote)
    found = shift_target(pool, shift, cand.subject or None) if shift is not None else None
    if shift is None or found is None:
        if ":" in cand.subject:  # a part of the budget changed, none known: the part as said ("吃的预算再加五百")
            part = cand.model_copy(update={"action": "add", "kind": "constraint"})
            return _add(store, session_id, part, active, current, src, origin, now)
        if shift is not None and shift.noun is not None:
            # A number of something no item counts ("目标减10斤", "加3个菜"): the sentence as it reads.
            return _unshifted(store, session_id, cand, src, origin, now)
        # No value to change: "add 300 to the budget" with no budget known says no budget of 300.
        return MemoryOutcome(action="ignored")
    target, amount = found
    # The new number is the program's sum, not the user's words: the item says how it was reached.
    return _supersede(store, session_id, cand.model_copy(update={"subject": target.subject}), target,
                      shifted_value(target.value, amount, shift), target.kind, _explicit(origin), src, now,
                      details={**target.details, SHIFTED: cand.quote})


def _unshifted(store: Store, session_id: int, cand: Candidate, src: int | None, origin: str,
               now: float) -> MemoryOutcome:
    outcomes = []
    for said in unshifted(cand.quote):
        current = store.list_items(session_id, statuses=("active", "pending"))
        active = [i for i in current if i.status == "active"]
        handler = {"add": _add, "correct": _correct, "revoke": _revoke}.get(said.action)
        if handler is not None:
            outcomes.append(handler(store, session_id, said, active, current, src, origin, now))
    return next((o for o in outcomes if o.action != "ignored"), MemoryOutcome(action="ignored"))


def _move_when(store: Store, session_id: int, cand: Candidate, moved: tuple[MemoryItem, str], origin: str,
               src: int | None, now: float) -> MemoryOutcome:
    """The item a day or time moved in, under its own subject (not the subject the change named)."""
    item, value = moved
    return _supersede(store, session_id, cand.model_copy(update={"subject": item.subject}), item, value, item.kind,
                      origin, src, now)


def _shared_characters(revocation: str, rule: str) -> int:
    """How many Chinese characters that carry meaning a revocation shares with a rule: neither
    grammar characters nor those of the words that revoke ("算了，不用…了")."""
    def mine(text: str) -> set[str]:
        return {ch for ch in CJK_CHAR.findall(text) if ch not in ZH_STOPCHARS and ch not in _REVOKING}
    return len(mine(revocation) & mine(rule))


_REVOKING = frozenset("".join(word for name in ("intent.revoke", "change.let_go")
                              for word in lexicon_words(name, "zh")))


def _counts_alike(revocation: str, rule: str) -> bool:
    """The revocation names the count of what the rule limits by a number ("条数" of "别超过5条", "字数" of "100字以内")."""
    return any(re.search(rf"\d\s*{unit}", rule) for unit in re.findall(f"([{CJK}])数", revocation))


def _names_in_chinese(revocation: str, rule: str) -> bool:
    """The revocation holds two characters in a row of the rule, not both grammar or words that
    revoke ("要点" of "要点那个可以不用了" in "回答用要点列出来")."""
    grammar = ZH_STOPCHARS | _REVOKING
    pairs = (run[i:i + 2] for run in CJK_RUN.findall(revocation) for i in range(len(run) - 1))
    return any(not set(pair) <= grammar and pair in rule for pair in pairs)


def _rule_words(text: str) -> set[str]:
    """The words a revocation and a rule share: a name made of the rule's words ("the conclusion-first
    thing") counts word by word; the spoken opening of either ("Oh, one thing:") counts for nothing."""
    plain = without_lead_in(text.strip()) or text
    return term_set(re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", plain))


# Kinds of what a plan given up takes with it, when said in the message that set it out.
_PLAN_DETAIL_KINDS = ("constraint", "preference", "decision")


def _revoke(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
            src: int | None, origin: str, now: float) -> MemoryOutcome:
    if cand.kind == "goal":  # the plan given up goes, with every goal still active
        goals = [i for i in active if i.kind == "goal"]
        if not goals:
            return MemoryOutcome(action="ignored")
        # ... and the plan's details said with it ("I want to start learning Japanese, thinking 30 min a day on
        # Duolingo", then "drop the whole Japanese plan": the half hour of Duolingo stayed a constraint); what the user
        # said of themselves (a profile item) stays.
        said_with = {g.source_message_id for g in goals if g.source_message_id is not None}
        details = [i for i in active if i.source_message_id in said_with and i.scope == "session"
                   and i.kind in _PLAN_DETAIL_KINDS]
        _commit(store, session_id, [SetStatus(item_id=g.id, status="revoked", action="revoke", reason=cand.quote)
                                    for g in goals + details], "the user gave up the plan", now)
        return MemoryOutcome.told("revoked", "revoked", [g.id for g in goals], id=goals[-1].id,
                                  value=clip(goals[-1].value, 80))
    if cand.subject == ADDRESSED_AS:  # "别叫老板了": the way the user is called, if one stands ("别叫外卖了": none)
        # the name it drops is the one the rule calls the user ("boss", "老板"), or "that"
        rules = [i for i in active if i.kind == "directive" and is_name_subject(i.subject)]
        called = [i for i in rules if _rule_words(cand.value) & _rule_words(i.value) - _rule_words("call me 叫我")
                  or fires("reference.that", cand.value)
                  or any(len(n) > 1 and n in cand.value for n in names_in(i.value))]  # "不用叫我陛下了"
        if not called and len(rules) == 1 and fires("rule.address_none", cand.value):
            called = rules  # "以后别叫我名字了", "don't use my name at all": whatever name it holds
        return _revoke_one(store, session_id, cand, called[-1], now) if called else MemoryOutcome(action="ignored")
    if cand.subject == "diet" and cand.kind == "fact":  # "I eat meat again": the user's diet, if one stands
        diets = [i for i in active if i.subject == "diet"]
        return _revoke_one(store, session_id, cand, diets[-1], now) if diets else MemoryOutcome(action="ignored")
    if cand.subject == CALLED_OFF:  # "银行那个不去了": the item naming the errand, or nothing
        gone = called_off(cand.value, active)
        return _revoke_one(store, session_id, cand, gone, now) if gone else MemoryOutcome(action="ignored")
    # The rules the user set, in order: the ways to answer and the prohibitions ("以后别用网络用语").
    rules = sorted((i for i in active if i.kind == "directive" or i.subject.startswith("forbid:")), key=lambda i: i.id)
    if (place := _ordinal(cand.quote or cand.value)) is not None and rules:
        # "scratch that last rule", "第一条取消吧": the rule at that place among the standing ones
        target = rules[min(place, len(rules) - 1) if place >= 0 else -1]
        return _revoke_one(store, session_id, cand, target, now)
    words = _rule_words(cand.value)
    scored = []
    for item in active:
        if item.kind not in REVOCABLE_KINDS:
            continue
        score = len(words & _rule_words(item.value)) + (3 if cand.subject and item.subject == cand.subject else 0)
        if score > 0:
            scored.append((score, item))
    if not scored and len(rules) == 1 and _shared_characters(cand.value, rules[0].value) >= 2:
        # "算了，不用列要点了" beside the one rule "以后回答都用要点列出来": no bigram is shared (要 is a
        # grammar character), but 列 and 点 are.
        scored = [(1, rules[0])]
    if not scored and len(rules) == 1 and fires("rule.back_to_normal", cand.value):
        # "行了行了，正常说话吧" beside the one rule "接下来你用东北话跟我聊呗": back to the usual drops it (it went to pending)
        scored = [(1, rules[0])]
    if not scored and len(alike := [r for r in rules if _counts_alike(cand.value, r.value)]) == 1:
        # "不用限制条数了" beside the one rule "你以后回复都简短点，别超过5条": what it counts is named (条数 of 5条;
        # beside "别在酒店办了" too, which counts nothing)
        scored = [(1, alike[0])]
    names_rule = bool(RULE_REFERENCE.search(cand.quote or cand.value))
    if not scored and names_rule and len(named := [r for r in rules if _names_in_chinese(cand.value, r.value)]) == 1:
        # "要点那个可以不用了" beside "回答用要点列出来" and "不要用表情": the rule holding the word it names
        scored = [(1, named[0])]
    scored.sort(key=lambda pair: (-pair[0], -pair[1].id))
    if names_rule and len(ruled := [p for p in scored if p[1].kind == "directive"]) == 1 and ruled[0][0] == scored[0][0]:
        # "算人均那个不用了" beside the rule "以后每次回答最后都帮我算一下人均花多少" and the budget "人均预算8000": "那个"
        # names the one rule sharing its words (it went to pending, and the 0.5B answered it)
        scored = ruled
    # The same rule in both languages: two shared terms, or — when the user names a rule ("那条…
    # 规则", "the rule about …") and only one rule shares anything — one. (A Chinese bigram like
    # 结论 carries what one English word does; 先给 is grammar and does not count.)
    # A revocation that shares a word with one standing rule and nothing else ("不用再列表了" beside
    # "以后都用列表回答我") names that rule too.
    only_rule = len(scored) == 1 and scored[0][1].kind == "directive"
    alone = len(scored) == 1 or (len(scored) > 1 and scored[0][0] >= scored[1][0] + 2)
    clear = bool(scored) and alone and (scored[0][0] >= 2 or ((names_rule or only_rule) and len(scored) == 1))
    if clear:
        target = scored[0][1]
        return _revoke_one(store, session_id, cand, target, now)
    if fires("plan.cancel", cand.value) and (gone := called_off(cand.value, active)) is not None:
        # "actually cancel the dentist thing": no rule is meant, the appointment that names it is off
        return _revoke_one(store, session_id, cand, gone, now)
    if not scored and REPLY_BEHAVIOUR.search(cand.value) and fires("rule.stop_doing", cand.value) \
            and not fires("change.let_go", cand.value) and not is_question(cand.quote):
        # "pls stop using emojis in your replies" with no such rule to drop: a new rule, not a drop
        prohibition = cand.model_copy(update={"action": "add", "kind": "directive",
                                              "subject": topic_subject("forbid", cand.value), "canonical": False})
        return _add(store, session_id, prohibition, active, current, src, origin, now)
    options = [item.id for _, item in scored[:4]] or [i.id for i in rules][:4]
    if not options:
        return MemoryOutcome(action="ignored")
    op = _new(cand, "directive", "revoke", f"{REVOKE_MARK}{clip(cand.value, 200)}", origin=origin,
              source_message_id=src, status="pending", details={"proposal": "revoke", "candidates": options})
    result = _commit(store, session_id, [op], "unclear revocation", now)
    pid = result.added_ids[0]
    if len(options) == 1:  # one id in the question: /confirm and /reject accept the rule's own id
        rule = next((i for i in active if i.id == options[0]), None)
        return MemoryOutcome.told("pending", "drop_one", [pid], id=options[0], value=clip(rule.value if rule else "", 60))
    listed = ", ".join(f"#{i}" for i in options)
    return MemoryOutcome.told("pending", "which_rule", [pid], listed=listed, pid=pid)


# A rule named by its place ("the first rule", "最后一条"): index among the standing rules, -1 the last.
_ORDINALS = ((0, "rule.ordinal_1"), (1, "rule.ordinal_2"), (2, "rule.ordinal_3"), (-1, "rule.ordinal_last"))


def _ordinal(text: str) -> int | None:
    return next((place for place, name in _ORDINALS if fires(name, text)), None)


# Words that name a rule (the lexicon's ``rule.reference``), case-insensitive.
RULE_REFERENCE = re.compile(alternatives("rule.reference", ("zh", "en")), re.IGNORECASE)


_CANCEL = rx(alternatives("plan.cancel", ("zh", "en")))
_NAMING_REACH = 5  # words (or twice as many Chinese characters) either side of "cancel" that can name what goes


def called_off(value: str, active: list[MemoryItem]) -> MemoryItem | None:
    """The one appointment or booking a cancellation names ("cancel the dentist thing", "银行那个不去了",
    "货拉拉取消了"): of the items that say when or are a choice made, the one sharing the most words with those
    right around the cancelling words in their clause ("the team meeting on Friday got cancelled so I have more
    time to prep for the interview" names the meeting, not the interview), when no other shares as many; None when
    none does."""
    words: set[str] = set()
    for clause in clauses(value) or [value]:
        for cue in _CANCEL.finditer(clause):
            before, after = clause[:cue.start()], clause[cue.end():]
            near = " ".join([*before.split()[-_NAMING_REACH:], *after.split()[:_NAMING_REACH]]) if clause.isascii() \
                else before[-2 * _NAMING_REACH:] + " " + after[:2 * _NAMING_REACH]
            words |= named_terms(near)
    scored = sorted(((len(words & named_terms(i.value)), i.id, i) for i in active
                     if i.scope != "profile" and (i.subject.startswith("when:") or i.kind == "decision"
                                                  or says_when(i.value))), key=lambda t: (-t[0], -t[1]))
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][2]


def _revoke_one(store: Store, session_id: int, cand: Candidate, target: MemoryItem, now: float) -> MemoryOutcome:
    _commit(store, session_id, [SetStatus(item_id=target.id, status="revoked", action="revoke", reason=cand.quote)],
            "revoked by the user", now)
    return MemoryOutcome.told("revoked", "revoked", [target.id], id=target.id, value=clip(target.value, 80))


def pending_revocation_of(items: list[MemoryItem], rule_id: int) -> MemoryItem | None:
    """The pending revocation whose one candidate is rule ``rule_id`` (so /confirm RULE works)."""
    return next((i for i in reversed(items) if i.status == "pending" and i.details.get("proposal") == "revoke"
                 and i.details.get("candidates") == [rule_id]), None)


def _latest_pending(current: list[MemoryItem]) -> MemoryItem | None:
    """The question a bare "yes"/"no" answers: this session's latest (a pending profile item is
    confirmed by id, so a "yes" in another session cannot settle it)."""
    pending = [i for i in current if i.status == "pending" and i.scope != "profile"]
    return pending[-1] if pending else None


def confirm_ops(item: MemoryItem) -> list[PatchOp]:
    """Operations that confirm a pending item (a pending revocation revokes its one candidate)."""
    if item.details.get("proposal") == "revoke":
        candidates = item.details.get("candidates", [])
        if len(candidates) != 1:
            raise ValueError(render_notice("several_rules", {"id": item.id}))
        return [SetStatus(item_id=candidates[0], status="revoked", action="revoke", reason=f"confirmed #{item.id}"),
                SetStatus(item_id=item.id, status="revoked", action="confirm", reason="revocation done")]
    return [SetStatus(item_id=item.id, status="active", action="confirm")]


def _confirm(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
             src: int | None, origin: str, now: float) -> MemoryOutcome:
    item = _latest_pending(current)
    if item is None:
        return MemoryOutcome(action="ignored")
    try:
        ops = confirm_ops(item)
    except ValueError:
        return MemoryOutcome.told("ignored", "several_rules", id=item.id)
    _commit(store, session_id, ops, "confirmed by the user", now)
    return MemoryOutcome.told("confirmed", "confirmed", [item.id], id=item.id)


def _reject(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
            src: int | None, origin: str, now: float) -> MemoryOutcome:
    item = _latest_pending(current)
    if item is None:
        return MemoryOutcome(action="ignored")
    _commit(store, session_id, [SetStatus(item_id=item.id, status="revoked", action="reject")],
            "rejected by the user", now)
    return MemoryOutcome.told("rejected", "rejected", [item.id], id=item.id)


def _step_done(store: Store, session_id: int, cand: Candidate, active: list[MemoryItem], current: list[MemoryItem],
               src: int | None, origin: str, now: float) -> MemoryOutcome:
    goal = next((i for i in active if i.kind == "goal"), None)
    if goal is None:
        return MemoryOutcome(action="ignored")
    details = dict(goal.details)
    details["steps_done"] = [*details.get("steps_done", []), clip(cand.value, 120)]
    _commit(store, session_id, [SetDetails(item_id=goal.id, details=details)], "goal step done", now)
    return MemoryOutcome(action="step", item_ids=[goal.id])

