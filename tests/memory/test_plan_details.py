"""What the program's list of everything lost in round twenty-two (bench health, all twenty conversations read through
the rules): the task itself, what a statement before a question said, a weak spot, the tables of a banquet, the time
the user can give and a number corrected with the one it drops, a limit let go, a requirement said as the reason's
consequence or asked for, a day said beside a name, a place chosen, and a revocation naming what a rule counts."""

from __future__ import annotations

import pytest

from desktop_app.memory.recap import recap_lead
from desktop_app.memory.reply_health import only_tells


def _values(convo) -> str:
    return " | ".join(i.value for i in convo.active())


def _lead(convo, lang: str) -> str:
    everything = convo.store.list_items(convo.sid)
    active = [i for i in everything if i.status == "active"]
    asked = "总结一下我所有的要求，给我最终方案" if lang == "zh" else "Summarise all my constraints and give me the final plan."
    return recap_lead(asked, active, [i for i in everything if i.status != "active"], lang)


@pytest.mark.parametrize("lang, said, task", [
    ("zh", "下个月要搬家，从朝阳搬到海淀，东西巨多，头大", "海淀"),
    ("zh", "我们部门要搞个团建，我负责，帮我出出主意", "团建"),
    ("zh", "我们明年结婚，想办得简单点", "结婚"),
    ("en", "I want to throw a surprise 40th birthday party for my husband, Marcus. He has NO idea. Help!", "Marcus"),
    ("en", "Need help picking a laptop for uni. I'm starting a computer science degree in September.", "laptop"),
    ("en", "Hi, I'm getting married next year and I'm totally overwhelmed. Can you help me plan?", "married"),
    ("en", "Can you help me put together a weekly meal plan? I'm so tired of deciding what to cook.", "meal plan"),
])
def test_the_task_is_the_goal_and_opens_the_list(conversation, lang, said, task):
    convo = conversation(lang=lang)
    convo.say(said)
    goals = convo.active("goal")
    assert len(goals) == 1 and task in goals[0].value, _values(convo)
    convo.say("预算3000块" if lang == "zh" else "Budget is $3,000.")
    lead = _lead(convo, lang)
    assert task in lead.splitlines()[1] and "3" in lead, lead
    assert "you help you" not in lead.lower() and "帮你帮" not in lead, lead  # the program's voice, not a garble


@pytest.mark.parametrize("lang, said", [
    ("en", "Can you help me plan?"),  # asks for help with no task named
    ("en", "Can you help me plan it within my budget?"),  # the task it names is the one already set
    ("zh", "我写作目标是多少分来着？"),  # a question about a value, not a task
])
def test_a_question_that_names_no_new_task_sets_no_goal(conversation, lang, said):
    convo = conversation(lang=lang)
    convo.say(said)
    assert not convo.active("goal"), _values(convo)


def test_a_trip_said_after_the_outing_joins_it_and_is_acknowledged_by_itself(conversation):
    convo = conversation(lang="zh")
    convo.say("我们部门要搞个团建，我负责，帮我出出主意")
    convo.say("一共25个人，打算去杭州周边，两天一夜")
    recorded = convo.recorded
    goals = convo.active("goal")
    assert len(goals) == 1 and "团建" in goals[0].value and "杭州" in goals[0].value, _values(convo)
    said = convo.pipeline.acknowledgment(recorded)
    assert "杭州" in said and "之前是" not in said, said


def test_a_task_said_alone_is_answered_by_the_model_not_acknowledged(conversation):
    convo = conversation(lang="zh")
    convo.say("下个月要搬家，从朝阳搬到海淀，东西巨多，头大")
    assert convo.pipeline.acknowledgment(convo.recorded) == ""


@pytest.mark.parametrize("lang, said, kept", [
    ("zh", "还有新家是6楼没电梯，这个要提前跟搬家公司说吗", "6楼没电梯"),
    ("zh", "我室友小林也考，我们俩可以一起练口语吗", "小林"),
    ("zh", "我爸上个月做了膝盖手术，爬山还行吗", "膝盖手术"),
    ("en", "Marcus loves 80s music and bourbon, can we theme it around that?", "80s music"),
    ("en", "My cap for prep materials is $250, is that reasonable?", "$250"),
    ("en", "The venue only has 3 parking spaces, is that going to be a problem?", "3 parking spaces"),
])
def test_what_a_statement_before_a_question_says_is_kept(conversation, lang, said, kept):
    convo = conversation(lang=lang)
    convo.say(said)
    assert kept in _values(convo)
    assert kept in _lead(convo, lang)


@pytest.mark.parametrize("lang, said", [
    ("en", "I'm so tired, what should I cook tonight?"),
    ("en", "ugh, is it going to rain all week?"),
    ("zh", "今天好累，晚上吃什么好"),
    ("zh", "哈哈好难，这个怎么办"),
])
def test_a_mood_before_a_question_is_not_kept(conversation, lang, said):
    convo = conversation(lang=lang)
    convo.say(said)
    assert not convo.active(), _values(convo)


@pytest.mark.parametrize("lang, said, named", [
    ("zh", "What should I focus on first? 我口语最差", "弱项：口语"),
    ("zh", "我的弱项是听力", "弱项：听力"),
    # (not "weak spots: fixed income and derivatives": read as the message said back)
    ("en", "Weakest areas: fixed income and derivatives. Ethics I'm fine with.",
     "what to work on most: fixed income and derivatives"),
    ("en", "I'm worst at listening, honestly.", "what to work on most: listening"),
])
def test_a_weak_spot_is_kept_and_named(conversation, lang, said, named):
    convo = conversation(lang=lang)
    convo.say(said)
    assert [i for i in convo.active("fact") if i.subject == "weakness"], _values(convo)
    assert named in _lead(convo, lang)


@pytest.mark.parametrize("lang, first, change, now, gone", [
    ("zh", "打算请亲戚朋友，大概6桌，一桌10个人", "我老公那边亲戚多，得加2桌，8桌吧", "8桌", "6桌"),
    ("zh", "婚宴订了12桌", "还是10桌吧，人没那么多", "10桌", "12桌"),
    ("en", "The banquet hall holds us at about 6 tables.", "Let's make it 8 tables, more cousins are coming.", "8 tables",
     "6 tables"),
])
def test_a_new_count_of_tables_replaces_the_old_one(conversation, lang, first, change, now, gone):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(change)
    recorded = convo.recorded
    tables = [i for i in convo.active("fact") if i.subject == "tables"]
    assert len(tables) == 1 and now in tables[0].value and gone not in tables[0].value, _values(convo)
    assert "加2桌" not in _values(convo).replace(tables[0].value, "")  # the change by an amount is no value of its own
    said = convo.pipeline.acknowledgment(recorded)
    assert now in said and gone in said, said
    lead = _lead(convo, lang)
    assert now in lead and gone not in lead, lead


@pytest.mark.parametrize("lang, first, change, now, kept, gone", [
    ("en", "Exam is on May 20. I can study about 2 hours on weekdays and 5 hours a day on weekends.",
     "Work's gone crazy, so realistically weekdays will be 1.5 hours, not 2.", "1.5 hours on weekdays",
     "5 hours a day on weekends", "2 hours"),
    ("en", "I can train 4 hours a week, mostly evenings.", "Honestly it's 3 hours a week, not 4.", "3 hours a week",
     "evenings", "4 hours"),
    ("zh", "平时每天最多能挤出3个小时", "放暑假以后每天可以学5个小时了", "5个小时", "暑假", "3个小时"),
])
def test_the_time_the_user_can_give_is_one_value_a_correction_changes(conversation, lang, first, change, now, kept,
                                                                       gone):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(change)
    times = [i for i in convo.active("fact") if i.subject == "time_available"]
    assert len(times) == 1 and now in times[0].value and kept in times[0].value and gone not in times[0].value, \
        _values(convo)
    assert now.split()[0] in _lead(convo, lang)


def test_a_part_of_a_long_value_changed_is_acknowledged_by_that_part(conversation):
    convo = conversation(lang="en")
    convo.say("I can study about 2 hours on weekdays and 5 hours a day on weekends.")
    convo.say("Work's gone crazy, so realistically weekdays will be 1.5 hours, not 2.")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert "1.5 hours on weekdays" in said and "was about 2 hours on weekdays" in said and "…" not in said, said


@pytest.mark.parametrize("lang, limit, relaxed, now, gone", [
    ("en", "I'd like something light, under 1.5 kg if possible, since I'll carry it around all day.",
     "Hmm, on second thought I don't care about weight that much. 1.8 kg is fine if it means better battery.",
     "1.8 kg", "1.5 kg"),
    ("zh", "想要轻一点的，最好1.2公斤以内", "其实1.5公斤也可以，续航好就行", "1.5公斤", "1.2公斤"),
])
def test_a_limit_let_go_to_a_new_amount_changes_it(conversation, lang, limit, relaxed, now, gone):
    convo = conversation(lang=lang)
    convo.say("My budget is $900, hard limit." if lang == "en" else "预算5000以内")
    convo.say(limit)
    convo.say(relaxed)
    recorded = convo.recorded
    values = _values(convo)
    assert now in values and gone not in values and ("900" in values or "5000" in values), values
    said = convo.pipeline.acknowledgment(recorded)
    assert now in said and gone in said, said


@pytest.mark.parametrize("lang, said, profile, need", [
    ("en", "Dan has a bad back, so we definitely need someone to carry the heavy stuff: the sofa and the piano.",
     "bad back", "piano"),
    ("en", "Lin's dad is diabetic, so dessert and drinks need some sugar-free options.", "diabetic", "sugar-free"),
    ("en", "We'd like a tea ceremony in the morning and the reception in the evening.", None, "tea ceremony"),
    ("en", "Hmm, we're trying to eat less meat. Can you make 2 of the 5 dinners vegetarian?", None, "vegetarian"),
    ("zh", "有好几个小朋友，要有儿童餐吧？还有我表姐怀孕了，忌口要注意", "怀孕", "儿童餐"),
])
def test_a_requirement_said_with_its_reason_or_asked_for_is_kept(conversation, lang, said, profile, need):
    convo = conversation(lang=lang)
    convo.say(said)
    needs = [i for i in convo.active("constraint") if i.subject.startswith("need:")]
    assert len(needs) == 1 and need in needs[0].value, _values(convo)
    if profile:
        assert [i for i in convo.active("fact") if profile in i.value and i.id != needs[0].id], _values(convo)
    lead = _lead(convo, lang)
    assert need in lead and "Can you" not in lead, lead


@pytest.mark.parametrize("said", ["Can you make it shorter?", "Could you keep the answer brief?"])
def test_a_request_about_the_reply_is_no_requirement_of_the_plan(conversation, said):
    convo = conversation(lang="en")
    convo.say(said)
    assert not [i for i in convo.active() if i.subject.startswith("need:")], _values(convo)


def test_a_day_said_beside_a_name_is_its_own_and_moves_alone(conversation):
    convo = conversation(lang="en")
    convo.say("My fiancée is Lin, and we're looking at October 10 next year for the date.")
    convo.say("Date's changed: the venue we love only has October 17 free, so we're taking that.")
    names = [i for i in convo.active("fact") if i.subject == "name:fiancée"]
    assert len(names) == 1 and "October" not in names[0].value, _values(convo)
    assert "October 17" in _values(convo) and "October 10" not in _values(convo)


def test_the_reason_a_day_changes_is_no_day_of_its_own(conversation):
    convo = conversation(lang="zh")
    convo.say("7月初去 玩7天")
    convo.say("看了下7月机票太贵了 改6月25号出发吧 还是7天")
    assert not [i for i in convo.active() if i.subject.startswith("when:")], _values(convo)
    assert "7天" in _lead(convo, "zh") and "6月25号" in _lead(convo, "zh")


def test_a_place_chosen_in_a_long_sentence_is_kept_beside_the_budget(conversation):
    convo = conversation(lang="zh")
    convo.say("预算总共1万5")
    convo.say("我想了想还是别在酒店办了，太贵，在家附近的农家乐办，预算控制在1万")
    values = _values(convo)
    assert "农家乐" in _lead(convo, "zh") and "1万5" not in values, values
    assert [i for i in convo.active("decision") if "农家乐" in i.value], values


def test_a_revocation_naming_what_a_rule_counts_drops_it_beside_a_prohibition_of_the_plan(conversation):
    convo = conversation(lang="zh")
    convo.say("你以后回复都简短点，别超过5条")
    convo.say("我想了想还是别在酒店办了，太贵，在家附近的农家乐办")
    convo.say("不用限制条数了，想说多少说多少")
    assert not [i for i in convo.active("directive")], _values(convo)
    assert [i for i in convo.active("constraint") if "酒店" in i.value], _values(convo)


# --- what eight conversations written blind for round twenty-two showed (the rules alone: 0 of 8 final lists right) ---


@pytest.mark.parametrize("lang, first, shift, now, gone", [
    ("en", "we're thinking of leaving june 14", "hmm my partner's work thing got moved, let's push the whole thing back a week",
     "june 21", "june 14"),
    ("en", "The party is on Sept 28.", "The caterer is booked, can we move it back by two weeks? No, let's just push it back "
     "a week.", "Oct 5", "Sept 28"),
    ("zh", "时间定在12月20号 周六", "果然撞了 那往后挪一周吧", "12月27号", "12月20号"),
    ("zh", "看车定在5月3号", "那天有事 提前两天吧", "5月1号", "5月3号"),
])
def test_a_day_put_off_by_a_span_moves_by_it(conversation, lang, first, shift, now, gone):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say("预算8万以内" if lang == "zh" else "Budget is $2,500.")
    convo.say(shift)
    recorded = convo.recorded
    values = _values(convo)
    assert now in values and gone not in values, values
    said = convo.pipeline.acknowledgment(recorded)
    assert now in said and gone in said, said


@pytest.mark.parametrize("lang, first, change, now, gone", [
    ("zh", "打算国庆后开工 10月8号吧", "算了 开工往后推两周吧 10月22号 那阵子我出差", "10月22号", "10月8号"),
    ("en", "We fly out July 14.", "Tom says flights are cheaper if we leave July 21 instead. Let's push everything back a "
     "week.", "July 21", "July 14"),
])
def test_a_day_put_off_with_the_new_day_said_moves_to_that_day(conversation, lang, first, change, now, gone):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(change)
    values = _values(convo)
    assert now in values and gone not in values and "July 28" not in values, values
    assert len([i for i in convo.active() if "月" in i.value or "July" in i.value]) == 1, values


@pytest.mark.parametrize("lang, said, need", [
    ("en", "every hotel has to be pet friendly btw, we're bringing our lab", "pet friendly"),
    ("en", "Oh, and the venue must be step-free, her husband uses a wheelchair.", "step-free"),
    ("en", "It needs to be quiet with no echo.", "quiet"),
    ("zh", "场地必须离地铁站近 好多人没车", "地铁站"),
    ("zh", "必须是自动挡 我老婆只会开自动的", "自动挡"),
])
def test_a_requirement_said_with_must_is_kept(conversation, lang, said, need):
    convo = conversation(lang=lang)
    convo.say(said)
    needs = [i for i in convo.active("constraint") if i.subject.startswith("need:")]
    assert len(needs) == 1 and need in needs[0].value, _values(convo)


@pytest.mark.parametrize("lang, rule, drop", [
    ("zh", "你以后回答都分点列出来吧 别写成一大段", "分点那个不用了 随便你怎么写"),
    ("zh", "以后回答别超过100字哈 我手机上看太长了", "100字那个限制不用了 你可以说详细点"),
    ("en", "Please always start your replies with a short bullet list of next steps.",
     "You can drop the bullet list at the top now, thanks."),
    ("en", "please keep replies short, like 3-4 sentences max from now on",
     "ok you can write longer answers again, the short ones are missing stuff"),
    ("en", "Be blunt with me from now on. No motivational fluff.", "You can ease off the blunt thing, I'm stressed enough lol."),
])
def test_a_rule_dropped_in_other_words_is_dropped(conversation, lang, rule, drop):
    convo = conversation(lang=lang)
    convo.say(rule)
    assert convo.active("directive"), _values(convo)
    convo.say(drop)
    assert not convo.active("directive"), _values(convo)


@pytest.mark.parametrize("lang, first, change, now, gone", [
    ("en", "We're expecting about 40 guests.", "HR just confirmed people from the regional office are coming too, so "
     "we're looking at 55 now.", "55", "40"),
    ("en", "it'll be me, my partner and our two kids so 4 of us", "ok so my sister and her husband want to join in their "
     "own car so that's 6 people now", "6", "4 of"),
    ("zh", "初步统计有35个人要来", "又有几个在外地的说赶不回来 现在确定是28个人", "28", "35"),
])
def test_a_head_count_said_anew_after_who_comes_changes_it(conversation, lang, first, change, now, gone):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say("It'll be on Friday 19 September." if lang == "en" else "时间定在12月20号")
    convo.say(change)
    heads = [i for i in convo.active("fact") if i.subject == "head count"]
    assert len(heads) == 1 and now in heads[0].value and gone not in heads[0].value, _values(convo)
    assert "19 September" in _values(convo) or "12月20号" in _values(convo)  # ("at 55" is no time of day)


@pytest.mark.parametrize("lang, first, change, now, gone", [
    ("en", "Budget from the team collection is £600.", "Good news, the director chipped in, so we now have £850 to play "
     "with.", "£850", "£600"),
    ("en", "budget is around $2,500 for everything", "with two more people and extra rooms we can stretch to $3,200",
     "$3,200", "$2,500"),
    ("zh", "人均150左右 不想太贵", "有人提议搞个抽奖 人均加到200 大家都同意了", "200", "150"),
])
def test_money_said_anew_in_other_words_changes_the_budget(conversation, lang, first, change, now, gone):
    convo = conversation(lang=lang)
    convo.say(first)
    convo.say(change)
    budgets = [i for i in convo.active("constraint") if i.subject.startswith("budget")]
    assert len(budgets) == 1 and now in budgets[0].value and gone not in budgets[0].value, _values(convo)


@pytest.mark.parametrize("lang, said, who, what", [
    ("zh", "他对花生过敏 还挺严重的 营地伙食能保证吗", "他", "花生"),
    ("zh", "班主任王老师也来 他有糖尿病 菜是不是得注意点", "王老师", "糖尿病"),
    ("en", "hes also allergic to chicken, does that rule out most of the renal kibbles?", "he", "chicken"),
    ("en", "I have chronic lower back pain, so would a standing desk actually help or is that hype?", "", "back pain"),
])
def test_health_said_of_someone_named_before_or_by_a_pronoun_is_kept(conversation, lang, said, who, what):
    convo = conversation(lang=lang)
    convo.say(said)
    kept = [i for i in convo.active("fact") if i.subject.split(":")[0] in ("allergy", "health") and what in i.value]
    assert len(kept) == 1 and kept[0].subject.partition(":")[2] == who.lower(), _values(convo)


def test_a_recap_asked_for_with_its_object_first_is_a_recap(conversation):
    convo = conversation(lang="zh")
    convo.say("预算8万以内 落地价")
    active = convo.active()
    assert "8万" in recap_lead("那帮我把全部要求和最后的方案总结一下吧", active, [], "zh")


def test_a_count_let_go_for_another_changes_its_number_and_is_said_with_its_counter(conversation):
    convo = conversation(lang="zh")
    convo.say("家里5口人 偶尔要带爷爷奶奶 所以想要7座的")
    convo.say("想了想爷爷奶奶很少坐我们车 7座没必要 5座就行")
    recorded = convo.recorded
    values = _values(convo)
    assert "5座" in values and "7座" not in values, values
    assert "5座（之前是7座）" in convo.pipeline.acknowledgment(recorded)


@pytest.mark.parametrize("lang, said", [("zh", "人数我一开始说的多少？"), ("zh", "我最开始说的预算是多少")])
def test_asking_what_was_said_at_the_start_is_answered_from_memory(conversation, lang, said):
    from desktop_app.memory.reply_health import only_asks_what_was_said

    assert only_asks_what_was_said(said)


# --- what the first run of all twenty-eight conversations on the 0.5B showed (run G) ---


def test_a_rule_said_with_from_here_on_is_a_rule_and_its_change_is_said(conversation):
    convo = conversation(lang="zh")
    convo.say("对了 我老公是外国人 接下来你用英文回答吧 我转给他看")
    assert [i for i in convo.active("directive") if i.subject == "language"], _values(convo)
    convo.say("时间的话7月中旬 最好7月15号开营的")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert said == "Got it. Noted: July 15.", said  # a day said in Chinese, named in the reply's English
    convo.say("好了他看完了 还是用中文回我吧")
    assert "语言：中文（之前是英文）" in convo.pipeline.acknowledgment(convo.recorded)


def test_a_rule_named_with_a_word_of_summing_up_is_dropped_not_read_as_material(conversation):
    convo = conversation(lang="zh")
    convo.say("以后每次回答最后都给我一句话总结哈")
    convo.say("一句话总结那个不用加了 有点啰嗦")
    assert not convo.active("directive"), _values(convo)


@pytest.mark.parametrize("lang, said, named", [
    ("zh", "她小名叫糖糖，生日是7月18号，周岁宴想定在20号", "小名：糖糖"),
    ("en", "Her nickname is Bean, she turns one on May 3.", "nickname: Bean"),
])
def test_a_nickname_is_named_by_its_label_not_said_back(conversation, lang, said, named):
    convo = conversation(lang=lang)
    convo.say(said)
    assert named in convo.pipeline.acknowledgment(convo.recorded)


def test_money_per_person_counts_no_one(conversation):
    convo = conversation(lang="zh")
    convo.say("预算一个人3000以内吧")
    assert "预算 3000" in convo.pipeline.acknowledgment(convo.recorded)
    convo.say("刚看了几家 靠谱的都要四千多 那预算提到4500吧")
    assert "预算 4500（之前是3000）" in convo.pipeline.acknowledgment(convo.recorded)
    assert not [i for i in convo.active("fact") if i.subject == "head count"], _values(convo)


def test_children_counted_then_one_left_is_the_head_count(conversation):
    convo = conversation(lang="zh")
    convo.say("他表哥也想一起去 那就是两个孩子了 报同一个营")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert "两个孩子" in said and "报同" not in said, said  # (it said "报同 一")
    convo.say("表哥家里有事去不了了 还是就我儿子一个人")
    heads = [i for i in convo.active("fact") if i.subject == "head count"]
    assert len(heads) == 1 and "一个人" in heads[0].value, _values(convo)
    assert "一个人" in _lead(convo, "zh")


@pytest.mark.parametrize("lang, said, named", [
    ("zh", "厨房不大 差不多6个平方 L型的", "面积：6个平方"),
    ("en", "The flat is about 45 m², two bedrooms.", "size: 45 m²"),
    # (not a deadline: "by 12" read as a day, and it said "size 12")
    ("en", "The room is about 10 by 12 feet, with one window on the north wall.", "size: 10 by 12 feet"),
])
def test_the_size_of_a_place_is_one_value(conversation, lang, said, named):
    convo = conversation(lang=lang)
    convo.say(said)
    assert [i for i in convo.active("fact") if i.subject == "size"], _values(convo)
    assert named in convo.pipeline.acknowledgment(convo.recorded)


@pytest.mark.parametrize("lang, rule, back", [
    ("zh", "接下来你用东北话跟我聊呗。", "行了行了，正常说话吧。"),
    ("en", "From now on talk like a pirate.", "ok, talk normally again please"),
])
def test_back_to_normal_drops_the_one_rule(conversation, lang, rule, back):
    convo = conversation(lang=lang)
    convo.say(rule)
    assert convo.active("directive"), _values(convo)
    convo.say(back)
    assert not convo.active("directive"), _values(convo)


def test_a_day_of_the_month_corrected_is_the_new_day_not_a_number_swapped(conversation):
    convo = conversation(lang="en")
    convo.say("booking the dentist for the 3rd at 10am")
    convo.say("sorry I meant the 13th, not the 3rd")
    values = _values(convo)
    assert "13th" in values and "13rd" not in values and "the 3rd" not in values, values


@pytest.mark.parametrize("lang, said, kept_to", [
    ("en", "the clinic has to be open on saturdays, i work weekdays", "The plan will keep to that."),
    ("en", "It needs to be quiet with no echo. I run therapy sessions online, so that part is non-negotiable.",
     "The plan will keep to that."),
    ("zh", "字一定要大，她老花眼，还有电池要耐用", "记下了：字一定要大，电池要耐用"),
])
def test_a_requirement_that_is_most_of_its_sentence_is_kept_to_not_said_back(conversation, lang, said, kept_to):
    convo = conversation(lang=lang)
    convo.say(said)
    assert kept_to in convo.pipeline.acknowledgment(convo.recorded)


def test_a_day_said_with_its_weekday_before_it_is_named_by_both(conversation):
    convo = conversation(lang="en")
    convo.say("It'll be on Friday 19 September, straight after work.")
    assert "Friday 19 September" in convo.pipeline.acknowledgment(convo.recorded)


def test_years_of_something_are_no_head_count(conversation):
    convo = conversation(lang="en")
    convo.say("Ha, I just realised I've been working from the kitchen table for three years. Tragic.")
    assert not [i for i in convo.active() if i.subject == "head count"], _values(convo)


def test_a_language_asked_for_a_while_is_a_rule_and_back_to_english_ends_it(conversation):
    convo = conversation(lang="en")
    convo.say("Quick one: my mum's visiting and reading over my shoulder, could you reply in Chinese for a bit? "
              "She wants to help.")
    convo.say("We're expecting about 40 guests.")
    convo.say("HR just confirmed people from the regional office are coming too, so we're looking at 55 now.")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert "55个人（之前是40个人）" in said, said  # a head count in the reply's Chinese, not "55 guests"
    convo.say("Mum's gone to bed, back to English please.")
    assert "English (was Chinese)" in convo.pipeline.acknowledgment(convo.recorded)
    rules = convo.active("directive")
    assert len(rules) == 1 and "English" in rules[0].value, _values(convo)


def test_a_day_put_off_before_the_old_day_is_named_moves_that_day(conversation):
    # (a walk with `paperclip ask`: the week went nowhere, and the list kept "原来定在6月15号")
    convo = conversation(lang="zh")
    convo.say("阿杰那周要出差，那往后挪一周吧。搬家日子原来定在6月15号")
    values = _values(convo)
    assert "搬家日子定在6月22号" in values and "6月15号" not in values, values


@pytest.mark.parametrize("said", ["先给结论那个不用了，你怎么舒服怎么来", "先给结论那个不用了 怎么方便怎么写"])
def test_whatever_suits_you_is_no_question_and_the_rule_pointed_at_goes(conversation, said):
    convo = conversation(lang="zh")
    convo.say("以后回答先给结论，别绕弯子")
    convo.say(said)
    assert not convo.active("directive"), _values(convo)
    assert only_tells(said)
    assert "不用再照做了" in convo.pipeline.acknowledgment(convo.recorded)


def test_a_few_more_who_cannot_come_is_no_question_and_the_new_count_is_said(conversation):
    convo = conversation(lang="zh")
    convo.say("初步统计有35个人要来")
    said = "又有几个在外地的说赶不回来 现在确定是28个人"
    convo.say(said)
    assert only_tells(said) and not only_tells("有几个人要来？")
    assert "28个人（之前是35个人）" in convo.pipeline.acknowledgment(convo.recorded)


def test_a_day_said_in_english_under_a_chinese_rule_is_named_in_chinese_when_it_moves(conversation):
    convo = conversation(lang="en")
    convo.say("My fiancée is Lin, and we're looking at October 10 next year for the date.")
    convo.say("From now on please answer me in Chinese.")
    convo.say("Date's changed: the venue we love only has October 17 free, so we're taking that.")
    assert "10月17号（之前是10月10号）" in convo.pipeline.acknowledgment(convo.recorded)


@pytest.mark.parametrize("lang, first, second, rule", [
    ("zh", "场地必须离地铁站近", "住的地方必须有电梯，我爸腿脚不好", "以后回答都先给结论"),
    ("en", "The venue must be step-free.", "We'd like a tea ceremony in the morning and the reception in the evening.",
     "From now on, give me a one-line answer first."),
])
def test_a_second_requirement_or_rule_kept_to_is_said_in_other_words(conversation, lang, first, second, rule):
    """Bench health judged the second "之后的方案都会照这个来。" a copy of the first."""
    convo = conversation(lang=lang)
    said = []
    for text in (first, second, rule, "以后回答都分点列出来" if lang == "zh" else "From now on, always use bullet points."):
        convo.user(text)
        said.append(convo.pipeline.acknowledgment(convo.recorded))
        convo.reply(said[-1])
    assert all(said) and said[0] != said[1] and said[2] != said[3], said


def test_a_day_things_must_be_done_by_is_the_deadline_and_a_new_one_replaces_it(conversation):
    convo = conversation(lang="en")
    convo.say("Ideally everything's in place by March 1, that's when I stop going into the office.")
    assert not [i for i in convo.store.list_items(convo.session.id) if i.status == "pending"], _values(convo)
    convo.say("My start date moved up, so I need it done by February 15 instead.")
    deadlines = [i for i in convo.active("constraint") if i.subject == "deadline"]
    assert len(deadlines) == 1 and "February 15" in deadlines[0].value, _values(convo)
    assert "deadline February 15 (was March 1)" in convo.pipeline.acknowledgment(convo.recorded)


def test_someones_decision_is_said_as_what_now_holds_not_as_the_message(conversation):
    convo = conversation(lang="en")
    said = "Update: she's decided to keep working from the library, so it's just me after all."
    convo.user(said)
    ack = convo.pipeline.acknowledgment(convo.recorded)
    assert "will keep working from the library" in ack and "Update" not in ack, ack
    assert not convo.pipeline.check_reply(convo.recorded, ack)


def test_what_was_said_in_english_is_recalled_by_its_values_under_a_chinese_rule(conversation):
    """Bench health: under "please answer me in Chinese", "我记下的是：We're thinking 160 guests（之前是We're thinking 120
    guests）"."""
    convo = conversation(lang="en")
    for text in ("We're thinking 120 guests. Budget is $30,000.", "From now on please answer me in Chinese.",
                 "Lin's mum says the guest list is way too small lol. We're at 160 now."):
        convo.say(text)
    convo.user("How many guests did we say again?")
    said = convo.pipeline.recollection(convo.recorded, "")[0]
    assert "160个人（之前是120个人）" in said and "thinking" not in said, said


def test_a_plan_under_the_list_loses_the_sentence_naming_the_old_count_of_seats(conversation):
    """Bench health: the list said 5座, the 0.5B's plan under it "准备一套7座的二手车"."""
    convo = conversation(lang="zh")
    convo.say("家里5口人 偶尔要带爷爷奶奶 所以想要7座的")
    convo.say("7座没必要 5座就行")
    plan = "首先，你需要准备一套7座的二手车。其次，建议选自动挡的车。"
    kept, _, _ = convo.pipeline.recap_completion(convo.store.get_session(convo.sid), plan, user_text="总结一下全部要求")
    assert "7座" not in kept and "自动挡" in kept, kept


def test_the_weekday_said_after_a_day_is_that_days_and_moves_with_it(conversation):
    convo = conversation(lang="zh")
    convo.say("时间定在12月20号 周六")
    convo.say("果然撞了 那往后挪一周吧")
    whens = [i.value for i in convo.active("fact") if i.subject.startswith("when:")]
    assert whens == ["时间定在12月27号，周六"], _values(convo)


@pytest.mark.parametrize("lang, said, kept", [
    ("zh", "你以后回答控制在100字以内啊，太长我不看", "好的，之后我的回答不会超过100字。"),
    # (bench health G6, hc-zh-12: "好的，记下了：100字。", the rule filed under "directive:上看/别超")
    ("zh", "以后回答别超过100字哈 我手机上看太长了", "好的，之后我的回答不会超过100字。"),
    ("en", "from now on keep your answers under 100 words, i read these on my phone",
     "Got it. I'll keep every answer within 100 words from now on."),
])
def test_a_length_rule_is_acknowledged_as_kept_to_not_as_a_bare_number(conversation, lang, said, kept):
    convo = conversation(lang=lang)
    convo.user(said)
    assert convo.pipeline.acknowledgment(convo.recorded) == kept


def test_a_length_rule_kept_to_is_not_the_rule_said_back():
    """Bench health G5: "好的，以后每次回答都控制在200字以内。" to "以后所有回答都控制在200字以内" was an echo."""
    from desktop_app.memory.reply_health import check_reply
    from desktop_app.prompts import acknowledge_text

    for lang, said in (("zh", "以后所有回答都控制在200字以内"),
                       ("en", "Please keep all your answers under 200 words from now on.")):
        kept = acknowledge_text(lang)["length"].format(n="200字" if lang == "zh" else "200 words")
        assert not check_reply(kept, user_text=said, expected_lang=lang, memory_held=True), kept


def test_whose_value_in_the_other_language_is_not_named_in_this_one(conversation):
    """Under the English rule, "有两个同事是清真，…，还有一个同事对花生过敏" was "Got it. Noted: 一个同事's allergy."."""
    convo = conversation(lang="zh")
    convo.say("人均预算800，公司报销")
    convo.say("以后都用英文回复我")
    convo.user("有两个同事是清真，吃饭要注意，还有一个同事对花生过敏")
    said = convo.pipeline.acknowledgment(convo.recorded)
    assert "'s" not in said and not said.endswith("allergy."), said
    convo.reply(said)
    convo.user("老板说人均可以到1000，让大家玩好点")
    assert convo.pipeline.acknowledgment(convo.recorded) == "Got it. Noted: budget 1000 (was 800)."


def test_a_plan_line_naming_the_old_day_beside_the_new_one_goes(conversation):
    """Bench health's hc-en-13: under the list, "After the clinic's appointment on October 16 and next checkup is oct 9"
    (the checkup had moved from oct 9 to oct 16); a line marking the old day as history stays."""
    convo = conversation(lang="en")
    convo.say("next checkup is oct 9, they want bloodwork")
    convo.say("vet called, they're moving the checkup to oct 16 bc the doctor's away")
    plan = ("1. Walks: after the clinic's appointment on October 16 and next checkup is oct 9, keep walks short.\n"
            "2. Bloodwork: the checkup moved from oct 9 to oct 16, so fast him the night before.\n3. Diet: renal food.")
    kept, _, _ = convo.pipeline.recap_completion(convo.store.get_session(convo.sid), plan,
                                                  user_text="now summarise all the requirements and the final plan please")
    assert "Walks" not in kept and "Bloodwork" in kept and "Diet" in kept, kept
