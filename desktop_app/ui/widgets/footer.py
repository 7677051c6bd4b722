"""The footer: Textual's, showing only the key bindings that fit whole.

Textual's footer clips whatever does not fit at its right edge and slides it under the palette
key docked there, so a label can end mid-word — with CJK labels (two cells a character) half a
character is blanked: "^q 退", "^p   令面板". This one measures every key in terminal cells and
leaves out whole bindings: the palette key, Quit, Send, Stop, New and Help last, the others from
the right.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# Left out last, in this order; the other keys go from the right.
KEPT_ACTIONS = ("command_palette", "quit", "submit", "stop_reply", "new_session", "help")


def key_cells(key: FooterKey) -> int:
    """The cells ``key`` takes in the footer row: its label (with the key's padding), border,
    padding and margins."""
    styles = key.styles
    return cell_len(key.render().plain) + styles.gutter.width + styles.margin.width


class FittedFooter(Footer):
    """A footer whose keys are shown whole or not at all."""

    async def recompose(self) -> None:
        await super().recompose()
        self.fit()

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Show the keys that fit the footer's width, in priority order (the kept actions, then
        the footer's own order, left to right); the rest are left out whole."""
        keys = list(self.query(FooterKey))
        width = self.size.width
        if not keys or not width:
            return

        def rank(key: FooterKey) -> int:
            action = key.action.rpartition(".")[2]
            return KEPT_ACTIONS.index(action) if action in KEPT_ACTIONS else len(KEPT_ACTIONS)

        room = width
        shown: set[FooterKey] = set()
        for key in sorted(keys, key=lambda k: (rank(k), keys.index(k))):
            need = key_cells(key)
            if need <= room:
                shown.add(key)
                room -= need
        for key in keys:
            key.display = key in shown
