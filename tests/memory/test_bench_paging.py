"""``bench paging``: the labelled set and the scoring, with a scripted model (the real one runs in the bench)."""

from __future__ import annotations

import json

from desktop_app.bench.paging import DATA, evaluate, load_cases
from desktop_app.engine.scripted import ScriptedEngine


def test_the_labelled_set_is_bilingual_and_balanced():
    cases = load_cases(DATA)
    for lang in ("en", "zh"):
        mine = [c for c in cases if c.lang == lang]
        labels = [e.keep for c in mine for e in c.exchanges]
        assert len(mine) >= 20
        assert len(labels) >= 100
        assert 0.15 <= sum(labels) / len(labels) <= 0.45, "both decisions are well represented"


def test_oldest_first_keeps_nothing_and_the_model_is_asked_only_what_the_rules_leave_open():
    from desktop_app.memory.archive.paging import lexical_decision
    from desktop_app.memory.lang.text import term_set

    cases = load_cases(DATA)[:8]
    rules = evaluate(cases, oldest_first=True)["all"].row()
    assert rules["keep_recall"] == 0.0
    assert rules["fallbacks"] == 0

    def keep_all(messages):
        count = sum(1 for line in messages[-1]["content"].splitlines() if line[:1].isdigit())
        return json.dumps({"keep": list(range(1, min(count, 3) + 1))})

    open_ = [[e for e in c.exchanges
              if lexical_decision(e.user, e.reply, term_set(c.latest)) is None] for c in cases]
    everything = evaluate(cases, ScriptedEngine(keep_all))["all"]
    assert everything.calls == sum(1 for o in open_ if o)
    assert everything.kept_right + everything.kept_wrong + everything.missed + everything.evicted_right == \
        sum(len(c.exchanges) for c in cases)
    assert everything.kept_right + everything.kept_wrong >= evaluate(cases)["all"].kept_right, "the model adds keeps"
    broken = evaluate(cases, ScriptedEngine("not json"))["all"]
    assert broken.fallbacks == sum(1 for o in open_ if o), "one retry, then the rules' result"
    assert broken.calls == 2 * broken.fallbacks, "one retry, then the rules' result"
