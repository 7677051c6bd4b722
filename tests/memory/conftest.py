"""Fixtures for memory-core tests: a real migrated SQLite file and a turn driver (no model)."""

from __future__ import annotations

import pytest

from desktop_app.chat import pipeline_for
from desktop_app.engine.tokens import fallback_counter

T0 = 1_750_000_000.0


class Conversation:
    """Feeds turns through the core's turn stages (record input → plan → record reply), minus the model."""

    def __init__(self, store, settings, *, name: str = "story", n_ctx: int = 4096):
        self.store, self.settings, self.n_ctx = store, settings, n_ctx
        self.counter = fallback_counter()
        self.pipeline = pipeline_for(store, settings, counter=self.counter, n_ctx=n_ctx)
        self.session = store.session_named(name)
        self.turn = 0
        self.recorded = None
        self.outcomes = []
        self.paging = []

    @property
    def sid(self) -> int:
        return self.session.id

    def user(self, text: str):
        """Store a user message and run extraction; returns the memory outcomes."""
        self.turn += 1
        self.recorded = self.pipeline.record_input(self.session, text, created_at=T0 + self.turn * 60)
        self.outcomes = self.recorded.memory
        return self.outcomes

    def plan(self, mode: str | None = None):
        recorded = self.recorded.model_copy(update={"session": self.store.get_session(self.sid)})
        return self.pipeline.plan(recorded, mode=mode)

    def reply(self, text: str = "OK."):
        event = self.pipeline.record_reply(self.session, text, created_at=T0 + self.turn * 60 + 30,
                                           now=T0 + self.turn * 60 + 31).paging
        if event:
            self.paging.append(event)
        return event

    def say(self, text: str, reply: str = "OK.", mode: str | None = None):
        """One whole turn; returns the plan that would have been sent."""
        self.user(text)
        plan = self.plan(mode)
        self.reply(reply)
        return plan

    def active(self, kind: str | None = None):
        return self.store.list_items(self.sid, statuses=("active",), kinds=(kind,) if kind else None)


@pytest.fixture
def conversation(store, settings):
    def make(name: str = "story", *, n_ctx: int = 4096, lang: str = "en") -> Conversation:
        return Conversation(store, settings.model_copy(update={"lang": lang}), name=name, n_ctx=n_ctx)

    return make
