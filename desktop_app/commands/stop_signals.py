"""SIGTERM and SIGHUP stop a streaming reply the way Esc does in the chat.

Without a handler either signal ends the process at once and the reply printed so far is lost
(it is stored when streaming ends). With :class:`StopOnSignal` the signal only raises a flag that
the engine checks between tokens: the stream ends, the partial reply is stored flagged
``stopped``, and the command exits 128 + the signal's number. ``kill -9`` cannot be caught.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import FrameType
from typing import Any

# What ``signal.signal`` takes and returns: a function, SIG_DFL or SIG_IGN, or None (set outside Python).
Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class StopOnSignal(AbstractContextManager):
    """While active, SIGTERM/SIGHUP set :attr:`received` instead of ending the process."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Handler] = {}

    def __call__(self) -> bool:
        """The engine's stop check."""
        return self.received is not None

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        self.received = signum

    def __enter__(self) -> StopOnSignal:
        for signum in _SIGNALS:
            try:
                self._previous[signum] = signal.signal(signum, self._handle)
            except ValueError:  # not the main thread: leave the default
                pass
        return self

    def __exit__(self, *exc) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)

    @property
    def name(self) -> str:
        return signal.Signals(self.received).name if self.received is not None else ""
