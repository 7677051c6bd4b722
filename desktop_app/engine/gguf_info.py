"""What a GGUF file says about itself, read from its header without loading the model
(the ``gguf`` package memory-maps the file; only the metadata and tensor index are parsed)."""

from __future__ import annotations

import hashlib
from pathlib import Path

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


def _value(reader, key: str):
    field = reader.fields.get(key)
    if field is None or not field.data:
        return None
    raw = field.parts[field.data[0]]
    if field.types and field.types[0].name == "STRING":
        return bytes(raw).decode("utf-8", errors="replace")
    values = raw.tolist() if hasattr(raw, "tolist") else raw
    return values[0] if isinstance(values, list) and len(values) == 1 else values


def read_gguf_info(path: Path) -> GGUFInfo:
    """The header of the GGUF at ``path``; a missing, foreign or damaged file is a ModelLoadError."""
    path = Path(path)
    if not is_gguf(path):
        raise ModelLoadError(f"{path.name} is not a GGUF model file")
    try:
        from gguf import GGUFReader

        reader = GGUFReader(str(path), "r")
    except Exception as exc:  # truncated or malformed: the reader raises many kinds of errors
        raise ModelLoadError(f"{path.name}: the GGUF header cannot be read ({type(exc).__name__}: {exc})") from None
    arch = _value(reader, "general.architecture")
    template = _value(reader, "tokenizer.chat_template")
    context = _value(reader, f"{arch}.context_length") if arch else None
    file_type = _value(reader, "general.file_type")
    return GGUFInfo(path=path, size=path.stat().st_size, name=_value(reader, "general.name"), architecture=arch,
                    context_length=int(context) if isinstance(context, int) else None,
                    quantization=FILE_TYPES.get(file_type, str(file_type)) if isinstance(file_type, int) else None,
                    chat_template_sha256=hashlib.sha256(template.encode("utf-8")).hexdigest()
                    if isinstance(template, str) else None)
