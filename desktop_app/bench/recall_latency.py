"""``paperclip bench recall-latency``: query latency at 10k / 100k (/ 1M) stored turns and
indexing throughput, float vs binary-quantised vector search.

The big sessions are grown from LoCoMo: the real turns and their real embeddings, repeated
with a varied suffix (``… #n``) and Gaussian noise on the vector (so copies are not exact
duplicates and the index cannot short-cut them). Indexing throughput is measured separately
on real turns, embedding included. Queries are LoCoMo questions; each latency includes
embedding the query.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from desktop_app.bench.recall_data import DataMissing

MODES = ("bm25", "vector-float", "vector-binary", "hybrid-float", "hybrid-binary")


def register(subparsers):
    parser = subparsers.add_parser("recall-latency", help="recall query latency at 10k/100k(/1M) turns")
    parser.add_argument("--sizes", default="10000,100000",
                        help="comma-separated session sizes in turns (default: 10000,100000; 1000000 takes minutes)")
    parser.add_argument("--queries", type=int, default=200, help="LoCoMo questions per size (default 200)")
    parser.add_argument("--index-sample", type=int, default=1000,
                        help="real turns embedded to measure indexing throughput (default 1000)")
    parser.add_argument("--work-dir", type=Path, default=None, help="keep the databases here")
    parser.add_argument("--encrypt", action="store_true",
                        help="time each size twice, plain and SQLCipher-encrypted, side by side")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def _base_turns() -> tuple[list[str], list[str]]:
    from desktop_app.bench.recall_data import conversation_sessions, load_locomo, questions, turn_text

    samples = load_locomo()
    texts = [turn_text(t) for s in samples for _, turns in conversation_sessions(s) for t in turns]
    asked = [q.question for q in questions(samples)]
    return texts, asked


def measure_indexing(path: Path, embedder, texts: list[str]) -> float:
    """Turns/s for storing turns and embedding them (FTS triggers + vec0 inserts included)."""
    from desktop_app.memory.recall import index_pending
    from desktop_app.memory.store import Store

    with Store(path) as store:
        session = store.session_named("indexing")
        started = time.perf_counter()
        with store.transaction():
            for index, text in enumerate(texts):
                store.add_message(session.id, "user" if index % 2 == 0 else "assistant", text)
        index_pending(store, embedder, batch=64)
        return len(texts) / (time.perf_counter() - started)


def grow_session(path: Path, embedder, texts: list[str], size: int, *, log) -> int:
    """A database with one session of ``size`` turns (reused when already there)."""
    from desktop_app.memory.recall import prepare_vectors
    from desktop_app.memory.store import Store

    store = Store(path)
    session = store.session_named(f"grown-{size}")
    have = len(store.list_messages(session.id))
    if have >= size:
        store.close()
        return session.id
    prepare_vectors(store, embedder)
    base = np.asarray(embedder.embed(texts[:2000]), dtype=np.float32)
    rng = np.random.default_rng(size)
    started = time.perf_counter()
    chunk = 5000
    for start in range(have, size, chunk):
        rows = []
        with store.transaction():
            for index in range(start, min(size, start + chunk)):
                source = index % len(texts)
                text = texts[source] if index < len(texts) else f"{texts[source]} #{index // len(texts)}"
                message = store.add_message(session.id, "user" if index % 2 == 0 else "assistant", text,
                                            created_at=1.6e9 + index * 60)
                vector = base[index % len(base)] + rng.normal(0, 0.02, size=(base.shape[1],)).astype(np.float32)
                rows.append((message.id, session.id, (vector / np.linalg.norm(vector)).astype(np.float32).tobytes()))
            store.save_embeddings(rows)
        log(f"  {min(size, start + chunk)}/{size} turns ({time.perf_counter() - started:.0f}s)")
    store.close()
    return session.id


def time_queries(path: Path, session_id: int, embedder, asked: list[str]) -> dict[str, dict[str, float]]:
    """p50/p95 (ms) per mode, plus how many of the float top-10 the binary pass also finds."""
    from desktop_app.bench import percentile
    from desktop_app.memory.core.recall_hits import SIGNALS
    from desktop_app.memory.recall import search
    from desktop_app.memory.store import Store

    out: dict[str, dict[str, float]] = {}
    with Store(path) as store:
        for mode in MODES:
            signals = ("bm25",) if mode == "bm25" else ("vector",) if mode.startswith("vector") else SIGNALS
            quantized = mode.endswith("binary")
            search(store, session_id, asked[0], k=10, embedder=embedder, quantized=quantized, signals=signals)  # warm
            latencies = []
            for question in asked:
                started = time.perf_counter()
                search(store, session_id, question, k=10, embedder=embedder, quantized=quantized, signals=signals)
                latencies.append(time.perf_counter() - started)
            out[mode] = {"p50_ms": 1000 * percentile(latencies, 0.5), "p95_ms": 1000 * percentile(latencies, 0.95)}
        overlap = []
        for question in asked[:50]:
            exact = {h.message_id for h in search(store, session_id, question, k=10, embedder=embedder,
                                                  signals=("vector",), quantized=False)}
            coarse = {h.message_id for h in search(store, session_id, question, k=10, embedder=embedder,
                                                   signals=("vector",), quantized=True)}
            overlap.append(len(exact & coarse) / max(1, len(exact)))
        out["binary_vs_float_top10_overlap"] = {"mean": float(np.mean(overlap))}
    return out


def run(args: argparse.Namespace, settings) -> int:
    from desktop_app.commands.common import CommandError, print_json
    from desktop_app.engine.embedder import load_embedder
    from desktop_app.engine.errors import ModelLoadError

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        raise CommandError(f"--sizes must be comma-separated integers, not {args.sizes!r}", 2) from None
    try:
        embedder = load_embedder(settings)
        texts, asked = _base_turns()
    except ModelLoadError as exc:
        raise CommandError(str(exc)) from None
    except DataMissing as exc:
        log(f"skipped: {exc}")
        return 0
    asked = asked[: args.queries]
    results: dict = {"embed_model": embedder.model_id, "queries": len(asked), "sizes": {}}
    with tempfile.TemporaryDirectory(prefix="paperclip-latency-") as tmp:
        folder = args.work_dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        from desktop_app.memory.store.encryption import register_passphrase

        for encrypted in (False, True) if args.encrypt else (False,):
            tag = "/enc" if encrypted else ""

            def place(name: str, encrypted=encrypted) -> Path:
                path = folder / name
                if encrypted:
                    register_passphrase(path, "bench passphrase")
                return path

            log(f"indexing throughput on {args.index_sample} real turns{' (encrypted)' if encrypted else ''} …")
            indexing = place(f"indexing{tag.replace('/', '-')}.db")
            results[f"index_turns_per_s{tag}"] = measure_indexing(indexing, embedder, texts[: args.index_sample])
            indexing.unlink(missing_ok=True)
            for size in sizes:
                path = place(f"grown-{size}{tag.replace('/', '-')}.db")
                log(f"growing a {size}-turn session{' (encrypted)' if encrypted else ''} …")
                session_id = grow_session(path, embedder, texts, size, log=log)
                log(f"timing {len(asked)} queries per mode …")
                results["sizes"][f"{size}{tag}"] = time_queries(path, session_id, embedder, asked)
                results["sizes"][f"{size}{tag}"]["db_mb"] = {"mean": path.stat().st_size / 1e6}
    if args.json:
        print_json(results)
        return 0
    print(f"Recall latency ({len(asked)} LoCoMo questions, k=10, embedder {embedder.model_name}; "
          f"each query includes embedding it)")
    print(f"{'turns':>9}  " + "  ".join(f"{m:>16}" for m in MODES) + "  binary∩float@10   db MB")
    for size, row in results["sizes"].items():
        cells = "  ".join(f"{row[m]['p50_ms']:>7.1f}/{row[m]['p95_ms']:<7.1f} " for m in MODES)
        overlap = row["binary_vs_float_top10_overlap"]["mean"]
        print(f"{size:>9}  {cells}  {overlap:>15.2f}  {row['db_mb']['mean']:>6.0f}")
    print("(cells: p50/p95 ms)")
    print(f"indexing throughput incl. embedding: {results['index_turns_per_s']:.0f} turns/s"
          + (f" (encrypted: {results['index_turns_per_s/enc']:.0f} turns/s)" if args.encrypt else ""))
    if args.encrypt:
        print("/enc = the same database encrypted with SQLCipher 4")
    return 0
