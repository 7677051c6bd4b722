"""Hybrid search beats each single signal on a small fixed set (real MiniLM vectors)."""

from __future__ import annotations

import pytest

from desktop_app.memory.recall import index_pending, search
from tests.recall.conftest import add_turns

TURNS = [
    "Invoice INV-5520 from Brightwater is still unpaid.",                      # 0 the code tells it apart
    "Invoice INV-5502 from Halvorsen was paid on Monday.",                     # 1
    "Invoice INV-2550 from Okafor was cancelled.",                             # 2
    "Invoice INV-5250 from Lindqvist was paid in cash.",                       # 3
    "I adopted a puppy last weekend, so mornings are chaotic.",                # 4 no word shared with its question
    "Peanuts make my throat swell up, so I avoid satay.",                      # 5 no word shared with its question
    "Here is what we settled on in the call with the supplier.",               # 6 bookmarked: "pricing, discount"
    "The pricing page of the website needs a new design.",                     # 7
    "Shoes are on discount this week at the mall.",                            # 8
    "Mrs Okonkwo sent the signed lease this morning.",                         # 9 a rare name
    "The courier sent the documents to the wrong address.",                    # 10
    "My sister's wedding is in Lisbon on the 14th.",                           # 11
    "The quarterly report draft is due next Friday.",                          # 12
    "I keep forgetting to water the basil on the balcony.",                    # 13
]
BOOKMARKED = 6
# (query, index of the turn that answers it)
QUESTIONS = [
    ("is INV-5520 paid yet?", 0),                        # full text
    ("what did Okonkwo send?", 9),                       # full text
    ("did I get a dog?", 4),                             # vectors
    ("am I allergic to any food?", 5),                   # vectors
    ("what pricing discount did we get?", BOOKMARKED),   # the user's bookmark
    ("where is my sister getting married?", 11),         # everyone
    ("when is the quarterly report due?", 12),           # everyone
]


@pytest.fixture
def planned_week(store, minilm):
    session = store.session_named("week")
    messages = add_turns(store, session.id, TURNS)
    store.add_bookmark(session.id, keywords=["pricing", "discount"], description="supplier pricing discount",
                       origin="user", now=1.0, message_id=messages[BOOKMARKED].id)
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

    def top(query, signals):
        hits = search(store, session.id, query, k=1, embedder=minilm, signals=signals)
        return hits[0].message_id if hits else None

    assert top("what did Okonkwo send?", ("bm25",)) == messages[9].id
    assert top("did I get a dog?", ("vector",)) == messages[4].id
    assert top("what pricing discount did we get?", ("bookmark",)) == messages[BOOKMARKED].id
    assert top("did I get a dog?", ("bm25",)) is None  # no shared word
