"""The summary chain: every ``STAGE_PAGES`` archived pages a stage summary is
written over them and indexed for recall.

A question about turn 5 asked at turn 500 shares few words with any one of hundreds of pages,
and a page's bookmark holds only 2–4 keywords. A stage holds more: what its pages' bookmarks
say, the values of the memory items stated in them (also those later changed: a stage is a
record of what was said, never shown as current state), and the salient words of the user's
turns. Recall's ``stage`` signal matches stages first, then within a matched stage finds the
page (and its turns) that share most of the question's words — so the question reaches the
right page in two steps instead of competing with every turn at once.

Rule-written and instant, inside the page-out's transaction. The text is an index for recall;
it never enters the prompt (the recalled page's own turns do, with their stale-value checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop_app.memory.core.models import Stage
from desktop_app.memory.lang.text import clip, keywords

if TYPE_CHECKING:
    from desktop_app.memory.store import Store

STAGE_PAGES = 4  # pages per stage
STAGE_CHARS = 1500  # the stage text's length bound
ITEM_KINDS = ("directive", "constraint", "fact", "decision", "preference", "goal")


def stage_text(first_turn: int, last_turn: int, bookmarks: list[tuple[list[str], str]], item_values: list[str],
               user_texts: list[str]) -> str:
    """The stage's indexed text (pure): its turn span, the pages' bookmarks, the items stated
    in them and the salient words of the user's turns."""
    lines = [f"turns {first_turn}–{last_turn}"]
    lines += [f"{', '.join(words)}: {clip(description, 100)}" for words, description in bookmarks]
    lines += [clip(value, 120) for value in dict.fromkeys(item_values)]
    salient = keywords(user_texts, k=12) if user_texts else []
    if salient:
        lines.append(" ".join(salient))
    text = "\n".join(lines)
    return text if len(text) <= STAGE_CHARS else text[: STAGE_CHARS - 1] + "…"


def chain_if_due(store: Store, session_id: int, *, now: float, every: int = STAGE_PAGES) -> Stage | None:
    """Write the next stage when ``every`` pages are not covered by one yet (None otherwise).
    Called inside the page-out's transaction."""
    waiting = store.pages_after_stages(session_id)
    if len(waiting) < every:
        return None
    pages = waiting[:every]
    messages = store.pages_messages(pages)
    if not messages:
        return None
    marks = store.page_bookmarks(pages)
    items = [i for i in store.items_from_messages(session_id, [m.id for m in messages]) if i.kind in ITEM_KINDS]
    turns = [m.turn_number for m in messages]
    text = stage_text(min(turns), max(turns), [(b.keywords, b.description) for b in marks],
                      [i.value for i in items], [m.content for m in messages if m.role == "user"])
    return store.add_stage(session_id, first_page_id=pages[0], last_page_id=pages[-1], first_turn=min(turns),
                           last_turn=max(turns), text=text, author="rule", now=now)


def chain_pages(store: Store, session_id: int, *, now: float, every: int = STAGE_PAGES) -> int:
    """Write every stage that is due (an imported archive, a benchmark); returns how many."""
    written = 0
    with store.transaction():
        while chain_if_due(store, session_id, now=now, every=every) is not None:
            written += 1
    return written


def rebuild_chain(store: Store, session_id: int, *, now: float, every: int = STAGE_PAGES) -> int:
    """Write the session's stages again from its pages as they are now (after a forget took
    turns, items or whole pages: no stage keeps a word of what went); returns how many."""
    with store.transaction():
        store.delete_stages(session_id)
        return chain_pages(store, session_id, now=now, every=every)
