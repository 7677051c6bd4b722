"""``paperclip bench ttft``: time to first token over a long session, layered vs full.

The real default model answers 100+ turns (short replies) in each mode, each in its own
session, through the same ``run_turn`` the chat uses. Layered keeps the prompt head stable and
the recent turns append-only, so llama.cpp re-evaluates only the new tail and TTFT stays flat;
full resends an ever longer history, so pre-fill and attention grow with it.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

from desktop_app.bench.scenarios import CHAT_EN, CHAT_ZH

CHECKPOINTS = (5, 50, 100)
WINDOW = 2  # each checkpoint reports the median of turns n-2 … n+2 (single turns are noisy on a busy CPU)
IMPORTANT = {2: "From now on, always answer in one short sentence.", 8: "The budget must stay under 5000 dollars.",
             30: "Never suggest paid software.", 60: "Change the budget to 7000 dollars."}


class TtftResult(BaseModel):
    mode: str
    turns: int
    ttft: dict[int, float]  # checkpoint turn -> seconds (median of the turns around it)
    prompt_tokens: dict[int, int]
    evaluated_tokens: dict[int, int]  # prompt tokens not covered by the reused prefix (median around it)
    pages: int
    seconds: float
    worst: float = 0.0  # the slowest first token of the run


def register(subparsers):
    parser = subparsers.add_parser("ttft", help="time to first token at turns 5/50/100, layered vs full (real model)")
    parser.add_argument("--turns", type=int, default=105, help="turns per mode (at least 100 for the last checkpoint)")
    parser.add_argument("--reply-tokens", dest="reply_tokens", type=int, default=16, help="max tokens per reply")
    parser.add_argument("--modes", default="layered,full",
                        help="context modes; 'layered+memory' runs the model's memory pass after each turn on a second "
                             "context, 'layered+shared' on the chat's own context (what the second context avoids)")
    parser.add_argument("--checkpoints", default=None, help="turns to report, e.g. 5,20,30 (default 5,50,100)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def user_turn(turn: int, lang: str = "en") -> str:
    """The user's message at ``turn``: a few standing rules and limits among chit-chat."""
    chat = CHAT_EN if lang == "en" else CHAT_ZH
    return IMPORTANT.get(turn) or chat[(turn * 7) % len(chat)]


def drive(engine, store, settings, mode: str, turns: int, progress=None, checkpoints=CHECKPOINTS) -> TtftResult:
    """Run ``turns`` real turns in a fresh session in ``mode``; TTFT per turn from ``run_turn``.

    ``layered+memory`` / ``layered+shared``: after each reply the queued memory jobs (the
    model's pass, bookmarks, summaries) run before the next turn, as in the app's idle time —
    on a second context on the same weights, or on the chat's own context."""
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.memory.jobs import JobContext, JobQueue

    label, _, memory = mode.partition("+")
    jobs = JobQueue() if memory else None
    if memory:
        settings = settings.model_copy(update={"memory_model": "always"})
    memory_engine = engine.sibling() if memory == "memory" else engine
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, jobs=jobs)
    session = store.create_session(f"ttft-{mode}-{int(time.time())}", mode=label)
    engine.reset_cache()
    ttft: list[float] = []
    prompt: list[int] = []
    evaluated: list[int] = []
    previous = ""
    started = time.perf_counter()
    for turn in range(1, turns + 1):
        result = run_turn(pipeline, store.get_session(session.id), engine, user_turn(turn), settings=settings)
        ttft.append(result.first_token_seconds or 0.0)
        prompt.append(result.plan.total_tokens)
        text = _prompt_text(engine, result.plan.messages)
        evaluated.append(engine.counter.count(text[_common_prefix(previous, text):]))
        previous = text + (result.reply.content if result.reply else "")
        if jobs is not None:
            jobs.run_pending(lambda stop: JobContext(store=store, should_stop=stop, engine=memory_engine))
            record = store.last_turn_record(session.id)
            if memory == "shared" and record is not None and record.memory_work is not None:
                previous = ""  # the chat context evaluated the memory prompt last: nothing is reused
        if progress and turn % 10 == 0:
            progress(f"{mode}: turn {turn}/{turns}, prompt {prompt[-1]} tokens, TTFT {ttft[-1] * 1000:.0f} ms")
    elapsed = time.perf_counter() - started

    def around(values: list, turn: int):
        return statistics.median(values[max(0, turn - 1 - WINDOW): turn + WINDOW])

    marks = [c for c in checkpoints if c <= turns]
    return TtftResult(mode=mode, turns=turns, ttft={c: around(ttft, c) for c in marks},
                      prompt_tokens={c: prompt[c - 1] for c in marks},
                      evaluated_tokens={c: int(around(evaluated, c)) for c in marks},
                      pages=len(store.list_pages(session.id)), seconds=elapsed, worst=max(ttft))


def _prompt_text(engine, messages) -> str:
    """The formatted prompt when the engine can tell (llama.cpp), else the plain contents."""
    if hasattr(engine, "format_prompt"):
        return engine.format_prompt(messages)
    return "\n".join(m["content"] for m in messages)


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def format_table(results: list[TtftResult]) -> str:
    marks = sorted({c for r in results for c in r.ttft})
    head = f"{'mode':<15} " + " ".join(f"{'TTFT@' + str(c):>9}" for c in marks) + " " + \
        " ".join(f"{'tok@' + str(c):>8}" for c in marks) + " " + \
        " ".join(f"{'eval@' + str(c):>8}" for c in marks) + f" {'worst':>8} {'pages':>5} {'run s':>6}"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(f"{r.mode:<15} " + " ".join(f"{r.ttft[c] * 1000:>7.0f}ms" for c in marks) + " "
                     + " ".join(f"{r.prompt_tokens[c]:>8}" for c in marks) + " "
                     + " ".join(f"{r.evaluated_tokens[c]:>8}" for c in marks)
                     + f" {r.worst * 1000:>6.0f}ms {r.pages:>5} {r.seconds:>6.0f}")
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, load_engine, print_json
    from desktop_app.memory.store import Store

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    checkpoints = tuple(int(c) for c in args.checkpoints.split(",")) if args.checkpoints else CHECKPOINTS
    if args.turns < 5:
        raise CommandError("--turns must be at least 5", 2)
    # Full mode must still fit after 100+ turns: 8192 (SmolLM2's trained size) unless --ctx says otherwise.
    ctx = getattr(args, "ctx", None) or 8192
    settings = settings.model_copy(update={"ctx": ctx, "max_tokens": args.reply_tokens, "temperature": 0.0,
                                           "seed": 7})
    engine = load_engine(settings, quiet=args.json)
    results = []
    with tempfile.TemporaryDirectory() as tmp, Store(getattr(args, "db", None) or Path(tmp) / "ttft.db") as store:
        for mode in modes:
            results.append(drive(engine, store, settings, mode, args.turns, checkpoints=checkpoints,
                                 progress=None if args.json else lambda line: print(line, file=sys.stderr)))
    if args.json:
        print_json({"model": engine.model_name, "n_ctx": engine.n_ctx, "results": [r.model_dump() for r in results]})
        return 0
    print(f"time to first token · {engine.model_name} · n_ctx {engine.n_ctx} · replies ≤ {args.reply_tokens} tokens")
    print(format_table(results))
    print(f"TTFT@n and eval@n: median of turns n-{WINDOW}…n+{WINDOW}; eval = prompt tokens after the reused prefix")
    return 0
