"""``bench paging``: the labelled set and the scoring, with a scripted model (the real one runs in the bench)."""

from __future__ import annotations

import json

from desktop_app.bench.paging import DATA, evaluate, load_cases
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.model_jobs import is_small_talk


def test_the_labelled_set_is_bilingual_and_balanced():
    cases = load_cases(DATA)
    for lang in ("en", "zh"):
        mine = [c for c in cases if c.lang == lang]
        labels = [e.keep for c in mine for e in c.exchanges]
        assert len(mine) >= 20 and len(labels) >= 100
        assert 0.15 <= sum(labels) / len(labels) <= 0.45, "both decisions are well represented"


def test_oldest_first_keeps_nothing_and_a_model_that_keeps_everything_is_scored_as_such():
    cases = load_cases(DATA)[:6]
    rules = evaluate(cases)["all"].row()
    assert rules["keep_recall"] == 0.0 and rules["fallbacks"] == 0

    def keep_all(messages):
        count = sum(1 for line in messages[-1]["content"].splitlines() if line[:1].isdigit())
        return json.dumps({"pages": [{"id": n, "keep": True} for n in range(1, count + 1)]})

    everything = evaluate(cases, ScriptedEngine(keep_all))["all"]
    asked = [e for c in cases for e in c.exchanges if not is_small_talk(e.user)]
    assert everything.calls == len(cases)
    assert everything.kept_right == sum(e.keep for e in asked) and everything.kept_wrong == sum(not e.keep for e in asked)
    assert everything.kept_right + everything.kept_wrong + everything.missed + everything.evicted_right == \
        sum(len(c.exchanges) for c in cases)
    broken = evaluate(cases, ScriptedEngine("not json"))["all"]
    assert broken.fallbacks == len(cases) and broken.calls == 2 * len(cases), "one retry, then oldest first"
