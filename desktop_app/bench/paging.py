"""``paperclip bench paging``: paging decisions — which of the oldest exchanges should stay in view.

A labelled set (``bench/data/paging_cases.json``, English and Chinese, written by a helper who
never saw the rules or the prompt): each case is a goal, the user's latest message and the 5–8
oldest exchanges, each labelled keep (its words are still needed) or evict. The same pieces the
app uses decide them: the rule cache first (small talk and exchanges sharing no word with the
latest message leave, those sharing two or more stay), then one batched model call for the
rest. The baseline is what a page-out does without decisions: everything leaves oldest first.

Printed per language: precision and recall of *keep*, the share of exchanges decided right,
how often the model's reply was unusable (the fallback), and seconds per call.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from pydantic import BaseModel

DATA = Path(__file__).parent / "data" / "paging_cases.json"


class LabelledExchange(BaseModel):
    user: str
    reply: str
    keep: bool


class PagingCase(BaseModel):
    id: str
    lang: str
    goal: str = ""
    latest: str
    exchanges: list[LabelledExchange]


class Tally(BaseModel):
    kept_right: int = 0  # keep, labelled keep
    kept_wrong: int = 0  # keep, labelled evict
    missed: int = 0  # evict, labelled keep
    evicted_right: int = 0
    fallbacks: int = 0  # cases whose model reply was unusable (everything left oldest first)
    calls: int = 0
    seconds: float = 0.0

    def add(self, decided: bool, label: bool) -> None:
        if decided and label:
            self.kept_right += 1
        elif decided:
            self.kept_wrong += 1
        elif label:
            self.missed += 1
        else:
            self.evicted_right += 1

    def row(self) -> dict[str, float]:
        kept = self.kept_right + self.kept_wrong
        wanted = self.kept_right + self.missed
        total = kept + self.missed + self.evicted_right
        return {"keep_precision": self.kept_right / kept if kept else 0.0,
                "keep_recall": self.kept_right / wanted if wanted else 0.0,
                "accuracy": (self.kept_right + self.evicted_right) / total if total else 0.0,
                "exchanges": total, "fallbacks": self.fallbacks,
                "seconds_per_call": self.seconds / self.calls if self.calls else 0.0}


def load_cases(path: Path = DATA) -> list[PagingCase]:
    return [PagingCase.model_validate(c) for c in json.loads(path.read_text(encoding="utf-8"))["cases"]]


def decide(case: PagingCase, engine, tally: Tally) -> list[bool]:
    """Keep (True) / evict per exchange: the rule cache against the latest message, then the
    model for what it leaves open (``engine`` None: those leave, oldest first)."""
    from desktop_app.engine.errors import JSONOutputError
    from desktop_app.memory.archive.paging import lexical_decision
    from desktop_app.memory.background.paging_advice import (
        ADVICE_MAX_TOKENS,
        Exchange,
        advice_messages,
        advice_schema,
        parse_advice,
    )
    from desktop_app.memory.lang.text import term_set

    exchanges = [Exchange(message_id=n, turn=n, user=e.user, reply=e.reply) for n, e in enumerate(case.exchanges, start=1)]
    latest = term_set(case.latest)
    ruled = {e.message_id: lexical_decision(e.user, e.reply, latest) for e in exchanges}
    decided = {mid: rule == "keep" for mid, rule in ruled.items()}
    ask = [e for e in exchanges if ruled[e.message_id] is None]
    if engine is None or not ask:
        return [decided[e.message_id] for e in exchanges]
    advice = []
    for short in (False, True):
        started = time.perf_counter()
        try:
            data = engine.complete_json(advice_messages(ask, case.goal, case.latest, lang=case.lang, short=short),
                                        advice_schema(len(ask)), max_tokens=ADVICE_MAX_TOKENS, temperature=0.0)
            advice = parse_advice(data, ask, None)
        except JSONOutputError:
            advice = []
        finally:
            tally.calls += 1
            tally.seconds += time.perf_counter() - started
        if advice:
            break
    if not advice:
        tally.fallbacks += 1
    for a in advice:
        decided[a.message_id] = a.decision == "keep"
    return [decided[e.message_id] for e in exchanges]


def evaluate(cases: list[PagingCase], engine=None, progress=None, *, oldest_first: bool = False) -> dict[str, Tally]:
    """Per language and in all; ``oldest_first``: no decisions at all (the page-out's fallback)."""
    tallies: dict[str, Tally] = {}
    for index, case in enumerate(cases, start=1):
        tally = tallies.setdefault(case.lang, Tally())
        decisions = [False] * len(case.exchanges) if oldest_first else decide(case, engine, tally)
        for decided, labelled in zip(decisions, case.exchanges, strict=True):
            tally.add(decided, labelled.keep)
        if progress:
            progress(index, len(cases))
    everything = Tally()
    for tally in tallies.values():
        for field in Tally.model_fields:
            setattr(everything, field, getattr(everything, field) + getattr(tally, field))
    tallies["all"] = everything
    return tallies


def table(results: dict[str, dict[str, Tally]]) -> str:
    lines = [f"{'system':<22} {'lang':<4} {'keep P':>7} {'keep R':>7} {'right':>6} {'exch':>5} {'fallback':>8} "
             f"{'s/call':>7}"]
    for system, tallies in results.items():
        for lang, tally in tallies.items():
            r = tally.row()
            lines.append(f"{system:<22} {lang:<4} {r['keep_precision']:>7.2f} {r['keep_recall']:>7.2f} "
                         f"{r['accuracy']:>6.2f} {r['exchanges']:>5} {r['fallbacks']:>8} {r['seconds_per_call']:>7.1f}")
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.bench import labelled_set
    from desktop_app.commands.common import load_engine

    path = labelled_set(args.cases, DATA)
    if path is None:
        return 1
    cases = load_cases(path)[: args.limit] if args.limit else load_cases(path)
    results = {"oldest first": evaluate(cases, oldest_first=True), "rule cache": evaluate(cases)}
    if not args.rules_only:
        engine = load_engine(settings.model_copy(update={"temperature": 0.0}), quiet=True)
        print(f"rules + model ({engine.model_name}) on {len(cases)} cases…", file=sys.stderr)
        results[f"rules + {engine.model_name[:12]}"] = evaluate(
            cases, engine, progress=lambda i, n: print(f"  {i}/{n}", file=sys.stderr) if i % 10 == 0 else None)
    if args.json:
        print(json.dumps({s: {lang: t.row() for lang, t in tallies.items()} for s, tallies in results.items()},
                         ensure_ascii=False, indent=2))
    else:
        print(f"Paging decisions on {len(cases)} labelled cases ({sum(len(c.exchanges) for c in cases)} exchanges)")
        print(table(results))
    return 0


def register(subparsers):
    parser = subparsers.add_parser("paging", help="paging decisions: keep/evict precision and recall, rules vs model")
    parser.add_argument("--rules-only", dest="rules_only", action="store_true", help="skip the model")
    parser.add_argument("--limit", type=int, default=None, help="first N cases")
    parser.add_argument("--cases", default=None, help="another labelled set (same JSON shape)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
