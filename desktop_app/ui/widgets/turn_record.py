"""Rendering one ``turn_log`` record for the context inspector (rich renderables, no I/O).

A record holds the prompt's layers (tokens, items, text), what was left out and why, the
paging event, the recall that fed the ``recalled`` layer and the memory the turn wrote —
written by :func:`desktop_app.memory.hooks.record_turn`. Unknown keys are ignored, missing
ones render as "none", so records from older versions still open.
"""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from desktop_app.ui.i18n import t

LAYERS = ("system", "anchors", "state", "summary", "recent", "recalled", "input")
LAYER_STYLES = {"system": "magenta", "anchors": "red", "state": "yellow", "summary": "cyan", "recent": "green",
                "recalled": "blue", "input": "white"}
BAR_WIDTH = 48


def _bar(tokens: int, scale: int, width: int = BAR_WIDTH) -> int:
    return min(width, round(width * tokens / scale)) if scale else 0


def layer_bars(record: dict, width: int = BAR_WIDTH) -> Group:
    """One stacked bar of the whole window (layers, free room, reply reserve), then a bar per layer."""
    n_ctx = int(record.get("n_ctx") or 0)
    budget = int(record.get("budget") or n_ctx)
    layers = record.get("layers") or {}
    reserve = max(0, n_ctx - budget)
    title = Text(t("inspector.layers", n_ctx=n_ctx, budget=budget, reserve=reserve), style="bold")
    stacked = Text("▕")
    used_cells = 0
    for name in LAYERS:
        cells = _bar(int((layers.get(name) or {}).get("tokens", 0)), n_ctx, width)
        stacked.append("█" * cells, style=LAYER_STYLES[name])
        used_cells += cells
    reserve_cells = _bar(reserve, n_ctx, width)
    stacked.append("·" * max(0, width - used_cells - reserve_cells), style="dim")
    stacked.append("░" * min(reserve_cells, max(0, width - used_cells)), style="dim red")
    stacked.append("▏ ")
    total = int(record.get("total_tokens") or 0)
    share = total / n_ctx if n_ctx else 0.0
    stacked.append(f"{total}/{n_ctx} ({share:.0%})", style="bold red" if share > 0.8 else "bold")
    rows = Table.grid(padding=(0, 1))
    rows.add_column(no_wrap=True, min_width=9)
    rows.add_column(justify="right", no_wrap=True)
    rows.add_column(no_wrap=True)
    rows.add_column(style="dim")
    for name in LAYERS:
        layer = layers.get(name) or {}
        tokens = int(layer.get("tokens", 0))
        bar = Text("█" * _bar(tokens, n_ctx, width), style=LAYER_STYLES[name])
        count = len(layer.get("items") or [])
        rows.add_row(Text(name, style=LAYER_STYLES[name]), str(tokens), bar, f"{count} item{'' if count == 1 else 's'}")
    rows.add_row(Text("reserve", style="dim red"), str(reserve), Text("░" * reserve_cells, style="dim red"), "reply")
    return Group(title, stacked, Text(""), rows)


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", title_style="bold", expand=True, box=box.SIMPLE_HEAD,
                 show_edge=False, pad_edge=False, padding=(0, 2, 0, 0))


def _describe(layer: str, item: dict) -> str:
    if "message_id" in item and "role" in item:
        return f"turn {item.get('turn', '?')} {item['role']} ({item.get('tokens', '?')} tok)"
    if item.get("type") == "page":
        turns = item.get("turns") or []
        span = f"turns {turns[0]}–{turns[-1]}" if turns else ""
        return f"page {item.get('page_id')} {span} score {item.get('score')} via {item.get('source', '?')}"
    if item.get("type") == "replay":
        return f"replayed #{item.get('id')} {item.get('value', '')}"
    if "id" in item:
        score = f" · score {item['score']}" if "score" in item else ""
        pin = " ★" if item.get("pinned") else ""
        return f"#{item['id']} [{item.get('kind', '?')}] {item.get('value', '')}{pin}{score}"
    if "text" in item:
        return str(item["text"])
    if "message_id" in item:
        return f"this message (id {item['message_id']})"
    return str(item)


def included(record: dict) -> Table:
    table = _table(t("inspector.included"))
    table.add_column("layer", no_wrap=True)
    table.add_column("item", ratio=1)
    layers = record.get("layers") or {}
    for name in LAYERS:
        items = (layers.get(name) or {}).get("items") or []
        if name == "recent" and len(items) > 6:
            first, last = items[0], items[-1]
            table.add_row(Text(name, style=LAYER_STYLES[name]),
                          Text(f"{len(items)} messages, turns {first.get('turn')}–{last.get('turn')}"))
            continue
        for item in items:
            table.add_row(Text(name, style=LAYER_STYLES[name]), Text(_describe(name, item)))
    return table


def excluded(record: dict, history: list[dict] | None = None) -> Table | Text:
    """What the assembler left out (budget, score), plus ``history``: items that were no longer
    current at that turn (superseded or revoked), which never reach the assembler."""
    entries = [*(record.get("excluded") or []), *(history or [])]
    if not entries:
        return Text(f"{t('inspector.excluded')}: {t('inspector.nothing_excluded')}", style="dim")
    table = _table(t("inspector.excluded"))
    table.add_column("layer", no_wrap=True)
    table.add_column("what", no_wrap=True)
    table.add_column("why", ratio=1)
    table.add_column("score", justify="right")
    for entry in entries:
        layer = entry.get("layer", "?")
        what = f"page {entry.get('id')}" if layer == "recalled" else (
            f"message {entry.get('id')}" if layer == "recent" else f"#{entry.get('id')}")
        table.add_row(Text(layer, style=LAYER_STYLES.get(layer, "")), Text(what), Text(str(entry.get("reason", ""))),
                      Text("" if entry.get("score") is None else str(entry.get("score"))))
    return table


def paging(record: dict) -> Text:
    text = Text(t("inspector.paging") + "\n", style="bold")
    out = record.get("paging")
    pages_in = [i for i in ((record.get("layers") or {}).get("recalled") or {}).get("items") or []
                if i.get("type") == "page"]
    if out:
        turns = out.get("turns") or []
        text.append(f"  {t('inspector.paged_out')}: page {out.get('page_id')} — {out.get('messages')} messages, "
                    f"{out.get('tokens')} tokens, turns {turns[0] if turns else '?'}–{turns[-1] if turns else '?'}; "
                    f"recent {out.get('recent_before')} → {out.get('recent_after')} "
                    f"(high {out.get('high_watermark')}, low {out.get('low_watermark')}); "
                    f"bookmark {', '.join(out.get('keywords') or [])}; summary v{out.get('summary_version')}\n")
    for page in pages_in:
        text.append(f"  {t('inspector.paged_in')}: {_describe('recalled', page)}\n")
    if not out and not pages_in:
        text.append(f"  {t('inspector.no_paging')}\n", style="dim")
    text.rstrip()
    return text


def recall_hits(record: dict, recomputed: list[dict] | None = None) -> Table | Text:
    """Hits with their per-signal scores: as logged (``record["recall"]``), else ``recomputed``
    now over the turns before this one (labelled so)."""
    hits = record.get("recall")
    if isinstance(hits, dict):
        hits = hits.get("hits")
    title = t("inspector.recall")
    if not hits and recomputed:
        hits, title = recomputed, f"{title} ({t('inspector.recomputed')})"
    if not hits:
        return Text(f"{title}: {t('inspector.no_recall')}", style="dim")
    signals = sorted({name for hit in hits for name in (hit.get("signals") or {})})
    table = _table(title)
    table.add_column("turn", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    for name in signals:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("snippet", ratio=1)
    for hit in hits:
        cells = []
        for name in signals:
            signal = (hit.get("signals") or {}).get(name)
            cells.append(f"{signal['score']:.3g} #{signal['rank']}" if signal else "—")
        snippet = " ".join(str(hit.get("snippet", "")).split())
        note = f" (superseded by turn {hit['superseded_by']})" if hit.get("superseded_by") else ""
        table.add_row(Text(str(hit.get("turn", "?"))), Text(f"{float(hit.get('score', 0)):.3f}"), *map(Text, cells),
                      Text(f"{hit.get('role', '')}: {snippet[:90]}{note}"))
    return table


def new_memory(record: dict) -> Text:
    text = Text(t("inspector.memory") + "\n", style="bold")
    outcomes = record.get("memory") or []
    if not outcomes:
        text.append(f"  {t('inspector.no_memory')}\n", style="dim")
    for outcome in outcomes:
        ids = ", ".join(f"#{i}" for i in outcome.get("item_ids") or [])
        text.append(f"  {outcome.get('action')} {ids}  {outcome.get('notice', '')}\n")
    text.rstrip()
    return text


def warnings(record: dict) -> Text:
    found = record.get("warnings") or []
    text = Text()
    if found:
        text.append(t("inspector.warnings") + "\n", style="bold red")
        for warning in found:
            text.append(f"  {warning}\n", style="red")
    text.rstrip()
    return text
