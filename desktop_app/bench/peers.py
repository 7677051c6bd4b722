"""``paperclip bench peers``: Paperclip and mem0 side by side, offline, on the same data and model.

mem0 (``mem0ai``, the optional ``peers`` extra) is configured the way a user without a cloud
account would: its OpenAI-compatible LLM and embedder providers pointed at two
``python -m llama_cpp.server`` processes started here on 127.0.0.1 — the default chat GGUF (chat
template from the GGUF, the same threads as Paperclip's engine) and the default embedding GGUF —
and Qdrant in local mode in a temporary folder. Telemetry is off and a socket guard refuses, and
counts, any connection that is not to the loopback.

Two parts, both printed per language where the data has languages:

- ``memory``: ``bench memory``'s labelled cases (``--cases``). Paperclip runs rules + the model's
  pass as ``bench memory`` does; mem0 gets each case's user messages through ``Memory.add`` (one
  ``user_id`` per case) and is scored on ``get_all`` with the same matching (``score_cases``). mem0
  has no kinds, so its memories are matched on their words alone, and ADD-only means nothing it
  wrote is ever retired. mem0's JSON failures are counted where mem0 catches them.
- ``locomo``: the first ``--conversations`` LoCoMo conversations, cut at ``--max-turns`` turns,
  imported into Paperclip (as ``bench qa`` does) and added to mem0 turn by turn (``dia_id`` in the
  metadata, so memories map back to turns). The questions whose evidence lies in those turns are
  asked: evidence recall@k (Paperclip's hybrid search; mem0's ``search``, each memory standing for
  the turn that produced it) and ``bench qa``'s answer F1, mem0's top memories taking the place of
  Paperclip's context under the same system prompt, question and answer hint.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel

from desktop_app.bench import KINDLESS

INSTALL_HINT = "mem0 is not installed: pip install -e '.[peers]'"
PARTS = ("memory", "locomo")
CUTS = (1, 5, 10)
CHAT_CTX = 12288  # mem0's extraction prompt alone is ~8,000 tokens with this tokenizer
MEM0_LOGGER = "mem0"
# Where mem0 2.x catches its own failures (mem0/memory/main.py, Memory._add_to_vector_store): the
# reply that is not JSON (or not the expected object) is logged and the message's facts dropped.
PARSE_ERROR = "Error parsing extraction response"
LLM_ERROR = "LLM extraction failed"


# -- the network guard -------------------------------------------------------------------------

class NetworkBlocked(ConnectionRefusedError):
    """A connection to somewhere other than this machine, refused by :class:`SocketGuard`."""


def is_loopback(host: object) -> bool:
    """True for 127.0.0.0/8, ::1, 'localhost' and Unix-socket paths."""
    if isinstance(host, bytes | bytearray):
        host = host.decode(errors="replace")
    if not isinstance(host, str):
        return False
    if host.startswith("/") or host == "":
        return True  # AF_UNIX path (or the abstract namespace)
    if host.lower() in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


class SocketGuard:
    """Within ``with``: connecting (or resolving a name) anywhere but the loopback raises
    :class:`NetworkBlocked`; every attempt is kept in ``blocked``."""

    def __init__(self) -> None:
        self.blocked: list[str] = []
        self._saved: dict[str, Any] = {}

    def _refuse(self, where: object) -> None:
        self.blocked.append(str(where))
        raise NetworkBlocked(f"network blocked by bench peers: {where}")

    def __enter__(self) -> SocketGuard:
        guard = self
        connect, connect_ex, getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo
        self._saved = {"connect": connect, "connect_ex": connect_ex, "getaddrinfo": getaddrinfo}

        def target(address: object) -> object:
            return address[0] if isinstance(address, tuple) else address

        def guarded_connect(sock: Any, address: Any) -> Any:
            if not is_loopback(target(address)):
                guard._refuse(address)
            return connect(sock, address)

        def guarded_connect_ex(sock: Any, address: Any) -> Any:
            if not is_loopback(target(address)):
                guard._refuse(address)
            return connect_ex(sock, address)

        def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host is not None and not is_loopback(host):
                guard._refuse(host)
            return getaddrinfo(host, *args, **kwargs)

        socket.socket.connect = guarded_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = guarded_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = guarded_getaddrinfo
        return self

    def __exit__(self, *exc: object) -> None:
        socket.socket.connect = self._saved["connect"]  # type: ignore[method-assign]
        socket.socket.connect_ex = self._saved["connect_ex"]  # type: ignore[method-assign]
        socket.getaddrinfo = self._saved["getaddrinfo"]


@contextlib.contextmanager
def offline_env(folder: Path) -> Iterator[None]:
    """mem0's switches for a run without the network: telemetry off (read when mem0 is imported),
    its ~/.mem0 kept in ``folder``, no cloud keys or base URLs from the shell, no proxy for the
    loopback."""
    wanted = {"MEM0_TELEMETRY": "False", "MEM0_DIR": str(folder), "HF_HUB_OFFLINE": "1",
              "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    dropped = ("OPENROUTER_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "MEM0_API_KEY")
    saved = {name: os.environ.get(name) for name in (*wanted, *dropped)}
    os.environ.update(wanted)
    for name in dropped:
        os.environ.pop(name, None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def import_mem0() -> Any:
    """The ``mem0`` module, or None (the install line said on stderr) when the extra is missing."""
    try:
        import mem0
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return None
    return mem0


# -- what mem0 did -----------------------------------------------------------------------------

class Mem0Stats(BaseModel):
    """mem0's own failures and costs, counted where mem0 catches them."""

    calls: int = 0  # extraction replies the LLM sent (response_callback)
    not_json: int = 0  # replies json.loads rejected (mem0 then tries extract_json)
    truncated: int = 0  # replies cut by max_tokens
    parse_errors: int = 0  # mem0 logged PARSE_ERROR: the reply was dropped, nothing stored
    llm_errors: int = 0  # mem0 logged LLM_ERROR (the request itself failed)
    add_errors: int = 0  # add() raised (e.g. a memory that is a string, not an object)
    empty: int = 0  # add() stored nothing
    adds: int = 0
    add_seconds: float = 0.0
    warmup_seconds: float = 0.0  # the first add: the extraction prompt's pre-fill
    warnings: list[str] = []  # what mem0 said about its set-up (BM25, spaCy), once each
    errors: list[str] = []  # the first few add() exceptions

    @property
    def json_failures(self) -> int:
        return self.parse_errors + self.add_errors


class Mem0Log(logging.Handler):
    """Counts mem0's logged parse and LLM failures into ``stats`` and keeps its warnings."""

    def __init__(self, stats: Mem0Stats) -> None:
        super().__init__(logging.WARNING)
        self.stats = stats

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(PARSE_ERROR):
            self.stats.parse_errors += 1
        elif message.startswith(LLM_ERROR):
            self.stats.llm_errors += 1
        elif record.levelno >= logging.WARNING:
            line = message.splitlines()[0][:160]
            if line not in self.stats.warnings:
                self.stats.warnings.append(line)


def reply_callback(stats: Mem0Stats) -> Callable[[Any, Any, dict], None]:
    """mem0's ``response_callback``: sees every raw extraction reply."""

    def seen(llm: Any, response: Any, params: dict) -> None:
        choice = response.choices[0]
        stats.calls += 1
        stats.truncated += int(choice.finish_reason == "length")
        text = (choice.message.content or "").strip()
        if text.startswith("```"):
            text = text.strip("`").removeprefix("json").strip()
        try:
            json.loads(text, strict=False)
        except ValueError:
            stats.not_json += 1

    return seen


@dataclass
class PeerItem:
    """A mem0 memory in the shape ``score_cases`` reads: free text, no kind, no scope, always active."""

    id: str
    value: str
    subject: str = ""
    kind: str = KINDLESS
    status: str = "active"
    scope: str | None = None


def peer_items(listed: Any) -> list[PeerItem]:
    """``get_all``/``search`` results (a ``{"results": [...]}`` dict or a plain list) as items."""
    rows = listed.get("results", []) if isinstance(listed, dict) else list(listed or [])
    return [PeerItem(id=str(row.get("id")), value=str(row.get("memory", ""))) for row in rows if isinstance(row, dict)]


def turns_of(results: Any) -> list[str | None]:
    """The LoCoMo turn (``dia_id``) each search result was extracted from, in rank order."""
    rows = results.get("results", []) if isinstance(results, dict) else list(results or [])
    return [(row.get("metadata") or {}).get("dia_id") for row in rows if isinstance(row, dict)]


# -- servers -----------------------------------------------------------------------------------

@dataclass
class Served:
    chat_url: str
    embed_url: str
    embed_dims: int
    threads: int
    ready_seconds: float


@contextlib.contextmanager
def llama_servers(chat_model: Path, embed_model: Path, *, threads: int, log: Callable[[str], None]) -> Iterator[Served]:
    """The chat GGUF and the embedding GGUF, each behind its own ``llama_cpp.server`` on a free
    loopback port (one server swaps models per request); both stopped on the way out."""
    from desktop_app.bench.engine import start_server

    processes: list[subprocess.Popen] = []
    started = time.perf_counter()
    try:
        chat, chat_url, _ = start_server(chat_model, CHAT_CTX, threads, extra=("--model_alias", chat_model.stem))
        processes.append(chat)
        # Non-causal models need the micro-batch as large as the batch (llama.cpp aborts otherwise).
        embed, embed_url, _ = start_server(embed_model, 512, threads, extra=(
            "--model_alias", embed_model.stem, "--embedding", "true", "--n_batch", "512", "--n_ubatch", "512"))
        processes.append(embed)
        dims = embedding_dims(embed_url)
        log(f"llama_cpp.server: chat at {chat_url}, embeddings at {embed_url} "
            f"({time.perf_counter() - started:.0f} s to start)")
        yield Served(chat_url, embed_url, dims, threads, time.perf_counter() - started)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:  # busy answering: uvicorn waits for the request
                process.kill()
                process.wait(10)


def embedding_dims(url: str) -> int:
    """The width of the served embedding model's vectors (mem0 must be told it)."""
    request = urllib.request.Request(f"{url}/embeddings", data=json.dumps({"input": "width"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(json.loads(response.read())["data"][0]["embedding"])


def mem0_config(served: Served, folder: Path, *, chat_model: Path, embed_model: Path, max_tokens: int,
                callback: Callable[[Any, Any, dict], None] | None = None) -> dict:
    """The ``Memory.from_config`` dict: everything local, mem0's defaults otherwise."""
    llm: dict[str, Any] = {"model": chat_model.stem, "openai_base_url": served.chat_url, "api_key": "local",
                           "max_tokens": max_tokens}
    if callback is not None:
        llm["response_callback"] = callback
    return {
        "llm": {"provider": "openai", "config": llm},
        "embedder": {"provider": "openai", "config": {"model": embed_model.stem, "openai_base_url": served.embed_url,
                                                      "api_key": "local", "embedding_dims": served.embed_dims}},
        "vector_store": {"provider": "qdrant", "config": {"collection_name": "bench_peers",
                                                          "embedding_model_dims": served.embed_dims,
                                                          "path": str(folder / "qdrant")}},
        "history_db_path": str(folder / "history.db"),
    }


def describe(mem0: Any, config: dict, served: Served, stats: Mem0Stats, chat_model: Path, embed_model: Path) -> dict:
    """What was run, for the output: versions and every setting that differs from a cloud set-up."""
    llm = config["llm"]["config"]
    return {"mem0": getattr(mem0, "__version__", "?"), "llm": f"openai provider → llama_cpp.server 127.0.0.1 "
            f"({chat_model.name}, n_ctx {CHAT_CTX}, {served.threads} thread(s), chat template from the GGUF)",
            "llm_settings": f"max_tokens {llm['max_tokens']}, mem0's defaults otherwise (temperature 0.1, top_p 0.1, "
            "response_format json_object)",
            "embedder": f"openai provider → llama_cpp.server 127.0.0.1 ({embed_model.name}, {served.embed_dims} dims)",
            "vector_store": "qdrant, local mode (temporary folder)", "telemetry": "off (MEM0_TELEMETRY=False)",
            "mem0_warnings": stats.warnings}


# -- part 1: the labelled memory cases ---------------------------------------------------------

def per_language(cases: dict, limit: int | None) -> dict:
    """The first ``limit`` cases of each group in each language (the sets list English first)."""
    from desktop_app.bench.memory import GROUPS

    if not limit:
        return cases
    out = dict(cases)
    for group in GROUPS:
        kept: list[dict] = []
        seen: dict[str, int] = {}
        for case in cases.get(group, []):
            seen[case["lang"]] = seen.get(case["lang"], 0) + 1
            if seen[case["lang"]] <= limit:
                kept.append(case)
        out[group] = kept
    return out


def mem0_writer(memory: Any, stats: Mem0Stats, result: Any, *, log: Callable[[str], None]) -> Callable[[list[str], str], list]:
    """``score_cases``' writer for mem0: each case under its own user_id, one ``add`` per message."""

    def write(turns: list[str], case_id: str) -> list:
        user = f"case-{case_id}"
        for text in turns:
            started = time.perf_counter()
            try:
                added = memory.add(text, user_id=user)
                stats.empty += int(not peer_items(added))
            except Exception as exc:  # mem0 raises on a reply of the wrong shape; counted, the case goes on
                stats.add_errors += 1
                if len(stats.errors) < 5:
                    stats.errors.append(f"{case_id}: {type(exc).__name__}: {exc}"[:200])
            seconds = time.perf_counter() - started
            stats.adds += 1
            stats.add_seconds += seconds
            result.turns += 1
            result.model_calls += 1
            result.model_seconds += seconds
        items = peer_items(memory.get_all(filters={"user_id": user}, top_k=100))
        result.dump.append({"case": case_id, "items": [i.value for i in items]})
        log(f"  mem0 {case_id}: {len(items)} memories ({stats.adds} messages, {stats.add_seconds:.0f} s so far)")
        return items

    return write


def warm_up(memory: Any, stats: Mem0Stats) -> None:
    """One add under a throwaway user: the server pre-fills mem0's long extraction prompt once
    (its prefix is then reused), kept out of the per-message seconds."""
    started = time.perf_counter()
    with contextlib.suppress(Exception):
        memory.add("Hello.", user_id="warm-up")
    stats.warmup_seconds = time.perf_counter() - started
    stats.calls = stats.not_json = stats.truncated = stats.parse_errors = 0


def memory_rows(results: list, stats: Mem0Stats | None) -> list[dict]:
    """One row per system and language: the headline numbers of ``bench memory``."""
    from desktop_app.bench.memory import figures

    rows = []
    for r in results:
        for lang in ("en", "zh", "all"):
            f = figures(r, lang)
            rows.append({"system": r.system, "lang": lang, **f,
                         "seconds_per_message": r.model_seconds / r.model_calls if r.model_calls else None})
    return rows


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "—"


def memory_table(rows: list[dict]) -> str:
    lines = ["| lang | system | recall | precision | false memories on negatives | change of mind: current found | "
             "superseded left active | s / message |", "|---|---|---|---|---|---|---|---|"]
    for lang in ("en", "zh", "all"):
        for row in (r for r in rows if r["lang"] == lang):
            seconds = f"{row['seconds_per_message']:.1f}" if row["seconds_per_message"] is not None else "—"
            lines.append(f"| {lang} | {row['system']} | {_ratio(row['found'], row['expected'])} ({row['found']}/"
                         f"{row['expected']}) | {_ratio(row['correct'], row['written'])} ({row['correct']}/{row['written']}) "
                         f"| {row['false_memories']}/{row['negatives']} | {row['current_found']}/{row['current_expected']} "
                         f"| {row['stale_active']} | {seconds} |")
    return "\n".join(lines)


# -- part 2: LoCoMo ----------------------------------------------------------------------------

def cut_conversation(sample: dict, max_turns: int | None) -> dict:
    """``sample`` with only its first ``max_turns`` turns (later sessions dropped, the last one cut)
    and only the questions whose evidence lies wholly in them."""
    from desktop_app.bench.recall_data import normalise_evidence

    conv = sample["conversation"]
    kept: dict[str, Any] = {k: v for k, v in conv.items() if not k.startswith("session_")}
    left = max_turns if max_turns else 10**9
    number = 1
    while f"session_{number}" in conv and left > 0:
        turns = conv[f"session_{number}"][:left]
        kept[f"session_{number}"] = turns
        kept[f"session_{number}_date_time"] = conv[f"session_{number}_date_time"]
        left -= len(turns)
        number += 1
    present = {turn["dia_id"] for key, turns in kept.items() if key.startswith("session_") and isinstance(turns, list)
               for turn in turns}
    qa = [q for q in sample["qa"] if (evidence := normalise_evidence(q.get("evidence", [])))
          and evidence <= present]
    return {**sample, "conversation": kept, "qa": qa}


def conversation_turns(sample: dict) -> list[tuple[str, str, float]]:
    """(dia_id, text as stored, session start time) of every turn, in order."""
    from desktop_app.bench.recall_data import conversation_sessions, turn_text

    return [(turn["dia_id"], turn_text(turn), start) for start, turns in conversation_sessions(sample) for turn in turns]


def recall_at(ranks: list[int | None]) -> dict[str, float]:
    return {f"@{k}": sum(1 for r in ranks if r is not None and r <= k) / len(ranks) if ranks else 0.0 for k in CUTS}


def memories_block(results: Any, lang: str, k: int) -> str:
    """mem0's top ``k`` memories as Paperclip writes recalled turns: the same heading and the day."""
    from desktop_app.memory.prompt.render import spoken_day, text_for

    t = text_for(lang)
    lines = [t["recalled"]]
    rows = results.get("results", []) if isinstance(results, dict) else list(results or [])
    for row in rows[:k]:
        when = (row.get("metadata") or {}).get("time")
        on = t["said_on"].format(date=spoken_day(when, lang)) if when else ""
        lines.append(f"- {on}{row.get('memory', '')}")
    return "\n".join(lines)


def run_locomo(args, settings, engine, mem0: Any, memory: Any, stats: Mem0Stats, *, log) -> dict:
    from desktop_app.bench.qa import ANSWER_HINT, answer_all, build, sample_questions, score
    from desktop_app.bench.recall import first_hit_rank
    from desktop_app.bench.recall_data import DataMissing, load_locomo, normalise_evidence
    from desktop_app.chat import pipeline_for
    from desktop_app.engine.embedder import load_embedder
    from desktop_app.memory.recall.search import search
    from desktop_app.memory.store import Store

    try:
        samples = load_locomo()
    except DataMissing as exc:
        log(f"LoCoMo skipped: {exc}")
        return {"skipped": str(exc)}
    samples = [cut_conversation(s, args.max_turns) for s in samples[: args.conversations]]
    asked = sample_questions(samples, args.questions)
    evidence = {(s["sample_id"], q["question"]): normalise_evidence(q["evidence"]) for s in samples for q in s["qa"]}
    turns = sum(len(conversation_turns(s)) for s in samples)
    out: dict[str, Any] = {"conversations": [s["sample_id"] for s in samples], "turns": turns, "questions": len(asked)}
    log(f"LoCoMo: {len(samples)} conversation(s), {turns} turns, {len(asked)} questions with evidence in them")
    if not asked:
        return out
    settings = settings.model_copy(update={"memory_model": "off", "temperature": 0.0, "seed": 7})
    with tempfile.TemporaryDirectory(prefix="paperclip-peers-") as tmp:
        settings = settings.model_copy(update={"db": Path(tmp) / "locomo.db"})
        with Store(settings.db) as store:
            sessions = build(store, settings, samples, {s["sample_id"] for s in samples}, log=log)
            embedder = load_embedder(settings)
            out["paperclip_embedder"] = embedder.model_name
            ranks: dict[str, list[int | None]] = {"paperclip": [], "mem0": []}
            for conv, question, _, _ in asked:
                hits = search(store, cast(Any, sessions[conv]).id, question, k=max(CUTS), embedder=embedder)
                ranks["paperclip"].append(first_hit_rank([h.ext_id for h in hits], evidence[(conv, question)]))
            modes = ["layered", "retrieval"]
            answered = answer_all(store, settings, engine, sessions, asked, modes, max_tokens=args.max_tokens, log=log)
            pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
            system_prompt = {conv: pipeline.system_prompt(store.get_session(cast(Any, session).id))
                             for conv, session in sessions.items()}
    f1: dict[str, list[float]] = {f"paperclip {m}": [a.f1 for a in answered if a.mode == m] for m in modes}
    # mem0: every turn added in order, then the same questions.
    for sample in samples:
        user = f"locomo-{sample['sample_id']}"
        for index, (dia_id, text, start) in enumerate(conversation_turns(sample), start=1):
            began = time.perf_counter()
            try:
                added = memory.add([{"role": "user", "content": text}], user_id=user,
                                   metadata={"dia_id": dia_id, "time": start})
                stats.empty += int(not peer_items(added))
            except Exception as exc:
                stats.add_errors += 1
                if len(stats.errors) < 5:
                    stats.errors.append(f"{dia_id}: {type(exc).__name__}: {exc}"[:200])
            stats.adds += 1
            stats.add_seconds += time.perf_counter() - began
            if index % 10 == 0:
                log(f"  mem0 {sample['sample_id']}: {index} turns added ({stats.add_seconds:.0f} s)")
    f1["mem0"] = []
    mem0_seconds = []
    for conv, question, gold, category in asked:
        found = memory.search(question, filters={"user_id": f"locomo-{conv}"}, top_k=max(CUTS))
        ranks["mem0"].append(first_hit_rank(turns_of(found), evidence[(conv, question)]))
        context = memories_block(found, settings.lang, args.answer_k)
        messages = [{"role": "system", "content": f"{system_prompt[conv]}\n\n{context}"},
                    {"role": "user", "content": question + ANSWER_HINT}]
        began = time.perf_counter()
        reply = "".join(engine.stream_chat(messages, max_tokens=args.max_tokens, temperature=0.0)).strip()
        mem0_seconds.append(time.perf_counter() - began)
        f1["mem0"].append(score(reply, gold, category))
    out["recall"] = {name: recall_at(values) for name, values in ranks.items()}
    out["f1"] = {name: (100 * sum(values) / len(values) if values else None) for name, values in f1.items()}
    out["answered"] = {name: len(values) for name, values in f1.items()}
    return out


def locomo_table(result: dict) -> str:
    if "recall" not in result:
        return ""
    lines = ["| system | evidence R@1 | R@5 | R@10 | answer F1 |", "|---|---|---|---|---|"]
    for name, cuts in result["recall"].items():
        f1s = {k: v for k, v in result["f1"].items() if k.startswith(name)}
        for label, f1 in f1s.items():
            recall = " | ".join(f"{cuts[f'@{k}']:.2f}" for k in CUTS)
            lines.append(f"| {label} | {recall} | {f1:.1f} ({result['answered'][label]}) |" if f1 is not None
                         else f"| {label} | {recall} | — |")
    return "\n".join(lines)


# -- the command -------------------------------------------------------------------------------

def run(args, settings) -> int:
    from desktop_app.bench import labelled_set
    from desktop_app.bench.memory import DATA, NAMED_SETS, Result, evaluate, load_cases, score_cases
    from desktop_app.commands.common import CommandError, load_engine, print_json
    from desktop_app.engine.embedder import embed_model_path
    from desktop_app.engine.guard import LockedEngine
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.background.memory_pass import MemoryModel

    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if not parts or set(parts) - set(PARTS):
        raise CommandError(f"--parts takes {', '.join(PARTS)}", 2)
    embed_model = embed_model_path(settings)
    if not embed_model.exists() or embed_model.suffix != ".gguf":
        raise CommandError(f"bench peers serves an embedding GGUF to mem0; not found: {embed_model}", 2)
    chat_model = Path(str(settings.model_path))

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    report: dict[str, Any] = {"model": chat_model.name, "embedder": embed_model.name}
    with tempfile.TemporaryDirectory(prefix="paperclip-peers-") as tmp, offline_env(Path(tmp)), SocketGuard() as guard:
        mem0 = import_mem0()
        if mem0 is None:
            return 2
        from mem0 import Memory

        stats = Mem0Stats()
        handler = Mem0Log(stats)
        mem0_log = logging.getLogger(MEM0_LOGGER)
        mem0_log.addHandler(handler)  # also keeps mem0's warnings off the terminal (no last-resort handler)
        engine = LockedEngine(load_engine(settings, quiet=True))
        try:
            with llama_servers(chat_model, embed_model, threads=engine.n_threads, log=log) as served:
                config = mem0_config(served, Path(tmp), chat_model=chat_model, embed_model=embed_model,
                                     max_tokens=args.mem0_max_tokens, callback=reply_callback(stats))
                memory = Memory.from_config(config)
                log("mem0: warming up (pre-fill of its extraction prompt) …")
                warm_up(memory, stats)
                log(f"mem0: warm in {stats.warmup_seconds:.0f} s")
                stats.adds = 0
                stats.add_seconds = 0.0
                if "memory" in parts:
                    path = labelled_set(str(NAMED_SETS.get(args.cases, args.cases)) if args.cases else None, DATA)
                    if path is None:
                        return 1
                    cases = per_language(load_cases(path), args.limit)
                    counter = fallback_counter()
                    log(f"Paperclip rules + model on {path.name} …")
                    results = [evaluate(cases, counter=counter, system="paperclip rules", groups=("single", "negatives",
                                                                                                     "sequences")),
                               evaluate(cases, engine=engine, gate=MemoryModel("always", lang=settings.lang),
                                        counter=counter, system="paperclip rules+model")]
                    log("mem0 …")
                    peer = Result(system=f"mem0 {mem0.__version__}")
                    results.append(score_cases(cases, mem0_writer(memory, stats, peer, log=log), result=peer))
                    report["memory"] = {"cases": path.name, "per_language_limit": args.limit,
                                        "rows": memory_rows(results, stats),
                                        "mem0_memories": [row for row in peer.dump]}
                    report["memory_mem0"] = stats.model_dump()
                if "locomo" in parts:
                    before = stats.model_copy()
                    report["locomo"] = run_locomo(args, settings, engine, mem0, memory, stats, log=log)
                    report["locomo"]["mem0_add_seconds"] = stats.add_seconds - before.add_seconds
                    report["locomo"]["mem0_adds"] = stats.adds - before.adds
                report["mem0_config"] = describe(mem0, config, served, stats, chat_model, embed_model)
        finally:
            mem0_log.removeHandler(handler)
        report["mem0_stats"] = stats.model_dump()
        report["blocked_connections"] = guard.blocked
    if args.json:
        print_json(report)
        return 0
    print(render(report))
    return 0


def render(report: dict) -> str:
    config = report.get("mem0_config", {})
    stats = report.get("mem0_stats", {})
    lines = [f"bench peers · chat {report['model']} · embedder {report['embedder']}",
             f"mem0 {config.get('mem0', '?')}: LLM {config.get('llm', '?')}; {config.get('llm_settings', '')}",
             f"  embedder {config.get('embedder', '?')}; {config.get('vector_store', '?')}; telemetry "
             f"{config.get('telemetry', '?')}; non-loopback connections blocked: {len(report.get('blocked_connections', []))}"]
    for warning in config.get("mem0_warnings", []):
        lines.append(f"  mem0 said: {warning}")
    if "memory" in report:
        part = report["memory"]
        limit = part["per_language_limit"]
        lines += ["", f"Labelled memory cases ({part['cases']}, "
                      f"{'first ' + str(limit) + ' per group and language' if limit else 'all'}); mem0 matched on "
                      "words alone (it has no kinds)", memory_table(part["rows"])]
    lines.append(f"\nmem0: {stats.get('adds', 0)} messages added, {stats.get('calls', 0)} extraction replies; "
                 f"JSON failures {stats.get('parse_errors', 0) + stats.get('add_errors', 0)} "
                 f"(parse errors logged and dropped {stats.get('parse_errors', 0)}, add() raised "
                 f"{stats.get('add_errors', 0)}), replies not JSON at first parse {stats.get('not_json', 0)}, cut at "
                 f"max_tokens {stats.get('truncated', 0)}, adds that stored nothing {stats.get('empty', 0)}; "
                 f"warm-up {stats.get('warmup_seconds', 0):.0f} s")
    for error in stats.get("errors", []):
        lines.append(f"  {error}")
    locomo = report.get("locomo")
    if locomo:
        if "skipped" in locomo:
            lines.append(f"\nLoCoMo skipped: {locomo['skipped']}")
        else:
            lines += ["", f"LoCoMo {', '.join(locomo['conversations'])}: first {locomo['turns']} turns, "
                          f"{locomo['questions']} questions (categories 1, 2, 4) with all evidence in them; "
                          f"mem0 added {locomo.get('mem0_adds', 0)} turns in {locomo.get('mem0_add_seconds', 0):.0f} s; "
                          f"Paperclip's embedder {locomo.get('paperclip_embedder', '?')}",
                      locomo_table(locomo)]
    return "\n".join(lines)


def register(subparsers):
    parser = subparsers.add_parser("peers", help="Paperclip vs mem0 (offline, same model): memory cases and LoCoMo")
    parser.add_argument("--parts", default=",".join(PARTS), help="which parts to run (memory, locomo)")
    parser.add_argument("--cases", default=None, help="labelled set as in bench memory ('holdout', 'holdout2' or a path)")
    parser.add_argument("--limit", type=int, default=3, help="first N cases of each group per language (0: all)")
    parser.add_argument("--conversations", type=int, default=1, help="LoCoMo conversations to add (from the first)")
    parser.add_argument("--max-turns", dest="max_turns", type=int, default=40,
                        help="first N turns of each conversation (mem0 makes one LLM call per turn)")
    parser.add_argument("--questions", type=int, default=10, help="N evenly spaced LoCoMo questions (0: all)")
    parser.add_argument("--answer-k", dest="answer_k", type=int, default=5, help="mem0 memories put in the answer prompt")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int, default=32, help="answer length (as bench qa)")
    parser.add_argument("--mem0-max-tokens", dest="mem0_max_tokens", type=int, default=512,
                        help="mem0's extraction reply limit (its default, 2000, lets a looping reply run for minutes)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
