"""Reading a file into text sections: ``(page, heading, text)`` in document order.

One parser per format, each a generator so a long file is read one page (PDF) or one
section at a time: pypdf (BSD) for a PDF's structure (encryption, page count, the outline's
headings) and pdfminer.six (MIT) for its text layer, page by page, with word spacing,
python-docx (MIT) for Word files with their Heading styles, Beautiful Soup (MIT, on lxml) for
HTML with scripts and styles removed, and plain Python for Markdown (split at ``#``
headings), text and source code (split at top-level definitions). Every failure a user can
cause is a :class:`DocumentError` with a one-line reason.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_TEXT_BYTES = 50 * 1024 * 1024  # a text file bigger than this is not a document

PDF = (".pdf",)
DOCX = (".docx",)
HTML = (".html", ".htm", ".xhtml")
MARKDOWN = (".md", ".markdown", ".mdown")
TEXT = (".txt", ".text", ".rst", ".log", ".csv", ".tsv", ".org", "")
CODE = (".py", ".js", ".ts", ".tsx", ".jsx", ".c", ".h", ".cc", ".cpp", ".hpp", ".rs", ".go", ".java", ".kt",
        ".rb", ".php", ".cs", ".swift", ".scala", ".sh", ".bash", ".zsh", ".sql", ".lua", ".pl", ".r", ".m",
        ".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".xml", ".css", ".scss", ".mk", ".cmake")
SUPPORTED = PDF + DOCX + HTML + MARKDOWN + TEXT + CODE


class DocumentError(Exception):
    """A file that cannot be read as a document; ``str()`` is the one-line reason."""


@dataclass(frozen=True)
class Section:
    """A run of text under one heading on one page (``page`` None: the format has no pages)."""

    text: str
    page: int | None = None
    heading: str | None = None


def document_format(path: Path) -> str | None:
    """The parser for ``path`` by its suffix: pdf, docx, html, markdown, text, code (None: unsupported)."""
    suffix = path.suffix.lower()
    for name, suffixes in (("pdf", PDF), ("docx", DOCX), ("html", HTML), ("markdown", MARKDOWN), ("code", CODE),
                           ("text", TEXT)):
        if suffix in suffixes:
            return name
    return None


def parse_document(path: Path, fmt: str | None = None) -> Iterator[Section]:
    """The sections of ``path``, lazily; raises :class:`DocumentError` for unreadable files."""
    fmt = fmt or document_format(path)
    if fmt is None:
        raise DocumentError(f"unsupported file type {path.suffix or '(no extension)'!r}")
    parser = {"pdf": parse_pdf, "docx": parse_docx, "html": parse_html, "markdown": parse_markdown,
              "text": parse_text, "code": parse_code}[fmt]
    return parser(path)


# -- PDF ---------------------------------------------------------------------------------------
def parse_pdf(path: Path) -> Iterator[Section]:
    """One section per page and outline heading; a page without a text layer yields one empty
    section (so the caller can count scanned pages)."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError, PdfStreamError

    for name in ("pypdf", "pdfminer"):  # font and layout notes about one page: not the user's concern
        logging.getLogger(name).setLevel(logging.ERROR)

    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            try:  # many "encrypted" PDFs only restrict printing and open with an empty password
                if not reader.decrypt(""):
                    raise DocumentError("encrypted PDF (password protected) — 0 chunks")
            except (NotImplementedError, FileNotDecryptedError, DependencyError):
                raise DocumentError("encrypted PDF (password protected) — 0 chunks") from None
        count = len(reader.pages)
        headings = _outline_headings(reader)
    except DocumentError:
        raise
    except (PdfReadError, PdfStreamError, ValueError, KeyError, TypeError, OSError) as exc:
        raise DocumentError(f"not a readable PDF ({_first_line(exc)})") from None
    current: str | None = None  # the outline heading in force (it carries over to later pages)
    for index, text in enumerate(_pdf_page_texts(path, reader, count)):
        text = _clean(text)
        marks = headings.get(index, [])
        if not text:
            current = marks[-1] if marks else current
            yield Section(text="", page=index + 1)
            continue
        # Split the page where each outline title appears; text before the first belongs to
        # the heading in force from earlier pages.
        pos = 0
        for title in marks:
            at = _find_title(text, title, pos)
            if at is None:
                current = title  # the title is not in the text layer: the heading still changes here
                continue
            if text[pos:at].strip():
                yield Section(text=text[pos:at].strip(), page=index + 1, heading=current)
            current, pos = title, at
        if text[pos:].strip():
            yield Section(text=text[pos:].strip(), page=index + 1, heading=current)


def _pdf_page_texts(path: Path, reader, count: int) -> Iterator[str]:
    """Each page's text layer, one page at a time. pdfminer.six lays characters out into words
    and text boxes (paragraphs, separated by blank lines); pypdf drops the spaces of many
    TeX-made PDFs ("theyinstallyourpackage"), so it only reads a page pdfminer cannot."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextContainer

    pages = extract_pages(path, laparams=LAParams(), password="")
    for index in range(count):
        try:
            layout = next(pages)
            boxes = [" ".join(line.strip() for line in box.get_text().splitlines() if line.strip())
                     if not _is_code_box(box) else box.get_text().rstrip()
                     for box in layout if isinstance(box, LTTextContainer)]
            yield "\n\n".join(b for b in boxes if b)
        except StopIteration:
            return
        except Exception:  # one page pdfminer cannot lay out: pypdf's text, else the page is skipped
            pages = _resume(path, index + 1, count)
            try:
                yield reader.pages[index].extract_text() or ""
            except Exception as exc:
                raise DocumentError(f"page {index + 1} cannot be read ({_first_line(exc)})") from None


def _resume(path: Path, start: int, count: int):
    """pdfminer's pages from ``start`` on (pages before it are skipped, not laid out again)."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams

    return extract_pages(path, laparams=LAParams(), password="", page_numbers=set(range(start, count)))


def _is_code_box(box) -> bool:
    """A text box that keeps its line breaks: most lines start with a shell prompt, a comment or indentation."""
    lines = [line for line in box.get_text().splitlines() if line.strip()]
    return len(lines) >= 2 and sum(line.startswith(("$ ", "# ", "  ", "\t")) for line in lines) * 2 >= len(lines)


def _outline_headings(reader) -> dict[int, list[str]]:
    """Outline (bookmark) titles by 0-based page index, in order."""
    out: dict[int, list[str]] = {}

    def walk(items) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:
                continue
            title = " ".join(str(getattr(item, "title", "") or "").split())
            if title and page is not None and page >= 0:
                out.setdefault(page, []).append(title)

    try:
        walk(reader.outline)
    except Exception:  # a broken outline only loses the headings
        return {}
    return out


def _find_title(text: str, title: str, start: int) -> int | None:
    at = text.find(title, start)
    if at >= 0:
        return at
    # Extracted text may break the title over lines or change its spacing.
    pattern = r"\s*".join(re.escape(ch) for ch in title.replace(" ", ""))
    match = re.compile(pattern).search(text, start) if len(title) <= 200 else None
    return match.start() if match else None


# -- DOCX --------------------------------------------------------------------------------------
def parse_docx(path: Path) -> Iterator[Section]:
    """Paragraphs and tables in order, split at Title/Heading-styled paragraphs."""
    import zipfile

    from docx import Document
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        document = Document(str(path))
        blocks = list(document.iter_inner_content())
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise DocumentError(f"not a readable DOCX ({_first_line(exc)})") from None
    heading: str | None = None
    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Table):
            for row in block.rows:
                cells = list(dict.fromkeys(c.text.strip() for c in row.cells if c.text.strip()))
                if cells:
                    lines.append(" | ".join(cells))
            continue
        text = block.text.strip()
        if not text:
            continue
        style = (block.style.name if block.style is not None else "") or ""
        if style.startswith(("Heading", "Title")) or style in ("标题", "Subtitle"):
            if lines:
                yield Section(text="\n\n".join(lines), heading=heading)
            heading, lines = text, []
        else:
            lines.append(text)
    if lines:
        yield Section(text="\n\n".join(lines), heading=heading)


# -- HTML --------------------------------------------------------------------------------------
_BLOCK_TAGS = ["p", "div", "li", "tr", "pre", "blockquote", "dd", "dt", "section", "article", "table", "ul", "ol",
               "br", "hr", "figcaption", "caption", "td", "th"]
_HEADING_MARK = "\x01"


def parse_html(path: Path) -> Iterator[Section]:
    """Visible text split at ``<h1>``–``<h6>``; scripts, styles and other non-text removed."""
    from bs4 import BeautifulSoup

    raw = _read_bytes(path)
    soup = BeautifulSoup(raw, "lxml")
    for tag in soup(["script", "style", "noscript", "template", "svg", "iframe", "object", "head", "nav"]):
        tag.decompose()
    for tag in soup.find_all(re.compile(r"^h[1-6]$")):
        title = " ".join(tag.get_text(" ").split())
        tag.replace_with(f"\n{_HEADING_MARK}{title}\n" if title else "\n")
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.insert_after("\n")
        if tag.name in ("td", "th"):
            tag.insert_after(" ")
    yield from _sections_from_lines(soup.get_text().splitlines(), lambda line: line[1:]
                                    if line.startswith(_HEADING_MARK) else None)


# -- Markdown, text, code ---------------------------------------------------------------------
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def parse_markdown(path: Path) -> Iterator[Section]:
    """Sections at ATX headings (``#`` … ``######``), code fences kept whole."""
    in_fence = False

    def heading_of(line: str) -> str | None:
        nonlocal in_fence
        if _FENCE.match(line):
            in_fence = not in_fence
            return None
        if in_fence:
            return None
        match = _MD_HEADING.match(line)
        return match.group(2).strip() if match else None

    yield from _sections_from_lines(decode_text(path).splitlines(), heading_of, keep_layout=True)


def parse_text(path: Path) -> Iterator[Section]:
    """Plain text: one section (the chunker splits it at blank lines)."""
    text = _clean(decode_text(path))
    if text:
        yield Section(text=text)


_DEFINITION = re.compile(r"^(?:export\s+|pub(?:\(\w+\))?\s+|public\s+|private\s+|static\s+|async\s+)*"
                         r"(?:def|class|function|fn|func|impl|struct|enum|trait|interface|module|type|CREATE)\s+\w")


def parse_code(path: Path) -> Iterator[Section]:
    """Source code split before each top-level definition; the definition line is the heading."""
    def heading_of(line: str) -> str | None:
        return line.strip().rstrip("{:").strip() if _DEFINITION.match(line) else None

    yield from _sections_from_lines(decode_text(path).splitlines(), heading_of, keep_layout=True,
                                    heading_in_text=True)


def _sections_from_lines(lines, heading_of, *, keep_layout: bool = False,
                         heading_in_text: bool = False) -> Iterator[Section]:
    heading: str | None = None
    body: list[str] = []
    for raw in lines:
        line = raw.rstrip() if keep_layout else " ".join(raw.split())
        title = heading_of(line)
        if title is not None:
            text = _clean("\n".join(body))
            if text:
                yield Section(text=text, heading=heading)
            heading, body = title[:200], ([line] if heading_in_text else [])
            continue
        body.append(line)
    text = _clean("\n".join(body))
    if text:
        yield Section(text=text, heading=heading)


# -- bytes and text ----------------------------------------------------------------------------
def _read_bytes(path: Path) -> bytes:
    size = path.stat().st_size
    if size > MAX_TEXT_BYTES:
        raise DocumentError(f"too large for a text document ({size / 1e6:.0f} MB)")
    return path.read_bytes()


def decode_text(path: Path) -> str:
    """The file as text: UTF-8 (with or without BOM), UTF-16 with a BOM, else GB18030 (Chinese)."""
    data = _read_bytes(path)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if b"\x00" in data[:8192]:
        raise DocumentError("binary file, not a document")
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DocumentError("not UTF-8 or GB18030 text")


def _clean(text: str) -> str:
    """Text with NULs and trailing spaces gone, runs of blank lines folded to one."""
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:120] if text else type(exc).__name__
