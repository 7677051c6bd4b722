"""Rule-based extraction of memory from the user's words (Chinese and English, any model).

A message is read sentence by sentence, a sentence whole or clause by clause (what one sentence or clause
says: :func:`desktop_app.memory.write.sentence.classify`). Candidates are proposals only: the update rules
in :mod:`desktop_app.memory.write.updates` decide whether they add, supersede, go to pending or are
dropped, and :mod:`desktop_app.memory.write.patches` validates what is written.
"""

from __future__ import annotations

import re
from typing import Literal

from desktop_app.lexicon import alternatives, cue, fires, first_match, lexicon_words
from desktop_app.memory.lang.amounts import written_numbers
from desktop_app.memory.lang.dates import month_days
from desktop_app.memory.lang.text import (
    CANONICAL_SUBJECTS,
    CJK_CHAR,
    canonical_subject,
    split_sentences,
    term_set,
    topic_subject,
    without_lead_in,
)
from desktop_app.memory.write.clause_reading import (
    SUPERSEDING_KINDS,
    clauses,
    stands_alone,
    told_before_asking,
    value_by_value,
)
from desktop_app.memory.write.mood import (
    AFFIRM,
    DENY,
    RELAYED,
    REPORTED,
    TRIM,
    is_hypothetical,
    is_question,
    is_small_talk,
    rx,
    unquoted,
)
from desktop_app.memory.write.sentence import (
    BARE_CHANGE,
    CHANGE,
    CHANGE_LEAD,
    CORRECT,
    DEFAULT_MANNER,
    GOAL,
    INSTEAD,
    MANNER_INSTEAD,
    NEED_PREFIX,
    REPLY_BEHAVIOUR,
    REVOKE,
    STANDING,
    WHEN_PREFIX,
    Candidate,
    budget_part,
    classify,
    owner_named,
    quantity_stated,
    rule_candidate,
    stated_fact,
)
from desktop_app.memory.write.shifts import days_shift, shift_in
from desktop_app.memory.write.typed_values import says_when


def extract(text: str) -> list[Candidate]:
    """All candidates in one user message, in sentence order."""
    stripped = text.strip()
    if AFFIRM.match(stripped):
        return [Candidate(action="confirm", quote=stripped)]
    if DENY.match(stripped):
        return [Candidate(action="reject", quote=stripped)]
    out: list[Candidate] = []
    sentences = split_sentences(unquoted(text))
    for at, sentence in enumerate(sentences):
        if (lone := _only_standing(sentence)):
            # "one rule: no long intros, just answer. always.": the "always" is the sentence before's (it was filed as
            # the rule "always")
            before = sentences[at - 1] if at else ""
            out += [] if any(c.kind == "directive" for c in out) or not before else _standing(before, lone)
            continue
        lead = _RULE_LEAD.match(sentence.strip())
        said = (lead and _standing(sentence.strip()[lead.end():], "")) or _with_shift(sentence, unshifted(sentence))
        if (CORRECT.search(sentence) or CHANGE_LEAD.match(sentence.strip())) and (people := {_whose(c) for c in said} - {""}):
            # "His best friend Carlos is celiac... wait no, sorry, Carlos is the one with the peanut allergy": what the
            # message said of that person before it owned up to the slip is taken back
            out = [c for c in out if _whose(c) not in people]
        out += said
    if (days := month_days(text)):
        put_off = [c for c in out if c.action == "shift" and days_shift(c.quote) is not None]
        # a day put off when the message names the new day too ("…if we leave July 21 instead. Let's push everything
        # back a week"): the day said is the change, not a week more on top of it (it said "July 28"); named as the old
        # one ("那往后挪一周吧。搬家日子原来定在6月15号"), it is filed first and then put off
        out = [c for c in out if c not in put_off] + (put_off if _said_as_old(text, days[0].start) else [])
    # A "value" longer than an item holds is pasted material, not a thing said to be kept ("from now on always answer
    # in xxxx…" of 5,000 letters failed the turn on the store's limit); its quote is kept to the limit.
    return [c.model_copy(update={"quote": c.quote[:MAX_QUOTE_CHARS]}) for c in _replacing_rule(sentences, out)
            if len(c.value) <= MAX_VALUE_CHARS and len(c.subject) <= MAX_SUBJECT_CHARS]


MAX_VALUE_CHARS = 1000
MAX_SUBJECT_CHARS = 200
MAX_QUOTE_CHARS = 4000
_RULE_LEAD = rx(alternatives("rule.lead", ("zh", "en")))


def _only_standing(sentence: str) -> str:
    """The standing word a sentence is made of alone ("always.", "以后都这样"), or ""."""
    body = sentence.strip(TRIM)
    found = STANDING.search(body)
    return found.group(0) if found is not None and found.group(0).lower() == body.lower() else ""


def _standing(sentence: str, word: str) -> list[Candidate]:
    """The reply rules ``sentence`` says, read as standing from now on (``word``, or the language's first standing
    word), in the user's words."""
    body = sentence.strip(TRIM)
    lang = "zh" if CJK_CHAR.search(body) else "en"
    standing = word or lexicon_words("rule.standing", lang)[0]
    return [c.model_copy(update={"value": body, "quote": body}
                         | ({} if c.canonical else {"subject": topic_subject(c.kind, body)}))
            for c in unshifted(f"{standing} {body}") if c.action == "add" and c.kind == "directive"]


_OLD_WINDOW = 8  # characters before a day where a word saying it was the old one ("原来定在", "originally") stands


def _said_as_old(text: str, start: int) -> bool:
    """The day at ``start`` is named as the one that was ("搬家日子原来定在6月15号", "it was originally June 14")."""
    before = text[max(0, start - _OLD_WINDOW):start].lower()
    return any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", before) if w.isascii() else w in before
               for lang in ("zh", "en") for w in lexicon_words("guard.history", lang) if w not in ("not", "from", "不是"))


def _whose(candidate: Candidate) -> str:
    """The person a profile fact is about ("carlos" of "allergy:carlos"), or ""."""
    kind, _, who = candidate.subject.partition(":")
    return who if candidate.action == "add" and kind in ("allergy", "health", "diet") else ""


def unshifted(sentence: str) -> list[Candidate]:
    """What ``sentence`` asks memory to do, read as changing no value by an amount (what a change of
    "10斤" or "3个菜" that no item counts stands for instead: "目标减10斤" is a goal)."""
    if _ends_in_a_new_day(sentence):
        # "农家乐说20号订满了，只能21号，那就21号吧": the day it settles on moves the one it names (the clauses were
        # three items, and the party stayed on the 20th)
        return _bare_change(sentence)
    return _goals_joined(_work_place_apart(_weekday_joined(_with_head_count(sentence, _sentence_candidates(sentence))))) \
        or _bare_change(sentence) or quantity_stated(sentence)


def _goals_joined(found: list[Candidate]) -> list[Candidate]:
    """Two clauses of one sentence that each say the plan ("我想安排一次家庭出游，……，帮我规划一下") are one goal (as two,
    the second replaced the first, and the plan was "帮我规划一下": a user's walk, round twenty-five)."""
    goals = [c for c in found if c.action == "add" and c.kind == "goal" and c.subject == "goal"]
    if len(goals) < 2:
        return found
    comma = "，" if any(CJK_CHAR.search(g.value) for g in goals) else ", "
    joined = goals[0].model_copy(update={"value": comma.join(g.value for g in goals),
                                         "quote": comma.join(g.quote for g in goals)})
    return [joined if c is goals[0] else c for c in found if c not in goals[1:]]


def _work_place_apart(found: list[Candidate]) -> list[Candidate]:
    """The city said with the user's job ("我在杭州做程序员", "I'm a nurse in Portland") is where they live, an item of its
    own, and the job is said without it: a move changes the one and leaves the other (as one item, "搬到苏州了" left
    "杭州" in the job)."""
    out: list[Candidate] = []
    for said in found:
        place = first_match("fact.work_place", said.value) if said.action == "add" and said.subject == "occupation" else None
        if place is None:
            out.append(said)
            continue
        where = place.group("where").strip()
        job = f"{said.value[:place.start('where')]}{said.value[place.end('where'):]}".strip(TRIM)
        out += [Candidate(action="add", kind="fact", subject="location", value=where, quote=said.quote, canonical=True),
                said.model_copy(update={"value": job})]
    return out


def _weekday_joined(found: list[Candidate]) -> list[Candidate]:
    """A clause that only names a weekday ("周六" of "时间定在12月20号 周六") joined to the day said just before it: one
    item, moved together (the weekday alone stayed when the day moved a week, and opened the list as "周六")."""
    out: list[Candidate] = []
    for said in found:
        if said.action == "add" and said.subject == WHEN_PREFIX and out and out[-1].action == "add" \
                and out[-1].subject.startswith(WHEN_PREFIX):
            joined = f"{out[-1].value}{'，' if CJK_CHAR.search(said.value) else ', '}{said.value}"
            out[-1] = out[-1].model_copy(update={"value": joined, "quote": f"{out[-1].quote} {said.quote}"})
        else:
            out.append(said)
    return out


def _ends_in_a_new_day(sentence: str) -> bool:
    """The sentence's last clause only says a day, as a change does ("那就21号吧"), after clauses naming another."""
    parts = clauses(sentence.strip().strip(TRIM))
    return len(parts) >= 2 and BARE_CHANGE.search(parts[-1].strip(TRIM)) is not None \
        and says_when(parts[-1]) and any(says_when(p) for p in parts[:-1]) and not is_question(sentence)


_HEAD_COUNT = rx(alternatives("fact.head_count", ("zh", "en")))


def _with_head_count(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """A plan that says how many go ("Help me plan a trip to Lisbon for the 4 of us") files the head count
    too: a later "make that 5 people" changes it (it had changed nothing, and the plan kept saying 4)."""
    if [(c.action, c.kind) for c in found] != [("add", "goal")] or is_question(sentence):
        return found
    counted = stated_fact(sentence.strip(TRIM), sentence.strip(), None, (("fact.head_count", "head count"),))
    if counted is None:
        return found
    # A plan of nothing but the count ("Let's plan for about 100 people") is the head count said anew, not a new
    # goal (it replaced "I'm planning a 1-year anniversary event for customers", and was acknowledged "100 people
    # (was 1)")
    return [counted] if not term_set(GOAL.sub(" ", _HEAD_COUNT.sub(" ", sentence))) else found + [counted]


def _with_shift(sentence: str, found: list[Candidate]) -> list[Candidate]:
    """A sentence that changes a value by an amount ("再加500吧", "add 300 to the budget", "let's halve
    that"; ``shifts``) shifts it: what else it made of its number goes (it filed "add 300 to the budget"
    as the budget), the rest of what it says stays. One that puts a day off ("let's push the whole thing back a
    week") shifts the day; with the new day said too ("开工往后推两周吧 10月22号") it moves the day to it."""
    quote = sentence.strip()
    if days_shift(quote) is not None and not is_question(quote) and not is_hypothetical(quote.strip(TRIM)):
        # (it filed nothing, or the new day as a day of its own beside the old one)
        action: Literal["correct", "shift"] = "correct" if month_days(quote) else "shift"
        # (what else it says stays: "Let's push everything back a week, still 7 days")
        kept = [c for c in found if c.action == "add" and not says_when(c.value)]
        return [*kept, Candidate(action=action, kind="fact", value=quote, quote=quote)]
    if (shift := shift_in(quote)) is not None \
            and (relayed := RELAYED.search(quote) or next((m for lang in ("zh", "en") if (p := cue("speech.says", lang))
                                                            is not None and (m := p.search(quote))), None)) \
            and fires("speech.their_own", quote[relayed.end():]):
        # "my sister said she'd add 300 to hers", "lol my sister said she's adding 500 to her budget": someone else's
        # change of their own value writes nothing (it was the user's budget shifted, or replaced by the sentence)
        return []
    if is_question(quote) or is_hypothetical(quote.strip(TRIM)) or REPORTED.search(quote) or shift is None:
        # ("老师说再减500字", "the venue says bump that up by 5 bucks" change the user's value)
        return found
    canonical = budget_part(quote.strip(TRIM)) or canonical_subject(quote)
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
            body = CHANGE_LEAD.sub("", part.strip()).strip(TRIM)
            if _says_manner_instead(body) and not is_question(part):
                rule = rule_candidate("directive", body, part.strip(), canonical_subject(body)).model_copy(
                    update={"replaces": True})
                # The new rule stands for what the message made of its words (a correction of a "fact").
                return [c for c in out if c.quote.strip(TRIM) not in (part.strip(TRIM), sentence.strip(TRIM))
                        or c.action == "revoke"] + [rule]
    return out


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
        # "Scratch that, so we're at 10": what was said is taken back for the value that follows it (not when the
        # clause names the rule it drops: "ok you can drop the short thing, I like the detail" gives its reason).
        instead = [] if fires("rule.reference", parts[0]) else \
            [c for part in parts[1:] if (c := classify(part)) is not None and c.action == "add"
                   and c.kind in SUPERSEDING_KINDS and (stands_alone(c) or c.kind == "preference")
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
            facts = [c for c in said if c.kind == "fact" and stands_alone(c)]
            return (goals[:1] or [whole]) + facts
        # "drop that formatting rule, just write normal paragraphs": the rule goes, the new one comes.
        for part in parts[1:]:
            body = part.strip(TRIM)
            rule = classify(part)
            if not (rule is not None and rule.action == "add" and rule.kind == "directive") \
                    and _says_manner_instead(body):
                rule = rule_candidate("directive", body, part.strip(), canonical_subject(body))
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
    # (A requirement said in a clause of what the whole says is part of it: "找工作 想找上海的产品经理岗位 期望薪资30k起
    # 最好是互联网大厂" is one goal.)
    found = [c.model_copy(update={"value": without_lead_in(c.value, edge=TRIM) or c.value})
             for c in _clause_candidates(parts) if c.action == "add" and stands_alone(c, sentence if whole is not None else "")
             and not (whole is not None and whole.kind == "goal" and c.subject.startswith(NEED_PREFIX))]
    if (listed := _listed_rules(sentence, parts)):
        return listed
    if whole is not None and whole.kind in ("decision", "goal") and fires("change.mind", sentence):
        # "想了想水煮鱼太辣了 老人吃不了 改做清蒸鲈鱼": the choice made instead is its own clause, without the
        # one it drops
        chosen = [c for c in found if c.kind == whole.kind and fires("change.mind", c.quote)]
        if len(chosen) == 1:
            return chosen
    if whole is None:  # a question, or clauses the whole does not read: the facts and plans stated in them
        if not is_question(sentence) and not found and (apart := value_by_value(parts, None)):
            return apart  # "Looking at a 2021 Honda CR-V, 38k miles, asking 27,500": the values, each its own
        if not is_question(sentence):
            # "两个要求 回答用要点列出来 还有不要用表情", "改一下 以后代码用Go": the reply rules the clauses say,
            # no question asked (a rule of a few words, not a lone "always,")
            # A rule needs its "from now on" or the rules announced ("这题 回答用英文" is for this answer).
            # A limit or a choice said beside a fact or plan is part of that task ("今晚做红烧肉 6个人吃 不要太甜":
            # "不要太甜" was lost).
            planned = any(c.kind in ("fact", "goal") for c in found)
            return [c for c in found if c.kind in ("fact", "goal")
                    or planned and c.kind in ("constraint", "decision", "preference")
                    or c.kind == "directive" and (len(term_set(c.value)) >= 2 or len(CJK_CHAR.findall(c.value)) >= 4)
                    and (STANDING.search(c.value) is not None or fires("rule.announced", sentence))]
        stated = [c for c in found if c.kind in ("fact", "goal")]
        return stated + [c for c in told_before_asking(parts) if not any(c.quote == f.quote for f in stated)]
    bare = [c for part in parts if classify(part) is None for c in _bare_change(part)]
    if bare and found:
        # "又多了俩 10个，预算控制在1500以内": a count said anew beside a new limit (under Pilot, round ten,
        # the head count stayed 8 inside one item holding both)
        return found + bare
    if (apart := value_by_value(parts, whole)):
        return apart
    if len(found) >= 2 and len({c.value for c in found}) == len(found) \
            and all(c.kind == "fact" and c.subject.partition(":")[0] in _CONDITIONS for c in found):
        # "I have type 1 diabetes and I'm on blood thinners": two conditions, each its own item (as when said apart)
        return found
    # One rule said in two clauses ("always answer in Chinese, no English words") stays one rule.
    if len({(c.kind, c.subject) for c in found}) >= 2 and not all(c.kind in ("directive", "constraint") for c in found):
        return found
    # A rule word in a clause that makes no rule ("我有高血压，一直在吃药"): the fact is what was said.
    if whole.kind in ("directive", "constraint") and found and all(c.kind == "fact" for c in found):
        return found
    if _whose(whole) and (others := [c for c in found if _whose(c) and _whose(c) != _whose(whole)]):
        # "Ellie's vegan and Rob can't eat sesame, he's allergic": Ellie's diet too, not only Rob's allergy (whose
        # item holds the rest of the sentence)
        rest = whole.value
        for other in others:
            rest = rest.replace(other.value, " ")
        rest = without_lead_in(rest.strip(TRIM), edge=TRIM) or whole.value
        return [whole.model_copy(update={"value": rest}), *others]
    return [whole]


# Profile subjects of which one person has several at once (said apart, neither replaces the other).
_CONDITIONS = ("health", "allergy", "diet")
def _clause_candidates(parts: list[str]) -> list[Candidate]:
    """What each clause says; a clause that drops the "I" of the one before it is read with it ("我32岁 住深圳
    有高血压": the user lives in Shenzhen and has high blood pressure; not after "我爸今年65了"; "A bit about me: I'm
    Marta, 34, software engineer": 34 is the user's age, the engineer the user's job)."""
    out, mine = [], False
    for at, part in enumerate(parts):
        body = part.strip(TRIM)
        if fires("self.opening", body):
            mine = True
        elif fires("self.other_opening", body):
            mine = False
        said = classify(part)
        if said is None and mine and not fires("self.opening", body):
            said = _as_mine(body)
            said = said.model_copy(update={"value": body, "quote": part.strip()}) if said is not None else None
        if said is not None:
            out.append(owner_named(said, " ".join(parts[:at])))
    return out


def _as_mine(body: str) -> Candidate | None:
    """A clause read after the language's openings that say "I" (``intro.self``: "我", "I'm", "I'm a"): a fact about
    the user or a plan, never a rule ("我有高血压，一直在吃药" sets no rule of "always"); not a mood or chatter ("I'm
    Tom, lol, tired today": "a tired today" was the user's job)."""
    chinese = CJK_CHAR.search(body) is not None
    # (a short Chinese clause counts as small talk by its length alone: "会计")
    if fires("intro.not_mine", body) or not chinese and is_small_talk(body) and not re.search(r"\d", body):
        return None
    for opening in lexicon_words("intro.self", "zh" if chinese else "en"):
        said = classify(f"{opening}{'' if chinese else ' '}{body}")
        if said is not None and said.kind in ("fact", "goal") and (said.subject != "name" or chinese) \
                and (said.subject != "occupation" or fires("intro.job", body)):
            # (a job only by a word of work: "just curious" and "Miso and Tofu" were the user's jobs; a name only said
            # with its "I'm" in English: "I have a dog, Pepper" named the user Pepper; "我姓孙 叫孙浩" is 孙浩)
            return said
    return None


def _listed_rules(sentence: str, parts: list[str]) -> list[Candidate]:
    """Rules announced together ("two rules for this chat: keep answers under 100 words, and no emojis"):
    one item each, so that one can be dropped and the other kept; [] unless every clause is a rule."""
    if not fires("rule.announced", sentence):
        return []
    out = []
    # (the "from now on" said once for all of them: "two rules from now on: use metric units, and keep it short")
    standing = STANDING.search(sentence)
    for part in parts:
        body = without_lead_in(part.split(":", 1)[-1].split("：", 1)[-1].strip(TRIM), edge=TRIM)
        rule = classify(body)
        if rule is None and standing is not None and not STANDING.search(body):
            rule = classify(f"{standing.group(0)} {body}")
        if rule is None and REPLY_BEHAVIOUR.search(body) and fires("rule.bare_prohibit", body):
            rule = rule_candidate("directive", body, part.strip(), None, prefix="forbid")
        if rule is None or rule.action != "add" or rule.kind not in ("directive", "constraint"):
            return []
        out.append(rule.model_copy(update={"value": body}))
    return out if len({(c.kind, c.subject) for c in out}) == len(out) >= 2 else []
