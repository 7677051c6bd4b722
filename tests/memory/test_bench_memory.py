"""The labelled extraction sets of ``bench memory`` and its scoring, without a model."""

from __future__ import annotations

import pytest

from desktop_app.bench.memory import DATA, HOLDOUT, evaluate, load_cases
from desktop_app.engine.tokens import fallback_counter


@pytest.mark.parametrize("path, singles, negatives, sequences", [(DATA, 150, 40, 20), (HOLDOUT, 120, 40, 16)])
def test_each_labelled_set_is_bilingual_and_as_large_as_the_issue_asks(path, singles, negatives, sequences):
    cases = load_cases(path)
    assert len(cases["single"]) >= singles
    assert len(cases["negatives"]) >= negatives
    assert len(cases["sequences"]) >= sequences
    for group in ("single", "negatives", "sequences"):
        langs = [c["lang"] for c in cases[group]]
        assert abs(langs.count("en") - langs.count("zh")) <= len(langs) // 4, group
    ids = [c["id"] for group in cases.values() for c in group]
    assert len(ids) == len(set(ids))


def test_the_two_sets_share_no_message():
    seen = {c["text"] for c in load_cases(DATA)["single"]}
    assert not seen & {c["text"] for c in load_cases(HOLDOUT)["single"]}


def test_the_rules_alone_are_scored_per_kind_and_language():
    cases = load_cases(HOLDOUT)
    result = evaluate(cases, counter=fallback_counter(), system="rules", limit=6)
    expected = sum(cell["expected"] for cell in result.singles.values())
    assert expected == sum(len(c["expect"]) for c in cases["single"][:6])
    assert all(0 <= cell["found"] <= cell["expected"] for cell in result.singles.values())
    assert sum(n[0] for n in result.negatives.values()) == 6
