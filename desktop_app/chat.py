"""One turn of conversation, the same for the TUI and the headless commands.

user input → store the turn → assemble the prompt within budget → stream the reply →
store the reply (also when stopped early) → page out if needed. The UI calls this from a
worker thread; the CLI calls it directly. Nothing here imports Textual.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from desktop_app.config import Settings
from desktop_app.engine.protocol import ChatEngine, ChatMessage, StopCheck, TokenCounter
from desktop_app.memory.models import Message, Session
from desktop_app.memory.store import Store
from desktop_app.prompts import default_system_prompt

# At most this share of the window goes to the prompt; the rest is reserved for the reply.
PROMPT_SHARE = 0.75
WARN_SHARE = 0.80
MAX_INPUT_CHARS = 200_000


class InputRejected(ValueError):
    """User input that cannot be sent (empty, binary, too large); one line for the user."""


def clean_user_text(text: str) -> str:
    """Validate pasted/typed input: text only, bounded size, no NUL bytes."""
    if "\x00" in text:
        raise InputRejected("the input contains NUL bytes (binary data?); nothing was sent")
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise InputRejected("the message is empty")
    if len(text) > MAX_INPUT_CHARS:
        raise InputRejected(
            f"the message is {len(text):,} characters; the limit is {MAX_INPUT_CHARS:,} — attach less at once"
        )
    return text


@dataclass
class ContextPlan:
    """What will be sent: the messages plus per-layer accounting (see ``memory.assembly``)."""

    messages: list[ChatMessage]
    total_tokens: int
    budget: int
    n_ctx: int
    layers: dict[str, dict] = field(default_factory=dict)
    mode: str = "layered"
    warnings: list[str] = field(default_factory=list)
    excluded: list[dict] = field(default_factory=list)
    counter_name: str = ""

    @property
    def usage(self) -> float:
        return self.total_tokens / self.n_ctx if self.n_ctx else 0.0

    @property
    def over_warning(self) -> bool:
        return self.usage > WARN_SHARE


@dataclass
class TurnResult:
    user_message: Message
    reply: Message | None
    stopped: bool
    plan: ContextPlan
    first_token_seconds: float | None
    generation_seconds: float
    completion_pieces: int

    @property
    def tokens_per_second(self) -> float:
        if not self.completion_pieces or self.generation_seconds <= 0:
            return 0.0
        return self.completion_pieces / self.generation_seconds


def system_prompt_for(session: Session, settings: Settings) -> str:
    return session.system_prompt or settings.system_prompt or default_system_prompt(settings.lang)


def plan_context(store: Store, session: Session, user_text: str | None, *, settings: Settings,
                 counter: TokenCounter, n_ctx: int, mode: str | None = None) -> ContextPlan:
    """Assemble the prompt for ``user_text`` (None: the input is already the last stored turn)."""
    from desktop_app.memory.context import build_context_plan

    return build_context_plan(store, session, user_text, settings=settings, counter=counter, n_ctx=n_ctx,
                              system_prompt=system_prompt_for(session, settings), mode=mode)


def run_turn(store: Store, session: Session, engine: ChatEngine, user_text: str, *, settings: Settings,
             should_stop: StopCheck | None = None, on_token: Callable[[str], None] | None = None,
             on_plan: Callable[[ContextPlan], None] | None = None) -> TurnResult:
    """Run one full turn. The user message is stored before generation starts, the reply
    when generation ends — also when stopped early (flagged ``stopped``) or on error
    (whatever had streamed is kept, flagged stopped, then the error propagates)."""
    user_text = clean_user_text(user_text)
    user_tokens = engine.counter.count(user_text)
    user_message = store.add_message(session.id, "user", user_text, token_count=user_tokens)
    outcomes = after_user_message(store, session, user_message)
    return answer_turn(store, session, engine, user_message, outcomes, settings=settings, should_stop=should_stop,
                       on_token=on_token, on_plan=on_plan)


def regenerate_turn(store: Store, session: Session, engine: ChatEngine, *, settings: Settings,
                    should_stop: StopCheck | None = None, on_token: Callable[[str], None] | None = None,
                    on_plan: Callable[[ContextPlan], None] | None = None) -> TurnResult:
    """Answer the session's last message again (the UI has archived the old reply as a version).

    The user message and the memory it wrote stay as they are; only a new reply is written."""
    last = store.last_messages(session.id, 1)
    if not last or last[0].role != "user":
        raise InputRejected("there is no message of yours to answer again")
    return answer_turn(store, session, engine, last[0], [], settings=settings, should_stop=should_stop,
                       on_token=on_token, on_plan=on_plan)


def answer_turn(store: Store, session: Session, engine: ChatEngine, user_message: Message, outcomes: list, *,
                settings: Settings, should_stop: StopCheck | None = None,
                on_token: Callable[[str], None] | None = None,
                on_plan: Callable[[ContextPlan], None] | None = None) -> TurnResult:
    """Assemble, stream and store the reply to the stored ``user_message`` (see ``run_turn``)."""
    plan = plan_context(store, session, None, settings=settings, counter=engine.counter, n_ctx=engine.n_ctx)
    if on_plan:
        on_plan(plan)
    pieces: list[str] = []
    started = time.perf_counter()
    first_token: float | None = None
    stopped = False
    try:
        for piece in engine.stream_chat(plan.messages, max_tokens=settings.max_tokens,
                                        temperature=settings.temperature, should_stop=should_stop):
            if first_token is None:
                first_token = time.perf_counter() - started
            pieces.append(piece)
            if on_token:
                on_token(piece)
        stopped = bool(should_stop and should_stop())
    except BaseException:
        if pieces:
            _store_reply(store, session, engine, "".join(pieces), stopped=True)
        raise
    elapsed = time.perf_counter() - started
    reply = _store_reply(store, session, engine, "".join(pieces), stopped=stopped) if pieces or stopped else None
    paging = after_reply(store, session, reply, engine.counter, engine.n_ctx, settings) if reply is not None else None
    from desktop_app.memory.hooks import record_turn

    record_turn(store, session, plan, user_message=user_message, reply=reply, paging=paging, outcomes=outcomes,
                first_token_seconds=first_token)
    gen_seconds = elapsed - (first_token or 0.0)
    return TurnResult(user_message, reply, stopped, plan, first_token, gen_seconds, len(pieces))


def _store_reply(store: Store, session: Session, engine: ChatEngine, text: str, *, stopped: bool) -> Message:
    return store.add_message(session.id, "assistant", text, token_count=engine.counter.count(text), stopped=stopped)


def after_user_message(store: Store, session: Session, message: Message) -> list:
    """Memory hook: extraction of directives/facts from the user's words (returns the outcomes)."""
    from desktop_app.memory.hooks import on_user_message

    return on_user_message(store, session, message)


def after_reply(store: Store, session: Session, reply: Message, counter: TokenCounter, n_ctx: int,
                settings: Settings):
    """Memory hook: paging out when recent turns pass the high watermark (returns the page-out or None)."""
    from desktop_app.memory.hooks import on_reply_stored

    return on_reply_stored(store, session, reply, counter=counter, n_ctx=n_ctx, settings=settings)


def import_turns(store: Store, session: Session, turns: list[dict], counter: TokenCounter, *,
                 settings: Settings, n_ctx: int, progress: Callable[[int, int], None] | None = None) -> int:
    """Append transcript turns without generating; memory runs as if they were typed."""
    for index, turn in enumerate(turns, start=1):
        message = store.add_message(session.id, turn["role"], turn["content"],
                                    token_count=counter.count(turn["content"]),
                                    created_at=turn.get("time"), ext_id=turn.get("id"))
        if message.role == "user":
            after_user_message(store, session, message)
        elif message.role == "assistant":
            after_reply(store, session, message, counter, n_ctx, settings)
        if progress:
            progress(index, len(turns))
    return len(turns)
