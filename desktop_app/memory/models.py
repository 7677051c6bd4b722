"""Rows leaving the store, as pydantic models (the store's converters build them)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Literal

from pydantic import BaseModel, ConfigDict

Role = Literal["system", "user", "assistant"]


def iso(ts: float | None) -> str | None:
    """Unix seconds -> ISO-8601 UTC text (what JSON output shows)."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat(timespec="seconds")


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
