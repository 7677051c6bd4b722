"""``paperclip sessions``: list sessions (``--json`` for scripts)."""

from __future__ import annotations


def register(subparsers):
    parser = subparsers.add_parser("sessions", help="list sessions")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--brief", action="store_true", help="JSON without each session's messages")
    parser.set_defaults(func=run)
    return parser


def run(args, settings) -> int:
    from desktop_app.commands.common import open_store, print_json
    from desktop_app.memory.core.models import iso
    from desktop_app.memory.core.safe_text import plain_line

    with open_store(settings) as store:
        sessions = store.list_sessions()
        wanted = getattr(args, "session", None)
        if wanted:
            sessions = [s for s in sessions if s.name == wanted]
        if args.json:
            out = []
            for s in sessions:
                entry = {"id": s.id, "name": s.name, "mode": s.mode, "message_count": s.message_count,
                         "created_at": iso(s.created_at), "updated_at": iso(s.updated_at)}
                if not args.brief:
                    entry["messages"] = [
                        {"id": m.id, "ext_id": m.ext_id, "role": m.role, "content": m.content,
                         "token_count": m.token_count, "stopped": m.stopped, "created_at": iso(m.created_at)}
                        for m in store.list_messages(s.id)
                    ]
                out.append(entry)
            print_json(out)
            return 0
        if not sessions:
            print("no sessions yet")
            return 0
        names = {s.id: plain_line(s.name) for s in sessions}
        width = max(len(name) for name in names.values())
        for s in sessions:
            print(f"{names[s.id]:<{width}}  {s.message_count:>5} messages  last active {iso(s.updated_at)}")
    return 0
