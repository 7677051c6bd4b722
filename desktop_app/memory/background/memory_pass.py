"""Model memory work as background jobs: the model proposes, the program validates and applies.

:class:`ExtractJob` asks the model to fill the extraction template for one or more user
messages (several short ones share a call on import), vets every entry against the user's
own words (:mod:`~desktop_app.memory.write.vetting`), merges it with what the rules already wrote
(:mod:`~desktop_app.memory.write.cooperation`) and applies the result as one patch per message
against the ``state_version`` read right before — a patch made stale by the user meanwhile is
rejected whole and planned once more on the new state.

Whether the model is asked at all is the ``memory_model`` setting (:class:`MemoryModel`):
``off``, ``always``, or ``auto`` — only when the loaded model passes a quick JSON self-test,
so a model too small to fill the template leaves memory to the rules.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import ValidationError

from desktop_app.engine.errors import ContextFullError, GenerationStopped, JSONOutputError, ServerError
from desktop_app.memory.background.queue import JobContext, JobOutcome, JobQueue, MemoryJob
from desktop_app.memory.core.models import MemoryItem, Message
from desktop_app.memory.core.records import MemoryWork
from desktop_app.memory.lang.text import split_sentences
from desktop_app.memory.write.change_resolution import (
    RESOLVE_MAX_TOKENS,
    ChangeAnswer,
    already_resolved,
    candidates,
    mentions_change,
    resolve_messages,
    resolve_ops,
    resolve_schema,
    twins_of,
)
from desktop_app.memory.write.cooperation import MergePlan, merge_ops
from desktop_app.memory.write.integrity import guard_model_ops, revocations_reaching_twins
from desktop_app.memory.write.mood import is_question, is_small_talk
from desktop_app.memory.write.patches import MemoryPatch, PatchOp, PatchRejected, apply_patch
from desktop_app.memory.write.proposals import (
    EXTRACT_MAX_TOKENS,
    EXTRACT_SCHEMA,
    MAX_KNOWN_SUBJECTS,
    Proposal,
    ProposalError,
    extraction_messages,
    parse_proposals,
)
from desktop_app.memory.write.vetting import Vetted, quote_span, vet_all

if TYPE_CHECKING:
    from desktop_app.engine.protocol import ChatEngine, Progress, StopCheck
    from desktop_app.memory.store import Store

log = logging.getLogger(__name__)

MemoryModelMode = Literal["off", "auto", "always"]
MEMORY_MODEL_MODES: tuple[str, ...] = ("off", "auto", "always")
BATCH_CHARS = 600  # user turns that share one model call (import), by length
BATCH_TURNS = 3
SELF_TEST_MESSAGE = "My sister Ana lives in Porto. Our team meeting moved to Thursday 10:30."
def worth_proposing(text: str) -> bool:
    """The cheap pre-filter: small talk and pure questions skip the model."""
    return not is_small_talk(text) and any(not is_question(s) for s in split_sentences(text))


def ask_model(engine: ChatEngine, text: str, known: list[str], *, lang: str,
              should_stop: StopCheck | None = None) -> tuple[list[Proposal], MemoryWork]:
    """The model's entries for ``text``; invalid output is retried once with a shorter prompt.

    Raises ProposalError when both replies are invalid (the rules' result then stands) and
    GenerationStopped when the chat needed the model."""
    work = MemoryWork()
    last_error = ""
    for short in (False, True):
        started = time.perf_counter()
        try:
            data = engine.complete_json(extraction_messages(text, known, lang=lang, short=short), EXTRACT_SCHEMA,
                                        max_tokens=EXTRACT_MAX_TOKENS, temperature=0.0, should_stop=should_stop)
            proposals = parse_proposals(data)
        except (JSONOutputError, ProposalError) as exc:
            last_error = str(exc)
            proposals = None
        finally:
            work = work.plus(MemoryWork.of_call(engine, time.perf_counter() - started))
        if proposals is not None:
            return proposals, work
    raise ProposalError(f"the model's memory entries were invalid twice ({last_error}); the rules' result stands")


class MemoryModel:
    """The ``memory_model`` setting, with the self-test result of the loaded model (``auto``)."""

    # Self-test verdicts per model file, kept for the process (a pipeline is built per turn).
    _verdicts: dict[str, bool] = {}
    _lock = threading.Lock()

    def __init__(self, mode: str = "auto", *, lang: str = "en") -> None:
        self.mode = mode if mode in MEMORY_MODEL_MODES else "auto"
        self.lang = lang

    def usable(self, engine: ChatEngine | None, should_stop: StopCheck | None = None) -> bool:
        """Whether model memory work runs with ``engine`` (``auto`` self-tests it once)."""
        if engine is None or self.mode == "off":
            return False
        if self.mode == "always":
            return True
        name = str(getattr(engine, "model_path", None) or getattr(engine, "model_name", "?"))
        with self._lock:
            if name not in self._verdicts:
                # Only a clear verdict is kept: a stop or a server error propagates and the test
                # runs again next time.
                self._verdicts[name] = self_test(engine, lang=self.lang, should_stop=should_stop)
                log.info("memory model self-test of %s: %s", name, "passed" if self._verdicts[name] else "failed")
            return self._verdicts[name]


def self_test(engine: ChatEngine, *, lang: str = "en", should_stop: StopCheck | None = None) -> bool:
    """Can this model fill the template? Valid JSON, and at least one entry whose quote is
    the test message's own words and that names Ana, Porto or Thursday."""
    try:
        proposals, _ = ask_model(engine, SELF_TEST_MESSAGE, [], lang=lang, should_stop=should_stop)
    except ProposalError:
        return False
    vetted = vet_all(proposals, SELF_TEST_MESSAGE)
    return any(v.verdict != "drop" and any(w in (v.proposal.value + v.proposal.subject) for w in ("Ana", "Porto", "Thursday"))
               for v in vetted)


def batches(messages: list[Message], *, chars: int = BATCH_CHARS, turns: int = BATCH_TURNS) -> list[list[Message]]:
    """Consecutive user messages grouped so each model call stays short."""
    out: list[list[Message]] = []
    for message in messages:
        if out and len(out[-1]) < turns and sum(len(m.content) for m in out[-1]) + len(message.content) <= chars:
            out[-1].append(message)
        else:
            out.append([message])
    return out


class ExtractJob(MemoryJob):
    """Model extraction for user messages of one session, after the rules already ran."""

    name = "extract"
    session_id: int

    def __init__(self, session_id: int, message_ids: list[int], gate: MemoryModel, *, progress: Progress | None = None,
                 from_backlog: bool = False) -> None:
        super().__init__(session_id)
        self.message_ids = list(message_ids)
        self.gate = gate
        # Queued from the backlog: read only messages still in it (another job may have read one).
        self.from_backlog = from_backlog
        self.progress = progress  # called with (turns done, turns) after each model call
        self.done: set[int] = set()  # messages finished before an interruption
        self.notes: list[str] = []

    @property
    def key(self) -> tuple[object, ...]:
        return (self.name, self.session_id, tuple(self.message_ids))

    def run(self, ctx: JobContext) -> JobOutcome:
        engine = ctx.engine
        store = ctx.store
        try:
            usable = self.gate.usable(engine, ctx.should_stop)
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (ContextFullError, ServerError) as exc:
            return self.outcome("failed", f"{exc}; the rules' result stands")
        if not usable or engine is None:
            store.remove_from_backlog(self.message_ids)
            return self.outcome("done", "model memory is off or the model failed the JSON self-test; rules only")
        # Only what is still waiting: a message another job (the backlog's) already read is skipped.
        waiting = set(store.backlog(self.session_id).get(self.session_id, [])) if self.from_backlog else None
        todo = [m for m in store.get_messages(i for i in self.message_ids
                                              if i not in self.done and (waiting is None or i in waiting))
                if m.role == "user" and worth_proposing(m.content)]
        applied = 0
        try:
            for group in batches(todo):
                if ctx.should_stop():
                    return self.outcome("postponed", f"{len(self.done)} of {len(self.message_ids)} turns done")
                applied += self._run_batch(store, engine, group, ctx.should_stop)
                self.done.update(m.id for m in group)
                store.remove_from_backlog(m.id for m in group)
                if self.progress is not None:
                    self.progress(len(self.done), len(self.message_ids))
        except GenerationStopped:
            return self.outcome("postponed", "the chat needed the model")
        except (ContextFullError, ServerError) as exc:
            return self.outcome("failed", f"{exc}; the rules' result stands")
        self.done.update(self.message_ids)
        store.remove_from_backlog(self.message_ids)
        return self.outcome("done", "; ".join(self.notes[-6:]) or f"{applied} change(s)")

    def _run_batch(self, store: Store, engine: ChatEngine, group: list[Message], should_stop: StopCheck) -> int:
        text = "\n".join(m.content for m in group)
        known = _known_subjects(store.list_items(self.session_id, statuses=("active", "pending")))
        try:
            proposals, work = ask_model(engine, text, known, lang=self.gate.lang, should_stop=should_stop)
        except ProposalError as exc:
            log.warning("memory extraction: %s", exc)
            self.notes.append(str(exc))
            return 0
        applied = 0
        for message in group:
            # One message: vetting drops entries whose quote is not its own; several: split by quote.
            mine = proposals if len(group) == 1 else [p for p in proposals if quote_span(p.quote, message.content)]
            vetted = vet_all(mine, message.content)

            def merged(items: list[MemoryItem], v: list[Vetted] = vetted, m: Message = message) -> list[PatchOp]:
                return _noted(self.notes, merge_ops(v, m, items))

            ops = self._patch(store, message, merged, "model extraction")
            applied += len(ops)
            if mentions_change(message.content) and not already_resolved(ops, message, store.list_items(self.session_id)):
                changed, spent = self._resolve(store, engine, message, should_stop)
                applied += changed
                work = work.plus(spent)
        store.add_memory_work(group[-1].id, work.model_dump())
        return applied

    def _resolve(self, store: Store, engine: ChatEngine, message: Message, should_stop: StopCheck) -> tuple[int, MemoryWork]:
        """A change of mind the pass could not place: the model points at the item it changes."""
        shown = candidates(store.list_items(self.session_id, statuses=("active",)), message)
        if not shown:
            return 0, MemoryWork()
        started = time.perf_counter()
        try:
            answer = ChangeAnswer.model_validate(engine.complete_json(
                resolve_messages(message.content, shown, lang=self.gate.lang), resolve_schema(shown),
                max_tokens=RESOLVE_MAX_TOKENS, temperature=0.0, should_stop=should_stop))
        except (JSONOutputError, ValidationError) as exc:
            self.notes.append(f"change not placed: the model's answer was invalid ({exc.__class__.__name__})")
            return 0, MemoryWork.of_call(engine, time.perf_counter() - started)
        work = MemoryWork.of_call(engine, time.perf_counter() - started)

        def plan(items: list[MemoryItem]) -> list[PatchOp]:
            active = [i for i in items if i.status == "active"]
            position = answer.item(shown)
            old = shown[position - 1] if position else None
            if old is not None and not any(i.id == old.id for i in active):
                self.notes.append("change not placed: the item changed meanwhile")
                return []
            own = [i for i in items if i.source_message_id == message.id]
            result = resolve_ops(answer, shown, message, own, twins_of(old, active) if old else [])
            self.notes.append(result.note)
            return result.ops

        return len(self._patch(store, message, plan, "a change of mind placed by the model")), work

    def _patch(self, store: Store, message: Message, plan: Callable[[list[MemoryItem]], list[PatchOp]],
               reason: str) -> list[PatchOp]:
        """Apply ``plan(items)`` as one patch against the state version read before it; a patch
        made stale meanwhile is planned once more on the new state. The applied ops (or none)."""
        for attempt in (1, 2):
            version = store.state_version(self.session_id)
            items = store.list_items(self.session_id, statuses=("active", "pending"))
            guarded = guard_model_ops(plan(items), items, message,
                                      store.list_items(self.session_id, statuses=("superseded", "revoked")))
            self.notes.extend(guarded.notes)
            ops = revocations_reaching_twins(guarded.ops, items)
            if not ops:
                return []
            try:
                apply_patch(store, MemoryPatch(session_id=self.session_id, expected_version=version, ops=ops,
                                               reason=f"{reason} for message {message.id}"))
                return ops
            except PatchRejected as exc:
                if attempt == 2 or "stale" not in str(exc):
                    self.notes.append(f"patch rejected: {exc}")
                    return []
        return []


def _noted(notes: list[str], plan: MergePlan) -> list[PatchOp]:
    notes.extend(plan.notes)
    return plan.ops


def queue_backlog(store: Store, jobs: JobQueue, gate: MemoryModel, session_id: int | None = None, *,
                  progress: Progress | None = None) -> int:
    """Queue the model's pass over every message left in the backlog (by an earlier run)."""
    queued = 0
    for sid, ids in store.backlog(session_id).items():
        queued += jobs.submit(ExtractJob(sid, ids, gate, progress=progress, from_backlog=True))
    return queued


def _known_subjects(items: list[MemoryItem]) -> list[str]:
    subjects: list[str] = []
    for item in reversed(items):
        label = item.value.split(":", 1)[0] if ":" in item.value[:40] else item.subject
        if label and not label.startswith(("revoke", "q:")):
            subjects.append(label.split(":", 1)[-1].strip())
    return list(dict.fromkeys(subjects))[:MAX_KNOWN_SUBJECTS]
