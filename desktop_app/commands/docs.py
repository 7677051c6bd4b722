"""``paperclip docs add|list|show|remove|sync``: private documents, cited as ``[doc: name, p. N]``.

``add`` takes files and folders (recursively); each file gets one line, failures included,
and the batch goes on. Documents go to the library (every session sees them) unless
``--session NAME`` attaches them to one session. ``remove`` asks first, as ``memory forget``
does (``--yes`` skips it), and leaves none of the document's words in the database file.

Names and text come from files the user did not write: what reaches the terminal passes
:func:`~desktop_app.memory.core.safe_text.visible` (no escape sequences; bidi and zero-width
characters written out). ``--json`` carries the verbatim text.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime

from desktop_app.memory.core.safe_text import visible, visible_line

ACTIONS = {
    "add": "add files or folders (PDF, DOCX, Markdown, text, HTML, source code)",
    "list": "the documents this session sees (the library and its own)",
    "show": "a document's stored text (a page with --page N), to check a citation",
    "remove": "delete a document with its chunks, index rows and vectors",
    "sync": "re-index documents whose file changed",
}


def register(subparsers):
    parser = subparsers.add_parser("docs", help="add, list, show, remove and sync private documents")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    parsers = [parser]
    for name, help_text in ACTIONS.items():
        sub = actions.add_parser(name, help=help_text)
        if name == "add":
            sub.add_argument("paths", nargs="+", metavar="PATH")
            sub.add_argument("--no-vectors", dest="no_vectors", action="store_true",
                             help="full text only: skip the embedding model")
        elif name in ("show", "remove"):
            sub.add_argument("name", metavar="NAME")
        if name == "show":
            sub.add_argument("--page", type=int, default=None, help="only this page")
        if name == "remove":
            sub.add_argument("--yes", action="store_true", help="remove without asking (for scripts)")
        if name == "sync":
            sub.add_argument("--no-vectors", dest="no_vectors", action="store_true")
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        sub.set_defaults(func=run)
        parsers.append(sub)
    return parsers


def run(args, settings) -> int:
    from desktop_app.commands.common import open_store

    with open_store(settings) as store:
        return {"add": _add, "list": _list, "show": _show, "remove": _remove, "sync": _sync}[args.action](
            store, args, settings)


def _scope(store, args):
    """The session named by ``--session`` (its documents), else None (the library)."""
    from desktop_app.commands.common import CommandError
    from desktop_app.memory.store.sessions import SessionNotFound

    name = getattr(args, "session", None)
    if not name:
        return None
    try:
        return store.session_named(name, create=args.action == "add")
    except SessionNotFound as exc:
        raise CommandError(str(exc)) from None


def _progress(state, outcome) -> None:
    if sys.stderr.isatty():
        print(f"\r\033[K[{state.files_done}/{state.files_total} files] {state.pages} pages, {state.chunks} chunks"
              f" — {visible_line(state.current)}", end="", file=sys.stderr, flush=True)
    elif outcome is not None:
        print(f"[{state.files_done}/{state.files_total}] {visible_line(state.current)}", file=sys.stderr, flush=True)


def _counter():
    from desktop_app.engine.tokens import fallback_counter

    return fallback_counter()


def _report(report, args, started: float) -> int:
    from desktop_app.commands.common import print_json

    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)
    if args.json:
        print_json({"files": [o.model_dump() for o in report.outcomes], "cancelled": report.cancelled})
    else:
        for outcome in report.outcomes:
            print(visible_line(outcome.line()), file=sys.stdout if outcome.status != "failed" else sys.stderr)
        done = report.count("added") + report.count("updated")
        pages = sum(o.pages for o in report.outcomes)
        chunks = sum(o.chunks for o in report.outcomes)
        tail = " (cancelled)" if report.cancelled else ""
        print(f"{done} indexed, {len(report.failed)} failed, {pages} pages, {chunks} chunks in "
              f"{time.perf_counter() - started:.1f} s{tail}", file=sys.stderr)
    if report.cancelled:
        return 130
    return 1 if report.failed else 0


def _embed(store, settings, args) -> None:
    """Vectors for the new chunks (quietly skipped without sqlite-vec or the embedding model)."""
    if getattr(args, "no_vectors", False) or not store.vec_enabled or not store.count_pending_chunk_embeddings():
        return
    from desktop_app.commands.recall import load_optional_embedder
    from desktop_app.memory.documents.vectors import embed_pending_chunks

    embedder = load_optional_embedder(settings, log=lambda line: print(line, file=sys.stderr))
    if embedder is None:
        return
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\r\033[Kvectors: {done}/{total}", end="", file=sys.stderr, flush=True)

    done = embed_pending_chunks(store, embedder, progress=progress)
    end = "\r\033[K" if sys.stderr.isatty() else ""
    print(f"{end}vectors: {done} chunks in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def _add(store, args, settings) -> int:
    from desktop_app.memory.documents.ingest import IngestReport, add_documents

    session = _scope(store, args)
    started = time.perf_counter()
    report = IngestReport()
    try:
        report = add_documents(store, args.paths, session_id=session.id if session else None, counter=_counter(),
                               progress=None if args.json else _progress)
    except KeyboardInterrupt:  # the file being read is not stored; those before it are
        report.cancelled = True
    code = _report(report, args, started)
    if not report.cancelled:
        _embed(store, settings, args)
    return code


def _sync(store, args, settings) -> int:
    from desktop_app.memory.documents.ingest import IngestReport, sync_documents

    session = _scope(store, args)
    started = time.perf_counter()
    report = IngestReport()
    try:
        report = sync_documents(store, session_id=session.id if session else None, counter=_counter(),
                                progress=None if args.json else _progress)
    except KeyboardInterrupt:
        report.cancelled = True
    code = _report(report, args, started)
    if not report.cancelled:
        _embed(store, settings, args)
    return code


def _size(size: int) -> str:
    n = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def _list(store, args, settings) -> int:
    from desktop_app.commands.common import print_json

    session = _scope(store, args)
    documents = store.list_documents(session.id if session else None)
    if args.json:
        print_json([d.model_dump() | {"scope": d.scope} for d in documents])
        return 0
    if not documents:
        print("no documents yet: `paperclip docs add PATH…`", file=sys.stderr)
        return 0
    print(f"{'NAME':<28} {'FORMAT':<8} {'PAGES':>5} {'CHUNKS':>6} {'SIZE':>9}  {'LANG':<7} {'SCOPE':<8} ADDED")
    for d in documents:
        added = datetime.fromtimestamp(d.added_at).strftime("%Y-%m-%d %H:%M")
        print(f"{visible_line(d.name)[:28]:<28} {d.format:<8} {d.pages or '-':>5} {d.chunk_count:>6} {_size(d.size):>9}  "
              f"{d.language or '?':<7} {d.scope:<8} {added}")
    return 0


def _one(store, args):
    from desktop_app.commands.common import CommandError
    from desktop_app.memory.documents.retrieval import DocumentNotFound, find_documents

    session = _scope(store, args)
    try:
        return find_documents(store, session.id if session else None, [args.name])[0]
    except DocumentNotFound as exc:
        raise CommandError(visible_line(str(exc))) from None


def _show(store, args, settings) -> int:
    from desktop_app.commands.common import CommandError, print_json

    document = _one(store, args)
    name = visible_line(document.name)
    if args.page is not None and not document.pages:
        raise CommandError(f"{name} is a {document.format} file: it has no pages (omit --page)")
    if args.page is not None and not 1 <= args.page <= document.pages:
        raise CommandError(f"{name} has pages 1–{document.pages}; there is no page {args.page}")
    sections = store.document_sections(document.id, page=args.page)
    if args.json:
        print_json({"document": document.model_dump(), "sections": [s.model_dump() for s in sections]})
        return 0
    where = f", p. {args.page}" if args.page is not None else ""
    print(visible_line(f"[doc: {document.name}{where}] {document.path}"), file=sys.stderr)
    if not sections:
        print("(no text layer on this page)", file=sys.stderr)
    for section in sections:
        if section.heading:
            print(visible_line(f"§ {section.heading}")
                  + (f"  (p. {section.page})" if section.page and args.page is None else ""))
        print(visible(section.text))
        print()
    return 0


def _remove(store, args, settings) -> int:
    """Say what will go, ask once (``--yes`` skips it, as ``memory forget``), then delete."""
    from desktop_app.commands.common import CommandError, print_json

    document = _one(store, args)
    name = visible_line(document.name)
    if not args.yes:
        if not sys.stdin.isatty():
            raise CommandError("nothing removed: add --yes to remove without asking")
        pages = f"{document.pages} pages, " if document.pages else ""
        answer = input(f"Remove {name} ({pages}{document.chunk_count} chunks) and every copy of its text? [y/N] ")
        if answer.strip().lower() not in ("y", "yes", "是"):
            raise CommandError("nothing removed")
    chunks = store.delete_document(document.id)
    if args.json:
        print_json({"removed": document.model_dump(), "chunks": chunks})
    else:
        print(f"removed {name}: {chunks} chunks, their index rows and vectors")
    return 0
