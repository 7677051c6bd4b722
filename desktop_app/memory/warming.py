"""Idle-time warming: evaluate the next turn's prompt head while the user reads and types.

After a page-out, a fold, a session switch or a model load the head of the next prompt is new,
and evaluating it costs seconds to tens of seconds on a CPU. :class:`WarmJob` runs on the job
queue in idle time: it builds the prompt the next message will extend (the same assembly, with
a placeholder input), takes the tokens that every such prompt starts with, and evaluates what
the chat context does not hold yet — in short chunks, so a new message stops it at once and
the turn goes on from whatever was evaluated. When the context holds little of that prefix
(a session just opened, an app just started), the session's saved state is restored first
(:mod:`desktop_app.engine.kv_cache`).

While the user types, :class:`DraftWarmJob` goes further (type-ahead): at a pause it plans the
prompt for the words typed so far and evaluates its final message up to the input — the
changes block, the archived turns recall found for the draft, the replayed state. Those are
chosen by the input, so the head alone cannot cover them — and then the words typed so far.
When the sent message recalls the same pages, the turn evaluates only the words typed after
the pause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.engine.errors import ContextFullError
from desktop_app.engine.prefix import common_prefix
from desktop_app.engine.protocol import ChatMessage, Progress, can_warm
from desktop_app.lexicon import CJK, FULLWIDTH, KANA
from desktop_app.memory.background.queue import JobContext, JobOutcome, MemoryJob
from desktop_app.memory.core.models import Session
from desktop_app.memory.core.plan import ContextPlan
from desktop_app.memory.lang.text import term_set
from desktop_app.memory.turn import TurnOptions, TurnPipeline

if TYPE_CHECKING:
    from desktop_app.engine.kv_cache import KvCache

PLACEHOLDER = "…"  # the next input, unknown yet: it only ends the prefix
MIN_DRAFT_CHARS = 6  # a shorter draft recalls little worth evaluating ahead
CJK_END = re.compile(f"[{CJK}{KANA}{FULLWIDTH}]$")


@dataclass
class ContextOwner:
    """Which session the chat context's evaluated tokens belong to (set by turns and warm-ups),
    so a state is only ever saved under the session it came from; and which recalled pages a
    type-ahead evaluated after the head, in order, so the turn keeps that order."""

    session_id: int | None = None
    recalled_pages: tuple[int, ...] = ()
    recalled_words: tuple[str, ...] = ()  # the words that chose those pages' lines

    def pages_for(self, session_id: int) -> list[int]:
        return list(self.recalled_pages) if self.session_id == session_id else []

    def words_for(self, session_id: int) -> list[str]:
        return list(self.recalled_words) if self.session_id == session_id else []


def next_prefix(pipeline: TurnPipeline, session: Session) -> tuple[list[ChatMessage], str]:
    """What the next prompt starts with, as planned now: all messages but the final user message,
    and how that one opens before the input (the changes block, which depends on memory only)."""
    plan, _ = pipeline.preview(session, PLACEHOLDER)
    final = plan.messages[-1]["content"]
    changes = plan.layers["changes"].text
    lead = changes + "\n\n" if changes and final.startswith(changes + "\n\n") else ""
    return plan.messages[:-1], lead


def draft_prefix(pipeline: TurnPipeline, session: Session, draft: str) -> tuple[list[ChatMessage], str]:
    """What the prompt starts with if the user sends ``draft`` with more words after it: all
    messages but the final user message, and that message up to the draft's last whole word —
    the changes, the recalled pages and the replayed state before the input, then the words
    typed so far (the last may still grow, so it is left to the turn)."""
    return draft_lead(pipeline.preview(session, draft)[0])


def draft_lead(plan: ContextPlan) -> tuple[list[ChatMessage], str]:
    final = plan.messages[-1]["content"]
    shown = plan.layers["input"].text
    if not shown or not final.endswith(shown):
        return plan.messages[:-1], ""
    return plan.messages[:-1], final[: len(final) - len(shown)] + settled_words(shown)


def settled_words(text: str) -> str:
    """``text`` without its last word, which the user may still be typing: up to the last space,
    or without the last character of a CJK run."""
    cut = max(text.rfind(" "), text.rfind("\n"))
    if cut > 0:
        return text[:cut]
    return text[:-1] if CJK_END.search(text) else ""


def worth_drafting(text: str) -> bool:
    """A draft long enough to recall on: a few words, or a few CJK characters."""
    return len(text.strip()) >= MIN_DRAFT_CHARS


class WarmJob(MemoryJob):
    """Evaluate the next prompt's prefix on the chat's own context (stage: before or after the
    other jobs of a turn; the second finds nothing to do unless they changed the head)."""

    name = "warm"
    session_id: int

    def __init__(self, session_id: int, options: TurnOptions, *, stage: str = "turn", cache: KvCache | None = None,
                 cache_key: str | None = None, progress: Progress | None = None, owner: ContextOwner | None = None,
                 leaving: tuple[int, str] | None = None) -> None:
        super().__init__(session_id)
        self.options, self.stage = options, stage
        self.cache, self.cache_key, self.progress = cache, cache_key, progress
        self.owner = owner
        self.leaving = leaving  # (session id, cache key) of the session just left: saved first

    @property
    def key(self) -> tuple[object, ...]:
        return (self.name, self.session_id, self.stage)

    def prefix(self, pipeline: TurnPipeline, session: Session) -> tuple[list[ChatMessage], str]:
        """The messages and the final message's opening to evaluate."""
        return next_prefix(pipeline, session)

    def run(self, ctx: JobContext) -> JobOutcome:
        engine = ctx.chat_engine
        if engine is None or not can_warm(engine):
            return self.outcome("done", "this engine keeps no evaluated prefix")
        session = ctx.store.get_session(self.session_id)
        if session is None:
            return self.outcome("done", "the session is gone")
        if self.cache is not None and self.leaving and self.owner is not None and \
                self.owner.session_id == self.leaving[0]:
            self.cache.save(engine, self.leaving[1])  # the context still holds the session left
        pipeline = TurnPipeline(store=ctx.store, counter=engine.counter, n_ctx=engine.n_ctx, options=self.options,
                                context=self.owner)
        messages, lead = self.prefix(pipeline, session)
        restored = ""
        if self.cache is not None and self.cache_key:
            # (A lock's wrapper reads the wrapped engine's tokens without taking the lock.)
            prefix = engine.prefix_tokens(messages, lead)
            held = common_prefix(engine.cached_tokens(), prefix)
            if held < len(prefix) // 2:
                loaded = self.cache.restore(engine, self.cache_key, prefix=prefix)
                restored = f"restored {loaded.tokens} tokens; " if loaded.restored else ""
        if self.owner is not None:
            self.owner.session_id = self.session_id
        try:
            result = engine.warm(messages, lead=lead, should_stop=ctx.should_stop, progress=self.progress)
        except ContextFullError as exc:
            return self.outcome("done", str(exc))
        detail = f"{restored}{result.evaluated} tokens evaluated, {result.reused} reused of {result.total}"
        return self.outcome("done" if result.complete else "postponed", detail)



class DraftWarmJob(WarmJob):
    """Type-ahead warming: evaluate the prompt the message being typed will send, up to the
    input. Queued at a pause in typing (replacing the draft before it); a sent message drops it
    (``TurnPipeline`` discards waiting drafts), and a keystroke stops it between chunks."""

    name = "draft"

    def __init__(self, session_id: int, options: TurnOptions, draft: str, *, cache: KvCache | None = None,
                 cache_key: str | None = None, progress: Progress | None = None, owner: ContextOwner | None = None,
                 leaving: tuple[int, str] | None = None) -> None:
        super().__init__(session_id, options, stage="draft", cache=cache, cache_key=cache_key, progress=progress,
                         owner=owner, leaving=leaving)
        self.draft = draft

    def prefix(self, pipeline: TurnPipeline, session: Session) -> tuple[list[ChatMessage], str]:
        if self.owner is not None:  # this draft's own pages and lines, not an earlier draft's
            self.owner.recalled_pages, self.owner.recalled_words = (), ()
        plan, recorded = pipeline.preview(session, self.draft)
        if self.owner is not None:  # the turn keeps these pages first, in this order, with these lines
            self.owner.recalled_pages = tuple(i.page_id for i in plan.layers["recalled"].items
                                              if i.type == "page" and i.page_id is not None)
            self.owner.recalled_words = tuple(sorted(term_set(recorded.message.content)))
        return draft_lead(plan)
