"""Replies that fail by their form (memory.reply_form), each read "bad" by a blind reader of bench health run S
while the judge passed it; and what stays healthy beside them."""

from desktop_app.memory.reply_form import asks_it_back, mended, repeated_block, speaks_as_user, unfilled_list
from desktop_app.memory.reply_health import check_reply, worth_retry

_OPTIONS = ("If Mia is allergic, we should try something else instead of cashews or almonds. Here are some other options:\n"
            "1. **Casa de Prata**: This is another popular option as it has a beautiful and quiet atmosphere. "
            "It's also known for its delicious fruit variety.\n"
            "2. **Hermosa**: This is one of the most beloved options in Lisbon.\n\n")
# run S, hc-en-01 turn 7, as the 0.5B wrote it (the first block said "cashews." alone)
LOOPED = ("Oh, that's a great idea! The younger one, Mia, has a tree nut allergy.\n\n"
          + _OPTIONS.replace("cashews or almonds.", "cashews.") + 4 * _OPTIONS
          + "If Mia is allergic, we should try something else instead of cash")


def kinds(reply: str, user_text: str, lang: str, messages: tuple[str, ...] = ()) -> set[str]:
    return {f.kind for f in check_reply(reply, user_text=user_text, expected_lang=lang, earlier_messages=messages)}


def test_a_block_said_twice_is_a_loop_in_both_languages():
    assert repeated_block(LOOPED) is not None
    assert "loop" in kinds(LOOPED, "Our younger one, Mia, has a tree nut allergy. Is eating out going to be a nightmare?",
                           "en")
    zh = ("老人家走不了太多路。第一天建议在古城慢慢逛，累了就回酒店休息。第二天去洱海边坐坐，喝喝茶，不用爬山。\n"
          "第一天建议在古城慢慢逛，累了就回酒店休息。第二天去洱海边坐坐，喝喝茶，不用爬山。")
    assert repeated_block(zh) is not None
    assert "loop" in kinds(zh, "我爸妈腿脚不好，怎么安排？", "zh")


def test_a_line_again_on_each_day_of_a_plan_or_in_each_recipe_is_no_loop():
    plan = ("Day 1: Breakfast at the hotel. Walk through Baixa and ride the tram to Belém.\n"
            "Day 2: Breakfast at the hotel. Take the train to Sintra and see Pena Palace.\n"
            "Day 3: Breakfast at the hotel. Visit the Oceanarium, then a slow afternoon by the river.")
    assert repeated_block(plan) is None
    assert "loop" not in kinds(plan, "Give me a 3-day plan for Lisbon.", "en")
    zh = "第一天：酒店早餐，逛古城。\n第二天：酒店早餐，去洱海。\n第三天：酒店早餐，去喜洲。"
    assert repeated_block(zh) is None
    recipes = ("1. **Mushroom risotto**\n- 300 g arborio rice\n- Salt and pepper to taste\n- 2 tablespoons olive oil\n"
               "2. **Roast vegetables**\n- 1 kg mixed vegetables\n- Salt and pepper to taste\n- 2 tablespoons olive oil\n")
    assert repeated_block(recipes) is None


def test_a_list_announced_and_not_given_is_asked_for_again():
    for reply, lang in [("Great to hear your dietary changes! Here are some starter ideas for your dinner party:", "en"),
                        ("Here are some starter ideas for your dinner party:\n\nI hope these suggestions help you plan a meal!",
                         "en"),
                        ("好的，下面是几道适合老人的菜：", "zh"),
                        ("下面是几道适合老人的菜：\n\n希望这些建议对你有帮助！", "zh")]:
        assert unfilled_list(reply, lang) is not None, reply
        found = check_reply(reply, user_text="Priya went vegan, so the vegetarian option needs to be vegan now.",
                            expected_lang=lang if lang == "en" else None)
        assert "unfilled" in {f.kind for f in found} and worth_retry(found), reply


def test_a_list_given_after_its_colon_is_an_answer():
    for reply, lang in [("Here are some ideas:\n- Mushroom risotto\n- Roast vegetables\n\nI hope these suggestions help!", "en"),
                        ("My suggestion:\nStay in Príncipe Real, it is flat and quiet.", "en"),
                        ("下面是几道菜：\n1. 清蒸鱼\n2. 红烧豆腐\n希望对你有帮助！", "zh"),
                        ("Budget: €6,500", "en")]:
        assert unfilled_list(reply, lang) is None, reply


def test_the_users_question_said_back_is_an_echo():
    asked = "对了我爸有高血压，香格里拉那种海拔高的是不是就别去了？"
    assert asks_it_back("我老公60多，香格里拉海拔高的是不是就别去了。", asked) is not None
    assert "echo" in kinds("我老公60多，香格里拉海拔高的是不是就别去了。", asked, "zh")
    en = "Is eating out in Portugal going to be a nightmare?"
    assert asks_it_back("Eating out in Portugal is going to be a nightmare?", f"Mia has a nut allergy. {en}") is not None


def test_an_answer_that_restates_the_question_first_is_healthy():
    asked = "对了我爸有高血压，香格里拉那种海拔高的是不是就别去了？"
    assert asks_it_back("是的，建议别去。香格里拉海拔3300米，高血压的老人容易高反，可以换成大理和丽江。", asked) is None
    en = "Is eating out in Portugal going to be a nightmare with a nut allergy?"
    assert asks_it_back("Is eating out in Portugal going to be a nightmare with a nut allergy? No: carry an allergy card "
                        "in Portuguese, and grilled fish places rarely use nuts.", en) is None


def test_the_users_own_sentence_said_as_the_replys_is_an_echo():
    first = "Hi! I'm planning a family trip to Lisbon this summer and could use some help getting it organised."
    reply = ("I'm planning a family trip to Portugal this summer and could use help getting it organised. "
             "Plan: fly from Manchester, stay 7 days.")
    assert speaks_as_user(reply, [first], "en") is not None
    assert "echo" in kinds(reply, "Okay, summarise all my constraints and give me the final plan.", "en", (first,))
    zh_first = "我表妹小雨对虾过敏，很严重那种，虾一定不能有"
    zh = "总结如下：\n- 我表妹小雨对虾过敏，很严重那种，虾一定不能有\n- 预算1500"
    assert speaks_as_user(zh, [zh_first], "zh") is not None
    # run U: the opening clauses of the message, said back as the reply's first sentence
    opening = "今天年夜饭轮到我家，有点慌。帮我想想菜单：春节套餐、饺子皮等。"
    assert speaks_as_user(opening, ["今年年夜饭轮到我家做，有点慌，帮我想想菜单"], "zh") is not None


def test_a_summary_in_the_assistants_voice_or_quoting_the_user_is_healthy():
    first = "Hi! I'm planning a family trip to Lisbon this summer and could use some help getting it organised."
    assert speaks_as_user("You're planning a family trip to Lisbon this summer with five people and a budget of €6,500.",
                          [first], "en") is None
    assert speaks_as_user('You said: "I\'m planning a family trip to Lisbon this summer and could use some help."',
                          [first], "en") is None
    said = ["我表妹小雨对虾过敏，很严重那种，虾一定不能有"]
    assert speaks_as_user("你表妹小雨对虾过敏，很严重，菜里一定不能有虾。", said, "zh") is None


def test_a_block_said_again_stops_the_stream_as_a_line_ends():
    from desktop_app.memory.reply_health import degenerate_opening

    lines = LOOPED.splitlines(keepends=True)
    found = [(n, f) for n in range(1, len(lines) + 1)
             if (f := degenerate_opening("".join(lines[:n]), user_text="Our younger one, Mia, has a tree nut allergy."))]
    n, first = found[0]
    assert first.kind == "loop"
    assert n < len(lines) // 2, "stopped at the first block said again, not at the token limit"


def test_a_summary_may_list_the_values_but_not_paste_the_labelled_notes():
    """Run U's final plan: "…以下是一些适合整条蒸的食材：虾过敏: 虾一定不能有；预算控制: 人少了那预算就压到1500吧；…"."""
    notes = ["虾过敏: 虾一定不能有", "预算控制: 人少了那预算就压到1500吧", "我奶奶牙口不好"]
    ask = "好，最后帮我把所有要求总结一下，给个完整菜单"
    pasted = "以下是一些适合整条蒸的食材：虾过敏: 虾一定不能有；预算控制: 人少了那预算就压到1500吧；我奶奶牙口不好。"
    assert "scaffolding" in {f.kind for f in check_reply(pasted, user_text=ask, expected_lang="zh", notes=notes)}
    listed = "你的要求：\n- 虾一定不能有\n- 预算1500\n- 奶奶牙口不好，菜要软烂\n菜单：清蒸鲈鱼、红烧豆腐、蒸蛋。"
    assert "scaffolding" not in {f.kind for f in check_reply(listed, user_text=ask, expected_lang="zh", notes=notes)}


def test_a_reply_is_mended_of_its_second_saying_and_of_a_list_it_never_gives():
    # run U: the 0.5B's replies after their retry, still broken
    said_twice = ("The budget was $6, 500 before this note was applied. With one more adult we can still stay within "
                  "the budget while enjoying Sintra together with your family.\n")
    looped = "Yes, we can do a day trip to Sintra.\n" + said_twice + "In addition:\n1. Pena Palace\n" + said_twice
    assert mended(looped, "en") == ("Yes, we can do a day trip to Sintra.\n" + said_twice + "In addition:\n1. Pena Palace")
    assert repeated_block(mended(looped, "en")) is None
    chat = ("I'm glad you found Alfama cute! I'm excited to help you organize your family trip and make sure everyone "
            "is comfortable. Here are some tips that should get you started:\n\nI hope these suggestions help!")
    assert mended(chat, "en") == ("I'm glad you found Alfama cute! I'm excited to help you organize your family trip "
                                  "and make sure everyone is comfortable.")
    zh = "整条蒸最好，寓意年年有余，蒸10分钟左右就够了。下面是几道适合整条蒸的鱼："
    assert mended(zh, "zh") == "整条蒸最好，寓意年年有余，蒸10分钟左右就够了。"
    zh_loop = ("第一天建议在古城慢慢逛，累了就回酒店休息。第二天去洱海边坐坐，喝喝茶，不用爬山。\n"
               "第一天建议在古城慢慢逛，累了就回酒店休息。第二天去洱海边坐坐，喝喝茶，不用爬山。")
    assert mended(zh_loop, "zh") == "第一天建议在古城慢慢逛，累了就回酒店休息。第二天去洱海边坐坐，喝喝茶，不用爬山。"


def test_a_reply_whole_in_its_form_is_not_mended_and_one_with_nothing_left_is_empty():
    for reply, lang in [("Here are some ideas:\n- Mushroom risotto\n- Roast vegetables", "en"),
                        ("下面是几道菜：\n1. 清蒸鱼\n2. 红烧豆腐", "zh"), (LOOPED[:60], "en")]:
        assert mended(reply, lang) == reply
    assert mended("Sure! Here are some tips that should get you started:", "en") == ""
    assert mended("好的，下面是几道适合老人的菜：", "zh") == ""


def test_the_sentences_that_paste_the_notes_back_are_taken_out():
    """Bench health round twenty-five (G8, hc-zh-03): after its retry the 0.5B still pasted five notes in a row; what is
    left of the reply without them is kept (when every attempt pasted them)."""
    from desktop_app.memory.reply_health import check_reply
    from desktop_app.memory.scaffolding import without_pasted_notes

    notes = ["下个月要搬家，从朝阳搬到海淀，东西巨多，头大", "搬家日子定在6月15号，周六",
             "预算3000块，包括搬家公司和买收纳箱什么的", "家里就我和我对象阿杰", "一只狗叫豆豆"]
    reply = ("当前北京热死了，37摄氏度。明天要搬家，从朝阳搬到海淀。搬家日子定在6月15号，周六；"
             "预算3000块，包括搬家公司和买收纳箱什么的；家里就我和我对象阿杰；一只狗叫豆豆；"
             "今天北京热死了，天气状况严重，请尽快前往看房。")
    kept = without_pasted_notes(reply, notes)
    assert "6月15号" not in kept and "看房" in kept
    assert not check_reply(kept, user_text="今天北京热死了，37度，还得出去看房", notes=notes), kept
    answer = "6月15号搬家的话，记得提前一周订好搬家公司。"
    assert without_pasted_notes(answer, notes) == answer  # a value used, not the notes pasted
