"""The running summary as the prompt shows it: one plain sentence per field, out-of-date lines left out."""

from __future__ import annotations

import re

from desktop_app.memory.core.models import MemoryItem, SummaryContent, SummaryEntry
from desktop_app.memory.lang.text import numbers
from desktop_app.memory.prompt.render import plain_value
from desktop_app.prompts import layer_text, summary_labels


def stale_values(current: list[MemoryItem], history: list[MemoryItem]) -> frozenset[str]:
    """Numbers only superseded or revoked items hold: a summary line with one is out of date."""
    live = {n for i in current for n in numbers(i.value)}
    return frozenset(n for i in history for n in numbers(i.value) if n not in live)


def render_summary(content: SummaryContent | None, current_ids: set[int], *, lang: str = "en",
                   skip_topics: int = 0, stale: frozenset[str] | set[str] = frozenset()
                   ) -> tuple[str, list[SummaryEntry]]:
    """Text of the summary and the entries it shows: one sentence per field, in plain words.

    Entries tied to an item that is no longer current (``current_ids``) are left out, and so
    are untied lines (the model's, topic lines) that carry a ``stale`` value — a number only
    superseded or revoked items hold. ``skip_topics`` leaves out the oldest topic lines (to fit).
    """
    if content is None or (not content.topics and content.first_turn is None):
        return "", []
    labels = summary_labels(lang)
    layer = layer_text(lang)
    shown: list[SummaryEntry] = []
    lines: list[str] = []
    for field in ("topics", "decisions", "constraints", "facts", "preferences", "open_questions"):
        entries = [e for e in getattr(content, field) if (e.item_id is None or e.item_id in current_ids)
                   and not (e.item_id is None and stale & set(numbers(e.text)))]
        if field == "topics":
            entries = entries[skip_topics:]
        if not entries:
            continue
        label = labels["title"] if field == "topics" else labels[field]
        texts = [topic_text(e.text) if field == "topics" else e.text for e in entries]
        lines.append(f"{label}{layer['label_end']}{layer['join'].join(plain_value(x) for x in texts)}{layer['end']}")
        shown.extend(entries)
    return "\n".join(lines), shown


_TOPIC_HEAD = re.compile(r"^(?:turns?\s+[\d–-]+|earlier \([^)]*\))\s*:\s*")


_TOPIC_KEYWORDS = re.compile(r"\s*\[[^\]]*\]\s*$")


def topic_text(text: str) -> str:
    """A topic line without its turn range and keyword list (those are for programs, not the model)."""
    return _TOPIC_KEYWORDS.sub("", _TOPIC_HEAD.sub("", text)) or text
