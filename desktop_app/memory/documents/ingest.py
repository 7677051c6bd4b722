"""Adding files to the document store: collect, hash, parse, chunk, store — one file at a time.

Each file is parsed page by page into chunks held in memory (text only: a 500-page PDF is a
few megabytes), then written in one short transaction, so a cancel or a failure between
files, or inside one, leaves the database exactly as it was before that file. Parsing runs in a
child process under :class:`~desktop_app.memory.documents.reading.ReadLimits` (time, memory,
pages, unzipped size, nesting, text); a file over one is a failed outcome, ``skipped — …``, and
the batch goes on. Only regular files are read: a FIFO or a device is reported, never opened. A file whose
bytes are already stored (same sha256 in the same scope) is not added twice; ``sync``
re-reads files whose size, time or hash changed. Vectors are made afterwards, in batches
(:func:`desktop_app.memory.documents.vectors.embed_pending_chunks`).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat as stat_kinds
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from desktop_app.lexicon import EAST_ASIAN
from desktop_app.memory.documents.chunking import MAX_CHUNK_TOKENS, OVERLAP_TOKENS, chunk_sections
from desktop_app.memory.documents.parsers import (
    DEFAULT_LIMITS,
    SUPPORTED,
    DocumentError,
    LimitExceeded,
    ReadLimits,
    document_format,
    parse_document,
)

if TYPE_CHECKING:
    from desktop_app.engine.protocol import TokenCounter
    from desktop_app.memory.core.documents import Document
    from desktop_app.memory.store import Store

Status = Literal["added", "updated", "unchanged", "duplicate", "failed", "missing"]
_CJK = re.compile(f"[{EAST_ASIAN}]")
_LATIN = re.compile(r"[A-Za-z]")


class IngestCancelled(Exception):
    """The user cancelled; the file being read was not stored."""


class FileOutcome(BaseModel):
    """What happened to one file; ``line()`` is the one line a user reads."""

    path: str
    status: Status
    name: str | None = None
    reason: str = ""
    pages: int = 0
    chunks: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        """One line, the file's name first (the caller makes it safe for a terminal)."""
        shown = Path(self.path).name
        if self.status == "failed":
            return f"{shown}: {self.reason}"
        if self.status in ("added", "updated"):
            pages = f"{self.pages} pages, " if self.pages else ""
            extra = f" ({self.reason})" if self.reason else ""
            return f"{shown}: {self.status} as {self.name} — {pages}{self.chunks} chunks{extra}"
        return f"{shown}: {self.reason}"


@dataclass
class IngestProgress:
    """Where a batch stands (files, pages, chunks), for a progress bar."""

    files_total: int = 0
    files_done: int = 0
    pages: int = 0
    chunks: int = 0
    current: str = ""


@dataclass
class IngestReport:
    outcomes: list[FileOutcome] = field(default_factory=list)
    cancelled: bool = False

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)


OnProgress = Callable[[IngestProgress, FileOutcome | None], None]  # (where the batch stands, the file just done)


def shown_path(path: Path | str) -> str:
    """``path`` as text that can be stored and printed: a name that is not valid UTF-8 (its bytes
    were kept as surrogates) shows ``\\xNN`` for each byte that is not."""
    return os.fsencode(path).decode("utf-8", errors="backslashreplace")


def _not_a_file(mode: int) -> str:
    kind = ("a named pipe (FIFO)" if stat_kinds.S_ISFIFO(mode) else "a character device" if stat_kinds.S_ISCHR(mode)
            else "a block device" if stat_kinds.S_ISBLK(mode) else "a socket" if stat_kinds.S_ISSOCK(mode)
            else "a folder" if stat_kinds.S_ISDIR(mode) else "an unknown kind")
    return f"not a regular file ({kind})"


def _check_path(path: Path) -> str | None:
    """Why ``path`` (a file found or named) cannot be added, or None. Looks at the name and the
    kind of file only: a FIFO or a device is never opened (reading one would block or never end)."""
    if shown_path(path) != str(path):
        if shown_path(path.name) != path.name:
            return "skipped — its name is not valid UTF-8 (rename the file to add it)"
        return "skipped — the name of a folder above it is not valid UTF-8 (rename the folder to add it)"
    try:
        mode = path.stat().st_mode  # through a symlink: /dev/zero behind a link is still a device
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    return None if stat_kinds.S_ISREG(mode) else _not_a_file(mode)


def collect_files(paths: Iterable[Path | str]) -> tuple[list[Path], list[FileOutcome]]:
    """Files named, and supported files under folders named (recursively, hidden ones skipped);
    paths that do not exist, that are not regular files (a FIFO, a device, a socket) or whose
    names are not valid UTF-8 come back as failures."""
    files: list[Path] = []
    failures: list[FileOutcome] = []

    def take(path: Path) -> None:
        reason = _check_path(path)
        if reason is None:
            files.append(path)
        else:
            failures.append(FileOutcome(path=shown_path(path), status="failed", reason=reason))

    for raw in paths:
        path = Path(raw).expanduser()
        try:
            mode = path.stat().st_mode
        except OSError:
            if path.is_symlink():
                failures.append(FileOutcome(path=shown_path(path), status="failed",
                                            reason="a broken symbolic link (its target does not exist)"))
            else:
                failures.append(FileOutcome(path=shown_path(path), status="failed", reason="no such file or folder"))
            continue
        if stat_kinds.S_ISDIR(mode):
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(names):
                    candidate = Path(root) / name
                    if not name.startswith(".") and candidate.suffix.lower() in SUPPORTED and candidate.suffix:
                        take(candidate)
        else:
            take(path)
    return list(dict.fromkeys(p.resolve() for p in files)), failures


class NotARegularFile(OSError):
    """The path names a FIFO, a device or a socket."""


def file_hash(path: Path) -> str:
    """sha256 of the file's bytes. Opened without blocking and checked to be a regular file, so a
    file swapped for a FIFO since it was found cannot hang the batch."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat_kinds.S_ISREG(mode):
            raise NotARegularFile(_not_a_file(mode))
        digest = hashlib.sha256()
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def detect_language(text: str) -> str:
    """``zh`` when CJK characters dominate the letters, ``en`` otherwise (``mixed`` in between)."""
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN.findall(text)) / 4  # about four Latin letters per word, one CJK character per word
    if cjk + latin == 0:
        return "unknown"
    share = cjk / (cjk + latin)
    return "zh" if share > 0.6 else "en" if share < 0.2 else "mixed"


@dataclass
class ParsedFile:
    sections: list[dict[str, Any]]
    chunks: list[dict[str, Any]]
    pages: int
    empty_pages: int
    language: str


def parse_and_chunk(path: Path, fmt: str, counter: TokenCounter, *, should_stop: Callable[[], bool] | None = None,
                    on_page: Callable[[int, int], None] | None = None, max_tokens: int = MAX_CHUNK_TOKENS,
                    overlap_tokens: int = OVERLAP_TOKENS, limits: ReadLimits = DEFAULT_LIMITS) -> ParsedFile:
    """Read ``path`` into storable sections and chunks; checks ``should_stop`` between sections,
    and the time and text limits (``limits``), which hold for parsing and chunking together."""
    sections: list[dict[str, Any]] = []
    chunks: list[dict[str, Any]] = []
    pages_seen: set[int] = set()
    text_pages: set[int] = set()
    sample: list[str] = []
    ends = time.monotonic() + limits.seconds
    taken = 0
    for section, section_chunks in chunk_sections(parse_document(path, fmt, limits), counter, max_tokens=max_tokens,
                                                  overlap_tokens=overlap_tokens):
        if should_stop is not None and should_stop():
            raise IngestCancelled(path.name)
        if time.monotonic() > ends:
            raise LimitExceeded(f"still reading after {limits.seconds:g} s (limit)")
        taken += len(section.text)
        if taken > limits.text_chars:
            raise LimitExceeded(f"more than {limits.text_chars:,} characters of text (limit)")
        if section.page is not None:
            new_page = section.page not in pages_seen
            pages_seen.add(section.page)
            if section.text:
                text_pages.add(section.page)
            if new_page and on_page is not None:
                on_page(len(pages_seen), len(chunks) + len(section_chunks))
        if not section.text:
            continue
        seq = len(sections)
        sections.append({"seq": seq, "page": section.page, "heading": section.heading, "text": section.text})
        if sum(len(s) for s in sample) < 20_000:
            sample.append(section.text[:2000])
        for chunk in section_chunks:
            chunks.append({"seq": len(chunks), "section": seq, "page": chunk.page, "heading": chunk.heading,
                           "char_start": chunk.char_start, "char_end": chunk.char_end, "tokens": chunk.tokens,
                           "text": chunk.text})
    return ParsedFile(sections=sections, chunks=chunks, pages=len(pages_seen), empty_pages=len(pages_seen - text_pages),
                      language=detect_language("\n".join(sample)))


def _free_name(store: Store, stem: str, session_id: int | None) -> str:
    base = " ".join(stem.split()) or "document"
    name, n = base, 1
    while store.document_name_taken(name, session_id):
        n += 1
        name = f"{base}-{n}"
    return name


def ingest_file(store: Store, path: Path, *, session_id: int | None, counter: TokenCounter,
                should_stop: Callable[[], bool] | None = None, on_page: Callable[[int, int], None] | None = None,
                replace: Document | None = None,
                limits: ReadLimits = DEFAULT_LIMITS) -> FileOutcome:
    """Add (or, with ``replace``, re-index) one file; a failure is an outcome, never an exception
    (except :class:`IngestCancelled`)."""
    started = time.perf_counter()
    path = path.resolve()
    fmt = document_format(path)
    if fmt is None:
        return FileOutcome(path=shown_path(path), status="failed",
                           reason=f"unsupported file type {shown_path(path.suffix) or '(none)'!r}")
    reason = _check_path(path)
    if reason is not None:
        return FileOutcome(path=shown_path(path), status="failed", reason=reason)
    try:
        content_hash = file_hash(path)
        stat = path.stat()
    except NotARegularFile as exc:
        return FileOutcome(path=str(path), status="failed", reason=str(exc))
    except OSError as exc:
        return FileOutcome(path=str(path), status="failed", reason=f"cannot be read ({exc.strerror})")
    same = store.document_with_hash(content_hash, session_id)
    if same is not None and replace is not None and same.id != replace.id:
        return FileOutcome(path=str(path), status="failed", name=replace.name,
                           reason=f"now holds the same text as {same.name}; remove one of them")
    if same is not None:
        unchanged = replace is not None or same.path == str(path)
        if unchanged and same.mtime != stat.st_mtime:
            store.touch_document(same.id, path=str(path), mtime=stat.st_mtime)
        reason = "unchanged" if unchanged else f"already added as {same.name} (same content)"
        return FileOutcome(path=str(path), status="unchanged" if unchanged else "duplicate", name=same.name,
                           reason=reason)
    if replace is None:
        replace = store.document_at_path(str(path), session_id)  # the same file, changed: re-index it
    try:
        parsed = parse_and_chunk(path, fmt, counter, should_stop=should_stop, on_page=on_page, limits=limits)
    except DocumentError as exc:
        return FileOutcome(path=str(path), status="failed", reason=str(exc))
    except (OSError, MemoryError, RecursionError) as exc:
        return FileOutcome(path=str(path), status="failed", reason=f"cannot be read ({type(exc).__name__})")
    if not parsed.chunks:
        if fmt == "pdf" and parsed.pages:
            reason = "scanned pages without a text layer — 0 chunks"
        else:
            reason = "no text found — 0 chunks"
        return FileOutcome(path=str(path), status="failed", reason=reason, pages=parsed.pages)
    name = replace.name if replace is not None else _free_name(store, path.stem, session_id)
    fields = {"name": name, "path": str(path), "content_hash": content_hash, "size": stat.st_size,
              "mtime": stat.st_mtime, "format": fmt, "pages": parsed.pages if fmt == "pdf" else 0,
              "language": parsed.language, "session_id": session_id}
    store.save_document(fields, parsed.sections, parsed.chunks, replace_id=replace.id if replace else None)
    note = f"{parsed.empty_pages} of {parsed.pages} pages without a text layer" if parsed.empty_pages else ""
    return FileOutcome(path=str(path), status="updated" if replace else "added", name=name, reason=note,
                       pages=parsed.pages if fmt == "pdf" else 0, chunks=len(parsed.chunks),
                       seconds=round(time.perf_counter() - started, 3))


def add_documents(store: Store, paths: Iterable[Path | str], *, session_id: int | None, counter: TokenCounter,
                  should_stop: Callable[[], bool] | None = None,
                  progress: OnProgress | None = None, limits: ReadLimits = DEFAULT_LIMITS) -> IngestReport:
    """Add files and folders; each file is all-or-nothing, the batch goes on after a failure
    (a file over one of ``limits`` included)."""
    files, failures = collect_files(paths)
    report = IngestReport(outcomes=list(failures))
    return _run(store, [(f, None) for f in files], report, session_id=session_id, counter=counter,
                should_stop=should_stop, progress=progress, limits=limits)


def sync_documents(store: Store, *, session_id: int | None = None, counter: TokenCounter,
                   should_stop: Callable[[], bool] | None = None, progress: OnProgress | None = None,
                   documents: Iterable[Document] | None = None, limits: ReadLimits = DEFAULT_LIMITS) -> IngestReport:
    """Re-index the documents whose file changed (size, time, then hash); missing files are reported."""
    documents = store.list_documents(session_id) if documents is None else documents
    report = IngestReport()
    todo: list[tuple[Path, Document | None]] = []
    for document in documents:
        path = Path(document.path)
        try:
            stat = path.stat()
        except OSError:
            report.outcomes.append(FileOutcome(path=document.path, status="missing", name=document.name,
                                               reason=f"{document.name}: the file is gone (kept; `docs remove` drops it)"))
            continue
        if stat.st_size == document.size and stat.st_mtime == document.mtime:
            report.outcomes.append(FileOutcome(path=document.path, status="unchanged", name=document.name,
                                               reason="unchanged"))
            continue
        todo.append((path, document))
    return _run(store, todo, report, session_id=session_id, counter=counter, should_stop=should_stop,
                progress=progress, scoped=False, limits=limits)


def _run(store: Store, todo: list[tuple[Path, Document | None]], report: IngestReport, *, session_id: int | None,
         counter: TokenCounter, should_stop: Callable[[], bool] | None, progress: OnProgress | None,
         scoped: bool = True, limits: ReadLimits = DEFAULT_LIMITS) -> IngestReport:
    state = IngestProgress(files_total=len(todo) + len(report.outcomes), files_done=len(report.outcomes))
    for path, replace in todo:
        if should_stop is not None and should_stop():
            report.cancelled = True
            break
        state.current = Path(path).name
        base_pages, base_chunks = state.pages, state.chunks

        def on_page(pages: int, chunks: int, base_pages: int = base_pages, base_chunks: int = base_chunks) -> None:
            state.pages, state.chunks = base_pages + pages, base_chunks + chunks
            if progress is not None:
                progress(state, None)

        scope = session_id if scoped or replace is None else replace.session_id
        try:
            outcome = ingest_file(store, Path(path), session_id=scope, counter=counter, should_stop=should_stop,
                                  on_page=on_page, replace=replace, limits=limits)
        except IngestCancelled:
            report.cancelled = True
            state.pages, state.chunks = base_pages, base_chunks
            break
        report.outcomes.append(outcome)
        state.files_done += 1
        state.pages = base_pages + outcome.pages
        state.chunks = base_chunks + outcome.chunks
        if progress is not None:
            progress(state, outcome)
    return report
