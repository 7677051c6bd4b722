"""``paperclip context MESSAGE``: exactly what would be sent for MESSAGE now, per layer.

Nothing is stored: the message and its memory extraction run inside a transaction that is
rolled back. Token counts use the offline tiktoken fallback (no model load) unless ``--exact``
loads the configured model for its own tokenizer and context size.
"""

from __future__ import annotations

from desktop_app.memory.core.plan import LAYER_ORDER, layers_json


def register(subparsers):
    parser = subparsers.add_parser("context", help="show the prompt that would be sent for MESSAGE, per layer")
    parser.add_argument("message", help="the message to plan a prompt for (not stored)")
    parser.add_argument("--json", action="store_true", help="machine-readable output (the contract in docs/architecture.md)")
    parser.add_argument("--exact", action="store_true", help="load the model for exact token counts")
    parser.set_defaults(func=run)
    return parser


def plan_json(plan, session_name: str, outcomes=()) -> dict:
    """The ``context --json`` contract (docs/architecture.md): messages, layers {NAME: {tokens, text,
    items}}, total_tokens, budget."""
    return {
        "session": session_name,
        "mode": plan.mode,
        "messages": plan.messages,
        "layers": layers_json(plan.layers),
        "total_tokens": plan.total_tokens,
        "budget": plan.budget,
        "n_ctx": plan.n_ctx,
        "counter": plan.counter_name,
        "warnings": plan.warnings,
        "excluded": [e.model_dump(exclude_none=True) for e in plan.excluded],
        "memory_changes": [o.model_dump() for o in outcomes],
    }


def run(args, settings) -> int:
    from desktop_app.chat import InputRejected, pipeline_for
    from desktop_app.commands.common import CommandError, load_engine, open_store, print_json, resolve_session
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.core.safe_text import plain, plain_line
    from desktop_app.memory.prompt.budget import SystemPromptTooLarge

    if args.message.lstrip().startswith("/"):
        raise CommandError("slash commands are not sent to the model; use `paperclip memory …`", 2)
    if args.exact:
        engine = load_engine(settings, quiet=args.json)
        counter, n_ctx = engine.counter, engine.n_ctx
    else:
        from desktop_app.engine.hardware import choose, choose_ctx

        # The window the chat would use (read from the GGUF header; the model is not loaded).
        gpu = choose(settings.threads, settings.gpu_layers).gpu_layers
        counter, n_ctx = fallback_counter(), choose_ctx(settings.ctx, settings.model_path, gpu)[0]
    with open_store(settings) as store:
        session = resolve_session(store, args)
        # The embedder too, so the recalled layer is the one a turn would get (vectors included).
        from desktop_app.commands.recall import embedder_for_recall

        embedder = embedder_for_recall(store, settings, quiet=args.json)
        pipeline = pipeline_for(store, settings, counter=counter, n_ctx=n_ctx, embedder=embedder)
        try:
            plan, recorded = pipeline.preview(session, args.message, mode=getattr(args, "mode", None))
        except (InputRejected, SystemPromptTooLarge) as exc:
            raise CommandError(str(exc), 2) from None
        if args.json:
            print_json(plan_json(plan, session.name, recorded.memory))
            return 0
        print(plain_line(f"session {session.name!r} · mode {plan.mode} · {plan.total_tokens}/{plan.budget} tokens "
              f"(n_ctx {plan.n_ctx}, counted with {plan.counter_name})"))
        for name in LAYER_ORDER:
            layer = plan.layer(name)
            print(f"\n── {name} · {layer.tokens} tokens " + "─" * max(0, 50 - len(name)))
            if layer.text:
                print(plain(layer.text))
        for warning in plan.warnings:
            print(plain_line(f"warning: {warning}"))
    return 0
