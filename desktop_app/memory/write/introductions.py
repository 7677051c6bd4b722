"""A self-introduction said as a list ("A bit about me: I'm Marta, 34, software engineer, live in Berlin"; "我是张敏，
32岁，会计"): the bare clauses after the one that says who the user is are the user's too ("34" is "I'm 34", "software
engineer" is "I'm a software engineer"). Each is read again after the lexicon's ``intro.self`` openings and kept when
it reads as a lasting fact of the user (an age, a job, a home, a condition); as they stood, "34" and "software engineer"
were read as nothing and lost."""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import CJK, lexicon_words
from desktop_app.memory.lang.text import term_set
from desktop_app.memory.write.mood import TRIM
from desktop_app.memory.write.sentence import Candidate, classify

# What a clause of a self-introduction may say of the user (the subjects the rules give such facts).
ABOUT_ME = frozenset({"name", "age", "occupation", "location", "weight", "diet", "health", "allergy"})
MAX_BARE_WORDS = 4  # "software engineer", "night shift nurse": a clause of a list, not a sentence of its own
MAX_BARE_CHARS = 8


def more_of_me(parts: Sequence[str], found: list[Candidate]) -> list[Candidate]:
    """``found`` with the facts the bare clauses after a self-statement say of the user, in clause order."""
    said_of_me = [c for c in found if c.action == "add" and c.subject in ABOUT_ME]
    if not said_of_me or len(parts) < 2:
        return found
    first = next((n for n, p in enumerate(parts) if any(c.quote.strip(TRIM) in p or p.strip(TRIM) in c.value
                                                        for c in said_of_me)), None)
    if first is None:
        return found
    more = []
    for part in parts[first + 1:]:
        body = part.strip(TRIM)
        if not body or any(body in c.value or c.value.strip(TRIM) in body for c in found) or not _bare(body):
            continue
        said = _as_mine(body)
        if said is not None:
            more.append(said.model_copy(update={"value": body, "quote": part.strip()}))
    return found + more


def _bare(body: str) -> bool:
    if _cjk(body):
        return len(body) <= MAX_BARE_CHARS
    return len(body.split()) <= MAX_BARE_WORDS and bool(term_set(body) or any(ch.isdigit() for ch in body))


def _cjk(text: str) -> bool:
    return re.search(f"[{CJK}]", text) is not None


def _as_mine(body: str) -> Candidate | None:
    lang = "zh" if _cjk(body) else "en"
    for opening in lexicon_words("intro.self", lang):
        said = classify(f"{opening}{' ' if lang == 'en' else ''}{body}")
        if said is not None and said.action == "add" and said.kind == "fact" and said.subject.split(":")[0] in ABOUT_ME:
            return said
    return None
