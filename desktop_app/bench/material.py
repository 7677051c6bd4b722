"""``paperclip bench material``: text handed over to be processed writes no memory.

Each case is one user message, labelled ``none`` (what it holds is material — an email to
summarise, a sentence to translate — and nothing may be stored), ``rule`` (the user's own standing
rule sits beside or instead of material and must be stored) or ``fact`` (the user's own fact sits
beside material and must be stored). The set (``bench/data/material_cases.json``) was written blind
by a helper who saw no code. Scored on the rules (``extract``), no model: false memories on
``none``, recall on ``rule`` and ``fact``, per language.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from desktop_app.bench import labelled_set
from desktop_app.memory.write.extraction import extract

DATA = Path(__file__).parent / "data" / "material_cases.json"
WRITES = ("add", "correct", "revoke")


def written(message: str) -> set[str]:
    """What the rules would store from ``message``: "rule" and/or "fact" (any other kept item)."""
    out = set()
    for candidate in extract(message):
        if candidate.action in WRITES:
            out.add("rule" if candidate.kind == "directive" else "fact")
    return out


def evaluate(cases: list[dict]) -> dict:
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # (lang, expect) -> [right, total]
    misses = []
    for case in cases:
        got = written(case["message"])
        want = case["expect"]
        right = not got if want == "none" else want in got
        cell = cells[(case["lang"], want)]
        cell[0] += right
        cell[1] += 1
        if not right:
            misses.append({"id": case["id"], "expect": want, "got": sorted(got)})
    return {"cells": cells, "misses": misses}


def table(result: dict) -> str:
    names = {"none": "material wrote nothing", "rule": "own rule kept", "fact": "own fact kept"}
    lines = ["| lang | case | right / cases |", "|---|---|---|"]
    for (lang, want), (right, total) in sorted(result["cells"].items()):
        lines.append(f"| {lang} | {names.get(want, want)} | {right} / {total} ({right / max(total, 1):.0%}) |")
    return "\n".join(lines)


def run(args, settings) -> int:
    path = labelled_set(args.cases, DATA)
    if path is None:
        return 2
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = data["cases"] if isinstance(data, dict) else data
    result = evaluate(cases[: args.limit] if args.limit else cases)
    if args.json:
        print(json.dumps({"cells": {f"{lang}/{want}": v for (lang, want), v in result["cells"].items()},
                          "misses": result["misses"]}, ensure_ascii=False, indent=2))
        return 0
    print(table(result))
    if args.misses:
        for miss in result["misses"]:
            print(f"  {miss['id']}: expected {miss['expect']}, wrote {miss['got'] or 'nothing'}", file=sys.stderr)
    return 0


def register(subparsers):
    parser = subparsers.add_parser("material", help="handed-over text (summarise/translate this) writes no memory")
    parser.add_argument("--cases", default=None, help="another labelled set (same JSON shape)")
    parser.add_argument("--limit", type=int, default=None, help="first N cases")
    parser.add_argument("--misses", action="store_true", help="list the cases it got wrong (stderr)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
