"""The evaluated prompt kept per session across restarts.

Reopening a long session used to evaluate its whole prompt from cold (15–20 s for 1.7k tokens
on a 2-core CPU). Leaving a session, quitting, and the end of a headless ``ask`` save the chat
context's evaluated tokens and KV cells (llama.cpp's sequence state file); reopening restores
them, so only what changed since is evaluated.

Files live in ``<data dir>/kv/`` with 0600 permissions, one ``.kv`` file and one ``.json``
description per session, bounded in total size (least recently used go first). A file is used
only for the same model file, the same ``n_ctx`` and intact bytes (sha256 of the state and of
its tokens); anything else is ignored with a log line and the context starts cold — never a
crash. The prefix check is llama.cpp's own: only the tokens shared with the next prompt count.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from desktop_app.engine.prefix import common_prefix
from desktop_app.engine.protocol import ChatEngine, StatefulEngine, unwrap

log = logging.getLogger(__name__)

FORMAT = 1
MIN_TOKENS = 32  # below this a restore is not worth a file


@dataclass(frozen=True)
class RestoreResult:
    restored: bool
    tokens: int = 0
    reason: str = ""


class CacheSettings(Protocol):
    """What :meth:`KvCache.for_settings` reads of the app's ``Settings`` (which sit above the engine)."""

    @property
    def kv_cache_mb(self) -> int: ...
    @property
    def db_path(self) -> Path: ...


def model_identity(path: Path) -> dict[str, Any]:
    """Name, size and a hash of the first MiB: a different (or re-downloaded) file does not match."""
    stat = path.stat()
    with path.open("rb") as handle:
        head = hashlib.sha256(handle.read(1 << 20)).hexdigest()
    return {"name": path.name, "size": stat.st_size, "head_sha256": head}


def tokens_digest(tokens: Sequence[Hashable]) -> str:
    return hashlib.sha256(",".join(map(str, tokens)).encode()).hexdigest()


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class KvCache:
    """Saved chat-context states, one per key (``<database>-<session id>``), LRU-bounded."""

    def __init__(self, directory: Path, max_bytes: int) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes

    @classmethod
    def for_settings(cls, settings: CacheSettings) -> KvCache | None:
        """The cache next to the settings' database, or None when ``kv_cache_mb`` is 0."""
        if settings.kv_cache_mb <= 0:
            return None
        from desktop_app.paths import states_dir

        return cls(states_dir(settings.db_path), settings.kv_cache_mb << 20)

    @staticmethod
    def key(db_path: Path, session_id: int, model_path: Path) -> str:
        """One state per database, session and model file."""
        where = f"{Path(db_path).resolve()}\n{Path(model_path).name}"
        return f"{hashlib.sha256(where.encode()).hexdigest()[:16]}-{int(session_id)}"

    def _paths(self, key: str) -> tuple[Path, Path]:
        return self.directory / f"{key}.kv", self.directory / f"{key}.json"

    # -- save ----------------------------------------------------------------------------
    def save(self, engine: ChatEngine, key: str) -> int:
        """Write ``engine``'s evaluated state under ``key``; returns the bytes written (0: nothing to
        save, or this engine cannot). Errors are logged, never raised."""
        inner = unwrap(engine)
        if not isinstance(inner, StatefulEngine):
            return 0
        saver = engine if isinstance(engine, StatefulEngine) else inner  # a lock's wrapper saves under its lock
        if len(inner.cached_tokens()) < MIN_TOKENS:
            return 0
        data, meta = self._paths(key)
        tmp = data.with_suffix(".kv.tmp")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            os.chmod(self.directory, 0o700)
            tokens = saver.save_state(tmp)
            os.chmod(tmp, 0o600)
            description = {"format": FORMAT, "model": model_identity(inner.model_path), "n_ctx": inner.n_ctx,
                           "tokens": tokens, "tokens_sha256": tokens_digest(tokens),
                           "state_sha256": file_digest(tmp), "saved_at": time.time()}
            fd = os.open(meta.with_suffix(".json.tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(description, handle)
            tmp.replace(data)
            meta.with_suffix(".json.tmp").replace(meta)
        except (OSError, ValueError) as exc:
            log.warning("kv cache: could not save %s: %s", key, exc)
            tmp.unlink(missing_ok=True)
            return 0
        self._evict(keep=key)
        return data.stat().st_size

    def _evict(self, keep: str) -> None:
        """Drop the least recently used states until the total fits ``max_bytes``."""
        files = sorted(self.directory.glob("*.kv"), key=lambda p: p.stat().st_mtime)
        total = sum(p.stat().st_size for p in files)
        for path in files:
            if total <= self.max_bytes:
                break
            if path.stem == keep:
                continue
            total -= path.stat().st_size
            self.forget(path.stem)

    def forget(self, key: str) -> None:
        for path in self._paths(key):
            path.unlink(missing_ok=True)

    # -- restore ---------------------------------------------------------------------------
    def restore(self, engine: ChatEngine, key: str, *, prefix: Sequence[Hashable] | None = None) -> RestoreResult:
        """Load the state saved under ``key`` into ``engine`` when it matches (and, given the next
        prompt's ``prefix`` tokens, when it shares at least ``MIN_TOKENS`` of them); else leave it cold."""
        inner = unwrap(engine)
        data, meta = self._paths(key)
        if not isinstance(inner, StatefulEngine) or not data.exists() or not meta.exists():
            return RestoreResult(False, reason="nothing saved")
        loader = engine if isinstance(engine, StatefulEngine) else inner  # a lock's wrapper loads under its lock
        try:
            description = json.loads(meta.read_text(encoding="utf-8"))
            reason = self._mismatch(description, inner, data)
            if not reason and prefix is not None and common_prefix(description["tokens"], prefix) < MIN_TOKENS:
                reason = "the prompt head changed since it was saved"
        except (OSError, ValueError, KeyError, TypeError) as exc:
            reason = f"unreadable description ({exc})"
        if reason:
            log.warning("kv cache: ignoring the saved state of %s: %s", key, reason)
            self.forget(key)
            return RestoreResult(False, reason=reason)
        try:
            tokens = loader.load_state(data)
        except (OSError, ValueError) as exc:
            log.warning("kv cache: ignoring the saved state of %s: %s", key, exc)
            self.forget(key)
            return RestoreResult(False, reason=str(exc))
        if tokens_digest(tokens) != description["tokens_sha256"] or tokens != description["tokens"]:
            loader.reset_cache()
            self.forget(key)
            log.warning("kv cache: ignoring the saved state of %s: its tokens do not match", key)
            return RestoreResult(False, reason="tokens do not match")
        os.utime(data)  # recently used
        return RestoreResult(True, tokens=len(tokens))

    @staticmethod
    def _mismatch(description: dict[str, Any], inner: StatefulEngine, data: Path) -> str:
        if description.get("format") != FORMAT:
            return "written by another version"
        if description["model"] != model_identity(inner.model_path):
            return "saved with a different model file"
        if description["n_ctx"] != inner.n_ctx:
            return f"saved with n_ctx {description['n_ctx']}, now {inner.n_ctx}"
        if file_digest(data) != description["state_sha256"]:
            return "the state file is damaged"
        return ""
