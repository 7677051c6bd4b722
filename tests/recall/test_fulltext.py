"""Full-text recall without a model: CJK substrings of any length, English BM25, fallbacks."""

from __future__ import annotations

import pytest

from desktop_app.memory.recall import search
from tests.recall.conftest import add_turns

CHINESE = ["我们把预算定在五千元以内", "明天去北京开会，记得带上合同", "这份报告请用中文写",
           "猫咪今天很乖", "下周三交付最终版本"]


@pytest.fixture
def chinese_session(store):
    session = store.session_named("zh")
    return session, add_turns(store, session.id, CHINESE)


@pytest.mark.parametrize("query, expected", [
    ("猫", "猫咪今天很乖"),            # 1 character: substring scan
    ("北京", "明天去北京开会，记得带上合同"),  # 2 characters: substring scan
    ("去北京开会", "明天去北京开会，记得带上合同"),  # 3+: trigram index
    ("交付最终版", "下周三交付最终版本"),
])
def test_chinese_substrings_of_every_length_match(store, chinese_session, query, expected):
    session, _ = chinese_session
    hits = search(store, session.id, query, k=3)
    assert hits, query
    assert hits[0].snippet == expected


def test_chinese_question_finds_turn_through_two_character_words(store, chinese_session):
    session, _ = chinese_session
    hits = search(store, session.id, "我们的预算是多少？", k=3)
    assert hits
    assert hits[0].snippet == "我们把预算定在五千元以内"


def test_english_bm25_ranks_rare_words_first(store):
    session = store.session_named("en")
    add_turns(store, session.id, ["I like tea in the morning", "The quarterly invoice is overdue",
                                  "Tea with the team went well", "Let's plan the hiking trip"])
    hits = search(store, session.id, "what about the overdue invoice?", k=2)
    assert hits[0].snippet == "The quarterly invoice is overdue"
    assert hits[0].signals["bm25"].rank == 1


def test_search_stays_inside_the_session(store):
    first, second = store.session_named("a"), store.session_named("b")
    add_turns(store, first.id, ["the secret word is marmalade"])
    add_turns(store, second.id, ["nothing to see here"])
    assert search(store, second.id, "marmalade", k=5) == []
    assert [h.session_id for h in search(store, first.id, "marmalade", k=5)] == [first.id]


def test_hits_carry_ids_turns_and_labels(store):
    session = store.session_named("ids")
    store.add_message(session.id, "user", "deploy the staging cluster", created_at=1_700_000_000, ext_id="D1:1")
    store.add_message(session.id, "assistant", "staging cluster deployed", created_at=1_700_000_060, ext_id="D1:2")
    hit = search(store, session.id, "staging cluster deploy", k=1)[0]
    assert hit.ext_id in ("D1:1", "D1:2")
    assert hit.turn == 1
    assert hit.label.startswith("turn 1, 2023-11-14")
    assert hit.fused > 0
    assert hit.score > 0


def test_empty_and_punctuation_only_queries_return_nothing(store, chinese_session):
    session, _ = chinese_session
    assert search(store, session.id, "", k=3) == []
    assert search(store, session.id, "？！", k=3) == []


def test_the_short_term_scan_reads_only_the_newest_turns_of_a_long_session(store):
    """1-2 character terms are found by a scan; on a very long session it covers the newest
    ``window`` turns only (older ones stay reachable through trigrams, words and bookmarks)."""
    session = store.session_named("long")
    ids = add_turns(store, session.id, ["猫在睡觉", "今天下雨", "明天晴天", "猫又醒了", "去散步"])
    found = store.substring_messages_each(session.id, ["猫", "雨"], limit=10)
    assert [mid for mid, _ in found["猫"]] == [ids[3].id, ids[0].id]
    assert len(found["雨"]) == 1
    recent = store.substring_messages_each(session.id, ["猫", "雨"], limit=10, window=3)
    assert [mid for mid, _ in recent["猫"]] == [ids[3].id]
    assert recent["雨"] == []
