"""What one sentence says, read by rules (Chinese and English, any model): :func:`classify`.

A sentence or a clause makes at most one :class:`Candidate`: a rule, a fact under its subject, a plan, a
choice, a change of a value, the drop of a rule. :mod:`desktop_app.memory.write.extraction` reads a
message sentence by sentence and clause by clause with it; the update rules in
:mod:`desktop_app.memory.write.updates` decide what a candidate does to memory.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from desktop_app.lexicon import CJK, LANGS, alternatives, cue, each_pattern, fires, first_match, lexicon
from desktop_app.memory.lang.amounts import counted, only_counts, written_numbers
from desktop_app.memory.lang.text import (
    CJK_CHAR,
    canonical_subject,
    clip,
    term_set,
    topic_subject,
    without_lead_in,
)
from desktop_app.memory.write.mood import (
    ASKS,
    RELAYED,
    REPORTED,
    REQUEST,
    TRIM,
    addressed,
    is_hypothetical,
    is_question,
    is_request,
    rx,
)


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
CALLED_OFF = "called off"  # the subject of a revocation of whatever item the message names ("银行那个不去了")
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
    ("fact.name", "name"), ("fact.person_name", "name:"), ("fact.nickname", "nickname"), ("fact.weight", "weight"),
    ("fact.age", "age"),
    ("fact.location", "location"),
    ("fact.allergy", "allergy"),
    ("fact.family_allergy", "allergy:"), ("fact.health", "health:"), ("fact.diet", "diet"),
    ("fact.family_diet", "diet:"),
    ("fact.occupation", "occupation"), ("fact.lacks", "lacks"), ("fact.pets", "pets:"), ("fact.family", "family:"),
    ("fact.tables", "tables"), ("fact.head_count", "head count"), ("fact.departure", "departure"),
    ("fact.frequency", "frequency"), ("fact.trip_length", "trip length"), ("fact.weakness", "weakness"),
    ("fact.lodging", "lodging"), ("fact.size", "size"),
    ("fact.income", "income"), ("fact.schedule", None), ("fact.priced", None), ("fact.my_subject", None),
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

def classify(sentence: str) -> Candidate | None:
    """The one candidate a sentence makes, or None for chit-chat, questions, hypotheticals and
    words reported from someone else."""
    quote = sentence.strip()
    body = quote.strip(TRIM)
    if (relaxed := first_match("change.relaxed", body, ("zh", "en"))) is not None:
        # "1.8 kg is fine if it means better battery": the limit in kilograms is 1.8 kg now, whatever the "if" after it
        return Candidate(action="correct", kind="fact", value=relaxed.group("new"), quote=quote)
    if len(body) < 2 or is_hypothetical(body) or REPORTED.search(quote):
        return None
    relayed = RELAYED.search(body) is not None
    canonical = budget_part(body) or canonical_subject(body)
    if canonical == "budget" and _counts_people_only(body):
        canonical = "head count"  # "let's cap it at 40 guests": a limit on the people, not the money (it was the budget)
    question = is_question(quote)
    # (the last said: "叫我托尼老师 开玩笑 叫我小唐就行" is called 小唐)
    if (address := next(reversed(list(ADDRESS.finditer(body))), None)) and not relayed and not question:
        # "call me Sasha", "hmm, actually I'd rather go by Beth": how to address the user, in every conversation;
        # the clause that says it ("算了还是叫我杰哥，阿杰听着像小孩" is called 杰哥, not 阿杰)
        return Candidate(action="add", kind="directive", subject=ADDRESSED_AS, value=_clause_at(body, address),
                         quote=quote, canonical=True)
    if ADDRESS_DROP.search(body) and not relayed and not question:  # "别叫老板了", "don't call me boss anymore"
        return Candidate(action="revoke", kind="directive", subject=ADDRESSED_AS, value=body, quote=quote, canonical=True)
    if fires("diet.ended", body) and not question and not relayed:  # "上个月开始吃肉了 现在什么都吃": no diet now
        return Candidate(action="revoke", kind="fact", subject="diet", value=body, quote=quote, canonical=True)
    if GOAL_CANCEL.search(body) and not question:  # "forget that plan", "想了想还是不考了"
        return Candidate(action="revoke", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if REVOKE.search(body) and not CHANGE.search(body) and not (question and not _ADDRESSES_RULE.search(body)):
        return Candidate(action="revoke", kind="directive", value=body, quote=quote,
                         subject=canonical or "", canonical=canonical is not None)
    if fires("plan.cancel", body) and not question and not CHANGE.search(body) and not fires("change.said", body) \
            and not BARE_CHANGE.search(body) and not fires("amount.relative", body):
        # (not "cancelled them and booked U-Haul instead", nor "two cancelled, so 23": a value changed)
        # "银行那个不去了 网上能办": the errand it names is off, whatever kind of item holds it
        return Candidate(action="revoke", kind="fact", subject=CALLED_OFF, value=body, quote=quote)
    if question and (CORRECT.search(body) or CHANGE.search(body)) and fires("mood.advice_asked", body):
        # "do you think I should raise it to 1000?", "要不要升到3000": a change the user weighs and asks about, not one
        # made; the reply answers it, memory keeps nothing (filed as an open question, it held the 1000 after "nah")
        return None
    if SPECULATION.search(body):  # "maybe change X to Y" is speculation, never a fact
        return Candidate(action="add", kind="open_question", subject=topic_subject("q", body), value=body,
                         quote=quote)
    if (aim := GOAL_TARGET.search(body)) and not question and not canonical \
            and not counted(_clause_at(body, aim)) & {"days", "people"}:
        # "我现在体重140斤，想减到125": an aim with its number ("减到" changes a budget, a head count or a
        # trip's length: "we want to get down to 3 nights"; "我一个人住，…，想先减到58" counts no one in its aim)
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if CORRECT.search(body) or CHANGE.search(body) or _drops_a_number(body) \
            and stated_fact(body, quote, canonical, _FIXED_FACT_CUES) is None:  # ("make it 2 nights not 3": the length)
        subject, value = _subject_value(body, canonical)
        if (not subject or not canonical) and (stated := stated_fact(body, quote, canonical, _FIXED_FACT_CUES)) is not None:
            # "改成10月3号出发吧" changes the departure, not the latest number; "we moved to the Hyatt" the lodging
            subject = stated.subject
        return Candidate(action="correct", kind="fact", subject=subject, value=value, quote=quote,
                         canonical=canonical is not None)
    if question and (task := GOAL.search(body)) and REQUEST.search(body) and not is_request(body) \
            and len(term_set(body[task.end():])) >= 2:
        # the task asked for as a question, with what it is ("Can you help me put together a weekly meal plan?", not
        # "Can you help me plan?")
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if question and fires("kind.requirement_asked", body):  # "Can you make 2 of the 5 dinners vegetarian?"
        return Candidate(action="add", kind="constraint", subject=topic_subject(NEED_PREFIX[:-1], body), value=body,
                         quote=quote)
    if question and not (STANDING.search(body) and REPLY_BEHAVIOUR.search(body)):
        return None  # a polite request for a standing reply rule still counts ("could you always …?")
    if canonical in HOW_REPLIES_READ and not relayed:
        # "give me the reasoning first and put the conclusion at the very end", "keep it honest but be gentle pls",
        # "还是用简体吧": what comes first, the tone, the script, the units, the time zone are the replies' to keep,
        # with "from now on" or not; a later one replaces the earlier (the request was filed as a goal, the tone as
        # nothing, the script as a fact beside the rule)
        return rule_candidate("directive", body, quote, canonical)
    if is_request(body) and not (STANDING.search(body) or PROHIBIT.search(body)):
        # "Plan it within my budget" uses the budget; it does not state one. It may set the goal, or
        # say when something happens ("set up notes for a call with the client tuesday 2pm").
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True) \
            if GOAL.search(body) else _dated(body, quote, asked=True) or _required(body, quote)
    if STEP_DONE.search(body) and not STANDING.search(body):
        return Candidate(action="step_done", kind="goal", subject="goal", value=body, quote=quote)
    if GOAL.search(body):
        return Candidate(action="add", kind="goal", subject="goal", value=body, quote=quote, canonical=True)
    if (spare := stated_fact(body, quote, canonical, _TIME_AVAILABLE)) is not None and not REPLY_BEHAVIOUR.search(body):
        # how long the user can give ("平时每天最多能挤出3个小时", "放暑假以后每天可以学5个小时了"): one item, whatever limit
        # or "from now on" it is said with (it was a limit once and nothing the next time, and the two stood apart)
        return spare
    # (a length said to hold from now on is one of the replies: "50 words max going forward", integrity's fourth set)
    reply_rule = REPLY_BEHAVIOUR.search(body) is not None or canonical == "length" and STANDING.search(body) is not None
    # (a size is no limit: "by 12" of "The room is about 10 by 12 feet" read as a deadline)
    limited = body.replace(sized.group("value"), " ") if (sized := first_match("fact.size", body, ("zh", "en"))) else body
    has_limit = bool(LIMIT.search(limited) and (written_numbers(limited) or DATE.search(limited)))
    if not (reply_rule or has_limit) and not fires("fact.family_allergy", body) \
            and (diet := stated_fact(body, quote, canonical, _BEFORE_RULES)) is not None:
        # (someone's allergy said beside it is the sentence's fact: "Ellie's vegan and Rob can't eat sesame, he's
        # allergic"; the clauses give Ellie's diet)
        return diet  # "I don't eat pork" tells what the user eats; its "don't" asks nothing of the reply
    if (STANDING.search(body) or PROHIBIT.search(body)) and (relayed or not addressed(body)) and not has_limit:
        return None  # someone else's rule, or a remark about the world ("大城市的生活节奏总是很快")
    if (STANDING.search(body) or PROHIBIT.search(body)) and reply_rule:
        return rule_candidate("directive", body, quote, canonical)
    if MANNER.search(body) and not relayed:  # "Use formal language with me", "回答用英文吧"
        return rule_candidate("directive", body, quote, canonical)
    if has_limit:
        # (a length the replies keep to is a rule for them, "from now on" or not: "keep your answers under 100 words")
        kind = "directive" if reply_rule and canonical == "length" and not relayed else "constraint"
        return rule_candidate(kind, body, quote, canonical)
    if PROHIBIT.search(body):
        return rule_candidate("constraint", body, quote, canonical, prefix="forbid")
    if STANDING.search(body) and "measure" in counted(body):
        # "每次45分钟左右", "每次跑5公里": how long or far each session goes, a limit of the plan (as "about 45 min per
        # session" is), not a rule for the replies (integrity, third set)
        return rule_candidate("constraint", body, quote, canonical)
    if STANDING.search(body):
        return rule_candidate("directive", body, quote, canonical)
    if SPECULATION.search(body):
        return Candidate(action="add", kind="open_question", subject=topic_subject("q", body), value=body,
                         quote=quote)
    if canonical and _COPULA.search(body):
        return Candidate(action="add", kind="fact", subject=canonical, value=body, quote=quote, canonical=True)
    fact = stated_fact(body, quote, canonical, FACT_CUES)
    if fact is not None and not (relayed and fact.subject == "tables"):
        # (someone else's count is no count of the user's: "我妈说亲戚多 要25桌", then "不行 最后定了20桌")
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
    return _dated(body, quote, deadline=canonical == "deadline") or _required(body, quote)


def quantity_stated(sentence: str) -> list[Candidate]:
    """A number the user states of something, which nothing else read ("论文字数限制3000字", "每晚房费400", "we need
    4 rooms"; in digits, not "上了一天班"): a fact under the words it is of, which a later change by an amount
    ("老师说再减500字") can reach; not a question, a request, a hypothetical, someone else's number or one accepted
    ("so 2800 is okay now": a limit changed), nor the weather or a mood ("今天北京热死了，37度": bench health G12 noted
    "37度")."""
    quote = sentence.strip()
    body = quote.strip(TRIM)
    if len(written_numbers(body)) != 1 or not re.search(r"\d", body) or is_question(without_lead_in(quote)) \
            or REQUEST.search(body) or is_hypothetical(body) or REPORTED.search(quote) or RELAYED.search(body) \
            or fires("change.accepted", body) or fires("small_talk.weather", body) or fires("small_talk.mood", body) \
            or not term_set(re.sub(r"\d[\d.,]*", " ", body)):
        return []
    return [Candidate(action="add", kind="fact", subject=topic_subject("fact", body), value=body, quote=quote)]


# What the plan must meet, said without a number (the lexicon's ``kind.requirement``: "字一定要大", "得支持电信"),
# filed under its own words after this prefix.
REQUIRED = rx(alternatives("kind.requirement", ("zh", "en")))
NEED_PREFIX = "need:"


def _required(body: str, quote: str) -> Candidate | None:
    """A requirement of the plan ("字一定要大，她老花眼，还有电池要耐用", "I want a proper gluten-free option"): a
    constraint in the user's words, under its own words (a second one is one more, not a new value of the first)."""
    required = REQUIRED.search(body) is not None and REQUEST.search(body) is None
    if not required and not fires("plan.added", body):  # (a part added to the plan is asked for: "周末也顺便安排一下吧")
        return None
    return Candidate(action="add", kind="constraint", subject=topic_subject(NEED_PREFIX[:-1], body), value=body, quote=quote)


def said_part(value: str, kind: str) -> str:
    """The clauses of a requirement or a decision that say what is required or chosen ("字一定要大，电池要耐用" of
    "字一定要大，她老花眼，还有电池要耐用"; "那就买两台" of "我爸看到了说他也要，那就买两台，一样的也行"): what the
    program names it by; the whole value when no clause says it alone."""
    pattern = REQUIRED if kind == "constraint" else DECISION
    parts = [without_lead_in(p.strip(TRIM), edge=TRIM) for p in _CLAUSE_END.split(value) if pattern.search(p)]
    return ("，" if CJK_CHAR.search(value) else ", ").join(p for p in parts if p) or value


# The subject of a statement of when something happens is made of its other words after this prefix.
WHEN_PREFIX = "when:"


def _dated(body: str, quote: str, *, asked: bool = False, deadline: bool = False) -> Candidate | None:
    """A statement of when something happens ("my sister's visiting june 10 to 14", "约了装修师傅周六上午
    来量尺寸") is a fact: a later "now june 19 to 23" moves it. A request says when only with a day and
    a time of day ("set up notes for a call with the client tuesday 2pm", not "ideas for Sunday lunch").
    Its subject is made of its other words, so that a moved day leaves no old day behind; a day things must be done
    by is the deadline ("Ideally everything's in place by March 1", then "I need it done by February 15 instead")."""
    asked = asked or REQUEST.search(body) is not None or ASKS.search(body) is not None
    if not DATE.search(body) or (asked and not CLOCK.search(body)):
        return None  # (a time alone is a habit as often as an appointment: "I'm useless after 9pm")
    topic = CLOCK.sub(" ", DATE.sub(" ", body))
    # "Payment must clear by the 15th" is a limit, "We settled on the 21st" a choice.
    if deadline:
        return Candidate(action="add", kind="constraint", subject="deadline", value=body, quote=quote, canonical=True)
    kind = next((k for k in ("constraint", "decision") if fires(f"kind_cue.{k}", body)), "fact")
    return Candidate(action="add", kind=kind, subject=topic_subject(WHEN_PREFIX[:-1], topic), value=body, quote=quote)


_TIME_AVAILABLE: tuple[tuple[str, str | None], ...] = (("fact.time_available", "time_available"),)
# Fact cues whose sentences hold a rule's word without being a rule ("I don't eat pork").
_BEFORE_RULES: tuple[tuple[str, str | None], ...] = (("fact.diet", "diet"), ("fact.family_diet", "diet:"), ("fact.lacks", "lacks"))


def stated_fact(body: str, quote: str, canonical: str | None,
                 cues: tuple[tuple[str, str | None], ...]) -> Candidate | None:
    """The fact of the first of ``cues`` the sentence matches, under its subject."""
    for name, fixed in cues:
        match = first_match(name, body, ("zh", "en"))
        if match:
            raw_subject = match.groupdict().get("subject") or ""
            if fixed and fixed.endswith(":"):  # whose it is: "allergy:mia" (a profile item of its own)
                who = raw_subject.strip().lower()
                if _is_pronoun(who):
                    # "she went vegan" with no one named before: whose is not known, but an allergy or an illness is
                    # kept under the pronoun ("他对花生过敏 还挺严重的", of the son the task named; it was lost)
                    if (named := _named_before(body, match.start())) == "" and fixed == "diet:":
                        continue
                    who = named or who
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


_CLAUSE_END = re.compile(rf"[，,;；。！!]|(?<=[{CJK}])\s+(?=[{CJK}])")


def _clause_at(body: str, match: re.Match[str]) -> str:
    """The clause of ``body`` holding ``match`` (its marks, not a period: "Dr. Patel" is one name)."""
    start = max((m.end() for m in _CLAUSE_END.finditer(body) if m.start() <= match.start()), default=0)
    end = _CLAUSE_END.search(body, max(match.start() + 1, match.end() - 1))  # (a match may end at its mark)
    clause = body[start:end.start() if end is not None else len(body)].strip(TRIM)
    return clause or body


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


def owner_named(said: Candidate, before: str) -> Candidate:
    """A profile fact of a clause about "he"/"她" with whose it is from the words before the clause ("班主任王老师也来 他有
    糖尿病" is 王老师's); as it was when they name no one."""
    kind, _, who = said.subject.partition(":")
    if not who or not _is_pronoun(who) or not (named := _named_before(before, len(before.rstrip()))):
        return said
    return said.model_copy(update={"subject": f"{kind}:{named}"})


def _named_before(body: str, end: int) -> str:
    """Who a pronoun at ``end`` stands for: the name said before it ("Priya" in "Change of plan:
    Priya told me she …", "小雨" in "小雨说她…"; the lexicon's ``address.named_before``), lower case,
    without the user's "我"; "" when none."""
    found = first_match("address.named_before", body[:end].rstrip(), ("zh", "en"))
    if found is None:
        return ""
    name = found.group("name")
    return (name[1:] if _is_me(name[:1]) else name).lower()


def budget_part(body: str) -> str | None:
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


# The canonical subjects that only say how the replies read (the lexicon's ``subject.canonical``).
HOW_REPLIES_READ = frozenset({"answer order", "tone", "script", "units", "time zone"})


def rule_candidate(kind: str, body: str, quote: str, canonical: str | None, prefix: str | None = None) -> Candidate:
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
CHANGE_LEAD = re.compile(f"^(({alternatives('change.lead', ('zh', 'en'))})[，,:：\\s]*)+", re.IGNORECASE)
_SUBJECT_LEAD = re.compile(f"^({alternatives('change.subject_lead', ('zh', 'en'))})\\s*", re.IGNORECASE)
_ARTICLE = re.compile(f"^({alternatives('change.article', ('en', 'zh'))})\\s+", re.IGNORECASE)
_SUBJECT_TAIL = re.compile(f"({alternatives('change.subject_tail', ('zh', 'en'))})")
# A sentence-final particle after an amount ("预算也改成1500吧" is 1500; "去酒吧" keeps its 吧).
_VALUE_PARTICLE = re.compile(f"(?<=[\\d元块万千百个人位天晚号日点])({alternatives('value.tail_particle', ('zh',))})$")


def _subject_value(body: str, canonical: str | None) -> tuple[str, str]:
    """Split a change/correction into (subject, presented value), e.g. ('budget', '预算: 8000元')."""
    cleaned = CHANGE_LEAD.sub("", body)
    verb = _EN_CHANGE.search(cleaned) or _EN_KEPT.search(cleaned)
    if verb:
        left, right = verb.group("subject").strip(TRIM), verb.group("value").strip(TRIM)
        subject = canonical or f"fact:{left.lower()}"
        return subject, f"{left}: {right}"
    parts = _CHANGE_SPLIT.split(cleaned, maxsplit=1)
    if len(parts) >= 3:
        # The clause that changes, not the remarks before it ("算了报班太贵了，预算降到2000，买点资料和作文批改就行" is
        # "预算: 2000，…"; the item held the whole sentence with "预算:" spliced into it)
        left = next((c for c in reversed(re.split(r"[，；]", parts[0])) if c.strip(TRIM)), parts[0]).strip(TRIM)
        if not _COPULA.fullmatch(parts[1]):
            left = _SUBJECT_LEAD.sub("", left)
        right = _VALUE_PARTICLE.sub("", parts[2].strip(TRIM)).strip(TRIM)
        left = _SUBJECT_TAIL.sub("", _ARTICLE.sub("", left))
        if right:
            label = left or canonical or "value"
            subject = canonical or (f"fact:{left.lower()}" if left else "")
            return subject, f"{label}: {right}" if left else right
    return canonical or "", cleaned


def _drops_a_number(body: str) -> bool:
    """A number said with the one it replaces ("weekdays will be 1.5 hours, not 2"): a correction."""
    old, kept = dropped_value(body)
    return bool(written_numbers(old)) and len(written_numbers(kept)) == 1


def dropped_value(value: str) -> tuple[str, str]:
    """The old value a correction drops ("…, not the 12th", "…，不是周三"; the lexicon's
    ``change.not_old``) and the correction without it; ("", value) when it names none."""
    match = first_match("change.not_old", value, ("zh", "en"))
    if match is None or not match.group("old"):
        return "", value
    if match.groupdict().get("new"):  # ("earlier I said tree nuts but it's actually sesame …": sesame)
        return match.group("old"), match.group("new")
    return match.group("old"), (value[:match.start()] + value[match.end():]).strip(" ，,。.;；")


def describe(candidate: Candidate) -> str:
    """One line for logs and notices."""
    return f"{candidate.action} {candidate.kind} [{candidate.subject}] {clip(candidate.value, 60)}"
