"""Language knowledge is data: every concept exists in every language and compiles."""

from __future__ import annotations

import pytest

from desktop_app import lexicon


def concepts(node: dict, prefix: str = "") -> set[str]:
    found = set()
    for key, value in node.items():
        if isinstance(value, dict) and ("words" in value or "patterns" in value):
            found.add(prefix + key)
        elif isinstance(value, dict):
            found |= concepts(value, f"{prefix}{key}.")
    return found


def test_every_concept_exists_in_every_language_and_compiles():
    names = [concepts(lexicon.lexicon(lang)) for lang in lexicon.LANGS]
    assert names[0] == names[1], "a concept defined in one language only"
    for lang in lexicon.LANGS:
        for name in names[0]:
            lexicon.cue(name, lang)  # raises on a broken pattern


@pytest.mark.parametrize("name, text, fires", [
    ("reply.promise", "请提供您的旅行计划", True),
    ("reply.promise", "Please provide your dates and budget.", True),
    ("reply.promise", "Day 1: the old town.", False),
    ("reply.refusal", "I'm sorry, but I can't assist with that.", True),
    ("reply.refusal", "Sorry, I can't assist with that.", True),
    ("reply.refusal", "I’m sorry, but I can’t help with this request.", True),
    ("reply.refusal", "Sorry, I can't make it on Friday, but Saturday works.", False),
    ("reply.refusal", "I'm sorry to hear that the weather is bad.", False),
    ("language_name.en", "Always answer in English.", True),
    ("language_name.zh", "以后都用中文回答", True),
    ("language_name.en", "以后都用中文回答", False),
])
def test_cases_fire_as_labelled(name, text, fires):
    assert lexicon.fires(name, text) is fires


def test_a_missing_concept_is_one_clear_error():
    with pytest.raises(lexicon.LexiconMissing, match="no entry 'reply.nothing'"):
        lexicon.cue("reply.nothing", "en")
