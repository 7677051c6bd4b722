"""The model manifest (``models/manifest.toml``) and file hashes: what the runtime needs to
know about the default models, without any of the install-time download code."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from desktop_app import paths


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def load_manifest(path: Path | None = None) -> dict[str, dict]:
    """The manifest as ``{role: entry}`` (role is ``chat``, ``embed`` …)."""
    with (path or paths.manifest_file()).open("rb") as handle:
        return tomllib.load(handle)
