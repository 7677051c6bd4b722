"""bench health's judge of the final plan: what the user reads, and what the model wrote alone."""

from __future__ import annotations

from desktop_app.bench.health import Conversation, TurnVerdict, judge_final, summarise

PLAN = Conversation(id="c1", lang="en", turns=["a", "Summarise everything and give me the final plan."],
                    final_current=[["5,000", "5000"], ["5 people", "five people"]], final_superseded=["4 people"])


def verdict(reply: str, added: str = "") -> TurnVerdict:
    return TurnVerdict(conversation="c1", turn=2, lang="en", healthy=True, findings=[], seconds=1.0,
                       reply=reply + added, added=added)


def test_the_final_plan_must_name_every_current_value_and_no_old_one():
    assert judge_final(PLAN, "Budget 5,000 for 5 people.") == (True, [], [])
    assert judge_final(PLAN, "Budget 5,000 for 4 people.") == (False, ["5 people"], ["4 people"])


def test_an_old_value_named_as_old_in_the_final_plan_is_not_stale():
    # hc-en-01, round five: "leave July 21 instead of flying out July 14" named the old date as old.
    assert judge_final(PLAN, "Budget 5,000 for 5 people, instead of 4 people.") == (True, [], [])
    assert judge_final(PLAN, "Budget 5,000 for 5 people (it was 4 people).") == (True, [], [])
    assert judge_final(PLAN, "5 people. Budget 5,000 and 4 people get a room each.")[2] == ["4 people"]
    # hc-zh-02, round five: "预算：1500，原为 人数少那预算就压到1200吧" named 1200 as the old budget.
    zh = Conversation(id="c2", lang="zh", turns=["a", "总结一下"], final_current=[["1500"]], final_superseded=["1200"])
    assert judge_final(zh, "预算：1500，原为 人数少那预算就压到1200吧") == (True, [], [])


def test_a_plan_completed_by_the_program_counts_for_the_user_not_for_the_model():
    added = "\n\nAlso part of the plan, from what you told me:\n- make that 5 people"
    last = verdict("Budget 5,000.", added)
    assert last.model_reply == "Budget 5,000."
    finals = {"c1": judge_final(PLAN, last.reply)}
    row = summarise([last], finals, {"c1": "en"}, {"c1": PLAN})["languages"]["en"]
    assert row["final_ok"] == 1
    assert row["final_ok_model"] == 0


def test_a_reply_without_additions_is_the_models_own():
    last = verdict("Budget 5,000 for five people.")
    assert last.model_reply == last.reply
    row = summarise([last], {"c1": judge_final(PLAN, last.reply)}, {"c1": "en"}, {"c1": PLAN})["languages"]["en"]
    assert row["final_ok_model"] == 1
