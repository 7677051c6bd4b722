"""``paperclip doctor``: what Paperclip found on this machine; non-zero if something essential is missing."""

from __future__ import annotations

import platform
import sys


def register(subparsers):
    parser = subparsers.add_parser("doctor", help="check python, SQLite, sqlite-vec, models and GPU support")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--no-load", dest="no_load", action="store_true", help="skip test-loading the model")
    parser.set_defaults(func=run)
    return parser


def _check(name: str, ok: bool, detail: str, essential: bool = True) -> dict:
    return {"check": name, "ok": ok, "detail": detail, "essential": essential}


def _model_checks(settings, load: bool) -> list[dict]:
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.engine.llama import check_gguf_file
    from desktop_app.manifest import known_hashes, load_manifest, sha256_of

    checks = []
    if settings.engine:
        return [_engine_check(settings)]
    if settings.model is None:
        from desktop_app.config import default_model_choice

        checks.append(_check("default model", True, default_model_choice()[1], essential=False))
    path = settings.model_path
    try:
        check_gguf_file(path)
    except ModelLoadError as exc:
        return [_check("chat model", False, str(exc))]
    expected = known_hashes(load_manifest())
    if path.name in expected and path.parent == settings.model_path.parent:
        actual = sha256_of(path)
        ok = actual == expected[path.name]
        checks.append(_check("chat model sha256", ok, f"{path} ({'matches manifest' if ok else 'MISMATCH: ' + actual})"))
    else:
        checks.append(_check("chat model", True, f"{path} (not in the manifest: sha256 not checked)"))
    if load:
        from desktop_app.commands.common import CommandError, load_engine

        try:
            engine = load_engine(settings, quiet=True)
            checks.append(_check("chat model load", True,
                                 f"{engine.model_name}: loaded in {engine.load_seconds:.2f}s, n_ctx {engine.n_ctx}, "
                                 f"chat template from {engine.template_source}"))
        except CommandError as exc:
            checks.append(_check("chat model load", False, str(exc)))
    return checks


def _engine_check(settings) -> dict:
    """An HTTP engine: reachable, which model, and whether chats leave this machine."""
    from desktop_app.engine.errors import EngineError
    from desktop_app.engine.http import HttpEngine

    try:
        engine = HttpEngine.from_settings(settings)
    except EngineError as exc:
        return _check("chat server", False, str(exc))
    where = "REMOTE: chats leave this machine" if engine.remote else "local/private network"
    return _check("chat server", True, f"{engine.base} serves {engine.model_id} (n_ctx {engine.n_ctx}, "
                                       f"{engine.counter.name}; {where})")


def collect(settings, *, load: bool = True) -> list[dict]:
    """Run every check; each is a dict with check/ok/detail/essential."""
    from desktop_app.engine.llama import gpu_offload_supported
    from desktop_app.memory.sqlite_backend import backend_info

    checks = [_check("python", sys.version_info >= (3, 11), f"{platform.python_version()} ({sys.executable})")]
    info = backend_info()
    checks.append(_check("sqlite", True, f"{info.sqlite_version} via {info.backend}"))
    checks.append(_check("sqlite-vec", info.vec_version is not None,
                         f"{info.vec_version} loaded through {info.backend}" if info.vec_version
                         else f"not loadable: {info.vec_error}"))
    try:
        import llama_cpp

        checks.append(_check("llama-cpp-python", True, llama_cpp.__version__))
    except ImportError as exc:
        checks.append(_check("llama-cpp-python", False, f"not importable: {exc}"))
        return checks
    gpu = gpu_offload_supported()
    checks.append(_check("gpu offload", True, "available (this build can offload layers)" if gpu
                         else "not in this build (CPU only; see README for CMAKE_ARGS)", essential=False))
    from desktop_app.engine.hardware import choose

    machine = choose(settings.threads, settings.gpu_layers)
    memory = f"; {machine.available_memory_bytes / 2**30:.1f} GiB memory available" \
        if machine.available_memory_bytes else ""
    checks.append(_check("threads", True, f"{machine.threads} ({machine.threads_why}){memory}", essential=False))
    checks.append(_check("gpu layers", True, f"{machine.gpu_layers} ({machine.gpu_why})", essential=False))
    from desktop_app.engine.hardware import choose_ctx

    n_ctx, why = choose_ctx(settings.ctx, settings.model_path, machine.gpu_layers)
    checks.append(_check("context window", True, f"{n_ctx} tokens ({why})", essential=False))
    try:
        from desktop_app.engine.tokens import fallback_counter

        counter = fallback_counter()
        checks.append(_check("offline tokenizer", True, counter.name))
    except Exception as exc:
        checks.append(_check("offline tokenizer", False, str(exc)))
    checks.extend(_model_checks(settings, load))
    checks.append(_check("database", True, str(settings.db_path), essential=False))
    return checks


def run(args, settings) -> int:
    from desktop_app.commands.common import print_json

    checks = collect(settings, load=not args.no_load)
    failed = [c for c in checks if c["essential"] and not c["ok"]]
    if args.json:
        print_json({"ok": not failed, "checks": checks})
    else:
        for c in checks:
            mark = "ok  " if c["ok"] else ("FAIL" if c["essential"] else "warn")
            print(f"[{mark}] {c['check']:<20} {c['detail']}")
        print("all essential checks passed" if not failed else f"{len(failed)} essential check(s) failed")
    return 1 if failed else 0
