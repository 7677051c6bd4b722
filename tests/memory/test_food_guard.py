"""Food an allergy or a diet in memory rules out, offered by a reply (the reply guard's
``ruled_out``): "Sushi with Shrimp" for a guest with a shellfish allergy (run G), "Chicken salad"
for a vegetarian (the issue's first walk). Pure, both languages."""

from __future__ import annotations

import pytest

from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.prompt.render import guard_note
from desktop_app.memory.reply_guard import guard_reply


def item(id_: int, value: str, subject: str = "", kind: str = "fact", status: str = "active") -> MemoryItem:
    return MemoryItem(id=id_, session_id=1, kind=kind, subject=subject, value=value, status=status, origin="user",
                      state_version=1, created_at=0.0, updated_at=0.0)


def ruled_out(reply: str, items: list[MemoryItem], lang: str = "en") -> list[int | None]:
    active = [i for i in items if i.status == "active"]
    history = [i for i in items if i.status != "active"]
    return [f.item for f in guard_reply(reply, active=active, history=history, lang=lang) if f.kind == "ruled_out"]


SHELLFISH = item(1, "Jake has a shellfish allergy", "allergy:jake")
VEGETARIAN = item(2, "I'm vegetarian", "diet")
SHRIMP_ZH = item(3, "我表妹小雨对虾过敏", "allergy:表妹小雨")
NO_SPICE = item(4, "我妈一点辣都不能吃", kind="constraint")
MEATLESS_ZH = item(5, "我吃素", "diet")


@pytest.mark.parametrize("lang, items, reply, expected", [
    ("en", [SHELLFISH], "1. **Sushi with Shrimp**: fresh and light.", [1]),
    ("en", [VEGETARIAN], "How about a chicken salad for the family?", [2]),
    ("en", [item(6, "Mia has a tree nut allergy", "allergy:mia")], "Pastéis de nata and almond cake at the bakery.", [6]),
    ("zh", [SHRIMP_ZH], "推荐一道白灼虾，简单又好吃。", [3]),
    ("zh", [NO_SPICE], "晚上可以吃麻辣火锅。", [4]),
    ("zh", [MEATLESS_ZH], "推荐宫保鸡丁和红烧肉。", [5]),
    # kept out, or only looking alike
    ("en", [SHELLFISH], "Skip the shrimp; grilled salmon works for everyone.", []),
    ("en", [SHELLFISH], "Make sure nothing on the menu has shellfish.", []),
    ("en", [VEGETARIAN], "A mock chicken salad with seitan, or a chickpea curry.", []),
    ("en", [item(6, "Mia has a tree nut allergy", "allergy:mia")], "Try a butternut squash soup with nutmeg.", []),
    ("en", [item(7, "my son has a severe peanut allergy", "allergy")],
     "A peanut-free spread: fruit skewers and popcorn. Check every label for 'may contain peanuts' warnings.", []),
    ("zh", [SHRIMP_ZH], "菜单里不放虾，用豆腐代替。", []),
    ("zh", [NO_SPICE], "清蒸鱼不辣，很适合阿姨。", []),
    ("zh", [MEATLESS_ZH], "推荐素鸡和鸡蛋羹。", []),
    # a superseded allergy rules nothing out; a restriction nobody has is no restriction
    ("en", [item(8, "I'm allergic to shellfish", "allergy", status="superseded")], "Garlic shrimp pasta tonight?", []),
    ("en", [item(9, "Grandma loves shrimp", "family")], "Garlic shrimp pasta for Grandma.", []),
    # a restriction lifted, a food refused by name rules out that food only, a stand-in is no food
    ("en", [item(10, "Turns out I'm not allergic to shrimp after all", "allergy")], "Shrimp tacos tonight!", []),
    ("zh", [item(11, "我现在不吃素了，医生让我多补点蛋白质", "diet")], "可以做番茄炖牛腩。", []),
    ("en", [item(12, "I started eating fish again, so I'm pescatarian now", "diet")], "Grilled salmon with greens.", []),
    ("en", [item(12, "I started eating fish again, so I'm pescatarian now", "diet")], "Grilled chicken with greens.", [12]),
    ("en", [item(13, "Grandma doesn't eat pork", "diet:grandma")], "Roast leg of lamb with rosemary.", []),
    ("en", [item(13, "Grandma doesn't eat pork", "diet:grandma")], "Pulled pork sliders for the BBQ.", [13]),
    ("zh", [item(14, "朋友阿里是回族，不吃猪肉", "diet:阿里")], "点手抓羊肉和大盘鸡。", []),
    ("en", [item(15, "I'm lactose intolerant", "diet")], "Use a vegan mozzarella on the pizza.", []),
    # sesame (bench health round twenty-one: "eat sesame (if applicable)" for a friend allergic to it passed)
    ("en", [item(16, "Rob can't eat sesame, he's allergic", "allergy:rob")], "Snacks: hummus and pitta, sesame bars.",
     [16]),
    ("zh", [item(17, "小雨对芝麻过敏", "allergy:小雨")], "第二天中午吃麻酱凉面。", [17]),
    ("en", [item(16, "Rob can't eat sesame, he's allergic", "allergy:rob")], "Keep the snacks sesame-free for Rob.", []),
])
def test_a_food_the_memory_rules_out_is_found(lang, items, reply, expected):
    assert ruled_out(reply, items, lang) == expected


def test_a_guests_diet_catered_for_apart_leaves_the_others_their_dish():
    guest = item(1, "one guest is vegetarian", "dietary")
    assert ruled_out("A big roast chicken, and a mushroom and lentil dish for your vegetarian guest.", [guest]) == []
    assert ruled_out("A big roast chicken for everyone.", [guest]) == [1]
    priya = item(3, "my friend Priya is vegan", "diet:priya")
    assert ruled_out("For everyone else, grilled chicken skewers; Priya gets a chickpea curry.", [priya]) == []
    assert ruled_out("Priya would love a cheese board: a ripe brie and an aged cheddar.", [priya]) == [3]
    assert ruled_out("A menu for the whole table, Priya included:\n1. Beet salad\n2. Risotto with butter", [priya]) == [3]
    allergy = item(2, "one guest has a shellfish allergy", "allergy")
    assert ruled_out("Garlic prawns, and a pasta for your guest with the allergy.", [allergy]) == [2], \
        "an allergy is never served to the table"


@pytest.mark.parametrize("lang, items, reply, words", [
    ("en", [SHELLFISH], "Shrimp cocktail to start.", ("Jake has a shellfish allergy", "Shrimp")),
    ("zh", [SHRIMP_ZH], "先来一份白灼虾。", ("我表妹小雨对虾过敏", "虾")),
])
def test_the_retry_is_told_what_to_leave_out(lang, items, reply, words):
    note = guard_note(guard_reply(reply, active=items, lang=lang), lang)
    assert all(w in note for w in words), note


@pytest.mark.parametrize("lang, items, reply, expected", [
    # a warning that lists the foods keeps them all out; a negation only before the food in its clause
    ("en", [SHELLFISH], "Avoid anything with shellfish, like shrimp, crab and lobster.", []),
    ("zh", [SHRIMP_ZH], "点菜时避开这些：虾、蟹、扇贝。", []),
    ("en", [SHELLFISH], "Don't miss the shrimp tacos.", [1]),
    ("en", [SHELLFISH], "Check out the shrimp tacos, or feel free to add shrimp to the salad.", [1]),
    ("zh", [MEATLESS_ZH], "不错的选择是宫保鸡丁。", [5]),
    # a stand-in only for its own family; words that only look like a food
    ("en", [SHELLFISH], "Coconut shrimp to start.", [1]),
    ("en", [item(16, "my son has a peanut allergy", "allergy:son")], "Tofu satay skewers for the kids.", [16]),
    ("en", [item(17, "My son has a nut allergy", "allergy:son")], "Pack peanut butter sandwiches.", [17]),
    ("zh", [MEATLESS_ZH], "多做力量训练，增加肌肉。", []),
    ("zh", [item(18, "我对海鲜过敏", "allergy")], "周末可以去钓鱼，看看鲸鱼。", []),
    ("en", [VEGETARIAN], "Visit Turkey in spring.", []),
    # a guest's name elsewhere is no dish given to them
    ("en", [item(19, "my friend Priya is vegetarian", "diet:priya")],
     "Since Priya is vegetarian, I suggest chicken skewers and hummus.", [19]),
])
def test_the_review_cases(lang, items, reply, expected):
    assert ruled_out(reply, items, lang) == expected


def test_a_restriction_said_with_anymore_still_restricts():
    from desktop_app.memory.food_guard import ruled_out_by

    assert [f.name for f in ruled_out_by(item(1, "I don't eat meat anymore", "diet"))] == ["meat"]
    assert ruled_out_by(item(2, "I don't have a peanut allergy", "allergy")) == []
