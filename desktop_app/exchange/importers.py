"""Read foreign and own transcripts into plain turns ``{"role", "content", "id", "time"}``.

Formats: ChatGPT's data export (``conversations.json``: a list of conversations, each a tree
of message nodes under ``mapping``), Paperclip's own JSON export, and JSON Lines. Parsing is
separate from storing: a file is fully parsed and validated before anything is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from desktop_app.exchange.export import EXPORT_FORMAT


class ImportFormatError(ValueError):
    """The file is not in a format we can import; one line for the user."""


@dataclass
class ImportedConversation:
    title: str
    turns: list[dict] = field(default_factory=list)
    mode: str | None = None
    system_prompt: str | None = None


def read_json_file(path: Path) -> object:
    raw = path.read_bytes()
    if b"\x00" in raw[:4096]:
        raise ImportFormatError(f"{path.name} looks like a binary file, not JSON")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"{path.name} is not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"{path.name} is not valid JSON (line {exc.lineno}: {exc.msg})") from None


def detect_format(path: Path, data: object | None = None) -> str:
    """``jsonl``, ``chatgpt`` or ``paperclip``."""
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl"
    data = read_json_file(path) if data is None else data
    if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT:
        return "paperclip"
    if isinstance(data, list) and (not data or (isinstance(data[0], dict) and "mapping" in data[0])):
        return "chatgpt"
    raise ImportFormatError(f"{path.name}: not a ChatGPT export, a Paperclip export or JSON Lines")


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
                          "time": m.get("time")})
    return [ImportedConversation(title=session.get("name") or "imported", turns=turns, mode=session.get("mode"),
                                 system_prompt=session.get("system_prompt"))]


def normalise_time(value) -> float | None:
    """Unix seconds or ISO-8601 text -> unix seconds (None stays None)."""
    from datetime import datetime

    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            pass
    raise ImportFormatError(f"'time' must be unix seconds or ISO-8601, got {value!r}")


def unique_session_name(store, wanted: str) -> str:
    name, n = wanted[:80], 2
    while store.find_session(name) is not None:
        name, n = f"{wanted[:74]} ({n})", n + 1
    return name


def import_conversations(store, conversations: list[ImportedConversation], *, counter, settings,
                         session_name: str | None = None, progress=None) -> list[tuple[str, int]]:
    """Store each conversation as a session; memory extraction runs as if typed.

    ``progress(done, total)`` counts turns over all conversations (the TUI's progress bar).
    Returns ``[(session name, turns imported)]``.
    """
    from desktop_app.chat import import_turns

    total = sum(len(c.turns) for c in conversations) or 1
    done = 0
    imported = []
    for conv in conversations:
        if not conv.turns:
            continue
        for turn in conv.turns:
            turn["time"] = normalise_time(turn.get("time"))
        if session_name and len(conversations) == 1:
            session = store.session_named(session_name)
        else:
            session = store.create_session(unique_session_name(store, conv.title))
        if conv.mode or conv.system_prompt:
            session = store.update_session_settings(session.id, mode=conv.mode, system_prompt=conv.system_prompt)
        base = done

        def step(index: int, _count: int, base=base) -> None:
            if progress:
                progress(base + index, total)

        count = import_turns(store, session, conv.turns, counter, settings=settings,
                             n_ctx=settings.ctx or 8192, progress=step)
        done += count
        imported.append((session.name, count))
    return imported
