"""The memory in use: which items the prompt gave the model, and which the reply used (pure)."""

from __future__ import annotations

from desktop_app.memory.core.plan import Layer, LayerItem
from desktop_app.memory.reply_use import given_items, memory_in_use, value_used


def layers() -> dict[str, Layer]:
    return {
        "anchors": Layer(items=[LayerItem(id=3, kind="constraint", value="总预算是一万二千元"),
                                LayerItem(id=4, kind="directive", value="always answer in one short paragraph")]),
        "state": Layer(items=[LayerItem(id=5, kind="fact", status="active", value="I am allergic to peanuts"),
                              LayerItem(id=6, kind="fact", status="superseded", value="budget 8000 yuan"),
                              LayerItem(id=3, kind="constraint", status="active", value="总预算是一万二千元"),
                              LayerItem(type="replay", id=9, value="a replayed turn")]),
        "recent": Layer(items=[LayerItem(message_id=1, role="user", turn=1)]),
        "changes": Layer(items=[LayerItem(type="new", id=7, kind="goal", status="active", value="plan a trip to Dali"),
                                LayerItem(type="revoked", id=8, kind="directive", status="revoked", value="use lists")]),
    }


def test_the_prompts_current_items_once_each():
    assert [i for i, _, _ in given_items(layers())] == [3, 4, 5, 7]


def test_a_value_is_used_when_its_number_or_most_of_its_words_show():
    assert value_used("总预算是一万二千元", "按12,000元的预算，住宿4000元，交通3000元。")
    assert value_used("总预算是一万二千元", "A 12k budget covers it.")
    assert not value_used("总预算是一万二千元", "按8000元的预算。")
    assert value_used("I am allergic to peanuts", "Skip the satay: you are allergic to peanuts.")
    assert not value_used("I am allergic to peanuts", "The satay is excellent.")


def test_memory_in_use_marks_each_item():
    used = {u.id: u.used for u in memory_in_use(layers(), "With 12000 yuan and no peanuts, try the noodle bar.")}
    assert used == {3: True, 4: False, 5: False, 7: False}
