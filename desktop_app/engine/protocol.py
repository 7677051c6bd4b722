"""The small protocol the rest of Paperclip uses to reach a model.

The memory core and the UI depend on these shapes only, so tests can drive them with a
scripted engine and the real llama.cpp engine can be swapped for any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict, runtime_checkable


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
    repeat penalty, at least some randomness, and the opening of the rejected reply made
    unlikely where the engine can bias tokens."""

    seed: int
    repeat_penalty: float = 1.3
    min_temperature: float = 0.7
    avoid: tuple[str, ...] = ()  # rejected replies: none may open the new one


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens exactly as the model (or the fallback encoding) would."""

    name: str

    def count(self, text: str) -> int: ...


@runtime_checkable
class ChatEngine(Protocol):
    """A loaded chat model. One engine instance serves one thread at a time."""

    model_name: str
    n_ctx: int
    counter: TokenCounter

    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None) -> Iterator[str]:
        """Yield reply text pieces; stops early (between pre-fill chunks or tokens) when
        ``should_stop()`` is true; ``progress(done, total)`` reports a long pre-fill;
        ``variation`` asks for a reply unlike a rejected one."""
        ...

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        """Tokens the formatted prompt for ``messages`` takes (chat template included)."""
        ...

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict, *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict:
        """A reply constrained to the JSON ``schema``, parsed (``JSONOutputError`` when it is not;
        ``GenerationStopped`` when ``should_stop()`` turned true between tokens)."""
        ...


@runtime_checkable
class WarmableEngine(Protocol):
    """An engine that keeps an evaluated prefix it can extend ahead of time (llama.cpp in-process)."""

    def warm(self, messages: Sequence[ChatMessage], *, lead: str = "", should_stop: StopCheck | None = None,
             progress: Progress | None = None) -> WarmResult:
        """Evaluate the prefix of the prompt that continues ``messages`` with a user message
        opening with ``lead``."""
        ...


def can_warm(engine) -> bool:
    """Whether ``engine`` (or the engine a lock wraps) keeps a prefix it can warm ahead of time."""
    return isinstance(getattr(engine, "inner", engine), WarmableEngine)
