"""A deterministic engine for UI tests and demos: replies from a script, token by token."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from desktop_app.engine.protocol import ChatMessage, Progress, ScriptHold, StopCheck, Variation, WarmResult
from desktop_app.engine.tokens import fallback_counter


class ScriptedEngine:
    """Satisfies :class:`ChatEngine`; ``reply`` maps the prompt to the reply text."""

    def __init__(self, reply: Callable[[Sequence[ChatMessage]], str] | str = "Hello from the script.",
                 *, token_delay: float = 0.0, n_ctx: int = 4096, model_name: str = "scripted"):
        self._reply = reply
        self.token_delay = token_delay
        self.n_ctx = n_ctx
        self.model_name = model_name
        self.counter = fallback_counter()
        self.calls: list[list[ChatMessage]] = []
        self.variations: list[Variation | None] = []  # what each stream_chat call asked for
        self.scripts: list[ScriptHold | None] = []  # the language each stream_chat call held its reply to
        self.max_tokens: list[int] = []  # … and how many tokens it allowed
        self.release = threading.Event()  # tests may hold generation until they set this
        self.release.set()
        # A stand-in for llama.cpp's evaluated prefix: words as tokens, so tests can count what
        # a turn or an idle-time warm-up evaluates (and what a stop leaves evaluated).
        self.cached: list[str] = []
        self.evaluated = 0  # tokens evaluated over the engine's life
        self.batch = 16
        self.eval_delay = 0.0  # seconds per pre-fill batch
        self.last_reused_tokens = 0

    @staticmethod
    def _words(message: ChatMessage) -> list[str]:
        return [f"<{message['role']}>", *message["content"].split(), "</>"]

    def prompt_tokens(self, messages: Sequence[ChatMessage]) -> list[str]:
        return [w for m in messages for w in self._words(m)] + ["<assistant>"]

    def prefix_tokens(self, messages: Sequence[ChatMessage], lead: str = "") -> list[str]:
        return [w for m in messages for w in self._words(m)] + ["<user>", *lead.split()]

    def cached_tokens(self) -> list[str]:
        return list(self.cached)

    def prefill(self, tokens: Sequence[str], *, should_stop: StopCheck | None = None,
                progress: Progress | None = None) -> WarmResult:
        reused = 0
        while reused < min(len(tokens), len(self.cached)) and tokens[reused] == self.cached[reused]:
            reused += 1
        self.cached = list(tokens[:reused])
        while len(self.cached) < len(tokens):
            if should_stop is not None and should_stop():
                break
            if self.eval_delay:
                time.sleep(self.eval_delay)
            step = list(tokens[len(self.cached): len(self.cached) + self.batch])
            self.cached += step
            self.evaluated += len(step)
            if progress is not None:
                progress(len(self.cached) - reused, len(tokens) - reused)
        return WarmResult(total=len(tokens), reused=reused, evaluated=len(self.cached) - reused,
                          complete=len(self.cached) == len(tokens))

    def warm(self, messages: Sequence[ChatMessage], *, lead: str = "", should_stop: StopCheck | None = None,
             progress: Progress | None = None) -> WarmResult:
        return self.prefill(self.prefix_tokens(messages, lead), should_stop=should_stop, progress=progress)

    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None, script: ScriptHold | None = None) -> Iterator[str]:
        self.calls.append([m.copy() for m in messages])
        self.variations.append(variation)
        self.scripts.append(script)
        self.max_tokens.append(max_tokens)
        tokens = self.prompt_tokens(messages)
        self.last_prompt_tokens = len(tokens)
        filled = self.prefill(tokens, should_stop=should_stop, progress=progress)
        self.last_reused_tokens = filled.reused
        if not filled.complete:
            return
        text = self._reply(messages) if callable(self._reply) else self._reply
        pieces = [w + " " for w in text.split(" ")]
        pieces[-1] = pieces[-1][:-1]
        self.cached += text.split()
        for piece in pieces[:max_tokens]:
            self.release.wait()
            if should_stop is not None and should_stop():
                return
            if self.token_delay:
                time.sleep(self.token_delay)
            yield piece

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        return sum(self.counter.count(m["content"]) + 4 for m in messages)

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict[str, Any]:
        """The scripted reply, parsed as JSON (script a JSON string to drive schema callers)."""
        from desktop_app.engine.errors import GenerationStopped
        from desktop_app.engine.llama import parse_json_reply

        self.calls.append([m.copy() for m in messages])
        self.release.wait()
        if should_stop is not None and should_stop():
            raise GenerationStopped("stopped by the script's stop check")
        text = self._reply(messages) if callable(self._reply) else self._reply
        self.last_prompt_tokens = self.count_message_tokens(messages)
        self.last_completion_tokens = self.counter.count(text)
        return parse_json_reply(text)
