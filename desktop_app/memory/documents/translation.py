"""The question in the documents' language, so a Chinese question finds an English manual's
page and an English question a Chinese one.

Multilingual-e5 brings questions and chunks of two languages closer, but not close enough:
on the blind cross-language document questions (``paperclip bench docs --set paraphrase``)
a gold chunk reached the prompt for 25 of 40 without a translation and 38 of 40 with the
default model's. The chat model writes it on a context of its own (its chat context keeps its
evaluated prefix), once per question, only when a document in scope is written in the other
language. A translation is a search wording, never shown and never stored: a poor one (the
0.5B sometimes answers instead of translating) still carries the other language's terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from desktop_app.engine.errors import EngineError
from desktop_app.engine.protocol import ChatEngine, ChatMessage, StopCheck
from desktop_app.languages import LANGS
from desktop_app.memory.core.documents import Document
from desktop_app.memory.lang.text import script_language
from desktop_app.prompts import templates

MAX_TOKENS = 60  # a question, not an essay (a grammar would not bound it either)
MAX_CHARS = 300


def translation_target(question: str, documents: Sequence[Document]) -> str | None:
    """The language to search ``documents`` in besides the question's own ("en" or "zh"), or
    None when every document is in the question's language (or either is unknown)."""
    asked = script_language(question)
    if asked is None:
        return None
    others = {d.language for d in documents} & set(LANGS) - {asked}
    return next(iter(others), None)


def translation_messages(question: str, target: str) -> list[ChatMessage]:
    """The prompt: the target language's instruction and one example, then the question."""
    spec = templates(target)["translate"]
    return [{"role": "system", "content": spec["system"]},
            {"role": "user", "content": spec["example"]}, {"role": "assistant", "content": spec["example_reply"]},
            {"role": "user", "content": question}]


def translate_question(engine: ChatEngine, question: str, target: str, *,
                       should_stop: StopCheck | None = None) -> str | None:
    """``question`` in ``target`` by ``engine`` (temperature 0), or None when it wrote nothing
    usable or failed: the search then runs on the question alone."""
    pieces: list[str] = []
    try:
        for piece in engine.stream_chat(translation_messages(question, target), max_tokens=MAX_TOKENS,
                                        temperature=0.0, should_stop=should_stop):
            pieces.append(piece)
    except EngineError:  # GenerationStopped too
        return None
    text = " ".join("".join(pieces).split())[:MAX_CHARS]
    return text if text and text != question.strip() else None
