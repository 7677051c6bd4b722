"""MemoryBank (Chinese) run of the recall benchmark: no gold labels, so latency and a few
sanity examples (the top hit for the dataset's own probing questions)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from desktop_app.memory.lang.text import clip

EXAMPLES = 6


def _time(date: str, index: int) -> float:
    day = datetime.strptime(date, "%Y-%m-%d").replace(tzinfo=UTC)
    return day.timestamp() + 60 * index


def import_memorybank(store, dialogues: dict[str, list[dict]]) -> dict[str, int]:
    """One session per user (``memorybank-<name>``): each pair is a user and an assistant turn."""
    sessions = {}
    for name, pairs in dialogues.items():
        session = store.session_named(f"memorybank-{name}")
        sessions[name] = session.id
        if store.list_messages(session.id, limit=1):
            continue
        with store.transaction():
            for index, pair in enumerate(pairs):
                at = _time(pair["date"], 2 * index)
                store.add_message(session.id, "user", pair["query"], created_at=at)
                store.add_message(session.id, "assistant", pair["response"], created_at=at + 30)
    return sessions


def run_memorybank(path: Path, embedder, *, log=print) -> dict:
    """Import, embed and ask every probing question; returns latency and examples."""
    from desktop_app.bench import percentile
    from desktop_app.bench.recall_data import load_memorybank_cn
    from desktop_app.memory.recall import index_pending, search
    from desktop_app.memory.store import Store

    dialogues, probes = load_memorybank_cn()
    with Store(path) as store:
        sessions = import_memorybank(store, dialogues)
        started = time.perf_counter()
        embedded = index_pending(store, embedder)
        index_seconds = time.perf_counter() - started
        latencies: list[float] = []
        examples: list[dict[str, object]] = []
        for name, asked in probes.items():
            if name not in sessions:
                continue
            for question in asked:
                began = time.perf_counter()
                hits = search(store, sessions[name], question, k=5, embedder=embedder)
                latencies.append(time.perf_counter() - began)
                shown = sum(1 for e in examples if e["user"] == name)
                if len(examples) < EXAMPLES and shown < 2:  # two questions each from the first users
                    top = hits[0] if hits else None
                    examples.append({"user": name, "question": question,
                                     "top_hit": f"[{top.label}] {clip(top.snippet, 90)}" if top else None,
                                     "signals": sorted(top.signals) if top else []})
        # Substring queries of one and two characters (below the trigram index's reach).
        short: dict[str, int] = {}
        any_session = next(iter(sessions.values()))
        for needle in ("画", "钢琴", "图书馆"):
            short[needle] = len(search(store, any_session, needle, k=10))
    turns = sum(len(p) * 2 for p in dialogues.values())
    log(f"MemoryBank cn: {len(sessions)} users, {turns} turns, {len(latencies)} probing questions")
    return {"users": len(sessions), "turns": turns, "questions": len(latencies),
            "index_turns_per_s": embedded / index_seconds if embedded else None,
            "p50_ms": 1000 * percentile(latencies, 0.5), "p95_ms": 1000 * percentile(latencies, 0.95),
            "short_query_hits": short, "examples": examples}


def print_memorybank(result: dict) -> None:
    print()
    print(f"MemoryBank (cn): {result['users']} users, {result['turns']} turns, {result['questions']} probing "
          f"questions; query p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms")
    print("  1-3 character queries, hits in one user's session: "
          + ", ".join(f"{k!r}: {v}" for k, v in result["short_query_hits"].items()))
    for example in result["examples"]:
        print(f"  Q {example['question']}")
        print(f"    → {example['top_hit']}  via {'+'.join(example['signals']) or '-'}")
