"""An engine that talks to an OpenAI-compatible server the user runs: llama.cpp's
``llama-server`` (which can spread a model over machines with ``--rpc``), ``python -m
llama_cpp.server``, Ollama, LM Studio or vLLM — the way to models bigger than the laptop.

Same protocol as :class:`~desktop_app.engine.llama.LlamaEngine`: stream a chat (SSE, the
stream closed when stopped), count tokens (the server's tokenizer where it has an endpoint for
it, else the local offline one), complete JSON under a schema, embed. Only the standard
library is used. Privacy: loopback and private-network servers work as given; any other
host needs ``allow_remote``, because chats then leave this machine.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from http.client import HTTPResponse
from typing import Any, Protocol
from urllib.parse import urlsplit

import numpy as np

from desktop_app.engine.errors import ContextFullError, GenerationStopped, ModelLoadError, ServerError
from desktop_app.engine.llama import parse_json_reply
from desktop_app.engine.protocol import ChatMessage, Progress, ScriptHold, StopCheck, Variation
from desktop_app.engine.tokens import fallback_counter

DEFAULT_N_CTX = 4096
MESSAGE_OVERHEAD = 4


class ServerSettings(Protocol):
    """What :meth:`HttpEngine.from_settings` reads of the app's ``Settings`` (which sit above the engine)."""

    @property
    def engine(self) -> str | None: ...
    @property
    def engine_model(self) -> str | None: ...
    @property
    def ctx(self) -> int: ...
    @property
    def allow_remote(self) -> bool: ...


def is_private_host(host: str) -> bool:
    """Loopback, link-local or private-network addresses (and names that resolve only to them)."""
    if host in ("localhost", "localhost.localdomain") or host.endswith(".local"):
        return True
    try:
        addresses = {ipaddress.ip_address(host)}
    except ValueError:
        try:
            addresses = {ipaddress.ip_address(info[4][0]) for info in socket.getaddrinfo(host, None)}
        except (socket.gaierror, UnicodeError):
            return False
    return bool(addresses) and all(a.is_loopback or a.is_private or a.is_link_local for a in addresses)


class HttpTokenCounter:
    """Counts with the server's tokenizer (``/tokenize`` of llama-server, ``/extras/tokenize``
    of llama_cpp.server), falling back to the local offline encoding when it has neither."""

    def __init__(self, engine: HttpEngine):
        self._engine = engine
        self._route: str | None = None
        self._fallback = fallback_counter()
        self.name = "server tokenizer"
        for route, body in (("/tokenize", {"content": "probe"}), ("/extras/tokenize", {"input": "probe"})):
            try:
                engine._post(engine.root + route, body, timeout=5)
            except (ServerError, ContextFullError):
                continue
            self._route = route
            break
        if self._route is None:
            self.name = f"{self._fallback.name} (the server has no tokenize endpoint)"

    def count(self, text: str) -> int:
        if self._route is None:
            return self._fallback.count(text)
        body = {"content": text} if self._route == "/tokenize" else {"input": text}
        try:
            return len(self._engine._post(self._engine.root + self._route, body)["tokens"])
        except (ServerError, KeyError, TypeError):
            return self._fallback.count(text)


class HttpEngine:
    """A model served over HTTP; satisfies ``ChatEngine``, and embeds when the server offers it."""

    def __init__(self, base_url: str, *, model: str | None = None, n_ctx: int | None = None,
                 api_key: str | None = None, allow_remote: bool = False, timeout: float = 60.0) -> None:
        parts = urlsplit(base_url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ModelLoadError(f"{base_url!r} is not an http(s) URL of an OpenAI-compatible server")
        self.base = base_url.rstrip("/")
        if not self.base.endswith("/v1"):
            self.base += "/v1"
        self.root = self.base[: -len("/v1")]
        self.host = parts.hostname
        self.remote = not is_private_host(self.host)
        if self.remote and not allow_remote:
            raise ModelLoadError(f"{self.host} is not this machine or a private network: chats would leave this "
                                 "computer; set allow_remote = true in the config to allow it")
        self.api_key = api_key
        self.timeout = timeout
        served = self._served_models()
        if model is not None and model not in served:
            raise ServerError(f"the server at {self.base} has no model {model!r} (it has: {', '.join(served)})")
        self.model_id = model or served[0]
        self.model_name = self.model_id.rsplit("/", 1)[-1].removesuffix(".gguf")
        self.model_title = self.model_id
        self.template_source = "the server's"
        self.load_seconds = 0.0
        self.n_ctx = n_ctx or self._server_n_ctx() or DEFAULT_N_CTX
        self.counter = HttpTokenCounter(self)

    @classmethod
    def from_settings(cls, settings: ServerSettings) -> HttpEngine:
        if settings.engine is None:
            raise ModelLoadError("no server URL is set (engine = …)")
        return cls(settings.engine, model=settings.engine_model, n_ctx=settings.ctx or None,
                   allow_remote=settings.allow_remote)

    # -- HTTP ------------------------------------------------------------------------------
    def _request(self, url: str, body: dict[str, Any] | None = None, *, timeout: float | None = None) -> HTTPResponse:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET")
        try:
            response: HTTPResponse = urllib.request.urlopen(request, timeout=timeout or self.timeout)
            return response
        except urllib.error.HTTPError as exc:
            detail = _error_detail(exc)
            if exc.code == 400 and ("context" in detail.lower() or "too long" in detail.lower()):
                raise ContextFullError(f"the prompt does not fit the server's context window: {detail}") from None
            if exc.code == 404:
                raise ServerError(f"{url}: not found on the server ({detail})") from None
            raise ServerError(f"the server at {self.base} answered {exc.code}: {detail}") from None
        except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ServerError(f"cannot reach the server at {self.base}: {reason}") from None

    def _post(self, url: str, body: dict[str, Any], *, timeout: float | None = None) -> dict[str, Any]:
        with self._request(url, body, timeout=timeout) as response:
            reply: dict[str, Any] = json.loads(response.read().decode("utf-8"))
            return reply

    def _served_models(self) -> list[str]:
        with self._request(self.base + "/models", timeout=10) as response:
            try:
                listed = json.loads(response.read().decode("utf-8")).get("data") or []
            except (json.JSONDecodeError, AttributeError):
                raise ServerError(f"{self.base}/models did not answer like an OpenAI-compatible server") from None
        ids = [m["id"] for m in listed if isinstance(m, dict) and m.get("id")]
        if not ids:
            raise ServerError(f"the server at {self.base} serves no model")
        return ids

    def _server_n_ctx(self) -> int | None:
        """llama-server reports its window under /props; others do not say."""
        try:
            with self._request(self.root + "/props", timeout=5) as response:
                props = json.loads(response.read().decode("utf-8"))
        except (ServerError, ContextFullError, json.JSONDecodeError):
            return None
        n_ctx = (props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx")
        return int(n_ctx) if isinstance(n_ctx, int) and n_ctx > 0 else None

    # -- the ChatEngine protocol -----------------------------------------------------------
    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None, script: ScriptHold | None = None) -> Iterator[str]:
        """Stream the reply over SSE; a stop closes the connection (the server stops generating).

        The prompt is measured first: some servers (llama_cpp.server) answer an over-long
        streamed prompt with an empty 200 stream instead of an error."""
        needed = self.count_message_tokens(messages)
        if needed > self.n_ctx:
            raise ContextFullError(f"the prompt takes {needed} tokens; the server's context window is {self.n_ctx}")
        body = {"model": self.model_id, "messages": list(messages), "stream": True, "max_tokens": max_tokens,
                "temperature": temperature}
        if variation is not None:  # the OpenAI API's own fields, which OpenAI-compatible servers take
            body.update(seed=variation.seed, temperature=max(temperature, variation.min_temperature),
                        frequency_penalty=0.5)
        response = self._request(self.base + "/chat/completions", body)
        finished = False
        try:
            for raw in response:
                if should_stop is not None and should_stop():
                    return
                line = raw.decode("utf-8", "replace").strip()
                if not line.startswith("data:"):
                    continue
                payload = line[5:].strip()
                if payload == "[DONE]":
                    finished = True
                    return
                try:
                    chunk = json.loads(payload)
                except json.JSONDecodeError:
                    continue
                if "error" in chunk:
                    raise ServerError(f"the server stopped the reply: {chunk['error']}")
                choices = chunk.get("choices") or [{}]
                piece = (choices[0].get("delta") or {}).get("content")
                if piece:
                    yield piece
            if not finished:
                raise ServerError(f"the server at {self.base} ended the reply without finishing it (see its log)")
        except (ConnectionError, TimeoutError) as exc:
            raise ServerError(f"the connection to {self.base} broke mid-reply: {exc}") from None
        finally:
            response.close()

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        return sum(self.counter.count(m["content"]) + MESSAGE_OVERHEAD for m in messages)

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict[str, Any]:
        """One non-streamed request (a server call is bounded by ``max_tokens``; ``should_stop``
        is checked before it is sent)."""
        if should_stop is not None and should_stop():
            raise GenerationStopped("stopped before the request was sent")
        body = {"model": self.model_id, "messages": list(messages), "max_tokens": max_tokens,
                "temperature": temperature, "response_format": {"type": "json_object", "schema": schema}}
        result = self._post(self.base + "/chat/completions", body)
        choice = (result.get("choices") or [{}])[0]
        usage = result.get("usage") or {}
        self.last_prompt_tokens = int(usage.get("prompt_tokens") or 0)
        self.last_completion_tokens = int(usage.get("completion_tokens") or 0)
        return parse_json_reply((choice.get("message") or {}).get("content") or "", choice.get("finish_reason"))

    # -- embeddings ------------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length vectors from the server's ``/v1/embeddings`` (where it offers them)."""
        result = self._post(self.base + "/embeddings", {"model": self.model_id, "input": list(texts)})
        rows = sorted(result.get("data") or [], key=lambda d: d.get("index", 0))
        vectors = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise ServerError(f"the server at {self.base} returned no usable embeddings")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(exc.read().decode("utf-8"))
    except Exception:
        return exc.reason if isinstance(exc.reason, str) else str(exc.code)
    error = body.get("error", body.get("detail", body))
    if isinstance(error, dict):
        error = error.get("message", error)
    text = str(error)
    return text.splitlines()[0][:200] if text else str(exc.code)
