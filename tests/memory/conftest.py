"""Fixtures for memory-core tests: a real migrated SQLite file and a turn driver (no model)."""

from __future__ import annotations

import pytest

from desktop_app.chat import plan_context
from desktop_app.config import load_settings
from desktop_app.engine.tokens import fallback_counter
from desktop_app.memory.hooks import on_reply_stored, on_user_message

T0 = 1_750_000_000.0


class Conversation:
    """Feeds turns the way ``run_turn`` does (store → extract → plan → reply → page), minus the model."""

    def __init__(self, store, settings, *, name: str = "story", n_ctx: int = 4096):
        self.store, self.settings, self.n_ctx = store, settings, n_ctx
        self.counter = fallback_counter()
        self.session = store.session_named(name)
        self.turn = 0
        self.outcomes = []
        self.paging = []

    @property
    def sid(self) -> int:
        return self.session.id

    def user(self, text: str):
        """Store a user message and run extraction; returns the memory outcomes."""
        self.turn += 1
        message = self.store.add_message(self.sid, "user", text, token_count=self.counter.count(text),
                                         created_at=T0 + self.turn * 60)
        self.outcomes = on_user_message(self.store, self.session, message)
        return self.outcomes

    def plan(self, mode: str | None = None):
        return plan_context(self.store, self.store.get_session(self.sid), None, settings=self.settings,
                            counter=self.counter, n_ctx=self.n_ctx, mode=mode)

    def reply(self, text: str = "OK."):
        message = self.store.add_message(self.sid, "assistant", text, token_count=self.counter.count(text),
                                         created_at=T0 + self.turn * 60 + 30)
        event = on_reply_stored(self.store, self.session, message, counter=self.counter, n_ctx=self.n_ctx,
                                settings=self.settings, now=T0 + self.turn * 60 + 31)
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
def settings(db_path):
    return load_settings({"db": db_path})


@pytest.fixture
def conversation(store, settings):
    def make(name: str = "story", *, n_ctx: int = 4096, lang: str = "en") -> Conversation:
        return Conversation(store, settings.model_copy(update={"lang": lang}), name=name, n_ctx=n_ctx)

    return make
