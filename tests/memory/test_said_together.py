"""What one message says of several things, kept apart and kept at all (integrity's fourth and sixth sets, round
twenty-five): two conditions of one person, a job said after where one lives, someone's diet said with "can't do",
a limit or a requirement said beside the plan."""

from __future__ import annotations

import pytest

from tests.memory.test_values_apart import _values


def test_two_conditions_of_the_user_are_two_items(conversation):
    """One item held both; a later change of either would have rewritten the other."""
    convo = conversation(lang="en")
    convo.say("heads up, I have type 1 diabetes and I'm on blood thinners")
    convo.say("is ibuprofen ok for a headache?")
    values = sorted(i.value for i in convo.active("fact"))
    assert values == ["I have type 1 diabetes", "I'm on blood thinners"], _values(convo)


def test_a_second_person_who_cannot_do_a_food_has_their_own_diet(conversation):
    convo = conversation(lang="en")
    convo.say("I'm allergic to peanuts and my husband can't do gluten")
    subjects = {i.subject: i.value for i in convo.active("fact")}
    assert subjects == {"allergy": "I'm allergic to peanuts", "diet:husband": "my husband can't do gluten"}, _values(convo)


def test_where_the_user_lives_and_their_job_are_two_items(conversation):
    convo = conversation(lang="en")
    convo.say("I live in Austin and work as a high school teacher")
    subjects = {i.subject: i.value for i in convo.active("fact")}
    assert subjects.get("location") == "I live in Austin" and "teacher" in subjects.get("occupation", ""), _values(convo)


def test_also_is_nobody(conversation):
    convo = conversation(lang="en")
    convo.say("I also have asthma")
    assert [i.subject for i in convo.active("fact")] == ["health"], _values(convo)


@pytest.mark.parametrize("said, kept", [
    ("今晚做红烧肉 6个人吃 不要太甜 家里只有电饭煲", "不要太甜"),
    ("想买辆SUV 预算25万以内 要混动的", "要混动的"),
])
def test_a_limit_said_beside_the_plan_is_kept(conversation, said, kept):
    """"不要太甜" was read, then dropped, because the sentence as a whole said nothing a rule reads."""
    convo = conversation(lang="zh")
    convo.say(said)
    assert kept in [i.value for i in convo.active("constraint")], _values(convo)


def test_a_liking_said_now_is_a_preference(conversation):
    convo = conversation(lang="zh")
    convo.say("其实我现在更喜欢过道 上厕所方便")
    assert [i for i in convo.active("preference") if "过道" in i.value], _values(convo)


@pytest.mark.parametrize("lang, said, rule", [
    ("en", "one rule: no long intros, just answer. always.", "no long intros, just answer"),
    ("en", "no long intros, just answer. always.", "no long intros, just answer"),
    ("en", "one rule: no emojis", "no emojis"),
    ("zh", "一条规矩：别说开场白，直接回答", "别说开场白，直接回答"),
])
def test_a_rule_announced_alone_stands_in_the_users_words(conversation, lang, said, rule):
    """"one rule: …. always." filed the rule "always" (the sentence split at the period) and nothing of the rule."""
    convo = conversation(lang=lang)
    convo.say(said)
    rules = convo.active("directive")
    assert [i.value for i in rules] == [rule], _values(convo)
    assert not any("always" in i.subject or "今后" in i.subject for i in rules), _values(convo)


def test_a_lone_always_files_no_rule(conversation):
    convo = conversation(lang="en")
    convo.say("always.")
    assert not convo.active("directive"), _values(convo)


def test_a_cap_on_guests_is_the_head_count_not_the_budget(conversation):
    """"let's cap it at 40 guests" was filed under the budget and replaced it."""
    convo = conversation(lang="en")
    convo.say("the budget is 3000")
    convo.say("we have 60 people on the list")
    convo.say("let's cap it at 40 guests")
    active = {i.subject: i.value for i in convo.store.list_items(convo.sid) if i.status == "active"}
    assert active == {"budget": "the budget is 3000", "head count": "let's cap it at 40 guests"}, _values(convo)


def test_a_job_said_without_i_is_the_plan_and_a_count_that_turns_out_other_changes_it(conversation):
    """"need to ship 3 boxes to my new place in Portland" kept nothing; "turns out it's 5 boxes" changed nothing."""
    convo = conversation(lang="en")
    convo.say("need to ship 3 boxes to my new place in Portland")
    convo.say("turns out it's 5 boxes, found more stuff in the closet")
    assert [i.value for i in convo.active("goal")] == ["need to ship 5 boxes to my new place in Portland"], _values(convo)


@pytest.mark.parametrize("lang, said, moved, place, job", [
    ("zh", "我在杭州做程序员，平时加班挺多的", "哦对 我去年搬到苏州了 现在在苏州上班", "杭州", "程序员"),
    ("en", "I'm a nurse in Portland", "big news, I just moved to Seattle last week, still nursing", "Portland", "nurse"),
])
def test_the_city_said_with_the_job_is_where_the_user_lives_and_a_move_keeps_the_job(conversation, lang, said, moved,
                                                                                       place, job):
    """As one item, the move left the old city in the job ("杭州" stayed active after "搬到苏州了")."""
    convo = conversation(lang=lang)
    convo.say(said)
    assert {i.subject for i in convo.active("fact")} == {"location", "occupation"}, _values(convo)
    convo.say(moved)
    active = [i.value for i in convo.active("fact")]
    assert not any(place in v for v in active) and any(job in v for v in active), _values(convo)


def test_a_new_job_replaces_the_old_one(conversation):
    convo = conversation(lang="en")
    convo.say("I'm an accountant in Cleveland")
    convo.say("oh wait I should mention, I just started a new job last week as a data analyst")
    jobs = [i.value for i in convo.active("fact") if i.subject == "occupation"]
    assert len(jobs) == 1 and "data analyst" in jobs[0], _values(convo)


def test_a_roommates_diet_and_a_friends_allergy_are_two_items(conversation):
    """A user's walk, round twenty-five: one item held both, the roommate's diet was never named, and the model's pass
    restated it as "friend: …"."""
    convo = conversation(lang="en")
    convo.say("oh and my roommate is vegan and one friend has a shellfish allergy so no shrimp")
    subjects = {i.subject: i.value for i in convo.active("fact")}
    assert subjects == {"diet:roommate": "my roommate is vegan",
                        "allergy:friend": "one friend has a shellfish allergy so no shrimp"}, _values(convo)


def test_more_people_so_more_like_a_number_is_the_head_count(conversation):
    """A user's walk: the head count stayed 15, and the reply said so."""
    convo = conversation(lang="en")
    convo.say("it's on saturday nov 8, around 15 people coming")
    convo.say("also more people now, my coworkers want to come so more like 22")
    assert [i.value for i in convo.active("fact") if i.subject == "head count"] == [
        "also more people now, my coworkers want to come so more like 22"], _values(convo)


def test_a_first_statement_of_the_total_divides_and_its_change_leaves_no_old_count(conversation):
    """A user's walk, round twenty-five: "一共" read as news of a change kept the sentence whole under the head count; the
    change to 6 people left "一共4个人" active inside it."""
    convo = conversation(lang="zh")
    convo.say("下周六出发，10月18号，一共4个人，我、老婆和两个孩子")
    convo.say("人数也变了，我爸妈也要一起去，所以是6个人")
    active = [i.value for i in convo.store.list_items(convo.sid) if i.status == "active"]
    assert any("10月18号" in v for v in active) and not any("4个人" in v for v in active), _values(convo)


def test_two_clauses_that_say_the_plan_are_one_goal(conversation):
    """The second ("帮我规划一下") replaced the first, and the plan was "帮我规划一下"."""
    convo = conversation(lang="zh")
    convo.say("你好，我想安排一次家庭出游，去杭州玩两天，帮我规划一下")
    assert [i.value for i in convo.active("goal")] == ["我想安排一次家庭出游，帮我规划一下"], _values(convo)
