"""What a turn's prompt is made of, typed: the layers, their items, what was left out.

:class:`ContextPlan` is the one result of planning a prompt (``assemble_context`` returns it,
``context --json`` prints it, ``turn_log`` keeps it). The layer order and the context modes
are defined here and nowhere else.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from desktop_app.engine.protocol import ChatMessage
from desktop_app.memory.core.recall_hits import RecallHit, SignalScore

# The prompt order: stable head first, volatile tail last (what keeps the KV cache warm).
LayerName = Literal["system", "anchors", "state", "summary", "recent", "changes", "recalled", "input"]
LAYER_ORDER: tuple[str, ...] = get_args(LayerName)
ContextMode = Literal["layered", "sliding", "summary", "retrieval", "full"]
MODES: tuple[str, ...] = get_args(ContextMode)
DEFAULT_MODE: ContextMode = "layered"


class LayerItem(BaseModel):
    """One thing a layer holds: a memory item, a summary line, a turn, a recalled page or a replay.

    Which fields are set depends on the layer (memory items: ``id``/``kind``/``value``; turns:
    ``message_id``/``role``/``turn``; recalled pages: ``type='page'``/``page_id``/``hits``; document
    chunks: ``type='doc'``/``document_id``/``chunk_id``/``document``/``page``/``heading``/``signals``)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["page", "replay", "doc", "new", "changed", "updated", "revoked", "confirmed"] | None = None
    id: int | None = None
    kind: str | None = None
    status: str | None = None
    value: str | None = None
    pinned: bool | None = None
    scope: str | None = None  # "profile" for an item every session sees (None: this session's)
    text: str | None = None  # a summary line
    item_id: int | None = None  # the memory item a summary line stands for
    message_id: int | None = None
    role: str | None = None
    turn: int | None = None
    tokens: int | None = None
    score: float | None = None
    page_id: int | None = None
    source: str | None = None
    turns: list[int] | None = None  # first and last turn of a recalled page
    hits: list[RecallHit] | None = None  # the recall hits behind a page, with per-signal scores
    document_id: int | None = None  # a document chunk: which document, which chunk, where in it
    chunk_id: int | None = None
    document: str | None = None
    page: int | None = None
    heading: str | None = None
    signals: dict[str, SignalScore] | None = None  # a chunk's per-signal scores (bm25 / vector)


class Layer(BaseModel):
    """One of the seven parts of the prompt, with its exact token cost."""

    tokens: int = 0
    text: str = ""
    items: list[LayerItem] = Field(default_factory=list)


class Exclusion(BaseModel):
    """Something that did not make it into the prompt, and why."""

    layer: LayerName
    id: int | None = None
    reason: str
    score: float | None = None


def empty_layers() -> dict[str, Layer]:
    return {name: Layer() for name in LAYER_ORDER}


class ContextPlan(BaseModel):
    """What will be sent for a turn: the messages plus per-layer accounting."""

    mode: ContextMode
    messages: list[ChatMessage]
    layers: dict[str, Layer] = Field(default_factory=empty_layers)
    total_tokens: int
    budget: int
    n_ctx: int
    excluded: list[Exclusion] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    counter_name: str = ""
    # What the message is asks of the reply (memory.turn.TurnPipeline.plan): the program's words said before the
    # model's (a summary's list of what memory holds), and at most this many tokens (a passing remark's sentence or two).
    lead: str = ""
    reply_tokens: int | None = None

    def with_note(self, note: str, *, at_input: bool = False) -> ContextPlan:
        """This plan with ``note`` on a line at the start of the final message, or ``at_input``, right before the
        input text: what the message is asks of the reply, after the changes block and the recalled text (the
        prefix idle-time warming evaluates stays the same)."""
        messages = list(self.messages)
        if not note or not messages or messages[-1]["role"] != "user":
            return self
        final, text = messages[-1]["content"], self.layer("input").text
        at = len(final) - len(text) if at_input and text and final.endswith(text) else 0
        messages[-1] = {**messages[-1], "content": f"{final[:at]}{note}\n\n{final[at:]}"}
        return self.model_copy(update={"messages": messages})

    @property
    def usage(self) -> float:
        return self.total_tokens / self.n_ctx if self.n_ctx else 0.0

    @property
    def over_warning(self) -> bool:
        return self.usage > WARN_SHARE

    def layer(self, name: str) -> Layer:
        return self.layers.get(name) or Layer()

    def recall_hits(self) -> list[RecallHit]:
        """The recall hits that made it into the prompt (from the recalled layer's pages)."""
        return [hit for item in self.layer("recalled").items if item.type == "page" for hit in item.hits or []]

    def document_items(self) -> list[LayerItem]:
        """The document chunks that made it into the prompt (labels, pages, per-signal scores)."""
        return [item for item in self.layer("recalled").items if item.type == "doc"]

    def recalled_message_ids(self) -> list[int]:
        return [hit.message_id for hit in self.recall_hits()]


def layers_json(layers: dict[str, Layer], *, with_text: bool = True) -> dict[str, dict[str, Any]]:
    """Layers as the ``context --json`` contract has them (docs/architecture.md):
    ``{NAME: {tokens, text, items}}`` in prompt order."""
    out = {}
    for name in LAYER_ORDER:
        layer = layers.get(name) or Layer()
        data = {"tokens": layer.tokens, "items": [i.model_dump(mode="json", exclude_none=True) for i in layer.items]}
        if with_text:
            data = {"tokens": layer.tokens, "text": layer.text, "items": data["items"]}
        out[name] = data
    return out


WARN_SHARE = 0.80
