"""``paperclip memory …``: the user's memory controls, headless (same code as the chat's slash commands)."""

from __future__ import annotations

import time

ACTIONS = {
    "list": "current memory items (what do you remember?)",
    "show": "one item with its supersede chain and history",
    "revoke": "revoke an item by ID or topic: it stops applying, its history is kept",
    "forget": "delete an item or topic for good, with every turn and copy that holds it (lists, then asks)",
    "pin": "keep an item in the anchor zone",
    "unpin": "release a pinned item",
    "correct": "replace an item's value (your correction wins)",
    "remember": "store something explicitly",
    "directive": "add a standing rule",
    "fact": "add a fact (SUBJECT: VALUE)",
    "confirm": "accept a pending item (default: the latest)",
    "reject": "drop a pending item (default: the latest)",
    "bookmark": "bookmark the latest user message with 2-4 keywords",
    "scope": "move an item to the profile (all sessions) or into this session",
    "log": "the per-turn records (layers, tokens, paging)",
}
_NEEDS = {"show": "ID", "forget": "ID|TOPIC", "revoke": "ID|TOPIC", "pin": "ID", "unpin": "ID", "correct": "ID VALUE",
          "remember": "TEXT", "directive": "TEXT", "fact": "TEXT", "bookmark": "WORDS",
          "scope": "ID profile|session"}


def register(subparsers):
    parser = subparsers.add_parser("memory", help="list, show, forget, pin and correct what Paperclip remembers")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    parsers = [parser]
    for name, help_text in ACTIONS.items():
        sub = actions.add_parser(name, help=help_text)
        if name in _NEEDS:
            sub.add_argument("args", nargs="+", metavar=_NEEDS[name])
        elif name in ("confirm", "reject"):
            sub.add_argument("args", nargs="*", metavar="ID")
        if name == "list":
            sub.add_argument("--all", action="store_true", help="include superseded, revoked and pending items")
        if name == "forget":
            sub.add_argument("--yes", action="store_true", help="delete without asking (for scripts)")
        if name == "log":
            sub.add_argument("--limit", type=int, default=10)
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        sub.set_defaults(func=run)
        parsers.append(sub)
    return parsers


def run(args, settings) -> int:
    from desktop_app.commands.common import CommandError, open_store, print_json, resolve_session
    from desktop_app.memory.controls import MemoryCommandError, item_json, run_command
    from desktop_app.memory.core.safe_text import plain, plain_line
    from desktop_app.memory.write.patches import PatchRejected

    with open_store(settings) as store:
        session = resolve_session(store, args, create=args.action not in ("list", "show", "log"))
        if args.action == "log":
            rows = store.list_turn_log(session.id, limit=args.limit)
            if args.json:
                print_json([row.model_dump(mode="json", exclude_none=True) for row in rows])
            for row in [] if args.json else rows:
                rec = row.record
                layers = " ".join(f"{name}={layer.tokens}" for name, layer in rec.layers.items())
                paging = " paged-out" if rec.paging else ""
                print(plain_line(f"#{row.id} {row.mode} total={rec.total_tokens} {layers}{paging}"))
            return 0
        if args.action == "list" and args.all:
            items = store.list_items(session.id)
            if args.json:
                print_json([item_json(i) for i in items])
            for item in [] if args.json else items:
                print(plain_line(f"#{item.id} {item.status:<10} [{item.kind}] {item.scope:<7} {item.origin:<7} {item.value}"))
            return 0
        if args.action == "forget":
            return _forget(store, session, " ".join(args.args), args, settings)
        name = {"list": "memory"}.get(args.action, args.action)
        try:
            result = run_command(store, session, name, " ".join(getattr(args, "args", []) or []), time.time(),
                                 lang=settings.lang)
        except (MemoryCommandError, PatchRejected) as exc:
            raise CommandError(str(exc)) from None
        if args.json:
            print_json(result.model_dump())
        else:
            print(plain(result.text))
        if not result.ok:
            raise CommandError(result.text.splitlines()[0])
    return 0


def _forget(store, session, arg: str, args, settings) -> int:
    """List what the forget will delete, ask once (``--yes`` skips it), then delete."""
    import sys

    from desktop_app.commands.common import CommandError, print_json
    from desktop_app.memory.controls import MemoryCommandError, plan_forget
    from desktop_app.memory.core.safe_text import plain
    from desktop_app.memory.forgetting import carry_out, describe
    from desktop_app.memory.lang.notices import reply

    try:
        plan = plan_forget(store, session, arg)
    except (MemoryCommandError, LookupError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    if plan.empty:
        store.purge_if_needed()  # a forget killed after its commit left free pages: clear them now
        raise CommandError(reply("nothing_to_forget", settings.lang, what=arg))
    if not args.json:
        print(plain(describe(plan, settings.lang)))
    if not args.yes:
        if not sys.stdin.isatty():
            raise CommandError("nothing deleted: add --yes to delete without asking")
        answer = input("Delete all of this? [y/N] " if settings.lang != "zh" else "全部删除？[y/N] ")
        if answer.strip().lower() not in ("y", "yes", "是"):
            raise CommandError("nothing deleted")
    counts = carry_out(store, plan)
    if args.json:
        print_json({"what": plan.what, "items": [i.id for i in plan.items], "messages": [m.id for m in plan.messages],
                    "pages": [p.id for p in plan.pages], "traces": plan.traces, "files": plan.files, **counts})
    else:
        print(plain(reply("forgotten", settings.lang, what=plan.what, **counts)))
    return 0
