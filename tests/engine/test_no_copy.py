"""A retried reply cannot copy: its opening and runs of the texts it must not repeat are ruled out
(engine.no_copy with a character tokenizer; the real model at the end)."""

import numpy as np
import pytest

from desktop_app.engine.no_copy import BANNED, COPY_RUN, CopyBlock
from desktop_app.engine.protocol import Variation


def chars(text: str) -> list[int]:
    return [ord(c) for c in text]


def block(**kwargs) -> CopyBlock:
    return CopyBlock.build(chars, chr, **kwargs)


def test_the_opening_of_a_rejected_reply_is_ruled_out_only_as_the_first_token():
    rule = block(openings=["当然，我表妹小雨", "  Sure thing"])
    assert rule.banned([]) == {ord("当"), ord("S")}
    assert rule.banned(chars("好的")) == frozenset(), "later in the reply the same word is free"


def test_no_run_of_copy_run_words_of_a_source_can_be_written():
    source = "我表妹小雨对虾过敏很严重"
    rule = block(sources=[source])
    for start in range(len(source) - COPY_RUN + 1):
        copied = source[start: start + COPY_RUN - 1]
        assert rule.banned(chars("好的，" + copied)) == {ord(source[start + COPY_RUN - 1])}
    assert rule.banned(chars("好的，小雨")) == frozenset(), "a name is quoted"
    assert rule.banned(chars(source[: COPY_RUN - 2])) == frozenset()


def test_punctuation_neither_breaks_a_copy_nor_is_ruled_out():
    rule = block(sources=["不用再列表了，正常说话就行"])
    assert rule.banned(chars("列表了。正")) == {ord("常")}, "a copy with 。 for ， is a copy"
    assert rule.banned(chars("用再列表")) == {ord("了")}
    assert not any(rule.is_word(ord(c)) for c in "，。！ \n")


def test_the_processor_rules_out_tokens_after_the_prompt_it_was_first_called_with():
    rule = block(openings=["abc"], sources=["vwxyz"])
    prompt = np.array(chars("prompt vwxy"), dtype=np.intc)
    scores = rule(prompt, np.zeros(200, dtype=np.single))
    assert scores[ord("a")] == BANNED, "the first call is the reply's first token"
    assert scores[ord("z")] == 0, "the prompt's own words are not the reply's"
    scores = rule(np.array(chars("prompt vwxyqvwxy"), dtype=np.intc), np.zeros(200, dtype=np.single))
    assert scores[ord("z")] == BANNED
    assert scores[ord("a")] == 0


def test_an_empty_rule_is_falsy_so_the_engine_passes_no_processor():
    assert not block()
    assert not block(openings=["  "], sources=["ab"])
    assert block(sources=["abcdefg"])


@pytest.mark.model
def test_the_real_model_asked_to_repeat_a_sentence_cannot_copy_it(real_engine):
    sentence = "The quick brown fox jumps over the lazy dog near the river bank"
    messages = [{"role": "system", "content": "You repeat what the user writes, word for word."},
                {"role": "user", "content": f"Repeat exactly: {sentence}"}]
    free = "".join(real_engine.stream_chat(messages, max_tokens=40, temperature=0.0))
    blocked = "".join(real_engine.stream_chat(messages, max_tokens=40, temperature=0.0,
                                              variation=Variation(seed=7, sources=(sentence,))))
    words = sentence.lower().split()
    runs = {" ".join(words[i: i + 6]) for i in range(len(words) - 5)}
    assert any(run in free.lower() for run in runs), f"the model copies when free: {free!r}"
    assert not any(run in " ".join(blocked.lower().split()) for run in runs), blocked
