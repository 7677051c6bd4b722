"""What the UI's worker threads run: loading the model and running one turn.

Kept apart from the widgets so the threading rules are visible in one place:

* a model (a llama.cpp ``Llama``) is used by one thread at a time — the engine and the
  embedder arrive wrapped once, when loaded, in ``engine.guard``'s locked wrappers, which the
  turn, recall and the background memory jobs all share;
* SQLite connections are not shared between threads — each turn opens its own ``Store``
  and closes it when the turn ends;
* results reach the UI only through ``post`` (``MessagePump.post_message``, thread-safe).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.message import Message

from desktop_app.chat import InputRejected, pipeline_for, regenerate_turn, run_turn
from desktop_app.config import Settings
from desktop_app.engine.errors import EngineError
from desktop_app.engine.guard import LockedEngine
from desktop_app.engine.protocol import ChatEngine, StopCheck
from desktop_app.memory.background.queue import JobContext, JobQueue
from desktop_app.ui.messages import (
    ContextProgress,
    ModelLoaded,
    ModelLoadFailed,
    ReplyFailed,
    ReplyFinished,
    ReplyRetrying,
    ReplyStarted,
    TokenReceived,
)

PROGRESS_MIN_TOKENS = 256  # pre-fills shorter than this show no "reading context…" label
EngineFactory = Callable[[Settings], ChatEngine]
EmbedderFactory = Callable[[Settings], object]
Post = Callable[[Message], object]


def default_engine_factory(settings: Settings) -> ChatEngine:
    """The real engine: llama.cpp in-process, or the configured OpenAI-compatible server."""
    if settings.engine:
        from desktop_app.engine.http import HttpEngine

        return HttpEngine.from_settings(settings)
    from desktop_app.engine.llama import LlamaEngine

    return LlamaEngine.from_settings(settings, share_terminal=True)


def default_embedder_factory(settings: Settings):
    """The llama.cpp embedding model recall uses for vectors (loaded by the jobs worker)."""
    from desktop_app.engine.embedder import load_embedder

    return load_embedder(settings, share_terminal=True)



def one_line(exc: BaseException) -> str:
    """A user-facing sentence for an unexpected error (no traceback in the UI)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if isinstance(exc, (EngineError, InputRejected)) else f"{type(exc).__name__}: {text}"


def load_engine(settings: Settings, factory: EngineFactory, post: Post) -> None:
    """Build the engine and report ``ModelLoaded`` or ``ModelLoadFailed``; never raises."""
    started = time.perf_counter()
    try:
        engine = factory(settings)
    except EngineError as exc:
        post(ModelLoadFailed(str(exc)))
    except Exception as exc:  # a broken build or driver must not take the UI down
        post(ModelLoadFailed(f"could not load {settings.model_path.name}: {one_line(exc)}"))
    else:
        post(ModelLoaded(LockedEngine(engine), time.perf_counter() - started))


def generate_reply(settings: Settings, engine: ChatEngine, session_id: int, text: str | None, *,
                   should_stop: StopCheck, post: Post, anchor_id: int | None = None, embedder=None,
                   jobs: JobQueue | None = None, context=None) -> None:
    """Run one turn with a thread-local store; report progress and the outcome; never raises.

    The user message and the reply are written by the turn stages themselves as they
    complete, so a quit or crash after this returns loses nothing. With ``anchor_id`` the
    messages after it are first archived as a version (their memory rolled back); ``text``
    None then answers the anchor message again (regenerate), else ``text`` replaces what
    followed (edit). Background memory jobs the turn queues land in ``jobs``; ``context`` is the
    chat context's ``ContextOwner`` (the pages type-ahead evaluated, kept first).
    """
    from desktop_app.memory.store import Store

    try:
        store = Store(settings.db_path)
    except Exception as exc:
        post(ReplyFailed(session_id, f"cannot open the database: {one_line(exc)}", rejected=True, text=text or ""))
        return
    try:
        if anchor_id is not None:
            store.archive_tail(session_id, anchor_id)
        session = store.get_session(session_id)
        pipeline = pipeline_for(store, settings, counter=engine.counter, n_ctx=engine.n_ctx, embedder=embedder,
                                jobs=jobs, warm_progress=lambda done, total: post(ContextProgress(done, total)),
                                context=context)

        def reading(done: int, total: int) -> None:
            if total >= PROGRESS_MIN_TOKENS:  # a short pre-fill is over before a label could help
                post(ContextProgress(done if done < total else 0, total if done < total else 0, "reading"))

        def started(plan, recorded) -> None:
            post(ReplyStarted(session_id, recorded.message, plan.total_tokens, plan.n_ctx, plan.over_warning))

        def on_token(piece: str) -> None:
            post(TokenReceived(session_id, piece))

        def on_retry(reason: str) -> None:
            post(ReplyRetrying(session_id, reason))

        if text is None:
            result = regenerate_turn(pipeline, session, engine, settings=settings, should_stop=should_stop,
                                     on_token=on_token, on_plan=started, on_prefill=reading, on_retry=on_retry)
        else:
            result = run_turn(pipeline, session, engine, text, settings=settings, should_stop=should_stop,
                              on_token=on_token, on_plan=started, on_prefill=reading, on_retry=on_retry)
        post(ReplyFinished(session_id, result.reply, result.stopped, result.completion_pieces,
                           result.tokens_per_second, result.record))
    except InputRejected as exc:
        post(ReplyFailed(session_id, str(exc), rejected=True, text=text or ""))
    except Exception as exc:
        post(ReplyFailed(session_id, one_line(exc)))
    finally:
        store.close()


def run_memory_jobs(settings: Settings, jobs: JobQueue, *, engine, embedder, should_stop: StopCheck,
                    chat_engine=None) -> list:
    """Drain the background memory jobs with a thread-local store (the chat is idle).

    ``engine`` serves model memory work (a second context), ``chat_engine`` warming (the chat's own)."""
    from desktop_app.memory.store import Store

    with Store(settings.db_path) as store:
        return jobs.run_pending(lambda stop: JobContext(store=store, should_stop=stop, embedder=embedder,
                                                        engine=engine, chat_engine=chat_engine or engine),
                                should_stop=should_stop)
