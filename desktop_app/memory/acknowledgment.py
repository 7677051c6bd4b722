"""What the program answers when the model had no answer to a message that only told something.

A small model asked "我弟说他也要跟着去，那就5个人了" may say the message back, or an earlier reply, once
more after its retry. Memory took the news in all the same; the user reads what it took in, in a
sentence, instead of a parrot: "好的，记下了：5个人（之前是4个人）。" Pure: the caller hands over what
the message wrote (each new value with the one it replaced) and what it dropped.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.lexicon import LANGS, cue, first_match, lexicon_words
from desktop_app.memory.lang.amounts import ZH_DIGITS, Amount, amount_phrase, dateless_amounts, written_numbers
from desktop_app.memory.lang.dates import day_in, days_said, month_days
from desktop_app.memory.lang.text import CJK_RUN, marks_aside, rule_language, split_sentences, unlabelled, without_lead_in
from desktop_app.memory.lang.voice import in_your_voice
from desktop_app.memory.repeats import SAID_BEFORE_SHARE, said_before
from desktop_app.prompts import acknowledge_text

MAX_VALUE = 60  # characters of one value shown
MAX_RULE = 100  # characters of a dropped rule shown (a rule is a sentence: "from now on please give me the …")
SAID_BACK = 0.8  # a changed value this long beside the message is the message said back
CLAUSE_SHARE = 0.5  # a value without a name, among several, is said by its clause when it is at most this share of the message
# A clause ends at a comma, a semicolon or a colon, but not one inside a number ("1,500", "10:30").
_CLAUSE_END = re.compile(r"(?:(?<!\d)[,:]|[,:](?!\d)|[，;；：、])\s*")
_TRIM = " ，,。.!！；;：:"
_TIME_MARK = "0123456789:./月日号年$€£¥￥"


def _counted(text: str, amount: Amount, lang: str = "") -> str:
    """An amount as ``text`` writes it with its unit, its measure ("1.8 kg") or its counter ("5座", the lexicon's
    ``unit.said_with``); a head count said in the other language in ``lang``'s words ("55个人")."""
    said = amount_phrase(text, amount, measure=True)
    if lang and (people := _people_in(lang, amount, said)) != said:
        return people
    counter = text[amount.end:amount.end + 1]
    return said + counter if said == text[amount.start:amount.end] and counter and counter in _counters() else said


def _people_in(lang: str, amount: Amount, said: str) -> str:
    """A head count ``said`` in the other language, in ``lang``'s words ("55个人", not "55 guests", in a Chinese reply);
    ``said`` otherwise."""
    if amount.unit == "people" and not written_in(said, lang):
        return str(acknowledge_text(lang)["people"]).format(n=f"{amount.value:g}")
    return said


def _counters() -> frozenset[str]:
    return frozenset(w for lang in LANGS for w in lexicon_words("unit.said_with", lang))


def changed_part(new: str, old: str, lang: str = "") -> tuple[str, str]:
    """What changed between ``old`` and ``new``: the amount that differs with its unit ("我弟说他也要跟着去，
    那就5个人了" of "我们一共4个人" is "5个人" against "4个人"; "1,200元" against "1,500元"); else the clauses
    that differ ("周六在家请客，去公园" of "周六在家请客，去海边" is "去公园"), a label staying with the new value
    ("口味: 清淡" against "重口")."""
    new_amounts, old_amounts = dateless_amounts(new), dateless_amounts(old)
    fresh = [a for a in new_amounts if a.value not in {b.value for b in old_amounts}]
    gone = [b for b in old_amounts if b.value not in {a.value for a in new_amounts}]
    if len(fresh) == 1 and len(gone) > 1 and fresh[0].unit:  # "我们一共4个人…他俩都60多了": the 4 counts people
        gone = [b for b in gone if b.unit == fresh[0].unit] or gone
    if len(gone) == 1 and len(fresh) > 1 and gone[0].unit:  # "少4个，就8个人了" of "大概12个人" (run O): the 8
        fresh = [a for a in fresh if a.unit == gone[0].unit] or fresh
    if len(gone) == 1 and len(fresh) > 1 and not gone[0].unit:
        # the amount said last is the new one ("靠谱的都要四千多 那预算提到4500吧" of "预算一个人3000以内吧"; it said
        # "好的，记下了。")
        fresh = fresh[-1:]
    if len(fresh) == 1 and len(gone) == 1:
        return _counted(new, fresh[0], lang), _counted(old, gone[0], lang)
    shared = 0
    for match in _CLAUSE_END.finditer(new):
        if old.startswith(new[: match.end()]) and match.end() < len(new):
            shared = match.end()
    if new[:shared].rstrip().endswith((":", "：")):
        return new, old[shared:]
    new, old = new[shared:], old[shared:]
    same = len(os.path.commonprefix([new, old]))
    if new[same:same + 1].isdigit():  # a time or a date that differs: "10:45" against "10:30"
        while same and new[same - 1] in _TIME_MARK:
            same -= 1
        new, old = new[same:], old[same:]
    return new, old


# The user's words turned to the program's voice open with these ("Your cat Biscuit"): lower-cased after another value.
_VOICED_OPENINGS = frozenset({"Your", "You", "You're", "You've", "You'll", "You'd"})


def _clip(text: str, limit: int = MAX_VALUE) -> str:
    """A value as said back: without its spoken opening ("Oh, one thing:"), on one line, at most
    ``limit`` characters, cut at a word's end."""
    text = " ".join(without_lead_in(text, keep_last=True).split()).strip(_TRIM)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut and text[limit - 1:limit].isalnum():
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(_TRIM) + "…"


# The facts whose cue holds what they are ("对虾过敏" → "虾"; lexicon ``fact.*``, group ``value``).
_WHAT_CUES = ("fact.family_allergy", "fact.allergy", "fact.family_diet", "fact.diet", "fact.health", "fact.frequency",
              "fact.weakness", "fact.tables", "fact.time_available", "fact.nickname", "fact.size",
              "fact.person_name", "fact.name", "rule.address")


def _what(value: str, lang: str) -> str:
    """What a fact of ``_WHAT_CUES`` is ("虾" of "我表妹小雨对虾过敏", "4 days a week"), or ""."""
    found = (first_match(name, value, (lang,)) for name in _WHAT_CUES)
    return next((m.group("value").strip(_TRIM) for m in found if m is not None and m.groupdict().get("value")), "")


def _named(label: str, what: str, lang: str) -> str:
    return acknowledge_text(lang)["named"].format(label=label, what=what)  # "Jake's allergy: shellfish"


def _dated(label: str | None, value: str, lang: str) -> str:
    """A value named by the program: its label with the day it says ("出发日期 10月1号", not "出发日期" alone:
    run R said "记下了：出发日期；6天。"), or with what it is ("表妹小雨的过敏：虾", run S said "表妹小雨的过敏"),
    or its label."""
    when = [_day_named(pattern, value) for name in ("time.date", "time.clock") if (pattern := cue(name, lang)) is not None
            and pattern.search(value) is not None]
    if not when and not written_in(value, lang):
        when = [day_in(d, lang) for d in month_days(value)[:1]]  # a day said in the other language, in this one
    if label and (leaving := first_match("fact.departure", value, (lang,))) is not None \
            and leaving.groupdict().get("value"):
        # the day of leaving, not the first day said ("改6月25号出发吧" of "看了下7月机票太贵了 改6月25号出发吧": it said "7月")
        when = [leaving.group("value")]
    if not label:
        return " ".join(when)  # a day with no name for it is said alone ("6月15号；周六", not "周六": a reader missed it)
    if when:
        return f"{label} {' '.join(when)}"
    what = _what(value, lang)
    return _named(label, what, lang) if what else label


def _day_named(pattern: re.Pattern[str], value: str) -> str:
    """The day ``value`` names, by ``pattern``: the first, or the one of a month with its weekday before it ("Friday 19
    September"; it said "Friday", and a reader lost the 19th)."""
    found = list(pattern.finditer(value))
    dated = month_days(value)
    if not dated or any(m.start() <= dated[0].start < m.end() for m in found[:1]):
        day = found[0]
        after = [m for m in found[1:] if m.start() >= day.end() and not value[day.end():m.start()].strip(" ,，(（")]
        # (and the weekday said right after it: "6月15号，周六" names both, as the user said them)
        return value[day.start():after[0].end()] if after and dated else day.group(0)
    before = [m for m in found if m.end() <= dated[0].start and not value[m.end():dated[0].start].strip(" ,，")]
    start = before[-1].start() if before else dated[0].start
    return value[start:dated[0].end]


def named_value(value: str, label: str | None, lang: str) -> str:
    """A value said by what it holds, not in the user's words: its one amount with what it counts ("5个人" of
    "我弟说他也要跟着去，那就5个人了"; "4个人" of "…4个人…他俩都60多了"), named by its label when the amount is bare
    ("预算 1500"), or its label with its day or with what it is ("departure July 21", "Priya's diet: vegan"); ""
    when it holds none of these."""
    if label and (what := _what(value, lang)):  # ("4 days a week", not "4 days")
        return _named(label, what, lang)
    held = dateless_amounts(value)
    counting = [a for a in held if a.unit in ("money", "people", "days")]
    one = counting if len(counting) == 1 else held
    dated = _dated(label, value, lang)
    if len(one) == 1:
        named = _people_in(lang, one[0], amount_phrase(value, one[0], measure=True))
        if one[0].unit == "days" and dated != label:  # a day and how long: "departure July 21, 7 days"
            return f"{dated}{'，' if lang == 'zh' else ', '}{named}"
        # (an amount that does not say what it counts is named by its label: "预算 2.5万", "budget $320"; "5个人" says it)
        return f"{label} {named}" if label and one[0].unit not in ("people", "days") else named
    return dated if dated != label else ""


def _changed_day(item: Noted, lang: str) -> tuple[str, str] | None:
    """A day that moved, said by its days ("departure July 21 (was July 14)"; bench health round fifteen said
    "Noted: Tom just checked and flights are way cheaper if we leave… (was flying out July 14)"); a count
    that stayed ("…, still 7 days" after "7 days") by itself, with nothing it was; None otherwise."""
    if not item.old:
        return None
    leaving = [m.group("value") if (m := first_match("fact.departure", v, (lang,))) is not None
               and m.groupdict().get("value") else None for v in (item.value, item.old)]
    if leaving[0] and leaving[1] and leaving[0] != leaving[1]:  # ("出发日期 6月25号（之前是7月初）": it said nothing)
        return (f"{item.label} {leaving[0]}" if item.label else leaving[0]), leaving[1]
    pattern = cue("time.date", lang)
    # (a weekday said with its day is that day: "9月6号周六", "June 15 (Saturday)")
    days = [days_said(pattern, v) for v in (item.value, item.old)] if pattern is not None else [[], []]
    fresh, gone = [d for d in days[0] if d not in days[1]], [d for d in days[1] if d not in days[0]]
    if len(days[0]) == len(fresh) == 1 and gone:  # (the first day it was: "6月15号" of "6月15号，周六")
        return (f"{item.label} {fresh[0]}" if item.label else fresh[0]), gone[0]
    if not days[0] and not written_in(item.value, lang):
        # a day said in the other language, in this one ("10月17号（之前是10月10号）"; under a Chinese rule it said
        # "记下了：17 next year for the date（之前是10 next year for the date）")
        now, then = ([day_in(d, lang) for d in month_days(v)] for v in (item.value, item.old))
        if len(now) == 1 and then and now[0] not in then:
            return (f"{item.label} {now[0]}" if item.label else now[0]), then[0]
    held, before = dateless_amounts(item.value), dateless_amounts(item.old)
    people = [[a for a in said if a.unit == "people"] for said in (held, before)]
    if len(people[0]) == 1 and len(people[1]) == 1 and people[0][0].value != people[1][0].value:
        # a head count said in a long sentence, by its count ("5个人（之前是3个人）"; it said "好的，记下了。")
        return _counted(item.value, people[0][0], lang), _counted(item.old, people[1][0], lang)
    if len(held) == 1 and [a.value for a in held] == [b.value for b in before]:
        return amount_phrase(item.value, held[0], measure=True), ""
    return None


def _language_said(item: Noted, lang: str) -> str:
    """A reply-language rule said by its language in ``lang`` ("language: English", "语言：中文（之前是英文）"), or ""."""
    def name(rule: str | None) -> str:
        code = rule_language([rule]) if rule else None
        return lexicon_words(f"language_name.{code}", lang)[0] if code else ""
    new, old = name(item.value), name(item.old)
    if not new or not item.label:
        return ""
    was = acknowledge_text(lang)["was"].format(old=old) if old and old != new else ""
    return _named(item.label, new, lang) + was


def _changed_what(item: Noted, lang: str) -> tuple[str, str] | None:
    """A value of a kind the lexicon says what it is of, changed: said by what it is, then and now ("一周4天（之前是一周练
    3天）", not "4天（之前是3天）", a Pilot walk), named by its label; None otherwise."""
    if not item.old or not (new := _what(item.value, lang)) or not (old := _what(item.old, lang)) or new == old:
        return None
    if len(new) > MAX_WHAT:
        # a long one by the part that changed ("about 1.5 hours on weekdays (was about 2 hours on weekdays)", not the
        # whole clipped: "about 1.5 hours on weekdays and 5 hours a…")
        new, old = _part_changed(new, old)
    return (_named(item.label, new, lang) if item.label else new), old


MAX_WHAT = 40  # characters of what a value is, past which a change says the part that changed
_PART_END = re.compile(r"\s+(?:and|but)\s+|[,;，；、]")


def _part_changed(new: str, old: str) -> tuple[str, str]:
    """The parts of two long values that differ, when both split alike ("about 1.5 hours on weekdays" of "about 1.5
    hours on weekdays and 5 hours a day on weekends"); the two whole otherwise."""
    mine, theirs = _PART_END.split(new), _PART_END.split(old)
    differ = [(a, b) for a, b in zip(mine, theirs, strict=False) if a != b]
    return differ[0] if len(mine) == len(theirs) and len(differ) == 1 else (new, old)


def _rule_itself(rule: str, lang: str) -> str:
    """A rule without the words around it ("from now on please give me the conclusion first…" → "the
    conclusion first…"; bench health round fifteen: said whole, it read as the user's message back)."""
    frame, me = cue("rule.frame", lang), cue("address.me", lang)
    opened = re.split(r"(?<=[.!?。！？])\s+", without_lead_in(rule, keep_last=True).strip(_TRIM))[0]
    if frame is not None:
        opened = frame.sub("", opened).strip(_TRIM)
    first, *rest = [c.strip() for c in _CLAUSE_END.split(opened) if c.strip()] or [""]
    # A clause after it that speaks of the user is its reason ("…，太长我不看", "I read everything on my phone").
    kept = [first, *itertools.takewhile(lambda c: me is None or me.search(c) is None, rest)]
    bare = opened if len(kept) == 1 + len(rest) else ("，" if CJK_RUN.search(rule) else ", ").join(kept).strip(_TRIM)
    bare = frame.sub("", bare).strip(_TRIM) if frame is not None else bare  # ("… under 100 words from now on")
    return bare if len(bare) >= 4 else rule


@dataclass(frozen=True)
class Noted:
    """A value the message wrote: the value replaced (None for a new one) and what it is, when the
    program has a name for it ("人数", "budget")."""

    value: str
    old: str | None = None
    label: str | None = None
    rule: bool = False  # a standing rule for the replies
    part: bool = False  # ``value`` is the part of the message that says it (a requirement's clauses): said back
    need: bool = False  # a requirement of the plan (kept to, when saying it would say the message back)
    length: bool = False  # a rule for the replies' length ("以后回答控制在100字以内")


def label_of(subject: str, value: str, names: dict[str, str], lang: str) -> str | None:
    """What the program calls an item when it names it: its subject's label ("budget", "人数"), with the person
    a diet or an allergy is about ("Priya's diet" of "diet:priya" in "…my friend Priya is vegetarian"; a bare
    "diet; allergy" said nothing, run Q)."""
    kind, _, who = subject.partition(":")
    if subject in names:  # a subject labelled whole ("name:called": what the user is called), no one's
        return names[subject]
    label = names.get(kind)
    if label is None or not who:
        return label
    text = acknowledge_text(lang)
    at = value.lower().find(who.lower())
    named = value[at:at + len(who)] if at >= 0 else who
    if not written_in(named, lang):
        return label  # (whose it is, in the other language, is not said: "一个同事's allergy", "人均's budget")
    mine = cue("address.me", lang)
    before = value[:at].rstrip() if at > 0 else ""
    if mine is not None and before and mine.fullmatch(before.split()[-1] if before.isascii() else before[-1]):
        # The user's own people are the user's, said by the program ("你妈妈的饮食", "your mum's diet"): "我妈的饮食"
        # is the user's voice, and "妈的饮食" reads as a curse.
        named = text["yours"].format(who=text["short_kin"].format(who=named) if len(named) == 1 else named)
    whose = text.get("whose_s", text["whose"]) if named.endswith("s") else text["whose"]
    return whose.format(who=named, label=label)


def words_label(subject: str, value: str) -> str | None:
    """The user's own words a fact is filed under, when the value says them ("moving day" of "fact:moving day" in
    "Moving day is set for March 29"; "考试" of "fact:考试"): the program names the item by them ("moving day March
    29"; bench health read a bare "Got it. Noted." to it as no answer). None for a subject of picked keywords."""
    kind, _, words = subject.partition(":")
    if kind != "fact" or not re.search(r"[^\W\d_]", words) or "/" in words or words.lower() not in value.lower():
        return None  # (nor a number: "fact:2" of "得加2桌" said "记下了：2 2 2")
    if CJK_RUN.fullmatch(words) and not re.search(rf"{re.escape(words)}\s*(?:是|为|[:：]|\d)", value):
        return None  # Chinese words of the sentence, not its subject ("报同" of "报同一个营" said "报同 一")
    return words


def acknowledgment(noted: Sequence[Noted], dropped: Sequence[str], lang: str, message: str = "",
                   earlier: Sequence[str] = ()) -> str:
    """One or two sentences saying what memory took in: ``noted`` the values written, ``dropped`` the
    values no longer in force; "" when there is nothing. A new value the ``message`` says word for
    word is not said back (that would be the message again): its name is, or nothing. A rule or a requirement
    kept to is said in other words when one of the ``earlier`` replies said it so already (bench health judged
    the second "之后的方案都会照这个来。" a copy of the first)."""
    text = acknowledge_text(lang)
    said: list[str] = []
    clauses_left = CLAUSE_SHARE * len(marks_aside(message))  # what of the message its unnamed values may say back
    rule_unsaid = need_unsaid = False
    kept_within = ""
    for item in noted:
        if item.rule and item.label and (named := _language_said(item, lang)):
            said.append(named)  # "语言：英文", "language: Chinese (was English)" (they said "语言", or the rule whole)
            continue
        day = _changed_day(item, lang) or _changed_what(item, lang)
        new, old = day or (changed_part(item.value, item.old, lang) if item.old else (item.value, ""))
        if day is not None and old:
            pass  # the day it moved to, named ("出发日期 10月3号（之前是10月1号）")
        elif not old and marks_aside(new) in marks_aside(message):
            # The message's own words: its one amount with what it counts ("12个人", "预算 1500"; run O said
            # "记下了：人数。"), else its name, not the message said back.
            # (a rule's amount is said bare, "100 words": "length 100 words" read as a label, run U)
            named = named_value(new, None if item.rule else item.label, lang) or _dated(item.label, new, lang)
            if named and named == item.label and not written_in(new, lang):
                named = ""  # a label alone names nothing of a value said in the other language ("Noted: allergy.")
            elif named and named == item.label and not item.rule and len(marks_aside(new)) <= clauses_left:
                # nor in this one: a value said in a few words is said by them ("住在苏州", "civil engineer"; a user's
                # walk, round twenty-six, read "记下了：名字：陈琳；年龄 35；所在城市。" and "Noted: does not have")
                clauses_left -= len(marks_aside(new))
                named = new
            if item.rule and item.length and named and written_in(named, lang):
                # a length kept to, said as a promise ("好的，之后我的回答不会超过100字。"; "Noted: 100 words" read
                # as a bare number, blind readers of round twenty-two)
                kept_within = text["length"].format(n=named)
                continue
            if item.rule and not re.search(r"[^\W\d_]", _without_numbers(named.replace(item.label or "", ""))):
                # A rule is kept to, not named by its label or a bare number ("好的，记下了：格式。", "Noted: format 5."
                # to "以后每次推荐都给我列个表格对比…", "From now on, max 5 bullet points per answer.", round twenty-one)
                named = ""
            if item.part and not re.search(r"[^\W\d_]", _without_numbers(named)):
                named = ""  # (a part is said by its words: "想先减到58", not "58")
            if named and not item.label and not re.search(r"[^\W\d_]", _without_numbers(named)):
                # A bare number says nothing ("记下了：考试 8月10号；7；6.5"): left out beside values named, else the
                # clause of a longer message that holds it ("目标总分7分"; all of them said the message back)
                named = "" if len(noted) > 1 or len(marks_aside(new)) >= SAID_BACK * len(marks_aside(message)) else new
            elif not named and item.part and item.need and _most_of_its_sentence(new, message):
                need_unsaid = True  # kept to, not said back ("Noted: the clinic has to be open on saturdays." read as an echo)
            elif not named and item.part and len(marks_aside(new)) < SAID_BACK * len(marks_aside(message)) \
                    and (len(noted) == 1 or len(marks_aside(new)) <= clauses_left):
                # "字一定要大，电池要耐用" of "字一定要大，她老花眼，还有电池要耐用" (it said "好的，记下了。"); beside other
                # values, within the share of the message they may say back (bench health judged one an echo)
                clauses_left -= len(marks_aside(new))
                named = new
            elif not named and len(noted) > 1 and len(marks_aside(new)) <= clauses_left and written_in(new, lang):
                # one value among several that has no name is said by its clause ("你对象的名字：阿杰；一只狗叫豆豆":
                # the dog was left out, and a reader missed it), while all such clauses say at most half the message
                clauses_left -= len(marks_aside(new))
                named = new
            new = named
        elif old and message and len(marks_aside(new)) >= SAID_BACK * len(marks_aside(message)):
            new = old = ""  # (all the message again, however its old value read)
        if new and item.label and not re.search(r"[^\W\d_]", _without_numbers(new)):
            new = f"{item.label} {new}"  # a bare amount is named: "预算 1200（之前是1500）", "预算 1万（之前是1万5）"
        if new:
            # (the user's words in the program's voice: "你奶奶牙口不好", not the user's "我奶奶牙口不好"; a rule is quoted)
            voiced = (lambda value: value) if item.rule else (lambda value: in_your_voice(value, lang))
            before = voiced(_clip(old))
            value = voiced(_clip(new))
            if said and value[:1].isupper() and value.split(" ", 1)[0] in _VOICED_OPENINGS:
                value = value[0].lower() + value[1:]  # ("…: Dan; your cat Biscuit", not "; Your cat")
            said.append(value + (text["was"].format(old=before) if before else ""))
        else:
            rule_unsaid = rule_unsaid or item.rule
    out = []
    said = list(dict.fromkeys(said))
    while len(said) > 1 and _says_back(text["noted"].format(values=text["join"].join(said)), message):
        # "一共25个人，打算去杭州周边，两天一夜" named whole ("记下了：25个人；打算去杭州周边；两天。") is the message again
        # (bench health round twenty-five judged it an echo): the values said first are enough
        said.pop()
    if said:
        out.append(text["noted"].format(values=text["join"].join(said)))
    if dropped:
        # (a rule the model's pass restated is said without its label: "以后都用列表回答我", not "列表: 以后…")
        rules = (_clip(_rule_itself(unlabelled(d, subject_names=True), lang), MAX_RULE) for d in dropped)
        out.append(text["dropped"].format(values=text["join"].join(rules)))
    if kept_within:
        out.append(kept_within)
    if rule_unsaid:
        # A rule in the message's own words is not said back, nor answered by "Noted." alone (bench health,
        # round fifteen: "Got it. Noted." to "from now on please give me the conclusion first…"): it is kept to.
        out.append(_anew(text, "rule", earlier))
    if need_unsaid:
        out.append(_anew(text, "need", earlier))
    if not out and noted:
        out.append(text["plain"])
    # (A clipped value ends in "…": no full stop after it, "then the…." read as a typo in run P.)
    joined = text["sentences"].join(out).replace("…。", "…").replace("….", "…")
    return text["lead"] + joined if out else ""


def _says_back(sentence: str, message: str) -> bool:
    """``sentence`` is mostly ``message`` said back, as the reply's judge reads it (memory.repeats)."""
    repeated = said_before(sentence, messages=[message]) if message else None
    return repeated is not None and repeated.share >= SAID_BEFORE_SHARE


def _anew(text: dict[str, str], key: str, earlier: Sequence[str]) -> str:
    """The sentence ``key`` of the acknowledgment texts, or its other wording (``key_again``) when an earlier reply
    holds it."""
    return next((text[k] for k in (key, f"{key}_again") if not any(text[k] in reply for reply in earlier)), text[key])


NEED_SAID_BACK = 0.6  # a requirement this share of the sentence that says it is the sentence said back


def _most_of_its_sentence(part: str, message: str) -> bool:
    """``part`` is most of the sentence of ``message`` it comes from ("the clinic has to be open on saturdays" of "the
    clinic has to be open on saturdays, i work weekdays"; not "字一定要大，电池要耐用" of "字一定要大，她老花眼，还有
    电池要耐用")."""
    said = marks_aside(part)
    home = next((s for s in split_sentences(message) if marks_aside(s).startswith(said[:4])), message)
    return len(said) >= NEED_SAID_BACK * len(marks_aside(home))


def written_in(text: str, lang: str) -> bool:
    """``text`` is written in ``lang``: Chinese holds Chinese characters, English none (the user's clauses are not said
    under a rule of the other language: "Got it. Noted: 时间的话7月中旬." read as the wrong language)."""
    return bool(CJK_RUN.search(text)) == (lang == "zh")


def _without_numbers(text: str) -> str:
    """``text`` without its numbers as written ("1万" of "1万", "1,200" of "1,200", "一" of "一"): what else it says."""
    for number in written_numbers(text):
        text = text.replace(number, "", 1)
    return "".join(ch for ch in text if ch not in ZH_DIGITS)


def said_anew(said: str, replaced: Sequence[str], lang: str) -> str:
    """The acknowledgment ``said`` when a message is answered again, never word for word a reply the
    regenerate ``replaced``: with an offer after it ("… What would you like me to do with it next?"), or
    without its opening ("Got it. ")."""
    text = acknowledge_text(lang)
    body = said.removeprefix(text["lead"])
    return next((option for option in (said, said + text["offer"], body + text["offer"], body) if option not in replaced),
                said)


def bare_acknowledgments() -> frozenset[str]:
    """The acknowledgments that name nothing ("Got it. Noted.", "好的，记下了。"), in every language."""
    return frozenset(text["lead"] + text["plain"] for text in map(acknowledge_text, LANGS))
