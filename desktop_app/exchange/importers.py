"""Read foreign and own transcripts into plain turns ``{"role", "content", "id", "time"}``.

Formats: ChatGPT's data export (``conversations.json``: a list of conversations, each a tree
of message nodes under ``mapping``), Paperclip's own JSON export, and JSON Lines. Parsing is
separate from storing: a file is fully parsed and validated before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from desktop_app.exchange.export import EXPORT_FORMAT
from desktop_app.memory.core.models import MemoryItem, Message


class ImportFormatError(ValueError):
    """The file is not in a format we can import; one line for the user."""


@dataclass
class ImportedConversation:
    title: str
    turns: list[dict] = field(default_factory=list)
    mode: str | None = None
    system_prompt: str | None = None
    memory: list[MemoryItem] | None = None  # a Paperclip export's memory state, restored as it was


def read_json_file(path: Path) -> object:
    return load_json(path.read_bytes(), path.name)


def load_json(raw: bytes, name: str) -> object:
    """One JSON document from bytes; binary, bad UTF-8 and bad JSON are one-line errors."""
    if b"\x00" in raw[:4096]:
        raise ImportFormatError(f"{name} looks like a binary file, not JSON")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"{name} is not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"{name} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise ImportFormatError(f"{name} is nested too deeply to be a transcript") from None


def detect_format(path: Path | None, data: object | None = None) -> str:
    """``jsonl``, ``chatgpt`` or ``paperclip`` (``path`` None: only ``data`` decides)."""
    if path is not None and path.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl"
    if data is None:
        if path is None:
            raise ImportFormatError("nothing to read: neither a file nor its data")
        data = read_json_file(path)
    if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT:
        return "paperclip"
    if isinstance(data, list) and (not data or (isinstance(data[0], dict) and "mapping" in data[0])):
        return "chatgpt"
    raise ImportFormatError("not a ChatGPT export, a Paperclip export or JSON Lines")


def _chatgpt_text(message: dict) -> str:
    content = message.get("content") or {}
    parts = content.get("parts") or []
    if content.get("content_type") not in (None, "text", "multimodal_text"):
        return ""
    return "\n".join(p for p in parts if isinstance(p, str)).strip()


def parse_chatgpt(data: list) -> list[ImportedConversation]:
    """Each conversation's branch that was current when exported, oldest turn first."""
    conversations = []
    for number, conv in enumerate(data, start=1):
        if not isinstance(conv, dict) or not isinstance(conv.get("mapping"), dict):
            raise ImportFormatError(f"conversation {number} has no message mapping")
        mapping = conv["mapping"]
        node_id = conv.get("current_node") or _last_leaf(mapping)
        chain = []
        seen = set()
        while node_id and node_id in mapping and node_id not in seen:
            seen.add(node_id)
            chain.append(mapping[node_id])
            node_id = mapping[node_id].get("parent")
        turns = []
        for node in reversed(chain):
            message = node.get("message") or {}
            role = (message.get("author") or {}).get("role")
            if role not in ("user", "assistant"):
                continue
            text = _chatgpt_text(message)
            if text:
                turns.append({"role": role, "content": text, "id": message.get("id") or node.get("id"),
                              "time": message.get("create_time")})
        title = (conv.get("title") or f"chatgpt {number}").strip() or f"chatgpt {number}"
        conversations.append(ImportedConversation(title=title, turns=turns))
    return conversations


def _last_leaf(mapping: dict) -> str | None:
    leaves = [k for k, v in mapping.items() if not v.get("children")]
    return leaves[-1] if leaves else None


def parse_paperclip(data: dict) -> list[ImportedConversation]:
    session = data.get("session") or {}
    turns = []
    for m in data.get("messages") or []:
        if m.get("role") in ("user", "assistant", "system") and isinstance(m.get("content"), str):
            turns.append({"role": m["role"], "content": m["content"], "id": m.get("ext_id") or str(m.get("id")),
                          "time": m.get("time"), "old_id": m.get("id"), "stopped": bool(m.get("stopped"))})
    memory = None
    if isinstance(data.get("memory"), list):
        memory = []
        for number, raw in enumerate(data["memory"], start=1):
            try:
                memory.append(MemoryItem.model_validate({**raw, "session_id": 0}))
            except (ValidationError, TypeError) as exc:
                first = exc.errors()[0] if isinstance(exc, ValidationError) else {"loc": (), "msg": str(exc)}
                where = ".".join(str(p) for p in first["loc"])
                raise ImportFormatError(f"memory item {number}: {where} {first['msg']}".strip()) from None
    return [ImportedConversation(title=session.get("name") or "imported", turns=turns, mode=session.get("mode"),
                                 system_prompt=session.get("system_prompt"), memory=memory)]


# Times a transcript may carry: 1970 to 2100. NaN, infinities and 1e300 are refused before
# anything is stored (stored, they broke export, sessions --json and context later).
EARLIEST_TIME, LATEST_TIME = 0.0, 4_102_444_800.0
MAX_ID_CHARS = 200


def normalise_time(value) -> float | None:
    """Unix seconds or ISO-8601 text -> unix seconds (None stays None); finite and in 1970–2100."""
    from datetime import datetime

    if value is None:
        return None
    seconds = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str):
        try:
            seconds = datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except (ValueError, OverflowError, OSError):
            pass
    if seconds is None:
        raise ImportFormatError(f"'time' must be unix seconds or ISO-8601, got {value!r}")
    if not math.isfinite(seconds):
        raise ImportFormatError(f"'time' must be a finite number, got {value!r}")
    if not EARLIEST_TIME <= seconds <= LATEST_TIME:
        hint = " (milliseconds? give unix seconds)" if LATEST_TIME < seconds <= LATEST_TIME * 1000 else ""
        raise ImportFormatError(f"'time' {value!r} is outside 1970–2100{hint}")
    return seconds


def validate_turns(conversations: list[ImportedConversation], name: str) -> None:
    """Every turn of every conversation, before anything is stored: roles, sizes, ids, times."""
    from desktop_app.memory.turn import MAX_INPUT_CHARS

    for number, conv in enumerate(conversations, start=1):
        where_conv = f"{name}: conversation {number}" if len(conversations) > 1 else name
        for index, turn in enumerate(conv.turns, start=1):
            where = f"{where_conv}, turn {index}"
            if turn.get("role") not in ("user", "assistant", "system"):
                raise ImportFormatError(f"{where}: 'role' must be user, assistant or system")
            content = turn.get("content")
            if not isinstance(content, str):
                raise ImportFormatError(f"{where}: 'content' must be a string")
            if "\x00" in content:
                raise ImportFormatError(f"{where}: 'content' holds NUL bytes (binary data?)")
            if len(content) > MAX_INPUT_CHARS:
                raise ImportFormatError(f"{where}: message longer than {MAX_INPUT_CHARS:,} characters")
            if turn.get("id") is not None and len(str(turn["id"])) > MAX_ID_CHARS:
                raise ImportFormatError(f"{where}: 'id' longer than {MAX_ID_CHARS} characters")
            try:
                turn["time"] = normalise_time(turn.get("time"))
            except ImportFormatError as exc:
                raise ImportFormatError(f"{where}: {exc}") from None


def import_keys(turns: list[dict]) -> list[str]:
    """One key per turn that is the same each time the same file is read: ``id:`` and the turn's
    own id, else ``sha256:`` of its role, content and time; the n-th repeat in the file gets ``#n``."""
    seen: dict[str, int] = {}
    keys = []
    for turn in turns:
        if turn.get("id") is not None:
            base = f"id:{turn['id']}"
        else:
            digest = hashlib.sha256(f"{turn['role']}\0{turn.get('time')!r}\0{turn['content']}".encode(
                "utf-8", "surrogatepass")).hexdigest()
            base = f"sha256:{digest}"
        seen[base] = seen.get(base, 0) + 1
        keys.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return keys


def unique_session_name(store, wanted: str) -> str:
    name, n = wanted[:80], 2
    while store.find_session(name) is not None:
        name, n = f"{wanted[:74]} ({n})", n + 1
    return name


def import_conversations(store, conversations: list[ImportedConversation], *, counter, settings,
                         session_name: str | None = None, progress=None) -> list[tuple[str, int]]:
    """Store each conversation (from :func:`read_conversations`, validated, times normalised) as a
    session; memory extraction runs as if typed.

    All or nothing: the whole import is one transaction (``BEGIN IMMEDIATE``, so a second
    importer waits for the lock instead of interleaving). Idempotent: each turn is stored with
    its import key (:func:`import_keys`), and a turn whose key the session already holds is
    skipped, so running the same file again adds only what is missing. A conversation imported
    before (its first turn's key in a session of that title) goes back into that session.

    ``progress(done, total)`` counts turns over all conversations (the TUI's progress bar).
    Returns ``[(session name, turns imported)]`` (turns already there are not counted).
    """
    from desktop_app.chat import pipeline_for
    from desktop_app.engine.hardware import choose, choose_ctx

    # The window the chat would use, so imported turns page out exactly as typed ones would.
    n_ctx, _ = choose_ctx(settings.ctx, settings.model_path, choose(settings.threads, settings.gpu_layers).gpu_layers)
    pipeline = pipeline_for(store, settings, counter=counter, n_ctx=n_ctx)
    total = sum(len(c.turns) for c in conversations) or 1
    done = 0
    imported = []
    with store.transaction():
        for conv in conversations:
            if not conv.turns:
                if conv.memory:  # an export of a session made only with memory commands
                    session = _memory_only_target(store, conv, session_name, single=len(conversations) == 1)
                    imported.append((session.name, 0))
                continue
            keys = import_keys(conv.turns)
            session = _target_session(store, conv, keys[0], session_name, single=len(conversations) == 1)
            if conv.mode or conv.system_prompt:
                session = store.update_session_settings(session.id, mode=conv.mode, system_prompt=conv.system_prompt)
            present = store.imported_keys(session.id)
            message_ids: dict[int, int] = {}
            added = 0
            for turn, key in zip(conv.turns, keys, strict=True):
                done += 1
                if key not in present:
                    # A Paperclip export brings its memory state: restore it instead of re-extracting.
                    result = pipeline.import_message(session, turn["role"], turn["content"],
                                                     created_at=turn.get("time"), ext_id=turn.get("id"),
                                                     remember=conv.memory is None, stopped=bool(turn.get("stopped")))
                    message = result if isinstance(result, Message) else result.message
                    if message is not None:  # (always: a transcript's reply has text to store)
                        store.mark_imported(session.id, key, message.id)
                        if isinstance(turn.get("old_id"), int):
                            message_ids[turn["old_id"]] = message.id
                    added += 1
                if progress:
                    progress(done, total)
            if conv.memory and not present:  # restored once, with the turns themselves
                store.restore_items(session.id, conv.memory, message_ids)
            imported.append((session.name, added))
    return imported


def _memory_only_target(store, conv: ImportedConversation, session_name: str | None, *, single: bool):
    """Restore a memory-only export (no turns to key it by): into ``--session`` or a session of
    that title that does not hold these items yet, else a new one; items already there (same kind,
    subject, value and status) are not added twice, so importing the file again adds nothing."""
    memory = conv.memory or []

    def held(session) -> set[tuple]:
        return {(i.kind, i.subject, i.value, i.status) for i in store.list_items(session.id, include_profile=False)}

    wanted = {(i.kind, i.subject, i.value, i.status) for i in memory}
    if session_name and single:
        session = store.session_named(session_name)
    else:
        title = conv.title.strip()[:80] or "imported"
        same = store.find_session(title)
        session = same if same is not None and wanted <= held(same) else None
        if session is None:
            session = store.create_session(unique_session_name(store, title))
    if conv.mode or conv.system_prompt:
        session = store.update_session_settings(session.id, mode=conv.mode, system_prompt=conv.system_prompt)
    present = held(session)
    missing = [i for i in memory if (i.kind, i.subject, i.value, i.status) not in present]
    if missing:
        store.restore_items(session.id, missing, {})
    return session


def _target_session(store, conv: ImportedConversation, first_key: str, session_name: str | None, *, single: bool):
    """``--session`` for a single conversation; else the session this conversation went into
    before (same title, holds its first turn); else a new session with a free name."""
    if session_name and single:
        return store.session_named(session_name)
    title = conv.title.strip()[:80] or "imported"
    for session in store.sessions_with_import_key(first_key):
        if session.name == title or session.name.startswith(f"{title[:74]} ("):
            return session
    return store.create_session(unique_session_name(store, title))


# A JSON Lines turn's time: "time", or the names other tools write it under.
TIME_KEYS = ("time", "created_at", "timestamp")


def parse_jsonl(raw: bytes, name: str) -> list[dict]:
    """Validate every JSON Lines turn; raise ``ImportFormatError`` naming the first bad line."""
    from desktop_app.memory.turn import MAX_INPUT_CHARS

    if b"\x00" in raw:
        raise ImportFormatError(f"{name} looks like a binary file, not JSON Lines")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"{name} is not valid UTF-8 (byte {exc.start})") from None
    turns = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ImportFormatError(f"{where}: not valid JSON ({exc.msg})") from None
        except RecursionError:
            raise ImportFormatError(f"{where}: nested too deeply to be a turn") from None
        if not isinstance(item, dict):
            raise ImportFormatError(f"{where}: each line must be a JSON object")
        role, content = item.get("role"), item.get("content")
        if role not in ("user", "assistant", "system"):
            raise ImportFormatError(f"{where}: 'role' must be user, assistant or system")
        if not isinstance(content, str) or not content.strip():
            raise ImportFormatError(f"{where}: 'content' must be a non-empty string")
        if len(content) > MAX_INPUT_CHARS:
            raise ImportFormatError(f"{where}: message longer than {MAX_INPUT_CHARS:,} characters")
        key = next((k for k in TIME_KEYS if item.get(k) is not None), "time")
        try:
            when = normalise_time(item.get(key))
        except ImportFormatError as exc:
            raise ImportFormatError(f"{where}: {str(exc).replace(repr('time'), repr(key), 1)}") from None
        ext_id = item.get("id")
        turns.append({"role": role, "content": content, "id": None if ext_id is None else str(ext_id),
                      "time": when})
    return turns


def read_conversations(raw: bytes, name: str, *, path: Path | None = None, fmt: str = "auto",
                       title: str = "imported") -> list[ImportedConversation]:
    """Parse and validate a whole file (or stdin when ``path`` is None) before anything is stored.

    ``fmt`` is ``auto``, ``jsonl``, ``chatgpt`` or ``paperclip``; JSON Lines conversations get
    ``title``. Times are normalised to unix seconds here, so a bad one fails the whole import.
    """
    if fmt == "auto" and (path is None or path.suffix.lower() in (".jsonl", ".ndjson")):
        fmt = "jsonl"
    if fmt != "jsonl":
        try:
            data = load_json(raw, name)
        except ImportFormatError as exc:
            if fmt != "auto" or b"\x00" in raw or "not valid JSON" not in str(exc):
                raise
            fmt = "jsonl"  # not one JSON document: read it as JSON Lines, which names the bad line
    if fmt == "jsonl":
        conversations = [ImportedConversation(title=title, turns=parse_jsonl(raw, name))]
    else:
        try:
            fmt = detect_format(path, data) if fmt == "auto" else fmt
            if fmt == "jsonl":
                conversations = [ImportedConversation(title=title, turns=parse_jsonl(raw, name))]
            else:
                if fmt == "chatgpt":
                    if not isinstance(data, list):
                        raise ImportFormatError("not a ChatGPT export (a list of conversations)")
                    conversations = parse_chatgpt(data)
                else:
                    if not isinstance(data, dict):
                        raise ImportFormatError("not a Paperclip export (one JSON object)")
                    conversations = parse_paperclip(data)
                for conv in conversations:
                    for turn in conv.turns:
                        turn["time"] = normalise_time(turn.get("time"))
        except (ImportFormatError, AttributeError, TypeError) as exc:
            raise ImportFormatError(f"{name}: {exc}") from None
    if not any(c.turns or c.memory for c in conversations):
        raise ImportFormatError(f"{name} holds no turns and no memory")
    validate_turns(conversations, name)
    return conversations
