"""Carrying out a forget beyond the database: exports and saved prompt states.

The store plans and deletes what the database holds (``store/forget.py``). A forget also reaches
the files Paperclip keeps next to it: exports in the exports folder that hold the words are
listed in the plan and deleted, and every saved prompt state (``<data dir>/kv``: the evaluated
tokens of a session's prompt, the forgotten words among them) is dropped. Then the database is
rewritten without free pages and its WAL truncated, so no copy is left in the bytes.
Exports saved elsewhere (``--out`` to another folder) are the user's own files and not touched.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app import paths
from desktop_app.memory.archive.summary_chain import rebuild_chain
from desktop_app.memory.lang.text import clip
from desktop_app.memory.store.forget import ForgetPlan, needle_forms

if TYPE_CHECKING:
    from desktop_app.memory.store import Store

log = logging.getLogger(__name__)

SCANNED = (".md", ".json", ".jsonl", ".txt")
MAX_SCANNED_BYTES = 256 << 20
LISTED = 6

TEXT: dict[str, tuple[str, str]] = {
    "title": ("Forget — this deletes, it cannot be undone:", "遗忘 — 以下内容将被删除，无法恢复："),
    "items": ("{n} memory items (with their history)", "{n} 条记忆（含修改记录）"),
    "messages": ("{n} conversation turns (their search, vector and bookmark rows go too)",
                 "{n} 条对话（连同其全文索引、向量和书签）"),
    "pages": ("{n} archived pages", "{n} 个归档分页"),
    "bookmarks": ("{n} bookmarks", "{n} 个书签"),
    "traces": ("{n} other stored copies of the words, redacted to [forgotten]:",
               "另有 {n} 处存储的副本将被替换为 [forgotten]："),
    "files": ("{n} export files that hold the words (deleted)", "{n} 个含有这些内容的导出文件（将被删除）"),
    "sessions": ("Sessions touched: {names}", "涉及的会话：{names}"),
    "states": ("Saved prompt states are cleared, and the database is rewritten so no bytes remain.",
               "已保存的提示状态会被清除，数据库会被重写，不留任何字节。"),
}
# What the rows quoting the words are, for the listing.
TABLES: dict[str, tuple[str, str]] = {
    "turn_log": ("turn records", "轮次记录"), "summaries": ("summaries", "摘要"),
    "message_versions": ("earlier versions of replies", "回复的旧版本"), "memory_changes": ("memory change log", "记忆修改日志"),
    "sessions": ("session names", "会话名称"), "document_chunks": ("document passages", "文档段落"),
    "documents": ("document names", "文档名称"), "document_sections": ("document headings", "文档标题"),
    "memory_backlog": ("queued memory passes", "排队的记忆任务"),
}


def _say(key: str, lang: str, **values: object) -> str:
    en, zh = TEXT[key]
    return (zh if lang == "zh" else en).format(**values)


def describe(plan: ForgetPlan, lang: str = "en") -> str:
    """What will be deleted, a few lines per kind: shown before the user confirms."""
    lines = [_say("title", lang), plan.what, ""]

    def block(label: str, rows: list[str]) -> None:
        if rows:
            lines.append(label)
            lines.extend(f"  {row}" for row in rows[:LISTED])
            if len(rows) > LISTED:
                lines.append(f"  … +{len(rows) - LISTED}")

    block(_say("items", lang, n=len(plan.items)), [f"#{i.id} [{i.kind}] {clip(i.value, 60)}" for i in plan.items])
    block(_say("messages", lang, n=len(plan.messages)),
          [f"{m.role}: {clip(m.content, 60)}" for m in plan.messages])
    block(_say("pages", lang, n=len(plan.pages)), [f"page {p.id}: {p.message_count} turns" for p in plan.pages])
    block(_say("bookmarks", lang, n=len(plan.bookmarks)), [", ".join(b.keywords) for b in plan.bookmarks])
    pick = 1 if lang == "zh" else 0
    block(_say("traces", lang, n=sum(plan.traces.values())),
          [f"{TABLES.get(table, (table, table))[pick]}: {n}" for table, n in plan.traces.items()])
    block(_say("files", lang, n=len(plan.files)), plan.files)
    if len(plan.sessions) > 1:
        lines.append(_say("sessions", lang, names=", ".join(plan.sessions.values())))
    lines.append(_say("states", lang))
    return "\n".join(lines)


def files_holding(needles: list[str], folders: list[Path]) -> list[Path]:
    """Text files directly in ``folders`` whose bytes hold any needle (raw or JSON-escaped)."""
    forms = [form.encode("utf-8") for needle in needles for form in needle_forms(needle)]
    found = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() not in SCANNED or not path.is_file():
                continue
            try:
                if path.stat().st_size <= MAX_SCANNED_BYTES and any(f in path.read_bytes() for f in forms):
                    found.append(path)
            except OSError as exc:
                log.warning("forget: cannot read %s: %s", path, exc)
    return found


def with_files(plan: ForgetPlan, folders: list[Path]) -> ForgetPlan:
    """``plan`` with the export files that hold its words."""
    return plan.model_copy(update={"files": [str(p) for p in files_holding(plan.needles, folders)]})


def export_folders() -> list[Path]:
    return [paths.exports_dir()]


def clear_states(db_path: Path) -> int:
    """Delete every saved prompt state of the database at ``db_path``; how many."""
    folder = paths.states_dir(db_path)
    states = sorted(folder.glob("*.kv")) if folder.is_dir() else []
    for path in folder.glob("*") if folder.is_dir() else []:
        if path.suffix in (".kv", ".json", ".tmp"):
            path.unlink(missing_ok=True)
    return len(states)


def carry_out(store: Store, plan: ForgetPlan) -> dict[str, int]:
    """Delete ``plan`` from the database, its files and the saved prompt states, then leave no
    bytes behind; returns the counts (``wal_cleared`` 0 when another connection kept the WAL).
    A process holding a context in memory drops it itself (the TUI resets its engine)."""
    counts = store.forget(plan)
    touched = {m.session_id for m in plan.messages} | {p.session_id for p in plan.pages}
    counts["stages"] = sum(rebuild_chain(store, sid, now=time.time()) for sid in sorted(touched))
    removed = 0
    for name in plan.files:
        try:
            Path(name).unlink(missing_ok=True)
            removed += 1
        except OSError as exc:
            log.warning("forget: cannot delete %s: %s", name, exc)
    counts["files"] = removed
    counts["states"] = clear_states(store.path)
    counts["wal_cleared"] = int(store.purge())
    return counts
