"""Real document files made in a test: a PDF written by hand, a DOCX by python-docx."""

from __future__ import annotations

from pathlib import Path

from desktop_app.bench.hostile_docs import pdf_bytes


def _pdf_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def write_pdf(path: Path, pages: list[list[str]], *, outline: list[tuple[str, int]] = ()) -> Path:
    """A real PDF: one page per list of lines (Helvetica, a text layer), an optional outline
    of ``(title, 0-based page)``. An empty list makes a page without text (a 'scanned' page)."""
    objects: list[bytes] = []

    def add(body: str | bytes) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog = add("")  # filled in below
    pages_obj = add("")
    font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    page_ids = []
    for lines in pages:
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 740 Td"]
        for line in lines:
            ops += [f"{_pdf_string(line)} Tj", "T*"]
        ops.append("ET")
        stream = "\n".join(ops) if lines else ""
        content = add(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
        page_ids.append(add(f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 612 792] "
                            f"/Resources << /Font << /F1 {font} 0 R >> >> /Contents {content} 0 R >>"))
    objects[pages_obj - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] "
                              f"/Count {len(page_ids)} >>").encode()
    outline_ref = ""
    if outline:
        first = len(objects) + 2
        root = add(f"<< /Type /Outlines /First {first} 0 R /Last {first + len(outline) - 1} 0 R /Count {len(outline)} >>")
        for n, (title, page) in enumerate(outline):
            me = first + n
            links = (f" /Prev {me - 1} 0 R" if n else "") + (f" /Next {me + 1} 0 R" if n + 1 < len(outline) else "")
            add(f"<< /Title {_pdf_string(title)} /Parent {root} 0 R{links} /Dest [{page_ids[page]} 0 R /XYZ 0 792 0] >>")
        outline_ref = f" /Outlines {root} 0 R"
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R{outline_ref} >>".encode()
    path.write_bytes(pdf_bytes(objects, root=catalog))
    return path


def write_docx(path: Path, blocks: list[tuple[str, str]]) -> Path:
    """A real DOCX: ``("h1", text)`` headings, ``("p", text)`` paragraphs, ``("table", "a|b")`` rows."""
    from docx import Document

    document = Document()
    for kind, text in blocks:
        if kind.startswith("h"):
            document.add_heading(text, level=int(kind[1:]))
        elif kind == "table":
            cells = text.split("|")
            table = document.add_table(rows=1, cols=len(cells))
            for cell, value in zip(table.rows[0].cells, cells, strict=True):
                cell.text = value
        else:
            document.add_paragraph(text)
    document.save(str(path))
    return path
