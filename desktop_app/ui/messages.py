"""Messages the worker threads post to the chat screen, named as past-tense facts.

They are the only way work done off the UI thread reaches widgets: ``post_message`` is
thread-safe, widget methods are not. Each carries plain data (pydantic rows, strings,
numbers), never a live database connection.
"""

from __future__ import annotations

from textual.message import Message

from desktop_app.engine.protocol import ChatEngine
from desktop_app.memory.core.models import Message as StoredMessage
from desktop_app.memory.core.records import TurnRecord


class ModelLoaded(Message):
    """The chat model is ready; from now on only the inference worker touches ``engine``."""

    def __init__(self, engine: ChatEngine, seconds: float) -> None:
        super().__init__()
        self.engine = engine
        self.seconds = seconds


class ModelLoadFailed(Message):
    """The model could not be loaded; ``error`` is one sentence the user can act on."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class ReplyStarted(Message):
    """The user turn is stored and the prompt assembled; tokens follow."""

    def __init__(self, session_id: int, user_message: StoredMessage | None, prompt_tokens: int,
                 n_ctx: int, over_warning: bool) -> None:
        super().__init__()
        self.session_id = session_id
        self.user_message = user_message
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx
        self.over_warning = over_warning


class ReplyRetrying(Message):
    """The finished reply was degenerate (a copy, an echo, the prompt's notes): it is asked for once more."""

    def __init__(self, session_id: int, reason: str) -> None:
        super().__init__()
        self.session_id = session_id
        self.reason = reason


class TokenReceived(Message):
    """One piece of reply text streamed from the model."""

    def __init__(self, session_id: int, text: str) -> None:
        super().__init__()
        self.session_id = session_id
        self.text = text


class ReplyFinished(Message):
    """The reply is complete (or was stopped) and already stored in the database."""

    def __init__(self, session_id: int, reply: StoredMessage | None, stopped: bool,
                 pieces: int, tokens_per_second: float, record: TurnRecord | None = None) -> None:
        super().__init__()
        self.session_id = session_id
        self.reply = reply
        self.stopped = stopped
        self.pieces = pieces
        self.tokens_per_second = tokens_per_second
        self.record = record  # the turn's logged record: memory notices read it


class ReplyFailed(Message):
    """Generation raised; whatever had streamed is stored flagged ``stopped``.

    ``rejected`` means the input itself was refused (nothing was stored), so the UI puts the
    text back into the input box.
    """

    def __init__(self, session_id: int, error: str, *, rejected: bool = False, text: str = "") -> None:
        super().__init__()
        self.session_id = session_id
        self.error = error
        self.rejected = rejected
        self.text = text


class ContextProgress(Message):
    """Pre-fill progress of the chat context: warming the next prompt's head while idle
    (``kind='warming'``) or reading a turn's prompt (``kind='reading'``); total 0 = finished."""

    def __init__(self, done: int, total: int, kind: str = "warming") -> None:
        super().__init__()
        self.done, self.total, self.kind = done, total, kind
