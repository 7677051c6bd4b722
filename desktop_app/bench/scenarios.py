"""Scenario transcripts shared by ``paperclip bench context`` and the scenario tests.

Each is a user's story: a task, important statements at fixed turns (constraints at
turns 4, 9, 15 of 20, checked at 18; requirements changed at turns 3, 12, 19 of 30),
chit-chat in between, and probes listing which values must be in the prompt (``active``) and
which old values must not be presented as current (``superseded``).
"""

from __future__ import annotations

from pydantic import BaseModel

from desktop_app.engine.protocol import ChatMessage


class ScenarioTurn(BaseModel):
    user: str
    assistant: str


class Probe(BaseModel):
    """At ``turn`` (1-based user turn), the prompt must carry every ``active`` marker and must not
    present any ``superseded`` marker as current."""

    turn: int
    active: list[str]
    superseded: list[str] = []


class Scenario(BaseModel):
    name: str
    lang: str
    description: str
    turns: list[ScenarioTurn]
    probes: list[Probe]


CHAT_EN = [
    "What is a good way to stay focused in the afternoon?", "Can you recommend a podcast about history?",
    "How do I make a decent cup of pour-over coffee?", "What's the difference between a lake and a pond?",
    "Tell me a fun fact about octopuses.", "How long should I rest between workouts?",
    "Any tips for keeping houseplants alive in winter?", "Why is the sky blue?",
    "What's a quick vegetarian dinner idea?", "How do noise-cancelling headphones work?",
    "What should I pack for a rainy weekend hike?", "How do I stop procrastinating on email?",
    "What's the origin of the word 'robot'?", "Suggest a board game for four players.",
    "How can I improve my handwriting?", "What makes sourdough bread sour?",
    "How do bees communicate?", "What is a good stretching routine for the morning?",
    "Can you explain how tides work?", "What's an easy way to learn basic knots?",
    "Why do cats purr?", "How do I clean a cast iron pan?", "What are some good habits for sleep?",
    "How do solar panels produce electricity?", "What is the tallest mountain in Africa?",
    "How do I politely decline a meeting?", "What's a good name for a goldfish?",
    "How does a compass find north?", "Give me a tip for better photos with a phone.",
    "What's the best way to memorise a short poem?",
]
CHAT_ZH = [
    "下午容易犯困，有什么提神的办法？", "推荐一个讲历史的播客吧。", "手冲咖啡怎么做比较好喝？",
    "湖和池塘有什么区别？", "讲一个关于章鱼的冷知识。", "两次锻炼之间应该休息多久？",
    "冬天怎么养好室内绿植？", "天空为什么是蓝色的？", "有什么快手的素菜晚餐？",
    "降噪耳机是怎么工作的？", "下雨的周末徒步要带什么？", "怎么改掉拖延回邮件的习惯？",
    "机器人这个词是怎么来的？", "推荐一个适合四个人玩的桌游。", "怎么把字写得更好看？",
    "酸面包为什么是酸的？", "蜜蜂之间怎么交流？", "早上适合做什么拉伸？", "潮汐是怎么形成的？",
    "有什么简单的绳结可以学？", "猫为什么会呼噜？", "铸铁锅怎么清洗？", "有哪些好的睡眠习惯？",
    "太阳能板是怎么发电的？", "非洲最高的山是哪座？", "怎么礼貌地拒绝一个会议？",
    "给金鱼起个什么名字好？", "指南针是怎么找到北方的？", "用手机拍照有什么技巧？", "怎么背下一首短诗？",
]
FILLER_EN = [
    "That is a good question, and there are a few angles worth considering before settling on an answer.",
    "Most people find that small, consistent habits matter more than occasional big efforts.",
    "It helps to try one change at a time so you can tell what actually made the difference.",
    "There is no single right answer here; it depends on your situation and what you enjoy.",
    "A simple way to start is to set a short timer and see how it feels after a week.",
    "If you want, I can go into more detail on any part of this later in our conversation.",
    "Experts tend to agree on the basics, even if they argue about the finer points.",
    "Keep notes as you go, because memory of what worked fades faster than you expect.",
]
FILLER_ZH = [
    "这是个好问题，在下结论之前有几个角度值得考虑。", "大多数人发现，小而持续的习惯比偶尔的大努力更重要。",
    "一次只尝试一个改变，这样才能知道到底是什么起了作用。", "这里没有唯一正确的答案，要看你的情况和喜好。",
    "一个简单的开始方式是设一个短计时器，一周后看看感觉如何。", "如果你愿意，之后我可以再详细讲其中任何一部分。",
    "专家们在基本原则上通常一致，只是在细节上有分歧。", "边做边记笔记，因为对有效做法的记忆消退得比你想的快。",
]
ACK = {"en": "Noted — I will keep that in mind for the rest of the task.", "zh": "好的，我记下了，后面的任务都会照此执行。"}


def _reply(lang: str, index: int, sentences: int) -> str:
    pool = FILLER_EN if lang == "en" else FILLER_ZH
    return (" " if lang == "en" else "").join(pool[(index + k) % len(pool)] for k in range(sentences))


def build(name: str, lang: str, description: str, n_turns: int, important: dict[int, str], probes: list[Probe],
          *, reply_sentences: int = 3) -> Scenario:
    """A transcript of ``n_turns`` user turns: ``important`` ones at their turns, chit-chat elsewhere."""
    chat = CHAT_EN if lang == "en" else CHAT_ZH
    turns = []
    for turn in range(1, n_turns + 1):
        if turn in important:
            turns.append(ScenarioTurn(user=important[turn], assistant=ACK[lang]))
        else:
            turns.append(ScenarioTurn(user=chat[(turn * 7) % len(chat)],
                                      assistant=_reply(lang, turn, reply_sentences)))
    return Scenario(name=name, lang=lang, description=description, turns=turns, probes=probes)


def retention(lang: str) -> Scenario:
    """Seed 002: constraints at turns 4, 9 and 15 of a 20-turn task, all checked at turn 18."""
    if lang == "zh":
        important = {1: "帮我规划一个三周的副业启动方案。", 4: "预算不超过5000元。",
                     9: "不要修改原始CSV文件。", 15: "截止日期是6月30日。"}
        markers = ["5000元", "原始CSV", "6月30日"]
    else:
        important = {1: "Help me plan a three-week side business launch.", 4: "The budget must stay under 5000 dollars.",
                     9: "Never modify the original CSV file.", 15: "The deadline is June 30."}
        markers = ["5000 dollars", "original CSV", "June 30"]
    return build(f"retention-{lang}", lang, "constraints at turns 4/9/15, probe at 18", 20, important,
                 [Probe(turn=18, active=markers)])


def changes(lang: str) -> Scenario:
    """Seed 003: requirements changed at turns 3, 12 and 19 of 30; only current ones at the end."""
    if lang == "zh":
        important = {1: "帮我写一份市场调研报告。", 2: "交付格式是PDF。", 4: "预算不超过5000元。",
                     6: "截止日期是6月30日。", 3: "交付格式改成Word文档。", 12: "预算改成8000元。",
                     19: "截止日期改成7月15日。"}
        active, old = ["Word", "8000元", "7月15日"], ["PDF", "5000元", "6月30日"]
    else:
        important = {1: "Help me write a market research report.", 2: "The delivery format is PDF.",
                     4: "The budget must stay under 5000 dollars.", 6: "The deadline is June 30.",
                     3: "Change the delivery format to Word.", 12: "Change the budget to 8000 dollars.",
                     19: "Move the deadline to July 15."}
        active, old = ["Word", "8000 dollars", "July 15"], ["PDF", "5000 dollars", "June 30"]
    return build(f"changes-{lang}", lang, "requirements changed at turns 3/12/19 of 30", 30, important,
                 [Probe(turn=30, active=active, superseded=old)])


def long_session(lang: str = "en") -> Scenario:
    """A 50-turn session with long replies: the prompt-size probe at turn 50."""
    if lang == "zh":
        important = {1: "帮我准备一次产品发布会。", 3: "以后每次都用中文回答。", 10: "预算不超过20000元。",
                     22: "不要邀请竞争对手的员工。", 35: "发布会日期是9月12日。", 40: "预算改成25000元。"}
        active, old = ["中文回答", "25000元", "竞争对手", "9月12日"], ["20000元"]
    else:
        important = {1: "Help me prepare a product launch event.", 3: "From now on, always answer in English.",
                     10: "The budget must stay under 20000 dollars.", 22: "Never invite employees of competitors.",
                     35: "The launch date is September 12.", 40: "Change the budget to 25000 dollars."}
        active, old = ["answer in English", "25000 dollars", "competitors", "September 12"], ["20000 dollars"]
    return build(f"long-{lang}", lang, "50 turns with long replies; probe at turn 50", 50, important,
                 [Probe(turn=50, active=active, superseded=old)], reply_sentences=6)


def all_scenarios() -> list[Scenario]:
    return [retention("zh"), retention("en"), changes("zh"), changes("en"), long_session("en"), long_session("zh")]


# -- scoring ---------------------------------------------------------------------------------
SUPERSEDED_LABELS = ("superseded", "revoked", "已被", "已撤销", "已废弃")


def segments(messages: list[ChatMessage]) -> list[str]:
    """Lines of the prompt, with memory notes kept on the line they annotate."""
    out: list[str] = []
    for message in messages:
        text = message["content"].replace("\n[memory:", " [memory:").replace("\n[记忆：", " [记忆：")
        out += text.splitlines()
    return out


def active_present(messages: list[ChatMessage], markers: list[str]) -> int:
    """How many ``markers`` appear anywhere in the prompt."""
    text = "\n".join(m["content"] for m in messages)
    return sum(1 for marker in markers if marker in text)


def superseded_as_current(messages: list[ChatMessage], markers: list[str]) -> int:
    """How many old values appear on a line that does not mark them as superseded or revoked."""
    lines = segments(messages)
    return sum(1 for marker in markers
               if any(marker in line and not any(label in line for label in SUPERSEDED_LABELS) for line in lines))
