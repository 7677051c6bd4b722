"""Background memory work: a queue of jobs that run while the chat is idle.

A turn queues jobs after its reply is stored (``TurnPipeline.queue_jobs``); whoever owns the
inference lane — the TUI's jobs worker, or ``ask``/``import`` before they exit — drains the
queue with :meth:`JobQueue.run_pending`. The rules:

* one job runs at a time, and it reaches a model only through the locked wrappers of
  ``desktop_app.engine.guard``, so a job and a turn never use a llama.cpp context at once;
* :meth:`JobQueue.interrupt` (the user sent a message) makes the running job stop at its next
  check — between tokens or batches — and it goes back to the front of the queue (postponed);
* a job that changes memory proposes a patch against the ``state_version`` it saw when it
  was queued (:class:`PatchJob`); if the user changed memory meanwhile the patch is rejected
  whole, never half-applied.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from desktop_app.memory.documents.vectors import embed_pending_chunks
from desktop_app.memory.recall.indexing import VectorsUnavailable, index_pending
from desktop_app.memory.write.patches import MemoryPatch, PatchOp, PatchRejected, apply_patch

if TYPE_CHECKING:
    from desktop_app.engine.protocol import ChatEngine, Embedder
    from desktop_app.memory.store import Store

JobStatus = Literal["done", "postponed", "rejected", "failed"]


@dataclass
class JobContext:
    """What a running job may use: the runner's store (its thread's connection), the shared
    models (locked wrappers, or None when not loaded) and the stop check."""

    store: Store
    should_stop: Callable[[], bool]
    embedder: Embedder | None = None
    engine: ChatEngine | None = None  # for model memory work (a second context in the TUI)
    chat_engine: ChatEngine | None = None  # the chat's own context, for warming its prefix (None: same as engine)

    def __post_init__(self) -> None:
        if self.chat_engine is None:
            self.chat_engine = self.engine


class JobOutcome(BaseModel):
    """What one run of a job did."""

    job: str
    session_id: int | None = None
    status: JobStatus
    detail: str = ""
    state_version: int | None = None  # after an applied patch


class MemoryJob(ABC):
    """One unit of background memory work for a session (None: all sessions)."""

    name: str = "job"

    def __init__(self, session_id: int | None = None) -> None:
        self.session_id = session_id

    @property
    def key(self) -> tuple[object, ...]:
        """Jobs with the same key are the same work: queuing it twice keeps one."""
        return (self.name, self.session_id)

    def outcome(self, status: JobStatus, detail: str = "", *, state_version: int | None = None) -> JobOutcome:
        return JobOutcome(job=self.name, session_id=self.session_id, status=status, detail=detail,
                          state_version=state_version)

    @abstractmethod
    def run(self, ctx: JobContext) -> JobOutcome:
        """Do the work, checking ``ctx.should_stop()`` between steps (return 'postponed' then)."""


class ReembedJob(MemoryJob):
    """Embed the turns, then the document chunks, that have no vector yet (batches, each its own transaction)."""

    name = "reembed"

    def run(self, ctx: JobContext) -> JobOutcome:
        if ctx.embedder is None:
            return self.outcome("done", "no embedding model loaded")
        try:
            stored = index_pending(ctx.store, ctx.embedder, session_id=self.session_id, should_stop=ctx.should_stop)
        except VectorsUnavailable as exc:
            return self.outcome("done", str(exc))
        if ctx.should_stop() and ctx.store.count_pending_embeddings():
            return self.outcome("postponed", f"{stored} turns embedded before the chat needed the model")
        chunks = embed_pending_chunks(ctx.store, ctx.embedder, should_stop=ctx.should_stop)  # added documents
        if ctx.should_stop() and ctx.store.count_pending_chunk_embeddings():
            return self.outcome("postponed", f"{stored} turns, {chunks} document chunks embedded before the chat "
                                             "needed the model")
        return self.outcome("done", f"{stored} turns embedded" + (f", {chunks} document chunks" if chunks else ""))


class PatchJob(MemoryJob):
    """A job whose result is a memory patch, checked against the version seen when it was queued.

    Subclasses implement :meth:`propose` (for instance: ask the model to fill a JSON schema);
    the program validates and applies, or rejects the whole patch when memory moved on."""

    name = "patch"
    session_id: int

    def __init__(self, session_id: int, expected_version: int) -> None:
        super().__init__(session_id)
        self.expected_version = expected_version

    @abstractmethod
    def propose(self, ctx: JobContext) -> list[PatchOp]:
        """The patch operations to apply (empty: nothing to change)."""

    def run(self, ctx: JobContext) -> JobOutcome:
        ops = self.propose(ctx)
        if ctx.should_stop():
            return self.outcome("postponed", "interrupted before applying")
        if not ops:
            return self.outcome("done", "nothing to change")
        patch = MemoryPatch(session_id=self.session_id, expected_version=self.expected_version, ops=ops,
                            reason=f"background job {self.name}")
        try:
            result = apply_patch(ctx.store, patch)
        except PatchRejected as exc:
            return self.outcome("rejected", str(exc))
        return self.outcome("done", f"applied {len(ops)} change(s)", state_version=result.state_version)


class JobQueue:
    """Thread-safe FIFO of memory jobs with cancellation; one runner at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runner = threading.Lock()
        self._pending: deque[MemoryJob] = deque()
        self._interrupted = threading.Event()
        self.history: deque[JobOutcome] = deque(maxlen=100)
        self.current: MemoryJob | None = None  # the job running now (None between jobs)

    def submit(self, job: MemoryJob, *, replace: bool = False, first: bool = False) -> bool:
        """Queue ``job`` unless the same work is already waiting; True when queued.

        ``replace``: the waiting job of the same key gives way to this newer one (a draft that
        grew); ``first``: it runs before what waits (the user is about to send)."""
        with self._lock:
            if any(queued.key == job.key for queued in self._pending):
                if not replace:
                    return False
                self._pending = deque(queued for queued in self._pending if queued.key != job.key)
            if first:
                self._pending.appendleft(job)
            else:
                self._pending.append(job)
            return True

    def pending(self) -> list[MemoryJob]:
        with self._lock:
            return list(self._pending)

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)

    def cancel(self, session_id: int | None = None) -> int:
        """Drop waiting jobs (of one session, or all); returns how many were dropped."""
        with self._lock:
            keep = deque(j for j in self._pending if session_id is not None and j.session_id != session_id)
            dropped = len(self._pending) - len(keep)
            self._pending = keep
            return dropped

    def discard(self, name: str) -> int:
        """Drop waiting jobs called ``name``; returns how many were dropped."""
        with self._lock:
            keep = deque(j for j in self._pending if j.name != name)
            dropped = len(self._pending) - len(keep)
            self._pending = keep
            return dropped

    def interrupt(self) -> None:
        """The chat needs the lane: the running job stops at its next check and is postponed."""
        self._interrupted.set()

    @property
    def running(self) -> bool:
        return self._runner.locked()

    def run_pending(self, make_context: Callable[[Callable[[], bool]], JobContext], *,
                    should_stop: Callable[[], bool] | None = None, limit: int | None = None) -> list[JobOutcome]:
        """Run queued jobs one by one until the queue is empty, ``limit`` jobs ran, or a stop.

        ``make_context(stop)`` builds the job's context in the calling thread. Returns at once
        (nothing run) when another thread is already running jobs."""
        if not self._runner.acquire(blocking=False):
            return []
        self._interrupted.clear()

        def stop() -> bool:
            return self._interrupted.is_set() or bool(should_stop and should_stop())

        outcomes: list[JobOutcome] = []
        try:
            ctx = make_context(stop)
            while (limit is None or len(outcomes) < limit) and not stop():
                with self._lock:
                    if not self._pending:
                        break
                    job = self._pending.popleft()
                self.current = job
                try:
                    outcome = job.run(ctx)
                except Exception as exc:  # a failed job must not take the lane down
                    outcome = job.outcome("failed", f"{type(exc).__name__}: {exc}")
                finally:
                    self.current = None
                if outcome.status == "postponed":
                    with self._lock:
                        if not any(queued.key == job.key for queued in self._pending):
                            self._pending.appendleft(job)
                outcomes.append(outcome)
                self.history.append(outcome)
        finally:
            self._runner.release()
        return outcomes
