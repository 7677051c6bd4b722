"""The context inspector: for any turn of the session, what the prompt was made of.

Tokens per layer against the window and the reply reserve; which items and pages went in or
were left out and why; pages paged out or in; recall hits with per-signal scores; the memory
the turn wrote. Records come from ``turn_log`` (one per turn), so past turns open too.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from desktop_app.memory.core.models import Session
from desktop_app.memory.core.plan import WARN_SHARE, Exclusion
from desktop_app.memory.core.recall_hits import RecallHit
from desktop_app.memory.core.records import TurnLogEntry, TurnRecord
from desktop_app.memory.recall import search
from desktop_app.ui.i18n import t, translate_bindings
from desktop_app.ui.shown import Text, shown
from desktop_app.ui.widgets import turn_record
from desktop_app.ui.widgets.footer import FittedFooter

MAX_TURNS = 1000


def history_at(items, at: float) -> list[Exclusion]:
    """Items that were already superseded or revoked when a turn ran, with why."""
    replaced_by = {i.supersedes: i.id for i in items if i.supersedes is not None and i.status != "pending"}
    rows = []
    for item in items:
        if item.status in ("superseded", "revoked") and item.updated_at <= at:
            why = t("inspector.superseded_by", id=replaced_by[item.id]) if item.id in replaced_by else item.status
            rows.append(Exclusion(layer="state", id=item.id, reason=f"{why}: {item.value}"))
    return rows


def recompute_recall(store, session_id: int, row: TurnLogEntry, k: int = 5) -> list[RecallHit]:
    """Hybrid recall (full text + bookmarks) for the turn's input over the turns before it."""
    layer = row.record.layers.get("input")
    text = layer.text if layer else ""
    before = row.user_message_id or 0
    if not text.strip() or not before:
        return []
    try:
        hits = search(store, session_id, text, k=k * 3)
    except Exception:  # a query FTS5 cannot parse: no hits rather than no inspector
        return []
    return [h for h in hits if h.message_id < before][:k]


def turn_entries(store, session_id: int) -> list[tuple[int, TurnLogEntry]]:
    """``(turn number, log row)`` of the session's recorded turns, oldest first."""
    rows = store.list_turn_log(session_id, limit=MAX_TURNS)
    turns = store.message_turns(row.user_message_id for row in rows if row.user_message_id)
    return [(turns.get(row.user_message_id, 0), row) for row in rows]


class InspectorScreen(Screen):
    """Left: the session's turns (newest selected). Right: the chosen turn's record."""

    BINDINGS = [
        Binding("escape,f5", "close", "Close"),
        Binding("left,[", "step(-1)", "Older turn"),
        Binding("right,]", "step(1)", "Newer turn"),
    ]

    def __init__(self, store, session: Session) -> None:
        super().__init__()
        self.store = store
        self.session = session
        self.entries = turn_entries(store, session.id)
        self.items = store.list_items(session.id)
        self.index = len(self.entries) - 1
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="inspector-body"):
            yield OptionList(*self._turn_options(), id="inspector-turns")
            with VerticalScroll(id="inspector-record"):
                yield Label("", id="inspector-heading", markup=False)
                for part in ("bars", "warnings", "included", "excluded", "paging", "recall", "memory"):
                    yield Static("", id=f"inspector-{part}", classes="inspector-part")
        yield FittedFooter()

    def _turn_options(self) -> list[Option]:
        options = []
        for number, row in self.entries:
            record = row.record
            share = record.total_tokens / record.n_ctx if record.n_ctx else 0
            label = Text(f"{t('inspector.turn', n=number):<10}")
            label.append(f"{share:>4.0%}", style="red" if share > WARN_SHARE else "dim")
            options.append(Option(label, id=f"t{row.id}"))
        return options

    def on_mount(self) -> None:
        self.title = t("inspector.title")
        self.sub_title = shown(self.session.name)
        if self.entries:
            self.query_one("#inspector-turns", OptionList).highlighted = self.index
        self.show_turn()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.index = event.option_index
        self.show_turn()

    def action_step(self, step: int) -> None:
        if self.entries:
            self.index = max(0, min(len(self.entries) - 1, self.index + step))
            self.query_one("#inspector-turns", OptionList).highlighted = self.index

    def show_turn(self) -> None:
        heading = self.query_one("#inspector-heading", Label)
        if not self.entries:
            heading.update(t("inspector.none"))
            return
        number, row = self.entries[self.index]
        record = row.record
        heading.update(f"{t('inspector.turn', n=number)} · {record.mode or row.mode} · "
                       f"{record.total_tokens}/{record.n_ctx} tokens · {record.counter}")
        parts: dict[str, Table | Text | Group] = {
            "bars": turn_record.layer_bars(record), "warnings": turn_record.warnings(record),
            "included": turn_record.included(record),
            "excluded": turn_record.excluded(record, history_at(self.items, row.created_at)),
            "paging": turn_record.paging(record),
            # Records from before recall was logged have no "recall" part: recompute it for them.
            "recall": turn_record.recall_hits(record, None if "recall" in record.model_fields_set else
                                              recompute_recall(self.store, self.session.id, row)),
            "memory": turn_record.new_memory(record)}
        for name, renderable in parts.items():
            part = self.query_one(f"#inspector-{name}", Static)
            part.update(renderable)
            part.display = bool(renderable.plain) if isinstance(renderable, Text) and name == "warnings" else True

    @property
    def record(self) -> TurnRecord | None:
        return self.entries[self.index][1].record if self.entries else None

    def action_close(self) -> None:
        self.dismiss()
