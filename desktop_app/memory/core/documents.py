"""Documents as they leave the store and as retrieval returns them (pydantic: they leave as ``--json``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from desktop_app.memory.core.recall_hits import SignalScore


class Document(BaseModel):
    """One added file, in the library (``session_id`` None) or attached to one session."""

    id: int
    name: str
    path: str
    content_hash: str
    size: int
    mtime: float | None = None
    format: str
    pages: int = 0
    chunk_count: int = 0
    language: str | None = None
    session_id: int | None = None
    added_at: float
    indexed_at: float

    @property
    def scope(self) -> str:
        return "library" if self.session_id is None else "session"


class DocumentSection(BaseModel):
    """A stored run of text under one heading on one page (what ``docs show`` prints)."""

    seq: int
    page: int | None = None
    heading: str | None = None
    text: str


def citation(name: str, page: int | None, heading: str | None = None) -> str:
    """``doc: name, p. N §heading`` — the label a chunk carries in the prompt and in replies."""
    label = f"doc: {name}"
    if page is not None:
        label += f", p. {page}"
    if heading:
        short = heading if len(heading) <= 60 else heading[:59] + "…"
        label += f" §{short}"
    return label


class DocumentHit(BaseModel):
    """A chunk that retrieval found, with where it comes from and why it ranked."""

    chunk_id: int
    document_id: int
    document: str = Field(description="the document's name")
    page: int | None = None
    heading: str | None = None
    text: str
    signals: dict[str, SignalScore] = Field(
        default_factory=dict, description="bm25 / vector, and bm25:translated / vector:translated for the question's "
                                          "translation into the document's language")
    fused: float = 0.0
    coverage: float = Field(0.0, description="share of the question's terms found in the chunk")
    translated_coverage: float = Field(0.0, description="share of the translated question's terms found in it")
    translated_into: str | None = Field(None, description="the translation's language (en, zh), when there was one")

    @property
    def label(self) -> str:
        return citation(self.document, self.page, self.heading)
