"""The small protocol the rest of Paperclip uses to reach a model.

The memory core and the UI depend on these shapes only, so tests can drive them with a
scripted engine and the real llama.cpp engine can be swapped for any other.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, runtime_checkable

# pydantic validates a TypedDict field (``ContextPlan.messages``) only when it comes from
# typing_extensions before Python 3.12 (pydantic itself depends on typing_extensions).
from typing_extensions import TypedDict

if TYPE_CHECKING:
    import numpy as np


class ChatMessage(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


StopCheck = Callable[[], bool]
Progress = Callable[[int, int], object]  # (tokens evaluated so far, tokens to evaluate)


@dataclass(frozen=True)
class WarmResult:
    """One pre-fill: of ``total`` prompt tokens, ``reused`` were already evaluated and
    ``evaluated`` were evaluated now; ``complete`` is False when a stop cut it short."""

    total: int
    reused: int
    evaluated: int
    complete: bool
    seconds: float = 0.0


@dataclass(frozen=True)
class Variation:
    """How a second attempt at a reply differs from the first: another sampling seed, a stronger
    repeat penalty, at least some randomness, and, where the engine can rule tokens out, neither
    the opening of a rejected reply nor a run of a text the reply must not copy (``engine.no_copy``)."""

    seed: int
    repeat_penalty: float = 1.3
    min_temperature: float = 0.7
    avoid: tuple[str, ...] = ()  # rejected replies: none may open the new one
    sources: tuple[str, ...] = ()  # texts the new reply may not copy a run of tokens from
    lines: tuple[str, ...] = ()  # the program's own lines to the model: not even a shorter run of them


@dataclass(frozen=True)
class ScriptHold:
    """The language a reply is held to while it is sampled (``engine.script_hold``), where the engine can
    rule tokens out: ``lang`` "zh" keeps lower-case English words out from against Chinese, but for
    ``words`` (and any word they begin like), and with ``hold_opening`` any English word out of its opening, but for
    ``opening``; "en" keeps Chinese out, but for runs that one of ``said`` (the user's messages) holds."""

    lang: str
    words: frozenset[str] = frozenset()
    said: tuple[str, ...] = ()
    opening: frozenset[str] = frozenset()
    hold_opening: bool = False


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens exactly as the model (or the fallback encoding) would."""

    name: str

    def count(self, text: str) -> int: ...


@runtime_checkable
class ChatEngine(Protocol):
    """A loaded chat model. One engine instance serves one thread at a time."""

    @property
    def model_name(self) -> str: ...

    @property
    def n_ctx(self) -> int: ...

    @property
    def counter(self) -> TokenCounter: ...

    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None, script: ScriptHold | None = None) -> Iterator[str]:
        """Yield reply text pieces; stops early (between pre-fill chunks or tokens) when
        ``should_stop()`` is true; ``progress(done, total)`` reports a long pre-fill;
        ``variation`` asks for a reply unlike a rejected one; ``script`` holds it to a language
        (an engine that cannot rule tokens out ignores it)."""
        ...

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        """Tokens the formatted prompt for ``messages`` takes (chat template included)."""
        ...

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict[str, Any]:
        """A reply constrained to the JSON ``schema``, parsed (``JSONOutputError`` when it is not;
        ``GenerationStopped`` when ``should_stop()`` turned true between tokens)."""
        ...


@runtime_checkable
class WarmableEngine(ChatEngine, Protocol):
    """A chat engine that keeps an evaluated prefix it can extend ahead of time (llama.cpp
    in-process; the scripted engine imitates one). Its tokens are the model's (ints) or, for the
    scripted engine, words: only compared with each other."""

    def warm(self, messages: Sequence[ChatMessage], *, lead: str = "", should_stop: StopCheck | None = None,
             progress: Progress | None = None) -> WarmResult:
        """Evaluate the prefix of the prompt that continues ``messages`` with a user message
        opening with ``lead``."""
        ...

    def prefix_tokens(self, messages: Sequence[ChatMessage], lead: str = "") -> Sequence[Hashable]:
        """The tokens every prompt that continues ``messages`` with a user message opening with
        ``lead`` starts with."""
        ...

    def cached_tokens(self) -> Sequence[Hashable]:
        """The tokens the context has evaluated, in order."""
        ...


@runtime_checkable
class StatefulEngine(WarmableEngine, Protocol):
    """A warmable engine whose evaluated state can be saved to a file and restored (the KV cache)."""

    @property
    def model_path(self) -> Path: ...

    def save_state(self, path: Path) -> list[int]: ...

    def load_state(self, path: Path) -> list[int]: ...

    def reset_cache(self) -> None: ...


@runtime_checkable
class ScratchEngine(ChatEngine, Protocol):
    """An engine with a second, small context for one-off calls during a turn (llama.cpp)."""

    def scratch(self) -> ChatEngine: ...


@runtime_checkable
class WrappedEngine(Protocol):
    """An engine behind a wrapper (``LockedEngine``'s lock, a benchmark's timer) that reaches
    the loaded model as ``inner``."""

    @property
    def inner(self) -> ChatEngine: ...


def unwrap(engine: ChatEngine) -> ChatEngine:
    """The engine a wrapper holds (its capabilities are the loaded model's), else ``engine``."""
    return engine.inner if isinstance(engine, WrappedEngine) else engine


def can_warm(engine: ChatEngine) -> TypeGuard[WarmableEngine]:
    """Whether ``engine`` (or the engine a lock wraps) keeps a prefix it can warm ahead of time;
    the wrapper then passes ``warm`` on (under its lock)."""
    return isinstance(unwrap(engine), WarmableEngine)


@runtime_checkable
class Embedder(Protocol):
    """What recall needs from an embedding model."""

    @property
    def model_id(self) -> str:
        """Identifies the vectors it makes: name + file, stored next to them."""
        ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), dim)`` float32 rows of unit length."""
        ...


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An embedder that embeds a question apart from the passages it is compared with (E5)."""

    def embed_query(self, text: str) -> np.ndarray: ...


@runtime_checkable
class CoveringEmbedder(Embedder, Protocol):
    """An embedder that can tell whether its vocabulary knows a text well enough for a useful
    vector (an English-only model maps most of a foreign script to its unknown token)."""

    def covers(self, text: str) -> bool: ...


@runtime_checkable
class CalibratedEmbedder(Embedder, Protocol):
    """An embedder whose cosines sit in a narrow band (E5: unrelated text about 0.76, a good
    match 0.85): ``relatedness`` maps its cosines onto the scale recall's thresholds are set in
    (MiniLM's: unrelated about 0.17, the nearest ten about 0.5)."""

    def relatedness(self, cosines: np.ndarray) -> np.ndarray: ...


def query_vector(embedder: Embedder, text: str) -> np.ndarray:
    """The vector a question is searched with: E5-style models embed questions apart."""
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_query(text)
    vectors: np.ndarray = embedder.embed([text])
    return vectors[0]  # type: ignore[no-any-return]


def relatedness(embedder: Embedder, cosines: np.ndarray) -> np.ndarray:
    """``cosines`` on the common scale (unchanged for an embedder that needs no calibration)."""
    return embedder.relatedness(cosines) if isinstance(embedder, CalibratedEmbedder) else cosines
