"""What the model proposes for memory: the JSON schema it fills, the prompt, the parsed entries.

The model never writes memory. It fills a fixed JSON template — one entry per
fact, each with the verbatim quote it rests on — and :mod:`desktop_app.memory.write.vetting` decides
what of it may be applied. The prompt's wording and few-shot examples live in
``assets/prompts/{lang}.toml`` (``[extract]``); building the messages is a pure function, and
the instructions plus examples form a stable head, so llama.cpp re-evaluates only the tail.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from desktop_app.engine.protocol import ChatMessage
from desktop_app.memory.core.models import MEMORY_KINDS, MemoryKind, Scope
from desktop_app.prompts import templates

MAX_ENTRIES = 4
EXTRACT_MAX_TOKENS = 320  # a grammar does not bound the length; this does (4 entries ≈ 240 tokens)
MAX_KNOWN_SUBJECTS = 12
MAX_MESSAGE_CHARS = 1200  # longer messages are proposed on in slices of sentences

ENTRY_SCHEMA = {
    "type": "object",
    "properties": {
        "quote": {"type": "string", "maxLength": 200},
        "subject": {"type": "string", "maxLength": 40},
        "value": {"type": "string", "maxLength": 80},
        "kind": {"enum": list(MEMORY_KINDS)},
        "scope": {"enum": ["profile", "session"]},
        "change": {"enum": ["new", "update", "cancel"]},
    },
    "required": ["quote", "subject", "value", "kind", "scope", "change"],
}
EXTRACT_SCHEMA = {
    "type": "object",
    "properties": {"items": {"type": "array", "maxItems": MAX_ENTRIES, "items": ENTRY_SCHEMA}},
    "required": ["items"],
}


class Proposal(BaseModel):
    """One entry the model proposes: a fact, a rule, a change or a cancellation."""

    quote: str = Field(min_length=1, max_length=400)
    subject: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=200)
    kind: MemoryKind
    scope: Scope = "session"
    change: Literal["new", "update", "cancel"] = "new"

    @field_validator("quote", "subject", "value")
    @classmethod
    def _strip(cls, text: str) -> str:
        text = " ".join(text.split())
        if not text:
            raise ValueError("must not be blank")
        return text


class ProposalError(ValueError):
    """The model's reply does not fit the template (it is retried once, then the rules stand)."""


def parse_proposals(data: dict[str, Any]) -> list[Proposal]:
    """The entries of a schema-constrained reply; malformed entries make the whole reply invalid."""
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise ProposalError("the reply has no 'items' list")
    try:
        return [Proposal.model_validate(entry) for entry in data["items"][:MAX_ENTRIES]]
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ProposalError(f"entry field {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


def _example_messages(examples: list[dict[str, Any]]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for example in examples:
        out.append({"role": "user", "content": example["message"]})
        items = json.loads(example["items"]) if isinstance(example["items"], str) else example["items"]
        out.append({"role": "assistant", "content": json.dumps({"items": items}, ensure_ascii=False)})
    return out


def extraction_messages(text: str, known_subjects: list[str], *, lang: str = "en", short: bool = False) -> list[ChatMessage]:
    """The prompt asking the model to fill the template for one user message.

    The head (instructions and examples) never changes; the subjects memory already holds
    follow, so a change reuses the same subject. ``short`` (the retry after invalid output)
    keeps only the instructions and two examples."""
    spec = templates(lang)["extract"]
    examples = spec["examples"][:2] if short else spec["examples"]
    messages: list[ChatMessage] = [{"role": "system", "content": spec["system"]}, *_example_messages(examples)]
    known = "; ".join(dict.fromkeys(s for s in known_subjects if s))[:600]
    tail = spec["known"].format(subjects=known) + "\n" if known else ""
    messages.append({"role": "user", "content": tail + text[:MAX_MESSAGE_CHARS]})
    return messages
