"""The Documents panel honours its "attach new documents only to this session" box — also for a
``/doc add`` typed after ticking it — and its status line speaks the UI language."""

from __future__ import annotations

import re

from textual.widgets import Checkbox, DataTable, Label

from desktop_app.memory.store import Store
from desktop_app.ui.i18n import set_lang
from desktop_app.ui.screens.documents import DocumentsScreen


def english_words(text: str) -> list[str]:
    """Runs of two or more English words (file names, and the PDF reader's own details in
    brackets, aside)."""
    text = re.sub(r"[\w.\-]+\.(?:md|pdf|txt|docx)|\([^)]*\)", "", text)
    return re.findall(r"[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})+", text)


async def test_a_ticked_scope_box_keeps_the_document_in_the_session(settings, db_path, tmp_path, ui):
    set_lang("zh")
    notes = tmp_path / "notes.md"
    notes.write_text("# 会议\n\n预算是五千元，房租另算。\n", encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 nope")
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.settle(pilot)
        await pilot.press("ctrl+t")
        await ui.wait_until(pilot, lambda: isinstance(app.screen, DocumentsScreen))
        await pilot.click("#docs-session-only")
        await pilot.pause()
        assert app.screen.query_one("#docs-session-only", Checkbox).value
        await pilot.press("escape")
        await ui.settle(pilot)

        await ui.send(pilot, f"/doc add {tmp_path}")
        screen = app.screen
        assert isinstance(screen, DocumentsScreen)
        box = screen.query_one("#docs-session-only", Checkbox)
        assert box.value, "the box is as the user left it"
        await ui.wait_until(pilot, lambda: not screen.running and screen.last_report is not None, timeout=20)
        status = str(screen.query_one("#docs-status", Label).render())
        assert "完成：已索引 1 个，失败 1 个" in status
        assert "notes.md：已添加为 notes" in status
        assert "broken.pdf：不是可读的 PDF" in status
        assert not english_words(status), status
        table = screen.query_one(DataTable)
        assert [table.get_row_at(i)[6] for i in range(table.row_count)] == ["本会话"]
        session_id = app.chat.session.id
    with Store(db_path) as store:
        assert [d.name for d in store.list_documents(session_id, library=False)] == ["notes"]
        assert [d.name for d in store.list_documents(None)] == [], "nothing went to the library"


async def test_the_scope_box_cannot_change_while_a_read_runs(settings, tmp_path, ui):
    notes = tmp_path / "a.md"
    notes.write_text("# A\n\nfirst file\n", encoding="utf-8")
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("ctrl+t")
        await ui.wait_until(pilot, lambda: isinstance(app.screen, DocumentsScreen))
        screen = app.screen
        screen.start_ingest([notes])
        assert screen.query_one("#docs-session-only", Checkbox).disabled
        assert "into the library" in str(screen.query_one("#docs-status", Label).render())
        await ui.wait_until(pilot, lambda: not screen.running, timeout=20)
        assert not screen.query_one("#docs-session-only", Checkbox).disabled
