"""Turn numbers: what "turn N" means everywhere in the memory core.

A *message* is one stored row (user or assistant). *Turn N* is the N-th user message of a
session together with the reply to it; each message carries its turn number from the moment
it is stored (``messages.turn``), so numbering never re-counts the history. Labels are
stable: forgetting a turn leaves a gap instead of renumbering what follows.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from desktop_app.engine.protocol import TokenCounter
from desktop_app.memory.core.models import MemoryItem, Message

# How a reply the program wrote in place of the model's is marked as kept out of the model's history
# (memory.acknowledgment): the 0.5B, shown "好的，记下了：人数。", said it to the next three messages (run L).
ACKNOWLEDGED = "acknowledged"


def turn_views(messages: Iterable[Message], counter: TokenCounter | None = None) -> list[TurnView]:
    """User and assistant messages as :class:`TurnView` (token counts filled in when missing)."""
    return [TurnView(id=m.id, role=m.role, content=m.content, turn=m.turn_number, created_at=m.created_at,
                     page_id=m.page_id, tokens=m.token_count or (counter.count(m.content) if counter else 0),
                     unhealthy=bool(m.unhealthy), imported=m.ext_id is not None,
                     acknowledgment=(m.unhealthy or "").startswith(ACKNOWLEDGED))
            for m in messages if m.role in ("user", "assistant")]


def item_turns(items: Iterable[MemoryItem], turn_of_message: dict[int, int]) -> dict[int, int]:
    """Item id → the turn number of the message it came from (items without a source are left out)."""
    return {i.id: turn_of_message[i.source_message_id] for i in items
            if i.source_message_id is not None and i.source_message_id in turn_of_message}


class TurnView(BaseModel):
    """A stored message as the assembler sees it."""

    id: int
    role: str
    content: str
    tokens: int
    turn: int
    created_at: float
    page_id: int | None = None
    unhealthy: bool = False  # a degenerate reply: the user keeps it, the model's history leaves it out
    acknowledgment: bool = False  # … or the program's words in place of one (the 0.5B copies them if shown)
    imported: bool = False  # brought in from another conversation (not this model's own reply)
