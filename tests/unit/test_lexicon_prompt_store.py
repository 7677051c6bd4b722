"""The last language words of the memory core live in the lexicon: the question about the state
(``question.state``, memory/prompt/assembly.py), the words that name a rule (``rule.reference``,
memory/write/updates.py) and a vague attribution in a summary (``summary.vague``,
memory/background/archive_jobs.py), the copula in any tense (``fact.copula_broad``,
memory/store/forget.py) and the units written after a number (``unit.suffix``,
memory/write/integrity.py; ``unit.counter``, memory/lang/amounts.py), and the words that carry
grammar, not topic (``term.stopword``, memory/lang/text.py). Each cue exists in both
languages (or says why not), fires where it should and only there, and the code still reads it."""

from __future__ import annotations

import pytest

from desktop_app.memory.background.archive_jobs import VAGUE, summary_problems
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import amounts
from desktop_app.memory.lang.text import EN_STOPWORDS, ZH_STOPCHARS, cjk_bigrams, terms
from desktop_app.memory.prompt.assembly import STATE_QUESTION
from desktop_app.memory.store.forget import _COPULA, item_needles
from desktop_app.memory.write.integrity import _UNIT
from desktop_app.memory.write.updates import RULE_REFERENCE
from tests.support.lexicon_cases import cue_table_tests

MIGRATED = ["question.state", "rule.reference", "summary.vague", "fact.copula_broad", "term.stopword"]
# Cues that only one language has: the other's entry is there and empty (said so in the lexicon).
ONE_LANGUAGE = {"unit.suffix": "zh", "unit.counter": "zh"}


# Sentence → whether a cue fires, per language.
CUE_CASES = [
    ("question.state", "en", "Summarise all my constraints", True),
    ("question.state", "en", "What do you remember about me?", True),
    ("question.state", "en", "Remind me what we agreed", True),
    ("question.state", "en", "The planet is round", False),  # "the plan" inside a word is no plan
    ("question.state", "en", "We ruled it out", False),
    ("question.state", "zh", "总结一下我的要求", True),
    ("question.state", "zh", "你还记得我喜欢什么吗", True),
    ("question.state", "zh", "今天天气不错", False),
    ("rule.reference", "en", "Drop the rule about emoji", True),
    ("rule.reference", "en", "Forget that instruction", True),
    ("rule.reference", "en", "Drop the rules about emoji", False),  # the word itself only, as written
    ("rule.reference", "zh", "那条规则不要了", True),
    ("rule.reference", "zh", "不要再用英文了", False),
    ("rule.reference", "en", "never mind the metric thing", True),
    ("rule.reference", "en", "one thing I forgot", False),
    ("rule.reference", "zh", "公里那个算了", True),
    ("rule.reference", "zh", "那个不行", False),
    ("summary.vague", "en", "The user mentioned a budget", True),
    ("summary.vague", "en", "User said they like tea", True),
    ("summary.vague", "en", "The budget is 5000", False),
    ("summary.vague", "en", "The users said nothing", False),
    ("summary.vague", "zh", "用户表示预算有限", True),
    ("summary.vague", "zh", "对方说要改日期", True),
    ("summary.vague", "zh", "预算是5000元", False),
    ("fact.copula_broad", "en", "my code was QZ77", True),
    ("fact.copula_broad", "en", "the island is far", True),
    ("fact.copula_broad", "en", "This island", False),  # the spaces around it are part of it
    ("fact.copula_broad", "en", "my code IS QZ77", False),  # lower case only, as written
    ("fact.copula_broad", "zh", "他叫做张三", True),
    ("fact.copula_broad", "zh", "密码改了", False),
    ("unit.suffix", "zh", "预算8000元", True),
    ("unit.suffix", "zh", "3万", True),
    ("unit.suffix", "zh", "今天下雨", True),  # a unit anywhere; the code wants it right after a number
    ("unit.suffix", "zh", "预算改了", False),
    ("unit.counter", "zh", "三个", True),
    ("unit.counter", "zh", "三万", False),
    ("term.stopword", "en", "don't", True),
    ("term.stopword", "en", "budget", False),
    ("term.stopword", "zh", "的", True),
    ("term.stopword", "zh", "预算", False),
]


test_every_migrated_cue_is_in_both_languages, test_a_one_language_cue_is_empty_in_the_other, \
    test_each_cue_fires_where_it_should_and_only_there = cue_table_tests(MIGRATED, ONE_LANGUAGE, CUE_CASES)


# The code's compiled patterns read the lexicon: a pattern, a text, whether it matches (searches).
PATTERN_CASES = [
    (STATE_QUESTION, "what's the final plan?", True),
    (STATE_QUESTION, "梳理一下", True),
    (STATE_QUESTION, "book the hotel", False),
    (RULE_REFERENCE, "the RULE about bullets", True),
    (RULE_REFERENCE, "这条不要了", True),
    (RULE_REFERENCE, "stop the emoji", False),
    (VAGUE, "THE USER STATED the date", True),
    (VAGUE, "用户提到预算", True),
    (VAGUE, "The budget is 5000", False),
]


@pytest.mark.parametrize("pattern, text, found", PATTERN_CASES)
def test_code_patterns_read_the_lexicon(pattern, text, found):
    assert (pattern.search(text) is not None) is found


def test_a_vague_summary_is_a_problem_in_both_languages():
    assert summary_problems({"facts": ["The user mentioned a trip to Rome"]}, [], []) == ["vague attribution"]
    assert summary_problems({"facts": ["用户表示要去罗马"]}, [], []) == ["vague attribution"]
    assert summary_problems({"facts": ["A trip to Rome in May"]}, [], []) == []


def test_forget_splits_at_the_copula_in_both_languages():
    assert _COPULA.split("my code was QZ77") == ["my code", "QZ77"]
    assert _COPULA.split("他叫做张三") == ["他", "张三"]  # the longer word first
    assert _COPULA.split("x = 5") == ["x", "5"]
    assert _COPULA.split("my code IS QZ77") == ["my code IS QZ77"]

    def item(value: str) -> MemoryItem:
        return MemoryItem(id=1, session_id=1, kind="fact", subject="x", value=value, status="active", origin="rule",
                          state_version=1, created_at=0.0, updated_at=0.0)
    assert "QZ77" in item_needles(item("my locker code is QZ77"))
    assert "紫檀七号" in item_needles(item("密码是紫檀七号"))


def test_units_after_a_number_read_the_lexicon():
    assert [m.group(2) for m in _UNIT.finditer("预算8000元，30人，3 days")] == ["元", "人", "days"]
    assert [m.group(2) for m in _UNIT.finditer("8000；3.5")] == []
    assert [(a.value, a.unit) for a in amounts("我们三个人")] == [(3.0, "people")]
    assert amounts("三万") != [] and amounts("三") == []


def test_stopwords_read_the_lexicon_in_both_languages():
    assert {"the", "don't", "know"} <= EN_STOPWORDS and "budget" not in EN_STOPWORDS
    assert {"的", "可", "以"} <= ZH_STOPCHARS and all(len(ch) == 1 for ch in ZH_STOPCHARS)
    assert terms("The budget is 5000") == ["budget", "5000"]
    assert cjk_bigrams("预算的上限") == ["预算", "上限"]  # "算的", "的上" hold a stop character
