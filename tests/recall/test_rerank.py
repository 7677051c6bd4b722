"""Recall re-ranking by the model, with a scripted engine: picks move to the front, bad output changes nothing."""

from __future__ import annotations

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.recall.rerank import rerank, rerank_messages


def hits(n: int) -> list[RecallHit]:
    return [RecallHit(message_id=i, session_id=1, role="user", turn=i, created_at=0.0, snippet=f"passage {i}",
                      fused=1.0, score=1.0 / i) for i in range(1, n + 1)]


def test_the_models_picks_come_first_and_the_rest_keep_their_order():
    ranked = rerank(ScriptedEngine('{"best": [4, 2, 4]}'), "which one?", hits(6))
    assert [h.message_id for h in ranked] == [4, 2, 1, 3, 5, 6]


def test_out_of_range_or_invalid_output_leaves_the_hybrid_order():
    assert [h.message_id for h in rerank(ScriptedEngine('{"best": [9, 0]}'), "q", hits(3))] == [1, 2, 3]
    assert [h.message_id for h in rerank(ScriptedEngine("not json"), "q", hits(3))] == [1, 2, 3]


def test_the_prompt_numbers_the_passages_in_both_languages():
    assert "[2] user: passage 2" in rerank_messages("q", hits(2))[1]["content"]
    assert rerank_messages("问题", hits(2), "zh")[1]["content"].startswith("问题：")
