"""Deleting a turn removes every recall row; disagreeing hits are labelled newest first."""

from __future__ import annotations

from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.recall import index_pending, search
from desktop_app.memory.recall.fusion import label_conflicts
from tests.recall.conftest import add_turns


def _counts(store, message_id: int) -> dict[str, int]:
    conn = store.conn
    return {
        "fts": conn.execute("SELECT count(*) FROM messages_fts WHERE rowid = ?", (message_id,)).fetchone()[0],
        "words": conn.execute("SELECT count(*) FROM messages_words WHERE messages_words MATCH 'zeppelin'"
                              ).fetchone()[0],
        "vec": conn.execute("SELECT count(*) FROM recall_vec WHERE message_id = ?", (message_id,)).fetchone()[0],
        "bits": conn.execute("SELECT count(*) FROM recall_vec_bits WHERE message_id = ?", (message_id,)).fetchone()[0],
        "half": conn.execute("SELECT count(*) FROM recall_embedded WHERE message_id = ?", (message_id,)).fetchone()[0],
        "bookmarks": conn.execute("SELECT count(*) FROM bookmarks WHERE message_id = ?", (message_id,)).fetchone()[0],
        "bookmark_fts": conn.execute("SELECT count(*) FROM bookmarks_fts WHERE bookmarks_fts MATCH 'zeppelin'"
                                     ).fetchone()[0],
    }


def test_deleting_a_turn_removes_its_fts_vector_and_bookmark_rows(store, hashing_embedder):
    session = store.session_named("del")
    keep, doomed = add_turns(store, session.id, ["an ordinary turn", "we flew a zeppelin over the lake"])
    store.add_bookmark(session.id, keywords=["zeppelin", "lake"], description="zeppelin ride", origin="user",
                       now=1.0, message_id=doomed.id)
    assert index_pending(store, hashing_embedder) == 2
    assert _counts(store, doomed.id) == {"fts": 1, "words": 1, "vec": 1, "bits": 1, "half": 1, "bookmarks": 1,
                                         "bookmark_fts": 1}
    assert search(store, session.id, "zeppelin", k=3, embedder=hashing_embedder)

    store.delete_message(doomed.id)

    assert _counts(store, doomed.id) == {"fts": 0, "words": 0, "vec": 0, "bits": 0, "half": 0, "bookmarks": 0,
                                         "bookmark_fts": 0}
    assert search(store, session.id, "zeppelin", k=3, embedder=hashing_embedder) == []
    assert _counts(store, keep.id)["vec"] == 1


def test_deleting_a_session_removes_its_vectors(store, hashing_embedder):
    session = store.session_named("gone")
    add_turns(store, session.id, ["one turn", "another turn"])
    index_pending(store, hashing_embedder)
    store.delete_session(session.id)
    assert store.conn.execute("SELECT count(*) FROM recall_vec").fetchone()[0] == 0
    assert store.conn.execute("SELECT count(*) FROM recall_embedded").fetchone()[0] == 0


def test_conflicting_hits_put_the_newest_first(store):
    session = store.session_named("budget")
    add_turns(store, session.id, ["The budget is 5000 dollars for the trip", "ok noted",
                                  "Let's book the hotel near the station", "sure",
                                  "Update: the budget is now 8000 dollars for the trip", "got it"],
              step=3600)
    hits = search(store, session.id, "what is the budget for the trip", k=3)
    budget_hits = [h for h in hits if "budget" in h.snippet]
    assert [h.snippet for h in budget_hits][0].startswith("Update: the budget is now 8000")
    older = budget_hits[1]
    assert older.superseded_by == budget_hits[0].turn
    assert f"turn {budget_hits[0].turn} says otherwise" in older.label
    assert "(newest)" in budget_hits[0].label


def _hit(turn: int, text: str, score: float) -> RecallHit:
    return RecallHit(message_id=turn, session_id=1, role="user", turn=turn, created_at=1_700_000_000 + turn,
                     snippet=text, fused=score, score=score)


def test_label_conflicts_keeps_agreeing_hits_in_score_order():
    hits = [_hit(2, "预算不超过5000元", 0.9), _hit(9, "我喜欢绿茶", 0.8), _hit(7, "预算改成8000元", 0.5)]
    labelled = label_conflicts(hits)
    assert [h.turn for h in labelled] == [7, 9, 2]  # the newer budget takes the best slot
    assert labelled[2].superseded_by == 7
    assert labelled[1].superseded_by is None
    assert labelled[1].label.startswith("turn 9, ")
