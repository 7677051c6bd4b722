"""The per-turn record (``turn_log``): what the inspector, the turn-record widget, the context
meter and the memory notices read, typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from desktop_app.memory.core.plan import ContextPlan, Exclusion, Layer
from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.lang.notices import render_notice

if TYPE_CHECKING:
    from desktop_app.engine.protocol import ChatEngine

# Layers whose text is already stored elsewhere (the system prompt, the turns) keep only counts.
_TEXTLESS = ("system", "recent")


class RecallLog(BaseModel):
    """The recall hits that entered the prompt, with their per-signal scores."""

    hits: list[RecallHit] = Field(default_factory=list)


class MemoryWork(BaseModel):
    """What model memory work cost for one turn (shown by the inspector)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    @classmethod
    def of_call(cls, engine: ChatEngine, seconds: float) -> MemoryWork:
        """One model call, with the token counts the engine kept of it."""
        return cls(calls=1, prompt_tokens=getattr(engine, "last_prompt_tokens", 0) or 0,
                   completion_tokens=getattr(engine, "last_completion_tokens", 0) or 0, seconds=round(seconds, 3))

    def plus(self, other: MemoryWork) -> MemoryWork:
        return MemoryWork(calls=self.calls + other.calls, prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                          completion_tokens=self.completion_tokens + other.completion_tokens,
                          seconds=round(self.seconds + other.seconds, 3))


class PrefillLog(BaseModel):
    """A turn's pre-fill: of ``prompt_tokens``, ``reused`` came from the evaluated prefix
    (kept from the last turn, warmed while idle, or restored from the saved state)."""

    prompt_tokens: int
    reused: int

    @property
    def evaluated(self) -> int:
        return max(0, self.prompt_tokens - self.reused)


class ReplyHealth(BaseModel):
    """What the reply checks found (memory.reply_health): each attempt's findings, whether the
    reply was asked for again, and whether the kept reply stays out of the model's history."""

    attempts: list[list[str]] = Field(default_factory=list)  # "kind: detail" per finding, per attempt
    retried: bool = False
    first_reply: str = ""  # the rejected first attempt, when there was a retry
    kept_out: bool = False
    # No attempt answered a message that only told something: the program said what memory took in
    # (memory.acknowledgment) in place of ``model_reply``, the model's last attempt.
    acknowledged: bool = False
    model_reply: str = ""
    # Asked what the user said, the reply named none of it: the program's sentence saying what memory holds
    # (memory.recollection), added after the reply.
    recollected: str = ""


GuardKind = Literal["superseded", "limit", "directive", "revoked", "omitted", "ruled_out", "cut_off"]


class GuardFinding(BaseModel):
    """One disagreement between a reply and memory (``memory.reply_guard``), naming its item."""

    kind: GuardKind
    item: int | None  # the memory item concerned (None for cut_off)
    detail: str
    current: str = ""  # the value or rule in force, for the correction and the note
    old: str = ""  # the superseded value or dropped rule the reply used


class GuardVerdict(BaseModel):
    """What the reply guard found on a turn, and whether the reply was asked for again."""

    findings: list[GuardFinding] = Field(default_factory=list)  # of the reply kept
    first_findings: list[GuardFinding] = Field(default_factory=list)  # of the first attempt, when retried
    retried: bool = False
    first_reply: str = ""
    mode: str = "fix"
    completed: list[str] = Field(default_factory=list)  # values the program added to a summary that left them out
    added: str = ""  # the lines that added them, at the end of the reply
    model_text: str = ""  # the reply as the model wrote it, when the program left sentences of it out

    @property
    def ok(self) -> bool:
        return not self.findings


class ItemUse(BaseModel):
    """One memory item the prompt held for a turn; ``used`` when the reply shows its value."""

    id: int
    kind: str
    value: str
    used: bool


class TurnRecord(BaseModel):
    """One turn as logged: layers (tokens, items), exclusions and why, memory changes, paging."""

    mode: str
    total_tokens: int
    budget: int
    n_ctx: int
    counter: str = ""
    layers: dict[str, Layer] = Field(default_factory=dict)
    excluded: list[Exclusion] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    memory: list[MemoryOutcome] = Field(default_factory=list)
    paging: PagingEvent | None = None
    recall: RecallLog = Field(default_factory=RecallLog)
    first_token_seconds: float | None = None
    prefill: PrefillLog | None = None  # what the engine evaluated afresh (engines that report it)
    memory_work: MemoryWork | None = None  # model memory work for this turn, added when its jobs ran
    health: ReplyHealth | None = None  # the reply checks (absent in records from before they ran)
    guard: GuardVerdict | None = None  # the reply checked against memory (absent when the guard is off)
    in_use: list[ItemUse] | None = None  # the memory the prompt gave the model, and what the reply used

    @classmethod
    def of(cls, plan: ContextPlan, *, memory: list[MemoryOutcome], paging: PagingEvent | None,
           first_token_seconds: float | None, prefill: PrefillLog | None = None,
           health: ReplyHealth | None = None) -> TurnRecord:
        layers = {name: layer.model_copy(update={"text": ""}) if name in _TEXTLESS else layer
                  for name, layer in plan.layers.items()}
        return cls(mode=plan.mode, total_tokens=plan.total_tokens, budget=plan.budget, n_ctx=plan.n_ctx,
                   counter=plan.counter_name, layers=layers, excluded=plan.excluded, warnings=plan.warnings,
                   memory=memory, paging=paging, recall=RecallLog(hits=plan.recall_hits()),
                   first_token_seconds=first_token_seconds, prefill=prefill, health=health)


class TurnLogEntry(BaseModel):
    """A ``turn_log`` row: which messages the turn joined, and its record."""

    id: int
    session_id: int
    user_message_id: int | None = None
    reply_message_id: int | None = None
    mode: str
    created_at: float
    record: TurnRecord


class PagingEvent(BaseModel):
    """One page-out, as logged in ``turn_log`` and shown by the inspector."""

    page_id: int
    first_message_id: int
    last_message_id: int
    turns: list[int]
    messages: int
    tokens: int
    recent_before: int
    recent_after: int
    high_watermark: int
    low_watermark: int
    bookmark_id: int
    keywords: list[str]
    summary_version: int
    kept_turns: list[int] = []  # older turns a paging decision kept in the context this time
    stage_id: int | None = None  # the stage summary this page-out completed (the summary chain)


class MemoryOutcome(BaseModel):
    """What one candidate did to memory; its notice is shown to the user (and pending ones asked):
    ``notice_key`` and ``notice_args`` for any language (``memory.notices``), ``notice`` in English."""

    action: str  # added | superseded | pending | revoked | confirmed | rejected | step | duplicate | ignored
    item_ids: list[int] = []
    notice: str = ""
    notice_key: str = ""
    notice_args: dict[str, object] = {}

    @classmethod
    def told(cls, action: str, key: str, item_ids: list[int] | None = None, **args: object) -> MemoryOutcome:
        return cls(action=action, item_ids=item_ids or [], notice=render_notice(key, args), notice_key=key,
                   notice_args=args)

    def notice_in(self, lang: str) -> str:
        """The notice in ``lang`` (the stored English text when it has no key)."""
        return render_notice(self.notice_key, self.notice_args, lang) if self.notice_key else self.notice
