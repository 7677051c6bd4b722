"""What a GGUF file says about itself, read from its header without loading the model: only
the metadata is parsed (the gguf package's reader indexes every tensor: 8 s for 0.5B)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import BaseModel

from desktop_app.engine.errors import ModelLoadError

GGUF_MAGIC = b"GGUF"
# llama.cpp's LLAMA_FTYPE_* (general.file_type) → the usual quantization names.
FILE_TYPES = {0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
              11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M",
              18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 28: "IQ4_XS",
              30: "IQ1_M", 32: "BF16"}


class GGUFInfo(BaseModel):
    """The header fields Paperclip shows and verifies."""

    path: Path
    size: int
    name: str | None = None
    architecture: str | None = None
    context_length: int | None = None
    quantization: str | None = None
    chat_template_sha256: str | None = None
    kv_bytes_per_token: int | None = None  # f16 K and V over all layers: what each token of n_ctx costs

    @property
    def has_chat_template(self) -> bool:
        return self.chat_template_sha256 is not None


def is_gguf(path: Path) -> bool:
    """Whether ``path`` starts with the GGUF magic (Ollama's blobs have no extension)."""
    try:
        with path.open("rb") as handle:
            return handle.read(4) == GGUF_MAGIC
    except OSError:
        return False


_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


def _read_metadata(handle: BinaryIO, wanted: set[str]) -> dict[str, Any]:
    """The ``wanted`` metadata keys of an open GGUF (v2/v3), skipping everything else — the
    tokenizer's 150k-entry arrays are passed over with seeks, and tensors are never read."""
    import struct

    def unpack(fmt: str) -> Any:  # (what the file holds: callers check the type of what they use)
        size = struct.calcsize(fmt)
        data = handle.read(size)
        if len(data) != size:
            raise ValueError("the file ends inside its header")
        return struct.unpack(fmt, data)[0]

    def string() -> str:
        length = unpack("<Q")
        if length > 1 << 26:
            raise ValueError("implausible string length")
        data = handle.read(length)
        if len(data) != length:
            raise ValueError("the file ends inside its header")
        return data.decode("utf-8", errors="replace")

    def skip(kind: int) -> None:
        if kind == _STRING:
            handle.seek(unpack("<Q"), 1)
        elif kind == _ARRAY:
            inner, count = unpack("<I"), unpack("<Q")
            if inner in _SCALARS:
                handle.seek(struct.calcsize(_SCALARS[inner]) * count, 1)
            else:
                for _ in range(count):
                    skip(inner)
        elif kind in _SCALARS:
            handle.seek(struct.calcsize(_SCALARS[kind]), 1)
        else:
            raise ValueError(f"unknown metadata type {kind}")

    if handle.read(4) != GGUF_MAGIC:
        raise ValueError("not a GGUF file")
    version = unpack("<I")
    if version < 2:
        raise ValueError(f"GGUF version {version} is too old")
    unpack("<Q")  # tensor count
    found: dict[str, Any] = {}
    for _ in range(unpack("<Q")):
        key, kind = string(), unpack("<I")
        if key in wanted and kind == _STRING:
            found[key] = string()
        elif key in wanted and kind in _SCALARS:
            found[key] = unpack(_SCALARS[kind])
        else:
            skip(kind)
        if wanted <= found.keys():
            break
    return found


def read_gguf_info(path: Path) -> GGUFInfo:
    """The header of the GGUF at ``path``; a missing, foreign or damaged file is a ModelLoadError."""
    path = Path(path)
    if not is_gguf(path):
        raise ModelLoadError(f"{path.name} is not a GGUF model file")
    try:
        with path.open("rb", buffering=1 << 16) as handle:
            base = _read_metadata(handle, {"general.architecture"})
            arch = base.get("general.architecture")
            handle.seek(0)
            shape = {f"{arch}.block_count", f"{arch}.attention.head_count_kv", f"{arch}.attention.head_count",
                     f"{arch}.embedding_length"}
            meta = _read_metadata(handle, {"general.architecture", "general.name", "general.file_type",
                                           "tokenizer.chat_template", f"{arch}.context_length", *shape})
    except (OSError, ValueError, OverflowError) as exc:
        raise ModelLoadError(f"{path.name}: the GGUF header cannot be read ({exc})") from None
    template, context, file_type = (meta.get("tokenizer.chat_template"), meta.get(f"{arch}.context_length"),
                                    meta.get("general.file_type"))
    layers, heads = meta.get(f"{arch}.block_count"), meta.get(f"{arch}.attention.head_count")
    kv_heads, width = meta.get(f"{arch}.attention.head_count_kv", heads), meta.get(f"{arch}.embedding_length")
    kv_bytes = None
    if isinstance(layers, int) and isinstance(heads, int) and isinstance(kv_heads, int) and isinstance(width, int) \
            and min(layers, heads, kv_heads, width) > 0:
        kv_bytes = 2 * layers * kv_heads * (width // heads) * 2
    return GGUFInfo(path=path, size=path.stat().st_size, name=meta.get("general.name"), architecture=arch,
                    context_length=int(context) if isinstance(context, int) else None,
                    quantization=FILE_TYPES.get(file_type, str(file_type)) if isinstance(file_type, int) else None,
                    chat_template_sha256=hashlib.sha256(template.encode("utf-8")).hexdigest()
                    if isinstance(template, str) else None, kv_bytes_per_token=kv_bytes)
