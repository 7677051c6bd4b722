"""``paperclip check REPLY``: the reply guard on a given reply, against a session's memory.

No model is loaded and nothing is stored. The JSON form is the guard's contract for scripts:
``{"ok": bool, "findings": [{"kind": "superseded|limit|directive|revoked|cut_off", "item": ID,
"detail": "…"}]}``. Exit status 0 when the reply agrees with memory, 1 when it does not.
"""

from __future__ import annotations

import sys


def register(subparsers):
    parser = subparsers.add_parser("check", help="check a reply against a session's memory (no model)")
    parser.add_argument("reply", help="the reply text ('-' reads it from stdin)")
    parser.add_argument("--cut-off", dest="cut_off", action="store_true",
                        help="the reply stopped at the length limit (max_tokens)")
    parser.add_argument("--message", default="", help="the user's message it answers (sets the turn's language)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def run(args, settings) -> int:
    from desktop_app.chat import pipeline_for
    from desktop_app.commands.common import CommandError, open_store, print_json, resolve_session
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.core.safe_text import plain_line

    reply = sys.stdin.read() if args.reply == "-" else args.reply
    if not reply.strip():
        raise CommandError("the reply is empty", 2)
    with open_store(settings) as store:
        session = resolve_session(store, args, create=False)
        pipeline = pipeline_for(store, settings, counter=fallback_counter(), n_ctx=4096)
        findings = pipeline.guard(session, reply, user_text=args.message, finished=not args.cut_off)
    if args.json:
        print_json({"ok": not findings, "findings": [{"kind": f.kind, "item": f.item, "detail": f.detail}
                                                      for f in findings]})
    elif not findings:
        print("ok: the reply agrees with what memory holds")
    else:
        for f in findings:
            item = f"#{f.item} " if f.item is not None else ""
            print(plain_line(f"{f.kind}: {item}{f.detail}"))
    return 0 if not findings else 1
