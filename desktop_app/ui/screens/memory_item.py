"""One memory item in full: value, source turn with the verbatim quote, the versions it
superseded, its change history — and the buttons to pin, correct, revoke or forget it.

Dismisses with the chosen action (``pin``, ``unpin``, ``correct``, ``revoke``, ``forget``,
``confirm``, ``reject``) or None; the chat screen carries it out, as for the panel's keys.
"""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label, Static

from desktop_app.memory.core.models import MemoryChange, MemoryItem
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog
from desktop_app.ui.shown import Text
from desktop_app.ui.widgets.memory_panel import short_time


def item_chain(store, item: MemoryItem) -> list[MemoryItem]:
    """The item's supersede chain, oldest first (what it replaced, and what replaced it)."""
    root = item
    while root.supersedes is not None and (older := store.get_item(root.supersedes)) is not None:
        root = older
    chain, cursor = [root], root
    while newer := store.items_superseding(cursor.id):
        cursor = newer[-1]
        chain.append(cursor)
    return chain


def item_details(store, item: MemoryItem) -> Table:
    """A two-column table: fields, source, chain and history of ``item``."""
    chain = item_chain(store, item)
    turn_of = store.message_turns(i.source_message_id for i in chain if i.source_message_id)
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(ratio=1)
    table.add_row("", Text(item.value, style="bold"))
    table.add_row("kind", Text(f"{item.kind} · {item.status}{' · ★ pinned' if item.pinned else ''} · {item.origin}"))
    table.add_row("subject", Text(item.subject))
    where = t("memory.turn", n=turn_of.get(item.source_message_id, "?")) if item.source_message_id else item.origin
    table.add_row(t("item.source"), Text(f"{where} · {short_time(item.created_at)} · v{item.state_version}"))
    if item.source_quote:
        table.add_row(t("item.quote"), Text(f"“{item.source_quote}”", style="italic"))
    table.add_row("", "")
    table.add_row(t("item.chain"), "")
    for link in chain:
        mark = "→" if link.id == item.id else " "
        table.add_row(f"{mark} #{link.id}", Text(f"{link.status:<10} {short_time(link.updated_at)}  {link.value}",
                                               style="" if link.id == item.id else "dim"))
    changes: list[MemoryChange] = sorted((c for link in chain for c in store.item_changes(link.id)),
                                         key=lambda c: c.id)
    table.add_row("", "")
    table.add_row(t("item.history"), "")
    for change in changes:
        table.add_row(f"v{change.state_version}", Text(f"{short_time(change.created_at)}  #{change.item_id} {change.action}"))
    return table


class MemoryItemScreen(Dialog[str | None]):
    """Details of one item with its actions; the keys match the panel's."""

    BINDINGS = [
        Binding("escape", "dismiss_none", "Close"),
        Binding("p", "choose('pin')", "Pin"),
        Binding("c", "choose('correct')", "Correct"),
        Binding("r", "choose('revoke')", "Revoke"),
        Binding("d", "choose('forget')", "Forget"),
        Binding("y", "choose('confirm')", "Confirm", show=False),
        Binding("n", "choose('reject')", "Reject", show=False),
    ]

    def __init__(self, store, item: MemoryItem) -> None:
        super().__init__(classes="dialog")
        self.store = store
        self.item = item

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="item-box"):
            yield Label(t("item.title", id=self.item.id), classes="dialog-title", markup=False)
            with VerticalScroll(id="item-scroll"):
                yield Static(item_details(self.store, self.item), id="item-details")
            with Horizontal(classes="dialog-buttons"):
                if self.item.status == "pending":
                    yield Button(t("item.confirm"), variant="success", id="confirm")
                    yield Button(t("item.reject"), id="reject")
                else:
                    yield Button(t("item.unpin") if self.item.pinned else t("item.pin"), id="pin")
                    yield Button(t("item.correct"), id="correct")
                    yield Button(t("item.revoke"), variant="warning", id="revoke")
                yield Button(t("item.forget"), variant="error", id="forget")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose(event.button.id or "")

    def action_choose(self, action: str) -> None:
        if action == "pin" and self.item.pinned:
            action = "unpin"
        if action in ("confirm", "reject") and self.item.status != "pending":
            return
        self.dismiss(action)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
