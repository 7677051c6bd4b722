"""The background work a turn leaves behind, queued once its reply is stored.

It runs when the chat is idle (``memory.jobs``): the next turn's prefix warmed, the model's pass
over the user's message, the next page-out's decisions, a page-out's bookmark and summary, and
the embeddings of the new turns. Kept out of ``turn`` so the jobs, which build a
``TurnPipeline`` of their own, can import it.
"""

from __future__ import annotations

from desktop_app.memory.background.archive_jobs import BookmarkJob, StageJob, SummaryJob
from desktop_app.memory.background.memory_pass import ExtractJob, MemoryModel
from desktop_app.memory.background.paging_advice import PagingAdviceJob, page_out_in_sight
from desktop_app.memory.background.queue import ReembedJob
from desktop_app.memory.core.models import Session
from desktop_app.memory.turn import RecordedInput, RecordedReply, TurnPipeline
from desktop_app.memory.warming import WarmJob


def queue_jobs(pipeline: TurnPipeline, session: Session, recorded: RecordedInput | None = None,
               reply: RecordedReply | None = None) -> int:
    """Queue the background memory work this turn calls for; it runs when the chat is idle:
    the model's pass over the user's message, the next page-out's decisions, and after a
    page-out its bookmark and summary (unless ``memory_model`` is off), and the embeddings
    of the new turns."""
    jobs = pipeline.jobs
    if jobs is None:
        return 0
    jobs.discard("draft")  # type-ahead for the message just answered
    if pipeline.context is not None:
        # The next prompt no longer holds this turn's recalled block.
        pipeline.context.recalled_pages, pipeline.context.recalled_words = (), ()
    queued = 0
    if pipeline.options.warm_idle:  # first: the next turn's prefix; again after the rest changed the head
        queued += jobs.submit(WarmJob(session.id, pipeline.options, stage="turn", progress=pipeline.warm_progress))
    model_on = pipeline.options.memory_model != "off"
    model = memory_model(pipeline)
    if recorded is not None and recorded.fresh and recorded.message.role == "user" and model_on:
        pipeline.store.add_to_backlog(session.id, [recorded.message.id])
        queued += jobs.submit(ExtractJob(session.id, [recorded.message.id], model, from_backlog=True))
    system_prompt = pipeline.system_prompt(session)
    if reply is not None and model_on and page_out_in_sight(pipeline.store, session.id, counter=pipeline.counter,
                                                            n_ctx=pipeline.n_ctx, system_prompt=system_prompt):
        # The next page-out's decisions, while there is time.
        queued += jobs.submit(PagingAdviceJob(session.id, model, counter=pipeline.counter, n_ctx=pipeline.n_ctx,
                                              system_prompt=system_prompt))
    if reply is not None and reply.paging is not None and model_on:
        event = reply.paging
        queued += jobs.submit(BookmarkJob(session.id, event.page_id, event.bookmark_id, model))
        queued += jobs.submit(SummaryJob(session.id, event.page_id, model, refold=pipeline.folds))
        if event.stage_id is not None:
            queued += jobs.submit(StageJob(session.id, event.stage_id, event.page_id, model))
    if pipeline.embedder is not None:
        queued += jobs.submit(ReembedJob(session_id=session.id))
    if pipeline.options.warm_idle and model_on:
        queued += jobs.submit(WarmJob(session.id, pipeline.options, stage="after", progress=pipeline.warm_progress))
    return queued


def memory_model(pipeline: TurnPipeline) -> MemoryModel:
    """The model pass as the pipeline's options set it (its mode and the language it writes)."""
    return MemoryModel(pipeline.options.memory_model, lang=pipeline.options.lang)
