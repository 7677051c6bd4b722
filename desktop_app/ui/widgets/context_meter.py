"""The context meter at the right of the footer: "used / window" tokens of the last prompt.

Seed 000 keeps usage at 70–80 % of the window; past 80 % the meter turns to the warning
colour (class ``-warning``) so the user sees the pressure before the model does.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from desktop_app.memory.core.plan import WARN_SHARE
from desktop_app.ui.i18n import t

BAR_CELLS = 10


def meter_bar(share: float, cells: int = BAR_CELLS) -> str:
    """A bar of ``cells`` characters filled to ``share`` (eighth blocks for the last cell)."""
    share = min(max(share, 0.0), 1.0)
    eighths = round(share * cells * 8)
    full, rest = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[rest] if rest and full < cells else ""
    return ("█" * full + partial).ljust(cells, "·")


class ContextMeter(Static):
    """Shows ``used/window`` and the share; ``used`` is None before the first prompt."""

    def __init__(self, **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)
        self.used: int | None = None
        self.window: int | None = None
        self.progress: tuple[str, float] | None = None  # ("warming" | "reading", share done)

    def on_mount(self) -> None:
        self._render_meter()

    @property
    def share(self) -> float:
        return (self.used or 0) / self.window if self.window else 0.0

    def show(self, used: int | None, window: int | None) -> None:
        self.used, self.window = used, window
        self._render_meter()

    def show_progress(self, kind: str | None, share: float = 0.0) -> None:
        """'warming context… N%' (idle-time warming) or 'reading context… N%' (a long pre-fill); None clears."""
        self.progress = (kind, share) if kind else None
        self._render_meter()

    def _render_meter(self) -> None:
        warning = self.window is not None and self.share > WARN_SHARE
        self.set_class(warning, "-warning")
        if not self.window:
            self.update(t("meter.none"))
            return
        used = self.used or 0
        text = Text()
        if self.progress is not None:
            kind, share = self.progress
            text.append(t(f"meter.{kind}", pct=int(share * 100)) + " · ", style="italic")
        text.append(f"{t('meter.label')} ")
        text.append(meter_bar(self.share), style="bold")
        text.append(f" {used}/{self.window} {self.share:.0%}")
        self.update(text)
