"""Export a session to Markdown (to read) or JSON (to re-import, with its memory state)."""

from __future__ import annotations

from typing import Any

from desktop_app import __version__
from desktop_app.memory.core.models import iso

EXPORT_FORMAT = "paperclip-session"
EXPORT_VERSION = 1


def session_to_dict(store, session) -> dict[str, Any]:
    """Everything a session holds: messages, memory items (with history), bookmarks, summary."""
    messages = store.list_messages(session.id)
    items = store.list_items(session.id, include_profile=False) if hasattr(store, "list_items") else []
    bookmarks = store.list_bookmarks(session.id) if hasattr(store, "list_bookmarks") else []
    summary = store.latest_summary(session.id) if hasattr(store, "latest_summary") else None
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_by": f"paperclip {__version__}",
        "session": {"name": session.name, "mode": session.mode, "system_prompt": session.system_prompt,
                    "created_at": iso(session.created_at)},
        "messages": [
            {"id": m.id, "ext_id": m.ext_id, "role": m.role, "content": m.content, "time": iso(m.created_at),
             "stopped": m.stopped}
            for m in messages
        ],
        "memory": [item.model_dump(mode="json") for item in items],
        "bookmarks": [b.model_dump(mode="json") for b in bookmarks],
        "summary": summary.model_dump(mode="json") if summary else None,
    }


def session_to_markdown(store, session) -> str:
    """A readable transcript, with the active memory listed at the end."""
    lines = [f"# {session.name}", "", f"_Exported from Paperclip {__version__}_", ""]
    for m in store.list_messages(session.id):
        who = {"user": "You", "assistant": "Paperclip", "system": "System"}[m.role]
        stamp = (iso(m.created_at) or "").replace("T", " ").replace("+00:00", " UTC")
        suffix = " _(stopped)_" if m.stopped else ""
        lines += [f"## {who} · {stamp}{suffix}", "", m.content, ""]
    items = []
    if hasattr(store, "list_items"):
        items = store.list_items(session.id, statuses=("active", "pending"), include_profile=False)
    if items:
        lines += ["---", "", "## Memory", ""]
        for item in items:
            # The value as the prompt shows it ("budget: 6000 euros"); the subject is an internal
            # key ("directive:always/sentences") and is in the JSON export.
            flags = [f for f, on in (("★ pinned", item.pinned), ("pending confirmation", item.status == "pending"))
                     if on]
            lines.append(f"- **{item.kind}** #{item.id} {item.value}" + (f" ({', '.join(flags)})" if flags else ""))
        lines.append("")
    return "\n".join(lines)
