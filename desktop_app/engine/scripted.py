"""A deterministic engine for UI tests and demos: replies from a script, token by token."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence

from desktop_app.engine.protocol import ChatMessage, StopCheck
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
        self.release = threading.Event()  # tests may hold generation until they set this
        self.release.set()

    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None) -> Iterator[str]:
        self.calls.append([dict(m) for m in messages])
        text = self._reply(messages) if callable(self._reply) else self._reply
        pieces = [w + " " for w in text.split(" ")]
        pieces[-1] = pieces[-1][:-1]
        for piece in pieces[:max_tokens]:
            self.release.wait()
            if should_stop is not None and should_stop():
                return
            if self.token_delay:
                time.sleep(self.token_delay)
            yield piece

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        return sum(self.counter.count(m["content"]) + 4 for m in messages)

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict, *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict:
        """The scripted reply, parsed as JSON (script a JSON string to drive schema callers)."""
        from desktop_app.engine.errors import GenerationStopped
        from desktop_app.engine.llama import parse_json_reply

        self.calls.append([dict(m) for m in messages])
        self.release.wait()
        if should_stop is not None and should_stop():
            raise GenerationStopped("stopped by the script's stop check")
        text = self._reply(messages) if callable(self._reply) else self._reply
        self.last_prompt_tokens = self.count_message_tokens(messages)
        self.last_completion_tokens = self.counter.count(text)
        return parse_json_reply(text)
