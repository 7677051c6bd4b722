"""Build the prompt for a turn: loads what the pure assembler needs from the store.

Foundation version: system prompt + as many recent turns as fit the budget. The memory
core replaces this with the layered assembly (anchors, state, summary, recall).
"""

from __future__ import annotations

from desktop_app.engine.protocol import ChatMessage


def build_context_plan(store, session, user_text, *, settings, counter, n_ctx: int, system_prompt: str):
    from desktop_app.chat import PROMPT_SHARE, ContextPlan

    budget = int(n_ctx * PROMPT_SHARE)
    system_tokens = counter.count(system_prompt) + 4
    history = store.list_messages(session.id)
    if user_text is not None:
        history = [*history, None]
    picked: list[ChatMessage] = []
    used = system_tokens
    input_tokens = counter.count(user_text) + 4 if user_text is not None else 0
    used += input_tokens
    for message in reversed([m for m in history if m is not None]):
        cost = (message.token_count or counter.count(message.content)) + 4
        if used + cost > budget and picked:
            break
        picked.append({"role": message.role, "content": message.content})
        used += cost
    picked.reverse()
    messages: list[ChatMessage] = [{"role": "system", "content": system_prompt}, *picked]
    if user_text is not None:
        messages.append({"role": "user", "content": user_text})
    return ContextPlan(messages=messages, total_tokens=used, budget=budget, n_ctx=n_ctx)
