"""``paperclip export``: a session as Markdown or JSON (the JSON re-imports with ``import``)."""

from __future__ import annotations

import json
from pathlib import Path

from desktop_app.memory.core.safe_text import plain, plain_line
from desktop_app.private_files import write_private_text


def register(subparsers):
    parser = subparsers.add_parser("export", help="export a session to Markdown or JSON")
    parser.add_argument("--format", choices=("md", "json"), default="md")
    parser.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    parser.set_defaults(func=run)
    return parser


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, resolve_session
    from desktop_app.exchange.export import session_to_dict, session_to_markdown

    with open_store(settings) as store:
        session = resolve_session(store, args, create=False)
        if args.format == "json":
            text = json.dumps(session_to_dict(store, session), ensure_ascii=False, indent=2)
        else:
            text = session_to_markdown(store, session)
    # JSON escapes control characters itself; Markdown must not carry terminal escapes, on the
    # screen nor in a file someone will `cat` (the database keeps the verbatim text).
    if args.format != "json":
        text = plain(text)
    if args.out is None:
        print(text)
        return 0
    try:
        write_private_text(args.out, text + "\n")  # 0600: an export is the whole conversation
    except OSError as exc:
        raise CommandError(f"cannot write {args.out}: {exc.strerror}") from None
    print(plain_line(f"exported session {session.name!r} to {args.out}"))
    return 0
