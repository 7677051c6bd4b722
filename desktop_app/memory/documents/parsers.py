"""Reading a file into text sections: ``(page, heading, text)`` in document order.

One reader per format, each a generator so a long file is read one page (PDF) or one section
at a time: :mod:`~desktop_app.memory.documents.pdf_reader` (pypdf and pdfminer.six),
:mod:`~desktop_app.memory.documents.docx_reader` (Word, streamed from the zip),
:mod:`~desktop_app.memory.documents.html_reader` (visible text, lxml) and, here, plain Python for
Markdown (split at ``#`` headings), text and source code (split at top-level definitions).

:func:`parse_document` runs the reader in a child process
(:mod:`~desktop_app.memory.documents.isolation`) under :class:`ReadLimits`; every failure a user
can cause, limits included, is a :class:`DocumentError` with a one-line reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from desktop_app.memory.documents.docx_reader import read_docx
from desktop_app.memory.documents.html_reader import HEADING_MARK, visible_text
from desktop_app.memory.documents.isolation import read_isolated
from desktop_app.memory.documents.pdf_reader import read_pdf
from desktop_app.memory.documents.reading import (
    DEFAULT_LIMITS,
    MB,
    Deadline,
    DocumentError,
    LimitExceeded,
    ReadLimits,
    Section,
    clean,
    size_text,
)

__all__ = ["DEFAULT_LIMITS", "SUPPORTED", "DocumentError", "LimitExceeded", "ReadLimits", "Section", "decode_text",
           "document_format", "parse_document", "read_sections"]

PDF = (".pdf",)
DOCX = (".docx",)
HTML = (".html", ".htm", ".xhtml")
MARKDOWN = (".md", ".markdown", ".mdown")
TEXT = (".txt", ".text", ".rst", ".log", ".csv", ".tsv", ".org", "")
CODE = (".py", ".js", ".ts", ".tsx", ".jsx", ".c", ".h", ".cc", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt",
        ".rb", ".php", ".cs", ".swift", ".scala", ".sh", ".bash", ".zsh", ".sql", ".lua", ".pl", ".r", ".m",
        ".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".xml", ".css", ".scss", ".mk", ".cmake")
SUPPORTED = PDF + DOCX + HTML + MARKDOWN + TEXT + CODE
_ISOLATED = {"pdf", "docx"}
_HEADING_LINE = 1000  # a longer line is not a heading (and is not matched against the heading patterns)


def document_format(path: Path) -> str | None:
    """The parser for ``path`` by its suffix: pdf, docx, html, markdown, text, code (None: unsupported)."""
    suffix = path.suffix.lower()
    for name, suffixes in (("pdf", PDF), ("docx", DOCX), ("html", HTML), ("markdown", MARKDOWN), ("code", CODE),
                           ("text", TEXT)):
        if suffix in suffixes:
            return name
    return None


def parse_document(path: Path, fmt: str | None = None, limits: ReadLimits = DEFAULT_LIMITS) -> Iterator[Section]:
    """The sections of ``path``, lazily, under ``limits``; raises :class:`DocumentError`
    (:class:`LimitExceeded` for a file over a limit) for unreadable files. PDF and Word files,
    whose libraries inflate and decode where no check can reach, are read in a child process
    with a memory ceiling; the other formats here (their input is bounded by its size on disk
    and read in linear time)."""
    fmt = fmt or document_format(path)
    if fmt is None:
        raise DocumentError(f"unsupported file type {path.suffix or '(no extension)'!r}")
    if fmt in _ISOLATED:
        return read_isolated(path, fmt, limits)
    return read_sections(path, fmt, limits, Deadline(limits.seconds))


def read_sections(path: Path, fmt: str, limits: ReadLimits, deadline: Deadline) -> Iterator[Section]:
    """The sections of ``path`` read in this process (the child process calls it for PDF and DOCX)."""
    if fmt == "pdf":
        return read_pdf(path, limits, deadline)
    if fmt == "docx":
        return read_docx(path, limits, deadline)
    if fmt == "html":
        return parse_html(path, limits, deadline)
    reader = {"markdown": parse_markdown, "text": parse_text, "code": parse_code}[fmt]
    return reader(path, limits)


def parse_html(path: Path, limits: ReadLimits, deadline: Deadline) -> Iterator[Section]:
    """Visible text split at ``<h1>``–``<h6>``; scripts, styles and other non-text removed."""
    text = visible_text(_read_bytes(path, limits), limits, deadline)
    yield from _sections_from_lines(text.splitlines(), lambda line: line[1:] if line.startswith(HEADING_MARK) else None)


# -- Markdown, text, code ---------------------------------------------------------------------
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def parse_markdown(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> Iterator[Section]:
    """Sections at ATX headings (``#`` … ``######``), code fences kept whole."""
    in_fence = False

    def heading_of(line: str) -> str | None:
        nonlocal in_fence
        if _FENCE.match(line):
            in_fence = not in_fence
            return None
        if in_fence or len(line) > _HEADING_LINE:
            return None
        match = _MD_HEADING.match(line)
        return match.group(2).strip() if match else None

    yield from _sections_from_lines(decode_text(path, limits).splitlines(), heading_of, keep_layout=True)


def parse_text(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> Iterator[Section]:
    """Plain text: one section (the chunker splits it at blank lines)."""
    text = clean(decode_text(path, limits))
    if text:
        yield Section(text=text)


_DEFINITION = re.compile(r"^(?:export\s+|pub(?:\(\w+\))?\s+|public\s+|private\s+|static\s+|async\s+)*"
                         r"(?:def|class|function|fn|func|impl|struct|enum|trait|interface|module|type|CREATE)\s+\w")


def parse_code(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> Iterator[Section]:
    """Source code split before each top-level definition; the definition line is the heading."""
    def heading_of(line: str) -> str | None:
        return line.strip().rstrip("{:").strip() if len(line) <= _HEADING_LINE and _DEFINITION.match(line) else None

    yield from _sections_from_lines(decode_text(path, limits).splitlines(), heading_of, keep_layout=True,
                                    heading_in_text=True)


def _sections_from_lines(lines: Iterable[str], heading_of: Callable[[str], str | None], *, keep_layout: bool = False,
                         heading_in_text: bool = False) -> Iterator[Section]:
    heading: str | None = None
    body: list[str] = []
    for raw in lines:
        line = raw.rstrip() if keep_layout else " ".join(raw.split())
        title = heading_of(line)
        if title is not None:
            text = clean("\n".join(body))
            if text:
                yield Section(text=text, heading=heading)
            heading, body = title[:200], ([line] if heading_in_text else [])
            continue
        body.append(line)
    text = clean("\n".join(body))
    if text:
        yield Section(text=text, heading=heading)


# -- bytes and text ----------------------------------------------------------------------------
def _read_bytes(path: Path, limits: ReadLimits) -> bytes:
    size = path.stat().st_size
    if size > limits.text_file_mb * MB:
        raise LimitExceeded(f"a {size_text(size)} file (limit {limits.text_file_mb} MB for text, Markdown, code "
                            "and HTML)")
    return path.read_bytes()


_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")  # not tab, newlines, form feed or ESC


def decode_text(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> str:
    """The file as text: UTF-8 (with or without BOM), UTF-16 with a BOM, else GB18030 (Chinese)."""
    data = _read_bytes(path, limits)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if b"\x00" in data[:8192]:
        raise DocumentError("binary file, not a document")
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        # Bytes that decode by chance (GB18030 maps most pairs) are still binary when control
        # characters, rare in any text, are more than one in a hundred.
        head = text[:65536]
        if len(_CONTROLS.findall(head)) * 100 > len(head):
            raise DocumentError("binary file, not a document")
        return text
    raise DocumentError("not UTF-8 or GB18030 text")

