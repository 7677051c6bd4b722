"""Search across all sessions: session names and message text (FTS5 trigram, so Chinese
phrases match too). Picking a result dismisses with ``(session_id, message_id | None)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from desktop_app.memory.core.models import SearchHit, Session
from desktop_app.memory.store.browse import search_terms
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog
from desktop_app.ui.shown import Text

if TYPE_CHECKING:
    from textual import getters

    from desktop_app.ui.screens.host import AppHost

SNIPPET = 90
DEBOUNCE = 0.15


def snippet(content: str, terms: list[str], width: int = SNIPPET) -> Text:
    """``content`` on one line around the first match, with every term highlighted."""
    flat = " ".join(content.split())
    lowered = flat.casefold()
    first = min((i for i in (lowered.find(term.casefold()) for term in terms) if i >= 0), default=0)
    start = max(0, first - width // 3)
    piece = ("…" if start else "") + flat[start:start + width] + ("…" if start + width < len(flat) else "")
    text = Text(piece)
    for term in terms:
        text.highlight_words([term], style="bold reverse", case_sensitive=False)
    return text


def hit_option(hit: SearchHit, terms: list[str]) -> Option:
    prompt = Text()
    prompt.append(f"{hit.session_name}", style="bold")
    prompt.append(f" · {hit.role}\n", style="dim")
    prompt.append_text(snippet(hit.content, terms))
    return Option(prompt, id=f"m{hit.session_id}:{hit.message_id}")


class SearchScreen(Dialog[tuple[int, int | None] | None]):
    """Type to search; ↓ into the results; Enter opens the session at that message."""

    if TYPE_CHECKING:
        app = getters.app(AppHost)  # the app it runs in (for the type checker)

    BINDINGS = [Binding("escape", "dismiss_none", "Close")]

    def __init__(self, sessions: list[Session]) -> None:
        super().__init__(classes="dialog")
        self.sessions = sessions
        self.results: list[SearchHit] = []
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide", id="search-box"):
            yield Label(t("search.title"), classes="dialog-title", markup=False)
            yield Input(placeholder=t("search.placeholder"), id="search-input")
            yield OptionList(id="search-results")

    def on_mount(self) -> None:
        self.query_one("#search-input", Input).focus()

    @on(Input.Changed, "#search-input")
    def _changed(self, event: Input.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, lambda: self.run_search(event.value))

    @on(Input.Submitted, "#search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        results = self.query_one("#search-results", OptionList)
        first = next((i for i in range(results.option_count) if not results.get_option_at_index(i).disabled), None)
        if first is not None:
            results.focus()
            results.highlighted = first

    def run_search(self, query: str) -> None:
        """Names are filtered here; message text is searched in a worker with its own connection."""
        terms = search_terms(query)
        if not terms:
            self.show([], [], terms)
            return
        names = [s for s in self.sessions if all(term.casefold() in s.name.casefold() for term in terms)]
        self.app.chat.run_store_job(lambda store: store.search_messages(query, limit=50),
                                    lambda hits: self.show(names, hits, terms), group="search", exclusive=True)

    def show(self, sessions: list[Session], hits: list[SearchHit], terms: list[str]) -> None:
        if not self.is_mounted:
            return
        self.results = hits
        options: list[Option | None] = []
        if sessions:
            options.append(Option(Text(t("search.sessions"), style="bold"), disabled=True))
            options += [Option(Text(f"▸ {s.name}  ({s.message_count})"), id=f"s{s.id}") for s in sessions]
        if hits:
            if options:
                options.append(None)
            options.append(Option(Text(f"{t('search.messages')} ({len(hits)})", style="bold"), disabled=True))
            options += [hit_option(hit, terms) for hit in hits]
        if terms and not options:
            options.append(Option(Text(t("search.none"), style="dim"), disabled=True))
        self.query_one("#search-results", OptionList).set_options(options)

    @on(OptionList.OptionSelected, "#search-results")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if option_id.startswith("s"):
            self.dismiss((int(option_id[1:]), None))
        elif option_id.startswith("m"):
            session_id, message_id = option_id[1:].split(":")
            self.dismiss((int(session_id), int(message_id)))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
