"""Hybrid search beats each single signal on a small fixed set (real MiniLM vectors)."""

from __future__ import annotations

import pytest

from desktop_app.memory.recall import index_pending, search
from tests.recall.conftest import add_turns

TURNS = [
    "Good morning! Ready to plan the week?",                                   # 0
    "Yes. First, the invoice INV-3391 from Halvorsen is still unpaid.",         # 1 lexical code
    "I'll chase it today.",                                                    # 2
    "Also, I adopted a puppy last weekend, so mornings are chaotic.",          # 3 semantic target
    "Congratulations! Puppies need lots of walks.",                            # 4
    "Here is the final layout for the living room with the sofa by the window.",  # 5 bookmarked
    "Looks cosy.",                                                             # 6
    "My sister's wedding is in Lisbon on the 14th.",                           # 7
    "Lisbon is lovely in spring.",                                             # 8
    "The car needs new tyres before the road trip.",                           # 9
    "Book the garage for Thursday then.",                                      # 10
    "I keep forgetting to water the basil on the balcony.",                    # 11
    "Set a reminder for the basil every evening.",                             # 12
    "The quarterly report draft is due next Friday.",                          # 13
]
# (query, index of the turn that answers it)
QUESTIONS = [
    ("was INV-3391 settled?", 1),                      # a code: only full text knows it
    ("did I get a new dog recently?", 3),             # no shared word: only vectors
    ("show me the apartment floorplan", 5),            # only the user's bookmark names it
    ("where is my sister getting married?", 7),
    ("when is the quarterly report due?", 13),
    ("which herb on the balcony needs watering?", 11),
]


@pytest.fixture
def planned_week(store, minilm):
    session = store.session_named("week")
    messages = add_turns(store, session.id, TURNS)
    store.add_bookmark(session.id, keywords=["apartment", "floorplan"], description="apartment floorplan",
                       origin="user", now=1.0, message_id=messages[5].id)
    index_pending(store, minilm)
    return session, messages


def _found_at_1(store, session, messages, embedder, signals) -> int:
    found = 0
    for query, target in QUESTIONS:
        hits = search(store, session.id, query, k=1, embedder=embedder, signals=signals)
        found += bool(hits) and hits[0].message_id == messages[target].id
    return found


@pytest.mark.model
def test_hybrid_beats_every_single_signal(store, minilm, planned_week):
    session, messages = planned_week
    hybrid = _found_at_1(store, session, messages, minilm, ("bm25", "vector", "bookmark"))
    singles = {name: _found_at_1(store, session, messages, minilm, (name,)) for name in ("bm25", "vector", "bookmark")}
    assert hybrid == len(QUESTIONS)
    assert all(hybrid > count for count in singles.values()), singles


@pytest.mark.model
def test_each_signal_finds_what_only_it_can(store, minilm, planned_week):
    session, messages = planned_week
    code = search(store, session.id, "was INV-3391 settled?", k=1, embedder=minilm, signals=("bm25",))
    dog = search(store, session.id, "did I get a new dog recently?", k=1, embedder=minilm, signals=("vector",))
    plan = search(store, session.id, "show me the apartment floorplan", k=1, embedder=minilm, signals=("bookmark",))
    assert code[0].message_id == messages[1].id
    assert dog[0].message_id == messages[3].id
    assert plan[0].message_id == messages[5].id
    assert search(store, session.id, "did I get a new dog recently?", k=3, signals=("bm25",)) == []
