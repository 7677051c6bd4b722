"""``paperclip docs …`` and ``ask --doc``: one line per file, one-line errors, real files."""

from __future__ import annotations

import json
import os

import pytest

from desktop_app.cli import main
from desktop_app.memory.documents.citations import cited_pages, supporting_chunks
from tests.support.documents import write_docx, write_pdf


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([*argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_add_list_show_remove(tmp_path, capsys, contract_pdf):
    db = str(tmp_path / "x.db")
    folder = tmp_path / "folder"
    folder.mkdir()
    write_docx(folder / "brief.docx", [("h1", "Brief"), ("p", "Deliver the logo by March.")])
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 nope")
    code, out, err = _run(capsys, "docs", "add", str(contract_pdf), str(folder), "--db", db)
    assert code == 1, "a failed file makes the exit code non-zero"
    assert "contract.pdf: added as contract — 2 pages" in out
    assert "brief.docx: added as brief" in out
    assert [line for line in err.splitlines() if line.startswith("broken.pdf")][0].startswith(
        "broken.pdf: not a readable PDF")
    assert "Traceback" not in err
    code, out, _ = _run(capsys, "docs", "list", "--json", "--db", db)
    listed = {d["name"]: d for d in json.loads(out)}
    assert set(listed) == {"brief", "contract"}
    assert listed["contract"]["pages"] == 2
    assert listed["brief"]["format"] == "docx"
    assert listed["brief"]["scope"] == "library"
    code, out, _ = _run(capsys, "docs", "show", "contract", "--page", "2", "--db", db)
    assert code == 0
    assert "4,200 euros" in out
    assert "Acme" not in out
    code, _, err = _run(capsys, "docs", "show", "contract", "--page", "5", "--db", db)
    assert code == 1
    assert err.strip() == "paperclip: contract has pages 1–2; there is no page 5"
    code, _, err = _run(capsys, "docs", "show", "brief", "--page", "1", "--db", db)
    assert code == 1
    assert "has no pages" in err
    code, out, _ = _run(capsys, "docs", "remove", "contract", "--yes", "--db", db)
    assert code == 0
    assert out.startswith("removed contract: ")
    code, _, err = _run(capsys, "docs", "remove", "contract", "--yes", "--db", db)
    assert code == 1
    assert err.strip() == "paperclip: 'contract' is not a document here (documents: brief)"


def test_add_twice_and_sync(tmp_path, capsys):
    db = str(tmp_path / "x.db")
    notes = tmp_path / "notes.md"
    notes.write_text("# A\nfirst version\n", encoding="utf-8")
    assert _run(capsys, "docs", "add", str(notes), "--db", db)[0] == 0
    code, out, _ = _run(capsys, "docs", "add", str(notes), "--db", db)
    assert code == 0
    assert out.strip() == "notes.md: unchanged"
    notes.write_text("# A\nsecond version, longer\n", encoding="utf-8")
    os.utime(notes, (1_900_000_000, 1_900_000_000))
    code, out, _ = _run(capsys, "docs", "sync", "--db", db)
    assert code == 0
    assert "notes.md: updated as notes" in out
    code, out, _ = _run(capsys, "docs", "show", "notes", "--db", db)
    assert "second version" in out
    assert "first version" not in out


def test_session_scope(tmp_path, capsys):
    db = str(tmp_path / "x.db")
    notes = tmp_path / "plan.md"
    notes.write_text("The plan.\n", encoding="utf-8")
    assert _run(capsys, "docs", "add", str(notes), "--session", "work", "--db", db)[0] == 0
    assert json.loads(_run(capsys, "docs", "list", "--json", "--session", "work", "--db", db)[1])[0]["scope"] == "session"
    assert json.loads(_run(capsys, "docs", "list", "--json", "--db", db)[1]) == []


def test_ask_with_an_unknown_doc_is_one_line_before_any_model_loads(tmp_path, capsys):
    code, _, err = _run(capsys, "ask", "--doc", "nothing", "hello", "--db", str(tmp_path / "x.db"),
                        "--model", str(tmp_path / "missing.gguf"))
    assert code == 2
    assert err.strip() == "paperclip: 'nothing' is not a document here (documents: none yet (`paperclip docs add PATH`))"


def test_citations_written_and_attributed():
    assert cited_pages("It is 4,200 euros [doc: contract, p. 2 §Payment terms].") == [("contract", 2)]
    assert cited_pages("见 [doc: 合同, p. 3]") == [("合同", 3)]
    chunks = [(1, "This agreement is made between Acme Ltd and the client."),
              (2, "The monthly fee is 4,200 euros, payable within 30 days.")]
    assert supporting_chunks("4,200 euros", chunks) == [2]
    assert supporting_chunks("Acme Ltd and the client", chunks) == [1]
    assert supporting_chunks("I do not know.", chunks) == []


@pytest.mark.model
def test_add_a_pdf_then_ask_about_it_with_the_real_model(tmp_path, capsys, default_model):
    pdf = write_pdf(tmp_path / "some.pdf", [
        ["Service Agreement", "This agreement is made between Acme Ltd and the client."],
        ["Payment terms", "The monthly fee is 4,200 euros, payable within 30 days of the invoice."],
    ], outline=[("Service Agreement", 0), ("Payment terms", 1)])
    db = str(tmp_path / "x.db")
    assert _run(capsys, "docs", "add", str(pdf), "--db", db, "--no-vectors")[0] == 0
    code, out, err = _run(capsys, "ask", "--doc", "some", "What is the monthly fee?", "--json", "--db", db,
                          "--max-tokens", "40", "--no-wait")
    assert code == 0, err
    result = json.loads(out)
    assert "4,200" in result["reply"] or "4200" in result["reply"]
    assert result["sources"] == ["doc: some, p. 2 §Payment terms"]
