"""``paperclip bench memory --integrity``: is the memory right *as a whole* after a conversation?

Labelled multi-turn sequences (``bench/data/memory_integrity.json``, written blind, en + zh) run
through the real turn pipeline in a fresh database — the rules, then (unless rules only) the
model's memory pass after every message, as the app runs it. The final memory is scored whole:

- every expected item active, of the right kind (or an accepted one) and scope;
- no superseded or revoked value left active;
- no junk: an active item whose value is not made of the user's words;
- no duplicates: one thing held by two active items;
- a sequence that should leave nothing leaves nothing.

A sequence is *fully right* when all of these hold.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

from desktop_app.bench import Expect
from desktop_app.memory.write.integrity import squash
from desktop_app.memory.write.shifts import SHIFTED
from desktop_app.memory.write.twins import body

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

DATA = Path(__file__).parent / "data" / "memory_integrity.json"
# A second set of 100, written blind by another helper after round six (``--cases holdout``).
HOLDOUT = Path(__file__).parent / "data" / "memory_integrity_holdout.json"
# A third set of 100, written blind by a third helper after round seven (``--cases third``): round
# eight was measured on it and not read.
THIRD = Path(__file__).parent / "data" / "memory_integrity_third.json"
# A fourth set of 100, written blind by a fourth helper in round ten (``--cases fourth``), when the
# third was opened for reading: measured, not read.
FOURTH = Path(__file__).parent / "data" / "memory_integrity_fourth.json"
# 90 changes said by an amount ("再加500吧", "add 300 to the budget", "let's halve that") and look-alikes
# ("至少30篇", "加3个菜", "not gonna add 300"), written blind by a helper in round thirteen (``--cases shifts``).
SHIFTS = Path(__file__).parent / "data" / "memory_integrity_shifts.json"
# 80 more (40 per language), written blind by a helper in round eighteen (``--cases sixth``), half of them a message
# of several values with one changed later: measured, not read.
SIXTH = Path(__file__).parent / "data" / "memory_integrity_sixth.json"
# 80 names said and spelt anew (40 per language: the user's own, someone introduced, a typo owned up to later, and
# look-alikes that must change nothing), written blind by a helper in round nineteen (``--cases names``); read after
# its first measurement, to build the respelling.
NAMES = Path(__file__).parent / "data" / "memory_integrity_names.json"
# 60 forms of address set, changed and dropped, with look-alikes ("call me back later", "他们都叫我小李"), written blind
# by a helper in round nineteen (``--cases address``); read after its first measurement.
ADDRESS = Path(__file__).parent / "data" / "memory_integrity_address.json"
SETS = {"holdout": HOLDOUT, "third": THIRD, "fourth": FOURTH, "shifts": SHIFTS, "sixth": SIXTH, "names": NAMES,
        "address": ADDRESS}


class SequenceScore(BaseModel):
    id: str
    lang: str
    expected: int
    found: int  # expected items active with the right kind and scope
    stale: list[str] = []
    junk: list[str] = []
    duplicates: list[str] = []
    unexpected: list[str] = []  # active items when the sequence should leave none
    model_junk: int = 0

    @property
    def right(self) -> bool:
        return self.found == self.expected and not (self.stale or self.junk or self.duplicates or self.unexpected)


def grounded_value(value: str, said: str) -> bool:
    """The value is made of the user's words: most of its terms occur in what the user said."""
    from desktop_app.memory.lang.text import term_set

    mine = term_set(body(value))
    if not mine:
        return squash(body(value)) in squash(said)
    return len(mine & term_set(said)) * 2 >= len(mine)


def score(case: dict, items: list) -> SequenceScore:
    active = [i for i in items if i.status == "active"]
    said = "\n".join(case["turns"])
    result = SequenceScore(id=case["id"], lang=case["lang"], expected=len(case["final_active"]), found=0)
    used: set[int] = set()
    for raw in case["final_active"]:
        expect = Expect(**{"terms": [], **raw})
        hit = next((i for i in active if i.id not in used and expect.matches(i)
                    and (expect.scope is None or i.scope == expect.scope)), None)
        if hit is not None:
            used.add(hit.id)
            result.found += 1
    result.stale = sorted({f"{absent} in “{i.value}”" for absent in case["final_absent"] for i in active
                           if absent.lower() in f"{i.subject} {i.value}".lower()})
    for item in active:
        # (A number the rules computed from a change by an amount is no word of the user's: its other words are.)
        if not grounded_value(item.value, said) and not (SHIFTED in item.details and grounded_value(
                _NUMBER.sub("", item.value), _NUMBER.sub("", said))):
            result.junk.append(f"[{item.origin}] {item.subject}: {item.value}")
            result.model_junk += int(item.origin == "model")
    seen: dict[str, str] = {}
    for item in active:
        mine = squash(body(item.value))
        twin = next((v for k, v in seen.items() if k == mine or (min(len(k), len(mine)) >= 6 and (k in mine or mine in k))),
                    None)
        if twin is not None:
            result.duplicates.append(f"“{item.value}” = “{twin}”")
        seen[mine] = item.value
    if not case["final_active"]:
        result.unexpected = [f"{i.kind}: {i.value}" for i in active]
    return result


def run_sequences(cases: list[dict], *, engine, counter, system: str, progress=None, dump=None) -> list[SequenceScore]:
    from desktop_app.memory.background.memory_pass import ExtractJob, MemoryModel
    from desktop_app.memory.background.queue import JobContext
    from desktop_app.memory.store import Store
    from desktop_app.memory.turn import TurnOptions, TurnPipeline

    scores = []
    with tempfile.TemporaryDirectory(prefix="paperclip-bench-integrity-") as tmp:
        for n, case in enumerate(cases):
            with Store(Path(tmp) / f"case-{n}.sqlite3") as store:
                session = store.create_session("bench")
                pipeline = TurnPipeline(store=store, counter=counter, n_ctx=4096,
                                        options=TurnOptions(memory_model="off", lang=case["lang"]))
                notes: list[str] = []
                for text in case["turns"]:
                    recorded = pipeline.record_input(store.get_session(session.id), text)
                    pipeline.record_reply(store.get_session(session.id), "OK.", page_out=False)
                    if engine is not None:
                        job = ExtractJob(session.id, [recorded.message.id], MemoryModel("always", lang=case["lang"]))
                        job.run(JobContext(store=store, should_stop=lambda: False, engine=engine))
                        notes += job.notes
                items = store.list_items(session.id)
            result = score(case, items)
            scores.append(result)
            if dump is not None:
                dump.write(json.dumps({"system": system, **result.model_dump(), "right": result.right, "notes": notes,
                                       "items": [f"{i.status} {i.kind} {i.scope} [{i.origin}] {i.subject} = {i.value}"
                                                 for i in items]}, ensure_ascii=False) + "\n")
            if progress:
                progress(n + 1, len(cases))
    return scores


def table(rows: list[tuple[str, list[SequenceScore]]]) -> str:
    lines = ["| system | lang | sequences fully right | expected items found | superseded left active | junk items "
             "(from the model) | duplicates | left something where nothing was due |",
             "|---|---|---|---|---|---|---|---|"]
    for system, scores in rows:
        for lang in ("en", "zh", "all"):
            mine = [s for s in scores if lang == "all" or s.lang == lang]
            if not mine:
                continue
            right = sum(s.right for s in mine)
            found, expected = sum(s.found for s in mine), sum(s.expected for s in mine)
            lines.append(f"| {system} | {lang} | {right}/{len(mine)} ({right / len(mine):.2f}) | {found}/{expected} "
                         f"| {sum(len(s.stale) for s in mine)} | {sum(len(s.junk) for s in mine)} "
                         f"({sum(s.model_junk for s in mine)}) | {sum(len(s.duplicates) for s in mine)} "
                         f"| {sum(bool(s.unexpected) for s in mine)} |")
    return "\n".join(lines)


def run(args, settings) -> int:
    from desktop_app.commands.common import load_engine
    from desktop_app.engine.guard import LockedEngine
    from desktop_app.engine.tokens import fallback_counter

    path = SETS.get(args.cases or "", args.cases or DATA)
    with open(path, encoding="utf-8") as handle:
        cases = json.load(handle)["sequences"]
    if args.limit:
        cases = [c for lang in ("en", "zh") for c in [c for c in cases if c["lang"] == lang][:args.limit]]
    counter = fallback_counter()
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"  {done}/{total} sequences", file=sys.stderr)

    try:
        rows = [("rules", run_sequences(cases, engine=None, counter=counter, system="rules", dump=dump))]
        if not args.rules_only:
            engine = LockedEngine(load_engine(settings, quiet=True))
            started = time.perf_counter()
            scores = run_sequences(cases, engine=engine, counter=counter, system="rules+model", progress=progress,
                                   dump=dump)
            turns = sum(len(c["turns"]) for c in cases)
            rows.append((f"rules + {engine.model_name}", scores))
            print(f"rules + model: {(time.perf_counter() - started) / max(1, turns):.1f} s per message",
                  file=sys.stderr)
    finally:
        if dump is not None:
            dump.close()
    if args.json:
        print(json.dumps({system: [s.model_dump() | {"right": s.right} for s in scores] for system, scores in rows},
                         ensure_ascii=False))
    else:
        print(f"Memory integrity: {len(cases)} labelled sequences, the final memory scored whole\n")
        print(table(rows))
    return 0
