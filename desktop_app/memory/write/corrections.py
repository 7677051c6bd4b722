"""Which item a new value replaces or a correction corrects, and how the new value is worded.

"the 14th, not the 12th" corrects the item holding "the 12th"; "make that 2200" the latest value of its
size and kind; "Let's bump it up to $320 since there are more of us" keeps the item's words with the new
number in place of the old. Pure: the update rules (``updates``) hand over the items and write the result.
"""

from __future__ import annotations

import re

from desktop_app.lexicon import alternatives, fires
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import (
    ZH_DIGITS,
    Amount,
    amounts,
    counted,
    dateless_amounts,
    in_subject,
    only_counts,
    subject_counts,
    written_numbers,
)
from desktop_app.memory.lang.text import CJK_CHAR, term_set
from desktop_app.memory.write.names import NAME_SUBJECTS, is_name_subject, names_in, owns_a_typo
from desktop_app.memory.write.sentence import GOAL_CANCEL, GOAL_TARGET, TRIP, Candidate
from desktop_app.memory.write.typed_values import VALUE_KINDS, WHEN, says_when

SUPERSEDABLE_KINDS = VALUE_KINDS  # the kinds whose value a newer one replaces
BARE_RATIO = 5  # a bare number corrects a value at most this many times larger or smaller


def of_its_size(said: float, held: float) -> bool:
    """``said`` is within ``BARE_RATIO`` times ``held``, larger or smaller (``held`` not 0)."""
    return 1 / BARE_RATIO <= said / held <= BARE_RATIO


_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)\b", re.IGNORECASE)  # a day of the month ("the 3rd"), no count


# The words before a corrected value that are not the value (the lexicon's ``correct.new_lead``: "it's 11:30").
_NEW_LEAD = re.compile(alternatives("correct.new_lead"), re.IGNORECASE)


def swapped(old_value: str, dropped: str, new: str) -> str:
    """A short correction put in place of the value it drops, so the item keeps its words: "我下周三要去
    上海出差" corrected by "是下周四，不是周三" is "我下周四要去上海出差" (the words the two share at the
    seam are written once). A long correction stands as it is."""
    new = _NEW_LEAD.sub("", new, count=1)
    at = old_value.lower().find(dropped.lower())
    if at >= 0 and len(new) > len(dropped) + 6 and len(old_number := written_numbers(dropped)) == 1 \
            and len(said := written_numbers(new)) == 1 and not _ORDINAL.search(dropped):
        # the number alone takes the old one's place: "I can study about 2 hours on weekdays and 5 hours a day on
        # weekends" corrected by "Work's gone crazy, so realistically weekdays will be 1.5 hours, not 2" (it kept the
        # sentence of the change, and the 5 hours at weekends were lost)
        number = re.compile(rf"(?<![\d.,]){re.escape(dropped)}(?![\d.,]*\d)")
        if len(found := list(number.finditer(old_value))) == 1:  # ("7座" of "所以想要7座的" is "5座": its number only)
            put = dropped.replace(old_number[0], said[0], 1)
            unit = said[0].lstrip("0123456789.,")
            if unit and old_value[found[0].end():].startswith(unit):
                put = put[: len(put) - len(unit)]  # ("38k miles" corrected by "32k miles not 38": one "k")
            return old_value[: found[0].start()] + put + old_value[found[0].end():]
    if at < 0 or len(new) > len(dropped) + 6:
        return new
    before, after = old_value[:at], old_value[at + len(dropped):]
    seam = next((n for n in range(min(len(before), len(new)), 0, -1) if before.endswith(new[:n])), 0)
    # (and at the other seam: "3 days" in place of the 2 of "for 2 days" is "for 3 days", not "for 3 days days")
    tail = next((n for n in range(min(len(after), len(new)), 1, -1)
                 if new.endswith(after[:n]) and not after[n:n + 1].isalnum()), 0)
    return before + new[seam:] + after[tail:]


def holding(active: list[MemoryItem], old: str) -> MemoryItem | None:
    """The latest item whose value holds ``old`` (as a word, in English)."""
    pattern = re.compile(rf"(?<![\w]){re.escape(old)}(?![\w])" if old.isascii() else re.escape(old), re.IGNORECASE)
    held = [i for i in active if i.kind in (*SUPERSEDABLE_KINDS, "goal") and pattern.search(i.value)]
    return held[-1] if held else None


SHORT_CORRECTION_TERMS = 6  # "actually, make it Porto" corrects the last value; a longer sentence is news


# The Chinese digits ("一" … "九", "两"): a number said in words.


def latest_correctable(active: list[MemoryItem], value: str, quote: str = "") -> MemoryItem | None:
    """The item a correction that names no subject corrects: the latest one holding a number when
    the correction gives one ("make that 2200"), but never one counting something else: "make
    that 5 people" does not correct a budget of €5,000 (nothing is corrected then). A ``quote`` that
    says people came or went ("2 dropped out so it's 4 now") counts people."""
    # (A name is corrected only by a near spelling of it, ``names.corrected_name``: "说错了，是下周四"
    # after "我叫王小明" is no new name.)
    pool = [i for i in active if i.kind in SUPERSEDABLE_KINDS and not is_name_subject(i.subject)]
    if not written_numbers(value) and len(term_set(value)) > SHORT_CORRECTION_TERMS:
        # "Change of plan: Priya went fully vegan, so …" is news of its own, not a new wording of
        # whatever was said last (it replaced the head count).
        return None
    if not written_numbers(value) and not any(ch in ZH_DIGITS for ch in value):
        # A correction that says no number keeps the numbers held unless it names their item ("actually, you know what,
        # I'll dip into savings" replaced "let's say 45 guests", bench health round twenty-one; "押一付一，我记错了"
        # says its numbers in words)
        # A choice for a choice, a name respelt for the item holding it; nor a profile item ("…(was His sister is
        # celiac)") nor a requirement ("…(was So both: peanut-free, plus some gluten-free food)")
        pool = [i for i in pool if term_set(i.value) & term_set(value) or not written_numbers(i.value) and (
            i.kind in ("decision", "preference") or names_in(value) and (names_in(i.value) or owns_a_typo(value)))]
    if says_when(value.split(": ", 1)[-1]):
        # A day or a time corrects no amount: "时间改成晚上7点吧" is no head count of 7, "Change the departure
        # to 10:30" no budget (the review of round twelve's acknowledgment, which said them).
        pool = [i for i in pool if not counted(i.value) and not any(in_subject(u, i.subject.lower()) for u in ("money", "people"))]
    if written_numbers(value):
        pool = [i for i in pool if written_numbers(i.value)] or pool
        counts = counted(value) or ({"people"} if quote and fires("count.people_moved", quote) else set())
        if counts:  # the latest value counting the same thing, else the latest that says what it counts nowhere
            pool = [i for i in pool if counts & counted(i.value)] or [i for i in pool if not counted(i.value)]
        said = [a.value for a in amounts(value) if a.value > 0]
        if len(said) == 1 and not counts:
            # A bare number corrects a value of its size: "nah keep it at 4" (nights) is no budget of 2000; nor a
            # day's number ("so it's 4 now" after "6 of us, …, leaving fri 15 aug" moved the day to "4 aug").
            pool = [i for i in pool if any(of_its_size(said[0], a.value)
                                           for a in dateless_amounts(i.value) if a.value > 0)]
    return max(pool, key=lambda i: (i.updated_at, i.id)) if pool else None


def answers_an_unfiled_number(previous: str, value: str, active: list[MemoryItem]) -> bool:
    """A bare number said right after the user named one of its size that memory does not hold answers
    that one ("存3000会不会太狠" then "那就2500吧"), not the latest value held (a salary of 12000)."""
    said = [a for a in amounts(value) if a.value > 0]
    if len(said) != 1 or said[0].unit not in (None, "money"):
        return False
    held = {a.value for i in active for a in amounts(i.value)}
    return any(a.value not in held and of_its_size(said[0].value, a.value)
               for a in amounts(previous) if a.value > 0)


def goal_by_words(active: list[MemoryItem], subject_words: str, value: str) -> MemoryItem | None:
    """The goal a correction names by its words when it holds a number of the kind the correction says
    ("不对 目标是15斤" after "想减肥 目标减10斤 每天跑步半小时")."""
    words = term_set(subject_words)
    said = [a for a in amounts(value) if a.value > 0]
    if len(said) != 1 or not words:
        return None
    goals = [g for g in active if g.kind == "goal" and words & (term_set(g.value) | term_set(g.subject))
             and any(a.unit == said[0].unit and of_its_size(said[0].value, a.value)
                     for a in amounts(g.value) if a.value > 0)]
    return goals[-1] if goals else None


def goal_said_anew(active: list[MemoryItem], value: str) -> tuple[MemoryItem, str] | None:
    """A number said anew of the goal's target ("算了还是130吧" after "我现在体重140斤 想减到125", "感觉有点难，
    先定个3万吧" after "今年目标是存够5万"): the latest goal whose target is a number of its size and kind, with
    the new number in its place (the goal keeps its words and the other numbers it holds)."""
    figures = [a for a in amounts(value) if a.value > 0]
    for goal in reversed([g for g in active if g.kind == "goal"]):
        if (target := goal_target(goal.value)) is None:
            continue
        # (the old target said beside the new one is what is dropped: "算了还是130吧 125太难了")
        said = [a for a in figures if a.value != target.value] if len(figures) > 1 else figures
        if len(said) != 1:
            continue
        new = said[0]
        if (target.unit == new.unit or None in (target.unit, new.unit)) and of_its_size(new.value, target.value):
            return goal, goal.value[:target.start] + value[new.start:new.end] + goal.value[target.end:]
    return None


def goal_target(value: str) -> Amount | None:
    """The number a goal aims at: its one number not a day, or the one its aim names ("想减到125" of "我现在体重140斤 想减到
    125", not the weight now)."""
    # (a day is no aim: "Flying from Dublin to Athens on 14 September" has none)
    days = [m.span() for pattern in WHEN.values() for m in pattern.finditer(value)]
    figures = [a for a in amounts(value) if a.value > 0 and not any(s < a.end and a.start < e for s, e in days)]
    if len(figures) == 1:
        return figures[0]
    aim = GOAL_TARGET.search(value)
    return next((a for a in figures if aim.start() <= a.start < aim.end()), None) if aim else None


def aim_added(old_goal: str, new_goal: str) -> str | None:
    """A goal that only names its target ("想先减到58", "aiming to get down to 70 kg") said after a goal with none
    ("最近想减脂，帮我安排一周的饭吧"): the two as one goal, the task and its aim (the aim replaced the task)."""
    aim = GOAL_TARGET.search(new_goal)
    if aim is None or goal_target(old_goal) is not None:
        return None
    rest = re.sub(r"\d[\d.,]*", " ", new_goal[:aim.start()] + " " + new_goal[aim.end():])
    if len(CJK_CHAR.findall(rest)) + len(re.findall(r"[A-Za-z]+", rest)) > _AIM_ONLY:
        return None
    return f"{old_goal}{'，' if CJK_CHAR.search(new_goal) else '; '}{new_goal}"


def trip_added(old_goal: str, new_goal: str) -> str | None:
    """A trip said after a goal that is no trip ("打算去杭州周边" after "我们部门要搞个团建"): where the plan goes, the
    two as one goal (the trip replaced the outing it is for, acknowledged "（之前是你们部门要搞个团建…）")."""
    if TRIP.search(new_goal) is None or TRIP.search(old_goal) is not None or GOAL_CANCEL.search(new_goal):
        return None
    return f"{old_goal}{'；' if CJK_CHAR.search(new_goal) else '; '}{new_goal}"


# What an aim alone may say beside its target: its unit ("斤", "kg", "pounds") and a word or two.
_AIM_ONLY = 3


def by_words(active: list[MemoryItem], subject_words: str) -> MemoryItem | None:
    words = term_set(subject_words)
    scored = [(len(words & (term_set(i.value) | term_set(i.subject))), i) for i in active
              if i.kind in SUPERSEDABLE_KINDS]
    scored = [pair for pair in scored if pair[0] > 0]
    return max(scored, key=lambda pair: (pair[0], pair[1].id))[1] if scored else None


# A count in Chinese numerals and the character after it ("五岁", "三晚").
_ZH_COUNT = re.compile(f"([{''.join(sorted(ZH_DIGITS))}]+)({CJK_CHAR.pattern})")


def corrected_value(old_value: str, new_value: str) -> str:
    """Keep the old wording when only the number changed: '预算不超过5000元' + '6000' → '预算不超过6000元'."""
    old_numbers, new_numbers = written_numbers(old_value), written_numbers(new_value)
    if not old_numbers and not new_numbers:
        # a count in Chinese numerals, by the same counter: "我儿子叫小宇 今年五岁" corrected by "六岁了 刚过完生日" is "我儿子
        # 叫小宇 今年六岁" (it became "六岁了 刚过完生日", and 小宇 was lost)
        was, now = _ZH_COUNT.findall(old_value), _ZH_COUNT.findall(new_value)
        if len(was) == 1 and len(now) == 1 and was[0][1] == now[0][1] and was[0][0] != now[0][0]:
            return old_value.replace("".join(was[0]), "".join(now[0]), 1)
    # A short correction, or a count said alone however worded ("it's 10 people now" of "Dinner party on
    # Saturday for 8": a Pilot walk lost the Saturday to it).
    short = len(new_value) <= len(new_numbers[0]) + 12 or fires("change.count_alone", new_value) if new_numbers else False
    if len(new_numbers) == 1 and not short:
        # "actually we're now 15, marketing wants in": a first clause saying the count is the change, the rest its
        # reason (not "my mum wants to come too, so make that 5 people", whose reason changes who the count holds)
        said_in = re.split(r"[,，;；]", new_value, maxsplit=1)[0].strip()
        short = new_numbers[0] in said_in and said_in != new_value.strip() \
            and (len(said_in) <= len(new_numbers[0]) + 12 or fires("change.count_alone", said_in))
    if len(new_numbers) == 1 and not short:
        # "Let's bump it up to $320 since there are more of us": a change that points back at the value keeps
        # the item's words ("Budget for food and drinks is around $320"), not the sentence's reason.
        # (Not a head count: "so make that 5 people" of "There'll be 4 of us: me, my husband Tom, and our two
        # kids" would keep a list of people it no longer holds.)
        at = new_value.find(new_numbers[0])
        short = at > 0 and fires("change.refers_back", new_value[:at]) and "people" not in counted(new_value)
    if len(old_numbers) == 1 and len(new_numbers) == 1 and short:
        return old_value.replace(old_numbers[0], new_numbers[0], 1)
    if len(old_numbers) >= 2 and len(new_numbers) == 1 and short:
        # "bump it to 750" of "family of 4, ~600/mo": the one number of its size and kind takes the new
        # one's place, and the head count said beside it stays (a longer correction says more: "it's 2200
        # for a studio in Brooklyn now" stands as it is)
        said = [a for a in amounts(new_value) if a.value > 0]
        if len(said) == 1:
            new = said[0]
            alike = [a for a in amounts(old_value) if a.value > 0 and of_its_size(new.value, a.value)
                     and (a.unit == new.unit or None in (a.unit, new.unit))]
            if new.unit is not None and len(alike) > 1:
                # "说错了 是跑了4万公里" of "…跑了6万公里 卖8.2万 我首付打算3万": the one of its unit
                alike = [a for a in alike if a.unit == new.unit]
            if len(alike) == 1 and old_value.count(old_value[alike[0].start:alike[0].end]) == 1:
                return old_value[:alike[0].start] + new_value[new.start:new.end] + old_value[alike[0].end:]
    return new_value


def same_subject(cand: Candidate, active: list[MemoryItem]) -> MemoryItem | None:
    if not cand.subject or (is_name_subject(cand.subject) and cand.subject not in NAME_SUBJECTS):
        # Someone's name ("name:室友") is one person of that kind: "另一个室友叫赵明" is a second roommate,
        # and a name is spelt anew only by a typo owned up to (``names.respelled``)
        return None
    matches = [i for i in active if i.subject == cand.subject and i.kind not in ("goal", "open_question")]
    if not matches and cand.subject.startswith("budget:"):
        # "软装预算提到9万吧" after "软装另外算，预算6万左右": the budget that named the part is that part's
        part = cand.subject.split(":", 1)[1]
        matches = [i for i in active if i.subject == "budget" and part in i.value.lower()]
    if not matches and cand.subject.startswith("diet:"):
        # "小雨说她现在吃全素" after "我表妹小雨吃素": the same person, named shorter
        who = cand.subject.split(":", 1)[1]
        matches = [i for i in active if i.subject.startswith("diet:") and same_person(who, i.subject.split(":", 1)[1])]
    if not matches and cand.subject == "budget" and fires("change.value", cand.quote):
        # "人少了那预算就压到1200吧" after "买菜预算控制在1500以内": with no whole budget held, a change of
        # the budget changes the only one there is ("Total budget is 4000" beside a part is a new whole)
        parts = [i for i in active if i.subject.startswith("budget:") and i.kind == "constraint"]
        matches = parts if len(parts) == 1 else []
    if not matches and cand.kind != "directive":
        matches = same_count(cand.subject, active)
    if cand.kind == "directive":
        matches = [i for i in matches if i.kind == "directive"] or matches
    else:
        matches = [i for i in matches if i.kind != "directive"]
    return matches[-1] if matches else None


def same_person(one: str, other: str) -> bool:
    """Two names of one person: the same, or one the end of the other ("小雨" of "表妹小雨", "priya"
    of "friend priya"; a whole word in English: "ben" is not "reuben"), in Chinese also its start
    ("表妹" of "表妹小雨")."""
    if not one or not other:
        return False
    short, long_ = sorted((one, other), key=len)
    if short.isascii():
        return long_ == short or long_.endswith(f" {short}")
    return long_.endswith(short) or long_.startswith(short)


def same_count(subject: str, active: list[MemoryItem]) -> list[MemoryItem]:
    """For a subject the rules fill with a count (the head count, the trip's length): the items the
    model's pass filed under a label of its own that hold a count of the same thing and nothing else
    ("guests: 8 guests" before "We're at 10 now"): the old value, which must not stay behind."""
    wanted = subject_counts(subject, subject)
    if not wanted:
        return []
    return [i for i in active if i.origin == "model" and i.kind in SUPERSEDABLE_KINDS
            and (counts := only_counts(i.value.split(": ", 1)[-1])) and all(unit in wanted for _, unit in counts)]
