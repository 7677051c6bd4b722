"""``paperclip import FILE``: append a JSON Lines transcript to a session, no generation.

Each line: ``{"role": "user"|"assistant"|"system", "content": "...", "id"?: str, "time"?: ...}``
where time is unix seconds or ISO-8601. The whole file is validated before anything is
stored, so a bad line loses nothing and stores nothing.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path


def register(subparsers):
    parser = subparsers.add_parser("import", help="append a JSONL transcript to a session without generating")
    parser.add_argument("file", type=Path, help="JSON Lines file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.set_defaults(func=run)
    return parser


def _parse_time(value, where: str) -> float | None:
    from desktop_app.commands.common import CommandError

    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            pass
    raise CommandError(f"{where}: 'time' must be unix seconds or ISO-8601, got {value!r}", 2)


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


def run(args, settings) -> int:
    from desktop_app.chat import import_turns
    from desktop_app.commands.common import CommandError, open_store, print_json, resolve_session
    from desktop_app.engine.tokens import fallback_counter

    name = "stdin" if str(args.file) == "-" else str(args.file)
    try:
        raw = sys.stdin.buffer.read() if name == "stdin" else args.file.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {name}: {exc.strerror}", 2) from None
    turns = parse_transcript(raw, name)
    with open_store(settings) as store:
        session = resolve_session(store, args)
        # Imports count with the offline tokenizer: loading a model just to count is not worth it.
        count = import_turns(store, session, turns, fallback_counter(), settings=settings,
                             n_ctx=settings.ctx or 8192)
    if args.json:
        print_json({"session": session.name, "imported": count})
    else:
        print(f"imported {count} turns into session {session.name!r}")
    return 0
