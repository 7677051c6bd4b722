"""The kind a sentence's own words settle (``kind_cue.*``, memory/write/kind_cues.py), the canonical
subjects and their names (``subject.canonical``, memory/lang/text.py) and the pieces of a subject
that say what its number counts (``unit.in_subject``, memory/stated_values.py) live in the lexicon:
each exists in both languages, fires where it should and only there, and the code still reads it."""

from __future__ import annotations

import pytest

from desktop_app import lexicon
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import Amount
from desktop_app.memory.lang.text import CANONICAL_SUBJECTS, SUBJECT_ALIASES, canonical_subject, subjects_named
from desktop_app.memory.stated_values import unit_of_item
from desktop_app.memory.write.kind_cues import AIMS, CHOSE, LIKES, MUSTS, settle_kind
from tests.support.lexicon_cases import cue_table_tests

MIGRATED = ["kind_cue.preference", "kind_cue.goal", "kind_cue.decision", "kind_cue.constraint"]


# Sentence → whether a cue fires, per language.
CUE_CASES = [
    ("kind_cue.preference", "en", "I can't stand cilantro", True),
    ("kind_cue.preference", "en", "the spicier the better", True),
    ("kind_cue.preference", "en", "Likewise, the hotel is full", False),  # a word inside a word is not the word
    ("kind_cue.preference", "zh", "我最爱吃火锅", True),
    ("kind_cue.preference", "zh", "越辣越好", True),
    ("kind_cue.preference", "zh", "预算是5000元", False),
    ("kind_cue.goal", "en", "I'm trying to finish the slides", True),
    ("kind_cue.goal", "en", "The goalkeeper was late", False),
    ("kind_cue.goal", "zh", "想一个人去大理旅行", True),
    ("kind_cue.goal", "zh", "年终奖发下来了", False),
    ("kind_cue.decision", "en", "We went with the blue one", True),
    ("kind_cue.decision", "en", "Postgres it is.", True),
    ("kind_cue.decision", "en", "It is raining", False),  # "it is" ends the sentence only
    ("kind_cue.decision", "zh", "就订那家民宿吧", True),
    ("kind_cue.decision", "zh", "那家民宿很贵", False),
    ("kind_cue.constraint", "en", "Nothing with stairs", True),
    ("kind_cue.constraint", "en", "It has to be vegetarian", True),
    ("kind_cue.constraint", "en", "Hello there, nothing else", False),  # "no …" opens the sentence only
    ("kind_cue.constraint", "zh", "3天内完成", True),
    ("kind_cue.constraint", "zh", "我喜欢海边", False),
]


test_every_migrated_cue_is_in_both_languages, _, test_each_cue_fires_where_it_should_and_only_there = \
    cue_table_tests(MIGRATED, {}, CUE_CASES)  # (no one-language cue here)


@pytest.mark.parametrize("pattern, text, found", [
    (LIKES, "I LOVE jazz", True), (LIKES, "只喝美式", True), (LIKES, "The venue is big", False),
    (AIMS, "We want a quiet place", True), (AIMS, "攒钱买车", True), (AIMS, "Lunch was fine", False),
    (CHOSE, "Booked the 9am train", True), (CHOSE, "拍板了", True), (CHOSE, "A book about trains", False),
    (MUSTS, "At most 3 stops", True), (MUSTS, "不超过5000元", True), (MUSTS, "Lots of stops", False),
])
def test_kind_cues_read_the_lexicon(pattern, text, found):
    assert (pattern.search(text) is not None) is found


def test_the_sentence_settles_the_kind_in_both_languages():
    assert settle_kind("fact", "We went with the blue one") == "decision"
    assert settle_kind("fact", "就订那家民宿吧") == "decision"
    assert settle_kind("goal", "年终奖发下来了") == "fact"


def test_canonical_subjects_have_the_same_keys_in_both_languages():
    tables = [lexicon.lexicon(lang)["subject"]["canonical"] for lang in lexicon.LANGS]
    assert list(tables[0]) == list(tables[1])
    assert tuple(tables[0]) == CANONICAL_SUBJECTS
    assert {"预算", "budget", "spending limit"} <= set(dict(SUBJECT_ALIASES)["budget"])


@pytest.mark.parametrize("text, subject", [
    ("Our budget is 5000", "budget"), ("预算改成8000元", "budget"),
    ("Answer in English", "language"), ("以后都用中文回答", "language"),
    ("I'm a nurse", "occupation"), ("我是一名护士", "occupation"),
    ("The budgets of others", None),  # a single word is matched whole
    ("今天天气不错", None),
])
def test_canonical_subject_reads_both_languages(text, subject):
    assert canonical_subject(text) == subject
    assert subjects_named(text) == ({subject} if subject else set())


@pytest.mark.parametrize("subject, unit", [
    ("travel budget", "money"), ("餐费", "money"), ("head count", "people"), ("总人数", "people"), ("venue", None),
])
def test_a_subject_says_what_its_number_counts(subject, unit):
    item = MemoryItem(id=1, session_id=1, kind="fact", subject=subject, value="50", status="active", origin="rule",
                      state_version=1, created_at=0.0, updated_at=0.0)
    assert unit_of_item(item, Amount(value=50.0, start=0, end=2, unit=None)) == unit
