"""How memory is written into the prompt: anchors, state lines, recalled turns (zh + en).

Pure text formatting; no clock: times come from the rows. Hard items carry the 【关键】/KEY
mark (seed 000); every state line shows its id, value, source turn and time (seed 003);
recalled snippets are labelled as reference with turn number and time (seeds 001, 004).
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel

from desktop_app.memory.models import MemoryItem
from desktop_app.prompts import layer_text

KIND_ORDER = {"goal": 0, "directive": 1, "constraint": 2, "decision": 3, "fact": 4, "preference": 5,
              "open_question": 6}


def text_for(lang: str) -> dict[str, str]:
    """The layer labels for ``lang`` (from ``assets/prompts``)."""
    return layer_text(lang)


def stamp(ts: float | None) -> str:
    """Unix seconds as 'YYYY-MM-DD HH:MM' (UTC), the time label of prompts."""
    if ts is None:
        return "?"
    try:
        return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, ValueError, OSError):  # a time stored before imports checked them (1e300, NaN)
        return "?"


class TurnView(BaseModel):
    """A stored message as the assembler sees it."""

    id: int
    role: str
    content: str
    tokens: int
    turn: int
    created_at: float
    page_id: int | None = None


def turn_label(turn: int, created_at: float, lang: str) -> str:
    return f"{text_for(lang)['turn'].format(n=turn)}, {stamp(created_at)}"


def key_line(item: MemoryItem, item_turn: int | None, lang: str, *, with_time: bool = True) -> str:
    """A hard item marked 【关键】/KEY; anchors leave the time out to stay short (state has it)."""
    t = text_for(lang)
    if not with_time:
        where = t["turn"].format(n=item_turn) if item_turn else stamp(item.updated_at)
    else:
        where = turn_label(item_turn, item.updated_at, lang) if item_turn else stamp(item.updated_at)
    sep = "" if lang == "zh" else " "
    return f"{t['key']}{sep}#{item.id} [{item.kind}] {item.value} ({where})"


def goal_line(goal: MemoryItem, lang: str) -> str:
    t = text_for(lang)
    steps = goal.details.get("steps_done") or []
    done = f" ({t['done']}: {'; '.join(steps)})" if steps else ""
    return f"{t['goal']} #{goal.id}: {goal.value}{done}"


def state_line(item: MemoryItem, item_turn: int | None, lang: str) -> str:
    where = turn_label(item_turn, item.updated_at, lang) if item_turn else stamp(item.updated_at)
    pin = " 📌" if item.pinned else ""
    return f"#{item.id} [{item.kind}] {item.value} — {where}, v{item.state_version}{pin}"


def annotate(turn: TurnView, notes: dict[int, list[str]]) -> str:
    """A raw turn with memory notes appended (old values marked superseded or revoked)."""
    extra = notes.get(turn.id)
    return turn.content if not extra else turn.content + "\n" + "\n".join(extra)


def supersession_notes(history: list[MemoryItem], current: dict[int, MemoryItem], lang: str) -> dict[int, list[str]]:
    """Notes per source message id for items no longer current, so raw turns never show
    an old value as if it still held."""
    t = text_for(lang)
    by_supersedes = {i.supersedes: i for i in [*history, *current.values()] if i.supersedes is not None}
    notes: dict[int, list[str]] = {}
    for item in history:
        if item.source_message_id is None or item.details.get("proposal"):
            continue
        if item.status == "superseded":
            newer = by_supersedes.get(item.id)
            while newer is not None and newer.status == "superseded" and newer.id in by_supersedes:
                newer = by_supersedes[newer.id]
            note = t["superseded"].format(value=item.value, by=newer.id if newer else "?",
                                          new=newer.value if newer else "?")
        elif item.status == "revoked":
            note = t["revoked"].format(value=item.value)
        else:
            continue
        notes.setdefault(item.source_message_id, []).append(note)
    return notes
