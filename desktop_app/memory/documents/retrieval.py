"""Finding the chunks that answer a question: full text (Porter words, CJK trigrams, short
CJK words by substring) and vectors, fused by reciprocal rank, within the documents in scope.

Scope: the library plus the session's own documents; ``paperclip ask --doc NAME`` or an
``@name`` in the message narrows it to those documents. For the prompt a chunk must show
evidence (enough of the question's terms, or a close vector) unless the user named its
document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from desktop_app.engine.protocol import query_vector, relatedness
from desktop_app.memory.core.documents import Document, DocumentHit
from desktop_app.memory.core.recall_hits import SignalScore
from desktop_app.memory.documents.vectors import document_vectors_usable
from desktop_app.memory.lang.text import script_language
from desktop_app.memory.recall.fusion import normalised, rrf
from desktop_app.memory.recall.query import has_cjk, plan_query, quote

if TYPE_CHECKING:
    from desktop_app.engine.protocol import Embedder, TokenCounter
    from desktop_app.memory.store import Store

DOC_SIGNALS = ("bm25", "vector")
CANDIDATES = 60
RRF_K = 5.0
# `paperclip bench docs` with multilingual-e5: vector weight 0.6 brings a gold chunk into the prompt
# for 0.75 of the paraphrased questions in each language (0.3: 0.60 en / 0.70 zh) and keeps the
# labelled set's recall@5 (0.94 en, 1.00 zh); 1.0-1.5 trade English for Chinese.
WEIGHTS = {"bm25": 1.0, "vector": 0.6}
MAX_PROMPT_CHUNKS = 4
MIN_COVERAGE = 0.5  # share of the question's terms a chunk must hold to enter the prompt unasked
MIN_VECTOR_SIMILARITY = 0.55
# The question translated into a document's language is close to its answer in that language,
# closer than across languages; e5 scores two Chinese texts higher than two English ones. Chosen
# on the blind set (bench docs --set paraphrase), one bar of 0.65: gold chunks in the prompt for
# 38 of its 40 questions, 8 of 64 unrelated questions bring a chunk in (no translation: 25/40,
# 5/64); the second blind set, run once then, got 34/48 (zh→en 14/24: English translations score
# lower), so translations into English have 0.6 (sweep: 38/48 and 9/64 over both sets).
MIN_TRANSLATED_SIMILARITY = {"en": 0.6, "zh": 0.65}
MIN_TRANSLATED_COVERAGE = 0.6  # on the blind set: 0.6 lets one more of 64 unrelated questions in than 0.8 (8 against 7)
TRANSLATED = ":translated"
# Where documents in the question's own language are in scope too (a bilingual library), the
# translation supplements the question's own search: at full weight it let the other-language
# copy of a manual push the gold English page off the first place (en R@1 0.65 → 0.30); at 0.3
# the same-language numbers hold (gold in prompt en 0.80, zh 0.75) and it still finds what only
# the other language holds.
SUPPLEMENT_WEIGHT = 0.3
_MENTION = re.compile(r"(?<![\w@])@([^\s@,;:!?，。；：！？]+)")


class DocumentNotFound(LookupError):
    """No document by that name in scope; ``str()`` is one line for the user."""


def _key(name: str) -> str:
    return re.sub(r"[\s_-]+", "-", name.strip().lower())


def find_documents(store: Store, session_id: int | None, names: Iterable[str]) -> list[Document]:
    """The documents named (exact name, else a unique prefix), in scope of ``session_id``."""
    visible = store.list_documents(session_id)
    found: list[Document] = []
    for name in names:
        key = _key(name)
        exact = [d for d in visible if _key(d.name) == key]
        matches = exact or [d for d in visible if _key(d.name).startswith(key)]
        if len(matches) != 1:
            known = ", ".join(d.name for d in visible[:8]) or "none yet (`paperclip docs add PATH`)"
            why = "is ambiguous" if matches else "is not a document here"
            raise DocumentNotFound(f"{name!r} {why} (documents: {known})")
        if matches[0] not in found:
            found.append(matches[0])
    return found


def mentioned_documents(store: Store, session_id: int | None, text: str) -> list[Document]:
    """Documents named by ``@name`` in ``text`` (mentions that name no document are ignored)."""
    names = _MENTION.findall(text)
    if not names:
        return []
    visible = {_key(d.name): d for d in store.list_documents(session_id)}
    out = []
    for name in names:
        document = visible.get(_key(name)) or visible.get(_key(name.rstrip(".")))  # "… @contract."
        if document is not None and document not in out:
            out.append(document)
    return out


def strip_mentions(text: str, documents: Sequence[Document]) -> str:
    """``text`` without the ``@name`` mentions of ``documents`` (they steer, they are not the question)."""
    keys = {_key(d.name) for d in documents}

    def drop(match: re.Match[str]) -> str:
        name = match.group(1)
        return "" if _key(name) in keys or _key(name.rstrip(".")) in keys else match.group(0)

    return " ".join(_MENTION.sub(drop, text).split())


def query_terms(query: str) -> list[str]:
    plan = plan_query(query)
    return list(dict.fromkeys([*plan.words, *plan.trigrams, *plan.short_terms, *([plan.substring] if plan.substring else [])]))


def coverage(terms: Sequence[str], text: str) -> float:
    """Share of ``terms`` found in ``text``; English words match on their stem-like prefix."""
    if not terms:
        return 0.0
    lowered = text.lower()
    found = sum((t[: max(4, len(t) - 3)] if t.isascii() and len(t) > 4 else t) in lowered for t in terms)
    return found / len(terms)


def bm25_ranking(store: Store, query: str, document_ids: Sequence[int], *, limit: int = CANDIDATES) -> list[tuple[int, float]]:
    plan = plan_query(query)
    if plan.is_empty:
        return []
    if plan.substring:
        return store.substring_chunks([plan.substring], document_ids, limit=limit)[plan.substring]
    lists: dict[str, list[tuple[int, float]]] = {}
    if plan.words:
        lists["words"] = store.fts_chunks(" OR ".join(quote(w) for w in plan.words), document_ids, limit=limit)
    if plan.trigrams and (match := plan.trigram_match) is not None:
        lists["trigram"] = store.fts_chunks(match, document_ids, limit=limit, index="trigram")
    if plan.short_terms:
        for term, ranked in store.substring_chunks(plan.short_terms[:6], document_ids, limit=limit).items():
            lists[f"substring:{term}"] = ranked
    lists = {k: v for k, v in lists.items() if v}
    if len(lists) <= 1:
        return next(iter(lists.values()), [])
    fused = rrf(lists, {"trigram": 1.5, "words": 1.5}, RRF_K)
    return sorted(fused.items(), key=lambda kv: -kv[1])[:limit]


def vector_ranking(store: Store, query: str, document_ids: Sequence[int], embedder: Embedder, *,
                   limit: int = CANDIDATES) -> list[tuple[int, float]]:
    if not document_vectors_usable(store, embedder) or not query.strip():
        return []
    covers = getattr(embedder, "covers", None)
    if not (covers(query) if covers is not None else not has_cjk(query)):
        return []  # an English-only model's vector of Chinese text is noise
    vector = np.asarray(query_vector(embedder, query), dtype=np.float32)
    wanted = set(document_ids)
    if len(wanted) <= 3:  # a few named documents: exact scores over their chunks
        rows = store.chunk_vectors(document_ids)
        if not rows:
            return []
        matrix = np.frombuffer(b"".join(v for _, v in rows), dtype=np.float16).astype(np.float32).reshape(len(rows), -1)
        sims = relatedness(embedder, matrix @ vector)
        order = np.argsort(-sims)[:limit]
        return [(rows[i][0], float(sims[i])) for i in order]
    found = [(cid, 1.0 - dist) for cid, doc, dist in store.knn_chunks(vector.tobytes(), k=limit * 4) if doc in wanted][:limit]
    scores = relatedness(embedder, np.asarray([s for _, s in found], dtype=np.float32))
    return [(cid, float(s)) for (cid, _), s in zip(found, scores, strict=True)]


def search_documents(store: Store, query: str, document_ids: Sequence[int], *, embedder: Embedder | None = None, k: int = 5,
                     signals: Iterable[str] = DOC_SIGNALS, translation: str | None = None,
                     translation_weight: float = 1.0) -> list[DocumentHit]:
    """The best ``k`` chunks of ``document_ids`` for ``query``, with per-signal scores.

    ``translation``: the question in the documents' language (``chat.translate_input``); it is
    searched too, its rankings weighed ``translation_weight`` times the question's
    (:func:`translation_weight`), its signals named ``bm25:translated`` and ``vector:translated``."""
    if not document_ids or not query.strip():
        return []
    wanted = set(signals)
    lists: dict[str, list[tuple[int, float]]] = {}
    for text, suffix in ((query, ""), (translation or "", TRANSLATED)):
        if not text.strip():
            continue
        if "bm25" in wanted:
            lists["bm25" + suffix] = bm25_ranking(store, text, document_ids)
        if "vector" in wanted and embedder is not None:
            lists["vector" + suffix] = vector_ranking(store, text, document_ids, embedder)
    lists = {name: ranked for name, ranked in lists.items() if ranked}
    weights = {name: WEIGHTS[name.removesuffix(TRANSLATED)] * (translation_weight if name.endswith(TRANSLATED) else 1.0)
               for name in lists}
    scores = normalised(rrf(lists, weights, RRF_K))
    best = sorted(scores, key=lambda c: -scores[c])[:k]
    rows = store.chunk_rows(best)
    ranks = {name: {cid: (rank, score) for rank, (cid, score) in enumerate(ranked, start=1)}
             for name, ranked in lists.items()}
    terms, translated_terms = query_terms(query), query_terms(translation) if translation else []
    translated_into = script_language(translation) if translation else None
    hits = []
    for chunk_id in best:
        row = rows.get(chunk_id)
        if row is None:
            continue
        body = f"{row['heading'] or ''}\n{row['text']}"
        hits.append(DocumentHit(
            chunk_id=chunk_id, document_id=row["document_id"], document=row["name"], page=row["page"],
            heading=row["heading"], text=row["text"], fused=round(scores[chunk_id], 4),
            coverage=round(coverage(terms, body), 3), translated_coverage=round(coverage(translated_terms, body), 3),
            translated_into=translated_into,
            signals={name: SignalScore(score=round(ranks[name][chunk_id][1], 4), rank=ranks[name][chunk_id][0])
                     for name in lists if chunk_id in ranks[name]}))
    return hits


def translation_weight(question: str, documents: Sequence[Document]) -> float:
    """How much a translation's rankings weigh against the question's: in full when no document
    in scope is written in the question's language, else :data:`SUPPLEMENT_WEIGHT`."""
    asked = script_language(question)
    return SUPPLEMENT_WEIGHT if any(d.language == asked for d in documents) else 1.0


def has_evidence(hit: DocumentHit) -> bool:
    """Whether an unasked-for chunk is related enough to enter the prompt: it holds enough of
    the question's terms, or is close to the question — or to its translation, at a higher bar
    (two texts in one language score higher than a question and its answer across languages)."""
    vector, translated = hit.signals.get("vector"), hit.signals.get("vector" + TRANSLATED)
    bar = MIN_TRANSLATED_SIMILARITY.get(hit.translated_into or "", max(MIN_TRANSLATED_SIMILARITY.values()))
    return (hit.coverage >= MIN_COVERAGE or hit.translated_coverage >= MIN_TRANSLATED_COVERAGE
            or (vector is not None and vector.score >= MIN_VECTOR_SIMILARITY)
            or (translated is not None and translated.score >= bar))


def documents_in_scope(store: Store, session_id: int | None, user_text: str,
                       only: Sequence[int] | None = None) -> tuple[list[Document], bool]:
    """The documents a message searches, and whether the user named them: ``only`` (``ask
    --doc``), else those named by ``@name`` in the text, else every one in scope."""
    if only:
        return [d for d in (store.get_document(i) for i in only) if d is not None], True
    named = mentioned_documents(store, session_id, user_text)
    return (named, True) if named else (store.list_documents(session_id), False)


def document_hits_for_prompt(store: Store, session_id: int | None, user_text: str, *, counter: TokenCounter, budget_tokens: int,
                             embedder: Embedder | None = None, only: Sequence[int] | None = None,
                             limit: int = MAX_PROMPT_CHUNKS, translation: str | None = None,
                             among: Sequence[int] | None = None) -> list[DocumentHit]:
    """Chunks for the ``recalled`` layer: those of the documents the user named (``only``, or
    ``@name`` in the text), else of every document in scope that shows evidence; as many as
    fit ``budget_tokens``. ``translation``: the question in the other documents' language;
    ``among``: search only these of the documents in scope (a benchmark's library)."""
    if budget_tokens <= 0 or not user_text.strip():
        return []
    documents, named = documents_in_scope(store, session_id, user_text, only)
    if among is not None:
        wanted = set(among)
        documents = [d for d in documents if d.id in wanted]
    if not documents:
        return []
    query = strip_mentions(user_text, documents) or user_text
    hits = search_documents(store, query, [d.id for d in documents], embedder=embedder, k=limit * 2,
                            translation=strip_mentions(translation, documents) if translation else None,
                            translation_weight=translation_weight(query, documents))
    if named and not hits:  # the user named the document but no words match: its opening chunks
        rows = store.chunk_rows(store.leading_chunks([d.id for d in documents], limit=limit))
        hits = [DocumentHit(chunk_id=cid, document_id=r["document_id"], document=r["name"], page=r["page"],
                            heading=r["heading"], text=r["text"]) for cid, r in sorted(rows.items())]
    picked, used = [], 0
    for hit in hits:
        if not (named or has_evidence(hit)):
            continue
        cost = counter.count(hit.text) + counter.count(hit.label) + 6
        if used + cost > budget_tokens:
            continue
        picked.append(hit)
        used += cost
        if len(picked) >= limit:
            break
    return picked
