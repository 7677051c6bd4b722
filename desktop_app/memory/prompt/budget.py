"""Token budgets per layer, derived from the model's context window.

At most ``PROMPT_SHARE`` (75 %) of n_ctx goes to the prompt; the rest is the reply's. The
system prompt is taken whole; what remains is split by fixed shares, so the recent-turns
budget — and with it the paging watermarks — does not move from turn to turn.
"""

from __future__ import annotations

from pydantic import BaseModel

PROMPT_SHARE = 0.75
HIGH_WATERMARK = 0.85
LOW_WATERMARK = 0.60
MESSAGE_OVERHEAD = 4  # role markers and separators the chat template adds per message

LAYER_SHARES = {"anchors": 0.08, "state": 0.14, "summary": 0.08, "recalled": 0.10, "changes": 0.06, "input": 0.09,
                "recent": 0.45}


class SystemPromptTooLarge(ValueError):
    """The system prompt alone does not fit the prompt budget; it is never truncated."""


class LayerBudgets(BaseModel):
    """Token budgets for one context window."""

    n_ctx: int
    total: int  # prompt budget: PROMPT_SHARE of n_ctx
    system: int
    anchors: int
    state: int
    summary: int
    recalled: int
    changes: int  # memory changed since the head was folded (before the input)
    input: int
    recent: int

    @property
    def high_watermark(self) -> int:
        return int(self.recent * HIGH_WATERMARK)

    @property
    def low_watermark(self) -> int:
        return int(self.recent * LOW_WATERMARK)


def compute_budgets(n_ctx: int, system_tokens: int) -> LayerBudgets:
    """Budgets for a window of ``n_ctx`` tokens whose system prompt takes ``system_tokens``."""
    total = int(n_ctx * PROMPT_SHARE)
    system = system_tokens + MESSAGE_OVERHEAD
    if system > total:
        raise SystemPromptTooLarge(
            f"the system prompt takes {system} tokens but the prompt budget is {total} (n_ctx {n_ctx})")
    rest = total - system
    shares = {name: int(rest * share) for name, share in LAYER_SHARES.items()}
    return LayerBudgets(n_ctx=n_ctx, total=total, system=system, **shares)
