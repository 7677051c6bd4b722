"""The labelled sets of ``bench memory --integrity`` are sound, and the scoring reads the final memory."""

from __future__ import annotations

import json

import pytest

from desktop_app.bench.integrity import DATA, HOLDOUT, SHIFTS, SIXTH, THIRD, run_sequences
from desktop_app.engine.tokens import fallback_counter


@pytest.mark.parametrize("path", [DATA, HOLDOUT, THIRD, SIXTH])
def test_a_labelled_set_holds_forty_sequences_per_language_and_its_terms_are_the_users_words(path):
    cases = json.loads(path.read_text(encoding="utf-8"))["sequences"]
    for lang in ("en", "zh"):
        assert len([c for c in cases if c["lang"] == lang]) >= 40
    assert len({c["id"] for c in cases}) == len(cases)
    for case in cases:
        said = "\n".join(case["turns"]).lower()
        for expected in case["final_active"]:
            assert all(term.lower() in said for term in expected["terms"]), case["id"]
            assert not any(absent.lower() in term.lower() for absent in case["final_absent"]
                           for term in expected["terms"]), case["id"]


def test_the_set_of_changes_by_an_amount_holds_forty_per_language_and_never_wants_what_it_rules_out():
    # Its terms are computed values ("1500" of "1000" and "再加500"), not the user's words.
    cases = json.loads(SHIFTS.read_text(encoding="utf-8"))["sequences"]
    for lang in ("en", "zh"):
        assert len([c for c in cases if c["lang"] == lang]) >= 40
    assert len({c["id"] for c in cases}) == len(cases)
    for case in cases:
        assert not any(absent.lower() in term.lower() for absent in case["final_absent"]
                       for expected in case["final_active"] for term in expected["terms"]), case["id"]


def test_the_final_memory_is_scored_whole():
    cases = [
        {"id": "t-en", "lang": "en", "turns": ["Total budget is 3000 dollars.", "ok we talked it over, budget's now 4000."],
         "final_active": [{"kind": "constraint", "alt_kinds": ["fact"], "scope": "session", "terms": ["4000"]}],
         "final_absent": ["3000"]},
        {"id": "t-zh", "lang": "zh", "turns": ["帮我把这句翻成英语：'以后请不要周末联系我。'"], "final_active": [],
         "final_absent": ["周末"]},
        {"id": "t-miss", "lang": "en", "turns": ["hello there"],
         "final_active": [{"kind": "fact", "terms": ["Lisbon"]}], "final_absent": []},
    ]
    scores = {s.id: s for s in run_sequences(cases, engine=None, counter=fallback_counter(), system="rules")}
    assert scores["t-en"].right and scores["t-en"].found == 1
    assert scores["t-zh"].right
    assert not scores["t-miss"].right and scores["t-miss"].found == 0
