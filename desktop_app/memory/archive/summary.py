"""The rolling summary: updated incrementally when a page is archived (old summary + page → new).

Rule-based, so it works with any model. Fixed fields keep facts, decisions, constraints,
preferences and speculation (open questions) apart. Hard values also live as memory items —
the summary is never their only home — and entries whose item was superseded or revoked are
not rendered, so the summary never presents an old value as current.
"""

from __future__ import annotations

from desktop_app.memory.core.models import Bookmark, MemoryItem, Message, SummaryContent, SummaryEntry
from desktop_app.memory.lang.text import clip

MAX_TOPICS = 12
MAX_PER_FIELD = 10
FIELD_OF_KIND = {"decision": "decisions", "constraint": "constraints", "directive": "constraints",
                 "fact": "facts", "preference": "preferences", "open_question": "open_questions"}

def summarise_page(previous: SummaryContent | None, page_messages: list[Message], page_items: list[MemoryItem],
              bookmark: Bookmark | None, turn_of: dict[int, int]) -> SummaryContent:
    """The next summary: ``previous`` plus what the archived page added."""
    content = (previous or SummaryContent()).model_copy(deep=True)
    turns = [turn_of[m.id] for m in page_messages if m.id in turn_of]
    first, last = (min(turns), max(turns)) if turns else (None, None)
    if first is not None and last is not None:
        content.first_turn = first if content.first_turn is None else min(content.first_turn, first)
        content.last_turn = last if content.last_turn is None else max(content.last_turn, last)
    label = f"{first}–{last}" if first is not None and first != last else f"{first}"
    if bookmark is not None:
        topic = f"turns {label}: {bookmark.description} [{', '.join(bookmark.keywords)}]"
    else:
        user_lines = [m.content for m in page_messages if m.role == "user"]
        topic = f"turns {label}: {clip(user_lines[0] if user_lines else page_messages[0].content, 80)}"
    content.topics.append(SummaryEntry(text=topic, turn=first))
    for item in page_items:
        field = FIELD_OF_KIND.get(item.kind)
        if field is None:
            continue
        entries: list[SummaryEntry] = getattr(content, field)
        if any(e.item_id == item.id for e in entries):
            continue
        entries.append(SummaryEntry(text=clip(item.value, 160), turn=turn_of.get(item.source_message_id or -1),
                                    item_id=item.id))
    _bound(content)
    return content


def _bound(content: SummaryContent) -> None:
    if len(content.topics) > MAX_TOPICS:
        old = content.topics[: len(content.topics) - MAX_TOPICS + 1]
        merged = "; ".join(e.text.split(":", 1)[0] for e in old)
        content.topics = [SummaryEntry(text=f"earlier ({merged}) — see bookmarks", turn=old[0].turn),
                          *content.topics[len(old):]]
    for field in FIELD_OF_KIND.values():
        entries = getattr(content, field)
        if len(entries) > MAX_PER_FIELD:
            setattr(content, field, entries[-MAX_PER_FIELD:])


