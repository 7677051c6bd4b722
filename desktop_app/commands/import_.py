"""``paperclip import FILE``: append turns to sessions without generating.

JSON Lines (one ``{"role", "content", "id"?, "time"?}`` per line, time as unix seconds or
ISO-8601), a ChatGPT data export (``conversations.json``: one session per conversation) or a
Paperclip JSON export. The whole file is validated before anything is stored, so a bad line
loses nothing and stores nothing. Memory extraction and paging run as if typed.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path


def register(subparsers):
    parser = subparsers.add_parser("import", help="import a JSONL transcript, ChatGPT export or Paperclip export")
    parser.add_argument("file", type=Path, help="JSON Lines file (or - for stdin), conversations.json, or export")
    parser.add_argument("--format", choices=("auto", "jsonl", "chatgpt", "paperclip"), default="auto")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.set_defaults(func=run)
    return parser


def _parse_time(value, where: str) -> float | None:
    from desktop_app.commands.common import CommandError
    from desktop_app.exchange.importers import ImportFormatError, normalise_time

    try:
        return normalise_time(value)
    except ImportFormatError as exc:
        raise CommandError(f"{where}: {exc}", 2) from None


def parse_transcript(raw: bytes, name: str) -> list[dict]:
    """Validate every line; raise ``CommandError`` naming the first bad line."""
    from desktop_app.chat import MAX_INPUT_CHARS
    from desktop_app.commands.common import CommandError

    if b"\x00" in raw:
        raise CommandError(f"{name} looks like a binary file, not JSON Lines; nothing was imported", 2)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(f"{name} is not valid UTF-8 (byte {exc.start}); nothing was imported", 2) from None
    turns = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{where}: not valid JSON ({exc.msg}); nothing was imported", 2) from None
        if not isinstance(item, dict):
            raise CommandError(f"{where}: each line must be a JSON object; nothing was imported", 2)
        role, content = item.get("role"), item.get("content")
        if role not in ("user", "assistant", "system"):
            raise CommandError(f"{where}: 'role' must be user, assistant or system; nothing was imported", 2)
        if not isinstance(content, str) or not content.strip():
            raise CommandError(f"{where}: 'content' must be a non-empty string; nothing was imported", 2)
        if len(content) > MAX_INPUT_CHARS:
            raise CommandError(f"{where}: message longer than {MAX_INPUT_CHARS:,} characters; nothing was imported", 2)
        ext_id = item.get("id")
        turns.append({"role": role, "content": content, "id": None if ext_id is None else str(ext_id),
                      "time": _parse_time(item.get("time"), where)})
    if not turns:
        raise CommandError(f"{name} holds no turns", 2)
    return turns


def _read_conversations(args, name: str, raw: bytes):
    from desktop_app.commands.common import CommandError
    from desktop_app.exchange import importers

    fmt = args.format
    if fmt == "auto" and (name == "stdin" or args.file.suffix.lower() in (".jsonl", ".ndjson")):
        fmt = "jsonl"
    if fmt == "jsonl":
        return [importers.ImportedConversation(title="imported", turns=parse_transcript(raw, name))]
    try:
        data = importers.read_json_file(args.file)
    except importers.ImportFormatError as exc:
        if fmt == "auto" and b"\x00" not in raw and "not valid JSON" in str(exc):
            # Not one JSON document: read it as JSON Lines, which names the bad line.
            return [importers.ImportedConversation(title="imported", turns=parse_transcript(raw, name))]
        raise CommandError(f"{exc}; nothing was imported", 2) from None
    try:
        fmt = importers.detect_format(args.file, data) if fmt == "auto" else fmt
        if fmt == "jsonl":
            return [importers.ImportedConversation(title="imported", turns=parse_transcript(raw, name))]
        conversations = importers.parse_chatgpt(data) if fmt == "chatgpt" else importers.parse_paperclip(data)
        for conv in conversations:
            for turn in conv.turns:
                turn["time"] = importers.normalise_time(turn.get("time"))
    except (importers.ImportFormatError, AttributeError, TypeError) as exc:
        raise CommandError(f"{name}: {exc}; nothing was imported", 2) from None
    if not any(c.turns for c in conversations):
        raise CommandError(f"{name} holds no turns", 2)
    return conversations


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, print_json
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.exchange.importers import import_conversations

    name = "stdin" if str(args.file) == "-" else str(args.file)
    try:
        raw = sys.stdin.buffer.read() if name == "stdin" else args.file.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {name}: {exc.strerror}", 2) from None
    conversations = _read_conversations(args, name, raw)
    session_name = getattr(args, "session", None)
    with open_store(settings) as store:
        if session_name is None and len(conversations) == 1 and args.format in ("auto", "jsonl") \
                and conversations[0].title == "imported":
            from desktop_app.commands.common import resolve_session

            session_name = resolve_session(store, args).name
        # Imports count with the offline tokenizer: loading a model just to count is not worth it.
        imported = import_conversations(store, conversations, counter=fallback_counter(), settings=settings,
                                        session_name=session_name)
        from desktop_app.commands.recall import index_new_turns

        # Vectors for the new turns (skipped quietly without sqlite-vec or the embedding model).
        index_new_turns(store, settings, log=lambda line: print(line, file=sys.stderr))
    if args.json:
        print_json({"sessions": [{"session": n, "imported": c} for n, c in imported],
                    "imported": sum(c for _, c in imported)})
    else:
        for session, count in imported:
            print(f"imported {count} turns into session {session!r}")
    return 0
