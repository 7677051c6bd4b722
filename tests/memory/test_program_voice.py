"""What the program says of the user's values reads in its own voice, by what they hold: a blind reader of bench
health run S read the program's list of the user's sentences ("- Tom just checked and flights are way cheaper if we
leave July 21 instead", "- 我表妹小雨对虾过敏…") as the user's messages said back."""

import pytest

from desktop_app.memory.acknowledgment import Noted, acknowledgment
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.lang.voice import in_your_voice
from desktop_app.memory.recap import completion, summary
from desktop_app.memory.reply_health import check_reply


def fact(subject: str, value: str, kind: str = "fact") -> MemoryItem:
    return MemoryItem(id=1, session_id=1, kind=kind, subject=subject, value=value, status="active", origin="rule",
                      state_version=1, created_at=0.0, updated_at=0.0)


@pytest.mark.parametrize("lang, said, voiced", [
    ("en", "I'm vegetarian", "You're vegetarian"),
    ("en", "Change of plan: Priya told me she went vegan", "Change of plan: Priya told you she went vegan"),
    ("en", "My son Leo is 8 and we fly from the US", "Your son Leo is 8 and you fly from the US"),
    ("en", "Tom and I are flying out July 14", "Tom and you are flying out July 14"),
    ("zh", "我妈一点辣都不能吃，吃饭的时候要注意", "你妈一点辣都不能吃，吃饭的时候要注意"),
    ("zh", "我们一共4个人，我、我老公，还有我爸妈", "你们一共4个人，你、你老公，还有你爸妈"),
])
def test_the_users_words_in_the_programs_voice(lang, said, voiced):
    assert in_your_voice(said, lang) == voiced


@pytest.mark.parametrize("lang, items, lines", [
    ("en", [fact("departure", "Hmm, Tom just checked and flights are way cheaper if we leave July 21 instead"),
            fact("head count", "my mum wants to come too, so make that 5 people"),
            fact("diet:priya", "Change of plan: Priya told me she went fully vegan last month, so the option needs to be vegan"),
            fact("budget", "Let's say €6,500 instead", kind="constraint"),
            fact("hills", "I'm not hauling suitcases up those hills"),
            fact("departure", "leaving August 2 for 7 days")],
     ["departure July 21", "5 people", "Priya's diet: vegan", "budget €6,500", "You're not hauling suitcases up those hills",
      "departure August 2, 7 days"]),
    ("zh", [fact("head count", "我弟说他也要跟着去，那就5个人了"), fact("allergy:表妹小雨", "我表妹小雨对虾过敏，很严重那种"),
            fact("budget", "budget: 2.5万", kind="constraint"), fact("老人", "我妈一点辣都不能吃，吃饭的时候要注意"),
            fact("departure", "10月1号出发，玩6天")],
     ["5个人", "你表妹小雨的过敏：虾", "预算 2.5万", "你妈一点辣都不能吃，吃饭的时候要注意", "出发日期 10月1号，6天"]),
])
def test_a_summary_completed_by_the_program_names_each_value_by_what_it_holds(lang, items, lines):
    added = completion(items, lang)
    assert added.strip().splitlines()[1:] == [f"- {line}" for line in lines]
    messages = [i.value for i in items]
    ask = "Okay, summarise all my constraints and give me the final plan." if lang == "en" else "总结一下我的所有要求，给我最终方案"
    assert check_reply(f"Plan: three easy days.{added}", user_text=ask, earlier_messages=messages, expected_lang=lang) == []


def test_an_acknowledgment_says_the_users_news_in_its_own_voice_and_quotes_a_rule():
    said = acknowledgment([Noted("我奶奶牙口不好，得有几个软烂的菜", label=None)], [], "zh", "还有就是，菜要软一点")
    assert "你奶奶牙口不好" in said and "我奶奶" not in said
    rule = acknowledgment([Noted("always answer me in English", label=None, rule=True)], [], "en", "by the way")
    assert "answer me in English" in rule


@pytest.mark.parametrize("lang, message, subject, said", [
    # run U answered "还有我妈一点辣都不能吃…" with a bare "好的，记下了。"; a diet said by what is not eaten read "饮食：辣"
    ("zh", "还有我妈一点辣都不能吃，吃饭的时候要注意", "diet:妈", "你妈妈的饮食：一点辣都不能吃"),
    ("zh", "我妈不吃辣", "diet:妈", "你妈妈的饮食：不吃辣"),
    ("en", "Grandma doesn't eat pork", "diet:grandma", "Grandma's diet: doesn't eat pork"),
])
def test_a_diet_of_what_is_not_eaten_is_said_with_its_not(conversation, lang, message, subject, said):
    chat = conversation(lang=lang)
    chat.say(message)
    [diet] = [i for i in chat.store.list_items(chat.sid, statuses=("active",)) if i.subject == subject]
    from desktop_app.lexicon import subject_labels
    from desktop_app.memory.acknowledgment import label_of

    assert said in acknowledgment([Noted(diet.value, label=label_of(subject, diet.value, subject_labels(lang), lang))], [],
                                  lang, message)


def test_a_new_rules_amount_is_said_bare_not_under_its_label():
    """Run U: "Got it. Noted: length 100 words." to "Please keep all your answers under 100 words from now on."."""
    message = "Please keep all your answers under 100 words from now on."
    said = acknowledgment([Noted(message.rstrip("."), label="length", rule=True)], [], "en", message)
    assert said == "Got it. Noted: 100 words."
    assert "length" not in acknowledgment([Noted("以后回答控制在100字以内", label="篇幅", rule=True)], [], "zh",
                                          "以后回答控制在100字以内")


@pytest.mark.parametrize("lang, new, old, label, said", [
    # a Pilot walk: "好的，记下了：4天（之前是3天）。" to "改成一周4天吧，周六也能挤出时间"
    ("zh", "一周4天吧，周六也能挤出时间", "一周练3天", "频率", "频率：一周4天（之前是一周练3天）"),
    ("en", "make that 4 days a week, I can squeeze in saturday", "3 days a week", "how often",
     "how often: 4 days a week (was 3 days a week)"),
])
def test_a_changed_frequency_is_said_by_what_it_is(lang, new, old, label, said):
    assert said in acknowledgment([Noted(new, old, label)], [], lang, new)


def test_a_list_says_each_value_once():
    # round seventeen's run listed "虾过敏: 虾一定不能有" under the whole allergy that says it
    items = [fact("虾过敏", "虾过敏: 我表妹小雨对虾过敏，很严重那种，虾一定不能有"),
             fact("虾过敏", "虾过敏: 虾一定不能有", kind="constraint"), fact("head count", "还是12个人"),
             fact("head count 2", "15 people")]
    lines = summary(items, "zh").splitlines()[1:]
    assert lines[0] == "- 你表妹小雨对虾过敏，很严重那种，虾一定不能有" and not any("虾过敏:" in line for line in lines)
    assert "- 12个人" in lines and "- 15 people" in lines, "a number inside another is not said by it"
