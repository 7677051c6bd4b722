"""What every format's reader shares: the section it yields, the one-line error it raises, and
the limits that stop a hostile file.

A file can be small on disk and endless once read: a DOCX whose parts unzip to gigabytes, a PDF
stream that inflates a thousandfold or a page tree that names one page a million times, XML
entities that expand exponentially, markup nested a million deep. Each reader checks the limits
below while it reads, before the work they bound is done, and stops the file with a
:class:`LimitExceeded` whose text is the one line the user reads (``name: skipped — …``); the
batch goes on with the next file. What a reader cannot bound from the inside (a PDF library's own
decoding) runs in a child process with a memory ceiling and a wall-clock limit
(:mod:`desktop_app.memory.documents.isolation`).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

MB = 1024 * 1024


class DocumentError(Exception):
    """A file that cannot be read as a document; ``str()`` is the one-line reason."""


class LimitExceeded(DocumentError):
    """A file over one of the :class:`ReadLimits`: skipped, the batch goes on."""

    def __init__(self, what: str) -> None:
        super().__init__(f"skipped — {what}")
        self.what = what


@dataclass(frozen=True)
class Section:
    """A run of text under one heading on one page (``page`` None: the format has no pages)."""

    text: str
    page: int | None = None
    heading: str | None = None


@dataclass(frozen=True)
class ReadLimits:
    """How much one file may cost. The defaults pass any ordinary document (a 2,000-page PDF
    manual, a 500-page Word book, a 10 MB HTML page) and keep one file under about 300 MB of
    memory and two minutes; tests set them low to make a small hostile file trip them."""

    seconds: float = 120.0  # wall time to read one file, parsing and chunking
    memory_mb: int = 300  # the reader process (PDF, DOCX), above what it has with its libraries loaded
    text_file_mb: int = 16  # a text, Markdown, code or HTML file on disk
    file_mb: int = 1024  # a PDF or DOCX file on disk
    members: int = 2_000  # parts in a DOCX (a zip archive)
    inflated_mb: int = 256  # the DOCX parts read (document, styles, relationships) together, unzipped
    part_mb: int = 128  # one part of a DOCX, unzipped
    stream_mb: int = 64  # a PDF page's content, inflated
    pages: int = 10_000  # PDF pages
    page_objects: int = 100_000  # glyphs, lines and images on one PDF page
    elements: int = 2_000_000  # XML or HTML elements in one file
    depth: int = 256  # how deep XML or HTML elements nest
    text_chars: int = 20_000_000  # text taken from one file (held in memory while it is chunked)


DEFAULT_LIMITS = ReadLimits()


class Deadline:
    """The wall-clock end of reading one file; readers call :meth:`check` between bounded steps."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def check(self) -> None:
        if time.monotonic() > self.ends:
            raise LimitExceeded(f"still reading after {self.seconds:g} s (limit)")


def size_text(n: float) -> str:
    return f"{n / MB:,.0f} MB" if n >= MB else f"{n / 1024:,.0f} KB" if n >= 1024 else f"{n:,.0f} bytes"


def clean(text: str) -> str:
    """Text with NULs and trailing spaces gone, runs of blank lines folded to one."""
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:120] if text else type(exc).__name__
