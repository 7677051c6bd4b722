"""Idle-time warming (issue 11): evaluate the next turn's prompt head while the user reads and types.

After a page-out, a fold, a session switch or a model load the head of the next prompt is new,
and evaluating it costs seconds to tens of seconds on a CPU. :class:`WarmJob` runs on the job
queue in idle time: it builds the prompt the next message will extend (the same assembly, with
a placeholder input), takes the tokens that every such prompt starts with, and evaluates what
the chat context does not hold yet — in short chunks, so a new message stops it at once and
the turn goes on from whatever was evaluated. When the context holds little of that prefix
(a session just opened, an app just started), the session's saved state is restored first
(:mod:`desktop_app.engine.kv_cache`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop_app.engine.errors import ContextFullError
from desktop_app.engine.prefix import common_prefix
from desktop_app.engine.protocol import can_warm
from desktop_app.memory.jobs import JobContext, JobOutcome, MemoryJob

PLACEHOLDER = "…"  # the next input, unknown yet: it only ends the prefix


@dataclass
class ContextOwner:
    """Which session the chat context's evaluated tokens belong to (set by turns and warm-ups),
    so a state is only ever saved under the session it came from."""

    session_id: int | None = None


def next_prefix(pipeline, session) -> tuple[list[dict], str]:
    """What the next prompt starts with, as planned now: all messages but the final user message,
    and how that one opens before the input (the changes block, which depends on memory only)."""
    plan, _ = pipeline.preview(session, PLACEHOLDER)
    final = plan.messages[-1]["content"]
    changes = plan.layers["changes"].text
    lead = changes + "\n\n" if changes and final.startswith(changes + "\n\n") else ""
    return plan.messages[:-1], lead


class WarmJob(MemoryJob):
    """Evaluate the next prompt's prefix on the chat's own context (stage: before or after the
    other jobs of a turn; the second finds nothing to do unless they changed the head)."""

    name = "warm"

    def __init__(self, session_id: int, options, *, stage: str = "turn", cache=None, cache_key: str | None = None,
                 progress: Callable[[int, int], object] | None = None, owner: ContextOwner | None = None,
                 leaving: tuple[int, str] | None = None):
        super().__init__(session_id)
        self.options, self.stage = options, stage
        self.cache, self.cache_key, self.progress = cache, cache_key, progress
        self.owner = owner
        self.leaving = leaving  # (session id, cache key) of the session just left: saved first

    @property
    def key(self) -> tuple:
        return (self.name, self.session_id, self.stage)

    def run(self, ctx: JobContext) -> JobOutcome:
        from desktop_app.memory.turn import TurnPipeline

        engine = ctx.chat_engine
        if engine is None or not can_warm(engine):
            return self.outcome("done", "this engine keeps no evaluated prefix")
        session = ctx.store.get_session(self.session_id)
        if session is None:
            return self.outcome("done", "the session is gone")
        if self.cache is not None and self.leaving and self.owner is not None and \
                self.owner.session_id == self.leaving[0]:
            self.cache.save(engine, self.leaving[1])  # the context still holds the session left
        pipeline = TurnPipeline(store=ctx.store, counter=engine.counter, n_ctx=engine.n_ctx, options=self.options)
        messages, lead = next_prefix(pipeline, session)
        restored = ""
        if self.cache is not None and self.cache_key:
            inner = getattr(engine, "inner", engine)
            prefix = inner.prefix_tokens(messages, lead)
            held = common_prefix(inner.cached_tokens(), prefix)
            if held < len(prefix) // 2:
                result = self.cache.restore(engine, self.cache_key, prefix=prefix)
                restored = f"restored {result.tokens} tokens; " if result.restored else ""
        if self.owner is not None:
            self.owner.session_id = self.session_id
        try:
            result = engine.warm(messages, lead=lead, should_stop=ctx.should_stop, progress=self.progress)
        except ContextFullError as exc:
            return self.outcome("done", str(exc))
        detail = f"{restored}{result.evaluated} tokens evaluated, {result.reused} reused of {result.total}"
        return self.outcome("done" if result.complete else "postponed", detail)

