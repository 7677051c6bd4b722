"""The HTTP engine against a real OpenAI-compatible server: ``python -m llama_cpp.server`` with
the tiny model. ``.ci/run`` starts one and passes its URL in PAPERCLIP_TEST_SERVER; without
it this module starts its own on a free loopback port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.errors import ContextFullError, ModelLoadError, ServerError
from desktop_app.engine.http import HttpEngine, is_private_host

pytestmark = pytest.mark.model
SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "city": {"type": "string"}},
          "required": ["name", "city"]}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, process: subprocess.Popen | None, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/models", timeout=2) as response:
                if json.loads(response.read())["data"]:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no server answered at {url} within {timeout} s")


@pytest.fixture(scope="session")
def server_url(tmp_path_factory):
    given = os.environ.get("PAPERCLIP_TEST_SERVER")
    if given:
        _wait_for(given.rstrip("/"), None, timeout=30)
        yield given.rstrip("/")
        return
    from desktop_app.manifest import catalog

    model = catalog()["tiny"].path
    if not model.exists():
        pytest.skip(f"tiny model missing at {model}: run `make models`")
    pytest.importorskip("sse_starlette", reason="llama-cpp-python[server] is in the test extras")
    port = _free_port()
    log = (tmp_path_factory.mktemp("server") / "server.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host",
                                "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--n_threads", "1"],
                               stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        _wait_for(url, process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def http_engine(server_url):
    return HttpEngine(server_url, n_ctx=2048)


def test_a_full_chat_turn_goes_through_the_server(http_engine, store, settings):
    pipeline = pipeline_for(store, settings, counter=http_engine.counter, n_ctx=http_engine.n_ctx)
    session = store.session_named("http")
    result = run_turn(pipeline, session, http_engine, "The budget must stay under 5000 dollars. Say OK.",
                      settings=settings.model_copy(update={"max_tokens": 16, "temperature": 0.0}))
    assert result.reply is not None
    assert result.reply.content.strip()
    assert result.completion_pieces >= 2, "the reply streams in pieces"
    assert store.list_turn_log(session.id)[-1].reply_message_id == result.reply.id
    assert result.recorded.memory[0].action == "added"  # the rule was written before the reply


def test_json_schema_output_through_response_format(http_engine):
    value = http_engine.complete_json(
        [{"role": "user", "content": "My name is Ana and I live in Lisbon. Give my name and city as JSON."}],
        SCHEMA, max_tokens=48)
    assert set(value) >= {"name", "city"}
    assert all(isinstance(value[k], str) for k in ("name", "city"))


def test_stopping_closes_the_stream_between_pieces(http_engine):
    seen: list[str] = []
    stream = http_engine.stream_chat([{"role": "user", "content": "Tell me a long story about a lighthouse."}],
                                     max_tokens=200, temperature=0.0, should_stop=lambda: len(seen) >= 3)
    for piece in stream:
        seen.append(piece)
    assert len(seen) == 3, "no piece after the stop"
    # The connection was closed: the next request is served at once (the server is not busy).
    assert http_engine.complete_json([{"role": "user", "content": "Name: Bo, city: Oslo. JSON."}], SCHEMA,
                                     max_tokens=32)


def test_tokens_are_counted_by_the_servers_tokenizer(http_engine, real_tiny_counter):
    text = "Paperclip keeps the budget of 5000 dollars in its anchors."
    assert http_engine.counter.name == "server tokenizer"
    assert http_engine.counter.count(text) == real_tiny_counter.count(text)


def test_a_prompt_over_the_window_is_a_one_line_context_error(http_engine):
    with pytest.raises(ContextFullError) as info:
        list(http_engine.stream_chat([{"role": "user", "content": "word " * 5000}], max_tokens=8, temperature=0))
    assert "\n" not in str(info.value)


def test_server_down_unknown_model_and_remote_hosts_fail_in_one_line(server_url):
    with pytest.raises(ServerError, match="cannot reach the server"):
        HttpEngine(f"http://127.0.0.1:{_free_port()}/v1")
    with pytest.raises(ServerError, match="has no model 'llama-70b'"):
        HttpEngine(server_url, model="llama-70b")
    with pytest.raises(ModelLoadError, match="allow_remote"):
        HttpEngine("http://93.184.216.34/v1")  # a public address: refused before any connection


def test_ask_with_engine_flag(server_url, tmp_path, capsys):
    from desktop_app.cli import main

    code = main(["ask", "Say hello.", "--engine", server_url, "--db", str(tmp_path / "h.db"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["reply"].strip()
    assert out["reply_message_id"]


def test_private_hosts_are_recognised():
    assert is_private_host("127.0.0.1")
    assert is_private_host("localhost")
    assert is_private_host("192.168.1.20")
    assert is_private_host("10.0.0.5")
    assert is_private_host("::1")
    assert not is_private_host("93.184.216.34")
    assert not is_private_host("8.8.8.8")


@pytest.fixture(scope="session")
def real_tiny_counter():
    from desktop_app.engine.llama import EngineSettings, LlamaEngine
    from desktop_app.manifest import catalog

    return LlamaEngine(catalog()["tiny"].path, EngineSettings(n_ctx=512)).counter


def test_a_server_without_embeddings_says_so_in_one_line(http_engine):
    with pytest.raises(ServerError) as info:
        http_engine.embed(["a sentence"])
    assert "\n" not in str(info.value)
    assert "500" in str(info.value)
