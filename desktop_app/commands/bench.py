"""``paperclip bench NAME``: benchmarks that print tables (never run as timed tests).

Each benchmark lives in ``desktop_app/bench/<name>.py`` with ``register(subparsers)``.
"""

from __future__ import annotations

import importlib

# Each module in desktop_app/bench/ registers itself.
BENCHMARKS = ("engine", "recall", "recall_latency", "context", "ttft", "pipeline", "answers", "memory", "health", "guard",
              "material", "qa", "constraints", "docs", "faults", "paging", "peers", "crosslang")


def register(subparsers):
    parser = subparsers.add_parser("bench", help="run a benchmark and print its table")
    bench_sub = parser.add_subparsers(dest="bench", metavar="BENCHMARK", required=True)
    parsers = [parser]
    for name in BENCHMARKS:
        module = importlib.import_module(f"desktop_app.bench.{name}")
        parsers.append(module.register(bench_sub))
    return parsers
