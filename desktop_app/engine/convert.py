"""Install-time conversion of a BERT sentence-embedding model (safetensors) to GGUF.

The default embedding model (all-MiniLM-L6-v2) is published on the package registry only
as safetensors + ``vocab.txt``. This module writes it as a BERT GGUF the way llama.cpp's
own ``convert_hf_to_gguf.py`` (``BertModel``) does — same tensor names, the same
"phantom space" WordPiece vocabulary, mean pooling, non-causal attention — using only the
``gguf`` package and numpy (no torch, no transformers). It runs once, from
``python -m desktop_app.setup_models`` (which downloads and verifies the source); the app
itself never converts anything.
"""

from __future__ import annotations

import json
import logging
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from gguf import GGMLQuantizationType, PoolingType

_SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": None, "I64": np.int64}
_SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
# Tensors llama.cpp's BERT graph does not use (MLM/NSP heads, the pooler, position ids).
_SKIPPED_PREFIXES = ("embeddings.position_ids", "pooler.", "cls.")


def read_safetensors(path: Path) -> Iterator[tuple[str, np.ndarray]]:
    """Yield ``(name, array)`` for every tensor of a ``.safetensors`` file (memory-mapped)."""
    with path.open("rb") as handle:
        header_len = struct.unpack("<Q", handle.read(8))[0]
        header = json.loads(handle.read(header_len))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + header_len)
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _SAFETENSORS_DTYPES.get(info["dtype"])
        start, end = info["data_offsets"]
        raw = data[start:end]
        if dtype is None:  # bf16: widen the 16 bits into the top half of a float32
            array = (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            array = raw.view(dtype)
        yield name, array.reshape(info["shape"])


def _phantom(token: str, special: bool) -> str:
    # llama.cpp's WPM tokenizer marks word starts with U+2581 instead of "##" on continuations.
    if special:
        return token
    return token[2:] if token.startswith("##") else "\u2581" + token


def _pooling_type(model_dir: Path) -> PoolingType:
    import gguf

    pooling_file = model_dir / "1_Pooling" / "config.json"
    if not pooling_file.exists():
        return gguf.PoolingType.MEAN
    config = json.loads(pooling_file.read_text(encoding="utf-8"))
    if config.get("pooling_mode_cls_token"):
        return gguf.PoolingType.CLS
    if config.get("pooling_mode_mean_tokens"):
        return gguf.PoolingType.MEAN
    raise ValueError(f"unsupported pooling in {pooling_file}: only mean or CLS pooling is supported")


def _tensor_type(gguf_name: str, array: np.ndarray, outtype: str) -> GGMLQuantizationType:
    """Norms, biases and the tiny token-type table stay f32; matrices become f16 or q8_0."""
    import gguf

    if array.ndim < 2 or gguf_name.startswith("token_types"):
        return gguf.GGMLQuantizationType.F32
    if outtype == "q8_0" and array.shape[-1] % 32 == 0:
        return gguf.GGMLQuantizationType.Q8_0
    if outtype == "f32":
        return gguf.GGMLQuantizationType.F32
    return gguf.GGMLQuantizationType.F16


def convert_bert(model_dir: Path, out_path: Path, *, outtype: str = "q8_0", name: str | None = None) -> Path:
    """Write the BERT model in ``model_dir`` (config.json, vocab.txt, model.safetensors)
    to ``out_path`` as a GGUF that llama.cpp loads with ``embedding=True``."""
    import gguf
    from gguf import quants

    if outtype not in ("f32", "f16", "q8_0"):
        raise ValueError(f"unsupported output type {outtype!r} (f32, f16 or q8_0)")
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "bert":
        raise ValueError(f"{model_dir} is a {config.get('model_type')!r} model; only BERT is supported")
    vocab = (model_dir / "vocab.txt").read_text(encoding="utf-8").splitlines()
    n_layers = config["num_hidden_layers"]
    name_map = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, n_layers)

    writer = gguf.GGUFWriter(str(out_path), "bert")
    writer.add_name(name or config.get("_name_or_path", model_dir.name))
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_block_count(n_layers)
    writer.add_head_count(config["num_attention_heads"])
    writer.add_layer_norm_eps(config.get("layer_norm_eps", 1e-12))
    writer.add_causal_attention(False)
    writer.add_pooling_type(_pooling_type(model_dir))
    writer.add_file_type({"f32": gguf.LlamaFileType.ALL_F32, "f16": gguf.LlamaFileType.MOSTLY_F16,
                          "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0}[outtype])

    special = set(_SPECIAL_TOKENS)
    token_types = [gguf.TokenType.CONTROL if t in special else gguf.TokenType.NORMAL for t in vocab]
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("bert-bge")  # the uncased WordPiece of bge/MiniLM
    writer.add_token_list([_phantom(t, t in special) for t in vocab])
    writer.add_token_types(token_types)
    writer.add_token_type_count(config.get("type_vocab_size", 1))
    # gguf has no key for [CLS]; llama.cpp's WPM vocab knows it anyway, so silence the notice.
    logging.getLogger("gguf.vocab").setLevel(logging.ERROR)
    gguf.SpecialVocab(model_dir, n_vocab=len(vocab)).add_to_gguf(writer, quiet=True)

    for hf_name, array in read_safetensors(model_dir / "model.safetensors"):
        hf_name = hf_name.removeprefix("bert.")
        if hf_name.startswith(_SKIPPED_PREFIXES):
            continue
        gguf_name = name_map.get_name(hf_name, try_suffixes=(".weight", ".bias"))
        if gguf_name is None:
            raise ValueError(f"cannot map tensor {hf_name!r} to a llama.cpp BERT tensor")
        qtype = _tensor_type(gguf_name, array, outtype)
        data = np.ascontiguousarray(array, dtype=np.float32)
        if qtype == gguf.GGMLQuantizationType.F16:
            data = data.astype(np.float16)
        elif qtype == gguf.GGMLQuantizationType.Q8_0:
            data = quants.quantize(data, qtype)
        writer.add_tensor(gguf_name, data, raw_dtype=qtype)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out_path
