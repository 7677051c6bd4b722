"""Loading llama.cpp without touching the terminal's file descriptors.

With ``verbose=False`` llama-cpp-python silences llama.cpp by pointing file descriptors 1 and
2 at /dev/null while a model loads (and while a grammar is built). That is process-wide: in the
TUI, whatever Textual draws from the UI thread in that moment is lost, and the screen stays
stale until the next key press (the embedder loading right after the chat model froze the
"loading model" line half the time under tmux). So the TUI loads with ``verbose=True`` — no
redirection — and gives llama.cpp a log callback that drops everything; Python-level prints
go to ``sys.stderr``, which Textual captures while it runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
from collections.abc import Iterator

_callback = None


def silence_llama_logs() -> None:
    """Route llama.cpp's C-level log lines to nowhere (idempotent; the callback is kept alive)."""
    global _callback
    import llama_cpp

    if _callback is None:
        _callback = llama_cpp.llama_log_callback(lambda level, text, user_data: None)
    llama_cpp.llama_log_set(_callback, ctypes.c_void_p(0))


@contextlib.contextmanager
def quiet_load() -> Iterator[None]:
    """While a model loads with ``verbose=True``, llama-cpp-python's own prints (system info, the
    GGUF metadata, the chat template) go nowhere instead of the terminal — after the TUI has
    exited they would land on the user's shell. Callers set ``verbose = False`` on the loaded
    model so later prints (``save_state`` on quit) stay quiet too."""
    silence_llama_logs()
    with contextlib.redirect_stderr(io.StringIO()):
        yield
