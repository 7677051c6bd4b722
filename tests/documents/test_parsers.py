"""Each parser on a small real file made here."""

from __future__ import annotations

import pytest

from desktop_app.memory.documents.parsers import DocumentError, parse_document
from tests.support.documents import write_docx, write_pdf


def test_pdf_pages_and_outline_headings(contract_pdf):
    sections = list(parse_document(contract_pdf))
    assert [s.page for s in sections] == [1, 2]
    assert sections[0].heading == "Service Agreement"
    assert sections[1].heading == "Payment terms"
    assert "4,200 euros" in sections[1].text
    assert "4,200" not in sections[0].text


def test_pdf_without_text_layer_yields_empty_pages(tmp_path):
    path = write_pdf(tmp_path / "scan.pdf", [[], []])
    assert [(s.page, s.text) for s in parse_document(path)] == [(1, ""), (2, "")]


def test_corrupt_and_truncated_pdf_are_one_line_errors(tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    with pytest.raises(DocumentError, match="not a readable PDF"):
        list(parse_document(bad))


def test_encrypted_pdf_is_refused(tmp_path, contract_pdf):
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(contract_pdf))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as handle:
        writer.write(handle)
    with pytest.raises(DocumentError, match="encrypted PDF"):
        list(parse_document(locked))


def test_docx_headings_paragraphs_and_tables(tmp_path):
    path = write_docx(tmp_path / "brief.docx", [
        ("h1", "Project brief"), ("p", "The client wants a new logo."),
        ("h2", "Budget"), ("p", "At most 5000 yuan."), ("table", "Item|Cost"),
    ])
    sections = list(parse_document(path))
    assert [s.heading for s in sections] == ["Project brief", "Budget"]
    assert sections[0].text == "The client wants a new logo."
    assert "At most 5000 yuan." in sections[1].text
    assert "Item | Cost" in sections[1].text
    assert all(s.page is None for s in sections)


def test_corrupt_docx(tmp_path):
    path = tmp_path / "fake.docx"
    path.write_bytes(b"PK\x03\x04 not a zip at all")
    with pytest.raises(DocumentError, match="not a readable DOCX"):
        list(parse_document(path))


def test_html_drops_scripts_and_styles_and_splits_at_headings(tmp_path):
    path = tmp_path / "page.html"
    path.write_text("""<html><head><title>T</title><style>body { color: red }</style></head><body>
        <script>var secret = "ignore me";</script><h1>Install</h1><p>Run <b>make</b> run.</p>
        <noscript>enable js</noscript><h2>Usage</h2><ul><li>first</li><li>second</li></ul>
        <style>.x{}</style></body></html>""", encoding="utf-8")
    sections = list(parse_document(path))
    assert [s.heading for s in sections] == ["Install", "Usage"]
    assert sections[0].text == "Run make run."
    assert sections[1].text.split("\n") == ["first", "second"]
    joined = " ".join(s.text for s in sections)
    assert "secret" not in joined
    assert "color" not in joined
    assert "enable js" not in joined


def test_markdown_split_by_headings_ignores_fenced_hashes(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("Intro line.\n\n# Setup\nInstall it.\n```sh\n# not a heading\n```\n## 安装\n运行命令。\n",
                    encoding="utf-8")
    sections = list(parse_document(path))
    assert [s.heading for s in sections] == [None, "Setup", "安装"]
    assert "# not a heading" in sections[1].text


def test_text_encodings_and_binary(tmp_path):
    gbk = tmp_path / "会议.txt"
    gbk.write_bytes("会议纪要：预算五千元。".encode("gb18030"))
    assert next(parse_document(gbk)).text == "会议纪要：预算五千元。"
    binary = tmp_path / "blob.txt"
    binary.write_bytes(b"\x00\x01\x02binary" * 10)
    with pytest.raises(DocumentError, match="binary"):
        list(parse_document(binary))


def test_code_is_split_at_top_level_definitions(tmp_path):
    path = tmp_path / "tool.py"
    path.write_text("import os\n\n\ndef load(path):\n    return open(path)\n\n\nclass Saver:\n    pass\n",
                    encoding="utf-8")
    sections = list(parse_document(path))
    assert [s.heading for s in sections] == [None, "def load(path)", "class Saver"]
    assert sections[1].text.startswith("def load(path):")


def test_unsupported_suffix(tmp_path):
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff")
    with pytest.raises(DocumentError, match="unsupported file type"):
        parse_document(path)


def test_pdf_heading_carries_over_to_later_pages_and_words_keep_their_spaces(tmp_path):
    path = write_pdf(tmp_path / "guide.pdf", [["Intro", "Welcome to the guide."], ["Setup", "Install the package first."],
                                              ["Run the build with make all."]],
                     outline=[("Intro", 0), ("Setup", 1)])
    sections = list(parse_document(path))
    assert [(s.page, s.heading) for s in sections] == [(1, "Intro"), (2, "Setup"), (3, "Setup")]
    assert "Run the build with make all." in sections[2].text
