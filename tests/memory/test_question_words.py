"""A Chinese question word used as "any" or "some" asks nothing (round eighteen; the lexicon's ``mood.indefinite``):
"什么都行", "没什么忌口", "研究穿什么拍照", "不怎么辣", "哪都可以", "得有几个软烂的菜" are statements, so memory reads them
and a message of them alone is only telling; a real question stays one."""

from __future__ import annotations

import pytest

from desktop_app.memory.reply_health import tells_only
from desktop_app.memory.write.mood import is_question


@pytest.mark.parametrize("text", ["什么都行", "没什么忌口", "我妈已经开始研究穿什么拍照了", "不怎么辣就好",
                                  "哪都可以", "得有几个软烂的菜"])
def test_a_question_word_meaning_any_or_some_asks_nothing(text):
    assert not is_question(text)


@pytest.mark.parametrize("text", ["吃什么好", "有几个人去", "去哪儿玩", "我们怎么去", "预算是多少", "不知道去哪玩",
                                  "什么都行吗", "几个菜够", "年夜饭做几个菜合适", "十个人要点几个菜", "要有几个房间才够",
                                  "为什么都要带身份证"])
def test_a_real_question_stays_a_question(text):
    assert is_question(text)


def test_a_message_of_such_statements_only_tells():
    assert tells_only("孩子什么都吃，就是不吃香菜")
    assert not tells_only("孩子吃什么好")


def test_a_value_beside_an_indefinite_is_remembered(conversation):
    chat = conversation(lang="zh")
    chat.say("周末去哪都行 预算1000以内")
    assert any("1000" in i.value for i in chat.active()), [i.value for i in chat.active()]
