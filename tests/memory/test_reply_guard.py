"""The reply guard: a reply checked against memory, each finding naming its item (pure, both languages)."""

from __future__ import annotations

import pytest

from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.amounts import amounts, chinese_value
from desktop_app.memory.prompt.render import plain_value
from desktop_app.memory.recap import left_out
from desktop_app.memory.reply_guard import guard_reply


def item(id_: int, value: str, *, kind: str = "constraint", subject: str = "", status: str = "active",
         supersedes: int | None = None) -> MemoryItem:
    return MemoryItem(id=id_, session_id=1, kind=kind, subject=subject, value=value, status=status, origin="user",
                      supersedes=supersedes, state_version=1, created_at=0.0, updated_at=0.0)


def kinds(reply: str, items: list[MemoryItem], lang: str = "en", finished: bool = True) -> list[tuple[str, int | None]]:
    active = [i for i in items if i.status == "active"]
    history = [i for i in items if i.status != "active"]
    return [(f.kind, f.item) for f in guard_reply(reply, active=active, history=history, lang=lang, finished=finished)]


@pytest.mark.parametrize("text, value", [("三万五", 35000), ("两千", 2000), ("十二", 12), ("一万二千五百", 12500),
                                         ("五", 5)])
def test_chinese_numerals(text, value):
    assert chinese_value(text) == value


@pytest.mark.parametrize("text, value, unit", [
    ("$5,000", 5000, "money"), ("5k dollars", 5000, "money"), ("预算3.5万元", 35000, "money"),
    ("两千块", 2000, "money"), ("一共5个人", 5, "people"), ("we are 6 people", 6, "people"), ("8000", 8000, None),
    # a digit spoken after 万 or 千 is the place below it (bench health: "预算总共1万5" was 10000 and 5)
    ("预算总共1万5", 15000, None), ("2千5块", 2500, "money"), ("1万2千", 12000, None),
])
def test_numbers_in_every_form_are_normalised_with_their_unit(text, value, unit):
    found = amounts(text)
    assert [(a.value, a.unit) for a in found] == [(value, unit)]


BUDGET_EN = [item(1, "total budget 5000 dollars", subject="budget", status="superseded"),
             item(2, "total budget 8000 dollars", subject="budget", supersedes=1)]
BUDGET_ZH = [item(1, "总预算5000元", subject="预算", status="superseded"),
             item(2, "总预算8000元", subject="预算", supersedes=1)]


def test_an_old_value_stated_as_current_is_superseded():
    assert kinds("With your budget of $5,000, I suggest three nights in Porto.", BUDGET_EN) == [("superseded", 1)]
    assert kinds("按5000元的预算，建议住三晚。", BUDGET_ZH, "zh") == [("superseded", 1)]


def test_an_old_value_beside_the_current_one_is_history():
    assert kinds("You first planned $5,000; with the new $8k budget there is room for a fourth night.", BUDGET_EN) == []
    assert kinds("预算从原来的5000元提高到了8000元，可以多住一晚。", BUDGET_ZH, "zh") == []
    assert kinds("Originally 5000 dollars was the plan.", BUDGET_EN) == []


def test_a_total_over_the_ceiling_breaks_the_limit_but_a_smaller_price_does_not():
    assert kinds("The hotel is 900 dollars and flights 7,600 dollars: 8,500 dollars in total.", BUDGET_EN) == \
        [("limit", 2)]
    assert kinds("机票和住宿加起来一共9千元。", BUDGET_ZH, "zh") == [("limit", 2)]
    assert kinds("A room costs 120 dollars a night, well within the 8000 dollars.", BUDGET_EN) == []
    assert kinds("总价约1.2万元", [item(3, "预算不超过1.2万元", subject="预算")], "zh") == []


def test_a_different_head_count_breaks_the_stated_one():
    people = [item(4, "we are 6 people", kind="fact", subject="party size")]
    assert kinds("Here is a dinner plan for 8 people.", people) == [("limit", 4)]
    assert kinds("A table for 6 people at 7 pm.", people) == []
    assert kinds("一共订了5个人的桌。", [item(5, "一共6个人", kind="fact", subject="人数")], "zh") == [("limit", 5)]


def test_checkable_rules_are_checked():
    chinese = [item(6, "Always answer in Chinese.", kind="directive", subject="language")]
    assert kinds("Sure, here is the plan for the weekend in Lisbon.", chinese) == [("directive", 6)]
    assert kinds("好的，这是周末的里斯本行程安排。", chinese) == []
    short = [item(7, "Keep replies under 20 words.", kind="directive")]
    assert kinds(" ".join(["word"] * 25), short) == [("directive", 7)]
    assert kinds("Two nights in Porto, then the coast.", short) == []
    no_list = [item(8, "不要用列表，正常说话就行", kind="directive")]
    assert kinds("建议如下：\n- 第一天去古城\n- 第二天去洱海", no_list, "zh") == [("directive", 8)]
    assert kinds("第一天去古城，第二天去洱海。", no_list, "zh") == []
    chars = [item(9, "回答不超过30字", kind="directive")]
    assert kinds("第一天去古城，第二天去洱海骑行，第三天去喜洲古镇吃破酥粑粑，第四天回昆明。", chars, "zh") == [("directive", 9)]


def test_a_forbidden_word_is_found_unless_the_reply_keeps_it_out():
    rule = [item(10, "Never mention peanuts.", kind="directive")]
    assert kinds("Try the satay with peanuts on top.", rule) == [("directive", 10)]
    assert kinds("I won't include peanuts anywhere.", rule) == []


def test_a_dropped_rule_applied_again_is_revoked():
    dropped = [item(11, "Always answer in English.", kind="directive", status="revoked")]
    assert kinds("Here is your plan for the trip to Dali next week.", dropped, "zh") == [("revoked", 11)]
    assert kinds("这是你下周去大理的行程。", dropped, "zh") == []


def test_a_reply_cut_at_the_length_limit():
    assert kinds("Day 1: the old town. Day 2:", [], finished=False) == [("cut_off", None)]
    assert kinds("Day 1: the old town.", []) == []


# Values without a number are compared as words: the reply uses what only the old value said,
# and nothing only the new one says.
VENUE_EN = [item(1, "The reunion is at the Harbour Hotel in Brighton", kind="decision", subject="venue",
                 status="superseded"),
            item(2, "We moved the reunion to the Castle Inn in Lewes", kind="decision", subject="venue", supersedes=1)]
VENUE_ZH = [item(1, "婚宴定在杭州的西湖宾馆", kind="decision", subject="婚宴", status="superseded"),
            item(2, "婚宴改到苏州的园林酒店了，不去杭州", kind="decision", subject="婚宴", supersedes=1)]


@pytest.mark.parametrize("reply, items, lang, expected", [
    ("The Harbour Hotel in Brighton has a sea-view room for forty.", VENUE_EN, "en", [("superseded", 1)]),
    ("The Castle Inn in Lewes has a room for forty.", VENUE_EN, "en", []),
    ("You first booked Brighton, but now it is the Castle Inn in Lewes.", VENUE_EN, "en", []),
    ("西湖宾馆的宴会厅可以摆二十桌，杭州的交通也方便。", VENUE_ZH, "zh", [("superseded", 1)]),
    ("苏州园林酒店的宴会厅可以摆二十桌。", VENUE_ZH, "zh", []),
])
def test_a_replaced_name_or_place_stated_as_current(reply, items, lang, expected):
    assert kinds(reply, items, lang) == expected


def test_numbers_that_are_not_amounts_of_money_break_no_budget():
    budget = [item(1, "our budget is $500 in total", subject="budget")]
    assert kinds("Call them on 555-0199 or (212) 555 0100; the trail climbs to 1,200 m.", budget) == []
    assert kinds("Dinner is $120 per person, $240 for the two of you.", budget) == []
    assert kinds("The package costs $650.", budget) == [("limit", 1)]
    per_head = [item(1, "人均餐标不超过150元", subject="餐标")]
    assert kinds("选人均138元的套餐，30人一共4140元。", per_head, "zh") == []
    assert kinds("选人均168元的套餐。", per_head, "zh") == [("limit", 1)]


def test_a_share_of_the_group_is_not_the_head_count():
    people = [item(1, "一共24个人参加", subject="人数")]
    assert kinds("24个人分成三组，每组8个人。", people, "zh") == []
    assert kinds("按20个人准备。", people, "zh") == [("limit", 1)]


def test_a_dropped_rule_carried_out_or_cited_is_reported():
    ending = [item(1, "End every reply with 'Cheers, mate!'", kind="directive", status="revoked")]
    assert kinds("Pack light and book early. Cheers, mate!", ending) == [("revoked", 1)]
    assert kinds("Pack light and book early.", ending) == []
    short = [item(1, "每次回答不超过80字", kind="directive", status="revoked")]
    assert kinds("老规矩，不超过80字：先订票，再订酒店。", short, "zh") == [("revoked", 1)]
    assert kinds("你已经取消了每次回答不超过80字的要求，这次详细说说。", short, "zh") == []


def test_a_forbidden_word_in_one_clause_is_not_excused_by_another():
    rule = [item(1, "以后不要提到'加班'这两个字", kind="directive")]
    assert kinds("很多人为了加班熬夜，但你可以不用这样。", rule, "zh") == [("directive", 1)]
    assert kinds("这周的安排很轻松。", rule, "zh") == []


def test_limits_in_measures_are_not_compared_across_units():
    hours = [item(1, "I can study at most 3 hours a day")]
    assert kinds("Two 90 minute blocks with a break between them.", hours) == []
    walk = [item(1, "膝盖不好，一次最多走2公里")]
    assert kinds("全程13.7公里，分三天走，每天不到5公里。", walk, "zh") == []


def test_a_value_reworded_around_the_same_amount_is_not_a_replaced_name():
    """Seen in a real session: the model pass refiled a sentence as "旅行预算: 8000元"; a reply
    mentioning 住宿 or 旅行 states nothing old."""
    items = [item(1, "我们一家四口想十月去大理玩五天，总预算8000元，包括机票和住宿", subject="预算",
                  status="superseded"),
             item(2, "旅行预算: 8000元", subject="旅行预算", supersedes=1, status="superseded"),
             item(3, "预算: 12000元了，年终奖发下来了", subject="预算", supersedes=2)]
    assert kinds("住宿可以选古城里的客栈，旅行第一天先去洱海。", items, "zh") == []
    assert kinds("按8000元的预算安排。", items, "zh") == [("superseded", 1), ("superseded", 2)]


RECAP_EN = [item(1, "total budget €6,500", subject="budget"), item(2, "5 people", kind="fact", subject="travellers"),
            item(3, "Mia has a tree nut allergy", kind="fact", subject="allergy"),
            item(4, "conclusion first, then the details", kind="directive", subject="reply style")]
RECAP_ZH = [item(1, "预算2.5万", subject="预算"), item(2, "一共5个人", kind="fact", subject="人数"),
            item(3, "我妈一点辣都不能吃", kind="fact", subject="饮食"),
            item(4, "先说结论再说细节", kind="directive", subject="回复")]


def omitted(reply: str, items: list[MemoryItem], user_text: str, lang: str) -> list[str]:
    found = guard_reply(reply, active=items, lang=lang, user_text=user_text)
    return [f.current for f in found if f.kind == "omitted"]


@pytest.mark.parametrize("lang, items, ask, reply, missing", [
    ("en", RECAP_EN, "Okay, summarise all my constraints and give me the final plan.",
     "Final plan: a week in Lisbon for the five of you, staying in Baixa.", ["total budget €6,500; Mia has a tree nut allergy"]),
    ("en", RECAP_EN, "Sum up all constraints + final plan pls",
     "Budget €6,500 for 5 people; Mia's tree nut allergy means no cashews.", []),
    ("zh", RECAP_ZH, "好，把我所有要求总结一下，给我最终方案",
     "最终方案：5个人去大理，住古城附近。", ["预算2.5万；我妈一点辣都不能吃"]),
    ("zh", RECAP_ZH, "总结一下我们所有要求 给最终方案",
     "预算25000元，一共五个人；妈妈不能吃辣，点菜要清淡。", []),
])
def test_a_summary_of_everything_must_name_every_current_value(lang, items, ask, reply, missing):
    assert omitted(reply, items, ask, lang) == missing


@pytest.mark.parametrize("lang, items, ask", [
    ("en", RECAP_EN, "Which neighbourhoods are good to stay in with kids?"),
    ("en", RECAP_EN, "Summarize this email for me: hi all, the meeting moved."),
    ("zh", RECAP_ZH, "总结一下这封邮件：各位同事，会议改期了。"),
    ("zh", RECAP_ZH, "大理和丽江选一个还是都去？"),
])
def test_only_a_request_to_sum_everything_up_asks_for_every_value(lang, items, ask):
    assert omitted("Stay in Baixa. 住古城。", items, ask, lang) == []


@pytest.mark.parametrize("lang, ask, items", [
    ("en", "Okay, summarise all my constraints and give me the final plan.",
     [item(1, "There'll be 4 of us, flying out July 14, for 7 days", kind="fact", subject="trip"),
      item(2, "4 of us", kind="fact", subject="head count", status="superseded"),
      item(3, "make that 5 people", kind="fact", subject="head count", supersedes=2)]),
    ("zh", "好，把我所有要求总结一下，给我最终方案",
     [item(1, "我们一共4个人，10月1号出发，玩6天", kind="fact", subject="行程"),
      item(2, "我们一共4个人", kind="fact", subject="人数", status="superseded"),
      item(3, "那就5个人了", kind="fact", subject="人数", supersedes=2)]),
])
def test_a_value_said_beside_an_old_one_is_asked_for_without_it(lang, ask, items):
    active = [i for i in items if i.status == "active"]
    history = [i for i in items if i.status != "active"]
    asked = [i.value for i in left_out("Lisbon. 大理。", active, ask, history)]
    assert asked[-1] == plain_value(items[2].value), "the current count"
    assert len(asked) == 2 and not any(old in asked[0] for old in ("4 of us", "4个人")), \
        "the rest of the sentence that held 4, without it"
    assert ("July 14" in asked[0] and "7 days" in asked[0]) if lang == "en" else ("10月1号" in asked[0] and "6天" in asked[0])


@pytest.mark.parametrize("lang, ask, items, expected", [
    ("zh", "好，把我所有要求总结一下，给我最终方案",
     [item(1, "还有我妈一点辣都不能吃，吃饭的时候要注意", subject="饮食"), item(2, "吃饭的时候要注意", kind="fact")],
     ["我妈一点辣都不能吃，吃饭的时候要注意"]),
    ("en", "Okay, summarise all my constraints and give me the final plan.",
     [item(1, "Mia has a tree nut allergy, cashews and almonds included", kind="fact"),
      item(2, "cashews and almonds included", kind="fact")],
     ["Mia has a tree nut allergy, cashews and almonds included"]),
])
def test_a_piece_of_another_value_is_not_asked_for_twice(lang, ask, items, expected):
    found = [f.current for f in guard_reply("Lisbon. 大理。", active=items, lang=lang, user_text=ask) if f.kind == "omitted"]
    assert found == expected


def test_an_added_value_drops_a_label_its_words_repeat():
    from desktop_app.memory.recap import completion

    added = completion([item(1, "tree nut allergy: Our younger one, Mia, has a tree nut allergy", kind="fact"),
                        item(2, "flight: way cheaper", kind="fact"), item(3, "预算: 2.5万预算")], "en")
    assert added.splitlines()[-3:] == ["- Your younger one, Mia, has a tree nut allergy", "- flight: way cheaper",
                                      "- 2.5万预算"]


@pytest.mark.parametrize("lang, ask, reply, items, missing", [
    ("zh", "好，把我所有要求总结一下，给我最终方案", "最终方案：\n1. 预算2.5万\n2. 住古城\n6. 出发前订票",
     [item(1, "10月1号出发", kind="fact"), item(2, "预算2.5万")], ["10月1号出发"]),
    ("en", "Okay, summarise all my constraints and give me the final plan.",
     "Final plan:\n1. Budget 6,500 euros\n14. Book early",
     [item(1, "flying out July 14", kind="fact"), item(2, "budget 6,500 euros")], ["flying out July 14"]),
])
def test_a_lists_numbering_names_no_value(lang, ask, reply, items, missing):
    found = [f.current for f in guard_reply(reply, active=items, lang=lang, user_text=ask) if f.kind == "omitted"]
    assert found == missing


def test_a_remark_the_model_filed_as_a_fact_is_not_asked_for_in_a_summary():
    # hc-en-02: the program added "ugh the weather is awful today, …" and "it's fine either way" to
    # a final plan because the 0.5B's pass had filed them as facts.
    remark = item(5, "ugh the weather is awful today, I was supposed to go to the farmers market", kind="fact",
                  subject="weather").model_copy(update={"origin": "model"})
    either = item(6, "it's fine either way", kind="fact", subject="note").model_copy(update={"origin": "model"})
    guests = item(7, "guests: 10 guests", kind="fact", subject="guests").model_copy(update={"origin": "model"})
    left = left_out("Final plan: a taco night on Saturday.", [remark, either, guests],
                    "Give me the full final plan with all my constraints summarised.")
    assert [i.id for i in left] == [7], "a value the model filed with a number still counts"


def test_the_goal_is_part_of_a_summary_where_it_holds_the_date():
    dated = item(8, "I'm hosting a dinner party on Saturday the 18th", kind="goal", subject="goal")
    plain = item(9, "帮我规划一下带爸妈去云南玩的行程呗", kind="goal", subject="goal")
    ask = "Give me the full final plan with all my constraints summarised."
    assert [i.id for i in left_out("Final plan: tacos for everyone.", [dated, plain], ask)] == [8]
    assert left_out("Final plan for Saturday the 18th: tacos.", [dated, plain], ask) == []


def test_a_text_holds_only_counts_when_every_number_in_it_counts_something():
    from desktop_app.memory.lang.amounts import only_counts

    assert only_counts("8 guests") == {(8.0, "people")}
    assert only_counts("八个人") == {(8.0, "people")}, "a Chinese numeral counts too"
    assert only_counts("总预算是8000元") == {(8000.0, "money")}
    assert only_counts("10月1号出发，预算8000元") == frozenset(), "a date beside the budget says more"
    assert only_counts("压到1200吧") == frozenset(), "a bare number counts nothing said"
    assert only_counts("3,454 m") == frozenset()
    assert only_counts("no number") == frozenset()


def test_a_summary_names_the_users_questions_still_open():
    from desktop_app.memory.recap import completion, still_open

    # hc-zh-02: "鱼要不要整条蒸？年年有余嘛" two turns before "总结一下我的所有要求，给我最终方案"; the plan never said.
    fish = item(3, "鱼要不要整条蒸", kind="open_question", subject="q:整条")
    budget = item(4, "预算也还是按1500吧")
    ask = "好了，总结一下我的所有要求，给我最终方案"
    assert still_open("最终方案：预算1500元，12个人。", [fish, budget], ask) == [fish]
    assert still_open("最终方案：预算1500元，鱼整条清蒸，年年有余。", [fish, budget], ask) == []
    assert still_open("凉菜两个。", [fish, budget], "几个凉菜比较合适？") == [], "only a summary of everything"
    added = completion([], "zh", [fish])
    assert added.splitlines()[-2:] == ["还没定下来、你问过的：", "- 鱼要不要整条蒸"]
    assert completion([budget], "zh", [fish]).count("\n\n") == 2, "values first, then the open questions"
    # hc-zh-01: the program added "budget: 2.5万" to a Chinese plan.
    assert completion([item(5, "budget: 2.5万")], "zh").splitlines()[-1] == "- 预算：2.5万"


@pytest.mark.parametrize("lang, reply, items, missing", [
    # hc-zh-01 (round five): a rambling plan "named" 玩6天 by "6个月", 5个人 by "### 5. 预算调整" and
    # "对了我爸有高血压" by characters spread over the whole reply.
    ("zh", "最终方案：\n建议提前订30天到6个月的机票。\n\n### 5. 预算调整\n- 了解我们有什么选择，老爸喜欢高处。\n- 血拼压力小。",
     [item(1, "玩6天", kind="fact"), item(2, "5个人", kind="fact", subject="head count"),
      item(3, "对了我爸有高血压", kind="fact")], ["玩6天", "5个人", "对了我爸有高血压"]),
    ("zh", "最终方案：玩6天。\n人数：5\n- 爸爸高血压，少爬坡。",
     [item(1, "玩6天", kind="fact"), item(2, "5个人", kind="fact", subject="head count"),
      item(3, "对了我爸有高血压", kind="fact")], []),
    ("en", "Final plan: book 6 months ahead.\n**2.** Budget talk\nMia loves the beach. The tree house is nice. A nut bar is open.",
     [item(1, "6 days", kind="fact"), item(2, "2 kids", kind="fact"), item(3, "Mia has a tree nut allergy", kind="fact")],
     ["6 days", "2 kids", "Mia has a tree nut allergy"]),
    ("en", "Final plan: 6 days in Lisbon.\nGuests: 10\nMia: tree nut allergy, so no cashews.",
     [item(1, "6 days", kind="fact"), item(2, "10 guests", kind="fact", subject="head count"),
      item(3, "Mia has a tree nut allergy", kind="fact")], []),
])
def test_a_long_plan_names_a_value_only_where_it_says_it(lang, reply, items, missing):
    ask = {"zh": "好，把我所有要求总结一下，给我最终方案", "en": "Okay, summarise all my constraints and give me the final plan."}
    assert [i.value for i in left_out(reply, items, ask[lang])] == missing


def test_a_bare_number_names_a_count_only_under_its_label():
    # hc-en-02, round five: "head counts for each person at the party (10 now)" was taken to name
    # "head count: 10 now"; the user read no head count in the plan.
    ask = "Great. Give me the full final plan with all my constraints summarised."
    count = item(1, "head count: 10 now", kind="fact", subject="head count")
    assert left_out("Plan: guests and their phone numbers, head counts for each person at the party (10 now).",
                    [count], ask) == [count]
    assert left_out("Plan: head count 10, tacos.", [count], ask) == []
    assert left_out("Plan: tacos for 10.", [count], ask) == []


@pytest.mark.parametrize("lang, items, reply, expected", [
    # hc-zh-01, round five: with 2.5万 in memory (2万 before), the 0.5B's plan said "预算为8000元".
    ("zh", [item(1, "预算总共2万左右", subject="预算", status="superseded"),
            item(2, "人多了预算也加点吧，2.5万", subject="预算", supersedes=1)],
     "行程安排如下：\n- 预算为8000元。", [("superseded", 2)]),
    ("zh", [item(2, "人多了预算也加点吧，2.5万", subject="预算")], "住宿预算为800元，人均150元。", []),
    ("zh", [item(2, "人多了预算也加点吧，2.5万", subject="预算")], "预算：25000元，机票大概3000元。", []),
    ("en", [item(1, "Budget is about €5,000 total", subject="budget", status="superseded"),
            item(2, "Let's say €6,500 now", subject="budget", supersedes=1)],
     "**Budget:** €4,000\nFlights first.", [("superseded", 2)]),
    ("en", [item(2, "Let's say €6,500 now", subject="budget")], "The food budget is €300 and flights cost €1,200.", []),
    ("en", [item(2, "Let's say €6,500 now", subject="budget")], "The budget is €6,500; that leaves €700 for extras.", []),
])
def test_a_budget_memory_never_held_is_misstated(lang, items, reply, expected):
    assert kinds(reply, items, lang) == expected


def test_a_bare_number_beside_the_count_is_not_the_count():
    # A Chinese session under Pilot, round six: "我们一共3个人，我、我老婆和5岁的儿子" under 人数 made the guard
    # read the age 5 as a head count of 5, and "我们一共3个人" in the reply as breaking it.
    family = item(3, "我们一共3个人，我、我老婆和5岁的儿子", kind="fact", subject="人数")
    assert kinds("结论：我们一共3个人，我、我老婆和5岁的儿子。", [family], "zh") == []
    assert kinds("按4个人订房。", [family], "zh") == [("limit", 3)]
    party = item(4, "There are 3 of us: me, my wife and our 5-year-old", kind="fact", subject="head count")
    assert kinds("For the 3 of you, a family room works.", [party]) == []


@pytest.mark.parametrize("lang, both, old, new, reply, ask, wanted", [
    ("en", "There'll be 4 of us, flying out July 14", "There'll be 4 of us", "make that 5 people", "Plan: Lisbon for a week.",
     "Great. Give me the full final plan with all my constraints summarised.", ["flying out July 14", "make that 5 people"]),
    ("zh", "我们4个人，10月1号出发", "我们4个人", "那就5个人了", "方案：昆明玩一周。", "总结一下我的所有要求，给我最终方案",
     ["10月1号出发", "那就5个人了"]),
])
def test_a_summary_still_asks_for_the_rest_of_a_sentence_that_held_an_old_value(lang, both, old, new, reply, ask, wanted):
    # The head count changed; the departure said in the same sentence did not, and a plan that
    # left it out was not told so (the whole sentence was dropped for its old head count).
    items = [item(1, both, kind="fact", subject="when:flying"), item(2, old, kind="fact", subject="head count",
                                                                    status="superseded"),
             item(3, new, kind="fact", subject="head count", supersedes=2)]
    active = [i for i in items if i.status == "active"]
    history = [i for i in items if i.status != "active"]
    assert [i.value for i in left_out(reply, active, ask, history)] == wanted
    assert left_out("Plan: we fly out July 14 with 5 people." if lang == "en" else "方案：10月1号出发，5个人。",
                    active, ask, history) == []


def test_a_summary_loses_the_sentences_stating_a_replaced_day_or_an_amount_written_with_a_space():
    # Run H, hc-en-01: the final plan said "your budget of €5, 000" and "on July 14" (now €6,500, July 21).
    from desktop_app.memory.reply_guard import stale_sentences

    items = [item(1, "flying out July 14", kind="fact", subject="when:flying", status="superseded"),
             item(2, "flights are way cheaper if we leave July 21 instead", kind="fact", subject="when:flying",
                  supersedes=1),
             item(3, "Budget is about €5,000 total", subject="budget", status="superseded"),
             item(4, "budget: €6,500", subject="budget", supersedes=3)]
    reply = ("Here's the final plan:\n1. Choose a travel manager within your budget of €5, 000.\n"
             "2. Stay near Mia's school on July 14 or any other day.\n3. Explore Alfama.")
    active = [i for i in items if i.status == "active"]
    history = [i for i in items if i.status != "active"]
    assert [s.strip() for s in stale_sentences(reply, active, history)] == [  # (each list line whole, its number too)
        "1. Choose a travel manager within your budget of €5, 000.",
        "2. Stay near Mia's school on July 14 or any other day."]
    assert stale_sentences("Fly out July 21, budget €6,500.", active, history) == []


ZH_ASK, EN_ASK = "好，把我所有要求总结一下，给我最终方案", "Okay, summarise all my constraints and give me the final plan."


@pytest.mark.parametrize("lang, ask, reply, named", [
    # Run H, hc-zh-01's final plan: the wrong day, and "一个" for the 1.
    ("zh", ZH_ASK, "结论：该行程将是一个充满挑战的活动。\n细节：\n1. **日期**：10月2日（星期二），玩6天", False),
    ("zh", ZH_ASK, "最终方案：10月1日出发，一共玩6天。", True),
    ("en", EN_ASK, "Final plan: fly out July 15 with 14 kg bags, 7 days.", False),
    ("en", EN_ASK, "Final plan: leave on the 14th of July, 7 days.", True),
    ("en", EN_ASK, "Final plan: leave Jul 14, 7 days.", True),
])
def test_a_date_is_named_by_its_month_and_day_together(lang, ask, reply, named):
    items = [item(1, "10月1号出发，玩6天" if lang == "zh" else "flying out July 14, for 7 days", kind="fact")]
    found = [f.current for f in guard_reply(reply, active=items, lang=lang, user_text=ask) if f.kind == "omitted"]
    assert found == ([] if named else [items[0].value])


@pytest.mark.parametrize("value, reply", [("10月1号到10月7号", "最终方案：10月1日至7日，住古城。"),
                                          ("September 14", "Final plan: Sept 14, in the barn."),
                                          ("flying out July 14", "Final plan: fly out 7/14."),
                                          ("10月1号出发", "最终方案：10/1出发。")])
def test_a_date_written_short_still_names_it(value, reply):
    items = [item(1, value, kind="fact")]
    ask = ZH_ASK if "月" in value else EN_ASK
    assert [f for f in guard_reply(reply, active=items, lang="zh" if "月" in value else "en", user_text=ask)
            if f.kind == "omitted"] == []


@pytest.mark.parametrize("lang, compound, allergy, vegan, reply", [
    # Run I, hc-en-02: the pass's copy of the compound sentence, replaced by Priya's new diet, made the
    # current allergy look like an old value, and the final plan lost it.
    ("en", "friend Priya: my friend Priya is vegetarian, and Jake has a shellfish allergy", "Jake has a shellfish allergy",
     "Priya told me she went fully vegan", "Final plan: risotto for 10, a vegan option for Priya."),
    ("zh", "表妹: 我表妹小雨吃素，我舅舅对虾过敏", "我舅舅对虾过敏", "小雨说她现在吃全素", "最终方案：10个人，给小雨做全素的菜。"),
])
def test_a_value_a_replaced_copy_also_held_is_still_asked_for(lang, compound, allergy, vegan, reply):
    items = [item(1, compound, kind="fact", subject="diet:priya", status="superseded"),
             item(2, vegan, kind="fact", subject="diet:priya", supersedes=1),
             item(3, allergy, kind="fact", subject="allergy:jake").model_copy(update={"scope": "profile"})]
    active = [i for i in items if i.status == "active"]
    asked = [i.value for i in left_out(reply, active, ZH_ASK if lang == "zh" else EN_ASK, [items[0]])]
    assert allergy in asked, asked


def test_an_old_head_count_is_seen_beside_a_date_said_with_from(conversation):
    """A Pilot walk, round thirteen: "我们总共有4个游客…我们将从10月1号出发" to "那就5个人了" — the "从" of the date
    read as "changed from", and the old 4 passed. "从4个人改成5个人" still marks it as history."""
    from desktop_app.memory.reply_guard import guard_reply

    convo = conversation(lang="zh")
    convo.say("我们一共4个人，我、我老公，还有我爸妈")
    convo.say("我弟说他也要跟着去，那就5个人了")
    items = convo.store.list_items(convo.sid, statuses=("active", "superseded"))
    active, past = [i for i in items if i.status == "active"], [i for i in items if i.status != "active"]
    stale = "我们总共有4个游客（包括我和我老公），我们将从10月1号出发前往云南。"
    assert [f.kind for f in guard_reply(stale, active=active, history=past, lang="zh")] == ["superseded"]
    told = "好的，从4个人改成5个人，我们将从10月1号出发。"
    assert guard_reply(told, active=active, history=past, lang="zh") == []


DEPARTS_ZH = [item(1, "departure: 10月1号", kind="fact", subject="departure"), item(2, "玩6天", kind="fact",
                                                                                 subject="trip length")]
DEPARTS_EN = [item(1, "we're leaving July 21", kind="fact", subject="departure"),
              item(2, "back home July 28", kind="fact", subject="return")]


@pytest.mark.parametrize("reply, memory, lang, said", [
    ("我之前说的几号出发来着是10月4号。", DEPARTS_ZH, "zh", "10月4号"),  # round eighteen, bench health hc-zh-01
    ("建议10月3号出发，避开人流。", DEPARTS_ZH, "zh", "10月3号"),
    ("- 出发日期：10月5日\n- 预算：2.5万", DEPARTS_ZH, "zh", "10月5日"),
    ("**Departure date**: 2024-01-01", DEPARTS_EN, "en", "2024-01-01"),  # run V's final plan
    ("You fly out July 24, so pack light.", DEPARTS_EN, "en", "July 24"),
])
def test_a_day_of_leaving_memory_never_held_is_found(reply, memory, lang, said):
    found = [f for f in guard_reply(reply, active=memory, lang=lang) if f.kind == "superseded"]
    assert [f.old for f in found] == [said] and found[0].item == 1, found


@pytest.mark.parametrize("reply, memory, lang", [
    ("你10月1号出发，10月6号回来。", DEPARTS_ZH, "zh"),  # the return
    ("出发日期：10月1日，记得提前订票。", DEPARTS_ZH, "zh"),  # the same day, written another way
    ("10月3号博物馆闭馆，可以换到第二天去。", DEPARTS_ZH, "zh"),  # no day of leaving
    ("We leave on July 21 and come back July 28.", DEPARTS_EN, "en"),
    ("Book the tickets by July 10; the museum opens July 23.", DEPARTS_EN, "en"),
])
def test_other_days_and_the_held_day_are_no_finding(reply, memory, lang):
    assert not [f for f in guard_reply(reply, active=memory, lang=lang) if f.kind == "superseded"]


def test_a_day_the_message_names_is_no_finding():
    assert not guard_reply("好的，改成10月3号出发也可以。", active=DEPARTS_ZH, lang="zh", user_text="10月3号出发行吗？")


def test_a_list_number_ends_no_sentence_and_states_no_old_count():
    """bench health, round eighteen: "4." was cut alone from "4. Use cashews…" as the old head count of 4."""
    from desktop_app.memory.lang.text import REPLY_SENTENCE
    from desktop_app.memory.reply_guard import stale_sentences

    plan = "Plan:\n1. Fly out July 21.\n4. Visit Belém on day two.\n12. Head count: 5 people."
    assert [m.group(0) for m in REPLY_SENTENCE.finditer(plan)] == [
        "Plan:", "1. Fly out July 21.", "4. Visit Belém on day two.", "12. Head count: 5 people."]
    old = item(1, "There'll be 4 of us: me, my husband Tom, and our two kids", kind="fact", subject="head count",
               status="superseded")
    new = item(2, "head count: 5 people", kind="fact", subject="head count", supersedes=1)
    assert stale_sentences(plan, [new], [old]) == []
    assert stale_sentences("1. Book a table for 4 of us.", [new], [old]) == ["1. Book a table for 4 of us."]
