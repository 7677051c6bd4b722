"""Memory work done on every turn. Filled in by the memory core (extraction, paging)."""

from __future__ import annotations


def on_user_message(store, session, message) -> None:
    """Extract directives, facts and constraints from a user message (memory core)."""


def on_reply_stored(store, session, reply, *, counter, n_ctx: int, settings) -> None:
    """Page out old turns past the high watermark (memory core)."""
