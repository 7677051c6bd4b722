"""What four more conversations of bench health told (round twenty-one, hc-*-07 … 10): requirements said without a
number, a day moved with its weekday, a count said as a plan, "actually" that corrects nothing, a bare count after
people dropped out, health said of someone else, an aim added to a task, a night's stay that is no trip length."""

from __future__ import annotations

import pytest

from desktop_app.memory.acknowledgment import acknowledgment


def _values(convo) -> str:
    return " | ".join(i.value for i in convo.active())


@pytest.mark.parametrize("lang, said, named", [
    ("zh", "字一定要大，她老花眼，还有电池要耐用", "字一定要大，电池要耐用"),
    ("zh", "还有我妈的卡是电信的，得支持电信", "得支持电信"),
    ("zh", "对了他们用不了谷歌那些，国产系统就行，最好有长辈模式", "最好有长辈模式"),
    ("en", "Also, the courtyard is being resurfaced that weekend, so it'll be indoors only.", "it'll be indoors only"),
    ("en", "The phone must have a headphone jack, she still uses wired earbuds.", "must have a headphone jack"),
])
def test_a_requirement_without_a_number_is_a_constraint_named_back(conversation, lang, said, named):
    convo = conversation(lang=lang)
    convo.say(said)
    recorded = convo.recorded
    needs = [i for i in convo.active("constraint") if i.subject.startswith("need:")]
    assert len(needs) == 1 and named.split("，")[0] in needs[0].value, _values(convo)
    assert named in convo.pipeline.acknowledgment(recorded)


@pytest.mark.parametrize("lang, said", [
    ("zh", "找工作 想找上海的产品经理岗位 期望薪资30k起 最好是互联网大厂"),
    ("en", "Could you make sure it must have a big screen?"),  # a request asks; it files no requirement
])
def test_a_requirement_inside_another_statement_or_a_request_is_none_of_its_own(conversation, lang, said):
    convo = conversation(lang=lang)
    convo.say(said)
    assert not [i for i in convo.active() if i.subject.startswith("need:")], _values(convo)


@pytest.mark.parametrize("lang, first, change, now, gone, kept", [
    ("zh", "店名叫「半糖主义」，开业定在9月1号，正好开学", "想了下9月1号大家都在报到，人太乱了，改到9月6号周六吧",
     "9月6号周六", "9月1号", "半糖主义"),
    ("en", "The open day is on June 8, in the shop.", "Hmm, move it to June 15 (Saturday) instead.",
     "June 15 (Saturday)", "June 8", "in the shop"),
])
def test_a_day_moved_with_its_weekday_moves_in_place(conversation, lang, first, change, now, gone, kept):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(change)
    recorded = convo.recorded
    values = _values(convo)
    assert now in values and gone not in values and kept in values, values
    said = convo.pipeline.acknowledgment(recorded)
    assert now in said and gone in said, said  # the day it moved to, and the one it was


def test_two_days_said_apart_are_two_days(conversation):
    convo = conversation(lang="zh")
    convo.say("婚礼定在10月2号 酒店是丽思卡尔顿 大概30桌")
    convo.say("更正一下 是10月3号 2号那天满了")
    assert "婚礼定在10月3号" in _values(convo) and "3号 2号" not in _values(convo)


@pytest.mark.parametrize("lang, goal, count, new, old", [
    ("en", "I run a small bakery and I'm planning a 1-year anniversary event for customers.",
     "We're expecting roughly 60 people over the day.", "Let's plan for about 100 people.", "60 people"),
    ("zh", "最近想减脂，帮我安排一周的饭吧，工作日中午要带饭那种", "我一个人吃", "我男朋友说要跟我一起吃，那就按2个人准备吧", None),
])
def test_a_count_said_as_the_plan_is_the_head_count_and_the_goal_stays(conversation, lang, goal, count, new, old):
    convo = conversation(lang=lang)
    convo.say(goal)
    convo.say(count)
    convo.say(new)
    recorded = convo.recorded
    goals = convo.active("goal")
    assert len(goals) == 1 and goals[0].value.startswith(goal.rstrip(".")[:12]), _values(convo)
    heads = [i for i in convo.active("fact") if i.subject == "head count"]
    assert len(heads) == 1 and ("100" in heads[0].value or "2个人" in heads[0].value), _values(convo)
    said = convo.pipeline.acknowledgment(recorded)
    assert "(was 1)" not in said and (old is None or old in said), said


@pytest.mark.parametrize("earlier, said, kept", [
    ("Just weeknight dinners, Monday to Friday.", "thanks!! that actually looks great", "Monday to Friday"),
    ("Just weeknight dinners, Monday to Friday.", "Actually, add Saturday lunch too since we're home then.",
     "Monday to Friday"),
    ("We're expecting 45 guests.",
     "actually, you know what, I'll dip into savings.", "45 guests"),
    ("His sister is celiac.", "actually, you know what, I'll dip into savings.", "His sister is celiac"),
])
def test_actually_that_praises_adds_or_decides_corrects_nothing(conversation, earlier, said, kept):
    # (English only: "actually" is the English word that both corrects and stresses)
    convo = conversation()
    convo.say(earlier)
    convo.say(said)
    assert kept in _values(convo), _values(convo)


def test_actually_with_a_value_still_corrects(conversation):
    convo = conversation()
    convo.say("I prefer aisle seats")
    convo.say("actually I've switched, window seats for me these days")
    assert "aisle" not in _values(convo) and "window" in _values(convo)


@pytest.mark.parametrize("lang, first, moved, count, others", [
    ("en", "6 of us, 3 nights, leaving fri 15 aug", "update: 2 dropped out so it's 4 now", "4 of us",
     ("3 nights", "15 aug")),
    ("zh", "我们6个人，住3晚，8月15号出发", "有两个人来不了了，现在4个", "4个人", ("住3晚", "8月15号")),
])
def test_a_bare_count_after_people_left_is_the_head_count(conversation, lang, first, moved, count, others):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(moved)
    heads = [i.value for i in convo.active("fact") if i.subject == "head count"]
    assert len(heads) == 1 and count in heads[0], _values(convo)
    assert all(o in _values(convo) for o in others), _values(convo)


@pytest.mark.parametrize("lang, said, subject, what", [
    ("en", "His sister is celiac.", "health:sister", "celiac"),
    ("en", "Carlos is the one with the peanut allergy.", "allergy:carlos", "peanut"),
    ("en", "Ellie's vegan and Rob can't eat sesame, he's allergic", "allergy:rob", "sesame"),
    ("zh", "我发现我有点乳糖不耐，喝牛奶肚子不舒服，换掉", "health", "乳糖不耐"),
    ("en", "Hannah is lactose intolerant, so go easy on dairy, and our son won't touch mushrooms.", "diet:son",
     "mushrooms"),
])
def test_health_said_in_passing_is_a_profile_fact(conversation, lang, said, subject, what):
    convo = conversation(lang=lang)
    convo.say(said)
    held = {i.subject: i for i in convo.active("fact")}
    assert subject in held and what in held[subject].value and held[subject].scope == "profile", _values(convo)


@pytest.mark.parametrize("lang, task, aim, weight", [
    ("zh", "最近想减脂，帮我安排一周的饭吧，工作日中午要带饭那种", "我一个人住，女，28岁，160cm，65kg，想先减到58", "65kg"),
    ("en", "Help me plan healthy meals, I want to lose weight", "I'm 80 kg now, aiming to get down to 70 kg", "80 kg"),
])
def test_an_aim_said_after_the_task_joins_it(conversation, lang, task, aim, weight):
    convo = conversation(lang=lang)
    convo.say(task)
    convo.say(aim)
    goals = convo.active("goal")
    assert len(goals) == 1 and goals[0].value.startswith(task[:10]) and ("58" in goals[0].value
                                                                         or "70 kg" in goals[0].value), _values(convo)
    held = {i.subject: i.value for i in convo.active("fact")}
    assert weight in held.get("weight", ""), held


def test_a_night_somewhere_is_no_trip_length(conversation):
    convo = conversation(lang="zh")
    convo.say("7月初去 玩7天")
    convo.say("想体验一次温泉旅馆 住一晚就行")
    lengths = [i.value for i in convo.active("fact") if i.subject == "trip length"]
    assert lengths == ["玩7天"], _values(convo)
    assert "温泉旅馆" in _values(convo)


@pytest.mark.parametrize("lang, said, length", [
    ("zh", "开业活动搞几天合适？我打算三天", "三天"),
    ("en", "6 of us, 3 nights, leaving fri 15 aug", "3 nights"),
])
def test_how_long_said_alone_is_the_length(conversation, lang, said, length):
    convo = conversation(lang=lang)
    convo.say(said)
    lengths = [i.value for i in convo.active("fact") if i.subject == "trip length"]
    assert len(lengths) == 1 and length in lengths[0], _values(convo)


def test_a_money_change_said_with_its_currency_changes_the_budget(conversation):
    convo = conversation()
    convo.say("Grocery budget is $150 a week.")
    convo.say("Prices went up at our store, let's make it $180.")
    assert [i.value for i in convo.active("constraint")] == ["Grocery budget is $180 a week"], _values(convo)


def test_a_requirement_is_said_by_its_clauses_only_when_short_enough():
    from desktop_app.memory.acknowledgment import Noted

    said = acknowledgment([Noted("得支持电信", part=True)], [], "zh", "还有我妈的卡是电信的，得支持电信")
    assert said == "好的，记下了：得支持电信。"
    # (the whole message again is not said back)
    assert "得支持电信" not in acknowledgment([Noted("得支持电信", part=True)], [], "zh", "得支持电信")


@pytest.mark.parametrize("lang, turns, said", [
    ("zh", ["7月初去 玩7天", "看了下7月机票太贵了 改6月25号出发吧 还是7天"], "出发日期 6月25号（之前是7月初）"),
    ("en", ["Flying out July 14, 7 days", "Tom checked and flights are cheaper if we leave July 21 instead"],
     "departure July 21 (was July 14)"),
])
def test_a_new_day_of_leaving_is_said_by_that_day(conversation, lang, turns, said):
    convo = conversation(lang=lang)
    for text in turns:
        convo.say(text)
    assert said in convo.pipeline.acknowledgment(convo.recorded)
    assert [i.subject for i in convo.active("fact") if "7月初" in i.value or "July 14" in i.value] == []


@pytest.mark.parametrize("lang, said, kept", [
    ("zh", "以后每次推荐都给我列个表格对比，型号、价格、优缺点", "以后每次回答都照这条来"),
    ("en", "Keep it short please. From now on, max 5 bullet points per answer.", "in every answer from now on"),
])
def test_a_rule_is_not_acknowledged_by_its_label(conversation, lang, said, kept):
    convo = conversation(lang=lang)
    convo.say(said)
    reply = convo.pipeline.acknowledgment(convo.recorded)
    assert kept in reply and "格式" not in reply and "format" not in reply, reply


@pytest.mark.parametrize("lang, said, named", [
    ("zh", "我爸看到了说他也要，那就买两台，一样的也行", "买两台"),
    ("en", "We decided to go with the Hilton, it's closer to the venue", "go with the Hilton"),
])
def test_a_choice_is_acknowledged_by_its_clause(conversation, lang, said, named):
    convo = conversation(lang=lang)
    convo.say(said)
    assert named in convo.pipeline.acknowledgment(convo.recorded)


def test_a_diet_said_without_its_person_names_no_one(conversation):
    convo = conversation(lang="zh")
    convo.say("有个女生小美吃素 不吃肉不吃海鲜 蛋奶可以")
    assert [i.subject for i in convo.active("fact")] == ["diet:女生小美"], _values(convo)


@pytest.mark.parametrize("lang, said, part", [
    ("zh", "周末也顺便安排一下吧，周末可以稍微放纵一点", "周末"),
    ("en", "Please also plan breakfasts for the week.", "breakfasts"),
])
def test_a_part_added_to_the_plan_is_kept_for_the_final_plan(conversation, lang, said, part):
    convo = conversation(lang=lang)
    convo.say(said)
    assert [i for i in convo.active("constraint") if part in i.value], _values(convo)


def test_a_plain_request_adds_nothing(conversation):
    convo = conversation(lang="zh")
    convo.say("帮我安排一下周末吧")
    assert not convo.active("constraint"), _values(convo)


def test_a_slip_owned_up_to_in_the_same_message_takes_back_what_it_said_of_that_person(conversation):
    convo = conversation()
    convo.say("His best friend Carlos is celiac... wait no, sorry, Carlos is the one with the peanut allergy. "
              "His sister is celiac.")
    held = {i.subject: i.value for i in convo.active("fact")}
    assert "health:carlos" not in held and "peanut" in held["allergy:carlos"] and "health:sister" in held, held


def test_a_requirement_beside_another_value_is_said_back_within_the_share_of_the_message(conversation):
    # (bench health judged "Noted: regulars's health: coeliac; you want a proper gluten-free option that's actually
    # prepared…" an echo of the message)
    convo = conversation()
    convo.say("Some regulars are coeliac, so I want a proper gluten-free option that's actually prepared separately.")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert "regulars' health: coeliac" in said and "prepared" not in said, said
    assert [i for i in convo.active("constraint") if "gluten-free" in i.value]


def test_the_programs_list_of_everything_names_more_than_eight_values(conversation):
    # (hc-zh-06 had ten values: the list stopped at eight, and the party's day was the one cut)
    from desktop_app.memory.recap import recap_lead

    convo = conversation(lang="zh")
    said = ["预算1万", "一共10个人", "周岁宴想定在21号", "生日是7月18号", "一定要放个算盘", "还有我表姐怀孕了",
            "字一定要大", "我对花生过敏", "我对象叫阿杰", "得支持电信"]
    for text in said:
        convo.say(text)
    active = convo.active()
    lead = recap_lead("总结一下所有要求，给我最终方案", active, [], "zh")
    assert len([i for i in active if i.kind != "goal"]) > 8
    assert all(v in lead for v in ("1万", "21号", "7月18号", "算盘", "花生", "电信")), lead


def test_an_aim_joined_to_the_task_is_acknowledged_by_itself(conversation):
    convo = conversation(lang="zh")
    convo.say("最近想减脂，帮我安排一周的饭吧，工作日中午要带饭那种")
    convo.say("我一个人住，女，28岁，160cm，65kg，想先减到58")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert "想先减到58" in said and "之前是" not in said, said


@pytest.mark.parametrize("lang, limit, rule, drop", [
    ("zh", "人均预算8000 包机票", "以后每次回答最后都帮我算一下人均花多少", "算人均那个不用了 我们自己用记账app"),
    ("en", "Budget is 500 per person", "From now on, always end with the cost per person",
     "you can stop with the per person thing, we use an app"),
])
def test_a_rule_named_by_that_is_dropped_beside_a_limit_sharing_its_words(conversation, lang, limit, rule, drop):
    convo = conversation(lang=lang)
    for text in (limit, rule, drop):
        convo.say(text)
    assert not convo.active("directive") and convo.active("constraint"), _values(convo)
    assert not [i for i in convo.store.list_items(convo.sid) if i.status == "pending"]


def test_a_count_said_as_where_we_are_keeps_its_words(conversation):
    convo = conversation()
    convo.say("It'll be 8 guests including me.")
    convo.say("Ok so two more people confirmed, Sam and his partner. We're at 10 now.")
    heads = [i.value for i in convo.active("fact") if i.subject == "head count"]
    assert heads == ["It'll be 10 guests including me"], _values(convo)


def test_two_peoples_needs_in_one_sentence_are_two_items(conversation):
    convo = conversation()
    convo.say("Ellie's vegan and Rob can't eat sesame, he's allergic")
    held = {i.subject: i.value for i in convo.active("fact")}
    assert held.get("diet:ellie") == "Ellie's vegan" and "sesame" in held.get("allergy:rob", ""), held
    assert "Ellie" not in held["allergy:rob"]


def test_food_free_of_something_is_a_requirement(conversation):
    convo = conversation()
    convo.say("So both: peanut-free, plus some gluten-free food.")
    assert [i for i in convo.active("constraint") if "gluten-free" in i.value], _values(convo)


def test_a_correction_that_says_nothing_leaves_a_requirement_alone(conversation):
    convo = conversation()
    convo.say("So both: peanut-free, plus some gluten-free food.")
    convo.say("actually, you know what, I'll dip into savings.")
    assert [i for i in convo.active("constraint") if "gluten-free" in i.value], _values(convo)


def test_the_list_says_the_head_count_in_the_programs_voice(conversation):
    from desktop_app.memory.recap import recap_lead

    convo = conversation()
    convo.say("6 of us, 3 nights, leaving fri 15 aug")
    lead = recap_lead("sum up all constraints + final plan pls", convo.active(), [], "en")
    assert "6 of you" in lead and "of us" not in lead, lead


@pytest.mark.parametrize("lang, asked, said, named", [
    ("zh", "报班的话预算5000以内，你觉得值吗", "算了报班太贵了，预算降到2000，买点资料和作文批改就行", "预算 2000"),
    ("en", "Would a course be worth it if the budget is 500?", "Nah, too pricey, budget drops to 200, just books then",
     "budget 200"),
])
def test_a_change_with_nothing_to_change_is_kept_in_the_users_words(conversation, lang, asked, said, named):
    convo = conversation(lang=lang)
    convo.say(asked)
    convo.say(said)
    reply = convo.pipeline.acknowledgment(convo.recorded)
    assert named in reply and ": " not in reply.split("：", 1)[-1].split(": ", 1)[-1], reply


def test_a_count_per_table_is_no_head_count(conversation):
    convo = conversation(lang="zh")
    convo.say("打算请亲戚朋友，大概6桌，一桌10个人")
    assert not [i for i in convo.active("fact") if i.subject == "head count"], _values(convo)


@pytest.mark.parametrize("lang, first, then, said", [
    ("zh", "我表弟阿伟来帮忙，加上我和一个员工，一共3个人看店", "还得招两个兼职，那就一共5个人了", "5个人（之前是3个人）"),
    ("en", "We're 3 people running the shop: me, my cousin Wei and one employee.",
     "We still need two part-timers, so that makes 5 people in total.", "5 people (was 3 people)"),
])
def test_a_head_count_said_in_a_long_sentence_is_acknowledged_by_its_count(conversation, lang, first, then, said):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(then)
    assert said in convo.pipeline.acknowledgment(convo.recorded)


def test_a_value_asked_back_by_what_i_gave_you_is_recalled_by_the_program():
    from desktop_app.memory.reply_health import only_asks_what_was_said

    # (hc-en-08: the 0.5B answered "Sorry, I can't help with that.")
    assert only_asks_what_was_said("What's the weekly budget I gave you?")
    assert not only_asks_what_was_said("I gave you the budget, now plan the week.")
    # (bench health G5, hc-en-03: "Quick one: what's my budget again?" was the model's, and an echo)
    assert only_asks_what_was_said("Quick one: what's my budget again?")
    assert not only_asks_what_was_said("what's the weather again?")


@pytest.mark.parametrize("lang, rule, back", [
    ("en", "from now on, no long intros, just answer.", "ok you can go back to normal, intros are fine"),
    ("zh", "以后回答别写开场白，直接说", "开场白那个不用了，正常写就行"),
])
def test_going_back_to_normal_drops_the_rule(conversation, lang, rule, back):
    convo = conversation(lang=lang)
    convo.say(rule)
    convo.say(back)
    assert not convo.active("directive"), _values(convo)
