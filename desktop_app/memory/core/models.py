"""Rows leaving the store, as pydantic models (the store's converters build them)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["system", "user", "assistant"]


def iso(ts: float | None) -> str | None:
    """Unix seconds -> ISO-8601 UTC text (what JSON output shows)."""
    if ts is None:
        return None
    try:
        return datetime.fromtimestamp(ts, tz=UTC).isoformat(timespec="seconds")
    except (OverflowError, ValueError, OSError):  # a time stored before imports checked them (1e300, NaN)
        return None


class Session(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    mode: str | None = None
    system_prompt: str | None = None
    state_version: int = 0
    created_at: float
    updated_at: float
    message_count: int = 0


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    role: Role
    content: str
    content_hash: str
    token_count: int = 0
    stopped: bool = False
    created_at: float
    ext_id: str | None = None
    turn: int = 0  # user messages up to and including this one (set when stored)
    page_id: int | None = None  # the page it was archived into; None while in the recent layer
    unhealthy: str | None = None  # a reply kept out of the model's history, and why (memory.reply_health)

    @property
    def turn_number(self) -> int:
        """The turn label shown in prompts: a reply before any user message counts as turn 1."""
        return max(1, self.turn)


MemoryKind = Literal["directive", "fact", "constraint", "preference", "decision", "goal", "open_question"]
ItemStatus = Literal["active", "superseded", "revoked", "pending"]
Origin = Literal["rule", "user", "command", "model", "import"]
Scope = Literal["session", "profile"]
# The value of a pending question "did you mean to drop a rule?" opens with this mark (the memory
# panel shows it; a prompt shows the user's words without it).
REVOKE_MARK = "revoke? "
# Subjects that describe the user, not the task: they go to the profile every session sees.
PROFILE_SUBJECTS: tuple[str, ...] = ("name", "location", "occupation", "allergy", "diet", "address", "family",
                                     "pets", "health", "age", "weight", "income", "lacks")
MEMORY_KINDS: tuple[str, ...] = ("directive", "fact", "constraint", "preference", "decision", "goal",
                                 "open_question")
# Kinds that are "hard": they go to the anchor zone and are replayed next to the input.
HARD_KINDS: tuple[str, ...] = ("directive", "constraint")


class MemoryItem(BaseModel):
    """One row of the authoritative state table, with its provenance."""

    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    kind: MemoryKind
    subject: str
    value: str
    status: ItemStatus
    pinned: bool = False
    origin: str
    scope: Scope = "session"  # "profile": owned by the hidden profile session, seen by every session
    source_message_id: int | None = None
    source_quote: str | None = None
    supersedes: int | None = None
    details: dict[str, Any] = {}
    state_version: int
    reference_count: int = 0
    last_referenced_at: float | None = None
    created_at: float
    updated_at: float

    @property
    def is_hard(self) -> bool:
        return self.kind in HARD_KINDS


class MemoryChange(BaseModel):
    """One line of an item's history: what a validated patch did to it."""

    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    state_version: int
    item_id: int | None
    action: str
    patch: dict[str, Any]
    created_at: float


class Page(BaseModel):
    """Turns that left the context together (archived, still verbatim in messages): a range,
    less the exchanges a paging decision kept in the context a while longer."""

    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    first_message_id: int
    last_message_id: int
    message_count: int
    token_count: int
    start_time: float
    end_time: float
    archived_at: float


class Bookmark(BaseModel):
    """2-4 keywords and a one-line description pointing at a page (or, for /bookmark, a message)."""

    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    page_id: int | None = None
    message_id: int | None = None
    keywords: list[str]
    description: str
    origin: Literal["auto", "user"]
    author: Literal["rule", "model", "user"] = "rule"  # who chose the words of an automatic bookmark
    created_at: float


class PagingAdvice(BaseModel):
    """Whether an exchange (keyed by its user message) may leave at the next page-out."""

    model_config = ConfigDict(frozen=True)

    message_id: int
    decision: Literal["keep", "evict"]
    origin: Literal["rule", "model"]
    reason: str = ""
    input_message_id: int | None = None
    created_at: float


class Stage(BaseModel):
    """A stage summary: a few lines over several consecutive pages, indexed for recall (the
    summary chain: a question about an early turn finds its stage, then the page in it)."""

    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    first_page_id: int
    last_page_id: int
    first_turn: int
    last_turn: int
    text: str
    author: Literal["rule", "model"]
    created_at: float


class SummaryEntry(BaseModel):
    """One line of the rolling summary; ``item_id`` ties it to a memory item when there is one."""

    text: str
    turn: int | None = None
    item_id: int | None = None


class SummaryContent(BaseModel):
    """The fixed fields of the rolling summary: facts, decisions and speculation kept apart."""

    topics: list[SummaryEntry] = []
    decisions: list[SummaryEntry] = []
    constraints: list[SummaryEntry] = []
    facts: list[SummaryEntry] = []
    preferences: list[SummaryEntry] = []
    open_questions: list[SummaryEntry] = []
    first_turn: int | None = None
    last_turn: int | None = None
    author: str = "rule"  # "model" once the model's checked summary replaced the rule fields


class Summary(BaseModel):
    """A stored version of the rolling summary."""

    model_config = ConfigDict(frozen=True)

    id: int
    session_id: int
    version: int
    content: SummaryContent
    through_message_id: int | None
    created_at: float


class SearchHit(BaseModel):
    """A stored turn that matched a search, with its session's name."""

    message_id: int
    session_id: int
    session_name: str
    role: str
    content: str
    created_at: float
