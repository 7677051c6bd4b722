"""The evaluated prefix with the real llama.cpp engine (tiny model): chunked pre-fill, idle
warming that the next turn reuses, and the per-session state saved and restored across loads."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

from desktop_app.engine.kv_cache import KvCache
from desktop_app.engine.llama import EngineSettings, LlamaEngine

pytestmark = pytest.mark.model

TINY = "SmolLM2-135M-Instruct.Q4_1.gguf"
CHAT = [{"role": "system", "content": "You are a helpful assistant. " * 8},
        {"role": "user", "content": "List three colours of the sea at dawn, and say why each appears."},
        {"role": "assistant", "content": "Grey, pink and gold: the light comes through mist, then low sun."}]


@pytest.fixture(scope="module")
def tiny_path():
    from desktop_app import paths

    path = paths.models_dir() / TINY
    if not path.exists():
        pytest.skip(f"tiny model missing at {path}: run `make models`")
    return path


def load(path, n_ctx=512):
    return LlamaEngine(path, EngineSettings(n_ctx=n_ctx, n_threads=1, seed=7))


def test_warming_evaluates_exactly_what_the_next_prompt_starts_with(tiny_path):
    engine = load(tiny_path)
    warmed = engine.warm(CHAT)
    assert warmed.complete
    assert warmed.reused == 0
    assert warmed.evaluated == warmed.total > 40
    messages = [*CHAT, {"role": "user", "content": "And at dusk?"}]
    assert engine.prompt_tokens(messages)[: warmed.total] == engine.cached_tokens()
    again = engine.warm(CHAT)
    assert again.evaluated == 0
    assert again.reused == warmed.total  # nothing new: nothing evaluated
    pieces = list(engine.stream_chat(messages, max_tokens=4, temperature=0.0))
    assert pieces
    assert engine.last_reused_tokens == warmed.total


def test_a_stop_cuts_the_pre_fill_between_chunks_and_keeps_the_rest(tiny_path):
    engine = load(tiny_path)
    engine.chunk.size = 8
    calls = {"n": 0}

    def stop():
        calls["n"] += 1
        return calls["n"] > 2

    result = engine.warm(CHAT, should_stop=stop)
    assert not result.complete
    assert 8 <= result.evaluated < result.total  # two chunks, then the stop
    assert len(engine.cached_tokens()) == result.evaluated
    rest = engine.warm(CHAT)
    assert rest.reused == result.evaluated
    assert rest.complete
    assert rest.reused + rest.evaluated == result.total


def test_the_saved_state_restores_in_a_fresh_load(tiny_path, tmp_path):
    cache = KvCache(tmp_path / "kv", 64 << 20)
    first = load(tiny_path)
    first.warm(CHAT)
    key = KvCache.key(tmp_path / "p.db", 7, tiny_path)
    assert cache.save(first, key) > 0
    data, meta = cache._paths(key)
    assert oct(data.stat().st_mode & 0o777) == "0o600"
    assert oct(meta.stat().st_mode & 0o777) == "0o600"
    second = load(tiny_path)
    result = cache.restore(second, key, prefix=second.prefix_tokens(CHAT))
    assert result.restored
    assert second.cached_tokens() == first.cached_tokens()
    messages = [*CHAT, {"role": "user", "content": "And at dusk?"}]
    assert list(second.stream_chat(messages, max_tokens=4, temperature=0.0))
    assert second.last_reused_tokens == len(first.cached_tokens())  # nothing re-evaluated
    restored_reply = "".join(second.stream_chat(messages, max_tokens=8, temperature=0.0))
    cold = load(tiny_path)
    assert "".join(cold.stream_chat(messages, max_tokens=8, temperature=0.0)) == restored_reply  # the same KV


def test_a_different_n_ctx_model_or_prefix_invalidates_the_state(tiny_path, tmp_path):
    cache = KvCache(tmp_path / "kv", 64 << 20)
    engine = load(tiny_path)
    engine.warm(CHAT)
    key = KvCache.key(tmp_path / "p.db", 1, tiny_path)
    cache.save(engine, key)
    assert cache.restore(load(tiny_path, n_ctx=1024), key).reason.startswith("saved with n_ctx 512")
    cache.save(engine, key)
    other = tmp_path / "copy.gguf"
    shutil.copy(tiny_path, other)
    assert cache.restore(load(other), key).reason == "saved with a different model file"
    cache.save(engine, key)
    fresh = load(tiny_path)
    changed = [{"role": "system", "content": "A different head entirely."}, *CHAT[1:]]
    assert cache.restore(fresh, key, prefix=fresh.prefix_tokens(changed)).reason.startswith("the prompt head changed")
    assert fresh.cached_tokens() == []


def test_a_corrupt_or_truncated_state_file_is_ignored(tiny_path, tmp_path, caplog):
    cache = KvCache(tmp_path / "kv", 64 << 20)
    engine = load(tiny_path)
    engine.warm(CHAT)
    key = KvCache.key(tmp_path / "p.db", 2, tiny_path)
    cache.save(engine, key)
    data, meta = cache._paths(key)
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    data.write_bytes(bytes(raw))
    fresh = load(tiny_path)
    result = cache.restore(fresh, key)
    assert not result.restored
    assert result.reason == "the state file is damaged"
    assert fresh.cached_tokens() == []
    assert "ignoring the saved state" in caplog.text
    assert not data.exists()
    cache.save(engine, key)
    description = json.loads(meta.read_text())
    data.write_bytes(b"GGSQ" + b"\0" * 64)  # truncated, with a description that vouches for it
    from desktop_app.engine.kv_cache import file_digest

    description["state_sha256"] = file_digest(data)
    meta.write_text(json.dumps(description))
    assert not cache.restore(fresh, key).restored
    assert fresh.cached_tokens() == []
    cache.save(engine, key)
    meta.write_text("{not json")
    assert cache.restore(fresh, key).reason.startswith("unreadable description")
    assert not data.exists()


def test_the_cache_keeps_its_total_size_bounded(tiny_path, tmp_path):
    engine = load(tiny_path)
    engine.warm(CHAT)
    probe = KvCache(tmp_path / "probe", 1 << 30)
    size = probe.save(engine, "probe")
    cache = KvCache(tmp_path / "kv", int(size * 2.5))
    for n in range(4):
        cache.save(engine, f"k-{n}")
    kept = sorted(p.stem for p in (tmp_path / "kv").glob("*.kv"))
    assert kept == ["k-2", "k-3"]  # least recently used went first


def test_turns_that_stay_after_a_page_out_are_moved_not_evaluated_again(tiny_path):
    engine = load(tiny_path, n_ctx=2048)
    turns = []
    for n in range(10):
        turns += [{"role": "user", "content": f"Tell me fact {n} about the harbour and its boats, please."},
                  {"role": "assistant", "content": f"Fact {n}: the harbour has boats, gulls and old ferries."}]
    question = {"role": "user", "content": "What was fact 8?"}
    list(engine.stream_chat([CHAT[0], *turns, question], max_tokens=4, temperature=0.0))
    paged = [{"role": "system", "content": "A new head: the summary now holds facts 0 to 3."}, *turns[8:], question]
    reply = "".join(engine.stream_chat(paged, max_tokens=8, temperature=0.0))
    assert engine.last_shifted_tokens > 64
    assert reply.strip()
    assert engine.last_reused_tokens >= engine.last_shifted_tokens
    assert engine.cached_tokens()[: len(engine.prompt_tokens(paged)) - 1] == engine.prompt_tokens(paged)[:-1]
    exact = load(tiny_path, n_ctx=2048)
    exact.settings = replace(exact.settings, kv_shift=False)
    list(exact.stream_chat([CHAT[0], *turns, question], max_tokens=4, temperature=0.0))
    list(exact.stream_chat(paged, max_tokens=8, temperature=0.0))
    assert exact.last_shifted_tokens == 0
    assert exact.last_reused_tokens < engine.last_reused_tokens


def test_a_move_stopped_halfway_goes_on_where_it_stopped(tiny_path):
    engine = load(tiny_path, n_ctx=2048)
    turns = []
    for n in range(10):
        turns += [{"role": "user", "content": f"Tell me fact {n} about the harbour and its boats, please."},
                  {"role": "assistant", "content": f"Fact {n}: the harbour has boats, gulls and old ferries."}]
    list(engine.stream_chat([CHAT[0], *turns, {"role": "user", "content": "Go on."}], max_tokens=4, temperature=0.0))
    head = {"role": "system", "content": "A new and rather longer head: the summary now holds facts 0 to 3. " * 6}
    paged = [head, *turns[8:]]
    engine.chunk.size = 8
    calls = {"n": 0}

    def stop():
        calls["n"] += 1
        return calls["n"] > 2

    first = engine.warm(paged, should_stop=stop)
    assert not first.complete
    assert engine._parked is not None  # the turns wait, moved, for the rest of the head
    rest = engine.warm(paged)
    assert rest.complete
    assert engine._parked is None
    assert rest.reused >= len(engine.prefix_tokens(turns[8:])) - 8  # the moved turns were not evaluated again
    assert engine.cached_tokens() == engine.prefix_tokens(paged)
    reply = "".join(engine.stream_chat([*paged, {"role": "user", "content": "And fact 9?"}], max_tokens=6,
                                       temperature=0.0))
    assert reply.strip()


def test_the_moved_block_is_found_after_the_common_prefix():
    from desktop_app.engine.prefix import find_moved_block

    cached = list(range(10)) + list(range(100, 120)) + list(range(500, 600)) + [7, 7, 7]
    tokens = list(range(10)) + list(range(900, 905)) + list(range(500, 600)) + [1, 2, 3]
    assert find_moved_block(cached, tokens, 10) == (30, 15, 100)
    assert find_moved_block(cached, list(range(10)) + list(range(900, 1000)), 10) is None


def test_a_head_that_fills_the_window_is_not_warmed(tiny_path):
    from desktop_app.engine.errors import ContextFullError

    engine = load(tiny_path, n_ctx=512)
    long = [{"role": "system", "content": "All work and no play. " * 120}]
    with pytest.raises(ContextFullError):
        engine.warm(long)
    assert engine.cached_tokens() == []
