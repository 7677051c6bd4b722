"""One path per turn: the stages every caller runs, each handing a typed result forward.

    record_input ─► plan ─► (the caller streams the reply) ─► record_reply ─► log ─► queue_jobs (scheduling)
    RecordedInput   ContextPlan                               RecordedReply    TurnRecord

The chat (``desktop_app.chat``), regenerate, ``import``, ``context``/previews, the benchmarks
and the tests all call these stages; none re-codes the sequence. Dependencies arrive
explicitly: the store (one per thread), the token counter and window of the loaded model,
the embedder for recall (or None) and the background job queue (or None). Planning is
read-only; every write happens in a record or log stage.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict

from desktop_app.engine.protocol import Embedder, Progress, ScriptHold, TokenCounter
from desktop_app.lexicon import CJK, fires, subject_labels
from desktop_app.memory.acknowledgment import Noted, acknowledgment, label_of, said_anew, words_label
from desktop_app.memory.archive.paging import page_out_if_needed
from desktop_app.memory.background.queue import JobQueue
from desktop_app.memory.core.head_fold import FoldReason, HeadFold
from desktop_app.memory.core.models import MemoryItem, Message, Session
from desktop_app.memory.core.plan import DEFAULT_MODE, MODES, ContextPlan
from desktop_app.memory.core.records import (
    GuardFinding,
    GuardVerdict,
    MemoryOutcome,
    PagingEvent,
    PrefillLog,
    ReplyHealth,
    TurnRecord,
)
from desktop_app.memory.core.turn_numbers import item_turns, turn_views
from desktop_app.memory.documents.retrieval import document_hits_for_prompt, documents_in_scope
from desktop_app.memory.documents.translation import translation_target
from desktop_app.memory.lang.text import CJK_CHAR, unlabelled
from desktop_app.memory.prompt.assembly import AssemblyInput, assemble_context
from desktop_app.memory.prompt.budget import compute_budgets
from desktop_app.memory.prompt.head_folding import current_head, fold_reason, refold
from desktop_app.memory.prompt.recalled import recalled_pages
from desktop_app.memory.recap import completion, left_out, plan_only_note, recap_lead, still_open
from desktop_app.memory.recollection import asked_about, recollection, unanswered
from desktop_app.memory.repeats import similarity
from desktop_app.memory.reply_guard import guard_reply, ruled_out_sentences, stale_sentences, without_sentences
from desktop_app.memory.reply_health import (
    HealthFinding,
    asks_for_translation,
    asks_what_was_said,
    check_reply,
    expected_language,
    language_note,
    remark_note,
    script_hold,
)
from desktop_app.memory.reply_use import memory_in_use
from desktop_app.memory.write.sentence import NEED_PREFIX, said_part
from desktop_app.memory.write.updates import remember_message
from desktop_app.prompts import default_system_prompt

if TYPE_CHECKING:
    from desktop_app.memory.store import Store

MAX_INPUT_CHARS = 200_000
RECENT_REPLIES_CHECKED = 16  # a reply is compared with this many earlier replies (the 0.5B copied one 10 back)
MIN_KEPT_CHARS = 24  # letters left in a reply once the sentences offering a ruled-out food go, or it stays whole
SIMILAR_OPENING = 0.5  # a retry avoids the openings of earlier replies at least this like the rejected one


class InputRejected(ValueError):
    """User input that cannot be sent (empty, binary, too large); one line for the user."""


def clean_user_text(text: str) -> str:
    """Validate pasted/typed input: text only, bounded size, no NUL bytes."""
    if "\x00" in text:
        raise InputRejected("the input contains NUL bytes (binary data?); nothing was sent")
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise InputRejected("the message is empty")
    if len(text) > MAX_INPUT_CHARS:
        raise InputRejected(
            f"the message is {len(text):,} characters; the limit is {MAX_INPUT_CHARS:,} — attach less at once"
        )
    return text


class TurnSettings(Protocol):
    """What :meth:`TurnOptions.from_settings` reads of the app's ``Settings`` (which sit above the memory core)."""

    @property
    def lang(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def system_prompt(self) -> str | None: ...
    @property
    def memory_model(self) -> str: ...
    @property
    def head_updates(self) -> str: ...
    @property
    def warm_idle(self) -> bool: ...
    @property
    def recall(self) -> str: ...
    @property
    def recap_every(self) -> int: ...
    @property
    def reply_history(self) -> str: ...
    @property
    def acknowledge(self) -> str: ...


class RecallOrder(Protocol):
    """What the chat context holds after the head (``warming.ContextOwner``): the recalled pages a
    type-ahead evaluated, in order, and the words that chose their lines."""

    recalled_pages: tuple[int, ...]
    recalled_words: tuple[str, ...]

    def pages_for(self, session_id: int) -> list[int]: ...

    def words_for(self, session_id: int) -> list[str]: ...


class TurnOptions(BaseModel):
    """What the pipeline takes from the user's settings."""

    model_config = ConfigDict(frozen=True)

    lang: str = "en"
    mode: str = DEFAULT_MODE
    system_prompt: str | None = None  # the configured default; a session's own prompt wins
    memory_model: str = "auto"  # off | auto | always (desktop_app.memory.background.memory_pass)
    head_updates: str = "fold"  # fold | live (desktop_app.memory.core.head_fold)
    warm_idle: bool = True  # warm the next prompt's head in idle time (desktop_app.memory.warming)
    recall: str = "auto"  # auto: archived turns that match the input; asked: only when the input points back
    recap_every: int = 0  # a task recap before the input every N turns (0: only on a return to the task)
    reply_history: str = "brief"  # earlier replies in the prompt: brief (their opening lines) | full
    acknowledge: str = "first"  # first: the program says what memory holds at once (a summary's list too) | fallback

    @classmethod
    def from_settings(cls, settings: TurnSettings) -> TurnOptions:
        return cls(lang=settings.lang, mode=settings.mode, system_prompt=settings.system_prompt,
                   memory_model=settings.memory_model, head_updates=settings.head_updates,
                   warm_idle=settings.warm_idle, recall=settings.recall, recap_every=settings.recap_every,
                   reply_history=settings.reply_history, acknowledge=settings.acknowledge)


REMARK_TOKENS = 96  # a reply to a passing remark is a sentence or two
REGENERATIONS = 10  # turn records looked back at for the one that first answered a message answered again


class RecordedInput(BaseModel):
    """Stage 1's result: the stored user message and the memory it wrote."""

    session: Session
    message: Message
    memory: list[MemoryOutcome] = []
    fresh: bool = True  # False when an earlier message is answered again (nothing new to remember)
    # Answered again (regenerate), what the message wrote when it was first answered: the acknowledgment
    # says it again, though nothing new is written.
    told: list[MemoryOutcome] = []

    @property
    def turn(self) -> int:
        return self.message.turn_number


class RecordedReply(BaseModel):
    """Stage 3's result: the stored reply (None when nothing streamed) and the page-out it caused."""

    message: Message | None = None
    paging: PagingEvent | None = None


def remember_input(store: Store, message: Message) -> list[MemoryOutcome]:
    """Apply what the rules extract from a stored user message (also a restored version's)."""
    if message.role != "user":
        return []
    return remember_message(store, message.session_id, message.content, source_message_id=message.id,
                            origin="rule", now=message.created_at)


@dataclass
class TurnPipeline:
    """The stages of a turn over one store (one per thread)."""

    store: Store
    counter: TokenCounter
    n_ctx: int
    options: TurnOptions = TurnOptions()
    embedder: Embedder | None = None
    jobs: JobQueue | None = None
    warm_progress: Progress | None = None  # progress(done, total) of idle-time warming (the TUI's meter)
    documents_only: tuple[int, ...] | None = None  # `ask --doc NAME`: document chunks from these only
    context: RecallOrder | None = None  # a warming.ContextOwner: what the chat context holds (type-ahead's pages)

    # -- settings in force ---------------------------------------------------------------
    def system_prompt(self, session: Session) -> str:
        return session.system_prompt or self.options.system_prompt or default_system_prompt(self.options.lang)

    def mode(self, session: Session, override: str | None = None) -> str:
        """An explicit override, else the session's (/mode), else the setting."""
        mode = override or session.mode or self.options.mode
        return mode if mode in MODES else DEFAULT_MODE

    # -- stage 1 -------------------------------------------------------------------------
    def record_input(self, session: Session, text: str, *, created_at: float | None = None,
                     ext_id: str | None = None) -> RecordedInput:
        """Store the user's message, then apply what the rules extract from it (validated patches)."""
        message = self.store.add_message(session.id, "user", text, token_count=self.counter.count(text),
                                         created_at=created_at, ext_id=ext_id)
        if self.folds and self.store.latest_fold(session.id) is None:
            self.fold(session, "start", turn=message.turn_number - 1, now=message.created_at)
        return RecordedInput(session=session, message=message, memory=remember_input(self.store, message))

    def resume_input(self, session: Session) -> RecordedInput:
        """The session's last message as the input again (regenerate): nothing new is written."""
        last = self.store.last_messages(session.id, 1)
        if not last or last[0].role != "user":
            raise InputRejected("there is no message of yours to answer again")
        logged = self.store.list_turn_log(session.id, limit=REGENERATIONS)
        told = next((e.record.memory for e in reversed(logged) if e.user_message_id == last[0].id and e.record.memory),
                    [])
        return RecordedInput(session=session, message=last[0], memory=[], fresh=False, told=told)

    # -- stage 2 -------------------------------------------------------------------------
    def plan(self, recorded: RecordedInput, *, mode: str | None = None, now: float | None = None,
             translation: str | None = None) -> ContextPlan:
        """The prompt for the recorded input within budget; reads the store, writes nothing.
        ``translation``: the input in the language of documents in scope (searched too)."""
        plan = assemble_context(self.assembly_input(recorded, mode=mode, now=now, translation=translation), self.counter)
        return self._shaped(recorded, plan)

    def _shaped(self, recorded: RecordedInput, plan: ContextPlan) -> ContextPlan:
        """``plan`` for what the message is: a passing remark memory took nothing from is asked for in a sentence or
        two, within a short reply's tokens (run U: the 0.5B announced tips, or spoke of the budget, to each); asked to
        summarise everything (``acknowledge = "first"``), the program lists what memory holds and the model is asked
        for the plan alone (read blind in round sixteen, no final summary by the 0.5B named every value)."""
        text = recorded.message.content
        active, past, lang = self._guard_state(recorded.session, text)  # (one read, one language for both lines)
        plan = plan.with_note(language_note(text, [i.value for i in active if i.kind == "directive"]), at_input=True)
        if recorded.fresh and not self.took_in(recorded) and (note := remark_note(text, lang)):
            return plan.with_note(note, at_input=True).model_copy(update={"reply_tokens": REMARK_TOKENS})
        if self.options.acknowledge == "first" and (lead := recap_lead(text, active, past, lang)):
            return plan.with_note(plan_only_note(lang), at_input=True).model_copy(update={"lead": lead})
        return plan

    def reply_lang(self, session: Session, user_text: str) -> str:
        """The language the reply to ``user_text`` is in: an active language rule's, else the message's, else the
        UI's (the lines the program puts before the input are written in it)."""
        return self._guard_state(session, user_text)[2]

    def translation_target(self, recorded: RecordedInput) -> str | None:
        """The language a translation of the input would search documents in ("en"/"zh"), or
        None when no document in scope is written in another language than the input."""
        if self.mode(recorded.session) not in ("layered", "retrieval"):
            return None
        text = recorded.message.content
        documents, _ = documents_in_scope(self.store, recorded.session.id, text, self.documents_only)
        return translation_target(text, documents)

    def assembly_input(self, recorded: RecordedInput, *, mode: str | None = None,
                       now: float | None = None, translation: str | None = None) -> AssemblyInput:
        """Everything the pure assembler needs, read from the store in a fixed number of queries."""
        store, session, message = self.store, recorded.session, recorded.message
        mode = self.mode(session, mode)
        in_prompt = store.unpaged_messages(session.id)  # the recent layer and the input itself
        unpaged = [m for m in in_prompt if m.id != message.id]
        everything = store.list_items(session.id)
        items = [i for i in everything if i.status in ("active", "pending")]
        history = [i for i in everything if i.status in ("superseded", "revoked")]
        sources = store.message_turns(i.source_message_id for i in everything if i.source_message_id)
        all_turns = []
        if mode in ("full", "sliding"):
            all_turns = [t for t in turn_views(store.list_messages(session.id), self.counter) if t.id != message.id]
        summary = store.latest_summary(session.id) if mode in ("layered", "summary") else None
        head = current_head(store, session.id, everything) if mode == "layered" and self.folds else None
        recalled, documents = [], []
        if mode in ("layered", "retrieval"):
            recalled = recalled_pages(store, session.id, message.content,
                                      exclude_ids=[m.id for m in in_prompt] + [message.id], counter=self.counter,
                                      embedder=self.embedder, enabled=self.options.recall == "auto")
            # Document text only ever enters the prompt as quoted source: it is never a message,
            # so neither the rules nor the model's memory pass read it.
            documents = document_hits_for_prompt(store, session.id, message.content, counter=self.counter,
                                                 budget_tokens=max(256, self.n_ctx // 3), embedder=self.embedder,
                                                 only=self.documents_only, translation=translation)
        return AssemblyInput(
            mode=mode, lang=self.options.lang, system_prompt=self.system_prompt(session), input_text=message.content,
            input_id=message.id, n_ctx=self.n_ctx, state_version=store.state_version(session.id), items=items,
            history=history, item_turns=item_turns(everything, sources),
            summary=summary.content if summary else None, recent=turn_views(unpaged, self.counter),
            all_turns=all_turns, recalled=recalled, documents=documents, current_turn=recorded.turn,
            input_time=message.created_at, recap_every=self.options.recap_every,
            brief_replies=self.options.reply_history == "brief",
            now=time.time() if now is None else now, head=head,
            recalled_first=self.context.pages_for(session.id) if self.context is not None else [],
            recalled_words=self.context.words_for(session.id) if self.context is not None else [])

    def preview(self, session: Session, text: str, *, mode: str | None = None,
                now: float | None = None) -> tuple[ContextPlan, RecordedInput]:
        """The plan for ``text`` as if sent now; the message and its memory are rolled back."""
        text = clean_user_text(text)
        with self.store.dry_run():
            recorded = self.record_input(session, text)
            recorded = recorded.model_copy(update={"session": self.store.get_session(session.id)})
            plan = self.plan(recorded, mode=mode, now=now)
        return plan, recorded

    # -- stage 3 -------------------------------------------------------------------------
    def start_reply(self, session: Session, text: str) -> Message:
        """Store the first words of a streaming reply, flagged stopped until :meth:`record_reply`
        completes it: a process killed meanwhile keeps what was saved (see :meth:`save_reply`)."""
        return self.store.add_message(session.id, "assistant", text, stopped=True)

    def save_reply(self, draft: Message, text: str) -> None:
        """Save the reply streamed so far into its draft row (still flagged stopped)."""
        self.store.update_message(draft.id, text)

    def record_reply(self, session: Session, text: str, *, stopped: bool = False, created_at: float | None = None,
                     ext_id: str | None = None, now: float | None = None, page_out: bool = True,
                     draft: Message | None = None, unhealthy: str = "") -> RecordedReply:
        """Store the reply (also a stopped partial) — into its ``draft`` row when streaming saved
        one — then page out if recent passed the high watermark."""
        tokens = self.counter.count(text)
        if draft is not None:
            message = self.store.update_message(draft.id, text, token_count=tokens, stopped=stopped,
                                                unhealthy=unhealthy)
        else:
            message = self.store.add_message(session.id, "assistant", text, token_count=tokens, stopped=stopped,
                                             created_at=created_at, ext_id=ext_id)
            if unhealthy:
                message = self.store.update_message(message.id, text, unhealthy=unhealthy)
        return RecordedReply(message=message, paging=self.page_out(session, now=now) if page_out else None)

    def page_out(self, session: Session, *, now: float | None = None) -> PagingEvent | None:
        now = time.time() if now is None else now
        event = page_out_if_needed(self.store, session.id, counter=self.counter, n_ctx=self.n_ctx,
                                   system_prompt=self.system_prompt(session), now=now)
        if event is not None and self.folds:
            self.fold(session, "page_out", now=now)  # the head is rewritten anyway: memory joins it
        elif self.folds:
            self.fold_if_crowded(session, now=now)  # after the reply, so warming pays for it while idle
        return event

    # -- the folded head (desktop_app.memory.core.head_fold) -------------------------------------------
    @property
    def folds(self) -> bool:
        return self.options.head_updates == "fold"

    def fold(self, session: Session, reason: FoldReason, *, turn: int | None = None, now: float | None = None) -> HeadFold:
        """Freeze the current memory and summary as what the prompt head shows from now on."""
        return refold(self.store, session.id, lang=self.options.lang, reason=reason, turn=turn, now=now)

    def fold_if_crowded(self, session: Session, *, now: float | None = None) -> HeadFold | None:
        """Fold when the changes block would outgrow its budget (else the news waits for a page-out)."""
        budget = compute_budgets(self.n_ctx, self.counter.count(self.system_prompt(session))).changes
        reason = fold_reason(self.store, session.id, counter=self.counter, budget=budget)
        return self.fold(session, reason, now=now) if reason else None

    def earlier_replies(self, recorded: RecordedInput) -> list[str]:
        """The replies a new answer to ``recorded`` must not copy: the last few of the session and
        the versions a regenerate replaced."""
        session, message = recorded.session, recorded.message
        before = [m for m in self.store.last_messages(session.id, 2 * RECENT_REPLIES_CHECKED + 2) if m.id < message.id]
        earlier = [m.content for m in before if m.role == "assistant"][-RECENT_REPLIES_CHECKED:]
        return earlier + self.store.archived_replies(session.id, message.id)

    def earlier_messages(self, recorded: RecordedInput) -> list[str]:
        """The user's last few messages before ``recorded`` (a reply must not parrot them either)."""
        before = self.store.last_messages(recorded.session.id, 2 * RECENT_REPLIES_CHECKED + 2)
        return [m.content for m in before if m.role == "user" and m.id < recorded.message.id][-RECENT_REPLIES_CHECKED:]

    def similar_replies(self, recorded: RecordedInput, text: str) -> list[str]:
        """The earlier replies ``text`` resembles (a second attempt must open differently from them)."""
        # A first attempt stopped after its opening is compared with the openings of the others.
        return [r for r in self.earlier_replies(recorded)
                if max(similarity(r, text), similarity(r[: len(text)], text)) >= SIMILAR_OPENING]

    def check_reply(self, recorded: RecordedInput, text: str) -> list[HealthFinding]:
        """What is wrong with ``text`` as the answer to ``recorded`` (memory.reply_health): a copy of
        an earlier reply (a regenerated one's old versions included), an echo, the prompt's
        scaffolding, the wrong language, a promise instead of an answer."""
        session, message = recorded.session, recorded.message
        earlier = self.earlier_replies(recorded)
        items = self.store.list_items(session.id, statuses=("active",))
        return check_reply(text, user_text=message.content, earlier_replies=earlier,
                           expected_lang=self._reply_language(message.content, items),
                           memory_held=bool(items), earlier_messages=self.earlier_messages(recorded),
                           notes=[i.value for i in items])

    def reply_script(self, recorded: RecordedInput) -> ScriptHold | None:
        """The language the reply to ``recorded`` is held to while it is sampled (``check_reply``'s, with what the
        user wrote and memory holds allowed in it); None for a translation asked for."""
        message = recorded.message.content
        items = self.store.list_items(recorded.session.id, statuses=("active",))
        lang = self._reply_language(message, items)
        # (its opening is held to Chinese only against the message's own language: "What's a sensible breakdown of the
        # budget?" under a Chinese rule was answered "The budget is $30,000.")
        return None if lang is None else \
            script_hold(lang, [message, *self.earlier_messages(recorded), *(i.value for i in items)],
                        hold_opening=not CJK_CHAR.search(message))

    def _reply_language(self, message: str, items: list[MemoryItem]) -> str | None:
        """The language a reply to ``message`` must be in (an active language rule's, else the message's); None when
        the message asks for a translation."""
        if asks_for_translation(message):
            return None
        return expected_language(message, [i.value for i in items if i.kind == "directive"], self.options.lang)

    def took_in(self, recorded: RecordedInput) -> bool:
        """Whether the message wrote something to memory (an item added, replaced or dropped)."""
        return any(o.action in ("added", "superseded", "revoked") for o in recorded.memory or recorded.told)

    def acknowledgment(self, recorded: RecordedInput) -> str:
        """What memory took in from ``recorded`` said in a sentence or two, in the reply's language
        (memory.acknowledgment): the program's answer to a message that only told something when the
        model had none, and again when it is answered again (regenerate: what it wrote then). "" when the
        message wrote nothing."""
        outcomes = recorded.memory or recorded.told
        if not self.took_in(recorded):
            return ""
        active = {i.id: i for i in self.store.list_items(recorded.session.id, statuses=("active",))}
        lang = expected_language(recorded.message.content, [i.value for i in active.values() if i.kind == "directive"],
                                 self.options.lang)
        names = subject_labels(lang)
        noted: list[Noted] = []
        dropped: list[str] = []
        for outcome in outcomes:
            items = [i for i in (active.get(n) or self.store.get_item(n) for n in outcome.item_ids) if i is not None]
            if outcome.action in ("added", "superseded"):
                for item in (i for i in items if i.status == "active"):
                    old = self.store.get_item(item.supersedes) if item.supersedes else None
                    label = label_of(item.subject, item.value, names, lang) or words_label(item.subject, item.value)
                    if item.kind == "goal" and old is None and len(outcomes) == 1:
                        # a task said alone ("下个月要搬家，从朝阳搬到海淀，东西巨多，头大") asks for help, not "好的，记下了。"
                        return ""
                    if item.kind == "goal" and old is not None and item.value.startswith(old.value):
                        # an aim joined to the task is said by itself ("想先减到58", not the task "(之前是…)")
                        noted.append(Noted(item.value[len(old.value):].strip(" ，,;；"), None, label, part=True))
                        continue
                    if (item.subject.startswith(NEED_PREFIX) or item.kind == "decision") and old is None:
                        # what is required or chosen, by its clauses ("那就买两台"; it said "好的，记下了。")
                        noted.append(Noted(said_part(item.value, item.kind), None, label, part=True,
                                           need=item.subject.startswith(NEED_PREFIX)))
                        continue
                    # (a value filed as "预算: 2000，买点资料…" is said by its label, not with the colon: "预算 2000")
                    value = item.value if item.kind == "directive" else unlabelled(item.value, subject_names=True)
                    noted.append(Noted(value, old.value if old else None, label, rule=item.kind == "directive",
                                       length=item.kind == "directive" and item.subject == "length" and old is None))
            elif outcome.action == "revoked":
                dropped += [i.value for i in items]
        said = acknowledgment(noted, dropped, lang, recorded.message.content, earlier=self.earlier_replies(recorded))
        if said and not recorded.fresh:
            # (Regenerate must not give the same text again: read in round fourteen's notes.)
            said = said_anew(said, self.store.archived_replies(recorded.session.id, recorded.message.id), lang)
        return said

    def recollection(self, recorded: RecordedInput, reply: str) -> tuple[str, bool]:
        """For a message asking what the user said ("What budget did I give you?"): the program's
        sentence saying the items it asks about (memory.recollection) and whether ``reply`` names none
        of them; ("", False) for any other message, or when memory holds nothing it asks about."""
        text = recorded.message.content
        if not asks_what_was_said(text):
            return "", False
        active, _, lang = self._guard_state(recorded.session, text)
        asked = asked_about(text, active)
        before = {i.id: old.value for i in asked if i.supersedes and (old := self.store.get_item(i.supersedes))}
        return recollection(asked, before, lang), unanswered(reply, asked)

    def notes(self, session: Session) -> list[str]:
        """The values the memory briefing shows (what a reply may use, never paste back)."""
        return [i.value for i in self.store.list_items(session.id, statuses=("active",))]

    def guard(self, session: Session, text: str, *, user_text: str = "", finished: bool = True) -> list[GuardFinding]:
        """What in ``text`` disagrees with the session's memory (memory.reply_guard): an old value
        stated as current, a broken limit or rule, a dropped rule applied, a reply cut off."""
        active, past, lang = self._guard_state(session, user_text)
        return guard_reply(text, active=active, history=past, lang=lang, finished=finished, user_text=user_text)

    def recap_completion(self, session: Session, text: str, *, user_text: str) -> tuple[str, str, list[str]]:
        """``text``, a reply to "summarise everything", made to state every current value and no old
        one: the reply without the sentences stating an old value (memory.reply_guard.stale_sentences),
        the lines to add for the values and the user's open questions it leaves out
        (memory.recap.completion) and those values;
        (text, "", []) when the message asks for no summary or the reply is right."""
        if not fires("request.recap", user_text):
            return text, "", []
        active, past, lang = self._guard_state(session, user_text)
        kept = without_sentences(text, stale_sentences(text, active, past))
        left, asked = left_out(kept, active, user_text, history=past), still_open(kept, active, user_text)
        return kept, completion(left, lang, asked), [i.value for i in left + asked]

    def without_ruled_out(self, session: Session, text: str) -> str:
        """``text`` without the sentences offering a food an allergy or a diet in memory rules out
        (memory.reply_guard.ruled_out_sentences); ``text`` when none does, or when nothing of
        substance would be left (the reply and its finding stand then)."""
        active = self.store.list_items(session.id, statuses=("active",))
        kept = without_sentences(text, ruled_out_sentences(text, active))
        # (A Chinese character says about a word: it counts three letters.)
        substance = len(re.sub(r"\W", "", kept)) + 2 * len(re.findall(f"[{CJK}]", kept))
        return kept if kept != text and substance >= MIN_KEPT_CHARS else text

    def _guard_state(self, session: Session, user_text: str) -> tuple[list[MemoryItem], list[MemoryItem], str]:
        """What the guard reads: the active items, the superseded and revoked ones, and the reply's
        language (the message's, or an active language rule's)."""
        items = self.store.list_items(session.id, statuses=("active", "superseded", "revoked"))
        active, past = [i for i in items if i.status == "active"], [i for i in items if i.status != "active"]
        rules = [i.value for i in active if i.kind == "directive"]
        lang = expected_language(user_text, rules, self.options.lang) if user_text else self.options.lang
        return active, past, lang

    # -- stage 4 -------------------------------------------------------------------------
    def log(self, recorded: RecordedInput, plan: ContextPlan, reply: RecordedReply | None, *,
            first_token_seconds: float | None = None, prefill: PrefillLog | None = None,
            health: ReplyHealth | None = None, guard: GuardVerdict | None = None,
            now: float | None = None) -> TurnRecord:
        """Write the turn's record and count the recalled turns as referenced (the only writes of recall)."""
        now = time.time() if now is None else now
        record = TurnRecord.of(plan, memory=recorded.memory, paging=reply.paging if reply else None,
                               first_token_seconds=first_token_seconds, prefill=prefill, health=health)
        record.guard = guard
        if reply is not None and reply.message is not None:
            record.in_use = memory_in_use(plan.layers, reply.message.content)
        reply_id = reply.message.id if reply and reply.message else None
        with self.store.transaction():
            self.store.add_turn_log(recorded.session.id, user_message_id=recorded.message.id,
                                    reply_message_id=reply_id, record=record, now=now)
            recalled = plan.recalled_message_ids()
            if recalled:
                self.store.note_recalled(recalled, now)
        return record

    # -- transcripts -----------------------------------------------------------------------
    def import_message(self, session: Session, role: str, content: str, *, created_at: float | None = None,
                       ext_id: str | None = None, remember: bool = True,
                       stopped: bool = False) -> RecordedInput | RecordedReply | Message:
        """One transcript line, as if it had been typed: the user's words write memory (unless the
        transcript brings its own memory state, ``remember=False``), replies page out."""
        if role == "user" and remember:
            return self.record_input(session, content, created_at=created_at, ext_id=ext_id)
        if role == "user":
            message = self.store.add_message(session.id, "user", content, token_count=self.counter.count(content),
                                             created_at=created_at, ext_id=ext_id)
            return RecordedInput(session=session, message=message)
        if role == "assistant":
            return self.record_reply(session, content, created_at=created_at, ext_id=ext_id, stopped=stopped)
        return self.store.add_message(session.id, role, content, token_count=self.counter.count(content),
                                      created_at=created_at, ext_id=ext_id)
