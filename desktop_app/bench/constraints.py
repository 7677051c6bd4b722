"""``paperclip bench constraints``: does the model *use* its memory?

Scripted sessions (20 and 50 turns, English and Chinese) add constraints, change and revoke
them among chit-chat; the real model then answers "summarise my constraints and give me the
final plan". A reply is correct when it names every current value and none of the superseded
or revoked ones. Each session is built once through the real turn pipeline (rules + the
model's memory pass, as the app would have it); the final turn is answered in ``layered``,
``full`` and ``sliding`` over several sampling seeds, and the % correct per mode is printed.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel

MODES = ("layered", "full", "sliding")


class Script(BaseModel):
    id: str
    lang: str
    turns: int
    facts: list[tuple[int, str]]  # (turn, what the user says) — constraints, changes, revocations
    question: str
    current: list[list[str]]  # each inner list: one current value (any spelling counts)
    stale: list[str]  # superseded values that must not appear
    revoked: list[str] = []  # a revoked rule's words: counted apart (saying it was dropped is fine)


EN_CHAT = ["What's a good stretch for a stiff neck?", "Any tips for brewing green tea?", "Tell me a fun fact about owls.",
           "How do I keep basil alive indoors?", "What's the difference between a latte and a flat white?",
           "Recommend a podcast about history.", "How long should I boil an egg?", "Why is the sky blue?"]
ZH_CHAT = ["颈椎不舒服有什么拉伸动作？", "绿茶怎么泡比较好喝？", "讲一个关于猫头鹰的冷知识。", "室内怎么养罗勒？",
           "拿铁和澳白有什么区别？", "推荐一个讲历史的播客。", "煮鸡蛋要多久？", "天空为什么是蓝色的？"]
EN_REPLY = "Here is a short answer: keep it simple, try it a few times, and adjust to taste. " * 3
ZH_REPLY = "简单回答：先从简单的方法开始，多试几次，再按自己的习惯调整。" * 3

SCRIPTS = [
    Script(id="en-20", lang="en", turns=20, question="Summarise my constraints and give me the final plan for the offsite.",
           facts=[(1, "We're planning a team offsite; the budget is 4000 euros."), (3, "The offsite will be in Porto."),
                  (5, "Always include a packing list in your answers."), (9, "Actually the budget is 5500 euros."),
                  (12, "We are 14 people in total."), (15, "Forget the packing list rule.")],
           current=[["5500", "5,500"], ["Porto"], ["14"]], stale=["4000", "4,000"], revoked=["packing list"]),
    Script(id="zh-50", lang="zh", turns=50, question="总结一下我的约束条件，并给出最终方案。",
           facts=[(1, "我们在筹备公司年会，预算是6万元。"), (6, "年会地点定在杭州。"), (10, "以后每次回复都加上时间表。"),
                  (20, "预算改成8万元。"), (28, "参加人数是120人。"), (40, "时间表那条规则取消吧，不需要了。")],
           current=[["8万", "80000", "80,000", "八万"], ["杭州"], ["120"]], stale=["6万", "60000"], revoked=["时间表"]),
]


def build(store, pipeline, script: Script, *, engine, gate, quiet: bool) -> int:
    """Import the scripted session (rules + the model's memory pass); returns its id."""
    from desktop_app.memory.background.memory_pass import ExtractJob
    from desktop_app.memory.background.queue import JobContext

    session = store.create_session(script.id)
    chat = EN_CHAT if script.lang == "en" else ZH_CHAT
    reply = EN_REPLY if script.lang == "en" else ZH_REPLY
    said = dict(script.facts)
    for turn in range(1, script.turns):
        text = said.get(turn, chat[turn % len(chat)])
        recorded = pipeline.import_message(store.get_session(session.id), "user", text)
        if gate is not None and turn in said:
            ExtractJob(session.id, [recorded.message.id], gate).run(
                JobContext(store=store, should_stop=lambda: False, engine=engine))
        pipeline.import_message(store.get_session(session.id), "assistant", "Noted." if turn in said else reply)
    if not quiet:
        print(f"  built {script.id}: {len(store.list_pages(session.id))} pages", file=sys.stderr)
    return session.id


def judge(script: Script, reply: str) -> tuple[bool, str]:
    lowered = reply.lower()
    missing = [v[0] for v in script.current if not any(x.lower() in lowered for x in v)]
    stale = [s for s in script.stale if s.lower() in lowered]
    if missing or stale:
        return False, "; ".join(filter(None, [f"missing {', '.join(missing)}" if missing else "",
                                              f"stale {', '.join(stale)}" if stale else ""]))
    return True, "ok"


def guarded(pipeline, session, engine, messages, reply: str, script, args,
            log: list[tuple[bool, bool, float]]) -> str:
    """The reply guard as the chat runs it: with ``--guard fix`` a reply with a finding is asked for
    once more with the correction line before the input; logged (flagged, retried, seconds)."""
    from desktop_app.memory.prompt.render import guard_note

    findings = pipeline.guard(session, reply, user_text=script.question)
    note = guard_note(findings, script.lang)
    if args.guard != "fix" or not note:
        log.append((bool(findings), False, 0.0))
        return reply
    started = time.perf_counter()
    again = [dict(m) for m in messages]
    again[-1]["content"] = f"{note}\n\n{again[-1]['content']}"
    fixed = "".join(engine.stream_chat(again, max_tokens=args.max_tokens, temperature=args.temperature))
    log.append((True, True, time.perf_counter() - started))
    return fixed


def run(args, settings) -> int:
    from desktop_app.chat import pipeline_for
    from desktop_app.commands.common import load_engine
    from desktop_app.engine.guard import LockedEngine
    from desktop_app.memory.background.memory_pass import MemoryModel
    from desktop_app.memory.store import Store

    seeds = list(range(1, args.seeds + 1))
    modes = [m for m in args.modes.split(",") if m in MODES]
    engine = LockedEngine(load_engine(settings, quiet=True))
    gate = None if args.rules_only else MemoryModel("always", lang=settings.lang)
    rows: dict[str, list[bool]] = {mode: [] for mode in MODES}
    mentions = dict.fromkeys(MODES, 0)
    guard_log: dict[str, list[tuple[bool, bool, float]]] = {}  # mode -> (flagged, retried, retry seconds)
    unguarded: dict[str, list[bool]] = {}  # mode -> the first replies judged (the same run with the guard off)
    details: list[str] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="paperclip-bench-constraints-") as tmp, Store(Path(tmp) / "bench.sqlite3") as store:
        for script in SCRIPTS:
            local = settings.model_copy(update={"lang": script.lang, "max_tokens": args.max_tokens,
                                                "temperature": args.temperature, "memory_model": "off"})
            pipeline = pipeline_for(store, local, counter=engine.counter, n_ctx=engine.n_ctx)
            sid = build(store, pipeline, script, engine=engine, gate=gate, quiet=args.json)
            for mode in modes:
                for seed in seeds:
                    with store.dry_run():  # every answer sees the same session
                        session = store.get_session(sid)
                        recorded = pipeline.record_input(session, script.question)
                        plan = pipeline.plan(recorded, mode=mode)
                    reseed = getattr(getattr(engine.inner, "_llama", None), "set_seed", None)
                    if reseed is not None:
                        reseed(seed)
                    reply = "".join(engine.stream_chat(plan.messages, max_tokens=args.max_tokens,
                                                       temperature=args.temperature))
                    first_ok = judge(script, reply)[0]
                    if args.guard != "off":
                        unguarded.setdefault(mode, []).append(first_ok)
                        reply = guarded(pipeline, store.get_session(sid), engine, plan.messages, reply, script, args,
                                        guard_log.setdefault(mode, []))
                    ok, why = judge(script, reply)
                    rows[mode].append(ok)
                    details.append(f"{script.id} {mode:<8} seed {seed}: {'PASS' if ok else 'fail'} ({why}) "
                                   f"prompt {plan.total_tokens} tok — {' '.join(reply.split())[:90]}")
                    if not args.json:
                        print(details[-1], file=sys.stderr)
    print(f"Answer level: {len(SCRIPTS)} sessions × {len(seeds)} seeds, temperature {args.temperature}, "
          f"{engine.model_name}, memory {'rules only' if gate is None else 'rules + model'} "
          f"({time.perf_counter() - started:.0f} s)\n")
    if args.guard != "off":
        print(f"guard = {args.guard}: " + "; ".join(
            f"{mode} {sum(f for f, _, _ in log)}/{len(log)} first replies flagged, {sum(r for _, r, _ in log)} retried"
            + (f", retry median {statistics.median(t for _, r, t in log if r):.1f} s, max "
               f"{max(t for _, r, t in log if r):.1f} s" if any(r for _, r, _ in log) else "")
            for mode, log in guard_log.items()))
        print("without the guard (the same first replies): " + "; ".join(
            f"{mode} {sum(oks)}/{len(oks)}" for mode, oks in unguarded.items()) + "\n")
    print("| mode | correct (all current values, no superseded one) | % | replies naming a revoked rule |\n|---|---|---|---|")
    for mode in modes:
        print(f"| {mode} | {sum(rows[mode])}/{len(rows[mode])} | {100 * sum(rows[mode]) / max(1, len(rows[mode])):.0f} % "
              f"| {mentions[mode]} |")
    return 0


def register(subparsers):
    parser = subparsers.add_parser("constraints", help="does the model use its memory? layered vs full vs sliding")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--max-tokens", dest="max_tokens", type=int, default=220)
    parser.add_argument("--temperature", type=float, default=0.7, help="the app's default sampling")
    parser.add_argument("--rules-only", dest="rules_only", action="store_true", help="skip the model's memory pass")
    parser.add_argument("--guard", choices=("off", "flag", "fix"), default="off",
                        help="run the reply guard on each answer as the chat does (fix: one retry with the correction)")
    parser.add_argument("--modes", default=",".join(MODES), help="which context modes (comma-separated)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
