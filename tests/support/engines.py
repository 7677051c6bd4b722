"""Scripted engines for tests that stand in for the model's JSON answers."""

from __future__ import annotations

import json

from desktop_app.engine.scripted import ScriptedEngine


def replying(*replies) -> ScriptedEngine:
    """A scripted engine that answers with ``replies`` in turn and then keeps repeating the last
    one; strings are sent as they are, anything else as JSON."""
    queue = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in replies]
    return ScriptedEngine(lambda messages: queue.pop(0) if len(queue) > 1 else queue[0])


def entry(quote, subject, value, kind="fact", scope="session", change="new") -> dict:
    """One item as the memory model proposes it in its JSON answer."""
    return {"quote": quote, "subject": subject, "value": value, "kind": kind, "scope": scope, "change": change}
