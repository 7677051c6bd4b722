"""``paperclip import FILE``: append turns to sessions without generating.

JSON Lines (one ``{"role", "content", "id"?, "time"?}`` per line, time as unix seconds or
ISO-8601), a ChatGPT data export (``conversations.json``: one session per conversation) or a
Paperclip JSON export. The whole file is validated before anything is stored, so a bad line
loses nothing and stores nothing. Memory extraction and paging run as if typed.
"""

from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers):
    parser = subparsers.add_parser("import", help="import a JSONL transcript, ChatGPT export or Paperclip export")
    parser.add_argument("file", type=Path, help="JSON Lines file (or - for stdin), conversations.json, or export")
    parser.add_argument("--format", choices=("auto", "jsonl", "chatgpt", "paperclip"), default="auto")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.set_defaults(func=run)
    return parser


def _read_conversations(args, name: str, raw: bytes):
    from desktop_app.commands.common import CommandError
    from desktop_app.exchange.importers import ImportFormatError, read_conversations

    try:
        return read_conversations(raw, name, path=None if name == "stdin" else args.file, fmt=args.format)
    except ImportFormatError as exc:
        raise CommandError(f"{exc}; nothing was imported", 2) from None


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
