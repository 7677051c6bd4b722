"""The Documents panel in the real app: /doc add a folder with a progress bar, cancel a read,
remove, and ask a document by @name in the chat (scripted engine: the prompt is checked)."""

from __future__ import annotations

import threading

from textual.widgets import Button, DataTable, Label, ProgressBar

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.documents import ingest
from desktop_app.memory.store import Store
from desktop_app.ui.screens.documents import DocumentsScreen
from desktop_app.ui.widgets import turn_record
from tests.support.documents import write_docx, write_pdf


def _folder(tmp_path):
    folder = tmp_path / "client"
    folder.mkdir()
    write_pdf(folder / "contract.pdf", [["Service Agreement", "Between Acme Ltd and the client."],
                                        ["Payment terms", "The monthly fee is 4,200 euros."]],
              outline=[("Service Agreement", 0), ("Payment terms", 1)])
    write_docx(folder / "notes.docx", [("h1", "Kick-off"), ("p", "The launch date is the ninth of May.")])
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 nope")
    return folder


async def test_doc_add_reads_a_folder_with_progress_then_a_mention_asks_it(settings, db_path, tmp_path, ui,
                                                                           notifications):
    engine = ScriptedEngine("The fee is 4,200 euros.")
    app = ui.scripted_app(settings, engine)
    folder = _folder(tmp_path)
    async with app.run_test(size=ui.size) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        await ui.send(pilot, f"/doc add {folder}")
        screen = app.screen
        assert isinstance(screen, DocumentsScreen)
        bar = screen.query_one("#docs-progress", ProgressBar)
        await ui.wait_until(pilot, lambda: not screen.running and screen.last_report is not None, timeout=20)
        assert bar.progress == bar.total == 1
        status = str(screen.query_one("#docs-status", Label).render())
        assert "Done: 2 indexed, 1 failed" in status
        assert any(m.startswith("broken.pdf: not a readable PDF") for m, _ in notifications)
        table = screen.query_one(DataTable)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert [(r[0], r[1], r[2]) for r in rows] == [("contract", "pdf", "2"), ("notes", "docx", "—")]
        assert all(r[6] == "library" for r in rows)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DocumentsScreen)

        await ui.send(pilot, "@contract what is the monthly fee?")
        [prompt] = [c[-1]["content"] for c in engine.calls if c[-1]["content"].endswith("what is the monthly fee?")]
        assert "[doc: contract, p. 2 §Payment terms]" in prompt
        assert "4,200 euros" in prompt
        assert "launch date" not in prompt, "the mention restricts retrieval to that document"
    with Store(db_path) as store:
        record = store.last_turn_record(store.latest_session().id)
        [item] = [i for i in record.layers["recalled"].items if i.type == "doc" and i.page == 2]
        assert item.document == "contract"
        assert "bm25" in item.signals
    # The inspector's recall part lists the quoted chunks with their per-signal scores.
    shown = ui.text_of(type("Part", (), {"content": turn_record.recall_hits(record)})(), width=200)
    assert "Document chunks quoted" in shown
    assert "doc: contract, p. 2 §Payment terms" in shown
    assert "bm25" in shown
    assert "[doc: contract, p. 2 §Payment terms] quoted" in ui.text_of(
        type("Part", (), {"content": turn_record.included(record)})(), width=200)


async def test_cancel_keeps_finished_files_and_nothing_of_the_one_being_read(settings, db_path, tmp_path, ui,
                                                                           monkeypatch):
    folder = tmp_path / "pile"
    folder.mkdir()
    (folder / "a.md").write_text("# A\nfirst file\n", encoding="utf-8")
    write_pdf(folder / "b.pdf", [[f"page {i} text"] for i in range(1, 6)])
    gate, reading = threading.Event(), threading.Event()
    original = ingest.parse_document

    def slow(path, fmt=None, *rest):
        for n, section in enumerate(original(path, fmt, *rest)):
            yield section
            if path.name == "b.pdf" and n == 0:
                reading.set()
                gate.wait(10)

    monkeypatch.setattr(ingest, "parse_document", slow)
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("ctrl+t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DocumentsScreen)
        screen.start_ingest([folder])
        await ui.wait_until(pilot, reading.is_set)
        assert screen.query_one("#docs-cancel", Button).disabled is False
        await pilot.click("#docs-cancel")
        gate.set()
        await ui.wait_until(pilot, lambda: not screen.running, timeout=20)
        assert screen.last_report.cancelled
        assert "Cancelled: 1 indexed" in str(screen.query_one("#docs-status", Label).render())
        assert screen.query_one(DataTable).row_count == 1
        # Remove the one that was stored: the table and the database are empty again.
        screen.query_one(DataTable).focus()
        await pilot.press("delete")
        await ui.settle(pilot)
        assert screen.query_one(DataTable).row_count == 0
    with Store(db_path) as store:
        assert store.list_documents() == []
        assert store.conn.execute("SELECT count(*) FROM document_chunks").fetchone()[0] == 0
