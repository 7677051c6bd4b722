"""Someone else's diet is a profile item of its own, whose it is in its subject ("my friend Priya
is vegetarian"); a new diet of theirs replaces it, named or by a pronoun ("Priya told me she went
fully vegan"). hc-en-02, run G: the diet and Jake's allergy were one item, the vegan change
superseded a model copy, and the final plan was left with "Priya is vegetarian"."""

from __future__ import annotations

import pytest

from desktop_app.memory.write.extraction import extract


@pytest.mark.parametrize("text, subject", [
    ("My sister is vegetarian.", "diet:sister"),
    ("Priya went fully vegan last month.", "diet:priya"),
    ("My dad doesn't eat pork.", "diet:dad"),
    ("我妹妹吃素", "diet:妹妹"),
    ("我妈不吃辣", "diet:妈"),
    ("小雨现在吃全素了", "diet:小雨"),
])
def test_someone_elses_diet_is_theirs(text, subject):
    [candidate] = extract(text)
    assert (candidate.kind, candidate.subject) == ("fact", subject)


@pytest.mark.parametrize("text", ["The soup is vegan.", "This is vegan.", "Is the risotto vegan?", "She is vegan.",
                                  "这个因素很重要", "元素周期表"])
def test_a_dish_or_an_unnamed_she_has_no_diet(text):
    assert not [c for c in extract(text) if c.subject.startswith("diet")]


def test_my_own_diet_stays_mine():
    assert [c.subject for c in extract("我也不吃辣")] == ["diet"]
    assert [c.subject for c in extract("I'm vegetarian.")] == ["diet"]


@pytest.mark.parametrize("lang, said, change, now, gone", [
    ("en", "Dietary stuff: my friend Priya is vegetarian, and Jake has a shellfish allergy. A serious one, he carries an EpiPen.",
     "Change of plan: Priya told me she went fully vegan last month, so the vegetarian option needs to be vegan now.",
     "vegan", "is vegetarian"),
    ("zh", "我表妹小雨吃素，我二舅对虾过敏。", "小雨说她现在不吃辣了，吃全素", "全素", "小雨吃素"),
])
def test_a_new_diet_replaces_theirs_and_the_allergy_beside_it_stays(conversation, lang, said, change, now, gone):
    convo = conversation(lang=lang)
    convo.say(said)
    allergies = [i for i in convo.active() if i.subject.startswith("allergy:")]
    assert len(allergies) == 1 and allergies[0].scope == "profile"
    convo.say(change)
    diets = [i for i in convo.active() if i.subject.startswith("diet:")]
    assert len(diets) == 1 and now in diets[0].value and diets[0].scope == "profile", [i.value for i in convo.active()]
    assert not any(gone in i.value for i in convo.active())
    assert [i.id for i in convo.active() if i.subject.startswith("allergy:")] == [allergies[0].id], "the allergy stays"
