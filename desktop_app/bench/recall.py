"""``paperclip bench recall``: turn-level evidence recall on LoCoMo, per signal and fused.

Imports the 10 LoCoMo conversations (one session each, ``dia_id`` kept as the message id,
session dates as times, one page + automatic bookmark per LoCoMo session, a stage summary
every four pages as the summary chain writes them), embeds every turn with the configured
embedding model, asks every category 1-4 question and prints recall_any@1/@5/@10 and MRR per
category for BM25 only, vectors only, bookmarks only, stages only, the fused hybrid without the
stages and the fused hybrid, side by side. ``--chinese`` adds the MemoryBank (cn) latency and sanity run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from desktop_app.bench import percentile
from desktop_app.bench.recall_data import CATEGORIES, DataMissing, Question

METHODS = ("bm25", "vector", "bookmark", "stage", "hybrid-stage", "hybrid")
CUTS = (1, 5, 10)


def register(subparsers):
    parser = subparsers.add_parser("recall", help="LoCoMo recall@k / MRR of BM25, vectors, bookmarks and hybrid")
    parser.add_argument("--work-db", type=Path, default=None,
                        help="benchmark database (reused when present; default: a temporary file)")
    parser.add_argument("--questions", type=int, default=None, help="ask only the first N questions")
    parser.add_argument("--float", dest="quantized", action="store_false",
                        help="exact float KNN instead of the binary coarse pass + float re-score")
    parser.add_argument("--no-chinese", dest="chinese", action="store_false",
                        help="skip the MemoryBank (cn) sanity/latency run")
    parser.add_argument("--rerank", type=int, default=0, metavar="N",
                        help="also re-rank the hybrid top 8 with the chat model on the first N questions "
                             "(recall@k of hybrid vs hybrid + model, same questions)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.set_defaults(func=run)
    return parser


def first_hit_rank(ranked_ext: list[str | None], gold: frozenset[str]) -> int | None:
    """1-based rank of the first gold turn in a ranking, or None."""
    for rank, ext in enumerate(ranked_ext, start=1):
        if ext in gold:
            return rank
    return None


class Scores:
    """recall_any@k and MRR accumulated per method and category."""

    def __init__(self) -> None:
        self.ranks: dict[tuple[str, int], list[int | None]] = defaultdict(list)

    def add(self, method: str, category: int, rank: int | None) -> None:
        self.ranks[(method, category)].append(rank)
        self.ranks[(method, 0)].append(rank)

    def table(self) -> dict[str, dict[str, dict[str, float]]]:
        out: dict[str, dict[str, dict[str, float]]] = {}
        for (method, category), ranks in sorted(self.ranks.items()):
            name = CATEGORIES.get(category, "all")
            n = len(ranks)
            row = {f"@{k}": sum(1 for r in ranks if r is not None and r <= k) / n for k in CUTS}
            row["mrr"] = sum(1.0 / r for r in ranks if r is not None) / n
            row["n"] = n
            out.setdefault(name, {})[method] = row
        return out


def evaluate(store, sessions: dict[str, int], asked: list[Question], *, embedder, weights=None,
             quantized: bool = True, progress=None) -> tuple[Scores, list[float]]:
    """Ask every question; returns the scores and the hybrid query latencies (seconds)."""
    from desktop_app.memory.recall.query import plan_query
    from desktop_app.memory.recall.search import DEFAULT_WEIGHTS, fuse, gather_signals

    weights = weights or DEFAULT_WEIGHTS
    ext_of = {row[0]: row[1] for row in store.conn.execute("SELECT id, ext_id FROM messages")}
    scores = Scores()
    latencies = []
    for index, question in enumerate(asked, start=1):
        session_id = sessions[question.conversation]
        started = time.perf_counter()
        plan = plan_query(question.question)
        lists = gather_signals(store, session_id, question.question, embedder=embedder, weights=weights,
                               quantized=quantized, plan=plan)
        hybrid = fuse(store, session_id, {n: r for n, r in lists.items() if r}, k=max(CUTS), weights=weights,
                      plan=plan)
        latencies.append(time.perf_counter() - started)
        without = fuse(store, session_id, {n: r for n, r in lists.items() if r and n != "stage"}, k=max(CUTS),
                       weights=weights, plan=plan)
        rankings = {name: [ext_of.get(mid) for mid, _ in ranked] for name, ranked in lists.items()}
        rankings["hybrid"] = [h.ext_id for h in hybrid]
        rankings["hybrid-stage"] = [h.ext_id for h in without]
        for method in METHODS:
            scores.add(method, question.category, first_hit_rank(rankings.get(method, []), question.evidence))
        if progress and index % 100 == 0:
            progress(index, len(asked))
    return scores, latencies


def evaluate_rerank(store, sessions: dict[str, int], asked: list[Question], *, embedder, engine,
                    progress=None) -> dict:
    """recall@1/@5/@10 of the hybrid ranking and of the same ranking re-ranked by the model,
    on the same questions, with the seconds the model took per question."""
    from desktop_app.memory.recall.rerank import rerank
    from desktop_app.memory.recall.search import search

    ranks: dict[str, list[int | None]] = {"hybrid": [], "hybrid+model": []}
    seconds = []
    for index, question in enumerate(asked, start=1):
        hits = search(store, sessions[question.conversation], question.question, k=max(CUTS), embedder=embedder)
        started = time.perf_counter()
        reordered = rerank(engine, question.question, hits)
        seconds.append(time.perf_counter() - started)
        ranks["hybrid"].append(first_hit_rank([h.ext_id for h in hits], question.evidence))
        ranks["hybrid+model"].append(first_hit_rank([h.ext_id for h in reordered], question.evidence))
        if progress and index % 10 == 0:
            progress(index, len(asked))
    out = {name: {f"@{k}": sum(1 for r in values if r is not None and r <= k) / max(1, len(values)) for k in CUTS}
           for name, values in ranks.items()}
    return {"questions": len(asked), "recall": out, "model_seconds_p50": percentile(seconds, 0.5)}


def print_table(table: dict, out=sys.stdout) -> None:
    header = f"{'category':<12} {'n':>5}  " + "  ".join(f"{m + ' @1/@5/@10/MRR':<27}" for m in METHODS)
    print(header, file=out)
    print("-" * len(header), file=out)
    order = [*CATEGORIES.values(), "all"]
    for name in order:
        rows = table.get(name)
        if not rows:
            continue
        n = next(iter(rows.values()))["n"]
        cells = []
        for method in METHODS:
            r = rows.get(method)
            cells.append(f"{r['@1']:.3f}/{r['@5']:.3f}/{r['@10']:.3f}/{r['mrr']:.3f}    " if r else " " * 27)
        print(f"{name:<12} {n:>5}  " + "  ".join(cells), file=out)


def build_locomo_db(path: Path, embedder, *, log=print):
    """Import LoCoMo into ``path`` (if not there yet) and embed it; returns the store,
    the sessions and the indexing throughput (turns/s, None when nothing was embedded)."""
    from desktop_app.bench.recall_data import import_locomo, load_locomo
    from desktop_app.memory.archive.summary_chain import chain_pages
    from desktop_app.memory.recall import index_pending
    from desktop_app.memory.store import Store

    samples = load_locomo()
    store = Store(path)
    started = time.perf_counter()
    sessions = import_locomo(store, samples)
    stages = sum(chain_pages(store, sid, now=0.0) for sid in sessions.values())
    log(f"imported {len(samples)} conversations in {time.perf_counter() - started:.1f}s ({stages} new stages)")
    started = time.perf_counter()
    embedded = index_pending(store, embedder, batch=64)
    elapsed = time.perf_counter() - started
    rate = embedded / elapsed if embedded else None
    if embedded:
        log(f"embedded {embedded} turns in {elapsed:.1f}s ({rate:.0f} turns/s)")
    return store, sessions, samples, rate


def run(args: argparse.Namespace, settings) -> int:
    from desktop_app.bench.recall_data import questions
    from desktop_app.commands.common import CommandError, print_json
    from desktop_app.engine.embedder import load_embedder
    from desktop_app.engine.errors import ModelLoadError

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        embedder = load_embedder(settings)
    except ModelLoadError as exc:
        raise CommandError(str(exc)) from None
    with tempfile.TemporaryDirectory(prefix="paperclip-bench-") as tmp:
        path = args.work_db or Path(tmp) / "locomo.db"
        try:
            store, sessions, samples, rate = build_locomo_db(path, embedder, log=log)
        except DataMissing as exc:
            log(f"skipped: {exc}")
            return 0
        asked = questions(samples)[: args.questions]
        log(f"asking {len(asked)} questions (categories 1-4) …")
        scores, latencies = evaluate(store, sessions, asked, embedder=embedder, quantized=args.quantized,
                                     progress=lambda i, n: log(f"  {i}/{n}"))
        table = scores.table()
        latency = {"p50_ms": 1000 * percentile(latencies, 0.5), "p95_ms": 1000 * percentile(latencies, 0.95)}
        reranked = None
        if args.rerank:
            from desktop_app.commands.common import load_engine

            engine = load_engine(settings.model_copy(update={"temperature": 0.0}), quiet=True)
            log(f"re-ranking the first {args.rerank} questions with {engine.model_name} …")
            reranked = evaluate_rerank(store, sessions, asked[: args.rerank], embedder=embedder, engine=engine,
                                       progress=lambda i, n: log(f"  {i}/{n}"))
        chinese = None
        if args.chinese:
            from desktop_app.bench.recall_cn import run_memorybank

            try:
                chinese = run_memorybank(Path(tmp) / "memorybank.db", embedder, log=log)
            except DataMissing as exc:
                log(f"MemoryBank skipped: {exc}")
        store.close()
    if args.json:
        print_json({"embed_model": embedder.model_id, "quantized": args.quantized, "questions": len(asked),
                    "index_turns_per_s": rate, "query_latency": latency, "table": table, "memorybank_cn": chinese,
                    "rerank": reranked})
        return 0
    print(f"LoCoMo turn-level evidence recall ({len(asked)} questions, embedder {embedder.model_name}, "
          f"{'binary coarse + float re-score' if args.quantized else 'exact float'} vectors)")
    print_table(table)
    print(f"hybrid query latency (3 signals incl. query embedding): p50 {latency['p50_ms']:.1f} ms, "
          f"p95 {latency['p95_ms']:.1f} ms" + (f"; indexing {rate:.0f} turns/s" if rate else ""))
    if chinese:
        from desktop_app.bench.recall_cn import print_memorybank

        print_memorybank(chinese)
    if reranked:
        print(f"\nre-ranking the hybrid top 8 by the chat model ({reranked['questions']} questions, "
              f"{reranked['model_seconds_p50']:.1f} s per question p50):")
        for name, cuts in reranked["recall"].items():
            print(f"  {name:<13} " + "  ".join(f"@{k} {cuts[f'@{k}']:.3f}" for k in CUTS))
    return 0
