"""Memory work done on every turn: extraction after the user's message, paging after the reply,
and the per-turn record the inspector reads (``turn_log``)."""

from __future__ import annotations

import time

from desktop_app.memory.paging import PagingEvent, page_out_if_needed
from desktop_app.memory.updates import MemoryOutcome, remember_message


def on_user_message(store, session, message, *, now: float | None = None) -> list[MemoryOutcome]:
    """Extract directives, facts, constraints, … from a stored user message and apply them."""
    if message.role != "user":
        return []
    return remember_message(store, session.id, message.content, source_message_id=message.id, origin="rule",
                            now=message.created_at if now is None else now)


def on_reply_stored(store, session, reply, *, counter, n_ctx: int, settings,
                    now: float | None = None) -> PagingEvent | None:
    """Page out the oldest turns when recent passes the high watermark; returns the page-out."""
    from desktop_app.chat import system_prompt_for

    return page_out_if_needed(store, session.id, counter=counter, n_ctx=n_ctx,
                              system_prompt=system_prompt_for(session, settings),
                              now=time.time() if now is None else now)


def record_turn(store, session, plan, *, user_message, reply, paging: PagingEvent | None,
                outcomes: list[MemoryOutcome] | None = None, first_token_seconds: float | None = None,
                now: float | None = None) -> int:
    """Write one ``turn_log`` row: layers (tokens, items), exclusions and why, memory changes, paging."""
    record = {
        "mode": plan.mode,
        "total_tokens": plan.total_tokens,
        "budget": plan.budget,
        "n_ctx": plan.n_ctx,
        "counter": plan.counter_name,
        "layers": {name: {"tokens": layer["tokens"], "items": layer["items"],
                          **({"text": layer["text"]} if name not in ("recent", "system") else {})}
                   for name, layer in plan.layers.items()},
        "excluded": plan.excluded,
        "warnings": plan.warnings,
        "memory": [o.model_dump() for o in outcomes or []],
        "paging": paging.model_dump() if paging else None,
        # The hits that made it into the prompt, with their per-signal scores (the inspector shows them).
        "recall": {"hits": [hit for item in plan.layers.get("recalled", {}).get("items", [])
                            if item.get("type") == "page" for hit in item.get("hits", [])]},
        "first_token_seconds": first_token_seconds,
    }
    return store.add_turn_log(session.id, user_message_id=user_message.id if user_message else None,
                              reply_message_id=reply.id if reply else None, mode=plan.mode, record=record,
                              now=time.time() if now is None else now)
