"""GGUF models already on this computer: Paperclip's models folder, Ollama's store, LM Studio's
folders, the Hugging Face hub cache and the user's own ``model_dirs`` — read from their GGUF
headers, never loaded."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from pydantic import BaseModel

from desktop_app.engine.errors import ModelLoadError
from desktop_app.engine.gguf_info import GGUFInfo, is_gguf, read_gguf_info

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"


class FoundModel(BaseModel):
    """A GGUF found on disk, with what its header says (or why it could not be read)."""

    source: str  # paperclip | ollama | lm-studio | huggingface | model_dirs
    name: str
    path: Path
    info: GGUFInfo | None = None
    error: str | None = None


def ollama_models(root: Path) -> Iterator[tuple[str, Path]]:
    """``(name:tag, blob)`` for each Ollama manifest under ``root`` (``~/.ollama/models``)."""
    manifests = root / "manifests"
    if not manifests.is_dir():
        return
    for manifest in sorted(p for p in manifests.rglob("*") if p.is_file()):
        try:
            layers = json.loads(manifest.read_text(encoding="utf-8")).get("layers") or []
        except (OSError, json.JSONDecodeError, AttributeError):
            continue
        for layer in layers:
            if layer.get("mediaType") == OLLAMA_MODEL_LAYER and str(layer.get("digest", "")).startswith("sha256:"):
                blob = root / "blobs" / layer["digest"].replace(":", "-")
                relative = manifest.relative_to(manifests).parts  # registry/namespace/model/tag
                model = relative[-2] if len(relative) >= 2 else manifest.parent.name
                namespace = relative[-3] if len(relative) >= 3 else "library"
                prefix = "" if namespace == "library" else f"{namespace}/"
                yield f"{prefix}{model}:{relative[-1]}", blob


def _ggufs(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(p for p in folder.rglob("*.gguf") if p.is_file())


def huggingface_models(hub: Path) -> Iterator[tuple[str, Path]]:
    """``(org/name file, path)`` of GGUFs in the hub cache's snapshots (symlinks to blobs)."""
    if not hub.is_dir():
        return
    for repo in sorted(hub.glob("models--*")):
        name = repo.name.removeprefix("models--").replace("--", "/")
        for path in _ggufs(repo / "snapshots"):
            yield f"{name} {path.name}", path


def search_places(home: Path | None = None, env: Mapping[str, str] | None = None,
                  model_dirs: Iterable[Path] = (), models_dir: Path | None = None) -> list[tuple[str, Path]]:
    """Where to look, in order (missing folders are simply empty)."""
    from desktop_app import paths

    home = home or Path.home()
    env = os.environ if env is None else env
    hf_home = Path(env["HF_HOME"]) if env.get("HF_HOME") else home / ".cache" / "huggingface"
    return [("paperclip", models_dir or paths.models_dir()),
            ("ollama", Path(env["OLLAMA_MODELS"]) if env.get("OLLAMA_MODELS") else home / ".ollama" / "models"),
            ("lm-studio", home / ".lmstudio" / "models"),
            ("lm-studio", home / ".cache" / "lm-studio" / "models"),
            ("huggingface", Path(env["HF_HUB_CACHE"]) if env.get("HF_HUB_CACHE") else hf_home / "hub"),
            *(("model_dirs", Path(d).expanduser()) for d in model_dirs)]


def discover(home: Path | None = None, env: Mapping[str, str] | None = None, model_dirs: Iterable[Path] = (),
             models_dir: Path | None = None, chat_only: bool = True) -> list[FoundModel]:
    """Every GGUF in the usual places, each read once (the same file reached twice is listed once).
    ``chat_only`` leaves out embedding models (BERT and the like cannot chat)."""
    found: list[FoundModel] = []
    seen: set[Path] = set()
    for source, place in search_places(home, env, model_dirs, models_dir):
        if source == "ollama":
            candidates: Iterable[tuple[str, Path]] = ollama_models(place)
        elif source == "huggingface":
            candidates = huggingface_models(place)
        else:
            candidates = ((p.name if source == "paperclip" else str(p.relative_to(place)), p) for p in _ggufs(place))
        for name, path in candidates:
            try:
                real = path.resolve(strict=True)
            except OSError:
                found.append(FoundModel(source=source, name=name, path=path, error="the file is missing"))
                continue
            if real in seen or not is_gguf(real):
                continue
            seen.add(real)
            try:
                info = read_gguf_info(real)
            except ModelLoadError as exc:
                found.append(FoundModel(source=source, name=name, path=path, error=str(exc)))
                continue
            if chat_only and info.architecture in ("bert", "nomic-bert", "jina-bert-v2", "t5encoder"):
                continue
            found.append(FoundModel(source=source, name=name, path=path, info=info))
    return found
