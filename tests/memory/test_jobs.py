"""Background memory jobs: queued after a turn, run while the chat is idle, interrupted by the
user's next message, never two on a model at once, and never applying a stale patch."""

from __future__ import annotations

import threading
import time

from desktop_app.chat import pipeline_for, run_turn
from desktop_app.engine.guard import LockedEmbedder, LockedEngine
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.background.queue import JobContext, JobQueue, MemoryJob, PatchJob, ReembedJob
from desktop_app.memory.write.patches import SetPinned
from tests.support.embedders import SlowEmbedder


class ProbeEngine(ScriptedEngine):
    """A scripted engine that notes how many threads are generating at the same time."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.inside = 0
        self.most_inside = 0

    def stream_chat(self, messages, **kwargs):
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        try:
            for piece in super().stream_chat(messages, **kwargs):
                time.sleep(0.002)
                yield piece
        finally:
            self.inside -= 1


class SpinJob(MemoryJob):
    """Works in small steps until stopped (stands for a long model call checked between tokens)."""

    name = "spin"

    def __init__(self, session_id=None, steps: int = 500):
        super().__init__(session_id)
        self.steps, self.done_steps = steps, 0
        self.started = threading.Event()

    def run(self, ctx):
        self.started.set()
        while self.done_steps < self.steps:
            if ctx.should_stop():
                return self.outcome("postponed", f"stopped after {self.done_steps} steps")
            time.sleep(0.002)
            self.done_steps += 1
        return self.outcome("done")


class PinJob(PatchJob):
    """Proposes pinning an item: a patch made against the state the job saw when queued."""

    name = "pin"

    def __init__(self, session_id: int, expected_version: int, item_id: int):
        super().__init__(session_id, expected_version)
        self.item_id = item_id

    def propose(self, ctx):
        return [SetPinned(item_id=self.item_id, pinned=True)]


def context_for(store, embedder=None, engine=None):
    return lambda stop: JobContext(store=store, should_stop=stop, embedder=embedder, engine=engine)


def test_a_turn_queues_reembedding_and_an_idle_run_embeds_the_new_turns(store, settings):
    embedder = LockedEmbedder(SlowEmbedder(delay=0))
    engine = ScriptedEngine("Noted.")
    settings = settings.model_copy(update={"memory_model": "auto"})  # the default (tests turn it off)
    jobs = JobQueue()
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, embedder=embedder, jobs=jobs)
    session = store.session_named("s")
    run_turn(pipeline, session, engine, "The spare key is under the blue pot.", settings=settings)
    # warming the next prompt's head comes first, and again after the rest (which may change it)
    assert [job.name for job in jobs.pending()] == ["warm", "extract", "reembed", "warm"]
    run_turn(pipeline, store.get_session(session.id), engine, "And the bike lock code is 3141.", settings=settings)
    assert [job.name for job in jobs.pending()] == ["warm", "extract", "reembed", "warm", "extract"], \
        "reembed and warming queued twice are kept once"
    assert store.count_pending_embeddings() == 4
    outcomes = jobs.run_pending(context_for(store, embedder))
    assert [o.status for o in outcomes] == ["done"] * 5
    assert store.count_pending_embeddings() == 0
    assert len(jobs) == 0


def test_the_users_next_message_interrupts_the_running_job_and_it_resumes_later(store):
    jobs = JobQueue()
    spin = SpinJob()
    jobs.submit(spin)
    results = []
    runner = threading.Thread(target=lambda: results.extend(jobs.run_pending(context_for(store))))
    runner.start()
    assert spin.started.wait(5)
    jobs.interrupt()  # what the chat does when the user sends a message
    runner.join(5)
    assert not runner.is_alive()
    [outcome] = results
    assert outcome.status == "postponed"
    assert spin.done_steps < spin.steps
    assert jobs.pending() == [spin], "an interrupted job goes back to the front of the queue"
    [again] = jobs.run_pending(context_for(store))  # idle again: it finishes
    assert again.status == "done"
    assert spin.done_steps == spin.steps


def test_cancel_drops_waiting_jobs_of_one_session(store):
    jobs = JobQueue()
    for session_id in (1, 1, 2):
        jobs.submit(SpinJob(session_id, steps=1))
    assert len(jobs) == 2  # the duplicate for session 1 was not queued
    assert jobs.cancel(session_id=1) == 1
    assert [job.session_id for job in jobs.pending()] == [2]
    assert jobs.cancel() == 1
    assert len(jobs) == 0


def test_a_stale_patch_is_rejected_whole_and_a_fresh_one_applies(store, settings):
    engine = ScriptedEngine("ok")
    pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx)
    session = store.session_named("s")
    pipeline.record_input(session, "My budget is 5000 dollars.")
    [budget] = store.list_items(session.id, statuses=("active",))
    jobs = JobQueue()
    jobs.submit(PinJob(session.id, store.state_version(session.id), budget.id))
    # Before the job runs, the user changes memory: the job's view of the state is stale.
    pipeline.record_input(store.get_session(session.id), "Never book flights before 9am.")
    [stale] = jobs.run_pending(context_for(store))
    assert stale.status == "rejected"
    assert "stale patch" in stale.detail
    assert not store.get_item(budget.id).pinned, "nothing of a rejected patch is applied"
    jobs.submit(PinJob(session.id, store.state_version(session.id), budget.id))
    [fresh] = jobs.run_pending(context_for(store))
    assert fresh.status == "done"
    assert store.get_item(budget.id).pinned
    assert fresh.state_version == store.state_version(session.id)


def test_a_failing_job_is_reported_and_the_queue_goes_on(store):
    class Broken(MemoryJob):
        name = "broken"

        def run(self, ctx):
            raise RuntimeError("model returned nonsense")

    jobs = JobQueue()
    jobs.submit(Broken())
    jobs.submit(SpinJob(steps=1))
    outcomes = jobs.run_pending(context_for(store))
    assert [(o.job, o.status) for o in outcomes] == [("broken", "failed"), ("spin", "done")]
    assert "model returned nonsense" in outcomes[0].detail


def test_two_runners_never_run_jobs_at_once(store, db_path):
    from desktop_app.memory.store import Store

    jobs = JobQueue()
    spin = SpinJob(steps=100)
    jobs.submit(spin)
    first = threading.Thread(target=lambda: jobs.run_pending(context_for(store)))
    first.start()
    assert spin.started.wait(5)
    with Store(db_path) as other:
        assert jobs.run_pending(context_for(other)) == [], "a second runner returns at once"
    first.join(5)
    assert spin.done_steps == spin.steps


def test_a_job_and_a_turn_never_use_a_model_at_the_same_time(db_path, settings):
    """The turn (chat + recall) and a re-embedding job share one embedder and one engine; the
    locked wrappers let only one thread in at a time, and the job yields to the turn."""
    from desktop_app.memory.store import Store

    raw_embedder, raw_engine = SlowEmbedder(delay=0.005), ProbeEngine("a reply of several words " * 3)
    embedder, engine = LockedEmbedder(raw_embedder), LockedEngine(raw_engine)
    settings = settings.model_copy(update={"memory_model": "auto"})
    jobs = JobQueue()
    with Store(db_path) as store:
        session = store.session_named("s")
        for i in range(300):  # plenty of turns waiting for vectors: the job runs a while
            store.add_message(session.id, "user" if i % 2 == 0 else "assistant", f"old turn number {i}")

    def run_jobs():
        with Store(db_path) as store:
            jobs.run_pending(context_for(store, embedder, engine),
                             should_stop=lambda: embedder.guard.wanted or engine.guard.wanted)

    jobs.submit(ReembedJob(session_id=None))
    worker = threading.Thread(target=run_jobs)
    worker.start()
    with Store(db_path) as store:
        pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, embedder=embedder,
                                jobs=jobs)
        while not raw_embedder.calls:
            time.sleep(0.001)
        jobs.interrupt()
        result = run_turn(pipeline, store.get_session(session.id), engine, "What about turn number 7?",
                          settings=settings)
    worker.join(10)
    assert result.reply is not None
    assert raw_embedder.most_inside == 1
    assert raw_engine.most_inside == 1
    # The interrupted job waits at the front for the next idle time; the turn queued its own after it.
    assert [(job.name, job.session_id) for job in jobs.pending()] == [
        ("reembed", None), ("warm", session.id), ("extract", session.id), ("bookmark", session.id),
        ("summary", session.id), ("reembed", session.id), ("warm", session.id)]
