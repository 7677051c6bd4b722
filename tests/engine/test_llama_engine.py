"""The real default GGUF through the real llama.cpp engine."""

import pytest

from desktop_app.engine.errors import ModelLoadError
from desktop_app.engine.llama import EngineSettings, LlamaEngine, check_gguf_file

pytestmark = pytest.mark.model

HELLO = [{"role": "system", "content": "You are a helpful assistant."},
         {"role": "user", "content": "Say hello in five words."}]


def test_default_model_loads_with_its_gguf_chat_template(real_engine):
    assert real_engine.n_ctx == 2048
    assert real_engine.chat_template, "SmolLM2 ships a chat template in its GGUF metadata"
    prompt = real_engine.format_prompt(HELLO)
    assert "<|im_start|>user\nSay hello in five words.<|im_end|>" in prompt
    assert prompt.endswith("<|im_start|>assistant\n")
    assert real_engine.load_seconds > 0


def test_reply_streams_in_several_pieces(real_engine):
    pieces = list(real_engine.stream_chat(HELLO, max_tokens=24, temperature=0.0))
    assert len(pieces) > 1
    assert "".join(pieces).strip()


def test_stop_check_ends_generation_between_tokens(real_engine):
    pieces = []
    for piece in real_engine.stream_chat(HELLO, max_tokens=64, temperature=0.0,
                                         should_stop=lambda: len(pieces) >= 3):
        pieces.append(piece)
    assert len(pieces) == 3


def test_token_counts_come_from_the_model_tokenizer(real_engine):
    assert real_engine.counter.count("") == 0
    assert real_engine.counter.count("hello world") == 2
    whole = real_engine.count_message_tokens(HELLO)
    assert whole > sum(real_engine.counter.count(m["content"]) for m in HELLO)


def test_missing_model_is_a_one_line_error(tmp_path):
    with pytest.raises(ModelLoadError, match="not found") as info:
        LlamaEngine(tmp_path / "nope.gguf")
    assert "\n" not in str(info.value)


def test_file_that_is_not_gguf_is_refused_before_llama_cpp_sees_it(tmp_path):
    fake = tmp_path / "fake.gguf"
    fake.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(ModelLoadError, match="not a GGUF"):
        check_gguf_file(fake)


def test_truncated_gguf_fails_to_load_with_a_clear_error(tmp_path, default_model):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(default_model.read_bytes()[:4096])
    with pytest.raises(ModelLoadError, match="could not load broken.gguf") as info:
        LlamaEngine(broken, EngineSettings(n_ctx=256))
    assert "\n" not in str(info.value)
