"""``paperclip bench guard``: the reply guard against a labelled set it was not written for.

Each case is a memory state and one assistant reply, labelled with the findings a careful reader
would report (``bench/data/guard_cases.json``, written blind by a helper who saw no code). Scored
per finding kind and language: precision, recall, and false alarms on correct replies. No model.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from pydantic import BaseModel

from desktop_app.bench import labelled_set
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.core.records import GuardFinding
from desktop_app.memory.reply_guard import guard_reply

DATA = Path(__file__).parent / "data" / "guard_cases.json"
# Other labelled sets by name (``--cases holdout``): a second set written blind, and 80 replies stating a day of
# leaving, right or made up, written blind in round eighteen (its misses were read to build the check), and 80 more
# by another helper, measured and not read.
SETS = {"holdout": DATA.with_name("guard_cases_holdout.json"), "departure": DATA.with_name("guard_departure.json"),
        "departure-holdout": DATA.with_name("guard_departure_holdout.json")}
KINDS = ("superseded", "limit", "directive", "revoked", "ruled_out", "cut_off")


class Score(BaseModel):
    """Counts for one (language, kind) cell."""

    true_pos: int = 0
    false_pos: int = 0
    false_neg: int = 0

    def precision(self) -> float | None:
        found = self.true_pos + self.false_pos
        return self.true_pos / found if found else None

    def recall(self) -> float | None:
        expected = self.true_pos + self.false_neg
        return self.true_pos / expected if expected else None


def items_of(case: dict) -> list[MemoryItem]:
    """The case's memory as stored items (a superseded item's successor points back at it)."""
    successors = {m["superseded_by"]: m["id"] for m in case["memory"] if m.get("superseded_by")}
    return [MemoryItem(id=m["id"], session_id=1, kind=m["kind"], subject=m.get("subject", ""), value=m["value"],
                       status=m["status"], origin="user", supersedes=successors.get(m["id"]), state_version=1,
                       created_at=0.0, updated_at=0.0)
            for m in case["memory"]]


def check_case(case: dict) -> list[GuardFinding]:
    items = items_of(case)
    return guard_reply(case["reply"], active=[i for i in items if i.status in ("active", "pending")],
                       history=[i for i in items if i.status not in ("active", "pending")], lang=case["lang"],
                       finished=case.get("finish", "stop") != "length", user_text=case.get("user", ""))


def evaluate(cases: list[dict]) -> dict:
    """Scores per language and kind; false alarms on correct replies; the misses, for reading."""
    scores: dict[tuple[str, str], Score] = defaultdict(Score)
    clean: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])  # lang -> [correct replies, with any finding]
    misses: list[dict] = []
    for case in cases:
        lang = case["lang"]
        got = {(f.kind, f.item) for f in check_case(case)}
        want = {(e["kind"], e.get("item")) for e in case["expect"]}
        # A finding counts when its kind matches an expected one on the same item (or any item for cut_off).
        for kind in KINDS:
            g = {item for k, item in got if k == kind}
            w = {item for k, item in want if k == kind}
            hits = g & w if kind != "cut_off" else (g if w and g else set())
            scores[(lang, kind)].true_pos += len(hits)
            scores[(lang, kind)].false_pos += len(g - hits) if kind != "cut_off" else (1 if g and not w else 0)
            scores[(lang, kind)].false_neg += len(w - hits) if kind != "cut_off" else (1 if w and not g else 0)
        if not want:
            clean[lang][0] += 1
            clean[lang][1] += bool(got)
        if got != want:
            misses.append({"id": case["id"], "want": sorted(map(str, want)), "got": sorted(map(str, got))})
    return {"scores": scores, "clean": clean, "misses": misses}


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def table(result: dict) -> str:
    lines = ["| lang | kind | precision | recall | found / expected |", "|---|---|---|---|---|"]
    scores = result["scores"]
    for lang in ("en", "zh", "all"):
        for kind in (*KINDS, "all"):
            cell = Score()
            for (lg, kd), s in scores.items():
                if (lang in ("all", lg)) and (kind in ("all", kd)):
                    cell.true_pos += s.true_pos
                    cell.false_pos += s.false_pos
                    cell.false_neg += s.false_neg
            if cell.true_pos + cell.false_pos + cell.false_neg == 0:
                continue
            lines.append(f"| {lang} | {kind} | {_fmt(cell.precision())} | {_fmt(cell.recall())} | "
                         f"{cell.true_pos + cell.false_pos} / {cell.true_pos + cell.false_neg} |")
    for lang, (n, alarms) in sorted(result["clean"].items()):
        lines.append(f"\ncorrect replies ({lang}): {n}, false alarms {alarms} ({alarms / max(n, 1):.0%})")
    return "\n".join(lines)


def run(args, settings) -> int:
    path = labelled_set(str(SETS[args.cases]) if args.cases in SETS else args.cases, DATA)
    if path is None:
        return 2
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    if args.limit:
        cases = cases[: args.limit]
    result = evaluate(cases)
    if args.json:
        out = {"scores": {f"{lang}/{kind}": s.model_dump() for (lang, kind), s in result["scores"].items()},
               "clean": result["clean"], "misses": result["misses"]}
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print(table(result))
    if args.misses:
        for miss in result["misses"]:
            print(f"  {miss['id']}: expected {miss['want']}, found {miss['got']}", file=sys.stderr)
    return 0


def register(subparsers):
    parser = subparsers.add_parser("guard", help="the reply guard on a labelled set: precision and recall per kind")
    parser.add_argument("--cases", default=None,
                        help="another labelled set (same JSON shape), or a named one: holdout, departure, departure-holdout")
    parser.add_argument("--limit", type=int, default=None, help="first N cases")
    parser.add_argument("--misses", action="store_true", help="list the cases it got wrong (stderr)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
