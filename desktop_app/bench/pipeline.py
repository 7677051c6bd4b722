"""``paperclip bench pipeline``: what the memory core costs per turn over a long session.

A store is seeded with an archive of N messages (10k and 100k by default), already paged with
bookmarks, either in the session being driven (one very long conversation) or spread over
other sessions. Then 200 turns run through the real turn stages (``chat.run_turn``) with a
scripted engine, so what is measured is the core alone: SQL statements per turn (counted by
SQLite's trace callback) and milliseconds per turn outside the engine. Statements per turn
must not grow with the turn number; the core's p95 should stay under 30 ms at 100k messages.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from desktop_app.bench.scenarios import CHAT_EN, CHAT_ZH

if TYPE_CHECKING:
    from desktop_app.engine.protocol import ChatMessage, Progress, ScriptHold, StopCheck, Variation
    from desktop_app.engine.scripted import ScriptedEngine
    from desktop_app.memory.store.sqlite_backend import Connection

CHECKPOINTS = (10, 100, 200)
START = 1_700_000_000.0
PAGE_MESSAGES = 20
# Every few turns the user states or changes something (memory writes), or points back
# ("earlier", "之前") so recall runs against the archive.
EVENTS = {3: "The budget must stay under 5000 dollars.", 7: "From now on, always answer in one short paragraph.",
          12: "我的预算改成8000元。", 20: "Never modify the original CSV file.", 45: "The deadline is June 30.",
          90: "Change the budget to 7000 dollars.", 140: "以后每次回复都用中文。"}
RECALLS = ("What did we say earlier about the coffee?", "之前说的那个播客叫什么？",
           "Remind me what you said before about octopuses.")


class CheckpointRow(BaseModel):
    turn: int
    statements: int  # executed by Paperclip's code
    nested: int  # what SQLite ran for them: trigger programs, FTS5 shadow-table reads and writes
    core_ms: float


class PipelineResult(BaseModel):
    history: int
    where: str
    seed_seconds: float
    turns: int
    checkpoints: list[CheckpointRow]
    statements_p50: float
    statements_max: int
    core_p50_ms: float
    core_p95_ms: float
    pages_written: int
    encrypted: bool = False


def register(subparsers):
    parser = subparsers.add_parser("pipeline", help="SQL statements and core ms per turn over 200 turns (scripted)")
    parser.add_argument("--history", default="10000,100000", help="archived messages to seed, comma-separated")
    parser.add_argument("--where", choices=("same", "other", "both"), default="same",
                        help="archive in the driven session (same) or in other sessions")
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--encrypt", action="store_true",
                        help="run each size twice, plain and SQLCipher-encrypted, side by side")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def user_text(turn: int) -> str:
    if turn in EVENTS:
        return EVENTS[turn]
    if turn % 9 == 0:
        return RECALLS[(turn // 9) % len(RECALLS)]
    chat = CHAT_EN if turn % 3 else CHAT_ZH
    return chat[(turn * 7) % len(chat)]


def archive_texts() -> tuple[list[str], str]:
    """Real conversation text for the archive: LoCoMo (English) and MemoryBank (Chinese) turns
    from ``../shared/data``, cycled to the wanted size; the scenario chit-chat when absent."""
    from desktop_app.bench.recall_data import DataMissing, conversation_sessions, load_locomo, load_memorybank_cn, turn_text

    texts: list[str] = []
    sources = []
    try:
        for sample in load_locomo():
            texts += [turn_text(turn) for _, turns in conversation_sessions(sample) for turn in turns]
        sources.append("LoCoMo")
    except (DataMissing, OSError, ValueError, KeyError):
        pass
    try:
        dialogues, _ = load_memorybank_cn()
        zh = [text for pairs in dialogues.values() for pair in pairs
              for text in (pair.get("query"), pair.get("response")) if text]
        # Interleave so a long archive holds both languages throughout.
        step = max(1, len(texts) // max(1, len(zh)))
        mixed: list[str] = []
        for i, text in enumerate(texts):
            mixed.append(text)
            if zh and i % step == 0:
                mixed.append(zh[(i // step) % len(zh)])
        texts = mixed or zh
        sources.append("MemoryBank zh")
    except (DataMissing, OSError, ValueError, KeyError):
        pass
    if len(texts) < 100:
        return CHAT_EN + CHAT_ZH, "scenario chit-chat (../shared/data not found)"
    return texts, " + ".join(sources)


def seed_archive(store, session_id: int, count: int, counter, texts: list[str]) -> None:
    """``count`` archived messages in pages of 20 with a bookmark each (written in one transaction)."""
    from desktop_app.memory.lang.text import clip, keywords

    with store.transaction():
        for first in range(0, count, PAGE_MESSAGES):
            messages = []
            for i in range(first, min(count, first + PAGE_MESSAGES)):
                role = "user" if i % 2 == 0 else "assistant"
                text = texts[i % len(texts)]
                messages.append(store.add_message(session_id, role, text, token_count=counter.count(text),
                                                  created_at=START + i * 30))
            page = store.create_page(session_id, messages, now=START + first * 30)
            user_texts = [m.content for m in messages if m.role == "user"]
            store.add_bookmark(session_id, page_id=page.id, keywords=keywords(user_texts, k=4) or ["chat"],
                               description=clip(user_texts[0], 80), origin="auto", now=START + first * 30)


class CountingConnection:
    """The store's connection, counting the statements Paperclip's code executes.

    SQLite's trace callback alone cannot tell them apart: it also fires for every trigger
    program and every FTS5 shadow-table query run on their behalf."""

    def __init__(self, conn: Connection) -> None:
        self.inner = conn
        self.statements = 0

    def execute(self, *args, **kwargs):
        self.statements += 1
        return self.inner.execute(*args, **kwargs)

    def executemany(self, *args, **kwargs):
        self.statements += 1
        return self.inner.executemany(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class TimedEngine:
    """Wraps the scripted engine and keeps the time spent inside it, so the rest is the core's."""

    def __init__(self, engine: ScriptedEngine) -> None:
        self.inner = engine
        self.model_name, self.n_ctx, self.counter = engine.model_name, engine.n_ctx, engine.counter
        self.seconds = 0.0

    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None, script: ScriptHold | None = None) -> Iterator[str]:
        started = time.perf_counter()
        try:
            for piece in self.inner.stream_chat(messages, max_tokens=max_tokens, temperature=temperature,
                                                should_stop=should_stop, progress=progress, variation=variation,
                                                script=script):
                self.seconds += time.perf_counter() - started
                yield piece
                started = time.perf_counter()
        finally:
            self.seconds += time.perf_counter() - started

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        return self.inner.count_message_tokens(messages)

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict[str, Any]:
        return self.inner.complete_json(messages, schema, max_tokens=max_tokens, temperature=temperature,
                                        should_stop=should_stop)


def drive(path: Path, history: int, where: str, turns: int, settings, texts: list[str], *,
          encrypted: bool = False) -> PipelineResult:
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.engine.scripted import ScriptedEngine
    from desktop_app.memory.store import Store
    from desktop_app.memory.store.encryption import register_passphrase

    if encrypted:
        register_passphrase(path, "bench passphrase")

    engine = TimedEngine(ScriptedEngine("Sure, here is a short and friendly answer to that.", n_ctx=4096))
    with Store(path) as store:
        session = store.create_session("driven")
        started = time.perf_counter()
        if where == "same":
            seed_archive(store, session.id, history, engine.counter, texts)
        else:
            for n in range(10):
                other = store.create_session(f"other-{n}")
                seed_archive(store, other.id, history // 10, engine.counter, texts)
        seed_seconds = time.perf_counter() - started
        pages_before = len(store.list_pages(session.id))
        nested = 0

        def count(_sql: str) -> None:
            nonlocal nested
            nested += 1

        counting = CountingConnection(store.conn)
        store.conn = cast("Connection", counting)  # (a stand-in: it forwards every call to the connection it counts)
        counting.set_trace_callback(count)
        pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
        per_turn: list[tuple[int, int, float]] = []
        for turn in range(1, turns + 1):
            counting.statements, nested, engine.seconds = 0, 0, 0.0
            started = time.perf_counter()
            run_turn(pipeline, store.get_session(session.id), engine, user_text(turn), settings=settings)
            elapsed = time.perf_counter() - started - engine.seconds
            per_turn.append((counting.statements, max(0, nested - counting.statements), elapsed * 1000))
        counting.set_trace_callback(None)
        store.conn = counting.inner
        pages_written = len(store.list_pages(session.id)) - pages_before
    counts = [s for s, _, _ in per_turn]
    times = [ms for _, _, ms in per_turn]
    return PipelineResult(
        history=history, where=where, seed_seconds=seed_seconds, turns=turns,
        checkpoints=[CheckpointRow(turn=c, statements=per_turn[c - 1][0], nested=per_turn[c - 1][1],
                                   core_ms=per_turn[c - 1][2]) for c in CHECKPOINTS if c <= turns],
        statements_p50=statistics.median(counts), statements_max=max(counts),
        core_p50_ms=statistics.median(times), core_p95_ms=_p95(times), pages_written=pages_written,
        encrypted=encrypted)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def format_table(results: list[PipelineResult]) -> str:
    marks = [c.turn for c in results[0].checkpoints] if results else []
    head = (f"{'archive':>8} {'where':<9} " + " ".join(f"{'stmts@' + str(m):>9}" for m in marks) + " "
            + " ".join(f"{'fts@' + str(m):>7}" for m in marks) + " "
            + " ".join(f"{'ms@' + str(m):>7}" for m in marks)
            + f" {'stmts p50':>9} {'max':>4} {'core p50':>8} {'core p95':>8} {'pages':>5}")
    lines = [head, "-" * len(head)]
    for r in results:
        where = r.where + ("/enc" if r.encrypted else "")
        lines.append(f"{r.history:>8} {where:<9} " + " ".join(f"{c.statements:>9}" for c in r.checkpoints) + " "
                     + " ".join(f"{c.nested:>7}" for c in r.checkpoints) + " "
                     + " ".join(f"{c.core_ms:>7.1f}" for c in r.checkpoints)
                     + f" {r.statements_p50:>9.0f} {r.statements_max:>4} {r.core_p50_ms:>7.1f}ms {r.core_p95_ms:>6.1f}ms"
                     f" {r.pages_written:>5}")
    return "\n".join(lines)


def run(args, settings) -> int:
    import sys

    from desktop_app.commands.common import CommandError, print_json

    try:
        sizes = [int(x) for x in args.history.split(",") if x.strip()]
    except ValueError:
        raise CommandError("--history takes numbers separated by commas, e.g. 10000,100000", 2) from None
    if args.turns < 1 or any(size < 0 for size in sizes):
        raise CommandError("--turns must be positive and --history sizes not negative", 2)
    places = ("same", "other") if args.where == "both" else (args.where,)
    settings = settings.model_copy(update={"ctx": 4096, "max_tokens": 32, "mode": "layered", "lang": "en"})
    texts, corpus = archive_texts()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for history in sizes:
            for where in places:
                if not args.json:
                    print(f"seeding {history} archived messages ({where} session) …", file=sys.stderr, flush=True)
                for encrypted in (False, True) if args.encrypt else (False,):
                    results.append(drive(Path(tmp) / f"pipeline-{history}-{where}-{int(encrypted)}.db", history,
                                         where, args.turns, settings, texts, encrypted=encrypted))
    if args.json:
        print_json({"corpus": corpus, "results": [r.model_dump() for r in results]})
        return 0
    print(f"turn pipeline · {args.turns} turns · scripted engine · layered mode, n_ctx 4096 · archive: {corpus}")
    print(format_table(results))
    print("stmts@n = SQL statements Paperclip issued in turn n (p50/max over all turns); fts@n = statements SQLite")
    print("ran inside triggers and FTS5 for them; ms@n / core = time per turn outside the engine; /enc = the same")
    print("database encrypted with SQLCipher 4 (--encrypt)")
    return 0
