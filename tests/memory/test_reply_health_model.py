"""End to end with the shipped default model: a multi-turn conversation in each language, every
reply checked by the program (memory.reply_health) the way the chat checks it."""

from __future__ import annotations

import pytest

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.guard import LockedEngine
from desktop_app.memory.scaffolding import scaffolding_in

pytestmark = pytest.mark.model

CONVERSATIONS = {
    "zh": ["帮我安排一个5天的大理行程，我们一家四口。", "我们的总预算是8000元，包括机票和住宿。",
           "以后每次回答都先给结论，再说理由。", "年终奖发下来了，预算改成12000元。", "总结一下我的所有要求，给我最终方案。"],
    "en": ["Help me plan a simple dinner for my family of four. I'm vegetarian.", "The budget is 60 dollars.",
           "Actually make it 80 dollars, we have guests coming.", "Summarise my constraints and give me the final plan."],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_default_model_answers_without_the_prompts_scaffolding_and_no_loop_is_fed_back(store, settings,
                                                                                          real_engine, lang):
    engine = LockedEngine(real_engine)
    local = settings.model_copy(update={"lang": lang, "memory_model": "off", "max_tokens": 160, "temperature": 0.3})
    pipeline = pipeline_for(store, local, counter=engine.counter, n_ctx=engine.n_ctx)
    session = store.session_named(f"e2e-{lang}")
    results = [run_turn(pipeline, store.get_session(session.id), engine, text, settings=local)
               for text in CONVERSATIONS[lang]]
    for result in results:
        reply = result.reply.content
        assert reply.strip(), "every turn gets a reply"
        health = result.record.health
        assert health is not None
        if not health.attempts:
            # acknowledge = "first" (the default): a message that only told something is answered by the
            # program with what memory took in, and that answer stays out of the model's history.
            assert health.acknowledged and result.reply.unhealthy, reply
            assert scaffolding_in(reply) is None, reply
            continue
        assert len(health.attempts) in (1, 2)
        if scaffolding_in(reply) is not None:
            # The 0.5B sometimes pastes a phrase of the prompt into the retry too (seen once in CI on a
            # loaded machine): then the program must have seen it, asked again and kept it out of history.
            assert health.retried, reply
            assert health.kept_out, reply
            assert result.reply.unhealthy, reply
    assert results[0].record.health.attempts and results[-1].record.health.attempts, "questions are the model's"
    assert any(r.record.health.acknowledged for r in results), "the value changes were answered by the program"
    fed_back = {m["content"] for r in results for m in r.plan.messages if m["role"] == "assistant"}
    # By text: a kept-out copy of an earlier healthy reply shares that reply's words, which are
    # rightly in history (seen in CI: the same itinerary twice, the second flagged as a copy).
    kept_out = {r.reply.content for r in results if r.reply.unhealthy} - {
        r.reply.content for r in results if not r.reply.unhealthy}
    assert not fed_back & kept_out, "a degenerate reply never reaches the model as history"
    prompt = "\n".join(m["content"] for m in results[-1].plan.messages)
    assert "12000" in prompt or "80" in prompt, "the current value reaches the final prompt"
    assert "【关键】" not in prompt
    assert "#1" not in prompt
