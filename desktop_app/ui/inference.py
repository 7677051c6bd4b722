"""What the UI's worker threads run: loading the model and running one turn.

Kept apart from the widgets so the threading rules are visible in one place:

* the engine (a llama.cpp ``Llama``) is used by one thread at a time — every use holds
  ``engine_lock``;
* SQLite connections are not shared between threads — each turn opens its own ``Store``
  and closes it when the turn ends;
* results reach the UI only through ``post`` (``MessagePump.post_message``, thread-safe).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from textual.message import Message

from desktop_app.chat import InputRejected, regenerate_turn, run_turn
from desktop_app.config import Settings
from desktop_app.engine.errors import EngineError, ModelLoadError
from desktop_app.engine.protocol import ChatEngine, StopCheck
from desktop_app.ui.messages import (
    ModelLoaded,
    ModelLoadFailed,
    ReplyFailed,
    ReplyFinished,
    ReplyStarted,
    TokenReceived,
)

EngineFactory = Callable[[Settings], ChatEngine]
EmbedderFactory = Callable[[Settings], object]
Post = Callable[[Message], object]


def default_engine_factory(settings: Settings) -> ChatEngine:
    """The real llama.cpp engine, configured from the user's settings."""
    from desktop_app.engine.llama import LlamaEngine

    return LlamaEngine.from_settings(settings)


def default_embedder_factory(settings: Settings):
    """The llama.cpp embedding model recall uses for vectors (loaded in the embedding worker)."""
    from desktop_app.engine.embedder import load_embedder

    return load_embedder(settings)


def one_line(exc: BaseException) -> str:
    """A user-facing sentence for an unexpected error (no traceback in the UI)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if isinstance(exc, (EngineError, InputRejected)) else f"{type(exc).__name__}: {text}"


def load_engine(settings: Settings, factory: EngineFactory, post: Post) -> None:
    """Build the engine and report ``ModelLoaded`` or ``ModelLoadFailed``; never raises."""
    started = time.perf_counter()
    try:
        engine = factory(settings)
    except ModelLoadError as exc:
        post(ModelLoadFailed(str(exc)))
    except Exception as exc:  # a broken build or driver must not take the UI down
        post(ModelLoadFailed(f"could not load {settings.model_path.name}: {one_line(exc)}"))
    else:
        post(ModelLoaded(engine, time.perf_counter() - started))


def generate_reply(settings: Settings, engine: ChatEngine, engine_lock: threading.Lock, session_id: int,
                   text: str | None, *, should_stop: StopCheck, post: Post, anchor_id: int | None = None) -> None:
    """Run one turn with a thread-local store; report progress and the outcome; never raises.

    The user message and the reply are written by ``run_turn`` itself as they complete, so a
    quit or crash after this returns loses nothing. With ``anchor_id`` the messages after it
    are first archived as a version (their memory rolled back); ``text`` None then answers
    the anchor message again (regenerate), else ``text`` replaces what followed (edit).
    """
    from desktop_app.memory.store import Store

    try:
        store = Store(settings.db_path)
    except Exception as exc:
        post(ReplyFailed(session_id, f"cannot open the database: {one_line(exc)}", rejected=True, text=text or ""))
        return
    try:
        session = store.get_session(session_id)

        def started(plan) -> None:
            last = store.last_messages(session_id, 1)
            post(ReplyStarted(session_id, last[0] if last else None, plan.total_tokens, plan.n_ctx,
                              plan.over_warning))

        if anchor_id is not None:
            store.archive_tail(session_id, anchor_id)
            session = store.get_session(session_id)
        on_token = lambda piece: post(TokenReceived(session_id, piece))  # noqa: E731
        with engine_lock:
            if text is None:
                result = regenerate_turn(store, session, engine, settings=settings, should_stop=should_stop,
                                         on_token=on_token, on_plan=started)
            else:
                result = run_turn(store, session, engine, text, settings=settings, should_stop=should_stop,
                                  on_token=on_token, on_plan=started)
        post(ReplyFinished(session_id, result.reply, result.stopped, result.completion_pieces,
                           result.tokens_per_second))
    except InputRejected as exc:
        post(ReplyFailed(session_id, str(exc), rejected=True, text=text or ""))
    except Exception as exc:
        post(ReplyFailed(session_id, one_line(exc)))
    finally:
        store.close()
