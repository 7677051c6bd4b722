"""``paperclip recall``, ``paperclip reindex`` and ``paperclip bookmarks``.

``recall QUERY`` prints ranked archive hits (message ids, page ids, per-signal scores, the
snippet); ``recall --queries FILE`` answers one query per line with one JSON line each,
loading the models once. ``reindex`` rebuilds every vector after the embedding model
changed. ``bookmarks`` lists, adds, edits and removes keyword bookmarks.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from desktop_app.memory.core.safe_text import plain_line


def register(subparsers):
    recall = subparsers.add_parser("recall", help="search the archive: hybrid BM25 + vectors + bookmarks")
    recall.add_argument("query", nargs="?", help="what to look for")
    recall.add_argument("--queries", type=Path, default=None, help="file with one query per line (JSON Lines out)")
    recall.add_argument("--k", type=int, default=5, help="hits per query (default 5)")
    recall.add_argument("--signals", default="bm25,vector,bookmark", help="comma-separated subset of the signals")
    recall.add_argument("--float", dest="quantized", action="store_false",
                        help="exact float vector search instead of the binary coarse pass")
    recall.add_argument("--no-index", dest="index", action="store_false",
                        help="do not embed turns that are still waiting for a vector first")
    recall.add_argument("--json", action="store_true", help="print JSON")
    recall.set_defaults(func=run_recall)

    reindex = subparsers.add_parser("reindex", help="rebuild all recall vectors with the embedding model")
    reindex.add_argument("--json", action="store_true")
    reindex.set_defaults(func=run_reindex)

    bookmarks = subparsers.add_parser("bookmarks", help="list, add, edit or remove keyword bookmarks")
    action = bookmarks.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = action.add_parser("list", help="bookmarks of the session")
    listing.add_argument("--json", action="store_true")
    add = action.add_parser("add", help="bookmark a message (default: the latest user message)")
    add.add_argument("keywords", help="2-4 comma-separated keywords")
    add.add_argument("--message", type=int, default=None, help="message id")
    add.add_argument("--description", default=None)
    add.add_argument("--json", action="store_true")
    edit = action.add_parser("edit", help="change a bookmark's keywords and/or description")
    edit.add_argument("id", type=int)
    edit.add_argument("--keywords", default=None, help="comma-separated keywords")
    edit.add_argument("--description", default=None)
    edit.add_argument("--json", action="store_true")
    remove = action.add_parser("remove", help="delete a bookmark")
    remove.add_argument("id", type=int)
    remove.add_argument("--json", action="store_true")
    bookmarks.set_defaults(func=run_bookmarks)
    return [recall, reindex, bookmarks, listing, add, edit, remove]


def embedder_for_recall(store, settings, *, quiet: bool):
    """The embedding model for prompt-time recall (None without vectors or the model), loaded
    the same way by a turn (`ask`) and by its preview (`context`)."""
    if not store.vec_enabled:
        return None
    return load_optional_embedder(settings, log=None if quiet else (lambda line: print(line, file=sys.stderr)))


def load_optional_embedder(settings, *, log=None):
    """The embedding model, or None (with a note) when the default one is not installed.
    An explicitly chosen ``--embed-model`` that cannot be loaded is an error."""
    from desktop_app.commands.common import CommandError
    from desktop_app.engine.embedder import EmbeddingOff, load_embedder
    from desktop_app.engine.errors import ModelLoadError

    try:
        return load_embedder(settings)
    except EmbeddingOff:
        return None
    except ModelLoadError as exc:
        if settings.embed_model is not None:
            raise CommandError(str(exc)) from None
        if log:
            log(f"note: {exc}; searching full text and bookmarks only")
        return None


def index_new_turns(store, settings, *, session_id: int | None = None, embedder=None, log=None) -> int:
    """Embed turns still waiting for a vector (what ``import``/``ask`` call after storing
    turns). Quietly does nothing without sqlite-vec or an installed embedding model."""
    from desktop_app.memory.recall import index_pending

    if not store.vec_enabled:
        return 0
    embedder = embedder or load_optional_embedder(settings)
    if embedder is None:
        return 0
    pending = store.count_pending_embeddings()
    if pending and log and pending > 200:
        log(f"embedding {pending} turns …")
    return index_pending(store, embedder, session_id=session_id)


def _hit_json(hit) -> dict:
    data = hit.model_dump()
    data["time"] = hit.time
    return data


def _read_queries(path: Path) -> list[str]:
    from desktop_app.commands.common import CommandError

    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}", 2) from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path} is not valid UTF-8 (byte {exc.start})", 2) from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def run_recall(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, print_json, resolve_session
    from desktop_app.memory.core.recall_hits import SIGNALS
    from desktop_app.memory.recall import search

    if (args.query is None) == (args.queries is None):
        raise CommandError("give a QUERY or --queries FILE (one of them)", 2)
    if args.k < 1:
        raise CommandError("--k must be at least 1", 2)
    signals = tuple(s.strip() for s in args.signals.split(",") if s.strip())
    if not signals or any(s not in SIGNALS for s in signals):
        raise CommandError(f"--signals takes a comma-separated subset of {', '.join(SIGNALS)}", 2)
    queries = _read_queries(args.queries) if args.queries is not None else [args.query]

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    with open_store(settings) as store:
        session = resolve_session(store, args, create=False)
        embedder = load_optional_embedder(settings, log=log) if "vector" in signals else None
        if embedder is not None and args.index:
            index_new_turns(store, settings, session_id=session.id, embedder=embedder, log=log)
        for query in queries:
            started = time.perf_counter()
            hits = search(store, session.id, query, k=args.k, embedder=embedder, signals=signals,
                          quantized=args.quantized)
            elapsed_ms = 1000 * (time.perf_counter() - started)
            if args.queries is not None:
                print(json.dumps({"query": query, "session": session.name, "hits": [_hit_json(h) for h in hits],
                                  "ms": round(elapsed_ms, 2)}, ensure_ascii=False, default=str), flush=True)
            elif args.json:
                print_json({"query": query, "session": session.name, "k": args.k, "vectors": embedder is not None,
                            "ms": round(elapsed_ms, 2), "hits": [_hit_json(h) for h in hits]})
            else:
                _print_hits(query, hits)
    return 0


def _print_hits(query: str, hits) -> None:
    if not hits:
        print(plain_line(f"nothing recalled for {query!r}"))
        return
    for rank, hit in enumerate(hits, start=1):
        via = ", ".join(f"{name} #{s.rank}" for name, s in hit.signals.items()) or "context"
        ident = f"msg {hit.message_id}" + (f" ({hit.ext_id})" if hit.ext_id else "")
        print(plain_line(f"{rank}. [{hit.label}] {ident} score {hit.score:.3f} via {via}"))
        print(plain_line(f"   {hit.role}: {hit.snippet}"))


def run_reindex(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, print_json
    from desktop_app.engine.embedder import load_embedder
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.memory.documents.vectors import embed_pending_chunks
    from desktop_app.memory.recall import reindex
    from desktop_app.memory.recall.indexing import VectorsUnavailable

    try:
        embedder = load_embedder(settings)
    except ModelLoadError as exc:
        raise CommandError(str(exc)) from None
    with open_store(settings) as store:
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            if not args.json and total > 500:
                print(f"\r{done}/{total} turns", end="", file=sys.stderr, flush=True)

        try:
            count = reindex(store, embedder, progress=progress)
        except VectorsUnavailable as exc:
            raise CommandError(str(exc)) from None
        # Document chunks made by another model are re-embedded too (nothing to do when current).
        chunks = embed_pending_chunks(store, embedder)
        elapsed = time.perf_counter() - started
    rate = count / elapsed if elapsed > 0 else 0.0
    if args.json:
        print_json({"embedded": count, "chunks": chunks, "seconds": round(elapsed, 2), "turns_per_s": round(rate, 1),
                    "embed_model": embedder.model_id, "dim": embedder.dim})
    else:
        also = f" and {chunks} document chunks" if chunks else ""
        print(f"\rre-indexed {count} turns{also} with {embedder.model_name} ({embedder.dim} dims) "
              f"in {elapsed:.1f}s ({rate:.0f} turns/s)", file=sys.stdout)
    return 0


def _keywords(raw: str) -> list[str]:
    from desktop_app.commands.common import CommandError

    words = [w.strip() for w in raw.replace("，", ",").split(",") if w.strip()]
    if not 1 <= len(words) <= 4:
        raise CommandError("give 1-4 comma-separated keywords", 2)
    return words


def run_bookmarks(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, print_json, resolve_session
    from desktop_app.memory.lang.text import clip

    with open_store(settings) as store:
        session = resolve_session(store, args, create=False)
        if args.action == "list":
            marks = store.list_bookmarks(session.id)
            if args.json:
                print_json([m.model_dump() for m in marks])
            for mark in [] if args.json else marks:
                target = f"page {mark.page_id}" if mark.message_id is None else f"msg {mark.message_id}"
                print(plain_line(f"#{mark.id} [{mark.origin}] {', '.join(mark.keywords)} — {mark.description} ({target})"))
            return 0
        if args.action == "add":
            if args.message is not None:
                try:
                    message = store.get_message(args.message)
                except LookupError:
                    raise CommandError(f"no message with id {args.message}") from None
                if message.session_id != session.id:
                    raise CommandError(f"message {args.message} is not in session {session.name!r}")
            else:
                message = next((m for m in reversed(store.last_messages(session.id, 20)) if m.role == "user"), None)
                if message is None:
                    raise CommandError("nothing to bookmark yet: the session has no user message")
            mark = store.add_bookmark(session.id, keywords=_keywords(args.keywords), origin="user",
                                      description=args.description or clip(message.content, 80), now=time.time(),
                                      message_id=message.id, page_id=store.page_of_message(message.id))
        else:
            mark = store.find_bookmark(args.id)
            if mark is None or mark.session_id != session.id:
                raise CommandError(f"no bookmark #{args.id} in session {session.name!r}")
            if args.action == "remove":
                store.remove_bookmark(args.id)
            else:
                if args.keywords is None and args.description is None:
                    raise CommandError("give --keywords and/or --description", 2)
                mark = store.edit_bookmark(args.id, description=args.description,
                                           keywords=_keywords(args.keywords) if args.keywords is not None else None)
        if args.json:
            print_json({"action": args.action, "bookmark": mark.model_dump()})
        else:
            print(plain_line(f"{args.action}: #{mark.id} {', '.join(mark.keywords)} — {mark.description}"))
    return 0
