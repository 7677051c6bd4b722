"""``paperclip bench engine``: model load time, pre-fill and decode speed, prefix reuse.

Baseline in the same run: the same prompt evaluated cold (cache reset) vs with its prefix
already evaluated, so the prefix-cache gain is measured, not assumed.
"""

from __future__ import annotations

import statistics
import time


def register(subparsers):
    parser = subparsers.add_parser("engine", help="load time, pre-fill and decode tokens/s of the chat model")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decode-tokens", dest="decode_tokens", type=int, default=128)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def _timed_first_token(engine, messages) -> float:
    started = time.perf_counter()
    for _ in engine.stream_chat(messages, max_tokens=1, temperature=0.0):
        break
    return time.perf_counter() - started


def run(args, settings) -> int:
    from desktop_app.commands.common import load_engine, print_json

    loads = []
    for _ in range(args.runs):
        engine = load_engine(settings, quiet=True)
        loads.append(engine.load_seconds)
    history = "\n".join(f"Turn {i}: the user talked about item {i} and its price of {i * 37} euros."
                        for i in range(40))
    messages = [{"role": "system", "content": "You are a helpful assistant.\n" + history},
                {"role": "user", "content": "Summarise what we said about item 7."}]
    prompt_tokens = engine.count_message_tokens(messages)
    cold, warm = [], []
    for run_index in range(args.runs):
        engine.reset_cache()
        cold.append(_timed_first_token(engine, messages))
        # Same history, a new question: only the tail after the shared prefix is evaluated.
        follow_up = [messages[0], {"role": "user", "content": f"And what about item {run_index + 11}?"}]
        warm.append(_timed_first_token(engine, follow_up))
    decode_rates = []
    for _ in range(args.runs):
        pieces, first = 0, None
        for _piece in engine.stream_chat([{"role": "user", "content": "Write a long story about a lighthouse."}],
                                         max_tokens=args.decode_tokens, temperature=0.7):
            pieces += 1
            first = first or time.perf_counter()
        if first and pieces > 1:
            decode_rates.append((pieces - 1) / (time.perf_counter() - first))
    result = {
        "model": engine.model_name, "n_ctx": engine.n_ctx,
        "load_seconds_median": round(statistics.median(loads), 3),
        "prompt_tokens": prompt_tokens,
        "ttft_cold_seconds": round(statistics.median(cold), 3),
        "ttft_cached_prefix_seconds": round(statistics.median(warm), 3),
        "prefill_tokens_per_second": round(prompt_tokens / statistics.median(cold), 1),
        "decode_tokens_per_second": round(statistics.median(decode_rates), 1) if decode_rates else None,
    }
    if args.json:
        print_json(result)
        return 0
    print(f"model                 {result['model']} (n_ctx {result['n_ctx']})")
    print(f"load time (median)    {result['load_seconds_median']:.3f} s")
    print(f"pre-fill              {result['prefill_tokens_per_second']} tokens/s ({prompt_tokens}-token prompt)")
    print(f"decode                {result['decode_tokens_per_second']} tokens/s")
    speedup = result["ttft_cold_seconds"] / max(result["ttft_cached_prefix_seconds"], 1e-6)
    print(f"TTFT cold / prefix    {result['ttft_cold_seconds']:.3f} s / {result['ttft_cached_prefix_seconds']:.3f} s"
          f"  ({speedup:.0f}x faster with the prefix cached)")
    return 0
