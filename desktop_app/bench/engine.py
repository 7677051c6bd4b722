"""``paperclip bench engine``: the chat model's speed three ways in one run, on the same prompt —
bare llama-cpp-python, Paperclip's ``LlamaEngine``, and the ``HttpEngine`` talking to a real
``python -m llama_cpp.server`` started here with the same model and threads — plus the
prefix-cache gain (the same prompt cold vs with its history already evaluated).

Targets: the app keeps ≥ 95 % of bare decode speed; the HTTP engine adds ≤ 10 %.
"""

from __future__ import annotations

import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable

HISTORY = "\n".join(f"Turn {i}: the user talked about item {i} and its price of {i * 37} euros." for i in range(40))
PROMPT = [{"role": "system", "content": "You are a helpful assistant.\n" + HISTORY},
          {"role": "user", "content": "Summarise what we said about item 7."}]
STORY = [{"role": "user", "content": "Write a long story about a lighthouse."}]


def register(subparsers):
    parser = subparsers.add_parser("engine", help="load, TTFT, pre-fill and decode: bare llama.cpp vs the app vs HTTP")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decode-tokens", dest="decode_tokens", type=int, default=128)
    parser.add_argument("--no-http", dest="http", action="store_false", help="skip the llama_cpp.server run")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


class BareLlama:
    """llama-cpp-python used directly, as a baseline (same parameters as the app's engine)."""

    def __init__(self, path, n_ctx: int, threads: int, *, top_p: float, repeat_penalty: float):
        from llama_cpp import Llama

        self.top_p, self.repeat_penalty = top_p, repeat_penalty
        started = time.perf_counter()
        self.llama = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
                           verbose=False)
        self.load_seconds = time.perf_counter() - started

    def stream_chat(self, messages, *, max_tokens: int, temperature: float):
        from desktop_app.engine.llama import delta_text, stream_chunks

        for chunk in stream_chunks(self.llama.create_chat_completion(
                messages=messages, stream=True, max_tokens=max_tokens, temperature=temperature, top_p=self.top_p,
                repeat_penalty=self.repeat_penalty)):
            piece = delta_text(chunk["choices"][0])
            if piece:
                yield piece

    def reset_cache(self) -> None:
        self.llama.reset()


def first_token_seconds(engine, messages) -> float:
    started = time.perf_counter()
    for _ in engine.stream_chat(messages, max_tokens=1, temperature=0.0):
        break
    return time.perf_counter() - started


def decode_rate(engine, max_tokens: int) -> float | None:
    pieces, first = 0, None
    for _ in engine.stream_chat(STORY, max_tokens=max_tokens, temperature=0.0):  # greedy: the same text everywhere
        pieces += 1
        first = first or time.perf_counter()
    return (pieces - 1) / (time.perf_counter() - first) if first and pieces > 1 else None


def cold_prompt(index: int) -> list[dict]:
    """The benchmark prompt, its first bytes changed per run so no prefix cache (the app's or
    the server's) can serve it: every runner pre-fills the whole prompt every time."""
    return [{"role": "system", "content": f"Run {index}. " + PROMPT[0]["content"]}, PROMPT[1]]


def measure_interleaved(runners: list[tuple[str, object, Callable[[], object]]], runs: int, decode_tokens: int,
                        prompt_tokens: int) -> list[dict]:
    """Each run measures every runner in turn, so a slower moment of the machine (another
    process, caches, frequency) falls on all of them alike instead of on whoever ran last."""
    cold: dict[str, list[float]] = {name: [] for name, _, _ in runners}
    rates: dict[str, list[float]] = {name: [] for name, _, _ in runners}
    for index in range(runs):
        for name, engine, reset in runners:
            reset()
            cold[name].append(first_token_seconds(engine, cold_prompt(index)))
            rate = decode_rate(engine, decode_tokens)
            if rate:
                rates[name].append(rate)
    rows = []
    for name, engine, _ in runners:
        ttft = statistics.median(cold[name])
        rows.append({"runner": name, "load_seconds": round(getattr(engine, "load_seconds", 0.0), 3),
                     "ttft_seconds": round(ttft, 3), "prefill_tokens_per_second": round(prompt_tokens / ttft, 1),
                     "decode_tokens_per_second": round(statistics.median(rates[name]), 1) if rates[name] else None})
    return rows


def start_server(path, n_ctx: int, threads: int, extra: tuple[str, ...] = (), wait_s: float = 120):
    """``python -m llama_cpp.server`` on a free loopback port (``extra``: more server flags);
    returns (process, base URL, seconds to ready)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--host", "127.0.0.1",
                                "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
                                "--n_threads_batch", str(threads), *extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    while time.perf_counter() - started < wait_s:
        if process.poll() is not None:
            raise RuntimeError("llama_cpp.server exited (is llama-cpp-python[server] installed?)")
        try:
            with urllib.request.urlopen(url + "/models", timeout=1):
                return process, url, time.perf_counter() - started
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"llama_cpp.server did not start within {wait_s:.0f} s")


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, load_engine, print_json
    from desktop_app.engine.hardware import choose

    if settings.engine:
        raise CommandError("bench engine measures the in-process model; leave out --engine", 2)
    loads = []
    for _ in range(args.runs):
        engine = load_engine(settings, quiet=True)
        loads.append(engine.load_seconds)
    threads, n_ctx = engine.n_threads, engine.n_ctx
    prompt_tokens = engine.count_message_tokens(PROMPT)
    warm = []
    for index in range(args.runs):  # the prefix cache: same history, a new question
        engine.reset_cache()
        first_token_seconds(engine, PROMPT)
        warm.append(first_token_seconds(engine, [PROMPT[0], {"role": "user", "content": f"And item {index + 11}?"}]))
    # The same sampling as the app's (top_p, repeat_penalty): only the wrapper's cost differs.
    bare_engine = BareLlama(settings.model_path, n_ctx, threads, top_p=settings.top_p,
                            repeat_penalty=settings.repeat_penalty)
    runners = [("llama-cpp-python (bare)", bare_engine, bare_engine.reset_cache),
               ("LlamaEngine (app)", engine, engine.reset_cache)]
    process = None
    try:
        if args.http:
            from desktop_app.engine.http import HttpEngine

            process, url, ready = start_server(settings.model_path, n_ctx, threads)
            http = HttpEngine(url, n_ctx=n_ctx)
            http.load_seconds = ready
            runners.append(("HttpEngine → llama_cpp.server", http, lambda: None))
        rows = measure_interleaved(runners, args.runs, args.decode_tokens, prompt_tokens)
    finally:
        if process is not None:
            process.terminate()
            process.wait(10)
    bare, app = rows[0], rows[1]
    app["load_seconds"] = round(statistics.median(loads), 3)
    result = {"model": settings.model_path.name, "n_ctx": n_ctx, "threads": threads,
              "threads_why": choose(settings.threads, settings.gpu_layers).threads_why, "prompt_tokens": prompt_tokens,
              "runners": rows, "ttft_cached_prefix_seconds": round(statistics.median(warm), 3)}
    if args.json:
        print_json(result)
        return 0
    print(f"{result['model']} · n_ctx {n_ctx} · {threads} thread(s) · {prompt_tokens}-token prompt · "
          f"median of {args.runs}")
    print(f"{'runner':<32} {'load s':>7} {'TTFT s':>7} {'pre-fill tok/s':>15} {'decode tok/s':>13} {'vs bare':>8}")
    base = bare["decode_tokens_per_second"] or 0
    for row in rows:
        share = f"{row['decode_tokens_per_second'] / base:.0%}" if base and row["decode_tokens_per_second"] else "-"
        print(f"{row['runner']:<32} {row['load_seconds']:>7.2f} {row['ttft_seconds']:>7.3f} "
              f"{row['prefill_tokens_per_second']:>15.1f} {row['decode_tokens_per_second'] or 0:>13.1f} {share:>8}")
    speedup = app["ttft_seconds"] / max(result["ttft_cached_prefix_seconds"], 1e-6)
    print(f"prefix cache (app): TTFT {app['ttft_seconds']:.3f} s cold, {result['ttft_cached_prefix_seconds']:.3f} s "
          f"with the history already evaluated ({speedup:.0f}x)")
    return 0
