"""Recall re-ranking by the model: of the top hybrid candidates, the model
picks the few that help answer the question; they move to the front, the rest keep their order.

Measured with ``paperclip bench recall --rerank N`` on LoCoMo; off unless it raises recall@5
(see docs/benchmarks/recall.md). Invalid output, a stop or a full window leave the hybrid order as it was.
"""

from __future__ import annotations

from typing import Any

from desktop_app.engine.errors import ContextFullError, GenerationStopped, JSONOutputError
from desktop_app.engine.protocol import ChatEngine, ChatMessage, StopCheck
from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.lang.text import clip
from desktop_app.prompts import templates

CANDIDATES = 8
PICKS = 3


def rerank_schema(count: int) -> dict[str, Any]:
    return {"type": "object", "required": ["best"], "additionalProperties": False,
            "properties": {"best": {"type": "array", "maxItems": PICKS,
                                    "items": {"type": "integer", "minimum": 1, "maximum": count}}}}


def rerank_messages(question: str, hits: list[RecallHit], lang: str = "en") -> list[ChatMessage]:
    spec = templates(lang)["rerank"]
    passages = "\n".join(f"[{n}] {hit.role}: {clip(hit.snippet, 200)}" for n, hit in enumerate(hits, start=1))
    return [{"role": "system", "content": spec["system"]},
            {"role": "user", "content": spec["ask"].format(question=question, passages=passages)}]


def rerank(engine: ChatEngine, question: str, hits: list[RecallHit], *, lang: str = "en",
           should_stop: StopCheck | None = None) -> list[RecallHit]:
    """``hits`` with the model's picks among the first ``CANDIDATES`` moved to the front."""
    head = hits[:CANDIDATES]
    if len(head) < 2:
        return hits
    try:
        reply = engine.complete_json(rerank_messages(question, head, lang), rerank_schema(len(head)), max_tokens=24,
                                     should_stop=should_stop)
    except (JSONOutputError, GenerationStopped, ContextFullError):
        return hits
    picks: list[RecallHit] = []
    for number in reply.get("best", []):
        if isinstance(number, int) and 1 <= number <= len(head) and head[number - 1] not in picks:
            picks.append(head[number - 1])
    return [*picks, *(h for h in hits if h not in picks)]
