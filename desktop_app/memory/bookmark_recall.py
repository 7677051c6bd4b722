"""Page-in by keyword and bookmark: which archived pages to bring back for this input.

This is the simple recall of the memory-core issue. Hybrid recall (FTS5 + sqlite-vec, in
``desktop_app.memory.recall``) replaces :func:`keyword_recall` at the one seam below,
:func:`recall_pages`, which is all the assembler calls.
"""

from __future__ import annotations

import math
from bisect import bisect_right

from desktop_app.memory.assembly import RecalledPage
from desktop_app.memory.models import Message
from desktop_app.memory.render import TurnView
from desktop_app.memory.text import term_set

MIN_SCORE = 1.5
MIN_TEXT_HITS = 2  # without a bookmark keyword, at least this many distinct shared words


def turn_numbers(user_ids: list[int], message_ids: list[int]) -> dict[int, int]:
    """Turn number of each message: the count of user messages up to and including it."""
    return {mid: max(1, bisect_right(user_ids, mid)) for mid in message_ids}


def turn_views(messages: list[Message], user_ids: list[int], counter=None) -> list[TurnView]:
    """Messages as :class:`TurnView` with turn numbers (token counts filled in when missing)."""
    turns = turn_numbers(user_ids, [m.id for m in messages])
    return [TurnView(id=m.id, role=m.role, content=m.content, turn=turns[m.id], created_at=m.created_at,
                     tokens=m.token_count or (counter.count(m.content) if counter else 0))
            for m in messages if m.role in ("user", "assistant")]


def recall_pages(store, session_id: int, text: str, *, k: int = 2, user_ids: list[int] | None = None) -> list[RecalledPage]:
    """The archived pages most relevant to ``text``, best first.

    Hybrid recall (``desktop_app.memory.recall``: FTS5 + sqlite-vec + bookmarks, vectors when
    an embedder is registered with ``use_embedder``) returns the archived turns that match,
    grouped by page (``k`` is kept for callers; hybrid recall brings at most 5 turns).
    :func:`keyword_recall` is the earlier page-level scorer, kept for comparison.
    """
    from desktop_app.memory.recall import recalled_pages

    ids = user_ids if user_ids is not None else store.user_message_ids(session_id)
    return recalled_pages(store, session_id, text, user_ids=ids)


def keyword_recall(store, session_id: int, text: str, *, k: int = 2,
                   user_ids: list[int] | None = None) -> list[RecalledPage]:
    """Score pages by bookmark keywords (weight 2) and page words (weight 1, length-damped)."""
    query = term_set(text)
    if not query or k <= 0:
        return []
    pages = store.list_pages(session_id)
    if not pages:
        return []
    bookmarks_by_page: dict[int, list] = {}
    for bm in store.list_bookmarks(session_id):
        page_id = bm.page_id if bm.page_id is not None else (
            store.page_of_message(bm.message_id) if bm.message_id else None)
        if page_id is not None:
            bookmarks_by_page.setdefault(page_id, []).append(bm)
    scored: list[tuple[float, int, list[Message]]] = []
    for page in pages:
        messages = store.page_messages(page.id)
        words = term_set(" ".join(m.content for m in messages))
        marks = bookmarks_by_page.get(page.id, [])
        mark_words = set().union(*(term_set(" ".join(b.keywords) + " " + b.description) for b in marks)) if marks else set()
        user_marked = any(b.origin == "user" for b in marks)
        mark_hits, text_hits = len(query & mark_words), len(query & words)
        if not mark_hits and text_hits < MIN_TEXT_HITS:
            continue  # one shared common word is not a reason to page a whole page back in
        score = 2.0 * mark_hits + text_hits / math.sqrt(max(1.0, len(words) / 20))
        if user_marked and mark_hits:
            score += 1.0
        if score >= MIN_SCORE:
            scored.append((score, page.id, messages))
    scored.sort(key=lambda s: (-s[0], -s[1]))
    ids = user_ids if user_ids is not None else store.user_message_ids(session_id)
    return [RecalledPage(page_id=page_id, score=score, source="bookmark", turns=turn_views(messages, ids))
            for score, page_id, messages in scored[:k]]
