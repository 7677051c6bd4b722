"""Adding, deduplicating, syncing and removing documents, on real SQLite files."""

from __future__ import annotations

import os

import pytest

from desktop_app.memory.documents.chunking import chunk_text
from desktop_app.memory.documents.ingest import add_documents, sync_documents
from desktop_app.memory.documents.parsers import Section
from desktop_app.memory.documents.retrieval import search_documents
from desktop_app.memory.documents.vectors import embed_pending_chunks
from tests.support.documents import write_pdf
from tests.support.embedders import HashingEmbedder


def _index_rows(store) -> dict[str, int]:
    """Rows in the chunk tables and inside both FTS5 indexes (their docsize shadow tables)."""
    tables = ("documents", "document_sections", "document_chunks", "document_chunks_fts_docsize",
              "document_chunks_words_docsize", "document_embedded")
    out = {t: store.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    if store.document_vector_table_exists():
        out["document_vec"] = store.conn.execute("SELECT count(*) FROM document_vec").fetchone()[0]
    return out


def test_chunks_respect_the_token_bound_and_overlap(counter):
    sentences = [f"Sentence number {i} talks about topic {i % 7} in some detail." for i in range(60)]
    section = Section(text=" ".join(sentences), page=3, heading="Long part")
    chunks = list(chunk_text(section, 0, counter, max_tokens=60, overlap_tokens=15))
    assert len(chunks) > 5
    assert all(c.tokens <= 60 and counter.count(c.text) <= 66 for c in chunks)
    assert all(c.page == 3 and c.heading == "Long part" for c in chunks)
    assert all(section.text[c.char_start:c.char_end] == c.text for c in chunks)
    # Consecutive chunks overlap (the next starts before the previous ends) and cover everything.
    assert all(b.char_start < a.char_end for a, b in zip(chunks, chunks[1:], strict=False))
    assert chunks[0].char_start == 0
    assert chunks[-1].char_end == len(section.text)


def test_a_run_on_chinese_paragraph_is_cut_at_sentences(counter):
    text = "".join(f"第{i}条：合同双方应当遵守约定的付款期限。" for i in range(80))
    chunks = list(chunk_text(Section(text=text, page=1), 0, counter, max_tokens=50, overlap_tokens=10))
    assert len(chunks) > 3
    assert all(c.tokens <= 50 for c in chunks)
    assert all(c.text.endswith("。") for c in chunks)


def test_add_pdf_stores_pages_headings_and_finds_the_answer(store, counter, contract_pdf):
    report = add_documents(store, [contract_pdf], session_id=None, counter=counter)
    [outcome] = report.outcomes
    assert outcome.status == "added"
    assert outcome.name == "contract"
    assert outcome.pages == 2
    [doc] = store.list_documents()
    assert (doc.pages, doc.format, doc.language, doc.session_id) == (2, "pdf", "en", None)
    assert doc.chunk_count == outcome.chunks >= 2
    [hit, *_] = search_documents(store, "what is the monthly fee?", [doc.id])
    assert (hit.page, hit.heading) == (2, "Payment terms")
    assert "4,200 euros" in hit.text
    assert hit.label == "doc: contract, p. 2 §Payment terms"
    assert [s.page for s in store.document_sections(doc.id, page=2)] == [2]


def test_same_content_is_not_added_twice(store, counter, contract_pdf, tmp_path):
    copy = tmp_path / "copy" / "contract-copy.pdf"
    copy.parent.mkdir()
    copy.write_bytes(contract_pdf.read_bytes())
    first = add_documents(store, [contract_pdf], session_id=None, counter=counter)
    again = add_documents(store, [contract_pdf, copy], session_id=None, counter=counter)
    assert first.count("added") == 1
    assert [o.status for o in again.outcomes] == ["unchanged", "duplicate"]
    assert "already added as contract" in again.outcomes[1].line()
    assert len(store.list_documents()) == 1
    # Another scope (a session) may hold its own copy.
    session = store.session_named("work")
    other = add_documents(store, [copy], session_id=session.id, counter=counter)
    assert other.count("added") == 1
    assert len(store.list_documents(session.id)) == 2


def test_sync_reindexes_a_changed_file(store, counter, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# Venue\nThe meeting is in room Walnut.\n", encoding="utf-8")
    add_documents(store, [notes], session_id=None, counter=counter)
    [doc] = store.list_documents()
    assert search_documents(store, "walnut room", [doc.id])
    notes.write_text("# Venue\nThe meeting moved to room Cedar.\n\n# Food\nPizza for twelve.\n", encoding="utf-8")
    os.utime(notes, (doc.mtime + 5, doc.mtime + 5))
    report = sync_documents(store, counter=counter)
    assert [o.status for o in report.outcomes] == ["updated"]
    [after] = store.list_documents()
    assert after.id == doc.id
    assert after.name == "notes"
    assert after.content_hash != doc.content_hash
    assert after.added_at == doc.added_at
    assert after.chunk_count == 2
    assert not search_documents(store, "walnut", [doc.id])
    assert "Cedar" in search_documents(store, "cedar room", [doc.id])[0].text
    assert [o.status for o in sync_documents(store, counter=counter).outcomes] == ["unchanged"]
    notes.unlink()
    [gone] = sync_documents(store, counter=counter).outcomes
    assert gone.status == "missing"
    assert store.list_documents()


def test_remove_leaves_no_rows(store, counter, contract_pdf, tmp_path):
    notes = tmp_path / "keep.md"
    notes.write_text("# Kept\nThis one stays.\n", encoding="utf-8")
    add_documents(store, [contract_pdf, notes], session_id=None, counter=counter)
    embedder = HashingEmbedder()
    assert embed_pending_chunks(store, embedder) == sum(d.chunk_count for d in store.list_documents())
    before = _index_rows(store)
    contract = next(d for d in store.list_documents() if d.name == "contract")
    removed = store.delete_document(contract.id)
    after = _index_rows(store)
    assert removed == contract.chunk_count
    assert before["documents"] - after["documents"] == 1
    for table in ("document_chunks", "document_chunks_fts_docsize", "document_chunks_words_docsize",
                  "document_embedded", "document_vec"):
        assert after[table] == before[table] - removed, table
    assert store.document_row_counts(contract.id) == {"sections": 0, "chunks": 0, "embedded": 0}
    assert after["document_sections"] == 1
    # Nothing of the text remains findable; the other document still is.
    ids = [d.id for d in store.list_documents()]
    assert not store.fts_chunks('"euros"', [contract.id], limit=5)
    assert store.conn.execute("SELECT count(*) FROM document_chunks_words WHERE document_chunks_words MATCH 'euros'"
                              ).fetchone()[0] == 0
    assert search_documents(store, "stays", ids)
    store.conn.execute("INSERT INTO document_chunks_fts (document_chunks_fts) VALUES ('integrity-check')")
    store.conn.execute("INSERT INTO document_chunks_words (document_chunks_words) VALUES ('integrity-check')")


def test_a_bad_file_gets_one_line_and_the_batch_goes_on(store, counter, tmp_path):
    folder = tmp_path / "inbox"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "good.md").write_text("# Plan\nShip on Friday.\n", encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    write_pdf(folder / "contract.pdf", [[], []])
    (folder / "empty.txt").write_text("   \n", encoding="utf-8")
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0")
    report = add_documents(store, [folder, photo, tmp_path / "nowhere.pdf"], session_id=None, counter=counter)
    lines = sorted(o.line() for o in report.failed)
    assert len(lines) == 5
    assert lines[0].startswith("broken.pdf: not a readable PDF (")
    assert lines[1:] == [
        "contract.pdf: scanned pages without a text layer — 0 chunks",
        "empty.txt: no text found — 0 chunks",
        "nowhere.pdf: no such file or folder",
        "photo.jpg: unsupported file type '.jpg'",
    ]
    assert all("\n" not in line for line in lines)
    assert [d.name for d in store.list_documents()] == ["good"]


def test_a_cancelled_ingest_leaves_the_database_consistent(store, counter, tmp_path):
    first = write_pdf(tmp_path / "a.pdf", [["Alpha page one"], ["Alpha page two"]])
    second = write_pdf(tmp_path / "b.pdf", [["Beta page one"], ["Beta page two"], ["Beta page three"]])
    seen = []

    def progress(state, outcome):
        seen.append((state.current, state.pages))

    stop_after = {"calls": 0}

    def should_stop():  # stops while the second file is being read, after its first page
        stop_after["calls"] += 1
        return any(current == "b.pdf" and pages >= 1 for current, pages in seen)

    report = add_documents(store, [first, second], session_id=None, counter=counter, should_stop=should_stop,
                           progress=progress)
    assert report.cancelled
    assert [o.status for o in report.outcomes] == ["added"]
    assert [d.name for d in store.list_documents()] == ["a"]
    rows = _index_rows(store)
    assert rows["document_chunks"] == rows["document_chunks_fts_docsize"] == rows["document_chunks_words_docsize"]
    orphans = store.conn.execute("SELECT count(*) FROM document_chunks WHERE document_id NOT IN (SELECT id FROM documents)")
    assert orphans.fetchone()[0] == 0
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # Adding again finishes the job.
    again = add_documents(store, [first, second], session_id=None, counter=counter)
    assert [o.status for o in again.outcomes] == ["unchanged", "added"]


@pytest.mark.parametrize("scope", ["library", "session"])
def test_scopes(store, counter, tmp_path, scope):
    notes = tmp_path / "menu.md"
    notes.write_text("Soup of the day: lentils.\n", encoding="utf-8")
    one, two = store.session_named("one"), store.session_named("two")
    add_documents(store, [notes], session_id=None if scope == "library" else one.id, counter=counter)
    assert len(store.list_documents(one.id)) == 1
    assert len(store.list_documents(two.id)) == (1 if scope == "library" else 0)


def test_vectors_rank_chunks_and_a_locked_embedder_embeds_questions(store, counter, tmp_path):
    from desktop_app.engine.guard import LockedEmbedder
    from desktop_app.memory.documents.retrieval import vector_ranking

    (tmp_path / "pets.md").write_text("# Cats\nCats purr and sleep.\n\n# Dogs\nDogs bark loudly at night.\n",
                                      encoding="utf-8")
    add_documents(store, [tmp_path / "pets.md"], session_id=None, counter=counter)
    embedder = LockedEmbedder(HashingEmbedder())
    assert embed_pending_chunks(store, embedder) == 2
    [doc] = store.list_documents()
    ranked = vector_ranking(store, "dogs bark", [doc.id], embedder)
    rows = store.chunk_rows(cid for cid, _ in ranked)
    assert rows[ranked[0][0]]["heading"] == "Dogs"
    assert ranked[0][1] > ranked[1][1]
    assert (embedder.embed_query("dogs bark") == HashingEmbedder().embed(["dogs bark"])[0]).all()
    # Another model's vectors are not searched: the chunks are embedded again for it.
    other = HashingEmbedder("hashing-64-other")
    assert vector_ranking(store, "dogs bark", [doc.id], other) == []
    assert embed_pending_chunks(store, other) == 2
