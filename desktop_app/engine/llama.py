"""The llama.cpp chat engine (llama-cpp-python).

Blocking and not thread-safe: a ``Llama`` object must only ever be used from one thread at
a time. The UI owns one inference worker; the CLI is single-threaded.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from desktop_app.engine.errors import ContextFullError, GenerationStopped, JSONOutputError, ModelLoadError
from desktop_app.engine.no_copy import CopyBlock
from desktop_app.engine.prefix import PrefillChunk, common_prefix, find_moved_block
from desktop_app.engine.protocol import ChatMessage, Progress, ScriptHold, StopCheck, Variation, WarmResult
from desktop_app.engine.script_hold import ScriptBlock

if TYPE_CHECKING:
    from llama_cpp import Llama, LogitsProcessorList
    from llama_cpp.llama_cpp import llama_context_params
    from llama_cpp.llama_types import (
        ChatCompletionRequestMessage,
        ChatCompletionStreamResponseChoice,
        CreateChatCompletionResponse,
        CreateChatCompletionStreamResponse,
    )

GGUF_MAGIC = b"GGUF"
SCRATCH_CTX = 512  # the one-off context (LlamaEngine.scratch): a question and its translation


@dataclass(frozen=True)
class EngineSettings:
    """How to load a model (mirrors the user-facing ``ctx``/``threads``/``gpu_layers``)."""

    n_ctx: int = 4096  # 0 = the model's trained context size
    n_threads: int | None = None
    n_gpu_layers: int = 0
    seed: int = -1
    n_batch: int = 512
    # Small models loop without these; users can tune them in config.toml.
    repeat_penalty: float = 1.15
    top_p: float = 0.9
    # After a page-out, reuse the evaluated turns that stay by shifting their positions (llama.cpp's
    # context shift) instead of evaluating them again: only the new head is evaluated.
    kv_shift: bool = True
    # True where another thread draws on the terminal (the TUI): see engine/quiet.py.
    share_terminal: bool = False


def check_gguf_file(path: Path) -> None:
    """Raise :class:`ModelLoadError` unless ``path`` looks like a readable GGUF file."""
    if not path.exists():
        raise ModelLoadError(f"model file not found: {path} (run `make models` or pass --model)")
    if path.is_dir():
        raise ModelLoadError(f"model path is a folder, not a GGUF file: {path}")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelLoadError(f"cannot read model file {path}: {exc.strerror}") from None
    if magic != GGUF_MAGIC:
        raise ModelLoadError(f"not a GGUF model file (bad header): {path}")


class ModelSettings(Protocol):
    """What :meth:`LlamaEngine.from_settings` reads of the app's ``Settings`` (which sit above the engine)."""

    @property
    def model_path(self) -> Path: ...
    @property
    def ctx(self) -> int: ...
    @property
    def threads(self) -> int | None: ...
    @property
    def gpu_layers(self) -> int | None: ...
    @property
    def seed(self) -> int: ...
    @property
    def repeat_penalty(self) -> float: ...
    @property
    def top_p(self) -> float: ...
    @property
    def kv_shift(self) -> bool: ...


class LlamaTokenCounter:
    """Exact counts with the loaded model's own tokenizer."""

    def __init__(self, llama: Llama, model_name: str) -> None:
        self._llama = llama
        self.name = f"{model_name} tokenizer"

    def count(self, text: str) -> int:
        if not text:
            return 0
        return len(self._llama.tokenize(text.encode("utf-8", "replace"), add_bos=False, special=False))


class LlamaEngine:
    """A loaded GGUF chat model: streaming chat with cancellation, exact token counts."""

    def __init__(self, model_path: Path | str, settings: EngineSettings | None = None) -> None:
        self.model_path = Path(model_path)
        self.settings = settings or EngineSettings()
        check_gguf_file(self.model_path)
        started = time.perf_counter()
        threads = self.settings.n_threads or cpu_threads_default()
        self.n_threads = threads
        try:
            from llama_cpp import Llama

            from desktop_app.engine.quiet import quiet_load

            quiet = quiet_load() if self.settings.share_terminal else contextlib.nullcontext()
            with quiet, _two_sequences(self.settings.kv_shift):
                self._llama = Llama(
                    model_path=str(self.model_path),
                    n_ctx=self.settings.n_ctx,
                    n_threads=threads,
                    # Batch (pre-fill) threads default to every core in llama-cpp-python; when another
                    # process holds a core, its spin-waiting threads make a 20-token pre-fill take
                    # seconds instead of 0.2 s (measured on 2 cores). Keep both counts equal.
                    n_threads_batch=threads,
                    n_gpu_layers=self.settings.n_gpu_layers,
                    n_batch=self.settings.n_batch,
                    seed=self.settings.seed if self.settings.seed >= 0 else 0xFFFFFFFF,
                    verbose=self.settings.share_terminal,  # False redirects fds 1/2 while loading
                )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelLoadError(f"could not load {self.model_path.name}: {str(exc).splitlines()[0]}") from None
        self.load_seconds = time.perf_counter() - started
        self._scratch: LlamaEngine | None = None
        self._llama.verbose = False  # its later prints (save_state on quit) would reach the shell
        metadata = self._llama.metadata or {}
        # The file name says what the user chose (the GGUF's general.name is often a training tag).
        self.model_name = self.model_path.stem
        self.model_title = metadata.get("general.name") or self.model_name
        self.chat_template = metadata.get("tokenizer.chat_template")
        self.template_source = "GGUF metadata" if self.chat_template else "none in GGUF: chatml fallback"
        if not self.chat_template:
            # Without this llama-cpp-python silently uses the llama-2 format.
            self._llama.chat_format = "chatml"
            from llama_cpp import llama_chat_format

            self._llama.chat_handler = llama_chat_format.get_chat_completion_handler("chatml")
        self.n_ctx = self._llama.n_ctx()
        self.counter = LlamaTokenCounter(self._llama, self.model_name)
        self.last_prompt_tokens = 0
        self.last_completion_tokens = 0
        self.last_reused_tokens = 0  # of the last prompt: tokens the evaluated prefix already held
        self.last_shifted_tokens = 0  # of those, tokens moved into place after a page-out (context shift)
        self._parked: tuple[int, list[int]] | None = None  # (position, tokens) of a moved block still waiting
        self.chunk = PrefillChunk(self.settings.n_batch)

    @classmethod
    def from_settings(cls, settings: ModelSettings, *, share_terminal: bool = False) -> LlamaEngine:
        """Load the model named by the app's ``Settings`` (the one place flags map to llama.cpp)."""
        from desktop_app.engine.hardware import choose, choose_ctx

        machine = choose(settings.threads, settings.gpu_layers)
        n_ctx, _ = choose_ctx(settings.ctx, settings.model_path, machine.gpu_layers)
        return cls(settings.model_path, EngineSettings(
            n_ctx=n_ctx, n_threads=machine.threads, n_gpu_layers=machine.gpu_layers,
            seed=settings.seed, repeat_penalty=settings.repeat_penalty, top_p=settings.top_p,
            kv_shift=settings.kv_shift, share_terminal=share_terminal,
        ))

    # -- prompts ------------------------------------------------------------------------
    def format_prompt(self, messages: Sequence[ChatMessage]) -> str:
        """The exact text the chat template makes of ``messages`` (generation prompt added)."""
        return self._formatted(messages)[0]

    def _formatted(self, messages: Sequence[ChatMessage]) -> tuple[str, bool]:
        """The prompt text and whether the template added BOS itself (as llama-cpp-python's handler sees it)."""
        if not self.chat_template:
            parts = [f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages]
            return "".join(parts) + "<|im_start|>assistant\n", False
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        formatter = Jinja2ChatFormatter(
            template=self.chat_template,
            eos_token=self._token_text(self._llama.token_eos()),
            bos_token=self._token_text(self._llama.token_bos()),
        )
        result = formatter(messages=_request_messages(messages))
        return result.prompt, bool(result.added_special)

    def prompt_tokens(self, messages: Sequence[ChatMessage]) -> list[int]:
        """The tokens ``create_chat_completion`` will evaluate for ``messages`` (same template, same flags)."""
        prompt, added_special = self._formatted(messages)
        return self._llama.tokenize(prompt.encode("utf-8", "replace"), add_bos=not added_special, special=True)

    def prefix_tokens(self, messages: Sequence[ChatMessage], lead: str = "") -> list[int]:
        """The tokens every prompt that continues ``messages`` with a user message opening with
        ``lead`` starts with: the common part of two such prompts, so it ends where the input begins."""
        one = self.prompt_tokens([*messages, {"role": "user", "content": lead + "a"}])
        two = self.prompt_tokens([*messages, {"role": "user", "content": lead + "b"}])
        return one[: common_prefix(one, two)]

    # -- the evaluated prefix (llama.cpp's KV cache) ---------------------------------------
    def cached_tokens(self) -> list[int]:
        """The tokens the context has evaluated, in order (what the next call can reuse)."""
        return [int(t) for t in self._llama.input_ids[: self._llama.n_tokens]]

    def prefill(self, tokens: Sequence[int], *, should_stop: StopCheck | None = None,
                progress: Progress | None = None) -> WarmResult:
        """Evaluate ``tokens`` after the longest prefix already evaluated, in chunks short enough
        (≈0.25 s each) that ``should_stop`` is checked often; a stop keeps what was evaluated."""
        started = time.perf_counter()
        llama = self._llama
        cached = self.cached_tokens()
        reused = common_prefix(cached, tokens)
        self.last_shifted_tokens = 0
        block: tuple[int | None, int, int] | None = self._resumable(tokens, reused)
        if block is None:
            block = find_moved_block(cached, tokens, reused) if self.settings.kv_shift and self._can_shift() else None
        if block is not None:
            shifted = self._splice(tokens, reused, block, should_stop, progress)
            if shifted:
                self.last_shifted_tokens = shifted
                gap = block[1] - reused
                return self._prefill_from(tokens, llama.n_tokens, reused + shifted, started, should_stop, progress,
                                          total_new=len(tokens) - reused - shifted - gap, evaluated=gap)
            # Stopped while the new head was evaluated: the block waits parked for the next call.
            return WarmResult(total=len(tokens), reused=reused, evaluated=llama.n_tokens - reused, complete=False,
                              seconds=time.perf_counter() - started)
        if reused < llama.n_tokens:
            llama._ctx.kv_cache_seq_rm(-1, reused, -1)
            llama.n_tokens = reused
        return self._prefill_from(tokens, reused, reused, started, should_stop, progress,
                                  total_new=len(tokens) - reused)

    def _prefill_from(self, tokens: Sequence[int], done: int, reused: int, started: float,
                      should_stop: StopCheck | None, progress: Progress | None,
                      *, total_new: int, evaluated: int = 0) -> WarmResult:
        """Evaluate ``tokens[done:]`` in measured chunks (the context holds ``tokens[:done]``)."""
        llama = self._llama
        base = done
        while done < len(tokens):
            if should_stop is not None and should_stop():
                break
            size = self.chunk.size
            t0 = time.perf_counter()
            llama.eval(tokens[done: done + size])
            self.chunk.observe(min(size, len(tokens) - done), time.perf_counter() - t0)
            done = min(len(tokens), done + size)
            if progress is not None:
                progress(evaluated + done - base, total_new + evaluated)
        return WarmResult(total=len(tokens), reused=reused, evaluated=evaluated + done - base,
                          complete=done >= len(tokens), seconds=time.perf_counter() - started)

    def _can_shift(self) -> bool:
        try:
            import llama_cpp

            memory = self._llama._ctx.memory
            return memory is not None and bool(llama_cpp.llama_memory_can_shift(memory))
        except (AttributeError, TypeError):
            return False

    def _splice(self, tokens: Sequence[int], reused: int, block: tuple[int | None, int, int],
                should_stop: StopCheck | None, progress: Progress | None) -> int:
        """Keep ``cached[i:i+k]`` (turns that stay after a page-out) by moving them to ``tokens[j:j+k]``'s
        positions, then evaluate the new tokens between the reused prefix and them. Returns ``k``
        (0 when stopped before the gap was filled: the block stays parked and the next pre-fill
        of a prompt that still holds it goes on where this one stopped)."""
        i, j, k = block
        llama = self._llama
        ctx = llama._ctx
        if i is not None:  # (None: resuming a block parked by an earlier, stopped splice)
            ctx.kv_cache_seq_rm(0, reused, i)  # the old head's tail and the paged-out turns
            ctx.kv_cache_seq_rm(0, i + k, -1)  # what followed the block
            # llama.cpp only appends to a sequence, so the block waits in sequence 1 while the gap is
            # evaluated in sequence 0 (which cannot see it), then joins sequence 0 at its new place.
            ctx.kv_cache_seq_cp(0, PARKED_SEQ, i, i + k)
            ctx.kv_cache_seq_rm(0, i, i + k)
            if j != i:
                ctx.kv_cache_seq_shift(PARKED_SEQ, i, i + k, j - i)
        llama.n_tokens = reused
        self._parked = (j, list(tokens[j: j + k]))
        pos = reused
        gap = tokens[reused:j]
        while pos < j:
            if should_stop is not None and should_stop():
                llama.n_tokens = pos  # the block stays parked: the next pre-fill goes on from here
                return 0
            size = min(self.chunk.size, j - pos)
            t0 = time.perf_counter()
            chunk = gap[pos - reused: pos - reused + size]
            llama._batch.set_batch(batch=chunk, n_past=pos, logits_all=False)
            ctx.decode(llama._batch)
            llama.input_ids[pos: pos + size] = chunk
            self.chunk.observe(size, time.perf_counter() - t0)
            pos += size
            if progress is not None:
                progress(pos - reused, len(tokens) - reused - k)
        ctx.kv_cache_seq_cp(PARKED_SEQ, 0, j, j + k)
        ctx.kv_cache_seq_rm(PARKED_SEQ, -1, -1)
        self._parked = None
        llama.input_ids[j: j + k] = tokens[j: j + k]
        llama.n_tokens = j + k
        return k

    def _resumable(self, tokens: Sequence[int], reused: int) -> tuple[None, int, int] | None:
        """The parked block as a splice to finish, when ``tokens`` still place it where it waits and
        the context holds exactly the tokens before the gap; else it is dropped."""
        if self._parked is None:
            return None
        j, block = self._parked
        if reused == self._llama.n_tokens <= j and list(tokens[j: j + len(block)]) == block:
            return None, j, len(block)
        self._drop_parked()
        return None

    def _drop_parked(self) -> None:
        if self._parked is not None:
            self._llama._ctx.kv_cache_seq_rm(PARKED_SEQ, -1, -1)
            self._parked = None

    def warm(self, messages: Sequence[ChatMessage], *, lead: str = "", should_stop: StopCheck | None = None,
             progress: Progress | None = None) -> WarmResult:
        """Evaluate the prefix the next turn will send after ``messages`` (idle-time warming), with
        ``lead``, the known start of its final message. A prefix that fills the window is not
        evaluated (``ContextFullError``): the next turn's prompt cannot fit either."""
        tokens = self.prefix_tokens(messages, lead)
        if len(tokens) >= self.n_ctx - 1:
            raise ContextFullError(f"the next prompt's head ({len(tokens)} tokens) fills the {self.n_ctx}-token window")
        return self.prefill(tokens, should_stop=should_stop, progress=progress)

    def save_state(self, path: Path) -> list[int]:
        """Write the evaluated tokens and their KV cells to ``path`` (llama.cpp's sequence file)."""
        import llama_cpp

        tokens = self.cached_tokens()
        array = (llama_cpp.llama_token * max(1, len(tokens)))(*tokens)
        written = llama_cpp.llama_state_seq_save_file(self._llama._ctx.ctx, str(path).encode(), 0, array, len(tokens))
        if not written:
            raise OSError(f"llama.cpp could not write {path}")
        return tokens

    def load_state(self, path: Path) -> list[int]:
        """Restore what :meth:`save_state` wrote; raises ``ValueError`` when llama.cpp refuses it."""
        import ctypes

        import llama_cpp

        llama = self._llama
        self._drop_parked()
        capacity = self.n_ctx
        out = (llama_cpp.llama_token * capacity)()
        count = ctypes.c_size_t(0)
        llama.reset()
        llama._ctx.kv_cache_seq_rm(-1, 0, -1)
        read = llama_cpp.llama_state_seq_load_file(llama._ctx.ctx, str(path).encode(), 0, out, capacity,
                                                   ctypes.byref(count))
        if not read or not count.value:
            llama._ctx.kv_cache_seq_rm(-1, 0, -1)
            raise ValueError(f"llama.cpp refused the saved state in {path.name}")
        tokens = [int(t) for t in out[: count.value]]
        llama.input_ids[: len(tokens)] = tokens
        llama.n_tokens = len(tokens)
        return tokens

    def _token_text(self, token: int) -> str:
        try:
            return self._llama.detokenize([token], special=True).decode("utf-8", "replace")
        except Exception:
            return ""

    def count_message_tokens(self, messages: Sequence[ChatMessage]) -> int:
        prompt = self.format_prompt(messages)
        return len(self._llama.tokenize(prompt.encode("utf-8", "replace"), add_bos=False, special=True))

    # -- generation ---------------------------------------------------------------------
    def stream_chat(self, messages: Sequence[ChatMessage], *, max_tokens: int, temperature: float,
                    should_stop: StopCheck | None = None, progress: Progress | None = None,
                    variation: Variation | None = None, script: ScriptHold | None = None) -> Iterator[str]:
        """Stream the reply; checks ``should_stop`` between pre-fill chunks and between tokens.

        llama-cpp-python keeps the previous call's evaluated tokens and only evaluates what
        follows the longest common prefix, so a stable prompt head makes this call cheap.
        """
        self.last_completion_tokens = 0
        tokens = self.prompt_tokens(messages)
        self.last_prompt_tokens = len(tokens)
        if len(tokens) >= self.n_ctx:
            raise ContextFullError(f"the prompt ({len(tokens)} tokens) does not fit the {self.n_ctx}-token context window")
        # Pre-fill in short chunks first (all but the last token), so a stop lands within ≈0.3 s
        # even during a long evaluation; the completion call then reuses what was evaluated.
        filled = self.prefill(tokens[:-1], should_stop=should_stop, progress=progress)
        self.last_reused_tokens = filled.reused
        if not filled.complete:
            return
        try:
            repeat_penalty, seed, processors = self.settings.repeat_penalty, None, self._processors(variation, script)
            if variation is not None:
                temperature = max(temperature, variation.min_temperature)
                repeat_penalty = max(self.settings.repeat_penalty, variation.repeat_penalty)
                seed = variation.seed
            stream = stream_chunks(self._llama.create_chat_completion(
                messages=_request_messages(messages), stream=True, max_tokens=max_tokens, top_p=self.settings.top_p,
                temperature=temperature, repeat_penalty=repeat_penalty, seed=seed, logits_processor=processors))
            for chunk in stream:
                if should_stop is not None and should_stop():
                    stream.close()
                    return
                piece = delta_text(chunk["choices"][0])
                if piece:
                    self.last_completion_tokens += 1
                    yield piece
        except ValueError as exc:
            message = str(exc)
            if "exceed context window" in message or "context" in message.lower():
                raise ContextFullError(f"the prompt does not fit the {self.n_ctx}-token context window: {message}") from None
            raise

    def _processors(self, variation: Variation | None, script: ScriptHold | None) -> LogitsProcessorList | None:
        """The sampling rules of a reply: a retry opens unlike the rejected replies and copies no run of
        ``variation.sources`` (``engine.no_copy``); a held reply keeps to its language
        (``engine.script_hold``). Logits processors, not a ``logit_bias``: a bias holds at every
        position, and llama-cpp-python 0.3 drops a processor list passed beside one (``list.extend``
        returns None)."""
        from llama_cpp import LogitsProcessorList

        def tokenize(text: str) -> list[int]:
            return self._llama.tokenize(text.encode("utf-8", "replace"), add_bos=False, special=False)

        def detokenize(tokens: Sequence[int]) -> str:
            return self._llama.detokenize(list(tokens)).decode("utf-8", "replace")

        rules: list[Any] = []
        if variation is not None and (block := CopyBlock.build(tokenize, detokenize, openings=variation.avoid,
                                                               sources=variation.sources, lines=variation.lines)):
            rules.append(block)
        if script is not None:
            rules.append(ScriptBlock(script, lambda tokens: self._llama.detokenize(list(tokens))))
        return LogitsProcessorList(rules) if rules else None

    def complete_json(self, messages: Sequence[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256,
                      temperature: float = 0.0, should_stop: StopCheck | None = None) -> dict[str, Any]:
        """A reply constrained to ``schema`` (llama.cpp grammar), parsed.

        ``response_format={"type": "json_object", "schema": …}`` is the form llama-cpp-python
        honours ("json_schema" is silently ignored), and a grammar does not bound the length:
        ``max_tokens`` does. Output cut off by it, or otherwise unparsable, is a JSONOutputError.
        Streamed, so ``should_stop`` is checked between tokens (GenerationStopped)."""
        pieces: list[str] = []
        finish: str | None = None
        self._drop_parked()  # llama.cpp's own prefix reuse clears every sequence past the match
        self.last_prompt_tokens = self.count_message_tokens(messages)
        try:
            stream = stream_chunks(self._llama.create_chat_completion(
                messages=_request_messages(messages), max_tokens=max_tokens, temperature=temperature, stream=True,
                response_format={"type": "json_object", "schema": schema}))
            for chunk in stream:
                if should_stop is not None and should_stop():
                    stream.close()
                    raise GenerationStopped("the chat needs the model")
                choice = chunk["choices"][0]
                piece = delta_text(choice)
                if piece:
                    pieces.append(piece)
                finish = choice.get("finish_reason") or finish
        except ValueError as exc:
            raise ContextFullError(f"the prompt does not fit the {self.n_ctx}-token context window: {exc}") from None
        self.last_completion_tokens = len(pieces)
        return parse_json_reply("".join(pieces), finish)

    def sibling(self, n_ctx: int = 2048, model_path: Path | None = None) -> LlamaEngine:
        """A second context on the same weights (mmap shares their memory) for background memory
        work, so it never evicts the chat's evaluated prefix; or on ``model_path``, another model
        for the memory pass (it runs while the user reads and types, so it may be slower and better)."""
        settings = replace(self.settings, n_ctx=min(n_ctx, self.n_ctx) or n_ctx, n_threads=self.n_threads)
        return LlamaEngine(model_path or self.model_path, settings)

    def scratch(self) -> LlamaEngine:
        """A small second context on the same weights for a one-off call during a turn (the
        question's translation), so it does not evict the chat's evaluated prefix; made on first
        use and kept. On a GPU this context itself (its pre-fill is fast; no second copy in VRAM)."""
        if self.settings.n_gpu_layers:
            return self
        if self._scratch is None:
            self._scratch = self.sibling(n_ctx=SCRATCH_CTX)
        return self._scratch

    def reset_cache(self) -> None:
        """Forget the evaluated prefix (the next call pre-fills from scratch)."""
        self._drop_parked()
        self._llama.reset()


PARKED_SEQ = 1  # the sequence a moved block waits in (contexts are made with two, sharing one buffer)


def _request_messages(messages: Sequence[ChatMessage]) -> list[ChatCompletionRequestMessage]:
    """``messages`` as llama-cpp-python's request type: the same dicts, whose roles ("system", "user",
    "assistant") ``ChatMessage`` types as a plain ``str`` where llama-cpp-python spells out the literals."""
    return cast("list[ChatCompletionRequestMessage]", list(messages))


def stream_chunks(result: CreateChatCompletionResponse | Iterator[CreateChatCompletionStreamResponse],
            ) -> Generator[CreateChatCompletionStreamResponse, None, None]:
    """The stream ``create_chat_completion(stream=True)`` returns (a generator, closed on a stop);
    its signature has one return type for both modes."""
    if not isinstance(result, Generator):
        raise TypeError("llama-cpp-python returned a whole completion where a stream was asked for")
    return result


def delta_text(choice: ChatCompletionStreamResponseChoice) -> str | None:
    """The text a streamed chunk adds (None for a chunk that only sets the role or the finish)."""
    piece = choice.get("delta", {}).get("content")
    return piece if isinstance(piece, str) else None


@contextmanager
def _two_sequences(enabled: bool) -> Iterator[None]:
    """Make the next ``Llama()`` context with two sequences on one unified KV buffer (llama-cpp-python
    has no argument for it): the second one parks turns moved after a page-out."""
    if not enabled:
        yield
        return
    import llama_cpp.llama_cpp as raw

    original = raw.llama_context_default_params

    def params() -> llama_context_params:
        made: llama_context_params = original()
        made.n_seq_max = 2
        made.kv_unified = True
        return made

    raw.llama_context_default_params = params
    try:
        yield
    finally:
        raw.llama_context_default_params = original


def parse_json_reply(text: str, finish_reason: str | None = None) -> dict[str, Any]:
    """The JSON object a schema-constrained reply holds, or a one-line JSONOutputError."""
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        cut = " (cut off by max_tokens)" if finish_reason == "length" else ""
        raise JSONOutputError(f"the model's reply is not valid JSON{cut}: {text[:80]!r}") from None
    if not isinstance(value, dict):
        raise JSONOutputError(f"the model's reply is JSON but not an object: {text[:80]!r}")
    return value


def cpu_threads_default() -> int:
    """All cores but one: the UI, SQLite and the embedder need a core to stay responsive."""
    return max(1, (os.cpu_count() or 2) - 1)


