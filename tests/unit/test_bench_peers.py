"""``bench peers`` glue that needs neither a model nor mem0: the network guard, the missing-extra
line, mem0's results mapped back to items and LoCoMo turns, and its failures counted."""

from __future__ import annotations

import logging
import socket
import sys
from types import SimpleNamespace

import pytest

from desktop_app.bench import peers
from desktop_app.bench.memory import Result, score_cases


def test_loopback_addresses_are_told_apart():
    for host in ("127.0.0.1", "127.8.0.3", "::1", "localhost", "/tmp/socket", b"127.0.0.1"):
        assert peers.is_loopback(host), host
    for host in ("203.0.113.5", "10.0.0.1", "192.168.1.2", "us.i.posthog.com", "raw.githubusercontent.com", None):
        assert not peers.is_loopback(host), host


@pytest.fixture
def recorded(monkeypatch):
    """socket's connect and getaddrinfo replaced by recorders, so nothing leaves this process
    even if the guard let a call through."""
    calls: list[object] = []
    monkeypatch.setattr(socket.socket, "connect", lambda sock, address: calls.append(("connect", address)))
    monkeypatch.setattr(socket.socket, "connect_ex", lambda sock, address: calls.append(("connect_ex", address)) or 0)
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: calls.append(("resolve", host)) or [])
    return calls


def test_the_guard_refuses_and_counts_connections_off_the_machine(recorded):
    with peers.SocketGuard() as guard, socket.socket() as sock:
        with pytest.raises(peers.NetworkBlocked):
            sock.connect(("203.0.113.5", 443))
        with pytest.raises(peers.NetworkBlocked):
            sock.connect_ex(("10.1.2.3", 80))
        with pytest.raises(peers.NetworkBlocked):
            socket.getaddrinfo("us.i.posthog.com", 443)
        sock.connect(("127.0.0.1", 8000))
        socket.getaddrinfo("localhost", 8000)
    assert recorded == [("connect", ("127.0.0.1", 8000)), ("resolve", "localhost")]
    assert len(guard.blocked) == 3
    assert "us.i.posthog.com" in guard.blocked


def test_the_guard_puts_the_socket_functions_back(recorded):
    before = socket.socket.connect, socket.getaddrinfo
    with peers.SocketGuard():
        assert socket.socket.connect is not before[0]
    assert (socket.socket.connect, socket.getaddrinfo) == before


def test_a_missing_extra_is_said_in_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mem0", None)  # import mem0 raises ImportError
    assert peers.import_mem0() is None
    assert capsys.readouterr().err.strip() == "mem0 is not installed: pip install -e '.[peers]'"


def test_offline_env_turns_telemetry_off_and_drops_cloud_keys(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENROUTER_API_KEY", "secret")
    monkeypatch.delenv("MEM0_TELEMETRY", raising=False)
    import os

    with peers.offline_env(tmp_path):
        assert os.environ["MEM0_TELEMETRY"] == "False"
        assert os.environ["MEM0_DIR"] == str(tmp_path)
        assert "OPENROUTER_API_KEY" not in os.environ
    assert os.environ["OPENROUTER_API_KEY"] == "secret"
    assert "MEM0_TELEMETRY" not in os.environ


SEARCHED = {"results": [
    {"id": "a", "memory": "Caroline went to an LGBTQ support group", "score": 0.8,
     "metadata": {"dia_id": "D1:3", "time": 1683554160.0}},
    {"id": "b", "memory": "Melanie paints sunrises", "score": 0.6, "metadata": {"dia_id": "D1:8"}},
    {"id": "c", "memory": "no metadata", "score": 0.5},
]}


def test_search_results_map_back_to_the_turns_they_came_from():
    from desktop_app.bench.recall import first_hit_rank

    ranked = peers.turns_of(SEARCHED)
    assert ranked == ["D1:3", "D1:8", None]
    assert first_hit_rank(ranked, frozenset({"D1:8"})) == 2
    assert peers.recall_at([1, 2, None, 7]) == {"@1": 0.25, "@5": 0.5, "@10": 0.75}


def test_memories_take_the_place_of_recalled_turns_with_their_day():
    block = peers.memories_block(SEARCHED, "en", 2)
    lines = block.splitlines()
    assert len(lines) == 3
    assert "8 May 2023" in lines[1]
    assert lines[1].endswith("LGBTQ support group")
    assert lines[2] == "- Melanie paints sunrises"


def test_mem0_memories_are_scored_with_bench_memorys_matching_on_words_alone():
    cases = {
        "single": [{"id": "s1", "lang": "en", "text": "I'm allergic to peanuts",
                    "expect": [{"kind": "constraint", "terms": ["peanut"]}]},
                   {"id": "s2", "lang": "zh", "text": "我叫小王", "expect": [{"kind": "fact", "terms": ["小王"]}]}],
        "negatives": [{"id": "n1", "lang": "en", "text": "what's my budget?"}],
        "sequences": [{"id": "q1", "lang": "en", "turns": ["budget is 1500", "make that 2200"],
                       "final_active": [{"kind": "constraint", "terms": ["2200"]}], "final_absent": ["1500"]}],
    }
    held = {"s1": ["User is allergic to peanuts"], "s2": ["User's name is Xiao Wang"], "n1": ["User asked about budget"],
            "q1": ["User's budget is 1500", "User's budget is now 2200"]}

    def write(turns, case_id):
        return peers.peer_items({"results": [{"id": f"{case_id}-{i}", "memory": m} for i, m in enumerate(held[case_id])]})

    result = score_cases(cases, write, result=Result(system="mem0"))
    assert result.singles["en/constraint"]["found"] == 1
    assert result.singles["zh/fact"]["found"] == 0  # an English memory of a Chinese message misses the Chinese terms
    assert result.negatives["en"] == [1, 1]
    assert result.sequences["en"] == [1, 1, 1]  # ADD-only: the old budget stays


def test_per_language_limit_keeps_both_languages():
    cases = {"single": [{"id": f"{lang}{i}", "lang": lang} for lang in ("en", "zh") for i in range(4)],
             "negatives": [], "sequences": []}
    kept = peers.per_language(cases, 2)["single"]
    assert [c["id"] for c in kept] == ["en0", "en1", "zh0", "zh1"]


def test_a_conversation_is_cut_and_keeps_only_questions_it_can_answer():
    def turn(session, index):
        return {"speaker": "A" if index % 2 else "B", "dia_id": f"D{session}:{index}", "text": f"turn {session}.{index}"}

    sample = {"sample_id": "c1", "conversation": {
        "speaker_a": "A", "speaker_b": "B",
        "session_1": [turn(1, i) for i in range(1, 4)], "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_2": [turn(2, i) for i in range(1, 4)], "session_2_date_time": "1:14 pm on 25 May, 2023"},
        "qa": [{"question": "early", "answer": "x", "category": 4, "evidence": ["D1:2"]},
               {"question": "late", "answer": "y", "category": 4, "evidence": ["D2:3"]},
               {"question": "both", "answer": "z", "category": 1, "evidence": ["D1:1", "D2:1"]}]}
    cut = peers.cut_conversation(sample, 4)
    assert [d for d, _, _ in peers.conversation_turns(cut)] == ["D1:1", "D1:2", "D1:3", "D2:1"]
    assert [q["question"] for q in cut["qa"]] == ["early", "both"]


def test_mem0s_own_failures_are_counted_where_it_catches_them():
    stats = peers.Mem0Stats()
    handler = peers.Mem0Log(stats)
    log = logging.getLogger("mem0")
    log.addHandler(handler)
    try:
        logging.getLogger("mem0.memory.main").error("Error parsing extraction response: Expecting value")
        logging.getLogger("mem0.memory.main").error("LLM extraction failed: timeout")
        logging.getLogger("mem0.vector_stores.qdrant").warning("fastembed not installed - BM25 keyword search disabled.")
        logging.getLogger("mem0.vector_stores.qdrant").warning("fastembed not installed - BM25 keyword search disabled.")
    finally:
        log.removeHandler(handler)
    assert (stats.parse_errors, stats.llm_errors) == (1, 1)
    assert stats.warnings == ["fastembed not installed - BM25 keyword search disabled."]

    def reply(text, finish="stop"):
        return SimpleNamespace(choices=[SimpleNamespace(finish_reason=finish, message=SimpleNamespace(content=text))])

    seen = peers.reply_callback(stats)
    seen(None, reply('{"memory": []}'), {})
    seen(None, reply('```json\n{"memory": []}\n```'), {})
    seen(None, reply('{"memory": [{"id": "0", "text": "User', "length"), {})
    assert (stats.calls, stats.not_json, stats.truncated) == (3, 1, 1)
