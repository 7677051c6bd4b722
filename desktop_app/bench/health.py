"""``paperclip bench health``: do the replies answer the user, turn after turn?

Scripted realistic conversations (``bench/data/health_conversations.json``, 12–15 turns each,
English and Chinese, written blind: budgets, dates, head counts, diets, a standing rule set and
later dropped, chit-chat, changes of mind, a final "summarise everything and give me the plan")
run turn by turn through the real pipeline with the shipped settings: the chat's own retry of a
degenerate reply, and the model's memory pass between turns as the app runs it while the user
types. Every reply the user would read is judged by the program (``memory.reply_health``): not a
near-copy of an earlier reply or of the message, none of the prompt's scaffolding, in the
turn's language (or an active language rule's), of some substance. The final reply must also
name every current value and no superseded one.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

DATA = Path(__file__).parent / "data" / "health_conversations.json"


class Conversation(BaseModel):
    id: str
    lang: str
    topic: str = ""
    turns: list[str]
    reply_lang: dict[str, str] = {}  # 1-based turn → the language replies are in from there on
    final_current: list[list[str]]
    final_superseded: list[str] = []

    def language_at(self, turn: int) -> str:
        lang = self.lang
        for start, value in sorted(((int(k), v) for k, v in self.reply_lang.items())):
            if turn >= start:
                lang = value
        return lang


class TurnVerdict(BaseModel):
    conversation: str
    turn: int
    lang: str
    healthy: bool
    findings: list[str]
    retried: bool = False
    first_findings: list[str] = []
    seconds: float
    first_token: float | None = None
    reply: str
    added: str = ""  # what the program added to the reply (a summary's left-out values), at its end
    lead: str = ""  # what the program said before the model's words (a summary's list of what memory holds)
    model_text: str = ""  # the reply as the model wrote it, when the program left sentences out or replaced it
    acknowledged: bool = False  # no attempt answered a message that told something: the program said what memory took in

    @property
    def model_reply(self) -> str:
        """The reply as the model wrote it."""
        if self.model_text:
            return self.model_text
        reply = self.reply[len(self.lead):].lstrip() if self.lead and self.reply.startswith(self.lead) else self.reply
        return reply[: len(reply) - len(self.added)] if self.added and reply.endswith(self.added) else reply


def load(path: Path = DATA) -> list[Conversation]:
    with path.open(encoding="utf-8") as handle:
        return [Conversation.model_validate(c) for c in json.load(handle)["conversations"]]


def judge_final(conversation: Conversation, reply: str) -> tuple[bool, list[str], list[str]]:
    """Every current value named, no superseded one stated as current: (ok, missing, stale). An old
    value right after a history word ("leave July 21 instead of flying out July 14", "原来是8000")
    is named as old, which a plan may do."""
    from desktop_app.lexicon import fires
    from desktop_app.memory.stated_values import HISTORY_WINDOW  # the guard's window, before the value only

    lowered = reply.lower()
    missing = [forms[0] for forms in conversation.final_current if not any(f.lower() in lowered for f in forms)]

    def as_current(form: str) -> bool:
        return any(not fires("guard.history", lowered[max(0, at - HISTORY_WINDOW):at])
                   for at in (m.start() for m in re.finditer(re.escape(form.lower()), lowered)))

    stale = [s for s in conversation.final_superseded if as_current(s)]
    return not missing and not stale, missing, stale


def judge_turn(reply: str, *, user_text: str, earlier: list[str], lang: str, memory_held: bool,
               said: Sequence[str] = (), notes: Sequence[str] = ()) -> list[str]:
    """The program's verdict on one reply, with the bench's expected language."""
    from desktop_app.memory.reply_health import check_reply

    return [f"{f.kind}: {f.detail}" for f in check_reply(reply, user_text=user_text, earlier_replies=earlier,
                                                         expected_lang=lang, memory_held=memory_held,
                                                         earlier_messages=said[-8:], notes=notes)]


def run_conversation(conversation: Conversation, *, engine, memory_engine, settings, store, quiet: bool,
                     dump, idle: float) -> tuple[list[TurnVerdict], tuple[bool, list[str], list[str]]]:
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.memory.background.queue import JobContext, JobQueue

    local = settings.model_copy(update={"lang": conversation.lang})
    jobs = JobQueue()
    session = store.create_session(conversation.id)
    pipeline = pipeline_for(store, local, counter=engine.counter, n_ctx=engine.n_ctx, jobs=jobs)
    verdicts: list[TurnVerdict] = []
    replies: list[str] = []
    final: tuple[bool, list[str], list[str]] = (False, [], [])
    for number, text in enumerate(conversation.turns, start=1):
        started = time.perf_counter()
        result = run_turn(pipeline, store.get_session(session.id), engine, text, settings=local)
        seconds = time.perf_counter() - started
        reply = result.reply.content if result.reply else ""
        notes = [i.value for i in store.list_items(session.id, statuses=("active",))]
        findings = judge_turn(reply, user_text=text, earlier=replies, lang=conversation.language_at(number),
                              memory_held=bool(notes), said=conversation.turns[: number - 1], notes=notes)
        health, guard = result.record.health, result.record.guard
        verdict = TurnVerdict(conversation=conversation.id, turn=number, lang=conversation.lang, healthy=not findings,
                              findings=findings, retried=bool(health and health.retried),
                              first_findings=health.attempts[0] if health and health.retried else [],
                              seconds=round(seconds, 2), first_token=result.first_token_seconds, reply=reply,
                              added=(guard.added if guard else "") or (health.recollected if health else ""),
                              model_text=health.model_reply if health and health.acknowledged
                              else guard.model_text if guard else "",
                              acknowledged=bool(health and health.acknowledged), lead=result.plan.lead)
        verdicts.append(verdict)
        replies.append(reply)
        if number == len(conversation.turns):
            final = judge_final(conversation, reply)
            if (verdict.added or verdict.model_text or verdict.lead) and not quiet:
                alone = judge_final(conversation, verdict.model_reply)
                print(f"  {conversation.id} final by the model alone: {'PASS' if alone[0] else 'fail'}"
                      f"{' missing ' + ', '.join(alone[1]) if alone[1] else ''}; the program added "
                      f"{len(guard.completed) if guard else 0} values", file=sys.stderr)
        if not quiet:
            mark = "ok " if verdict.healthy else "BAD"
            retry = " (retried)" if verdict.retried else ""
            print(f"  {conversation.id} t{number:>2} {mark}{retry} {seconds:5.1f}s {'; '.join(findings)[:60]} "
                  f"— {' '.join(reply.split())[:80]}", file=sys.stderr)
        if dump is not None:
            dump.write(json.dumps({**verdict.model_dump(), "user": text, "notes": notes}, ensure_ascii=False) + "\n")
            dump.flush()  # a long run stopped midway keeps every turn it judged
        # The memory pass and the warm-up run while the user reads and types (``idle`` seconds), as
        # in the app: what is not done by then is postponed and goes on in the next pause.
        deadline = time.perf_counter() + idle

        def idle_over(deadline: float = deadline) -> bool:
            return time.perf_counter() > deadline

        jobs.run_pending(lambda stop: JobContext(store=store, should_stop=stop, engine=memory_engine),
                         should_stop=idle_over)
    if dump is not None:
        memory = [{"kind": i.kind, "status": i.status, "scope": i.scope, "value": i.value}
                  for i in store.list_items(session.id)]
        dump.write(json.dumps({"conversation": conversation.id, "final": final, "memory": memory},
                              ensure_ascii=False) + "\n")
    return verdicts, final


def rejudge(path: Path, conversations: list[Conversation],
            ) -> tuple[list[TurnVerdict], dict[str, tuple[bool, list[str], list[str]]]]:
    """The verdicts of a ``--dump`` file judged again by the checks as they are now (so runs of
    different versions are scored by one judge)."""
    by_id = {c.id: c for c in conversations}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    judged: list[dict[str, Any]] = []
    finals: dict[str, tuple[bool, list[str], list[str]]] = {}
    replies: dict[str, list[str]] = {}
    # Dumps from before the notes were written: the conversation's final active memory stands in.
    final_notes = {row["conversation"]: [m["value"] for m in row["memory"] if m["status"] == "active"]
                   for row in rows if "memory" in row}
    for row in rows:
        if "turn" not in row or row["conversation"] not in by_id:
            continue
        conversation = by_id[row["conversation"]]
        number, reply = row["turn"], row["reply"]
        earlier = replies.setdefault(conversation.id, [])
        findings = judge_turn(reply, user_text=conversation.turns[number - 1], earlier=list(earlier),
                              lang=conversation.language_at(number), memory_held=number > 1,
                              said=conversation.turns[: number - 1],
                              notes=row.get("notes") or final_notes.get(conversation.id, []))
        judged.append({k: v for k, v in row.items() if k not in ("user", "notes")} | {"healthy": not findings,
                                                                                     "findings": findings})
        earlier.append(reply)
        if number == len(conversation.turns):
            finals[conversation.id] = judge_final(conversation, reply)
    return [TurnVerdict.model_validate(v) for v in judged], finals


def run(args, settings) -> int:
    from desktop_app.commands.ask import memory_engine as sibling_for_memory
    from desktop_app.commands.common import load_engine
    from desktop_app.engine.guard import LockedEngine
    from desktop_app.memory.store import Store

    conversations = load(Path(args.cases) if args.cases else DATA)
    if args.in_lang != "both":
        conversations = [c for c in conversations if c.lang == args.in_lang]
    if args.limit:
        per_lang: Counter[str] = Counter()
        picked = []
        for conversation in conversations:
            if per_lang[conversation.lang] < args.limit:
                picked.append(conversation)
                per_lang[conversation.lang] += 1
        conversations = picked
    if args.only:
        conversations = [c for c in conversations if c.id in args.only.split(",")]
    if args.rejudge:
        verdicts, finals = rejudge(Path(args.rejudge), conversations)
        judged = {v.conversation for v in verdicts}
        print(f"Reply health of {args.rejudge}, judged again: {len(judged)} conversations, {len(verdicts)} replies "
              f"({len(finals)} finished)\n")
        print_table(summarise(verdicts, finals, {c.id: c.lang for c in conversations if c.id in judged},
                              {c.id: c for c in conversations}))
        return 0
    updates: dict[str, object] = {"memory_model": "off"} if args.rules_only else {}
    if args.no_retry:
        updates["reply_retry"] = False
    settings = settings.model_copy(update=updates)
    engine = LockedEngine(load_engine(settings, quiet=True))
    memory = sibling_for_memory(engine, settings)
    started = time.perf_counter()
    verdicts = []
    finals = {}
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    try:
        with tempfile.TemporaryDirectory(prefix="paperclip-bench-health-") as tmp:
            for number, conversation in enumerate(conversations, start=1):
                # Each conversation is another user: its own file, so no profile item (an allergy, a
                # name) of one reaches the next.
                with Store(Path(tmp) / f"conversation-{number}.sqlite3") as store:
                    got, final = run_conversation(conversation, engine=engine, memory_engine=memory,
                                                  settings=settings, store=store, quiet=args.json, dump=dump,
                                                  idle=args.idle)
                verdicts += got
                finals[conversation.id] = final
                if not args.json:
                    ok, missing, stale = final
                    print(f"  {conversation.id} final: {'PASS' if ok else 'fail'}"
                          f"{' missing ' + ', '.join(missing) if missing else ''}"
                          f"{' stale ' + ', '.join(stale) if stale else ''}", file=sys.stderr)
    finally:
        if dump is not None:
            dump.close()
    elapsed = time.perf_counter() - started
    table = summarise(verdicts, finals, {c.id: c.lang for c in conversations}, {c.id: c for c in conversations})
    if args.json:
        print(json.dumps({"model": engine.model_name, "seconds": round(elapsed), **table}, ensure_ascii=False))
        return 0
    retry = "off" if args.no_retry else "on"
    memory_label = "rules only" if args.rules_only else f"rules + model ({settings.memory_model})"
    print(f"Reply health: {len(conversations)} conversations, {len(verdicts)} replies, {engine.model_name}, "
          f"temperature {settings.temperature}, retry {retry}, memory {memory_label}, {args.idle:.0f} s between turns "
          f"({elapsed:.0f} s)\n")
    print_table(table)
    return 0


def print_table(table: dict) -> None:
    print("| lang | healthy replies | % | copies | echoes | scaffolding | refusals | wrong language | empty/promise "
          "| loops/templates | retried | said by the program | final plan right (by the model alone) | s/reply "
          "| first token (median) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for lang, row in table["languages"].items():
        print(f"| {lang} | {row['healthy']}/{row['replies']} | {row['percent']:.0f} % | {row['copy']} | {row['echo']} "
              f"| {row['scaffolding']} | {row['refusal']} | {row['language']} | {row['empty'] + row['promise']} "
              f"| {sum(row.get(k, 0) for k in ('loop', 'template', 'unfilled'))} | {row['retried']} | {row.get('acknowledged', 0)} "
              f"| {row['final_ok']}/{row['conversations']} ({row['final_ok_model']}) | {row['seconds_per_reply']:.1f} "
              f"| {row['first_token_median']:.1f} s |")


def summarise(verdicts: list[TurnVerdict], finals: dict[str, tuple[bool, list[str], list[str]]],
              langs: dict[str, str], conversations_by_id: dict[str, Conversation] | None = None) -> dict:
    """The table's rows per language; ``final_ok_model`` counts the final plans right without what
    the program added (needs ``conversations_by_id``)."""
    out: dict[str, dict] = {}
    by_id = conversations_by_id or {}
    last = {v.conversation: v for v in verdicts}  # the final reply of each conversation (verdicts are in order)
    for lang in sorted({v.lang for v in verdicts}):
        mine = [v for v in verdicts if v.lang == lang]
        kinds = Counter(f.split(":", 1)[0] for v in mine for f in v.findings)
        healthy = sum(v.healthy for v in mine)
        conversations = [cid for cid, conv_lang in langs.items() if conv_lang == lang]
        out[lang] = {"replies": len(mine), "healthy": healthy, "percent": 100 * healthy / max(1, len(mine)),
                     **{k: kinds.get(k, 0) for k in ("copy", "echo", "scaffolding", "refusal", "language", "empty", "promise",
                                                     "loop", "template", "unfilled")},
                     "retried": sum(v.retried for v in mine),
                     "acknowledged": sum(v.acknowledged for v in mine),
                     "final_ok": sum(finals[c][0] for c in conversations if c in finals),
                     "final_ok_model": sum(judge_final(by_id[c], last[c].model_reply)[0] for c in conversations
                                           if c in finals and c in last and c in by_id),
                     "conversations": len([c for c in conversations if c in finals]),
                     "seconds_per_reply": sum(v.seconds for v in mine) / max(1, len(mine)),
                     "first_token_median": statistics.median([v.first_token for v in mine if v.first_token is not None]
                                                             or [0.0])}
    return {"languages": out}


def register(subparsers):
    parser = subparsers.add_parser("health", help="do the replies answer? scripted conversations judged turn by turn")
    parser.add_argument("--in", dest="in_lang", choices=("en", "zh", "both"), default="both",
                        help="which conversations: English, Chinese or both")
    parser.add_argument("--limit", type=int, default=None, help="first N conversations per language")
    parser.add_argument("--only", default=None, help="conversation ids (comma-separated)")
    parser.add_argument("--cases", default=None, help="another set of conversations (same JSON shape)")
    parser.add_argument("--rules-only", dest="rules_only", action="store_true", help="no model memory pass")
    parser.add_argument("--no-retry", dest="no_retry", action="store_true",
                        help="keep degenerate replies (measures what the retry buys)")
    parser.add_argument("--idle", type=float, default=60.0,
                        help="seconds the user reads and types between turns: background memory work runs then")
    parser.add_argument("--dump", default=None, help="write every reply and verdict (JSON lines) to this file")
    parser.add_argument("--rejudge", default=None, help="judge the replies of a --dump file again (no model)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)
    return parser
