"""Short database jobs off the UI thread: memory edits, forgetting, versions, search.

A job is ``job(store) -> result`` run in a thread worker with its own ``Store`` (one SQLite
connection per thread); ``done(result)`` then runs on the UI thread. A write that has to wait
for another thread's transaction therefore waits in the worker, never in the event loop.
"""

from __future__ import annotations

import inspect
from typing import Any

from textual.worker import Worker, WorkerState

from desktop_app.ui.i18n import t
from desktop_app.ui.screens.host import ChatHost, Done, Job


class StoreJobs(ChatHost):
    """Mixin for the chat screen: ``run_store_job`` plus the worker-state hook that finishes it."""

    def _job_callbacks(self) -> dict[Worker, Done | None]:
        if not hasattr(self, "_jobs"):
            self._jobs: dict[Worker, Done | None] = {}
        return self._jobs

    def run_store_job(self, job: Job, done: Done | None = None, *, group: str = "store",
                      exclusive: bool = False) -> Worker:
        """Run ``job(store)`` in a thread with a fresh ``Store``; ``done(result)`` on success."""
        db_path = self.settings.db_path

        def run() -> Any:
            from desktop_app.memory.store import Store

            with Store(db_path) as store:
                return job(store)

        worker = self.run_worker(run, thread=True, group=group, exclusive=exclusive, exit_on_error=False)
        self._job_callbacks()[worker] = done
        return worker

    async def finish_store_job(self, event: Worker.StateChanged) -> bool:
        """Call from ``on_worker_state_changed``; True when the event belonged to a store job."""
        jobs = self._job_callbacks()
        if event.worker not in jobs:
            return False
        if event.state == WorkerState.SUCCESS:
            done = jobs.pop(event.worker)
            if done is not None:
                outcome = done(event.worker.result)
                if inspect.isawaitable(outcome):
                    await outcome
        elif event.state == WorkerState.ERROR:
            jobs.pop(event.worker)
            from desktop_app.ui.inference import one_line

            assert event.worker.error is not None  # set in the ERROR state
            self.notify(t("job.failed", error=one_line(event.worker.error)), markup=False, severity="error",
                        timeout=10)
        elif event.state == WorkerState.CANCELLED:
            jobs.pop(event.worker)
        return True
