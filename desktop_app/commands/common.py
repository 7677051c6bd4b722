"""What every subcommand shares: settings from flags, opening the store and the engine,
and turning known failures into one-line errors."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from desktop_app.config import ConfigError, Settings, load_settings


class CommandError(Exception):
    """A user-facing failure: printed as one line on stderr, exit code non-zero."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code


_SETTING_FLAGS = ("db", "model", "ctx", "gpu_layers", "threads", "mode", "embed_model", "lang", "engine")


def settings_from_args(args: argparse.Namespace) -> Settings:
    overrides = {key: getattr(args, key) for key in _SETTING_FLAGS if hasattr(args, key)}
    try:
        return load_settings(overrides, config_path=getattr(args, "config", None))
    except ConfigError as exc:
        raise CommandError(str(exc), 2) from None


def open_store(settings: Settings):
    """The store at the configured path, or a one-line error."""
    from desktop_app.memory.store import Store
    from desktop_app.memory.store.db import DatabaseError

    try:
        return Store(settings.db_path)
    except DatabaseError as exc:
        raise CommandError(str(exc)) from None


def resolve_session(store, args: argparse.Namespace, *, create: bool = True):
    """``--session NAME`` (created on demand), else the most recent session, else 'default'."""
    from desktop_app.memory.store.sessions import SessionNotFound

    name = getattr(args, "session", None)
    try:
        if name:
            return store.session_named(name, create=create)
        latest = store.latest_session()
        if latest is not None:
            return latest
        return store.session_named("default", create=create)
    except SessionNotFound as exc:
        raise CommandError(str(exc)) from None


def load_engine(settings: Settings, *, quiet: bool = False):
    """Load the chat model (or connect to the configured server), or fail with one line."""
    from desktop_app.engine.errors import EngineError

    if settings.engine:
        from desktop_app.engine.http import HttpEngine

        try:
            engine = HttpEngine.from_settings(settings)
        except EngineError as exc:
            raise CommandError(str(exc)) from None
        if not quiet:
            where = "a remote server: chats leave this machine" if engine.remote else "a local server"
            print(f"using {engine.model_name} at {engine.base} ({where})", file=sys.stderr, flush=True)
        return engine
    from desktop_app.engine.llama import LlamaEngine

    if not quiet:
        print(f"loading {settings.model_path.name} …", file=sys.stderr, flush=True)
    try:
        return LlamaEngine.from_settings(settings)
    except EngineError as exc:
        raise CommandError(str(exc)) from None


def print_json(data: Any) -> None:
    """Machine-readable output: UTF-8, one document."""
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))
