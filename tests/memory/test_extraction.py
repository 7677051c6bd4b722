"""Rule-based extraction: what a sentence asks memory to do, in Chinese and English."""

import pytest

from desktop_app.memory.write.extraction import extract


@pytest.mark.parametrize("text, action, kind, subject", [
    ("以后每次都用中文回答。", "add", "directive", "language"),
    ("从现在开始，请始终用表格格式输出。", "add", "directive", "format"),
    ("From now on, always answer in English.", "add", "directive", "language"),
    ("Never use emoji in your replies.", "add", "directive", None),
    ("预算不超过5000元。", "add", "constraint", "budget"),
    ("The budget must stay under 5000 dollars.", "add", "constraint", "budget"),
    ("截止日期是6月30日。", "add", "constraint", "deadline"),
    ("The deadline is June 30.", "add", "constraint", "deadline"),
    ("不要修改原始CSV文件。", "add", "constraint", None),
    ("Never modify the source CSV.", "add", "constraint", None),
    ("我叫小王。", "add", "fact", "name"),
    ("My name is Alice.", "add", "fact", "name"),
    ("交付格式是PDF。", "add", "fact", "format"),
    ("我更喜欢简洁的回答。", "add", "preference", None),
    ("I prefer short answers.", "add", "preference", None),
    ("我们决定用方案B。", "add", "decision", None),
    ("We decided to use PostgreSQL.", "add", "decision", None),
    ("帮我规划一个三周的副业启动方案。", "add", "goal", "goal"),
    ("Help me plan a trip to Kyoto.", "add", "goal", "goal"),
    # an aim with the number to reach: a goal, not a correction of the latest number
    ("体重想减到125。", "add", "goal", "goal"),  # (the weight now said before it is a fact of its own: test_goal_targets)
    ("争取今年攒到10万。", "add", "goal", "goal"),
    ("我想今年考过雅思7分。", "add", "goal", "goal"),
    ("I weigh 180 and want to get down to 160.", "add", "goal", "goal"),
    ("I'm trying to save 500 a month.", "add", "goal", "goal"),
    ("我想把预算减到1000。", "correct", None, "budget"),  # a budget's "减到" changes it
    ("导师要求参考文献至少30篇。", "add", "constraint", None),  # 要求…参考: no aim
    ("We need to get there by 9.", "add", "constraint", None),  # a time to be there, not an aim
    ("也许我们应该换个供应商？", "add", "open_question", None),
    ("Maybe we should try Rust?", "add", "open_question", None),
    ("Still torn between Lisbon and Porto.", "add", "open_question", None),
    ("年会请不请主持人还没想好。", "add", "open_question", None),
    ("搬去深圳还是广州，我还在纠结。", "add", "open_question", None),
    ("音乐的话，我最喜欢民谣。", "add", "preference", None),  # "X的话，" names a topic here, it supposes nothing
    ("预算改成8000元。", "correct", None, "budget"),
    ("Actually, change the budget to 8000.", "correct", None, "budget"),
    ("不对，应该是6000。", "correct", None, ""),
    ("取消之前那条用中文回答的规则。", "revoke", None, "language"),
    ("Stop using bullet points.", "revoke", None, "format"),
    ("I finished the outline.", "step_done", "goal", "goal"),
])
def test_sentence_becomes_the_expected_candidate(text, action, kind, subject):
    [candidate] = extract(text)
    assert candidate.action == action
    if kind:
        assert candidate.kind == kind
    if subject is not None:
        assert candidate.subject == subject
    assert candidate.quote.strip("。.") in text


@pytest.mark.parametrize("text", ["今天天气不错", "hello, how are you?", "What's the weather like?",
                                  "推荐一个讲历史的播客吧。", "Tell me a fun fact about octopuses."])
def test_chit_chat_extracts_nothing(text):
    assert extract(text) == []


def test_each_sentence_of_a_message_is_read():
    kinds = [c.kind for c in extract("我叫小王。预算不超过5000元。以后每次都用中文回答。")]
    assert kinds == ["fact", "constraint", "directive"]


def test_short_affirmation_and_denial_answer_a_pending_question():
    assert extract("是的")[0].action == "confirm"
    assert extract("yes")[0].action == "confirm"
    assert extract("no")[0].action == "reject"


def test_change_keeps_the_new_value_and_names_the_subject():
    [candidate] = extract("把交付格式改成Word文档")
    assert candidate.subject == "format"
    assert "Word文档" in candidate.value


@pytest.mark.parametrize("text", ["what is the budget?", "预算是多少？", "Is the deadline Friday?", "预算是多少",
                                  "截止日期是不是周五", "When is the deadline"])
def test_questions_about_memory_do_not_write_memory(text):
    assert extract(text) == []


def test_a_polite_question_can_still_set_a_standing_reply_rule():
    [candidate] = extract("Could you always answer in Chinese?")
    assert (candidate.kind, candidate.subject) == ("directive", "language")


@pytest.mark.parametrize("text, subject", [("I am allergic to shellfish.", "allergy"), ("我对花生过敏。", "allergy"),
                                           ("I'm vegetarian.", "diet")])
def test_health_and_diet_facts_are_kept(text, subject):
    [candidate] = extract(text)
    assert (candidate.kind, candidate.subject) == ("fact", subject)


def test_a_question_that_says_stop_is_not_a_revocation_unless_it_names_a_rule():
    assert extract("How do I stop procrastinating on email?") == []
    assert extract("怎么取消订阅？") == []
    [candidate] = extract("Can you stop answering in English?")
    assert candidate.action == "revoke"
