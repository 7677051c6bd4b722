"""A PDF's text, page by page: pypdf (BSD) for its structure (encryption, page count, the
outline's headings) and pdfminer.six (MIT) for its text layer, with word spacing.

pypdf runs under its own safety configuration, with the page tree bounded by our page limit.
pdfminer has no limits of its own: before a page is laid out, its content streams are inflated
into a counter (not into memory) against the stream limit, and the layout device counts the
glyphs, paths and images it is handed against the per-page limit. What is left (a font or an
object stream that inflates without end) meets the reader process's memory ceiling
(:mod:`desktop_app.memory.documents.isolation`).
"""

from __future__ import annotations

import logging
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from desktop_app.memory.documents.reading import (
    MB,
    Deadline,
    DocumentError,
    LimitExceeded,
    ReadLimits,
    Section,
    clean,
    first_line,
    size_text,
)


def read_pdf(path: Path, limits: ReadLimits, deadline: Deadline) -> Iterator[Section]:
    """One section per page and outline heading; a page without a text layer yields one empty
    section (so the caller can count scanned pages)."""
    from pypdf import PdfReader, apply_configuration
    from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError, PdfReadError, PdfStreamError

    for name in ("pypdf", "pdfminer"):  # font and layout notes about one page: not the user's concern
        logging.getLogger(name).setLevel(logging.ERROR)
    size = path.stat().st_size
    if size > limits.file_mb * MB:
        raise LimitExceeded(f"a {size_text(size)} PDF (limit {limits.file_mb:,} MB)")
    # The page tree's nodes (pages and the /Pages nodes above them) are bounded with the pages.
    with path.open("rb") as handle, apply_configuration(page_tree_maximum_entries=2 * limits.pages + 64):
        try:
            reader = PdfReader(handle)
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
        except LimitReachedError as exc:
            if "page tree" in str(exc):
                raise LimitExceeded(f"more than {limits.pages:,} pages (limit)") from None
            raise LimitExceeded(f"a structure over the PDF reader's safety limits ({first_line(exc)})") from None
        except (PdfReadError, PdfStreamError, ValueError, KeyError, TypeError, OSError) as exc:
            raise DocumentError(f"not a readable PDF ({first_line(exc)})") from None
        if count > limits.pages:
            raise LimitExceeded(f"{count:,} pages (limit {limits.pages:,})")
        with path.open("rb") as layout_handle:  # pdfminer reads on from where it left: a handle of its own
            yield from _sections(_page_texts(layout_handle, reader, count, limits, deadline), headings)


def _sections(texts: Iterator[str], headings: dict[int, list[str]]) -> Iterator[Section]:
    current: str | None = None  # the outline heading in force (it carries over to later pages)
    for index, text in enumerate(texts):
        text = clean(text)
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


def _page_texts(handle: BinaryIO, reader: Any, count: int, limits: ReadLimits, deadline: Deadline) -> Iterator[str]:
    """Each page's text layer, one page at a time. pdfminer.six lays characters out into words
    and text boxes (paragraphs, separated by blank lines); pypdf drops the spaces of many
    TeX-made PDFs ("theyinstallyourpackage"), so it only reads a page pdfminer cannot."""
    from pdfminer.layout import LTTextContainer

    layouts = _layouts(handle, limits, deadline, start=0)
    for index in range(count):
        deadline.check()
        try:
            layout = next(layouts)
            boxes = [" ".join(line.strip() for line in box.get_text().splitlines() if line.strip())
                     if not _is_code_box(box) else box.get_text().rstrip()
                     for box in layout if isinstance(box, LTTextContainer)]
            yield "\n\n".join(b for b in boxes if b)
        except StopIteration:
            return
        except (LimitExceeded, MemoryError, RecursionError):
            raise
        except Exception:  # one page pdfminer cannot lay out: pypdf's text, else the page is skipped
            layouts = _layouts(handle, limits, deadline, start=index + 1)
            try:
                yield reader.pages[index].extract_text() or ""
            except (LimitExceeded, MemoryError, RecursionError):
                raise
            except Exception as exc:
                raise DocumentError(f"page {index + 1} cannot be read ({first_line(exc)})") from None


def _layouts(handle: BinaryIO, limits: ReadLimits, deadline: Deadline, *, start: int) -> Iterator[Any]:
    """pdfminer's page layouts from page ``start`` on (pages before it are skipped, not laid out)."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LAParams
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    class CountingAggregator(PDFPageAggregator):
        """pdfminer's layout device, counting what one page hands it."""

        objects = 0

        def begin_page(self, page: Any, ctm: Any) -> None:
            self.objects = 0
            super().begin_page(page, ctm)

        def _one_more(self) -> None:
            self.objects += 1
            if self.objects > limits.page_objects:
                raise LimitExceeded(f"more than {limits.page_objects:,} glyphs or shapes on page {self.pageno} "
                                    "(limit)")
            if self.objects % 4096 == 0:
                deadline.check()

        def render_char(self, *args: Any, **kwargs: Any) -> float:
            self._one_more()
            return float(super().render_char(*args, **kwargs))

        def paint_path(self, *args: Any, **kwargs: Any) -> None:
            self._one_more()
            super().paint_path(*args, **kwargs)

        def render_image(self, *args: Any, **kwargs: Any) -> None:
            self._one_more()
            super().render_image(*args, **kwargs)

    manager = PDFResourceManager(caching=True)
    device = CountingAggregator(manager, laparams=LAParams(), pageno=start + 1)
    interpreter = PDFPageInterpreter(manager, device)
    handle.seek(0)
    for number, page in enumerate(PDFPage.get_pages(handle, password="")):
        if number < start:
            continue
        deadline.check()
        _check_contents(page, number + 1, limits)
        interpreter.process_page(page)
        yield device.get_result()


def _check_contents(page: Any, number: int, limits: ReadLimits) -> None:
    """Refuse a page whose content streams inflate past the stream limit, before pdfminer
    inflates them into memory (counted a megabyte at a time here)."""
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE, PDFStream, resolve1

    cap = limits.stream_mb * MB
    total = 0
    for item in page.contents:
        stream = resolve1(item)
        if not isinstance(stream, PDFStream):
            continue
        if stream.data is not None:  # already inflated for an earlier page
            total += len(stream.data)
        elif stream.rawdata is not None:
            filters = [f for f, _ in stream.get_filters()]
            total += _inflated_size(stream.rawdata, cap - total) if filters[:1] and filters[0] in LITERALS_FLATE_DECODE \
                else len(stream.rawdata)
        if total > cap:
            raise LimitExceeded(f"page {number}'s content inflates past {limits.stream_mb} MB (limit)")


def _inflated_size(data: bytes, cap: int) -> int:
    """How many bytes ``data`` inflates to, counting no further than just past ``cap``."""
    inflater = zlib.decompressobj()
    total = 0
    try:
        while data and total <= cap:
            total += len(inflater.decompress(data, MB))
            data = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error:  # pdfminer salvages what inflates before the damage: no more than counted here
        pass
    return total


def _is_code_box(box: Any) -> bool:
    """A text box that keeps its line breaks: most lines start with a shell prompt, a comment or indentation."""
    lines = [line for line in box.get_text().splitlines() if line.strip()]
    return len(lines) >= 2 and sum(line.startswith(("$ ", "# ", "  ", "\t")) for line in lines) * 2 >= len(lines)


def _outline_headings(reader: Any) -> dict[int, list[str]]:
    """Outline (bookmark) titles by 0-based page index, in order."""
    out: dict[int, list[str]] = {}

    def walk(items: Any) -> None:
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
    except MemoryError:
        raise
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
