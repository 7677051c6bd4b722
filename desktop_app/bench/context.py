"""``paperclip bench context``: every context mode side by side on the scenario transcripts.

For each scenario the transcript is fed turn by turn exactly as ``run_turn`` would (user
message stored, memory extracted, prompt planned, reply stored, paging) — with the scripted
replies of the scenario instead of a model — and at every turn the prompt is planned in every
mode. Printed per scenario and mode: prompt tokens at the probe, cumulative input tokens, % of
active constraints present in the prompt, % of superseded values presented as current, and the
planning time p50/p95 (load from SQLite + assembly).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

from desktop_app.bench.scenarios import Scenario, active_present, all_scenarios, superseded_as_current
from desktop_app.memory.core.plan import MODES

DEFAULT_CTX = 2048
START_TIME = 1_750_000_000.0  # fixed clock for reproducible transcripts (2025-06-15)


class ModeResult(BaseModel):
    scenario: str
    mode: str
    probe_turn: int
    probe_tokens: int
    cumulative_tokens: int
    active_present: float
    superseded_current: float
    p50_ms: float
    p95_ms: float
    pages: int


def register(subparsers):
    parser = subparsers.add_parser("context", help="context modes side by side on scenario transcripts")
    parser.add_argument("--scenario", action="append", help="only these scenarios (repeatable)")
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated modes")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def replay(scenario: Scenario, store, *, settings, counter, n_ctx: int, modes=MODES,
           on_probe=None) -> list[ModeResult]:
    """Feed ``scenario`` into a fresh session and plan every turn in every mode."""
    from desktop_app.chat import pipeline_for

    pipeline = pipeline_for(store, settings, counter=counter, n_ctx=n_ctx)
    session = store.create_session(f"bench-{scenario.name}-{int(time.time() * 1000) % 100000}")
    probes = {p.turn: p for p in scenario.probes}
    tokens: dict[str, list[int]] = {m: [] for m in modes}
    times: dict[str, list[float]] = {m: [] for m in modes}
    scores: dict[str, dict[str, float]] = {m: {} for m in modes}
    for turn, step in enumerate(scenario.turns, start=1):
        ts = START_TIME + turn * 120
        recorded = pipeline.record_input(session, step.user, created_at=ts)
        recorded = recorded.model_copy(update={"session": store.get_session(session.id)})
        for mode in modes:
            started = time.perf_counter()
            plan = pipeline.plan(recorded, mode=mode)
            times[mode].append((time.perf_counter() - started) * 1000)
            tokens[mode].append(plan.total_tokens)
            if turn in probes:
                probe = probes[turn]
                scores[mode] = {
                    "active": active_present(plan.messages, probe.active) / max(1, len(probe.active)),
                    "superseded": superseded_as_current(plan.messages, probe.superseded) / max(1, len(probe.superseded))
                    if probe.superseded else 0.0,
                    "tokens": plan.total_tokens, "turn": turn}
                if on_probe:
                    on_probe(mode, turn, plan)
        pipeline.record_reply(session, step.assistant, created_at=ts + 30, now=ts + 31)
    pages = len(store.list_pages(session.id))
    return [ModeResult(scenario=scenario.name, mode=m, probe_turn=int(scores[m].get("turn", 0)),
                       probe_tokens=int(scores[m].get("tokens", 0)), cumulative_tokens=sum(tokens[m]),
                       active_present=scores[m].get("active", 0.0), superseded_current=scores[m].get("superseded", 0.0),
                       p50_ms=statistics.median(times[m]), p95_ms=_p95(times[m]), pages=pages) for m in modes]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def format_table(results: list[ModeResult]) -> str:
    """A plain-text table (also pasted into docs/benchmarks/context.md)."""
    head = (f"{'scenario':<13} {'mode':<9} {'probe':>5} {'prompt tok':>10} {'vs full':>7} {'cumulative':>10} "
            f"{'active %':>8} {'stale %':>7} {'p50 ms':>7} {'p95 ms':>7}")
    lines = [head, "-" * len(head)]
    full = {r.scenario: r.probe_tokens for r in results if r.mode == "full"}
    for r in results:
        ratio = f"{r.probe_tokens / full[r.scenario]:.0%}" if full.get(r.scenario) else "-"
        lines.append(f"{r.scenario:<13} {r.mode:<9} {r.probe_turn:>5} {r.probe_tokens:>10} {ratio:>7} "
                     f"{r.cumulative_tokens:>10} {r.active_present:>8.0%} {r.superseded_current:>7.0%} "
                     f"{r.p50_ms:>7.1f} {r.p95_ms:>7.1f}")
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, print_json
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.store import Store

    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    if unknown := [m for m in modes if m not in MODES]:
        raise CommandError(f"unknown mode(s): {', '.join(unknown)}", 2)
    scenarios = [s for s in all_scenarios() if not args.scenario or s.name in args.scenario]
    if not scenarios:
        raise CommandError("no scenario matches --scenario", 2)
    n_ctx = getattr(args, "ctx", None) or DEFAULT_CTX
    counter = fallback_counter()
    results: list[ModeResult] = []
    with tempfile.TemporaryDirectory() as tmp, Store(getattr(args, "db", None) or Path(tmp) / "bench.db") as store:
        for scenario in scenarios:
            lang_settings = settings.model_copy(update={"lang": scenario.lang})
            results += replay(scenario, store, settings=lang_settings, counter=counter, n_ctx=n_ctx, modes=modes)
    if args.json:
        print_json({"n_ctx": n_ctx, "counter": counter.name, "results": [r.model_dump() for r in results]})
        return 0
    print(f"context modes · n_ctx {n_ctx} · tokens counted with {counter.name}")
    print(format_table(results))
    print("active % = active constraints present at the probe; stale % = superseded values presented as current")
    return 0
