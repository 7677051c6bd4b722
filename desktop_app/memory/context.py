"""Build the prompt for a turn: load what the pure assembler needs from the store.

Thin on purpose: all decisions live in :func:`desktop_app.memory.assembly.assemble_context`.
"""

from __future__ import annotations

import time

from desktop_app.memory.assembly import MODES, AssemblyInput, assemble_context
from desktop_app.memory.bookmark_recall import recall_pages, turn_numbers, turn_views

RECALL_K = 2


def session_mode(session, settings, override: str | None = None) -> str:
    """The context mode in force: an explicit override, else the session's (/mode), else the setting."""
    mode = override or session.mode or settings.mode
    return mode if mode in MODES else "layered"


def load_assembly_input(store, session, user_text: str | None, *, settings, counter, n_ctx: int,
                        system_prompt: str, mode: str | None = None, now: float | None = None) -> AssemblyInput:
    """Everything for one assembly, read from the store (``user_text`` None: the last stored turn)."""
    mode = session_mode(session, settings, mode)
    unpaged = store.unpaged_messages(session.id)
    input_id = None
    if user_text is None:
        if not unpaged or unpaged[-1].role != "user":
            raise ValueError("there is no user message to answer")
        input_id, user_text = unpaged[-1].id, unpaged[-1].content
        unpaged = unpaged[:-1]
    user_ids = store.user_message_ids(session.id)
    current_turn = len(user_ids) + (0 if input_id else 1)
    everything = store.list_items(session.id)
    items = [i for i in everything if i.status in ("active", "pending")]
    history = [i for i in everything if i.status in ("superseded", "revoked")]
    sources = [i.source_message_id for i in everything if i.source_message_id]
    item_turn_of = turn_numbers(user_ids, sources)
    item_turns = {i.id: item_turn_of[i.source_message_id] for i in everything if i.source_message_id}
    all_turns = []
    if mode in ("full", "sliding"):
        all_turns = [t for t in turn_views(store.list_messages(session.id), user_ids, counter) if t.id != input_id]
    summary = store.latest_summary(session.id) if mode in ("layered", "summary") else None
    recalled = (recall_pages(store, session.id, user_text, k=RECALL_K, user_ids=user_ids)
                if mode in ("layered", "retrieval") else [])
    return AssemblyInput(
        mode=mode, lang=settings.lang, system_prompt=system_prompt, input_text=user_text, input_id=input_id,
        n_ctx=n_ctx, state_version=store.state_version(session.id), items=items, history=history,
        item_turns=item_turns, summary=summary.content if summary else None,
        recent=turn_views(unpaged, user_ids, counter), all_turns=all_turns, recalled=recalled,
        current_turn=current_turn, now=time.time() if now is None else now)


def build_context_plan(store, session, user_text, *, settings, counter, n_ctx: int, system_prompt: str,
                       mode: str | None = None, now: float | None = None):
    """The :class:`~desktop_app.chat.ContextPlan` for this turn, with the per-layer record."""
    from desktop_app.chat import ContextPlan

    inp = load_assembly_input(store, session, user_text, settings=settings, counter=counter, n_ctx=n_ctx,
                              system_prompt=system_prompt, mode=mode, now=now)
    assembled = assemble_context(inp, counter)
    return ContextPlan(messages=assembled.messages, total_tokens=assembled.total_tokens, budget=assembled.budget,
                       n_ctx=n_ctx, layers=assembled.layers, mode=assembled.mode, warnings=assembled.warnings,
                       excluded=assembled.excluded, counter_name=getattr(counter, "name", "?"))
