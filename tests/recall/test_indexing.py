"""The embedding queue: pending turns, batches, model changes and re-indexing."""

from __future__ import annotations

from desktop_app.memory.recall import index_pending, reindex, search, vectors_stale
from desktop_app.memory.recall.search import vectors_usable
from tests.recall.conftest import add_turns
from tests.support.embedders import HashingEmbedder


def test_index_pending_embeds_each_turn_once_in_batches(store, hashing_embedder):
    session = store.session_named("q")
    add_turns(store, session.id, [f"turn number {i} about topic {i % 3}" for i in range(10)])
    store.add_message(session.id, "system", "system prompts are not recalled")
    assert store.count_pending_embeddings() == 10
    assert index_pending(store, hashing_embedder, batch=4) == 10
    assert hashing_embedder.calls == 3
    assert store.count_pending_embeddings() == 0
    assert index_pending(store, hashing_embedder) == 0
    add_turns(store, session.id, ["one more turn"])
    assert index_pending(store, hashing_embedder) == 1


def test_index_pending_stops_between_batches(store, hashing_embedder):
    session = store.session_named("stop")
    add_turns(store, session.id, [f"turn {i}" for i in range(9)])
    assert index_pending(store, hashing_embedder, batch=3, max_batches=1) == 3
    calls = iter([False, True])
    assert index_pending(store, hashing_embedder, batch=3, should_stop=lambda: next(calls)) == 3
    assert store.count_pending_embeddings() == 3


def test_another_model_makes_vectors_stale_until_reindexed(store):
    session = store.session_named("models")
    add_turns(store, session.id, ["the red kite flew high", "we ate noodles"])
    first, second = HashingEmbedder("model-a"), HashingEmbedder("model-b")
    index_pending(store, first)
    assert vectors_usable(store, first)
    assert not vectors_stale(store, first)
    assert vectors_stale(store, second)
    assert not vectors_usable(store, second)
    # Searching with the other model quietly leaves vectors out instead of mixing spaces.
    hits = search(store, session.id, "kite", k=2, embedder=second)
    assert hits
    assert "vector" not in hits[0].signals
    assert reindex(store, second) == 2
    assert store.recall_meta()["embed_model"] == "model-b"
    assert vectors_usable(store, second)
    assert "vector" in search(store, session.id, "red kite", k=1, embedder=second)[0].signals


def test_index_pending_rebuilds_tables_for_a_new_dimension(store):
    session = store.session_named("dims")
    add_turns(store, session.id, ["alpha", "beta"])
    index_pending(store, HashingEmbedder("small"))

    class Wider(HashingEmbedder):
        dim = 128

    assert index_pending(store, Wider("wide")) == 2
    assert store.recall_meta()["dim"] == "128"


def test_vectors_from_before_the_float16_copy_are_queued_again(db_path, hashing_embedder):
    from desktop_app.memory.store import Store
    from desktop_app.memory.store.db import connect
    from desktop_app.memory.store.migrations import MIGRATIONS, m005_recall_rescoring, migrate

    version = MIGRATIONS.index(m005_recall_rescoring) + 1
    with Store(db_path) as store:
        session = store.session_named("old")
        add_turns(store, session.id, ["an old turn", "another old turn"])
        index_pending(store, hashing_embedder)
        # Pretend the file was last opened before m005: undo it (and m006 … m012) by hand, then migrate again.
        store.conn.execute("ALTER TABLE messages DROP COLUMN unhealthy")
        for table in ("stages_fts", "stages", "paging_advice"):
            store.conn.execute(f"DROP TABLE {table}")
        store.conn.execute("DROP INDEX messages_by_page")
        for table in ("document_embedded", "document_chunks_words", "document_chunks_fts", "document_chunks",
                      "document_sections", "documents"):
            store.conn.execute(f"DROP TABLE {table}")
        store.conn.execute("DROP TABLE imported_turns")
        store.conn.execute("DROP TABLE context_heads")
        store.conn.execute("DROP TABLE memory_backlog")
        store.conn.execute("ALTER TABLE bookmarks DROP COLUMN author")
        store.conn.execute("DROP INDEX sessions_one_profile")
        store.conn.execute("DELETE FROM sessions WHERE kind = 'profile'")
        store.conn.execute("ALTER TABLE sessions DROP COLUMN kind")
        store.conn.execute("DROP INDEX messages_unpaged")
        store.conn.execute("DROP TRIGGER messages_count_insert")
        store.conn.execute("DROP TRIGGER messages_count_delete")
        store.conn.execute("ALTER TABLE sessions DROP COLUMN message_count")
        store.conn.execute("ALTER TABLE messages DROP COLUMN turn")
        store.conn.execute("DROP INDEX messages_by_session_role")
        store.conn.execute("ALTER TABLE recall_embedded DROP COLUMN embedding")
        store.conn.execute(f"PRAGMA user_version = {version - 1}")
    conn = connect(db_path, migrate_schema=False)
    assert migrate(conn) == len(MIGRATIONS)
    conn.close()
    with Store(db_path) as store:
        assert store.count_pending_embeddings() == 2
        assert index_pending(store, hashing_embedder) == 2
        assert search(store, store.find_session("old").id, "old turn", k=1, embedder=hashing_embedder)
