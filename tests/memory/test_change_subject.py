"""A correction's subject keeps its whole word: the words that open a correction ("actually",
"correction", "sorry", "不对") and the words before what a change names ("let's", "we", "把", "将")
are taken off only as words of their own. "Actually, weather is 20 degrees" is about the weather (not
"ather"), "不对，将军是张三" about 将军 (not 军): 把/将 mark what a verb of change acts on
("把预算改成8000"), and before 是 they are part of the word."""

from __future__ import annotations

import pytest

from desktop_app.memory.write.extraction import extract
from desktop_app.memory.write.sentence import _subject_value


@pytest.mark.parametrize("text, subject", [
    ("Actually, weather is 20 degrees", "fact:weather"),
    ("Sorry, the venue is Rome", "fact:venue"),
    ("Correctional facility is closed", "fact:correctional facility"),  # "correction" inside a word
    ("Sorryville is the town", "fact:sorryville"),
    ("Actually, we should be 8 people", ""),  # "we" before a change still goes
    ("不对，将军是张三", "fact:将军"),
    ("将来是AI的时代", "fact:将来"),
    ("把手是坏的", "fact:把手"),
    ("不对，预算是8000", "fact:预算"),
    ("请把预算改成8000", "fact:预算"),  # 把/将 before a verb of change still go
    ("将预算调整为9000元", "fact:预算"),
])
def test_the_subject_keeps_its_whole_word(text, subject):
    assert _subject_value(text, None)[0] == subject


@pytest.mark.parametrize("text, subject, value", [
    ("Actually, weather is 20 degrees", "fact:weather", "weather: 20 degrees"),
    ("不对，将军是张三", "fact:将军", "将军: 张三"),
    ("不对，预算是8000", "budget", "预算: 8000"),
])
def test_a_correction_names_its_whole_subject(text, subject, value):
    (candidate,) = extract(text)
    assert (candidate.action, candidate.subject, candidate.value) == ("correct", subject, value)
