"""A reply is held to its language as it is sampled: no lower-case English word against Chinese characters, no
Chinese in an English reply, but for what the user wrote (engine.script_hold with a small byte vocabulary; the
real model and the turn pipeline at the end)."""

import re

import numpy as np
import pytest

from desktop_app.engine.no_copy import BANNED
from desktop_app.engine.protocol import ScriptHold
from desktop_app.engine.script_hold import KEPT, ScriptBlock, may_begin_han
from desktop_app.memory.reply_health import _stray_chinese, _stray_english, script_hold

HAN_BYTES = "鸭".encode()  # three bytes: the 0.5B's vocabulary writes a rare character as two or three tokens
VOCAB: list[bytes] = [b"<s>", *(c.encode() for c in "我们今天走了三步很好，。出租车大理"),
                      b" step", b"step", b"s", b"tep", b" app", b"wifi", b" Python", b"5", b" km", b" the", b" taxi",
                      b" is", b" a", HAN_BYTES[:1], HAN_BYTES[1:], b" ", b"ingredients", b"\n"]


def detokenize(tokens) -> bytes:
    return b"".join(VOCAB[t] for t in tokens)


def tokens(*pieces: bytes) -> list[int]:
    return [VOCAB.index(p) for p in pieces]


def banned_after(rule: ScriptBlock, *made: bytes) -> set[bytes]:
    """The tokens ruled out after the reply ``made`` (by its tokens), every token as likely as any other."""
    prompt = [0]
    rule.start = None
    rule(np.array(prompt, dtype=np.intc), np.zeros(len(VOCAB), dtype=np.single))
    scores = rule(np.array(prompt + tokens(*made), dtype=np.intc), np.zeros(len(VOCAB), dtype=np.single))
    return {VOCAB[t] for t in np.flatnonzero(scores == BANNED)}


def test_in_chinese_an_english_word_against_the_characters_is_ruled_out_unless_the_user_wrote_it():
    rule = ScriptBlock(ScriptHold("zh", words=frozenset({"app", "wifi", "python"})), detokenize)
    after = banned_after(rule, "三".encode())
    assert {b" step", b"step", b"s", b"ingredients"} <= after, "糖糖自己走了三 step"
    assert not {b" app", b"wifi", b" Python", b"5", b"\n", "步".encode()} & after, \
        "a word Chinese writes in Latin letters, a name, a number, Chinese: free"
    after_app = banned_after(rule, "我".encode(), b" app")
    assert not {"，".encode(), "步".encode(), b"\n", b" step"} & after_app, "after an allowed word, anything but more letters"
    assert b"ingredients" in after_app, "'appingredients' begins no allowed word"


def test_english_that_does_not_touch_chinese_is_free_and_a_word_is_judged_as_it_goes_on():
    rule = ScriptBlock(ScriptHold("zh", words=frozenset({"spa"})), detokenize)
    assert banned_after(rule, "我".encode(), b"\n", b" Python", b" is", b" a") == set(), \
        "an English sentence of its own, after the reply has said some Chinese, is left alone"
    assert banned_after(rule, "我".encode(), b"5", b" km") == set(), "after a number: a unit"
    assert b"tep" in banned_after(rule, "三".encode(), b"s"), "'s' may begin 'spa'; 'step' begins nothing allowed"


def test_in_english_chinese_is_ruled_out_unless_the_user_wrote_it_even_a_characters_first_byte():
    rule = ScriptBlock(ScriptHold("en", said=("我们去大理",)), detokenize)
    english = (b" taxi", b" is", b" the")
    after = banned_after(rule, *english)
    assert {"出".encode(), "车".encode(), HAN_BYTES[:1]} <= after, "you can take a 出租车"
    assert not {"大".encode(), b" taxi", b"\n"} & after
    assert "理".encode() not in banned_after(rule, *english, "大".encode()), "大理, as the user wrote it"
    assert "们".encode() in banned_after(rule, *english, "大".encode()), "大们 is in nothing the user wrote"


def test_an_english_reply_quotes_the_users_chinese_only_once_it_is_english():
    """Bench health G6: "口语最差" to "What should I focus on first? 我口语最差" under an English rule (the user's own
    words, and no English at all)."""
    rule = ScriptBlock(ScriptHold("en", said=("我们去大理",)), detokenize)
    assert "大".encode() in banned_after(rule), "a reply may not open with the user's Chinese"
    assert "大".encode() in banned_after(rule, b" the")
    assert "大".encode() not in banned_after(rule, b" taxi", b" is", b" the")


def test_only_the_first_bytes_of_a_han_character_are_taken_for_one():
    assert may_begin_han(HAN_BYTES[:1]) and may_begin_han(HAN_BYTES[:2])
    assert may_begin_han("大".encode()[:2])
    assert not may_begin_han("é".encode()[:1]), "a Latin letter with an accent"
    assert not may_begin_han("，".encode()[:2]), "full-width punctuation"
    assert not may_begin_han(b"")


def test_enough_free_tokens_are_looked_at_that_the_sampler_takes_none_unlooked():
    """When every one of the likeliest tokens breaks the language, the next likeliest are looked at too (run on
    the real vocabulary: the 65th-likeliest was a Chinese character, and greedy sampling took it)."""
    vocab = [f"字{i}".encode() for i in range(200)] + [f" w{i}".encode() for i in range(200)]
    rule = ScriptBlock(ScriptHold("en", said=()), lambda toks: b"".join(vocab[t] for t in toks))
    scores = np.array([1000.0 - i for i in range(len(vocab))], dtype=np.single)  # every Chinese token likelier
    rule.start = None
    held = rule(np.array([0], dtype=np.intc), scores)
    assert (held[:200] == BANNED).all()
    free = held > BANNED
    assert free.sum() >= KEPT and int(np.argmax(held)) == 200


def test_the_hold_mirrors_what_the_health_check_finds():
    said = ["我家糖糖一岁了，用 iPad 看动画"]
    hold = script_hold("zh", said)
    assert hold is not None and {"ipad", "app", "wifi"} <= hold.words
    assert _stray_english("糖糖自己走了三 step", said) == "step" and not any(w.startswith("step") for w in hold.words)
    english = script_hold("en", ["We land in 大理 on Friday"])
    assert english is not None and english.said == ("We land in 大理 on Friday",)
    assert _stray_chinese("Take a 出租车 to 大理", english.said) == "出租车"
    assert script_hold(None, said) is None


@pytest.mark.model
def test_the_real_model_asked_for_chinese_in_an_english_reply_writes_none(real_engine):
    question = "Describe a Chinese New Year dinner, writing each dish's name in Chinese characters."
    messages = [{"role": "user", "content": question}]
    hold = script_hold("en", [question])
    free = "".join(real_engine.stream_chat(messages, max_tokens=60, temperature=0.0))
    held = "".join(real_engine.stream_chat(messages, max_tokens=60, temperature=0.0, script=hold))
    assert _stray_chinese(free, [question]), f"the model writes Chinese when free: {free!r}"
    assert not _stray_chinese(held, [question]), held
    assert held.strip()


def test_a_chinese_reply_opens_with_no_english_word_but_for_those_chinese_writes_so():
    """Bench health G8, hc-en-05 t5: "The budget is $30,000." under a Chinese rule, asked in English, after its retry
    (the user's English words were all allowed, so nothing held it)."""
    rule = ScriptBlock(ScriptHold("zh", words=frozenset({"the", "taxi", "app"}), opening=frozenset({"app", "wifi"}),
                                  hold_opening=True), detokenize)
    opening = banned_after(rule)
    assert {b" the", b" taxi", b" step", b"ingredients"} <= opening, "no English word opens it"
    assert not {b" app", b"wifi", b"5", "我".encode(), b"\n"} & opening
    assert b" the" not in banned_after(rule, "我".encode(), b"\n"), "once it has said Chinese, an English line is free"


def test_the_real_model_held_to_chinese_opens_with_no_english_word(real_engine):
    """G8's reply ("The budget is $30,000." under a Chinese rule, asked in English): the 0.5B, greedy, opens an answer to
    an English question in English; held to Chinese, its opening has no English word (an acronym may stay)."""
    messages = [{"role": "user", "content": "What's a sensible breakdown of a $30,000 wedding budget?"}]
    hold = script_hold("zh", [m["content"] for m in messages], hold_opening=True)
    free = "".join(real_engine.stream_chat(messages, max_tokens=30, temperature=0.0))
    held = "".join(real_engine.stream_chat(messages, max_tokens=30, temperature=0.0, script=hold))
    opens_english = re.compile(r"\W*(?:[A-Z]?[a-z]+|[A-Z])\b")
    assert opens_english.match(free), f"the model opens in English when free: {free!r}"
    assert not opens_english.match(held), held


def test_the_opening_is_held_only_against_the_messages_own_language(store):
    """A Chinese message's reply opens as the model likes; an English one's under a Chinese rule opens in Chinese."""
    from desktop_app.engine.tokens import fallback_counter
    from desktop_app.memory.turn import TurnOptions, TurnPipeline

    pipeline = TurnPipeline(store=store, counter=fallback_counter(), n_ctx=4096,
                            options=TurnOptions(memory_model="off", lang="zh"))
    session = store.session_named("t")
    pipeline.record_input(session, "以后都用中文回答我")
    english = pipeline.record_input(store.get_session(session.id), "What's a sensible breakdown of the budget?")
    chinese = pipeline.record_input(store.get_session(session.id), "预算怎么分配比较合理？")
    held, free = pipeline.reply_script(english), pipeline.reply_script(chinese)
    assert held is not None and held.hold_opening and free is not None and not free.hold_opening
