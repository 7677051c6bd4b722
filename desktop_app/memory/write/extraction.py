"""Rule-based extraction of memory from the user's words (Chinese and English, any model).

Each sentence yields at most one :class:`Candidate`. Candidates are proposals only: the
update rules in :mod:`desktop_app.memory.write.updates` decide whether they add, supersede, go to
pending or are dropped, and :mod:`desktop_app.memory.write.patches` validates what is written.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from desktop_app.lexicon import LANGS, alternatives, cue, each_pattern, fires, first_match, lexicon
from desktop_app.memory.lang.amounts import counted, only_counts, written_numbers
from desktop_app.memory.lang.text import (
    CANONICAL_SUBJECTS,
    CJK_CHAR,
    canonical_subject,
    clip,
    split_sentences,
    term_set,
    topic_subject,
    without_lead_in,
)
from desktop_app.memory.write.mood import (
    AFFIRM,
    ASKS,
    DENY,
    RELAYED,
    REPORTED,
    REQUEST,
    TRIM,
    addressed,
    is_hypothetical,
    is_question,
    is_request,
    rx,
    unquoted,
)
from desktop_app.memory.write.shifts import shift_in


class Candidate(BaseModel):
    """Something a sentence asks memory to do."""

    action: Literal["add", "revoke", "correct", "confirm", "reject", "step_done", "shift"]
    kind: str = "fact"
    subject: str = ""
    value: str = ""
    quote: str
    canonical: bool = False  # subject came from SUBJECT_ALIASES (safe to supersede/conflict by it)
    replaces: bool = False  # a reply rule said in place of one the same message drops


# A revocation and a correction (the lexicon's ``intent.revoke``, ``intent.correct``): case-insensitive,
# ``^`` the start of the sentence only.
REVOKE = rx(alternatives("intent.revoke", ("zh", "en")))
CORRECT = rx(alternatives("intent.correct", ("zh", "en")))
# A change of a value (the lexicon's ``change.value``), case-insensitive.
CHANGE = rx(alternatives("change.value", ("zh", "en")))
# A standing rule and a prohibition (the lexicon's ``rule.standing``, ``rule.prohibit``), case-insensitive.
STANDING = rx(alternatives("rule.standing", ("zh", "en")))
PROHIBIT = rx(alternatives("rule.prohibit", ("zh", "en")))
# A rule about the reply and a limit (the lexicon's ``rule.reply``, ``rule.limit``), case-insensitive.
REPLY_BEHAVIOUR = rx(alternatives("rule.reply", ("zh", "en")))
LIMIT = rx(alternatives("rule.limit", ("zh", "en")))
# How to talk to the user, said without "always" (the lexicon's ``rule.manner``); in a message that
# drops a rule, the new way of answering (``rule.manner_instead``) and the words that say it comes
# instead (``rule.instead``).
MANNER = rx(alternatives("rule.manner", ("zh", "en")))
MANNER_INSTEAD = rx(alternatives("rule.manner_instead", ("zh", "en")))
# How the user wants to be called (``rule.address``): a reply rule of the profile, one at a time.
ADDRESS = rx("|".join(p for name in ("rule.address", "rule.address_short") if (p := alternatives(name, ("zh", "en")))))
ADDRESSED_AS = "name:called"
# A name no longer wanted (``rule.address_drop``): the address rule goes.
ADDRESS_DROP = rx(alternatives("rule.address_drop", ("zh", "en")))
INSTEAD = rx(alternatives("rule.instead", ("zh", "en")))
# Back to the assistant's own way ("just talk normally"; the lexicon's ``rule.default_manner``): no rule.
DEFAULT_MANNER = rx(alternatives("rule.default_manner", ("zh", "en")))
# A date (the lexicon's ``time.date``).
DATE = rx(alternatives("time.date", ("zh", "en")))
CLOCK = rx(alternatives("time.clock", ("zh", "en")))


def _is_me(word: str) -> bool:
    """``word`` is the user speaking of themself ("I", "me", "我"; the lexicon's ``address.me``)."""
    return _whole("address.me", word)


def _whole(concept: str, word: str) -> bool:
    """``word`` is, whole, one of ``concept``'s words in either language."""
    return any((p := cue(concept, lang)) is not None and p.fullmatch(word) is not None for lang in LANGS)


def _is_pronoun(word: str) -> bool:
    """``word`` is a pronoun for someone named before ("she", "他"; the lexicon's ``address.pronoun``)."""
    return _whole("address.pronoun", word)


# Facts the user states (patterns in the lexicon's ``fact.*``): a fixed subject ("我叫…", "I live in …"),
# else the subject the sentence names ("my X is Y", "X is <number>"). The first that matches wins;
# Chinese is tried before English, as when these were written here.
FACT_CUES: tuple[tuple[str, str | None], ...] = (
    ("fact.name", "name"), ("fact.age", "age"), ("fact.location", "location"), ("fact.allergy", "allergy"),
    ("fact.family_allergy", "allergy:"), ("fact.health", "health:"), ("fact.diet", "diet"),
    ("fact.family_diet", "diet:"),
    ("fact.occupation", "occupation"), ("fact.pets", "pets:"), ("fact.family", "family:"),
    ("fact.head_count", "head count"), ("fact.departure", "departure"), ("fact.trip_length", "trip length"),
    ("fact.lodging", "lodging"),
    ("fact.schedule", None), ("fact.priced", None), ("fact.my_subject", None),
    ("fact.numbered_subject", None),
)
# The fact cues that name their subject themselves ("10月3号出发" is the departure).
_FIXED_FACT_CUES = tuple((name, fixed) for name, fixed in FACT_CUES if fixed is not None)
# A preference, a decision and the goal (the lexicon's ``kind.preference``, ``kind.decision``,
# ``kind.goal``), case-insensitive.
PREFERENCE = rx(alternatives("kind.preference", ("zh", "en")))
DECISION = rx(alternatives("kind.decision", ("zh", "en")))
MOVED = rx(alternatives("change.moved", ("zh", "en")))
GOAL = rx(alternatives("kind.goal", ("zh", "en")))
GOAL_TARGET = rx(alternatives("goal.target", ("zh", "en")))
# A plan or task the user is on (the lexicon's ``kind.plan``): the goal, when nothing firmer is said.
PLAN = rx(alternatives("kind.plan", ("zh", "en")), alternatives("kind.trip", ("zh", "en")))
# A trip the user is on (the lexicon's ``kind.trip``): a plan a later choice of another place replaces.
TRIP = rx(alternatives("kind.trip", ("zh", "en")))
# A step of the goal done, and speculation (the lexicon's ``goal.step_done``, ``mood.speculation``):
# case-insensitive, ``^`` the start of the sentence only.
STEP_DONE = rx(alternatives("goal.step_done", ("zh", "en")))
# A new value said as its number alone ("so 23", "12 final", "定个20万吧"; the lexicon's ``change.bare``).
BARE_CHANGE = rx(alternatives("change.bare", ("zh", "en")))
# The goal given up (the lexicon's ``goal.cancel``).
GOAL_CANCEL = rx(alternatives("goal.cancel", ("zh", "en")))
SPECULATION = rx(alternatives("mood.speculation", ("zh", "en")))

# A word that joins a subject to its value (the lexicon's ``fact.copula``), or a colon (no language's).
_COPULA = rx(alternatives("fact.copula", ("zh", "en")), "：|:")


# A revocation phrased as a question must name what it revokes ("can you stop answering in English?").
# (The lexicon's ``address.rule``.)
_ADDRESSES_RULE = rx(alternatives("address.rule", ("zh", "en")))


def extract(text: str) -> list[Candidate]:
    """All candidates in one user message, in sentence order."""
    stripped = text.strip()
    if AFFIRM.match(stripped):
        return [Candidate(action="confirm", quote=stripped)]
    if DENY.match(stripped):
        return [Candidate(action="reject", quote=stripped)]
    out: list[Candidate] = []
    sentences = split_sentences(unquoted(text))
    for sentence in sentences:
        out += _with_shift(sentence, unshifted(sentence))
    return _replacing_rule(sentences, out)


def unshifted(sentence: str) -> list[Candidate]:
    """What ``sentence`` asks memory to do, read as changing no value by an amount (what a change of
    "10斤" or "3个菜" that no item counts stands for instead: "目标减10斤" is a goal)."""
    return _with_head_count(sentence, _sentence_candidates(sentence)) or _bare_change(sentence)


def _with_head_count(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """A plan that says how many go ("Help me plan a trip to Lisbon for the 4 of us") files the head count
    too: a later "make that 5 people" changes it (it had changed nothing, and the plan kept saying 4)."""
    if [(c.action, c.kind) for c in found] != [("add", "goal")] or is_question(sentence):
        return found
    counted = _stated_fact(sentence.strip(TRIM), sentence.strip(), None, (("fact.head_count", "head count"),))
    return found + [counted] if counted is not None else found


def _with_shift(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """A sentence that changes a value by an amount ("再加500吧", "add 300 to the budget", "let's halve
    that"; ``shifts``) shifts it: what else it made of its number goes (it filed "add 300 to the budget"
    as the budget), the rest of what it says stays."""
    quote = sentence.strip()
    if is_question(quote) or is_hypothetical(quote.strip(TRIM)) or REPORTED.search(quote) or RELAYED.search(quote) \
            or shift_in(quote) is None:  # ("my sister said she'd add 300 to hers": someone else's change)
        return found
    canonical = _budget_part(quote.strip(TRIM)) or canonical_subject(quote)
    kept = [c for c in found if not written_numbers(c.value) and c.action == "add"]
    return [*kept, Candidate(action="shift", kind="fact", subject=canonical or "", value=quote, quote=quote,
                             canonical=canonical is not None)]


def _bare_change(sentence: str) -> list[Candidate]:
    """A new value said as its number alone, after what changed it ("ugh, two cancelled, so 23",
    "舅舅不来了，那就9个"): a correction of the latest value counting the same thing."""
    body = sentence.strip().strip(TRIM)
    if is_question(sentence) or is_hypothetical(body) or REPORTED.search(sentence):
        return []
    match = next((m for part in (body, *clauses(body)) if (m := BARE_CHANGE.search(part.strip(TRIM)))), None)
    if match is None:
        return []
    said = match.group(0).strip(" ，,;；")
    return [Candidate(action="correct", kind="fact", value=said, quote=sentence.strip())]


def _counted_change(part: str) -> list[Candidate]:
    """A clause of a correction that is a count alone ("10个人", "Correction: 10 people", "so 23"):
    the new value of what it counts."""
    said = classify(part)
    if said is not None and not (said.action == "correct" and not said.subject):
        return []
    if (bare := _bare_change(part)):
        return bare
    value = (said.value if said is not None else part).strip().strip(TRIM)
    if not fires("change.count_alone", part.strip().strip(TRIM)):
        return []  # "有3个人是小孩", "4 people are vegetarian" say more than a new count
    return [Candidate(action="correct", kind="fact", value=value, quote=part.strip())]


def _says_manner_instead(body: str) -> bool:
    """``body`` is a new way of answering said in place of a dropped one ("just write paragraphs"),
    not a drop itself nor a return to the assistant's own way ("just talk normally"), nor a value
    changed back ("Actually keep the budget at 1500")."""
    return bool(MANNER_INSTEAD.search(body)) and not REVOKE.search(body) and not DEFAULT_MANNER.search(body) \
        and not (CHANGE.search(body) and written_numbers(body))


def _replacing_rule(sentences: list[str], found: list[Candidate]) -> list[Candidate]:
    """In a message that drops a reply rule or says a new one comes instead ("Stop asking me
    follow-up questions. Just end with a one-sentence summary instead."; "还是算了，叫我小陈就好"),
    the new way of answering is a rule that replaces the old one, however it is worded."""
    said = " ".join(sentences)
    dropping = any(c.action == "revoke" for c in found) or bool(INSTEAD.search(said) or CORRECT.search(said))
    if not dropping:
        return found
    out = [c.model_copy(update={"replaces": True}) if c.action == "add" and c.kind == "directive" else c
           for c in found]
    if any(c.replaces for c in out):
        return out
    for sentence in sentences:
        for part in clauses(sentence) or [sentence]:
            body = _CHANGE_LEAD.sub("", part.strip()).strip(TRIM)
            if _says_manner_instead(body) and not is_question(part):
                rule = _hard("directive", body, part.strip(), canonical_subject(body)).model_copy(update={"replaces": True})
                # The new rule stands for what the message made of its words (a correction of a "fact").
                return [c for c in out if c.quote.strip(TRIM) not in (part.strip(TRIM), sentence.strip(TRIM))
                        or c.action == "revoke"] + [rule]
    return out


# Where a sentence divides into clauses (the lexicon's ``clause.split``).
_CLAUSE = rx(alternatives("clause.split", ("zh", "en")))


def clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence``, each a span of it, punctuation between them left out."""
    cuts = [(m.start(), m.end()) for m in _CLAUSE.finditer(sentence) if m.end() > m.start()]
    bounds = [0, *(x for cut in cuts for x in cut), len(sentence)]
    parts = (sentence[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2))
    return [p for p in parts if len(p.strip(TRIM)) >= 2]


def _sentence_candidates(sentence: str) -> list[Candidate]:
    """What a sentence asks memory to do: one candidate, or one per clause when its clauses state
    different things ("I'm Ana, 34, a nurse in Porto"; "我们想去成都，预算8000") or when a
    question follows a statement of fact ("my dad has high blood pressure, is hiking ok?")."""
    whole = classify(sentence)
    parts = clauses(sentence)
    if whole is not None and whole.action == "revoke" and len(parts) >= 2:
        # "要点那个可以不用了 表情还是别用": a rule said to stay is no part of what is dropped.
        going = [p for p in parts if not (fires("rule.kept", p) and not REVOKE.search(p))]
        if going and len(going) < len(parts):
            body = "，".join(p.strip(TRIM) for p in going) if CJK_CHAR.search(sentence) \
                else ", ".join(p.strip(TRIM) for p in going)
            whole, parts = whole.model_copy(update={"value": body, "quote": body}), going
        if len(parts) < 2:
            return [whole]
        # "Scratch that, so we're at 10": what was said is taken back for the value that follows it.
        instead = [c for part in parts[1:] if (c := classify(part)) is not None and c.action == "add"
                   and c.kind in SUPERSEDING_KINDS and (_stands_alone(c) or c.kind == "preference")
                   and not (whole.kind == "goal" and c.kind == "decision" and fires("change.mind", c.quote))]
        if instead:
            return [c.model_copy(update={"action": "correct"}) for c in instead[:1]]
        if whole.subject == "budget" and len(new := [n for part in parts[1:] for n in written_numbers(part)]) == 1:
            # "actually scratch that budget, my partner says we can do 4200": the budget's new amount
            return [Candidate(action="correct", kind="constraint", subject="budget", value=new[0], quote=sentence.strip(),
                              canonical=True)]
        if whole.kind == "goal":
            # "forget that plan, I'll aim for a 10k instead": the new goal replaces it; "my knee's been bad
            # lately, forget that plan": the reason is a fact of its own.
            said = [c for part in parts if (c := classify(part)) is not None and c.action == "add"]
            # ("dropping the MBA idea, going for a master's in data science instead": the choice made
            # instead is the new goal)
            goals = [c for c in said if c.kind == "goal"] or [
                c.model_copy(update={"kind": "goal", "subject": "goal", "canonical": True}) for c in said
                if c.kind == "decision" and fires("change.mind", c.quote)]
            facts = [c for c in said if c.kind == "fact" and _stands_alone(c)]
            return (goals[:1] or [whole]) + facts
        # "drop that formatting rule, just write normal paragraphs": the rule goes, the new one comes.
        for part in parts[1:]:
            body = part.strip(TRIM)
            rule = classify(part)
            if not (rule is not None and rule.action == "add" and rule.kind == "directive") \
                    and _says_manner_instead(body):
                rule = _hard("directive", body, part.strip(), canonical_subject(body))
            if rule is not None and rule.action == "add" and rule.kind == "directive":
                at = sentence.find(part)
                dropped, rest = sentence[:at].strip(TRIM), sentence[at:].strip(TRIM)
                rule = rule.model_copy(update={"replaces": True, "value": rest, "quote": rest})
                return [whole.model_copy(update={"value": dropped, "quote": dropped}), rule]
    if whole is not None and whole.action == "correct" and len(parts) >= 2:
        # "二姨又说能来了……还是12个人，预算也还是按1500吧": two amounts changed back, each in its clause.
        changed = [c for part in parts if (c := classify(part)) is not None and c.action in ("add", "correct")
                   and c.subject in CANONICAL_SUBJECTS and c.kind in SUPERSEDING_KINDS and written_numbers(c.value)]
        if len({c.subject for c in changed}) >= 2:
            return changed
        # "scratch that, it's 8 people now and the budget goes up to 1200", "不对，10个人，预算也改成3000吧":
        # a count said bare beside it
        bare = [c for part in parts for c in _counted_change(part)]
        if changed and bare and not any(c.value in b.value or b.value in c.value for c in changed for b in bare):
            return changed + bare[:1]
    if len(parts) < 2 or (whole is not None and (whole.action != "add" or whole.kind == "open_question")) \
            or is_hypothetical(sentence) or REPORTED.search(sentence) or any(is_hypothetical(p) for p in parts[:-1]):
        return [whole] if whole is not None else []
    # A clause's value starts at its words, not at the "and" joining it ("and Jake has a shellfish allergy").
    found = [c.model_copy(update={"value": without_lead_in(c.value, edge=TRIM) or c.value})
             for c in _clause_candidates(parts) if c.action == "add" and _stands_alone(c)]
    if (listed := _listed_rules(sentence, parts)):
        return listed
    if whole is not None and whole.kind in ("decision", "goal") and fires("change.mind", sentence):
        # "想了想水煮鱼太辣了 老人吃不了 改做清蒸鲈鱼": the choice made instead is its own clause, without the
        # one it drops
        chosen = [c for c in found if c.kind == whole.kind and fires("change.mind", c.quote)]
        if len(chosen) == 1:
            return chosen
    if whole is None:  # a question, or clauses the whole does not read: the facts and plans stated in them
        if not is_question(sentence):
            # "两个要求 回答用要点列出来 还有不要用表情", "改一下 以后代码用Go": the reply rules the clauses say,
            # no question asked (a rule of a few words, not a lone "always,")
            # A rule needs its "from now on" or the rules announced ("这题 回答用英文" is for this answer).
            return [c for c in found if c.kind in ("fact", "goal")
                    or c.kind == "directive" and (len(term_set(c.value)) >= 2 or len(CJK_CHAR.findall(c.value)) >= 4)
                    and (STANDING.search(c.value) is not None or fires("rule.announced", sentence))]
        return [c for c in found if c.kind in ("fact", "goal")]
    bare = [c for part in parts if classify(part) is None for c in _bare_change(part)]
    if bare and found:
        # "又多了俩 10个，预算控制在1500以内": a count said anew beside a new limit (under Pilot, round ten,
        # the head count stayed 8 inside one item holding both)
        return found + bare
    # One rule said in two clauses ("always answer in Chinese, no English words") stays one rule.
    if len({(c.kind, c.subject) for c in found}) >= 2 and not all(c.kind in ("directive", "constraint") for c in found):
        return found
    # A rule word in a clause that makes no rule ("我有高血压，一直在吃药"): the fact is what was said.
    if whole.kind in ("directive", "constraint") and found and all(c.kind == "fact" for c in found):
        return found
    return [whole]


def _clause_candidates(parts: list[str]) -> list[Candidate]:
    """What each clause says; a clause that drops the "I" of the one before it is read with it ("我32岁 住深圳
    有高血压": the user lives in Shenzhen and has high blood pressure; not after "我爸今年65了")."""
    out, mine = [], False
    for part in parts:
        body = part.strip(TRIM)
        if fires("self.opening", body):
            mine = True
        elif fires("self.other_opening", body):
            mine = False
        said = classify(part)
        if said is None and mine and not fires("self.opening", body):
            said = classify(f"我{body}")
            # (a fact about the user or a plan, never a rule: "我有高血压，一直在吃药" sets no rule of "always")
            said = said.model_copy(update={"value": body, "quote": part.strip()}) \
                if said is not None and said.kind in ("fact", "goal") else None
        if said is not None:
            out.append(said)
    return out


def _listed_rules(sentence: str, parts: list[str]) -> list[Candidate]:
    """Rules announced together ("two rules for this chat: keep answers under 100 words, and no emojis"):
    one item each, so that one can be dropped and the other kept; [] unless every clause is a rule."""
    if not fires("rule.announced", sentence):
        return []
    out = []
    for part in parts:
        body = without_lead_in(part.split(":", 1)[-1].split("：", 1)[-1].strip(TRIM), edge=TRIM)
        rule = classify(body)
        if rule is None and REPLY_BEHAVIOUR.search(body) and fires("rule.bare_prohibit", body):
            rule = _hard("directive", body, part.strip(), None, prefix="forbid")
        if rule is None or rule.action != "add" or rule.kind not in ("directive", "constraint"):
            return []
        out.append(rule.model_copy(update={"value": body}))
    return out if len({(c.kind, c.subject) for c in out}) == len(out) >= 2 else []


# Kinds a clause may hold that replace an earlier value of theirs.
SUPERSEDING_KINDS = ("fact", "constraint", "preference", "decision")


def _stands_alone(candidate: Candidate) -> bool:
    """A clause's candidate that is an item on its own: a fact only under a named subject (a name,
    an allergy, a job; not "my monitors are huge"), a goal, a choice or a rule; a liking or a
    guess in a clause is the reason for the rest of the sentence, or part of its question."""
    if candidate.kind == "fact":
        return candidate.canonical
    return candidate.kind in ("goal", "decision", "constraint", "directive")


def classify(sentence: str) -> Candidate | None:
    """The one candidate a sentence makes, or None for chit-chat, questions, hypotheticals and
    words reported from someone else."""
    quote = sentence.strip()
    body = quote.strip(TRIM)
    if len(body) < 2 or is_hypothetical(body) or REPORTED.search(quote):
        return None
    relayed = RELAYED.search(body) is not None
    canonical = _budget_part(body) or canonical_subject(body)
    question = is_question(quote)
    if ADDRESS.search(body) and not relayed and not question:
        # "call me Sasha", "hmm, actually I'd rather go by Beth": how to address the user, in every conversation
        return Candidate(action="add", kind="directive", subject=ADDRESSED_AS, value=body, quote=quote, canonical=True)
    if ADDRESS_DROP.search(body) and not relayed and not question:  # "别叫老板了", "don't call me boss anymore"
        return Candidate(action="revoke", kind="directive", subject=ADDRESSED_AS, value=body, quote=quote, canonical=True)
    if GOAL_CANCEL.search(body) and not question:  # "forget that plan", "想了想还是不考了"
        return Candidate(action="revoke", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if REVOKE.search(body) and not CHANGE.search(body) and not (question and not _ADDRESSES_RULE.search(body)):
        return Candidate(action="revoke", kind="directive", value=body, quote=quote,
                         subject=canonical or "", canonical=canonical is not None)
    if SPECULATION.search(body):  # "maybe change X to Y" is speculation, never a fact
        return Candidate(action="add", kind="open_question", subject=topic_subject("q", body), value=body,
                         quote=quote)
    if GOAL_TARGET.search(body) and not question and not canonical and not counted(body) & {"days", "people"}:
        # "我现在体重140斤，想减到125": an aim with its number ("减到" changes a budget, a head count or a
        # trip's length: "we want to get down to 3 nights")
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if CORRECT.search(body) or CHANGE.search(body):
        subject, value = _subject_value(body, canonical)
        if (not subject or not canonical) and (stated := _stated_fact(body, quote, canonical, _FIXED_FACT_CUES)) is not None:
            # "改成10月3号出发吧" changes the departure, not the latest number; "we moved to the Hyatt" the lodging
            subject = stated.subject
        return Candidate(action="correct", kind="fact", subject=subject, value=value, quote=quote,
                         canonical=canonical is not None)
    if question and not (STANDING.search(body) and REPLY_BEHAVIOUR.search(body)):
        return None  # a polite request for a standing reply rule still counts ("could you always …?")
    if is_request(body) and not (STANDING.search(body) or PROHIBIT.search(body)):
        # "Plan it within my budget" uses the budget; it does not state one. It may set the goal, or
        # say when something happens ("set up notes for a call with the client tuesday 2pm").
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True) \
            if GOAL.search(body) else _dated(body, quote, asked=True)
    if STEP_DONE.search(body) and not STANDING.search(body):
        return Candidate(action="step_done", kind="goal", subject="goal", value=body, quote=quote)
    if GOAL.search(body):
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    reply_rule = REPLY_BEHAVIOUR.search(body) is not None
    has_limit = bool(LIMIT.search(body) and (written_numbers(body) or DATE.search(body))) or bool(DATE.search(body) and LIMIT.search(body))
    if not (reply_rule or has_limit) and (diet := _stated_fact(body, quote, canonical, _BEFORE_RULES)) is not None:
        return diet  # "I don't eat pork" tells what the user eats; its "don't" asks nothing of the reply
    if (STANDING.search(body) or PROHIBIT.search(body)) and (relayed or not addressed(body)) and not has_limit:
        return None  # someone else's rule, or a remark about the world ("大城市的生活节奏总是很快")
    if (STANDING.search(body) or PROHIBIT.search(body)) and reply_rule:
        return _hard("directive", body, quote, canonical)
    if MANNER.search(body) and not relayed:  # "Use formal language with me", "回答用英文吧"
        return _hard("directive", body, quote, canonical)
    if has_limit:
        return _hard("constraint", body, quote, canonical)
    if PROHIBIT.search(body):
        return _hard("constraint", body, quote, canonical, prefix="forbid")
    if STANDING.search(body):
        return _hard("directive", body, quote, canonical)
    if SPECULATION.search(body):
        return Candidate(action="add", kind="open_question", subject=topic_subject("q", body), value=body,
                         quote=quote)
    if canonical and _COPULA.search(body):
        return Candidate(action="add", kind="fact", subject=canonical, value=body, quote=quote, canonical=True)
    fact = _stated_fact(body, quote, canonical, FACT_CUES)
    if fact is not None:
        return fact
    if PLAN.search(body):
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if DECISION.search(body) and term_set(MOVED.sub("", DECISION.sub("", body))):
        # "最后说定了，八千五封顶": the clause that only says a choice was made chooses nothing
        return Candidate(action="add", kind="decision", subject=canonical or topic_subject("decision", body),
                         value=body, quote=quote, canonical=canonical is not None)
    if PREFERENCE.search(body):
        return Candidate(action="add", kind="preference", subject=canonical or topic_subject("pref", body),
                         value=body, quote=quote, canonical=canonical is not None)
    return _dated(body, quote)


def _dated(body: str, quote: str, *, asked: bool = False) -> Candidate | None:
    """A statement of when something happens ("my sister's visiting june 10 to 14", "约了装修师傅周六上午
    来量尺寸") is a fact: a later "now june 19 to 23" moves it. A request says when only with a day and
    a time of day ("set up notes for a call with the client tuesday 2pm", not "ideas for Sunday lunch").
    Its subject is made of its other words, so that a moved day leaves no old day behind."""
    asked = asked or REQUEST.search(body) is not None or ASKS.search(body) is not None
    if not DATE.search(body) or (asked and not CLOCK.search(body)):
        return None  # (a time alone is a habit as often as an appointment: "I'm useless after 9pm")
    topic = CLOCK.sub(" ", DATE.sub(" ", body))
    # "Payment must clear by the 15th" is a limit, "We settled on the 21st" a choice.
    kind = next((k for k in ("constraint", "decision") if fires(f"kind_cue.{k}", body)), "fact")
    return Candidate(action="add", kind=kind, subject=topic_subject("when", topic), value=body, quote=quote)


# Fact cues whose sentences hold a rule's word without being a rule ("I don't eat pork").
_BEFORE_RULES: tuple[tuple[str, str | None], ...] = (("fact.diet", "diet"), ("fact.family_diet", "diet:"))


def _stated_fact(body: str, quote: str, canonical: str | None,
                 cues: tuple[tuple[str, str | None], ...]) -> Candidate | None:
    """The fact of the first of ``cues`` the sentence matches, under its subject."""
    for name, fixed in cues:
        match = first_match(name, body, ("zh", "en"))
        if match:
            raw_subject = match.groupdict().get("subject") or ""
            if fixed and fixed.endswith(":"):  # whose it is: "allergy:mia" (a profile item of its own)
                who = raw_subject.strip().lower()
                if _is_pronoun(who):
                    if (who := _named_before(body, match.start())) == "":
                        continue  # "she went vegan" with no one named before: whose is not known
                elif fixed == "diet:" and not _a_person(raw_subject.strip(), body):
                    continue  # "The cake is vegan", "今天中午吃素": no one's diet
                # No one named (a clause of the user's own: "乳糖不耐受") is the user.
                subject = fixed[:-1] if not who or _is_me(who) else fixed + who
            else:
                subject = fixed or canonical_subject(raw_subject) or canonical or f"fact:{raw_subject.strip().lower()}"
            if not fixed and not canonical and _counts_people_only(match.groupdict().get("value") or body):
                # "目前算下来是8个人": a number of people under the user's own words is the head count
                subject, canonical = "head count", "head count"
            return Candidate(action="add", kind="fact", subject=subject, value=body, quote=quote,
                             canonical=fixed is not None or canonical is not None)
    return None


def _a_person(who: str, body: str) -> bool:
    """``who`` names a person: one of the user's people ("sister", "表妹"), a nickname ("小雨"), a
    name written with its capital ("Priya"); in Chinese, whoever is not a time or a place ("今天中午",
    "这家餐厅": the lexicon's ``address.not_person``)."""
    if fires("address.kin", who) or fires("address.nickname", who):
        return True
    if who.isascii():
        return len(who) >= 3 and who[:1].isupper() and who.lower() not in _NOT_NAMES
    return not fires("address.not_person", who)


_NOT_NAMES = frozenset({"the", "this", "that", "it", "everything", "everyone"})


def _named_before(body: str, end: int) -> str:
    """Who a pronoun at ``end`` stands for: the name said before it ("Priya" in "Change of plan:
    Priya told me she …", "小雨" in "小雨说她…"; the lexicon's ``address.named_before``), lower case,
    without the user's "我"; "" when none."""
    found = first_match("address.named_before", body[:end].rstrip(), ("zh", "en"))
    if found is None:
        return ""
    name = found.group("name")
    return (name[1:] if _is_me(name[:1]) else name).lower()


def _budget_part(body: str) -> str | None:
    """The subject of a budget for one part of the whole ("Bump the food budget to 800" → "budget:food",
    "软装预算提到9万吧" → "budget:软装"): its own item beside the total; None for the whole budget."""
    for lang in LANGS:
        whole = cue("subject.budget_whole", lang)
        for pattern in each_pattern("subject.budget_part", lang):
            match = pattern.search(body)
            if match is not None:
                part = match.group("part").lower()
                # Chinese names the whole by its last character(s) ("次总" of "这次总预算"); an English word is whole
                # or not ("camera" is a part though it ends in "a").
                ends = (0,) if part.isascii() else range(len(part))
                if whole is None or not any(whole.fullmatch(part[i:]) for i in ends):
                    return f"budget:{part}"
    return None


def _counts_people_only(text: str) -> bool:
    counts = only_counts(text)
    return bool(counts) and all(unit == "people" for _, unit in counts)


def _hard(kind: str, body: str, quote: str, canonical: str | None, prefix: str | None = None) -> Candidate:
    # A prohibition is its own rule: "never spend the budget on ads" must not replace the budget limit.
    subject = topic_subject(prefix, body) if prefix else canonical or topic_subject(kind, body)
    return Candidate(action="add", kind=kind, subject=subject, value=body, quote=quote,
                     canonical=canonical is not None and not prefix)


# Where a change divides into what changes and its new value (the lexicon's ``change.split``; the
# group is the dividing words, for ``split``).
_CHANGE_SPLIT = re.compile(f"({alternatives('change.split', ('zh', 'en'))})", re.IGNORECASE)
# A verb of change naming what changes and its new value (the lexicon's ``change.verb``, English
# only, kept as written: its groups ``subject`` and ``value``; ``$`` the end of the sentence only).
_EN_CHANGE = re.compile("|".join(lexicon("en")["change"]["verb"]["patterns"]), re.IGNORECASE)
_EN_KEPT = re.compile("|".join(lexicon("en")["change"]["kept"]["patterns"]), re.IGNORECASE)
# What is taken off a change before it divides, at its start: an opening correction (the lexicon's
# ``change.lead``), then the words before what changes (``change.subject_lead``: only before a verb of
# change, not a copula — "把预算改成8000", but "将军是张三" is about 将军) and its article
# (``change.article``).
_CHANGE_LEAD = re.compile(f"^(({alternatives('change.lead', ('zh', 'en'))})[，,:：\\s]*)+", re.IGNORECASE)
_SUBJECT_LEAD = re.compile(f"^({alternatives('change.subject_lead', ('zh', 'en'))})\\s*", re.IGNORECASE)
_ARTICLE = re.compile(f"^({alternatives('change.article', ('en', 'zh'))})\\s+", re.IGNORECASE)
_SUBJECT_TAIL = re.compile(f"({alternatives('change.subject_tail', ('zh', 'en'))})")
# A sentence-final particle after an amount ("预算也改成1500吧" is 1500; "去酒吧" keeps its 吧).
_VALUE_PARTICLE = re.compile(f"(?<=[\\d元块万千百个人位天晚号日点])({alternatives('value.tail_particle', ('zh',))})$")


def _subject_value(body: str, canonical: str | None) -> tuple[str, str]:
    """Split a change/correction into (subject, presented value), e.g. ('budget', '预算: 8000元')."""
    cleaned = _CHANGE_LEAD.sub("", body)
    verb = _EN_CHANGE.search(cleaned) or _EN_KEPT.search(cleaned)
    if verb:
        left, right = verb.group("subject").strip(TRIM), verb.group("value").strip(TRIM)
        subject = canonical or f"fact:{left.lower()}"
        return subject, f"{left}: {right}"
    parts = _CHANGE_SPLIT.split(cleaned, maxsplit=1)
    if len(parts) >= 3:
        left = parts[0].strip(TRIM)
        if not _COPULA.fullmatch(parts[1]):
            left = _SUBJECT_LEAD.sub("", left)
        right = _VALUE_PARTICLE.sub("", parts[2].strip(TRIM)).strip(TRIM)
        left = _SUBJECT_TAIL.sub("", _ARTICLE.sub("", left))
        if right:
            label = left or canonical or "value"
            subject = canonical or (f"fact:{left.lower()}" if left else "")
            return subject, f"{label}: {right}" if left else right
    return canonical or "", cleaned


def dropped_value(value: str) -> tuple[str, str]:
    """The old value a correction drops ("…, not the 12th", "…，不是周三"; the lexicon's
    ``change.not_old``) and the correction without it; ("", value) when it names none."""
    match = first_match("change.not_old", value, ("zh", "en"))
    if match is None or not match.group("old"):
        return "", value
    return match.group("old"), (value[:match.start()] + value[match.end():]).strip(" ，,。.;；")


def describe(candidate: Candidate) -> str:
    """One line for logs and notices."""
    return f"{candidate.action} {candidate.kind} [{candidate.subject}] {clip(candidate.value, 60)}"


