"""One owner per llama.cpp context: locked wrappers for the chat engine and the embedder.

A ``Llama`` object must not be used from two threads at once. Instead of every caller
keeping its own lock (and two callers keeping two locks for the same model), the model is
wrapped once, where it is loaded, and every use goes through the wrapper's lock. The chat
turn, the background memory jobs and prompt-time recall all hold the same wrapper.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.engine.protocol import (
    ChatEngine,
    ChatMessage,
    CoveringEmbedder,
    Embedder,
    Progress,
    QueryEmbedder,
    ScriptHold,
    StatefulEngine,
    StopCheck,
    TokenCounter,
    Variation,
    WarmableEngine,
    WarmResult,
    relatedness,
)


class ModelGuard:
    """The lock of one model, with a count of threads waiting for it (so background work can yield)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = threading.Lock()
        self._waiting = 0

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Use the model: blocks until it is free."""
        with self._count:
            self._waiting += 1
        try:
            self._lock.acquire()
        finally:
            with self._count:
                self._waiting -= 1
        try:
            yield
        finally:
            self._lock.release()

    @property
    def wanted(self) -> bool:
        """Someone is waiting for the model: background work should stop at its next check."""
        with self._count:
            return self._waiting > 0


class LockedEngine:
    """A chat engine that one thread uses at a time (satisfies ``ChatEngine``; and, when the
    engine it wraps does, ``WarmableEngine`` and ``StatefulEngine``: ``can_warm`` and the KV
    cache look at ``inner`` to tell)."""

    def __init__(self, engine: ChatEngine, guard: ModelGuard | None = None) -> None:
        if isinstance(engine, LockedEngine):
            engine = engine.inner
        self.inner: ChatEngine = engine
        self.guard = guard or ModelGuard()

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def n_ctx(self) -> int:
        return self.inner.n_ctx

    @property
    def counter(self) -> TokenCounter:
        # Tokenizing reads the vocabulary only; it does not touch the evaluation context.
        return self.inner.counter

    @property
    def model_path(self) -> Path:
        return self._stateful().model_path

    def __getattr__(self, name: str) -> Any:
        # Metadata (path, size, load time, chat template …) passes through; calls that
        # evaluate are the methods below.
        return getattr(self.inner, name)

    def _warmable(self) -> WarmableEngine:
        if not isinstance(self.inner, WarmableEngine):
            raise AttributeError(f"{type(self.inner).__name__} keeps no evaluated prefix")
        return self.inner

    def _stateful(self) -> StatefulEngine:
        if not isinstance(self.inner, StatefulEngine):
            raise AttributeError(f"{type(self.inner).__name__} cannot save its state")
        return self.inner

    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None, script: ScriptHold | None = None) -> Iterator[str]:
        """Stream under the lock; it is released when the stream ends or is closed."""
        extra: dict[str, Any] = {key: value for key, value in (("variation", variation), ("script", script))
                                 if value is not None}
        with self.guard.hold():
            yield from self.inner.stream_chat(messages, max_tokens=max_tokens, temperature=temperature,
                                              should_stop=should_stop, progress=progress, **extra)

    def warm(self, messages: Sequence[ChatMessage], *, lead: str = "", should_stop: StopCheck | None = None,
             progress: Progress | None = None) -> WarmResult:
        with self.guard.hold():
            return self._warmable().warm(messages, lead=lead, should_stop=should_stop, progress=progress)

    # Tokenizing and reading the evaluated token list leave the context alone: no lock (as before,
    # when these passed through ``__getattr__``); neither does forgetting the prefix.
    def prefix_tokens(self, messages: Sequence[ChatMessage], lead: str = "") -> Sequence[Hashable]:
        return self._warmable().prefix_tokens(messages, lead)

    def cached_tokens(self) -> Sequence[Hashable]:
        return self._warmable().cached_tokens()

    def reset_cache(self) -> None:
        self._stateful().reset_cache()

    def save_state(self, path: Path) -> list[int]:
        with self.guard.hold():
            return self._stateful().save_state(path)

    def load_state(self, path: Path) -> list[int]:
        with self.guard.hold():
            return self._stateful().load_state(path)

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        with self.guard.hold():
            return self.inner.count_message_tokens(messages)

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict[str, Any]:
        with self.guard.hold():
            return self.inner.complete_json(messages, schema, max_tokens=max_tokens, temperature=temperature,
                                            should_stop=should_stop)


class LockedEmbedder:
    """An embedder that one thread uses at a time (satisfies ``Embedder``, ``QueryEmbedder`` and
    ``CoveringEmbedder``: an embedder without its own ``embed_query`` embeds the question as a
    passage, and one that cannot tell what it covers covers everything)."""

    def __init__(self, embedder: Embedder, guard: ModelGuard | None = None) -> None:
        if isinstance(embedder, LockedEmbedder):
            embedder = embedder.inner
        self.inner: Embedder = embedder
        self.guard = guard or ModelGuard()
        self.model_id = embedder.model_id
        self.dim = embedder.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self.guard.hold():
            return self.inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector (E5-style models embed questions apart from passages)."""
        inner = self.inner
        with self.guard.hold():
            return inner.embed_query(text) if isinstance(inner, QueryEmbedder) else inner.embed([text])[0]

    def relatedness(self, cosines: np.ndarray) -> np.ndarray:
        return relatedness(self.inner, cosines)

    def covers(self, text: str) -> bool:
        inner = self.inner
        if not isinstance(inner, CoveringEmbedder):
            return True
        with self.guard.hold():
            return inner.covers(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def locked_embedder(embedder: Embedder | None) -> LockedEmbedder | None:
    return None if embedder is None else LockedEmbedder(embedder)
