"""Helpers for tests that talk to memory through the ``conversation`` fixture (tests/memory/conftest.py)."""

from __future__ import annotations

from typing import Any


def holding(chat: Any, word: str) -> list[Any]:
    """The active items whose subject or value holds ``word`` (any case)."""
    return [i for i in chat.active() if word.lower() in f"{i.subject} {i.value}".lower()]


def said(chat: Any, turns: list[str]) -> None:
    """The user says each of ``turns`` in order."""
    for text in turns:
        chat.say(text)
