"""The guard on a budget the reply makes up, scored on a blind set (``bench/data/guard_cases_budget.json``,
60 replies written by a helper who saw no code: 14 per language state a budget memory never held,
16 are near-misses — the budget in another form, the old one named as old, a sub-budget, a price per
person or per day, a cost, what is left)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.reply_guard import guard_reply

CASES = json.loads((Path(__file__).parents[2] / "desktop_app" / "bench" / "data" / "guard_cases_budget.json")
                   .read_text(encoding="utf-8"))["cases"]


def findings(case: dict):
    replaced = {m["superseded_by"]: m["id"] for m in case["memory"] if m.get("superseded_by")}
    items = [MemoryItem(id=m["id"], session_id=1, kind=m["kind"], subject=m["subject"], value=m["value"],
                        status=m["status"], origin="user", supersedes=replaced.get(m["id"]), state_version=1,
                        created_at=0.0, updated_at=0.0) for m in case["memory"]]
    return guard_reply(case["reply"], active=[i for i in items if i.status == "active"],
                       history=[i for i in items if i.status != "active"], lang=case["lang"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_made_up_budget_is_found_and_a_near_miss_is_not_taken_for_one(lang):
    cases = [c for c in CASES if c["lang"] == lang]
    misstated = [c for c in cases if c["expect"]]
    found = [c["id"] for c in misstated if any(f.item == c["expect"][0]["item"] for f in findings(c))]
    assert len(found) >= 0.9 * len(misstated), f"found {len(found)} of {len(misstated)}"
    alarms = [c["id"] for c in cases if not c["expect"]
              and any(f.kind == "superseded" and f.detail.startswith("says “") for f in findings(c))]
    assert alarms == [], "the made-up-budget check fires on no correct reply"
