"""Query analysis: stopwords, CJK pieces, dates, "when" questions and page-fault words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from desktop_app.memory.recall.query import is_page_fault, mentions_time, plan_query, query_dates


def _day(y, m, d):
    return datetime(y, m, d, tzinfo=UTC).timestamp()


def test_english_question_keeps_content_words_only():
    plan = plan_query("What did Caroline's sister research about adoption agencies?")
    assert plan.words == ["caroline", "sister", "research", "adoption", "agencies"]
    assert plan.words_match == '"caroline" OR "sister" OR "research" OR "adoption" OR "agencies"'
    assert plan.trigrams == []
    assert plan.substring is None


def test_fts_operators_in_queries_are_quoted_not_interpreted():
    plan = plan_query('NEAR(budget) AND "5000" OR -x*')
    assert all(piece.startswith('"') for piece in plan.words_match.split(" OR "))


def test_chinese_runs_become_trigrams_and_content_bigrams():
    plan = plan_query("我们上次讨论的预算")
    assert "讨论的" in plan.trigrams
    assert "的预算" in plan.trigrams
    assert "预算" in plan.short_terms
    assert "讨论" in plan.short_terms
    assert "的预" not in plan.short_terms  # grammar characters do not make a word


@pytest.mark.parametrize("text", ["猫", "北京", " 猫 "])
def test_queries_under_three_characters_fall_back_to_substring(text):
    plan = plan_query(text)
    assert plan.substring == text.strip()
    assert plan.words_match is None
    assert plan.trigram_match is None


@pytest.mark.parametrize("text, start, end", [
    ("How was John feeling on April 10, 2022?", _day(2022, 4, 10), _day(2022, 4, 11)),
    ("What happened on 7 May 2023?", _day(2023, 5, 7), _day(2023, 5, 8)),
    ("Which city was Calvin visiting in August 2023?", _day(2023, 8, 1), _day(2023, 9, 1)),
    ("What did we plan in 2022?", _day(2022, 1, 1), _day(2023, 1, 1)),
    ("我在2023年5月2日去了哪里？", _day(2023, 5, 2), _day(2023, 5, 3)),
    ("meeting on 2024-02-29", _day(2024, 2, 29), _day(2024, 3, 1)),
])
def test_dates_named_in_questions(text, start, end):
    assert query_dates(text) == [(start, end)]


def test_impossible_dates_are_ignored():
    assert query_dates("on February 30, 2023") == []


@pytest.mark.parametrize("text, asks", [("When did Melanie paint a sunrise?", True),
                                        ("我们什么时候去北京？", True),
                                        ("What did Melanie paint?", False)])
def test_when_questions(text, asks):
    assert plan_query(text).asks_when is asks


def test_turns_that_place_things_in_time():
    assert mentions_time("I went to the support group yesterday")
    assert mentions_time("我上周去了博物馆")
    assert not mentions_time("I like painting sunsets")


@pytest.mark.parametrize("text", ["刚才说的那个文件呢", "之前定的预算是多少", "上次你推荐的书", "What did you say earlier?",
                                  "Open that file again", "you said the budget was 5000", "As we discussed, go on"])
def test_page_fault_words_trigger_recall(text):
    assert is_page_fault(text)


@pytest.mark.parametrize("text", ["写一首关于春天的诗", "What is the capital of France?", "Translate this to German"])
def test_ordinary_input_is_no_page_fault(text):
    assert not is_page_fault(text)
