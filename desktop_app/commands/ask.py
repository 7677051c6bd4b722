"""``paperclip ask MESSAGE``: one turn with the model, streamed to stdout, persisted."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.engine.kv_cache import KvCache
    from desktop_app.engine.protocol import ChatEngine
    from desktop_app.memory.core.models import Session
    from desktop_app.memory.turn import TurnPipeline


def register(subparsers):
    parser = subparsers.add_parser("ask", help="ask one question; the reply streams to stdout")
    parser.add_argument("message", nargs="?", help="the message (default: read stdin when '-' or omitted)")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int, default=None, help="longest reply")
    parser.add_argument("--temperature", type=float, default=None)
    parser.add_argument("--json", action="store_true", help="print the stored turn as JSON after streaming")
    parser.add_argument("--doc", dest="docs", action="append", default=[], metavar="NAME",
                        help="answer from this document only (repeat for several)")
    parser.add_argument("--no-wait", dest="no_wait", action="store_true",
                        help="exit after the reply; the model's memory pass waits for the next run")
    parser.set_defaults(func=run)
    return parser


def read_message(value: str | None) -> str:
    """The message argument, or stdin for '-' / when piped; invalid UTF-8 is a clear error."""
    from desktop_app.commands.common import CommandError

    if value not in (None, "-"):
        return value
    if sys.stdin is None or sys.stdin.isatty():
        raise CommandError("no message given (pass it as an argument or pipe it on stdin)", 2)
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CommandError(f"stdin is not valid UTF-8 (byte {exc.start}); nothing was stored", 2) from None


def run(args, settings) -> int:
    from desktop_app.chat import InputRejected, clean_user_text, pipeline_for, run_turn
    from desktop_app.commands.common import CommandError, load_engine, open_store, print_json, resolve_session
    from desktop_app.commands.recall import embedder_for_recall
    from desktop_app.commands.stop_signals import StopOnSignal
    from desktop_app.engine.errors import EngineError
    from desktop_app.engine.guard import LockedEngine, locked_embedder
    from desktop_app.engine.kv_cache import KvCache
    from desktop_app.memory.background.queue import JobQueue
    from desktop_app.memory.controls import handle_slash
    from desktop_app.memory.core.safe_text import plain, plain_line

    text = read_message(args.message)
    updates = {k: v for k, v in (("max_tokens", args.max_tokens), ("temperature", args.temperature)) if v is not None}
    settings = settings.model_copy(update=updates) if updates else settings
    with open_store(settings) as store:
        session = resolve_session(store, args)
        slash = handle_slash(store, session, text, lang=settings.lang)  # /memory …: no model needed
        if slash is not None:
            if args.json:
                print_json(slash.model_dump())
            else:
                print(plain(slash.text))
            if not slash.ok:
                raise CommandError(slash.text.splitlines()[0])
            return 0
        try:
            clean_user_text(text)  # refuse empty or binary input before loading a model for it
        except InputRejected as exc:
            raise CommandError(str(exc), 2) from None
        documents_only = _documents_only(store, session, args.docs)
        if getattr(args, "mode", None):  # --mode for this turn only; /mode sets the session's
            session = session.model_copy(update={"mode": args.mode})
        engine = LockedEngine(load_engine(settings, quiet=args.json))
        embedder = locked_embedder(embedder_for_recall(store, settings, quiet=args.json))
        jobs = JobQueue()
        pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, embedder=embedder,
                                jobs=jobs)
        cache, key = KvCache.for_settings(settings), KvCache.key(settings.db_path, session.id, settings.model_path)
        restored = restore_context(cache, key, engine, pipeline, session)
        pipeline.documents_only = documents_only

        def emit(piece: str) -> None:
            if not args.json:  # the model can repeat escapes it was shown: never let the terminal obey
                sys.stdout.write(plain(piece))
                sys.stdout.flush()

        def retrying(reason: str) -> None:
            if not args.json:
                sys.stdout.write("\n")
                sys.stdout.flush()
                print(f"paperclip: that reply was not an answer ({plain(reason)}); replacing it", file=sys.stderr)

        try:
            # SIGTERM/SIGHUP while the reply streams stop it like Esc: what was printed is stored.
            with StopOnSignal() as stop:
                result = run_turn(pipeline, session, engine, text, settings=settings, on_token=emit,
                                  should_stop=stop, on_retry=retrying)
        except InputRejected as exc:
            raise CommandError(str(exc), 2) from None
        except EngineError as exc:
            raise CommandError(str(exc)) from None
        if stop.received is not None:  # like Esc: the partial reply is stored (stopped); nothing more runs
            if not args.json:
                sys.stdout.write("\n")
            print(f"paperclip: stopped by {stop.name}; the reply so far was saved", file=sys.stderr)
            return 128 + stop.received
        # Evaluate what the next turn will reuse (this turn's words, as history now) and save
        # the context, so the next `ask` in a new process starts warm; then the background memory
        # work (this turn's, and whatever an earlier run left in the backlog), unless --no-wait.
        save_context(cache, key, engine, jobs, store)
        if not args.no_wait:
            finish_memory_jobs(store, jobs, pipeline, session, engine=memory_engine(engine, settings),
                               embedder=embedder, quiet=args.json)
        sources = _sources(store, result)
        if args.json:
            print_json({
                "sources": sources,
                "session": session.name,
                "user_message_id": result.user_message.id,
                "reply_message_id": result.reply.id if result.reply else None,
                "reply": result.reply.content if result.reply else "",
                "prompt_tokens": result.plan.total_tokens,
                "first_token_seconds": result.first_token_seconds,
                "reused_tokens": result.record.prefill.reused if result.record.prefill else None,
                "restored_tokens": restored,
                "tokens_per_second": round(result.tokens_per_second, 2),
                "health": result.record.health.model_dump() if result.record.health else None,
                "guard": guard_json(result.record.guard),
                "memory_in_use": [u.model_dump() for u in result.record.in_use or []],
            })
        else:
            sys.stdout.write("\n")
            if sources:  # part of the answer: where it comes from (the model often leaves the label out)
                print("sources: " + "; ".join(f"[{s}]" for s in sources))
            if result.record.in_use and sys.stderr.isatty():  # scripts read it from --json
                print(plain_line(memory_line(result.record.in_use)), file=sys.stderr)
            guard = result.record.guard
            if guard is not None and guard.findings:  # what the retry could not fix, or flag mode: said, not hidden
                for finding in guard.findings:
                    item = f" (memory #{finding.item})" if finding.item is not None else ""
                    print(plain(f"paperclip: check this reply{item}: {finding.kind}: {finding.detail}"), file=sys.stderr)
            if result.plan.over_warning:
                print(f"warning: the prompt uses {result.plan.usage:.0%} of the context window", file=sys.stderr)
    return 0


def restore_context(cache: KvCache | None, key: str, engine: ChatEngine, pipeline: TurnPipeline, session: Session) -> int:
    """Load the session's saved context state when it matches the next prompt's head; tokens restored."""
    from desktop_app.engine.protocol import WarmableEngine, unwrap
    from desktop_app.memory.warming import next_prefix

    inner = unwrap(engine)  # (the lock's wrapper is not taken to read the tokens)
    if cache is None or not isinstance(inner, WarmableEngine):
        return 0
    prefix = inner.prefix_tokens(*next_prefix(pipeline, session))
    return cache.restore(engine, key, prefix=prefix).tokens


def save_context(cache, key: str, engine, jobs, store) -> None:
    """Run the queued warm-up for the next turn, then save the chat context (other jobs wait)."""
    from desktop_app.memory.background.queue import JobContext
    from desktop_app.memory.warming import WarmJob

    pending = jobs.pending()
    if pending and isinstance(pending[0], WarmJob):
        jobs.run_pending(lambda stop: JobContext(store=store, should_stop=stop, chat_engine=engine), limit=1)
    jobs.discard("warm")  # a warm-up after the memory pass would only help a process that goes on
    if cache is not None:
        cache.save(engine, key)


def memory_engine(engine, settings):
    """The engine for the model's memory pass: a second context on the same weights, so the
    chat context (just saved) keeps its prefix for the warm-up queued after the pass; the same
    engine when memory work is off, on a GPU, or for engines without one."""
    from desktop_app.engine.guard import LockedEngine

    inner = engine.inner
    other = settings.memory_model_file
    if settings.memory_model == "off" or not hasattr(inner, "sibling") or (inner.settings.n_gpu_layers and not other):
        return engine
    try:
        return LockedEngine(inner.sibling(model_path=other))
    except Exception:  # no memory for a second context: share the chat's
        return engine
def _sources(store, result) -> list[str]:
    """The citations to show under the reply: the quoted chunks the reply rests on (its own
    ``[doc: …]`` labels, else the chunks holding its words), else every chunk it was given."""
    from desktop_app.memory.documents.citations import cited_pages, supporting_chunks

    items = result.plan.document_items()
    if not items:
        return []
    reply = result.reply.content if result.reply else ""
    cited = {(name, page) for name, page in cited_pages(reply)}
    named = [i.source for i in items if (i.document, i.page) in cited or (i.document, None) in cited]
    if named:
        return named
    rows = store.chunk_rows(i.chunk_id for i in items)
    support = set(supporting_chunks(reply, [(i.chunk_id, rows[i.chunk_id]["text"]) for i in items
                                            if i.chunk_id in rows]))
    return [i.source for i in items if i.chunk_id in support] or [i.source for i in items]


def _documents_only(store, session, names: list[str]) -> tuple[int, ...] | None:
    """``--doc NAME`` as document ids (None: every document in scope), or a one-line error."""
    if not names:
        return None
    from desktop_app.commands.common import CommandError
    from desktop_app.memory.documents.retrieval import DocumentNotFound, find_documents

    try:
        return tuple(d.id for d in find_documents(store, session.id, names))
    except DocumentNotFound as exc:
        raise CommandError(str(exc), 2) from None


def finish_memory_jobs(store, jobs, pipeline, session, *, engine, embedder, quiet: bool) -> None:
    """Drain the memory jobs with progress on stderr, so a script sees the final memory."""
    from desktop_app.memory.background.memory_pass import queue_backlog
    from desktop_app.memory.background.queue import JobContext
    from desktop_app.memory.scheduling import memory_model

    queue_backlog(store, jobs, memory_model(pipeline), session.id)
    if not len(jobs):
        return
    started = time.perf_counter()
    if not quiet:
        print("memory: updating…", file=sys.stderr, end="", flush=True)
    outcomes = jobs.run_pending(lambda stop: JobContext(store=store, should_stop=stop, embedder=embedder,
                                                        engine=engine))
    if not quiet:
        done = sum(o.status == "done" for o in outcomes)
        print(f" {done} job(s) in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def memory_line(in_use) -> str:
    """``memory: #3 budget 8000 ✓ · #5 …``: what the prompt gave the model, ✓ where the reply used it."""
    shown = [f"#{u.id} {u.value[:40]}{' ✓' if u.used else ''}" for u in in_use[:8]]
    more = f" · +{len(in_use) - 8}" if len(in_use) > 8 else ""
    used = sum(u.used for u in in_use)
    return f"memory in use ({used}/{len(in_use)} used): " + " · ".join(shown) + more


def guard_json(verdict) -> dict | None:
    """The reply guard's verdict as ``ask --json`` and ``check --json`` print it."""
    if verdict is None:
        return None
    return {"ok": verdict.ok, "findings": [f.model_dump() for f in verdict.findings], "retried": verdict.retried,
            "first_findings": [f.model_dump() for f in verdict.first_findings]}
