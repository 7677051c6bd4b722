"""What the program says to "what did I say …?" when the model's reply does not say it.

Asked "What budget did I give you?", the 0.5B answered "10 now." (bench health run N: the head
count); asked "我刚才说谁过敏来着？对什么过敏？", it said "我怕记混了。". Memory holds the answer. The
items such a question asks about are found by what it names — a subject ("budget", "预算"), what a
count counts ("how many guests"), its words ("出发", "exam") — and said in a sentence ("What I have
noted: Budget for food and drinks is around $250."), in place of a reply that was no answer, or after
one that names none of them. Pure: the caller hands over the items and writes what comes back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import LANGS, cue, fires, subject_labels
from desktop_app.memory.acknowledgment import label_of, named_value, written_in
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import amounts, item_counts
from desktop_app.memory.lang.text import canonical_subject, clip, marks_aside, term_set, unlabelled
from desktop_app.memory.lang.voice import in_your_voice
from desktop_app.memory.prompt.render import in_language
from desktop_app.memory.recap import mentioned
from desktop_app.memory.write.typed_values import WHEN, says_when
from desktop_app.prompts import recollect_text

RECALL_KINDS = ("fact", "constraint", "decision", "preference")
MAX_RECALLED = 3  # items said in one answer
MAX_VALUE = 80  # characters of one value said
MAX_LABEL = 30  # characters: a label before ": " is no longer
_UNITS = ("money", "people", "days")
_MEASURES = ("weight",)  # what a question may ask of by name and a value say by its unit ("weight" of "1.5 kg")


def _asked(question: str) -> str:
    """The question without the words that ask what was said ("What … did I give you?", "来着")."""
    for lang in LANGS:
        pattern = cue("recall.asks_said", lang)
        if pattern is not None:
            question = pattern.sub(" ", question)
    return question


def asked_about(question: str, active: Sequence[MemoryItem]) -> list[MemoryItem]:
    """The items ``question`` asks about: those of the subject it names, counting what it asks
    the count of, sharing its words — the best scored, at most ``MAX_RECALLED``; none when no item
    shares anything with it."""
    asked = _asked(question)
    # "我叫什么名字？同事叫什么？": the names (the user's, the coworker's, what the user is called)
    asks_names = fires("recall.asks_name", question)
    subject = "name" if asks_names else canonical_subject(asked)
    units = {u for u in _UNITS if fires(f"unit.{u}", asked)}
    if re.search(r"\bhow many\b|几个人|多少人|几位", asked, re.IGNORECASE):
        units.add("people")
    words = term_set(asked)
    # ("what time window did I say?": "10am to 2pm", which shares no word with it)
    when, clock = fires("recall.asks_when", asked), fires("recall.asks_clock", asked)
    measures = [m for m in _MEASURES if fires(f"recall.asks_{m}", asked)]
    if measures and not asks_names:
        subject = None  # ("重量上限" asks a weight, not the budget its "上限" names)
    scored = []
    for item in (i for i in active if i.kind in RECALL_KINDS):
        named = subject is not None and (item.subject == subject or item.subject.startswith(f"{subject}:"))
        shared = words & (term_set(item.value) | term_set(item.subject))
        score = 3 * named + 2 * bool(units & item_counts(item.value, item.subject)) + len(shared) \
            + 2 * (when and says_when(item.value)) + (clock and WHEN["clock"].search(item.value) is not None) \
            + 2 * any(fires(f"measure.{m}", item.value) for m in measures)
        if score:
            scored.append((score, item))
    if not scored:
        return []
    if asks_names:  # every name asked: "我叫什么？同事叫什么？"
        return [item for score, item in scored if score >= 3][:MAX_RECALLED]
    best = max(score for score, _ in scored)
    return [item for score, item in scored if score == best][:MAX_RECALLED]


def unanswered(reply: str, asked: Sequence[MemoryItem]) -> bool:
    """``reply`` names none of the ``asked`` items' values (their numbers or most of their words)."""
    said = amounts(reply)
    return bool(asked) and not any(mentioned(item, reply, said) for item in asked)


def _said(value: str) -> str:
    """A value without any short label before it ("虾过敏: 虾一定不能有" → "虾一定不能有"): what the user said."""
    label, colon, rest = value.partition(": ")
    return rest if colon and len(label) <= MAX_LABEL and rest.strip() else value


def recollection(asked: Sequence[MemoryItem], before: dict[int, str], lang: str) -> str:
    """The sentence saying ``asked`` ("What I have noted: budget is 1200 (was 1500)."), each with the
    value it replaced when ``before`` has it (by item id); "" when nothing is asked."""
    text = recollect_text(lang)
    values = []
    bare = [marks_aside(_said(i.value)) for i in asked]
    for n, item in enumerate(asked):
        if any(bare[n] in other for m, other in enumerate(bare) if m != n and other != bare[n]):
            continue  # a piece of another value said (run U: "虾一定不能有" beside "…对虾过敏，很严重那种，虾一定不能有")
        old = before.get(item.id)
        if old is not None and (marks_aside(_said(old)) in bare[n]
                                or [a.value for a in amounts(old)] == [a.value for a in amounts(item.value)] != []):
            # said again at more length, or with the same amount, is no change ("（之前是你表妹小雨对虾过敏）", "budget: $250
            # (was Budget for food and drinks is around $250)", run U)
            old = None
        # (what the user told in the program's voice, "you're vegetarian"; a label in the reply's language, "预算：1200")
        if old is not None and old.partition(": ")[0] == item.value.partition(": ")[0]:
            old = _said(old)  # under the same label, the old value alone ("预算：1200（之前是1500）")
        # said in the other language, named in this one ("160个人（之前是120个人）")
        if (said := _named_in(item, item.value, lang)) and (old is None or (then := _named_in(item, old, lang))):
            values.append(said + (text["was"].format(old=then) if old is not None else ""))
            continue
        was = text["was"].format(old=in_your_voice(clip(in_language(unlabelled(old), lang), MAX_VALUE), lang)) if old else ""
        values.append(in_your_voice(clip(in_language(unlabelled(item.value), lang), MAX_VALUE), lang) + was)
    return text["noted"].format(values=text["join"].join(values)) if values else ""


def _named_in(item: MemoryItem, value: str, lang: str) -> str:
    """A value the user said in the other language, named in ``lang`` by what it holds ("160个人" of "We're thinking 160
    guests" under a Chinese rule; it said "我记下的是：We're thinking 160 guests"); "" for a value in ``lang``, or one
    with nothing to name it by."""
    words = unlabelled(value)
    if written_in(words, lang):
        return ""
    if lang == "zh" and not re.search(r"[A-Za-z]{2,}", words):
        return ""  # (a bare amount is no language: "budget: 1200" is "预算：1200")
    return named_value(value, label_of(item.subject, value, subject_labels(lang), lang), lang)
