"""Paging decisions: which exchanges the next page-out may take and
which should stay in view a while, decided in the background before the page-out comes.

Page-out itself stays instant and rule-based (:mod:`~desktop_app.memory.archive.paging`); this job,
queued after each reply while the model's memory work is on, prepares its decisions:

* the candidates are the oldest exchanges of the recent layer, as many as the next page-out
  may consider (down to the low watermark, plus the room kept exchanges may take);
* a **rule cache** decides the obvious cases without the model (``paging.lexical_decision``,
  applied again at the page-out against the message just answered): small talk may leave, so may
  an exchange sharing no word with the latest message, and one sharing two or more stays; an
  exchange whose user message still waits for the model's memory pass, or whose item waits for
  the user's confirmation, stays until it is in state (the page-out reads that hold itself, so
  it ends the moment the item settles — or after one page-out);
* the rest (one shared word) go to the model in **one batched call**: a one-line synopsis per
  exchange, the current goal and the latest message in, the numbers of those still needed out
  (a JSON schema, bounded ``max_tokens``), every other one may leave; an invalid reply is
  retried once with a shorter prompt;
* what has no decision — the model off or failing, a decision not ready in time — leaves
  oldest first, exactly as without this job.

A *keep* (or a hold) lasts one page-out (the exchange then leaves like any other), and kept
exchanges may take at most ``paging.KEEP_SHARE`` of the low watermark: a decision can move
what leaves, never stop paging.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from desktop_app.engine.errors import ContextFullError, GenerationStopped, JSONOutputError, ServerError
from desktop_app.memory.archive.paging import KEEP_SHARE, MIN_KEEP_MESSAGES, exchanges, lexical_decision, message_cost
from desktop_app.memory.background.queue import JobContext, JobOutcome, MemoryJob
from desktop_app.memory.core.models import Message, PagingAdvice
from desktop_app.memory.core.records import MemoryWork
from desktop_app.memory.lang.text import clip, term_set
from desktop_app.memory.prompt.budget import compute_budgets
from desktop_app.prompts import templates

if TYPE_CHECKING:
    from desktop_app.engine.protocol import ChatMessage, TokenCounter
    from desktop_app.memory.background.memory_pass import MemoryModel
    from desktop_app.memory.store import Store

log = logging.getLogger(__name__)

MAX_CANDIDATES = 8  # exchanges per model call
ADVICE_MAX_TOKENS = 24 + 14 * MAX_CANDIDATES


class Exchange(BaseModel):
    """A candidate for the next page-out: a user message and the replies after it."""

    message_id: int  # the user message (the advice's key)
    turn: int
    user: str
    reply: str


def advice_schema(count: int) -> dict[str, Any]:
    return {"type": "object",
            "properties": {"keep": {"type": "array", "maxItems": min(3, count),
                                    "items": {"type": "integer", "minimum": 1, "maximum": count}}},
            "required": ["keep"]}


def candidate_exchanges(recent: list[Message], costs: list[int], *, high: int, low: int) -> list[Exchange]:
    """The oldest exchanges the next page-out may take: their cost reaches what it removes
    (high − low watermark) plus the room kept exchanges may take; never the last messages."""
    reach = (high - low) + int(KEEP_SHARE * low)
    limit = max(0, len(recent) - MIN_KEEP_MESSAGES)
    out: list[Exchange] = []
    spent = 0
    for group in exchanges(recent[:limit]):
        first = recent[group[0]]
        if spent >= reach or len(out) >= 2 * MAX_CANDIDATES:
            break
        cost = sum(costs[i] for i in group)
        spent += cost
        if first.role != "user":
            continue
        reply = " ".join(recent[i].content for i in group[1:])
        out.append(Exchange(message_id=first.id, turn=first.turn_number, user=first.content, reply=reply))
    return out


def advice_messages(exchanges_: list[Exchange], goal: str, latest: str, *, lang: str,
                    short: bool = False) -> list[ChatMessage]:
    spec = templates(lang)["paging"]
    width, reply_width = (70, 0) if short else (110, 60)
    lines: list[str] = []
    for n, ex in enumerate(exchanges_, start=1):
        line = f"{n}. {clip(ex.user, width)}"
        if reply_width and ex.reply:
            line += f" → {clip(ex.reply, reply_width)}"
        lines.append(line)
    ask = spec["ask"].format(goal=clip(goal, 160) or "—", latest=clip(latest, 200) or "—", pages="\n".join(lines))
    return [{"role": "system", "content": spec["system"]}, {"role": "user", "content": ask}]


def parse_advice(data: object, exchanges_: list[Exchange], latest_id: int | None) -> list[PagingAdvice]:
    """The model's decision for every exchange asked: keep the ones it names, evict the rest.
    An unusable reply (not an object with a list of numbers) is no decision at all."""
    named = data.get("keep") if isinstance(data, dict) else None
    if not isinstance(named, list):
        return []
    keep = {n for n in named if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(exchanges_)}
    now = time.time()
    return [PagingAdvice(message_id=ex.message_id, decision="keep" if n in keep else "evict", origin="model",
                         reason="the model: still needed" if n in keep else "the model: may leave",
                         input_message_id=latest_id, created_at=now)
            for n, ex in enumerate(exchanges_, start=1)]


def page_out_in_sight(store: Store, session_id: int, *, counter: TokenCounter, n_ctx: int, system_prompt: str) -> bool:
    """Whether the recent layer is past the low watermark (the next page-out has candidates)."""
    budgets = compute_budgets(n_ctx, counter.count(system_prompt))
    return sum(message_cost(m, counter) for m in store.unpaged_messages(session_id)) > budgets.low_watermark


class PagingAdviceJob(MemoryJob):
    """Decide, ahead of the next page-out, which of its candidate exchanges should stay."""

    name = "paging"
    session_id: int

    def __init__(self, session_id: int, gate: MemoryModel, *, counter: TokenCounter, n_ctx: int,
                 system_prompt: str) -> None:
        super().__init__(session_id)
        self.gate, self.counter, self.n_ctx, self.system_prompt = gate, counter, n_ctx, system_prompt

    def run(self, ctx: JobContext) -> JobOutcome:
        store = ctx.store
        budgets = compute_budgets(self.n_ctx, self.counter.count(self.system_prompt))
        recent = store.unpaged_messages(self.session_id)
        costs = [message_cost(m, self.counter) for m in recent]
        if sum(costs) <= budgets.low_watermark:
            return self.outcome("done", "no page-out in sight")
        found = candidate_exchanges(recent, costs, high=budgets.high_watermark, low=budgets.low_watermark)
        marks, _ = store.paging_marks(self.session_id)  # decided already, or held until its memory settles
        latest = next((m for m in reversed(recent) if m.role == "user"), None)
        latest_terms = term_set(latest.content) if latest is not None else set()
        open_ = [e for e in found if e.message_id not in marks and (latest is None or e.message_id != latest.id)]
        ruled = {e.message_id: lexical_decision(e.user, e.reply, latest_terms) for e in open_}
        ask = [e for e in open_ if ruled[e.message_id] is None][:MAX_CANDIDATES]
        ruled_count = sum(1 for decision in ruled.values() if decision is not None)
        if not ask:
            return self.outcome("done", f"{ruled_count} decided by the rules, nothing for the model")
        engine = ctx.engine
        try:
            if not self.gate.usable(engine, ctx.should_stop) or engine is None:
                return self.outcome("done", f"{ruled_count} decided by the rules; the rest leave oldest first")
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (ContextFullError, ServerError) as exc:
            return self.outcome("failed", str(exc).splitlines()[0])
        goals = [i.value for i in store.list_items(self.session_id, statuses=("active",)) if i.kind == "goal"]
        decided: list[PagingAdvice] = []
        problem = "no reply"
        work = MemoryWork()
        try:
            for short in (False, True):
                started = time.perf_counter()
                try:
                    data = engine.complete_json(
                        advice_messages(ask, "; ".join(goals[-2:]), latest.content if latest else "",
                                        lang=self.gate.lang, short=short),
                        advice_schema(len(ask)), max_tokens=ADVICE_MAX_TOKENS, temperature=0.0,
                        should_stop=ctx.should_stop)
                except JSONOutputError as exc:
                    problem = str(exc).splitlines()[0]
                    continue
                finally:
                    work = work.plus(MemoryWork.of_call(engine, time.perf_counter() - started))
                decided = parse_advice(data, ask, latest.id if latest else None)
                if decided:
                    break
                problem = "no usable decision"
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (ContextFullError, ServerError) as exc:
            problem = str(exc).splitlines()[0]
        finally:
            if latest is not None and work.calls:
                store.add_memory_work(latest.id, work.model_dump())
        if not decided:
            log.warning("paging decisions for session %s: %s; oldest first", self.session_id, problem)
            return self.outcome("rejected", f"{problem}; the page-out goes oldest first")
        store.save_paging_advice(self.session_id, decided)
        kept = [f"turn {e.turn}" for e in ask for a in decided if a.message_id == e.message_id and a.decision == "keep"]
        return self.outcome("done", f"{ruled_count} by the rules, {len(decided)} by the model"
                                    + (f"; keep {', '.join(kept)}" if kept else ""))
