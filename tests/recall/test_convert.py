"""Set-up conversion: a BERT in safetensors becomes a GGUF that llama.cpp embeds with."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from desktop_app.engine.convert import convert_bert, read_safetensors

HIDDEN, HEADS, LAYERS, FFN, POSITIONS = 32, 2, 1, 64, 64
WORDS = ["hello", "world", "budget", "trip", "##s", "the", "a", "is", "paris", "coffee"]


def _vocab() -> list[str]:
    # The real BERT layout: [PAD]=0, [UNK]=100, [CLS]=101, [SEP]=102, [MASK]=103.
    vocab = ["[PAD]"] + [f"[unused{i}]" for i in range(99)] + ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    return vocab + WORDS


def _write_safetensors(path, tensors: dict[str, np.ndarray]) -> None:
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype=np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


@pytest.fixture
def tiny_bert(tmp_path):
    rng = np.random.default_rng(0)
    vocab = _vocab()
    folder = tmp_path / "tiny-bert"
    folder.mkdir()
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    (folder / "config.json").write_text(json.dumps({
        "model_type": "bert", "hidden_size": HIDDEN, "num_attention_heads": HEADS, "num_hidden_layers": LAYERS,
        "intermediate_size": FFN, "max_position_embeddings": POSITIONS, "type_vocab_size": 2,
        "layer_norm_eps": 1e-12, "vocab_size": len(vocab)}))

    def w(*shape):
        return rng.normal(0, 0.05, shape)

    tensors = {"embeddings.word_embeddings.weight": w(len(vocab), HIDDEN),
               "embeddings.position_embeddings.weight": w(POSITIONS, HIDDEN),
               "embeddings.token_type_embeddings.weight": w(2, HIDDEN),
               "embeddings.LayerNorm.weight": np.ones(HIDDEN), "embeddings.LayerNorm.bias": np.zeros(HIDDEN),
               "embeddings.position_ids": np.arange(POSITIONS)[None, :]}
    for part in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
        tensors[f"encoder.layer.0.{part}.weight"] = w(HIDDEN, HIDDEN)
        tensors[f"encoder.layer.0.{part}.bias"] = np.zeros(HIDDEN)
    tensors.update({"encoder.layer.0.attention.output.LayerNorm.weight": np.ones(HIDDEN),
                    "encoder.layer.0.attention.output.LayerNorm.bias": np.zeros(HIDDEN),
                    "encoder.layer.0.intermediate.dense.weight": w(FFN, HIDDEN),
                    "encoder.layer.0.intermediate.dense.bias": np.zeros(FFN),
                    "encoder.layer.0.output.dense.weight": w(HIDDEN, FFN),
                    "encoder.layer.0.output.dense.bias": np.zeros(HIDDEN),
                    "encoder.layer.0.output.LayerNorm.weight": np.ones(HIDDEN),
                    "encoder.layer.0.output.LayerNorm.bias": np.zeros(HIDDEN),
                    "pooler.dense.weight": w(HIDDEN, HIDDEN), "pooler.dense.bias": np.zeros(HIDDEN)})
    _write_safetensors(folder / "model.safetensors", tensors)
    return folder


def test_read_safetensors_round_trips(tiny_bert):
    tensors = dict(read_safetensors(tiny_bert / "model.safetensors"))
    assert tensors["embeddings.word_embeddings.weight"].shape == (len(_vocab()), HIDDEN)
    assert tensors["encoder.layer.0.intermediate.dense.weight"].dtype == np.float32


@pytest.mark.parametrize("outtype", ["f16", "q8_0"])
def test_converted_gguf_has_llama_cpp_bert_layout(tiny_bert, tmp_path, outtype):
    import gguf

    out = convert_bert(tiny_bert, tmp_path / f"tiny-{outtype}.gguf", outtype=outtype, name="tiny")
    reader = gguf.GGUFReader(out)
    names = {t.name for t in reader.tensors}
    assert {"token_embd.weight", "position_embd.weight", "token_types.weight", "token_embd_norm.weight",
            "blk.0.attn_q.weight", "blk.0.attn_output_norm.bias", "blk.0.ffn_up.weight",
            "blk.0.layer_output_norm.weight"} <= names
    assert not any("pooler" in n or "position_ids" in n for n in names)
    fields = reader.fields
    assert bytes(fields["general.architecture"].parts[-1]).decode() == "bert"
    assert bytes(fields["tokenizer.ggml.model"].parts[-1]).decode() == "bert"
    tokens = [bytes(fields["tokenizer.ggml.tokens"].parts[i]).decode() for i in fields["tokenizer.ggml.tokens"].data]
    assert tokens[101] == "[CLS]"
    assert "\u2581hello" in tokens
    assert "s" in tokens  # phantom-space WordPiece


def test_llama_cpp_embeds_with_the_converted_model(tiny_bert, tmp_path):
    from desktop_app.engine.embedder import LlamaEmbedder

    out = convert_bert(tiny_bert, tmp_path / "tiny.gguf", outtype="f16", name="tiny")
    embedder = LlamaEmbedder(out, n_batch=64)
    vectors = embedder.embed(["hello world", "the budget trip", "paris coffee"])
    assert vectors.shape == (3, HIDDEN)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert not np.allclose(vectors[0], vectors[1])
    assert embedder.model_id.startswith("tiny|tiny.gguf|")


def test_non_bert_models_are_refused(tiny_bert, tmp_path):
    config = json.loads((tiny_bert / "config.json").read_text())
    (tiny_bert / "config.json").write_text(json.dumps({**config, "model_type": "llama"}))
    with pytest.raises(ValueError, match="only BERT"):
        convert_bert(tiny_bert, tmp_path / "x.gguf")
