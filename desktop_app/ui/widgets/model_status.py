"""A one-line bar saying what the model is doing: loading, ready, or why it failed.

llama-cpp-python reports no load progress, so while loading we show an indeterminate
indicator with the file name, its size and the seconds elapsed — enough to tell "slow"
from "stuck".
"""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Label, LoadingIndicator

from desktop_app.ui.i18n import t


def human_size(num_bytes: int) -> str:
    size = float(num_bytes)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit in ("B", "KB") else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def model_label(engine) -> str:
    """The file name people chose (GGUF ``general.name`` is often an unreadable build tag)."""
    path = getattr(engine, "model_path", None)
    if getattr(engine, "remote", False):  # say it where the user looks: chats leave this machine
        return f"{engine.model_name} @ {engine.host} (remote: chats leave this machine)"
    if getattr(engine, "base", None):
        return f"{engine.model_name} @ {engine.host}"
    return Path(path).name if path else engine.model_name


class ModelStatus(Horizontal):
    """States: ``loading`` (indicator visible), ``ready``, ``failed`` (error in red)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._loading_since: float | None = None
        self._loading_text = ""
        self._timer: Timer | None = None
        self.detail = ""
        self._usage = ""

    def compose(self) -> ComposeResult:
        yield LoadingIndicator(id="model-spinner")
        yield Label("", id="model-text", markup=False)

    def show_loading(self, model_path: Path) -> None:
        try:
            size = f" ({human_size(model_path.stat().st_size)})"
        except OSError:
            size = ""
        self._loading_text = t("model.loading", name=model_path.name, size=size)
        self._loading_since = time.monotonic()
        self._set_state("loading")
        self._tick()
        if self._timer is None:
            self._timer = self.set_interval(0.5, self._tick)

    def show_ready(self, model_name: str, n_ctx: int, seconds: float) -> None:
        self._stop_timer()
        self._set_state("ready")
        self._write(t("model.ready", name=model_name, n_ctx=n_ctx, seconds=seconds))

    def show_failed(self, error: str) -> None:
        self._stop_timer()
        self._set_state("failed")
        self._write(t("model.failed", error=error))

    def show_usage(self, model_name: str, n_ctx: int, prompt_tokens: int) -> None:
        """At the start of a turn: how full the window is (70–80 % is the comfortable zone)."""
        share = prompt_tokens / n_ctx if n_ctx else 0.0
        self._usage = t("model.usage", name=model_name, used=prompt_tokens, n_ctx=n_ctx, share=share)
        self._write(self._usage)

    def show_speed(self, speed: str) -> None:
        """At the end of a turn: append the generation speed to the usage line."""
        if self._usage:
            self._write(f"{self._usage} · {speed}")

    def _tick(self) -> None:
        if self._loading_since is not None:
            elapsed = time.monotonic() - self._loading_since
            self._write(f"{self._loading_text} … {elapsed:.0f}s")

    def _stop_timer(self) -> None:
        self._loading_since = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _set_state(self, state: str) -> None:
        for name in ("loading", "ready", "failed"):
            self.set_class(name == state, f"-{name}")

    def _write(self, text: str) -> None:
        self.detail = text
        self.query_one("#model-text", Label).update(text)
