"""``paperclip bench answers``: a small bilingual set through the real turn pipeline, with a
pass/fail per question that is fixed up front, for the catalog's models side by side.

Each case may first state things (imported as typed turns, so memory extraction runs), then
asks one question with the real model through ``chat.run_turn`` (or a JSON-schema
completion). The checks are deliberately simple and mechanical: the reply's language, a value
it must mention, or the JSON it must fill.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from pydantic import BaseModel

from desktop_app import lexicon

CJK = re.compile(f"[{lexicon.CJK}]")
LETTERS = re.compile(f"[A-Za-z{lexicon.CJK}]")
NAME_BUDGET = {"type": "object", "properties": {"name": {"type": "string"}, "budget": {"type": "integer"}},
               "required": ["name", "budget"]}
PERSON = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"},
                                           "city": {"type": "string"}}, "required": ["name", "age", "city"]}


class Case(BaseModel):
    id: str
    lang: str  # the language the reply must be in ("en" / "zh"), checked on every non-JSON case
    ask: str
    setup: list[str] = []
    mentions: list[str] = []  # the reply must contain one of these
    schema_: dict | None = None
    expect: dict | None = None  # the JSON values a schema case must produce
    kind: str = "chat"


CASES = [
    Case(id="chat-en-relax", lang="en", ask="What's a good way to relax after work? One or two sentences."),
    Case(id="chat-zh-relax", lang="zh", ask="下班后怎么放松比较好？用一两句话回答。"),
    Case(id="chat-en-sleep", lang="en", ask="Give me one tip for sleeping better."),
    Case(id="chat-zh-book", lang="zh", ask="推荐一本适合初学者的编程书，并说明理由。"),
    Case(id="chat-en-define", lang="en", ask="Explain what a budget is in one sentence.", mentions=["money", "budget"]),
    Case(id="chat-zh-define", lang="zh", ask="用一句话解释什么是预算。", mentions=["预算", "钱", "支出"]),
    Case(id="plan-en-budget", lang="en", setup=["My budget for the trip is 800 euros."],
         ask="Plan a weekend in Lisbon within my budget.", mentions=["800"], kind="planning"),
    Case(id="plan-zh-budget", lang="zh", setup=["我这次旅行的预算是3000元。"],
         ask="帮我规划一个杭州两日游，不要超预算。", mentions=["3000", "三千"], kind="planning"),
    Case(id="recall-en-dog", lang="en", setup=["My dog is called Biscuit.", "What's a good podcast about history?",
                                                "How do I make pour-over coffee?"],
         ask="What did I tell you about my dog's name?", mentions=["Biscuit"], kind="recall"),
    Case(id="recall-zh-daughter", lang="zh", setup=["我女儿叫小雨，今年八岁。", "推荐一个讲历史的播客吧。"],
         ask="我之前告诉过你我女儿叫什么名字？", mentions=["小雨"], kind="recall"),
    Case(id="recall-en-meeting", lang="en", setup=["The meeting moved to Thursday at 3pm."],
         ask="When is the meeting now?", mentions=["Thursday"], kind="recall"),
    Case(id="recall-zh-meeting", lang="zh", setup=["会议改到周四下午三点。"], ask="会议现在什么时候开？",
         mentions=["周四", "星期四"], kind="recall"),
    Case(id="recall-en-venue", lang="en", setup=["The venue holds 150 guests.",
                                                  "They just told me the venue can only take 120."],
         ask="How many guests can the venue take?", mentions=["120"], kind="recall"),
    Case(id="recall-zh-team", lang="zh", setup=["团建人数定为30人。", "又有5个人报名，一共35人。"],
         ask="团建一共多少人？", mentions=["35"], kind="recall"),
    Case(id="correct-en-budget", lang="en", setup=["My budget is 300 euros.", "Actually my budget is 450 euros."],
         ask="What is my budget?", mentions=["450"], kind="recall"),
    Case(id="correct-zh-budget", lang="zh", setup=["我的预算是5000元。", "预算改成8000元。"], ask="我的预算是多少？",
         mentions=["8000", "八千"], kind="recall"),
    Case(id="rule-en-chinese", lang="zh", setup=["From now on, always answer in Chinese."],
         ask="What is the capital of France?", mentions=["巴黎", "Paris"], kind="rule"),
    Case(id="rule-zh-english", lang="en", setup=["以后请用英文回答我。"], ask="法国的首都是哪里？",
         mentions=["Paris"], kind="rule"),
    Case(id="json-en-budget", lang="en", ask="Extract my name and budget: My name is Priya and my budget is 450 euros.",
         schema_=NAME_BUDGET, expect={"name": "Priya", "budget": 450}, kind="json"),
    Case(id="json-zh-budget", lang="zh", ask="提取姓名和预算：我叫小王，预算是8000元。", schema_=NAME_BUDGET,
         expect={"name": "小王", "budget": 8000}, kind="json"),
    Case(id="json-en-person", lang="en", ask="Extract name, age and city: Tom is 31 and lives in Leeds.",
         schema_=PERSON, expect={"name": "Tom", "age": 31, "city": "Leeds"}, kind="json"),
    Case(id="json-zh-person", lang="zh", ask="提取姓名、年龄和城市：李娜今年28岁，住在成都。", schema_=PERSON,
         expect={"name": "李娜", "age": 28, "city": "成都"}, kind="json"),
]


class Outcome(BaseModel):
    case: str
    model: str
    passed: bool
    why: str
    reply: str


def language_of(text: str) -> str:
    letters = LETTERS.findall(text)
    if not letters:
        return "none"
    return "zh" if len(CJK.findall(text)) / len(letters) >= 0.3 else "en"


def judge(case: Case, reply: str, value: dict | None) -> tuple[bool, str]:
    """The pass/fail rule of ``case`` (fixed up front, see CASES)."""
    if case.schema_ is not None:
        if value is None:
            return False, "no valid JSON"
        wrong = [k for k, v in (case.expect or {}).items() if value.get(k) != v]
        return (not wrong), "JSON matches" if not wrong else f"wrong {', '.join(wrong)}"
    if not reply.strip():
        return False, "empty reply"
    if reply.strip() == case.ask.strip():
        return False, "echoed the question"
    if language_of(reply) != case.lang:
        return False, f"answered in {language_of(reply)}, not {case.lang}"
    if case.mentions and not any(m.lower() in reply.lower() for m in case.mentions):
        return False, f"does not mention {' / '.join(case.mentions)}"
    return True, "ok"


def register(subparsers):
    parser = subparsers.add_parser("answers", help="a bilingual question set through tiny and the default, judged")
    parser.add_argument("--models", default="tiny,qwen2.5-coder-0.5b", help="catalog entries or GGUF paths")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int, default=96)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser


def ask_all(settings, model: Path, label: str, db: Path, max_tokens: int) -> list[Outcome]:
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.commands.common import load_engine
    from desktop_app.engine.errors import EngineError
    from desktop_app.memory.store import Store

    settings = settings.model_copy(update={"model": model, "max_tokens": max_tokens, "temperature": 0.0, "seed": 7,
                                           "db": db})
    engine = load_engine(settings, quiet=True)
    outcomes = []
    with Store(db) as store:
        for case in CASES:
            session = store.create_session(f"{label}-{case.id}")
            pipeline = pipeline_for(store, settings.model_copy(update={"lang": case.lang if case.lang == "zh" else "en"}),
                                    counter=engine.counter, n_ctx=engine.n_ctx)
            for line in case.setup:
                pipeline.import_message(session, "user", line)
                pipeline.import_message(session, "assistant", "好的，记住了。" if CJK.search(line) else "Noted.")
            value, reply = None, ""
            try:
                if case.schema_ is not None:
                    value = engine.complete_json([{"role": "user", "content": case.ask}], case.schema_,
                                                 max_tokens=max_tokens)
                    reply = str(value)
                else:
                    result = run_turn(pipeline, store.get_session(session.id), engine, case.ask, settings=settings)
                    reply = result.reply.content if result.reply else ""
            except EngineError as exc:
                reply = f"error: {exc}"
            passed, why = judge(case, reply, value)
            outcomes.append(Outcome(case=case.id, model=label, passed=passed, why=why, reply=reply))
    return outcomes


def run(args, settings) -> int:
    from desktop_app.commands.common import print_json
    from desktop_app.commands.models import resolve

    labels = [name.strip() for name in args.models.split(",") if name.strip()]
    results: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label in labels:
            results[label] = ask_all(settings, resolve(label, settings), label, Path(tmp) / f"{label}.db",
                                     args.max_tokens)
    if args.json:
        print_json({label: [o.model_dump() for o in outs] for label, outs in results.items()})
        return 0
    width = 44
    print(f"{'case':<20} " + " ".join(f"{label[:width]:<{width + 7}}" for label in labels))
    for index, case in enumerate(CASES):
        cells = []
        for label in labels:
            outcome = results[label][index]
            reply = " ".join(outcome.reply.split())[:width]
            cells.append(f"{'PASS' if outcome.passed else 'fail'}  {reply:<{width}} ")
        print(f"{case.id:<20} " + " ".join(cells))
    for label in labels:
        outs = results[label]
        by_kind: dict[str, list[bool]] = {}
        for case, outcome in zip(CASES, outs, strict=True):
            by_kind.setdefault(case.kind, []).append(outcome.passed)
        kinds = ", ".join(f"{kind} {sum(v)}/{len(v)}" for kind, v in by_kind.items())
        print(f"{label}: {sum(o.passed for o in outs)}/{len(outs)} passed ({kinds})")
        for outcome in outs:
            if not outcome.passed:
                print(f"  {outcome.case}: {outcome.why}")
    return 0
