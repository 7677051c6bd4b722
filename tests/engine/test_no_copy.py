"""A retried reply cannot copy: its opening and runs of the texts it must not repeat are ruled out
(engine.no_copy with a one-character-per-token vocabulary; the real model at the end)."""

import numpy as np
import pytest

from desktop_app.engine.no_copy import BANNED, RUN_CJK, RUN_LATIN, CopyBlock, letters
from desktop_app.engine.protocol import Variation

VOCAB = ["<s>", *"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ',.!?",
         *"我表妹小雨对虾过敏很严重不用再列表了正常说话就行好的当然，。", "suitcases", "suitcase", " hills"]


def tokenize(text: str) -> list[int]:
    return [VOCAB.index(c) for c in text]


def detokenize(tokens) -> str:
    return "".join(VOCAB[t] for t in tokens)


def block(**kwargs) -> CopyBlock:
    return CopyBlock.build(tokenize, detokenize, **kwargs)


def banned_after(rule: CopyBlock, made: str) -> set[str]:
    """The tokens ruled out after the reply ``made`` (by text)."""
    prompt = np.array(tokenize("?"), dtype=np.intc)
    rule.start = None
    rule(prompt, np.zeros(len(VOCAB), dtype=np.single))
    scores = rule(np.array(tokenize("?") + tokenize(made), dtype=np.intc), np.zeros(len(VOCAB), dtype=np.single))
    return {VOCAB[t] for t in np.flatnonzero(scores == BANNED)}


def test_the_opening_of_a_rejected_reply_is_ruled_out_only_as_the_first_token():
    rule = block(openings=["当然，我表妹", "  sure thing"])
    prompt = np.array(tokenize("?"), dtype=np.intc)
    scores = rule(prompt, np.zeros(len(VOCAB), dtype=np.single))
    assert {VOCAB[t] for t in np.flatnonzero(scores == BANNED)} == {"当", "s"}
    later = rule(np.array(tokenize("?好的"), dtype=np.intc), np.zeros(len(VOCAB), dtype=np.single))
    assert later[VOCAB.index("s")] == 0, "later in the reply the same word is free"


def test_no_run_of_a_chinese_source_can_be_written():
    source = "我表妹小雨对虾过敏很严重"
    rule = block(sources=[source])
    for start in range(len(source) - RUN_CJK + 1):
        copied = source[start: start + RUN_CJK - 1]
        assert banned_after(rule, "好的，" + copied) == {source[start + RUN_CJK - 1]}, copied
    assert banned_after(rule, "好的，小雨") == set(), "a name is quoted"


def test_case_spaces_and_punctuation_do_not_hide_a_copy_and_are_never_ruled_out():
    rule = block(sources=["不用再列表了，正常说话就行"])
    source, made = "不用再列表了正常说话就行", "用再列表了。正常"
    assert len(made) - 1 == RUN_CJK - 1
    assert banned_after(rule, made) == {source[source.index("正常") + 2]}, "a copy with 。 for ， is a copy"
    english = block(sources=["I'm not hauling suitcases up those hills lol"])
    made = "i'M NOT   hauling suitcases up those"
    assert len(letters(made)) >= RUN_LATIN - len("hills")
    assert " hills" in banned_after(english, made), "case and spaces do not hide a copy"
    assert not {" ", ",", ".", "!"} & banned_after(english, made)


def test_an_empty_rule_is_falsy_so_the_engine_passes_no_processor():
    assert not block()
    assert not block(openings=["  "], sources=["ab"])
    assert block(sources=["abcdefghijklmnopqrstuvwxyz"])


@pytest.mark.model
def test_the_real_model_asked_to_repeat_a_sentence_cannot_copy_it(real_engine):
    sentence = "The quick brown fox jumps over the lazy dog near the river bank"
    messages = [{"role": "system", "content": "You repeat what the user writes, word for word."},
                {"role": "user", "content": f"Repeat exactly: {sentence}"}]
    free = "".join(real_engine.stream_chat(messages, max_tokens=40, temperature=0.0))
    blocked = "".join(real_engine.stream_chat(messages, max_tokens=40, temperature=0.0,
                                              variation=Variation(seed=7, sources=(sentence,))))
    plain = letters(sentence)
    runs = {plain[i: i + RUN_LATIN] for i in range(len(plain) - RUN_LATIN + 1)}
    assert any(run in letters(free) for run in runs), f"the model copies when free: {free!r}"
    assert not any(run in letters(blocked) for run in runs), blocked


def test_the_programs_own_line_is_ruled_out_from_half_the_run():
    """Retried, the 0.5B wrote "这次回复请注意：用我自己的话回答" and "下次回复请注意：…" to the line "本次回复请注意：用你自己的话
    回答…": one character changed in every run of eight."""
    line = "我表妹小雨对虾过敏很严重"  # (this vocabulary's characters)
    rule = block(lines=[line])
    assert "小" in banned_after(rule, "好的，我表妹"), "four characters of the line in a row"
    assert banned_after(block(sources=[line]), "好的，我表妹") == set(), "a source needs its full run"
    assert banned_after(rule, "好的，妹") == set()
