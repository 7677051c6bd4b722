"""Hostile files, made at run time: small on disk, huge (or endless) once read.

Each writer takes its size as a parameter, so a test makes a small one against low limits and
``python -m desktop_app.bench.hostile_docs DIR`` makes the full-size set the Limits table in
docs/privacy-and-reliability.md was measured on (``/usr/bin/time -v paperclip docs add FILE``).
"""

from __future__ import annotations

import random
import sys
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          '<Default Extension="xml" ContentType="application/xml"/>'
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
          'wordprocessingml.document.main+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
         '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         'officeDocument" Target="word/document.xml"/></Relationships>')
_HEAD = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="{W}"><w:body>'.encode()
_TAIL = b"</w:body></w:document>"


def _repeat(unit: bytes, total: int) -> Iterator[bytes]:
    """``unit`` repeated to about ``total`` bytes, in blocks of about 1 MB."""
    block = unit * max(1, (1 << 20) // len(unit))
    written = 0
    while written < total:
        yield block
        written += len(block)


def write_docx(path: Path, body: Iterable[bytes], *, prolog: bytes = b"",
               members: Iterable[tuple[str, Iterable[bytes]]] = ()) -> Path:
    """A DOCX whose ``word/document.xml`` is ``prolog`` + the body blocks, streamed (deflated) into the zip."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", _TYPES)
        archive.writestr("_rels/.rels", _RELS)
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(prolog or _HEAD)
            for block in body:
                part.write(block)
            if not prolog:
                part.write(_TAIL)
        for name, blocks in members:
            with archive.open(name, "w", force_zip64=True) as member:
                for block in blocks:
                    member.write(block)
    return path


def docx_inflating(path: Path, inflated: int) -> Path:
    """Ordinary paragraphs, ``inflated`` bytes of XML once unzipped (about 1000 : 1)."""
    paragraph = b"<w:p><w:r><w:t>" + b"All work and no play. " * 40 + b"</w:t></w:r></w:p>"
    return write_docx(path, _repeat(paragraph, inflated))


def docx_many_members(path: Path, members: int, member_bytes: int) -> Path:
    """A small document plus ``members`` extra parts of ``member_bytes`` zeros each (a zip bomb by count)."""
    paragraph = b"<w:p><w:r><w:t>Cover page.</w:t></w:r></w:p>"
    return write_docx(path, [paragraph], members=((f"word/media/pad{n}.bin", [bytes(member_bytes)])
                                                  for n in range(members)))


def docx_deep(path: Path, depth: int) -> Path:
    """Elements nested ``depth`` deep inside one paragraph."""
    return write_docx(path, [b"<w:p><w:r><w:t>Deep.</w:t></w:r></w:p><w:p>", b"<w:sdt>" * depth,
                             b"</w:sdt>" * depth, b"</w:p>"])


def docx_laughs(path: Path, levels: int = 10) -> Path:
    """Billion laughs: ten entities, each ten of the one before, used once in a paragraph."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, levels)]
    prolog = (f'<?xml version="1.0"?>\n<!DOCTYPE w:document [{"".join(entities)}]>'
              f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&lol{levels - 1};</w:t></w:r></w:p>'
              f'</w:body></w:document>').encode()
    return write_docx(path, [], prolog=prolog)


# -- PDF ---------------------------------------------------------------------------------------
def pdf_bytes(objects: list[bytes], *, root: int = 1) -> bytes:
    """A PDF file of ``objects`` (numbered from 1) with its cross-reference table; ``root`` is the catalog."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(data: bytes, *, deflate: bool) -> bytes:
    if deflate:
        data = zlib.compress(data, 9)
    head = f"<< /Length {len(data)}{' /Filter /FlateDecode' if deflate else ''} >>\nstream\n".encode()
    return head + data + b"\nendstream"


_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def pdf_one_page(path: Path, content: Iterable[bytes]) -> Path:
    """One page whose content stream (deflated) is the blocks given."""
    squeeze = zlib.compressobj(9)
    data = b"".join(squeeze.compress(block) for block in content) + squeeze.flush()
    stream = f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode() + data + b"\nendstream"
    path.write_bytes(pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                           b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                           b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>", stream, _FONT]))
    return path


def pdf_font_bomb(path: Path, inflated: int) -> Path:
    """One page of text whose font's ToUnicode map inflates to ``inflated`` bytes: not page content,
    so only the reader's memory ceiling stops it."""
    squeeze = zlib.compressobj(9)
    cmap = b"".join(squeeze.compress(block) for block in _repeat(b"%" * 1024, inflated)) + squeeze.flush()
    content = b"BT /F1 12 Tf 72 740 Td (Hello) Tj ET"
    path.write_bytes(pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                           b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                           b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
                           _stream(content, deflate=False),
                           b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
                           f"<< /Length {len(cmap)} /Filter /FlateDecode >>\nstream\n".encode() + cmap
                           + b"\nendstream"]))
    return path


def pdf_inflating(path: Path, inflated: int) -> Path:
    """One page whose content stream inflates to ``inflated`` bytes (of blank space)."""
    return pdf_one_page(path, _repeat(b" " * 1024, inflated))


def pdf_crowded(path: Path, characters: int) -> Path:
    """One page holding ``characters`` glyphs (a layout bomb: every glyph becomes an object)."""
    line = b"BT /F1 1 Tf 10 10 Td (" + b"W" * 1000 + b") Tj ET\n"
    return pdf_one_page(path, _repeat(line, characters * len(line) // 1000))


def pdf_pages(path: Path, pages: int) -> Path:
    """``pages`` distinct pages, each with a line of text."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", _FONT]
    kids = []
    for n in range(pages):
        content = f"BT /F1 12 Tf 72 740 Td (Page {n + 1}) Tj ET".encode()
        objects.append(_stream(content, deflate=False))
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                       f"/Contents {len(objects)} 0 R >>".encode())
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>".encode()
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_page_tree_bomb(path: Path, fanout: int = 10, levels: int = 6) -> Path:
    """A page tree of ``fanout ** levels`` leaves in a few hundred bytes: each level's node
    lists the next level's node ``fanout`` times."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(levels):
        me, child = len(objects) + 1, len(objects) + 2
        count = fanout ** (levels - level)
        parent = f" /Parent {me - 1} 0 R" if level else ""
        objects.append(f"<< /Type /Pages{parent} /Kids [{' '.join([f'{child} 0 R'] * fanout)}] /Count {count} >>".encode())
    leaf = len(objects) + 1
    objects.append(f"<< /Type /Page /Parent {leaf - 1} 0 R /MediaBox [0 0 612 792] /Resources << /Font << "
                   f"/F1 {leaf + 2} 0 R >> >> /Contents {leaf + 1} 0 R >>".encode())
    objects.append(_stream(b"BT /F1 12 Tf 72 740 Td (Again) Tj ET", deflate=False))
    objects.append(_FONT)
    path.write_bytes(pdf_bytes(objects))
    return path


# -- HTML and text -----------------------------------------------------------------------------
def html_deep(path: Path, depth: int) -> Path:
    path.write_bytes(b"<html><body>" + b"<div>" * depth + b"deep" + b"</div>" * depth + b"</body></html>")
    return path


def html_huge_attribute(path: Path, size: int) -> Path:
    path.write_bytes(b'<html><body><p title="' + b"x" * size + b'">short text</p></body></html>')
    return path


def html_many_elements(path: Path, elements: int) -> Path:
    path.write_bytes(b"<html><body>" + b"<b>a</b>" * elements + b"</body></html>")
    return path


def one_line(path: Path, size: int) -> Path:
    """``size`` letters and no space or newline (one word, one line)."""
    rng = random.Random(0)
    letters = bytes(rng.choice(b"abcdefghij") for _ in range(4096))
    with path.open("wb") as handle:
        for block in _repeat(letters, size):
            handle.write(block)
    return path


def garbage(path: Path, size: int) -> Path:
    """Random bytes (under whatever name: ``.txt``, ``.md``)."""
    path.write_bytes(random.Random(1).randbytes(size))
    return path


def garbage_without_nul(path: Path, size: int) -> Path:
    """Random bytes with no NUL (a check on the first bytes for NUL does not catch it)."""
    path.write_bytes(bytes(b or 1 for b in random.Random(2).randbytes(size)))
    return path


def ascii_noise(path: Path, size: int) -> Path:
    """Random 7-bit bytes, control characters included: valid UTF-8, not text."""
    path.write_bytes(bytes(b & 0x7F or 1 for b in random.Random(3).randbytes(size)))
    return path


def latin1(path: Path) -> Path:
    """Text in Latin-1: invalid UTF-8 (and not GB18030 either)."""
    path.write_bytes("Café crème, déjà vu. Naïve façade.\n".encode("latin-1") * 20)
    return path


FULL_SIZE = {  # what the Limits table was measured on
    "bomb.docx": lambda p: docx_inflating(p, 1_100_000_000),
    "members.docx": lambda p: docx_many_members(p, 20_000, 100_000),
    "deep.docx": lambda p: docx_deep(p, 1_000_000),
    "laughs.docx": docx_laughs,
    "bomb.pdf": lambda p: pdf_inflating(p, 1_000_000_000),
    "font.pdf": lambda p: pdf_font_bomb(p, 1_000_000_000),
    "crowded.pdf": lambda p: pdf_crowded(p, 5_000_000),
    "pages.pdf": lambda p: pdf_page_tree_bomb(p, 10, 6),
    "deep.html": lambda p: html_deep(p, 1_000_000),
    "attribute.html": lambda p: html_huge_attribute(p, 12_000_000),
    "elements.html": lambda p: html_many_elements(p, 1_500_000),
    "line.txt": lambda p: one_line(p, 12_000_000),
    "garbage.txt": lambda p: garbage(p, 1_000_000),
    "garbage.md": lambda p: garbage_without_nul(p, 1_000_000),
    "noise.txt": lambda p: ascii_noise(p, 1_000_000),
    "latin1.txt": latin1,
}


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile")
    out.mkdir(parents=True, exist_ok=True)
    for name, make in FULL_SIZE.items():
        if len(sys.argv) <= 2 or name in sys.argv[2:]:
            make(out / name)
            print(f"{name}: {(out / name).stat().st_size:,} bytes")
