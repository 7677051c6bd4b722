"""The memory panel beside the chat: what Paperclip remembers for this session, and the keys to
steer it.

Sections: rules, constraints, the goal, decisions, facts, preferences, open questions (each
item with its value, source turn and time), items waiting for confirmation, bookmarks and the
rolling summary. Keys act on the highlighted item and reach the screen as ``ItemAction``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from desktop_app.memory.core.models import Bookmark, MemoryItem
from desktop_app.memory.prompt.render import in_language
from desktop_app.ui.i18n import current_lang, t
from desktop_app.ui.shown import Text

SECTIONS = ("directive", "constraint", "goal", "decision", "fact", "preference", "open_question")


class PanelState(BaseModel):
    """Everything the panel shows, read from the store in one go."""

    items: list[MemoryItem] = []
    turns: dict[int, int] = {}  # item id -> turn of its source message
    bookmarks: list[Bookmark] = []
    summary: str = ""
    state_version: int = 0


def load_panel_state(store, session_id: int) -> PanelState:
    """Active and pending items with their source turns, bookmarks, the rendered summary."""
    from desktop_app.memory.prompt.summary_text import render_summary

    items = store.list_items(session_id, statuses=("active", "pending"))
    turn_of = store.message_turns(i.source_message_id for i in items if i.source_message_id)
    summary = store.latest_summary(session_id)
    current = {i.id for i in items}
    text = render_summary(summary.content, current, lang=current_lang())[0] if summary else ""
    return PanelState(items=items, turns={i.id: turn_of[i.source_message_id] for i in items if i.source_message_id in turn_of},
                      bookmarks=store.list_bookmarks(session_id), summary=text,
                      state_version=store.state_version(session_id))


def short_time(ts: float) -> str:
    """Month-day hour:minute in UTC, the clock the prompts use."""
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%m-%d %H:%M")


def item_prompt(item: MemoryItem, turn: int | None) -> Text:
    """One item as the panel lists it; a label the program gave it is named in the UI's language
    ("budget: 4000" is "预算：4000" in Chinese)."""
    text = Text()
    text.append(f"#{item.id} ", style="dim")
    if item.pinned:
        text.append("★ ", style="bold")
    text.append(in_language(item.value, current_lang()))
    where = [t("memory.turn", n=turn)] if turn else []
    where += [t(f"memory.origin.{item.origin}")]
    if item.scope == "profile":
        where.insert(0, t("memory.profile"))
    text.append(f"\n   {' · '.join(where)} · {short_time(item.created_at)}", style="dim")
    return text


class MemoryPanel(Vertical):
    """Toggle with F4; Tab into it, then Enter for details, y/n/p/c/r/d to steer."""

    BINDINGS = [
        Binding("y", "item('confirm')", "Confirm"),
        Binding("n", "item('reject')", "Reject"),
        Binding("p", "item('pin')", "Pin"),
        Binding("c", "item('correct')", "Correct"),
        Binding("r", "item('revoke')", "Revoke"),
        Binding("d,delete", "item('forget')", "Forget"),
        Binding("t", "forget_topic", "Forget topic"),
        Binding("s", "item('scope')", "Profile/session"),
        # (A user's walk, round twenty-five: Esc left it open, and the next message was typed into the panel.)
        Binding("escape", "close", "Close"),
    ]

    class ActionRequested(Message):
        """``action`` on memory item ``item_id`` (``open``, ``confirm``, ``pin``, ``forget``, …)."""

        def __init__(self, action: str, item_id: int | None) -> None:
            super().__init__()
            self.action = action
            self.item_id = item_id

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.state = PanelState()

    def compose(self) -> ComposeResult:
        yield Label(t("memory.title"), id="memory-title", classes="panel-title", markup=False)
        yield OptionList(id="memory-list")

    def show(self, state: PanelState) -> None:
        """Replace the contents, keeping the highlighted item when it is still there."""
        self.state = state
        listing = self.query_one("#memory-list", OptionList)
        keep, position = self.highlighted_item_id(), listing.highlighted
        listing.set_options(self._options(state))
        title = f"{t('memory.title')} · v{state.state_version}"
        self.query_one("#memory-title", Label).update(title)
        if keep is not None:
            # The item, else the one that superseded it meanwhile (a model pass, another process):
            # the next key acts on the same fact, never on whatever moved into its row.
            for candidate in (keep, *(i.id for i in state.items if i.supersedes == keep)):
                try:
                    listing.highlighted = listing.get_option_index(f"i{candidate}")
                    return
                except Exception:  # not listed (forgotten or revoked meanwhile)
                    continue
            rows = [i for i in range(listing.option_count) if (listing.get_option_at_index(i).id or "").startswith("i")]
            if rows and position is not None:  # gone: the nearest row, not the top
                listing.highlighted = min(rows, key=lambda i: abs(i - position))
                return
        # Otherwise the first item, so the panel's keys act on something as soon as it has focus.
        first = next((i for i in range(listing.option_count)
                      if (listing.get_option_at_index(i).id or "").startswith("i")), None)
        if first is not None:
            listing.highlighted = first

    def _options(self, state: PanelState) -> list[Option | None]:
        options: list[Option | None] = []

        def header(key: str) -> None:
            if options:
                options.append(None)
            options.append(Option(Text(t(key), style="bold"), disabled=True))

        pending = [i for i in state.items if i.status == "pending"]
        if pending:
            header("memory.pending")
            options += [Option(item_prompt(i, state.turns.get(i.id)), id=f"i{i.id}") for i in pending]
        for kind in SECTIONS:
            shown = [i for i in state.items if i.kind == kind and i.status == "active"]
            if shown:
                header(f"memory.{kind}")
                options += [Option(item_prompt(i, state.turns.get(i.id)), id=f"i{i.id}") for i in shown]
        if not state.items:
            options.append(Option(Text(t("memory.empty"), style="dim"), disabled=True))
        if state.bookmarks:
            header("memory.bookmarks")
            options += [Option(Text(f"⚑ {', '.join(b.keywords)}\n   {b.description}"), id=f"b{b.id}", disabled=True)
                        for b in state.bookmarks[-8:]]
        header("memory.summary")
        options.append(Option(Text(state.summary or t("memory.no_summary"), style="" if state.summary else "dim"),
                              disabled=True))
        return options

    def highlighted_item_id(self) -> int | None:
        listing = self.query_one("#memory-list", OptionList)
        if listing.highlighted is None:
            return None
        option = listing.get_option_at_index(listing.highlighted)
        return int(option.id[1:]) if option.id and option.id.startswith("i") else None

    def item(self, item_id: int) -> MemoryItem | None:
        return next((i for i in self.state.items if i.id == item_id), None)

    def select_item(self, item_id: int) -> None:
        listing = self.query_one("#memory-list", OptionList)
        listing.highlighted = listing.get_option_index(f"i{item_id}")

    def action_item(self, action: str) -> None:
        self.post_message(self.ActionRequested(action, self.highlighted_item_id()))

    async def action_close(self) -> None:
        """Hide the panel and give the message box the focus (as F4 does)."""
        if self.display:
            await self.screen.run_action("toggle_memory")

    def action_forget_topic(self) -> None:
        self.post_message(self.ActionRequested("forget_topic", None))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id and event.option.id.startswith("i"):
            self.post_message(self.ActionRequested("open", int(event.option.id[1:])))
