"""Rendering one ``turn_log`` record for the context inspector (rich renderables, no I/O).

A record holds the prompt's layers (tokens, items, text), what was left out and why, the
paging event, the recall that fed the ``recalled`` layer and the memory the turn wrote — a
:class:`~desktop_app.memory.core.records.TurnRecord`, written by the turn's log stage. Missing
parts render as "none", so records from older versions still open.
"""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table

from desktop_app.memory.core.plan import LAYER_ORDER, Exclusion, LayerItem
from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.core.records import TurnRecord
from desktop_app.ui.i18n import STRINGS, current_lang, t
from desktop_app.ui.shown import Text

LAYER_STYLES = {"system": "magenta", "anchors": "red", "state": "yellow", "summary": "cyan", "recent": "green",
                "recalled": "blue", "changes": "bright_yellow", "input": "white"}
BAR_WIDTH = 48


def _bar(tokens: int, scale: int, width: int = BAR_WIDTH) -> int:
    return min(width, round(width * tokens / scale)) if scale else 0


def layer_bars(record: TurnRecord, width: int = BAR_WIDTH) -> Group:
    """One stacked bar of the whole window (layers, free room, reply reserve), then a bar per layer."""
    n_ctx = record.n_ctx
    budget = record.budget or n_ctx
    layers = record.layers
    reserve = max(0, n_ctx - budget)
    title = Text(t("inspector.layers", n_ctx=n_ctx, budget=budget, reserve=reserve), style="bold")
    stacked = Text("▕")
    used_cells = 0
    for name in LAYER_ORDER:
        cells = _bar(layers[name].tokens if name in layers else 0, n_ctx, width)
        stacked.append("█" * cells, style=LAYER_STYLES[name])
        used_cells += cells
    reserve_cells = _bar(reserve, n_ctx, width)
    stacked.append("·" * max(0, width - used_cells - reserve_cells), style="dim")
    stacked.append("░" * min(reserve_cells, max(0, width - used_cells)), style="dim red")
    stacked.append("▏ ")
    total = record.total_tokens
    share = total / n_ctx if n_ctx else 0.0
    stacked.append(f"{total}/{n_ctx} ({share:.0%})", style="bold red" if share > 0.8 else "bold")
    rows = Table.grid(padding=(0, 1))
    rows.add_column(no_wrap=True, min_width=9)
    rows.add_column(justify="right", no_wrap=True)
    rows.add_column(no_wrap=True)
    rows.add_column(style="dim")
    for name in LAYER_ORDER:
        layer = layers.get(name)
        tokens = layer.tokens if layer else 0
        bar = Text("█" * _bar(tokens, n_ctx, width), style=LAYER_STYLES[name])
        count = len(layer.items) if layer else 0
        rows.add_row(Text(name, style=LAYER_STYLES[name]), str(tokens), bar,
                     t("inspector.item_count" if count == 1 else "inspector.items_count", n=count))
    rows.add_row(Text("reserve", style="dim red"), str(reserve), Text("░" * reserve_cells, style="dim red"),
                 t("inspector.reply"))
    return Group(title, stacked, Text(""), rows)


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", title_style="bold", expand=True, box=box.SIMPLE_HEAD,
                 show_edge=False, pad_edge=False, padding=(0, 2, 0, 0))


def _describe(layer: str, item: LayerItem) -> str:
    if item.message_id is not None and item.role is not None:
        return t("inspector.turn_role", n=item.turn or "?", role=item.role,
                 tokens=item.tokens if item.tokens is not None else "?")
    if item.type == "page":
        turns = item.turns or []
        span = f"turns {turns[0]}–{turns[-1]}" if turns else ""
        return f"page {item.page_id} {span} score {item.score} via {item.source or '?'}"
    if item.type == "doc":
        return f"[{item.source or item.document}] quoted · score {item.score}"
    if item.type in ("new", "changed", "updated", "revoked", "confirmed"):
        profile = f" ({t('memory.profile')})" if item.scope == "profile" else ""
        return f"{t('inspector.change_' + item.type)} #{item.id} [{item.kind or '?'}] {item.value or ''}{profile}"
    if item.type == "replay":
        profile = f" ({t('memory.profile')})" if item.scope == "profile" else ""
        return f"replayed #{item.id} {item.value or ''}{profile}"
    if item.id is not None:
        score = f" · score {item.score}" if item.score is not None else ""
        pin = " ★" if item.pinned else ""
        profile = f" ({t('memory.profile')})" if item.scope == "profile" else ""
        return f"#{item.id} [{item.kind or '?'}] {item.value or ''}{pin}{score}{profile}"
    if item.text is not None:
        return item.text
    if item.message_id is not None:
        return t("inspector.this_message", id=item.message_id)
    return str(item.model_dump(exclude_none=True))


def included(record: TurnRecord) -> Table:
    table = _table(t("inspector.included"))
    table.add_column(t("inspector.col_layer"), no_wrap=True)
    table.add_column(t("inspector.col_item"), ratio=1)
    for name in LAYER_ORDER:
        items = record.layers[name].items if name in record.layers else []
        if name == "recent" and len(items) > 6:
            first, last = items[0], items[-1]
            table.add_row(Text(name, style=LAYER_STYLES[name]),
                          Text(f"{len(items)} messages, turns {first.turn}–{last.turn}"))
            continue
        for item in items:
            table.add_row(Text(name, style=LAYER_STYLES[name]), Text(_describe(name, item)))
    return table


def excluded(record: TurnRecord, history: list[Exclusion] | None = None) -> Table | Text:
    """What the assembler left out (budget, score), plus ``history``: items that were no longer
    current at that turn (superseded or revoked), which never reach the assembler."""
    entries = [*record.excluded, *(history or [])]
    if not entries:
        return Text(f"{t('inspector.excluded')}: {t('inspector.nothing_excluded')}", style="dim")
    table = _table(t("inspector.excluded"))
    table.add_column(t("inspector.col_layer"), no_wrap=True)
    table.add_column(t("inspector.col_what"), no_wrap=True)
    table.add_column(t("inspector.col_why"), ratio=1)
    table.add_column(t("inspector.col_score"), justify="right")
    for entry in entries:
        layer = entry.layer
        what = t("inspector.what_page", id=entry.id) if layer == "recalled" else (
            t("inspector.what_message", id=entry.id) if layer == "recent" else f"#{entry.id}")
        why = t(f"why.{entry.reason}") if f"why.{entry.reason}" in STRINGS else entry.reason
        table.add_row(Text(layer, style=LAYER_STYLES.get(layer, "")), Text(what), Text(why),
                      Text("" if entry.score is None else str(entry.score)))
    return table


def paging(record: TurnRecord) -> Text:
    text = Text(t("inspector.paging") + "\n", style="bold")
    out = record.paging
    recalled = record.layers.get("recalled")
    pages_in = [i for i in (recalled.items if recalled else []) if i.type == "page"]
    if out:
        turns = out.turns
        text.append(f"  {t('inspector.paged_out')}: page {out.page_id} — {out.messages} messages, "
                    f"{out.tokens} tokens, turns {turns[0] if turns else '?'}–{turns[-1] if turns else '?'}; "
                    f"recent {out.recent_before} → {out.recent_after} "
                    f"(high {out.high_watermark}, low {out.low_watermark}); "
                    f"bookmark {', '.join(out.keywords)}; summary v{out.summary_version}\n")
        if out.kept_turns:
            text.append(f"  {t('inspector.kept', turns=', '.join(str(n) for n in out.kept_turns))}\n")
        if out.stage_id is not None:
            text.append(f"  {t('inspector.stage', id=out.stage_id)}\n", style="dim")
    for page in pages_in:
        text.append(f"  {t('inspector.paged_in')}: {_describe('recalled', page)}\n")
    if not out and not pages_in:
        text.append(f"  {t('inspector.no_paging')}\n", style="dim")
    if record.prefill is not None:
        fill = record.prefill
        text.append(f"  {t('inspector.prefill', reused=fill.reused, total=fill.prompt_tokens, new=fill.evaluated)}\n",
                    style="dim")
    text.rstrip()
    return text


def recall_hits(record: TurnRecord, recomputed: list[RecallHit] | None = None) -> Table | Text | Group:
    """Hits with their per-signal scores: as logged (``record.recall``), else ``recomputed``
    now over the turns before this one (labelled so)."""
    documents = document_chunks(record)
    turns = _turn_hits(record, recomputed)
    return Group(turns, Text(""), documents) if documents is not None else turns


def document_chunks(record: TurnRecord) -> Table | None:
    """The document chunks quoted in the prompt, with their citation and per-signal scores."""
    recalled = record.layers.get("recalled")
    items = [i for i in (recalled.items if recalled else []) if i.type == "doc"]
    if not items:
        return None
    signals = sorted({name for item in items for name in (item.signals or {})})
    table = _table(t("inspector.documents"))
    table.add_column("source", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    for name in signals:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("text", ratio=1)
    for item in items:
        cells = []
        for name in signals:
            signal = (item.signals or {}).get(name)
            cells.append(f"{signal.score:.3g} #{signal.rank}" if signal else "—")
        table.add_row(Text(item.source or ""), Text(f"{item.score or 0:.3f}"), *map(Text, cells),
                      Text(" ".join((item.value or "").split())[:90]))
    return table


def _turn_hits(record: TurnRecord, recomputed: list[RecallHit] | None) -> Table | Text:
    hits = record.recall.hits
    title = t("inspector.recall")
    if not hits and recomputed:
        hits, title = recomputed, f"{title} ({t('inspector.recomputed')})"
    if not hits:
        return Text(f"{title}: {t('inspector.no_recall')}", style="dim")
    signals = sorted({name for hit in hits for name in hit.signals})
    table = _table(title)
    table.add_column(t("inspector.col_turn"), justify="right", no_wrap=True)
    table.add_column(t("inspector.col_score"), justify="right", no_wrap=True)
    for name in signals:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("snippet", ratio=1)
    for hit in hits:
        cells = []
        for name in signals:
            signal = hit.signals.get(name)
            cells.append(f"{signal.score:.3g} #{signal.rank}" if signal else "—")
        snippet = " ".join(hit.snippet.split())
        note = f" ({t('inspector.superseded_turn', n=hit.superseded_by)})" if hit.superseded_by else ""
        table.add_row(Text(str(hit.turn)), Text(f"{hit.score:.3f}"), *map(Text, cells),
                      Text(f"{hit.role}: {snippet[:90]}{note}"))
    return table


def new_memory(record: TurnRecord) -> Text:
    text = Text(t("inspector.memory") + "\n", style="bold")
    if not record.memory:
        text.append(f"  {t('inspector.no_memory')}\n", style="dim")
    for outcome in record.memory:
        ids = ", ".join(f"#{i}" for i in outcome.item_ids)
        text.append(f"  {outcome.action} {ids}  {outcome.notice_in(current_lang())}\n")
    work = record.memory_work
    if work is not None:
        text.append("  " + t("inspector.memory_work", calls=work.calls, tokens=work.prompt_tokens + work.completion_tokens,
                             seconds=f"{work.seconds:.1f}") + "\n", style="dim")
    text.rstrip()
    return text


def warnings(record: TurnRecord) -> Text:
    found = record.warnings
    text = Text()
    if found:
        text.append(t("inspector.warnings") + "\n", style="bold red")
        for warning in found:
            text.append(f"  {warning}\n", style="red")
    text.rstrip()
    return text
