"""Two processes embedding the same pending turns (two imports into different sessions) never
crash each other: a turn embedded meanwhile is skipped, not inserted twice."""

from __future__ import annotations

import pytest

from tests.support.embedders import HashingEmbedder


def test_vectors_saved_twice_for_the_same_turns_are_stored_once(db_path):
    from desktop_app.memory.recall.indexing import prepare_vectors
    from desktop_app.memory.store import Store

    embedder = HashingEmbedder()
    with Store(db_path) as first, Store(db_path) as second:
        if not first.vec_enabled:
            pytest.skip("sqlite-vec is not loadable here")
        session = first.session_named("a")
        ids = [first.add_message(session.id, "user", f"turn {i} about lighthouses").id for i in range(3)]
        prepare_vectors(first, embedder)
        # Both processes read the same pending turns before either stored its vectors.
        pending_first = first.pending_embeddings(limit=10)
        pending_second = second.pending_embeddings(limit=10)
        assert [r["id"] for r in pending_first] == [r["id"] for r in pending_second] == ids

        def rows(pending):
            vectors = embedder.embed([r["content"] for r in pending])
            return [(r["id"], r["session_id"], vectors[i].tobytes()) for i, r in enumerate(pending)]

        assert first.save_embeddings(rows(pending_first)) == 3
        assert second.save_embeddings(rows(pending_second)) == 0
        assert first.count_pending_embeddings() == 0
        count = first.conn.execute("SELECT count(*) FROM recall_embedded").fetchone()[0]
        assert count == 3
