"""Prompt assembly: a pure function of state, turns, recalled pages, budgets and ``now``.

Order (docs/architecture.md): system · anchors · state · summary · recent · changes · recalled · input.
The first four form the system message (stable head, so llama.cpp reuses the evaluated
prefix); recent turns follow as chat messages, append-only between page-outs; recalled pages,
replayed constraints and the memory changed since the head was folded sit right before the
input, in the final user message. With a folded head (``AssemblyInput.head``) the head shows
memory as it was at the fold, byte for byte, until the next one (``memory.fold``). No clock,
database or model in here: everything arrives in :class:`AssemblyInput`.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from desktop_app.engine.protocol import ChatMessage, TokenCounter
from desktop_app.lexicon import alternatives, fires
from desktop_app.memory.core.documents import DocumentHit
from desktop_app.memory.core.head_fold import HeadChange, HeadFold
from desktop_app.memory.core.models import MemoryItem, SummaryContent, SummaryEntry
from desktop_app.memory.core.plan import MODES, WARN_SHARE, ContextPlan, Exclusion, Layer, LayerItem, empty_layers
from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.core.turn_numbers import TurnView
from desktop_app.memory.lang.text import clip, term_set
from desktop_app.memory.prompt.budget import MESSAGE_OVERHEAD, LayerBudgets, compute_budgets
from desktop_app.memory.prompt.head_folding import changes_since
from desktop_app.memory.prompt.render import (
    KIND_ORDER,
    annotate,
    brief_reply,
    goal_sentence,
    in_language,
    plain_value,
    said_line,
    sentence,
    supersession_notes,
    text_for,
)
from desktop_app.memory.prompt.summary_text import render_summary, stale_values

MAX_ANCHORS = 4
MIN_ANCHORS = 2  # the anchor zone always holds at least two hard items when there are two
MAX_REPLAY = 3
MAX_STATE_REPLAY = 12
# The input returns to the task after this many user turns that did not touch it: a recap first.
RECAP_AFTER_DETOUR = 3
MAX_RECAP_LIMITS = 4
# The input asks about the state itself ("summarise my constraints", "what's the plan", "你记得什么"):
# small models read the tail, so the whole current state is replayed right before the input.
STATE_QUESTION = re.compile(alternatives("question.state", ("en", "zh")), re.IGNORECASE)  # the lexicon's ``question.state``
STATE_KINDS = ("goal", "directive", "constraint", "decision", "fact", "preference")
SLIDING_MAX_MESSAGES = 20


class RecalledPage(BaseModel):
    """An archived page paged back in for this turn (keyword/bookmark or hybrid recall)."""

    page_id: int | None = None
    score: float
    source: str = "bookmark"
    turns: list[TurnView]
    hits: list[RecallHit] = []  # the recall hits behind this page, with per-signal scores (kept in turn_log)


class AssemblyInput(BaseModel):
    """Everything the assembler needs, loaded by ``memory.context``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    mode: str = "layered"
    lang: str = "en"
    system_prompt: str
    input_text: str
    input_id: int | None = None
    n_ctx: int
    state_version: int = 0
    items: list[MemoryItem] = []  # active and pending
    history: list[MemoryItem] = []  # superseded and revoked (for notes on raw turns)
    item_turns: dict[int, int] = {}  # item id -> turn number of its source message
    summary: SummaryContent | None = None
    recent: list[TurnView] = []  # not yet paged out, without the input
    all_turns: list[TurnView] = []  # every stored turn, without the input (full / sliding)
    recalled: list[RecalledPage] = []
    recalled_first: list[int] = []  # page ids the chat context already holds in this order (type-ahead)
    recalled_words: list[str] = []  # the words that chose those pages' lines (the draft's), kept for them
    documents: list[DocumentHit] = []  # document chunks for this input, best first (quoted, cited)
    current_turn: int = 1
    input_time: float | None = None  # when the input was written: recalled turns of another day carry their date
    recap_every: int = 0  # a task recap before the input every N turns (0: only on a return to the task)
    brief_replies: bool = True  # earlier replies shown by their opening lines (``render.brief_reply``)
    now: float
    head: HeadFold | None = None  # layered: the head shows this fold; changes since go before the input


def importance(item: MemoryItem, item_turn: int | None, current_turn: int, focus: set[str]) -> float:
    """Seed 002's score: 0.4·0.85^age + 0.35·reference frequency + 0.25·task relevance."""
    age = max(0, current_turn - (item_turn or current_turn))
    words = term_set(item.value)
    relevance = min(1.0, len(words & focus) / 3) if focus else 0.0
    return 0.4 * 0.85 ** age + 0.35 * min(1.0, item.reference_count / 5) + 0.25 * relevance


def assemble_context(inp: AssemblyInput, counter: TokenCounter) -> ContextPlan:
    """Build the prompt for ``inp.mode`` within the budgets derived from ``inp.n_ctx``."""
    if inp.mode not in MODES:
        raise ValueError(f"unknown context mode {inp.mode!r} (choose from {', '.join(MODES)})")
    assert inp.system_prompt.strip(), "the system prompt must not be empty"
    budgets = compute_budgets(inp.n_ctx, counter.count(inp.system_prompt))
    t = text_for(inp.lang)
    excluded: list[Exclusion] = []
    layers = empty_layers()
    layers["system"] = Layer(tokens=budgets.system, text=inp.system_prompt)
    layered = inp.mode == "layered"
    # The head's view of memory: the fold's snapshot (no input words, no clock), else the live state.
    head = inp.head if layered else None
    view = _head_view(inp, head) if head is not None else inp
    current = {i.id: i for i in view.items}
    goal = next((i for i in view.items if i.kind == "goal" and i.status == "active"), None)
    goal_words = term_set(goal.value) if goal else set()

    if layered:
        layers["anchors"], anchored = _anchors(view, goal, goal_words, budgets, counter, excluded)
        layers["state"] = _state(view, anchored, goal_words, budgets, counter, excluded)
    if inp.mode in ("layered", "summary"):
        # In layered mode items already in anchors/state are not repeated in the summary.
        in_state = {x.id for name in ("anchors", "state") for x in layers[name].items}
        stale = frozenset(head.stale) if head is not None else stale_values(inp.items, inp.history)
        text, shown = _fit_summary(view.summary, set(current) - in_state, inp.lang, stale, budgets.summary, counter)
        layers["summary"] = Layer(tokens=_cost(text, counter), text=text,
                                  items=[LayerItem(text=e.text, turn=e.turn, item_id=e.item_id)
                                         for e in shown if e.item_id is None or e.item_id in current])
    input_text = _fit_input(inp.input_text, budgets, counter)
    layers["input"] = Layer(tokens=counter.count(input_text) + MESSAGE_OVERHEAD, text=input_text,
                            items=[LayerItem(message_id=inp.input_id)] if inp.input_id else [])
    if inp.mode in ("layered", "retrieval"):
        room = budgets.recalled + (budgets.recent + budgets.state if inp.mode == "retrieval" else 0)
        # Unused anchor/state/summary budget may go to recall (recent keeps its own share), but at most
        # as much again: recalled text sits after the cached prefix and is evaluated afresh every turn.
        spare = sum(max(0, getattr(budgets, name) - layers[name].tokens) for name in ("anchors", "state", "summary"))
        room += min(spare, budgets.recalled)
        if inp.documents:  # quoted document chunks may also use what the input leaves of its share
            room += max(0, budgets.input - layers["input"].tokens)
        layers["recalled"] = _recalled(inp, room, counter, excluded, t)
    if head is not None:
        layers["changes"] = _changes(changes_since(head, inp.items, inp.history, inp.item_turns), inp,
                                     budgets.changes, counter, excluded, t)

    if head is not None:
        notes = head.notes  # as at the fold: recent turns keep their bytes too
    else:
        notes = supersession_notes(inp.history, current, inp.lang) if layered else {}
    if inp.mode == "full":
        turns = inp.all_turns
    elif inp.mode == "sliding":
        turns = inp.all_turns[-SLIDING_MAX_MESSAGES:]
    elif inp.mode in ("layered", "summary"):
        turns = inp.recent
    else:
        turns = []
    used = sum(layer.tokens for name, layer in layers.items() if name != "recent")
    recent_room = None if inp.mode == "full" else max(0, budgets.total - used)
    # (The baselines, full and sliding, show the history as it was said.)
    brief = inp.brief_replies and inp.mode not in ("full", "sliding")
    layers["recent"], recent_messages = _recent(turns, notes, recent_room, counter, excluded, brief)

    system = "\n\n".join(x for x in (inp.system_prompt, layers["anchors"].text, layers["state"].text,
                                   layers["summary"].text) if x)
    # The changes block opens the final message: it depends on memory only, so idle-time warming
    # evaluates it ahead (memory.warming); recalled text and replays, chosen by the input, follow.
    tail = "\n\n".join(x for x in (layers["changes"].text, layers["recalled"].text, input_text) if x)
    messages: list[ChatMessage] = [{"role": "system", "content": system}, *recent_messages,
                                   {"role": "user", "content": tail}]
    assert messages[0]["content"].startswith(inp.system_prompt), "the system prompt was altered"
    total = sum(layer.tokens for layer in layers.values())
    warnings: list[str] = []
    if total > budgets.total and inp.mode != "full":
        warnings.append(f"prompt {total} tokens exceeds the {budgets.total}-token budget")
    if total > inp.n_ctx * WARN_SHARE:
        warnings.append(f"context usage {total / inp.n_ctx:.0%} of {inp.n_ctx} passes {WARN_SHARE:.0%}")
    return ContextPlan(mode=inp.mode, messages=messages, layers=layers, total_tokens=total, budget=budgets.total,
                       n_ctx=inp.n_ctx, excluded=excluded, warnings=warnings,
                       counter_name=getattr(counter, "name", "?"))


def _head_view(inp: AssemblyInput, head: HeadFold) -> AssemblyInput:
    """What the head renders from: the folded items and summary, as at the fold's turn; no
    input words (so the state's order never moves with the message)."""
    return inp.model_copy(update={"items": head.items, "summary": head.summary, "input_text": "",
                                  "current_turn": max(1, head.turn), "state_version": head.state_version})


def _changes(changes: list[HeadChange], inp: AssemblyInput, budget: int, counter: TokenCounter,
             excluded: list[Exclusion], t: dict[str, str]) -> Layer:
    """The memory changed since the fold, one line each, newest last (they override the head)."""
    if not changes:
        return Layer()
    # What the input itself just wrote is not repeated before it: the input says it, and the
    # block stays what idle-time warming evaluated ahead. From the next turn on it is listed. (A
    # pending item is: the assistant must ask about it now.)
    changes = [c for c in changes if c.change == "revoked" or c.item.status != "active" or inp.input_id is None
               or c.item.source_message_id != inp.input_id]
    if not changes:
        return Layer()
    shown: list[str] = []
    items: list[LayerItem] = []
    for change in changes:
        line = _change_line(change, inp, t)
        if counter.count(sentence(t["changes"], [*shown, line], inp.lang)) + 2 > budget and len(items) >= 1:
            excluded.append(Exclusion(layer="changes", id=change.item.id, reason="changes budget full; folds next turn"))
            continue
        shown.append(line)
        items.append(LayerItem(type=change.change, id=change.item.id, kind=change.item.kind, value=change.item.value,
                               status=change.item.status, turn=change.turn, scope=_profile(change.item)))
    text = sentence(t["changes"], shown, inp.lang)
    return Layer(tokens=counter.count(text) + 2, text=text, items=items)


def _change_line(change: HeadChange, inp: AssemblyInput, t: dict[str, str]) -> str:
    item = change.item
    value = plain_value(in_language(item.value, inp.lang))
    if item.kind == "goal":
        value = plain_value(goal_sentence(item, inp.lang))
    elif item.kind == "open_question":
        value = t["change_open"].format(value=value)
    was = change.was
    if change.change == "changed" and was is not None and any(ch.isdigit() for ch in was.value):
        # A number that changed says what it was (the old one must not be used); a replaced rule
        # or choice is only stated anew: its old wording is one more sentence to copy.
        line = t["change_changed"].format(value=value, old=plain_value(in_language(was.value, inp.lang)))
    elif change.change == "changed":
        line = value
    elif change.change == "revoked":
        line = t["change_revoked"].format(value=value)
    elif change.change == "confirmed":
        line = t["change_confirmed"].format(value=value)
    elif change.change == "updated":
        line = value
    else:
        line = t["change_new"].format(value=value)
    if item.status == "pending":
        line += t["change_pending"]
    return line


def _cost(text: str, counter: TokenCounter) -> int:
    return counter.count(text) + 2 if text else 0  # +2: the blank line joining it to the system message


def _fit_summary(summary: SummaryContent | None, current_ids: set[int], lang: str, stale: frozenset[str], budget: int,
                 counter: TokenCounter) -> tuple[str, list[SummaryEntry]]:
    """The summary within ``budget``: the oldest topics leave first, then the last fields."""
    topics = len(summary.topics) if summary is not None else 0
    for skip in range(topics + 1):
        text, shown = render_summary(summary, current_ids, lang=lang, skip_topics=skip, stale=stale)
        if _cost(text, counter) <= budget:
            return text, shown
    lines = text.splitlines()
    while lines and _cost("\n".join(lines), counter) > budget:
        lines.pop()
    kept = "\n".join(lines)
    return kept, [e for e in shown if e.text in kept or (e.text and e.text[:20] in kept)]


def _fit_input(text: str, budgets: LayerBudgets, counter: TokenCounter) -> str:
    cap = budgets.total - budgets.system - MESSAGE_OVERHEAD - 16
    if counter.count(text) <= cap:
        return text
    keep = max(200, len(text) * cap // max(1, counter.count(text)) // 2)
    return f"{text[:keep]}\n[… {len(text) - 2 * keep} characters left out to fit the context window …]\n{text[-keep:]}"


def _anchors(inp: AssemblyInput, goal: MemoryItem | None, goal_words: set[str], budgets: LayerBudgets,
             counter: TokenCounter, excluded: list[Exclusion]) -> tuple[Layer, set[int]]:
    """2–4 hard items: pinned first, then directives and constraints closest to the goal.

    No input words in the choice, so the anchor zone only changes when memory or the goal does.
    """
    hard = [i for i in inp.items if i.status == "active" and (i.is_hard or i.pinned) and i.kind != "goal"]
    hard.sort(key=lambda i: (not i.pinned, i.kind != "directive" and not i.pinned,
                             -len(term_set(i.value) & goal_words), -i.reference_count, -i.id))
    kept: list[MemoryItem] = []
    for item in hard[:MAX_ANCHORS]:  # in priority order; shown in id order so the zone stays stable
        if _cost(_anchor_text(goal, [*kept, item], inp.lang), counter) > budgets.anchors and len(kept) >= MIN_ANCHORS:
            excluded.append(Exclusion(layer="anchors", id=item.id, reason="anchor budget full; shown in state"))
            continue
        kept.append(item)
    kept.sort(key=lambda i: i.id)
    for item in hard[MAX_ANCHORS:]:
        excluded.append(Exclusion(layer="anchors", id=item.id, reason=f"only {MAX_ANCHORS} anchors; shown in state"))
    text = _anchor_text(goal, kept, inp.lang)
    items = [LayerItem(id=i.id, kind=i.kind, value=i.value, pinned=i.pinned, scope=_profile(i)) for i in kept]
    if goal:
        items.insert(0, LayerItem(id=goal.id, kind="goal", value=goal.value))
    anchored = {i.id for i in kept} | ({goal.id} if goal else set())
    return Layer(tokens=_cost(text, counter), text=text, items=items), anchored


def _anchor_text(goal: MemoryItem | None, kept: list[MemoryItem], lang: str) -> str:
    """The task, the standing rules for replies and the hard limits, one sentence each."""
    t = text_for(lang)
    lines = [goal_sentence(goal, lang)] if goal else []
    for label, kinds in (("rules", ("directive",)), ("limits", ("constraint",))):
        values = [i.value for i in kept if i.kind in kinds]
        if values:
            lines.append(sentence(t[label], values, lang))
    pinned = [i.value for i in kept if i.kind not in ("directive", "constraint")]
    if pinned:
        lines.append(sentence(t["pinned"], pinned, lang))
    return "\n".join(lines)


def _state(inp: AssemblyInput, anchored: set[int], goal_words: set[str], budgets: LayerBudgets, counter: TokenCounter,
           excluded: list[Exclusion]) -> Layer:
    t = text_for(inp.lang)
    rest = [i for i in inp.items if i.id not in anchored]
    focus = goal_words | term_set(inp.input_text)
    scores = {i.id: importance(i, inp.item_turns.get(i.id), inp.current_turn, focus) for i in rest}
    # Lowest importance leaves first when the state budget is short (hard items last).
    order = sorted(rest, key=lambda i: (i.is_hard or i.pinned, i.status == "active", scores[i.id]), reverse=True)
    kept: list[MemoryItem] = []
    for item in order:
        trial = _state_text([*kept, item], inp, t)
        if _cost(trial, counter) > budgets.state:
            excluded.append(Exclusion(layer="state", id=item.id, reason="state budget full (lowest importance)",
                                      score=round(scores[item.id], 3)))
            continue
        kept.append(item)
    text = _state_text(kept, inp, t)
    items = [LayerItem(id=i.id, kind=i.kind, status=i.status, value=i.value, turn=inp.item_turns.get(i.id),
                       scope=_profile(i),
                       score=round(scores[i.id], 3))
             for i in sorted(kept, key=lambda i: (KIND_ORDER.get(i.kind, 9), i.id))]
    return Layer(tokens=_cost(text, counter), text=text, items=items)


def _state_text(items: list[MemoryItem], inp: AssemblyInput, t: dict[str, str]) -> str:
    if not items:
        return ""
    ordered = sorted(items, key=lambda i: (KIND_ORDER.get(i.kind, 9), i.id))
    active = [i for i in ordered if i.status == "active" and i.kind != "open_question"]
    pending = [i for i in ordered if i.status == "pending"]
    questions = [i for i in ordered if i.status == "active" and i.kind == "open_question"]
    lines = [sentence(t["state"], [i.value for i in active], inp.lang)] if active else []
    if pending:
        lines.append(sentence(t["pending"], [i.value for i in pending], inp.lang))
    if questions:
        lines.append(sentence(t["open"], [i.value for i in questions], inp.lang))
    return "\n".join(lines)


def _profile(item: MemoryItem) -> str | None:
    """The scope a layer item shows: only profile items are marked (``context --json`` stays lean)."""
    return "profile" if item.scope == "profile" else None


def task_recap(inp: AssemblyInput) -> list[MemoryItem]:
    """The task's progress to replay before the input — its goal, the latest decision (the
    current step) and its key limits — when the input returns to the task after a detour of other
    talk, or every ``recap_every`` turns; else nothing."""
    live = [i for i in inp.items if i.status == "active"]
    goal = next((i for i in sorted(live, key=lambda i: -i.id) if i.kind == "goal"), None)
    if goal is None:
        return []
    task_words = term_set(goal.value) | {w for i in live if i.is_hard for w in term_set(i.value)}
    due = inp.recap_every > 0 and inp.current_turn % inp.recap_every == 0
    if not due:
        if not task_words & term_set(inp.input_text):
            return []
        asked = [tv for tv in inp.recent if tv.role == "user"][-RECAP_AFTER_DETOUR:]
        if len(asked) < RECAP_AFTER_DETOUR or any(task_words & term_set(tv.content) for tv in asked):
            return []  # the task was in the talk all along (or the talk is too short to have left it)
    step = next((i for i in sorted(live, key=lambda i: -i.id) if i.kind == "decision"), None)
    limits = sorted((i for i in live if i.kind == "constraint"), key=lambda i: -i.id)[:MAX_RECAP_LIMITS]
    return [goal, *([step] if step else []), *sorted(limits, key=lambda i: i.id)]


def _recalled(inp: AssemblyInput, room: int, counter: TokenCounter, excluded: list[Exclusion],
              t: dict[str, str]) -> Layer:
    words = term_set(inp.input_text)
    state_question = STATE_QUESTION.search(inp.input_text) is not None
    replies_asked = fires("recall.asks_reply", inp.input_text)
    if state_question:
        order = {kind: n for n, kind in enumerate(STATE_KINDS)}
        live = [i for i in inp.items if i.status == "active" and i.kind in order]
        replay = sorted(live, key=lambda i: (order[i.kind], i.id))[:MAX_STATE_REPLAY]
    else:  # (a rule the input itself states is not replayed to it)
        hard = [i for i in inp.items if i.status == "active" and i.is_hard
                and (i.source_message_id is None or i.source_message_id != inp.input_id)]
        matches = sorted(((len(words & term_set(i.value)), i) for i in hard), key=lambda p: (-p[0], -p[1].id))
        replay = [i for score, i in matches if score > 0][:MAX_REPLAY]
    lines: list[str] = []
    items: list[LayerItem] = []
    recap = [] if state_question else task_recap(inp)
    if recap:
        replay = [i for i in replay if i not in recap]
        lines.append(sentence(t["recap"], [i.value for i in recap], inp.lang))
        items += [LayerItem(type="replay", id=i.id, value=i.value, scope=_profile(i)) for i in recap]
    if replay:
        # One sentence right before the input, worded as guidance: no ids, kinds or turns to copy.
        lines.append(sentence(t["replay_state"] if state_question else t["replay"], [i.value for i in replay], inp.lang))
    items += [LayerItem(type="replay", id=i.id, value=i.value, scope=_profile(i)) for i in replay]
    current = {i.id: i for i in inp.items}
    notes = supersession_notes(inp.history, current, inp.lang)
    # A turn that stated a value since superseded, or a rule since revoked, is not recalled as if
    # it were live (small models ignore the note beside it); the state holds what is current.
    live_sources = {i.source_message_id for i in inp.items if i.status == "active"}
    stale = {i.source_message_id for i in inp.history if i.source_message_id} - live_sources
    page_lines: list[str] = []
    chosen: list[tuple[int, list[str], LayerItem]] = []  # picked best first, shown in time order
    held_words = set(inp.recalled_words)
    for page in inp.recalled:
        # A page the context holds shows first the lines it was evaluated with (the draft's words
        # chose them), so the warmed block stays a prefix, then the lines only the whole message
        # matches; any other page, the lines this input matches, in order.
        held_page = bool(held_words) and page.page_id in inp.recalled_first
        turns = [tv for tv in page.turns if tv.id not in stale and not tv.unhealthy]
        if len(turns) < len(page.turns):
            excluded.append(Exclusion(layer="recalled", id=page.page_id, reason="turn states a superseded or revoked item",
                                      score=page.score))
        # This model's own earlier replies come back only when the input asks about them ("the
        # hotel you suggested"): a small model copies a reply it is shown, with the values it got
        # wrong; what the user said is the record. (Imported replies are someone's words: kept.)
        if not replies_asked:
            turns = [tv for tv in turns if tv.role == "user" or tv.imported]
        if not turns:
            continue
        for with_partners in (True, False):  # the matching turns with their replies, else alone
            shown = _matching_turns(turns, words, with_partners)
            if held_page:
                warmed = _matching_turns(turns, held_words, with_partners)
                shown = warmed + [tv for tv in shown if tv not in warmed]
            block = [said_line(tv, clip(annotate(tv, notes), 300), inp.lang, inp.input_time or inp.now) for tv in shown]
            trial = "\n".join([*lines, t["recalled"], *page_lines, *block])
            if counter.count(trial) + MESSAGE_OVERHEAD <= room:
                break
        else:
            excluded.append(Exclusion(layer="recalled", id=page.page_id, reason="recall budget full",
                                      score=page.score))
            continue
        page_lines += block
        chosen.append((turns[0].turn, block, LayerItem(type="page", page_id=page.page_id, score=round(page.score, 3),
                                                        source=page.source, turns=[turns[0].turn, turns[-1].turn],
                                                        hits=page.hits)))
    # The pages the context already evaluated (type-ahead) first, in their order; the others
    # oldest first, as the conversation ran. Adding a page never reorders those before it, so
    # what was warmed stays a prefix (and a later value reads after an earlier one).
    held = {page_id: n for n, page_id in enumerate(inp.recalled_first)}
    chosen.sort(key=lambda c: (0, held[c[2].page_id], 0) if c[2].page_id in held else (1, 0, c[0]))
    page_lines = [line for _, block, _ in chosen for line in block]
    items += [item for _, _, item in chosen]
    if page_lines:
        lines = [t["recalled"], *page_lines, *lines]
    doc_lines: list[str] = []
    for hit in inp.documents:  # after the turns, before the replayed rules (which stay next to the input)
        quoted = quote_document(hit)
        if counter.count("\n".join([*lines, t["documents"], *doc_lines, quoted])) + MESSAGE_OVERHEAD > room:
            excluded.append(Exclusion(layer="recalled", id=hit.chunk_id, reason="recall budget full (document chunk)",
                                      score=hit.fused))
            continue
        doc_lines.append(quoted)
        items.append(LayerItem(type="doc", document_id=hit.document_id, chunk_id=hit.chunk_id, document=hit.document,
                               page=hit.page, heading=hit.heading, source=hit.label, score=hit.fused,
                               value=clip(hit.text, 120), signals=hit.signals))
    if doc_lines:
        at = len(lines) - (1 if replay else 0)
        lines[at:at] = [t["documents"], *doc_lines]
    text = "\n".join(lines)
    return Layer(tokens=counter.count(text) + 2 if text else 0, text=text, items=items)


_QUOTE_OPEN, _QUOTE_CLOSE = "<<<", ">>>"


def quote_document(hit: DocumentHit) -> str:
    """A chunk as quoted source: its citation label, then its text between delimiters that the
    text itself cannot contain (so a document cannot end the quote and speak as the prompt)."""
    def neutral(text: str) -> str:
        return text.replace(_QUOTE_OPEN, "‹‹‹").replace(_QUOTE_CLOSE, "›››")

    return f"[{neutral(hit.label)}]\n{_QUOTE_OPEN}\n{neutral(hit.text.strip())}\n{_QUOTE_CLOSE}"


def _matching_turns(turns: list[TurnView], words: set[str], with_partners: bool = True) -> list[TurnView]:
    """The turns of a recalled page that share words with the input (with their reply/question)."""
    hits = {i for i, tv in enumerate(turns) if words & term_set(tv.content)}
    keep = set(hits)
    for i in hits if with_partners else ():
        partner = i + 1 if turns[i].role == "user" else i - 1
        if 0 <= partner < len(turns) and turns[partner].role != turns[i].role:
            keep.add(partner)
    return [turns[i] for i in sorted(keep)] or turns[:2]


def _recent(turns: list[TurnView], notes: dict[int, list[str]], room: int | None, counter: TokenCounter,
            excluded: list[Exclusion], brief: bool = True) -> tuple[Layer, list[ChatMessage]]:
    # A reply that copied an earlier one or the prompt is never shown to the model again: a small
    # model repeats whatever it sees itself having said. For the same reason the others are shown by
    # their opening lines: shown whole, the 0.5B's next reply was its last plan again (``brief_reply``).
    for tv in turns:
        if tv.unhealthy:
            excluded.append(Exclusion(layer="recent", id=tv.id, reason="the program's acknowledgment (kept for the user only)"
                                      if tv.acknowledgment else "a degenerate reply (kept for the user only)"))
    turns = [tv for tv in turns if not tv.unhealthy]
    if brief:
        turns = [tv.model_copy(update={"content": shown, "tokens": counter.count(shown)})
                 if tv.role == "assistant" and not tv.imported and (shown := brief_reply(tv.content)) != tv.content
                 else tv for tv in turns]
    costs = [counter.count(annotate(tv, notes)) + MESSAGE_OVERHEAD if tv.id in notes else tv.tokens + MESSAGE_OVERHEAD
             for tv in turns]
    start = 0
    if room is not None:
        total = sum(costs)
        while start < len(turns) and total > room:
            total -= costs[start]
            excluded.append(Exclusion(layer="recent", id=turns[start].id, reason="over the prompt budget"))
            start += 1
        while start < len(turns) and turns[start].role == "assistant":  # never open on a reply
            excluded.append(Exclusion(layer="recent", id=turns[start].id, reason="would open on a reply"))
            start += 1
    kept = turns[start:]
    messages: list[ChatMessage] = [{"role": tv.role, "content": annotate(tv, notes)} for tv in kept]
    text = "\n".join(f"{m['role']}: {m['content']}" for m in messages)
    items = [LayerItem(message_id=tv.id, role=tv.role, turn=tv.turn, tokens=c) for tv, c in zip(kept, costs[start:], strict=True)]
    return Layer(tokens=sum(costs[start:]), text=text, items=items), messages
