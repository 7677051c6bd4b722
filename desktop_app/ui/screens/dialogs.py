"""Modal dialogs: the :class:`Dialog` base every Paperclip modal uses, and small ones that ask
for a name or a line, edit a text, or confirm a destructive action.

The small ones dismiss with a value (the name, or True) or ``None``/``False`` on Esc, so callers
can use ``push_screen(dialog, callback)`` and keep their logic in one place.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, TextArea

from desktop_app.ui.i18n import t

Result = TypeVar("Result")


class Dialog(ModalScreen[Result]):
    """A modal that takes no keys before its first frame has been painted.

    Textual paints nothing while any widget holds the app-wide batch (a streamed Markdown reply
    does for every write, a footer for every rebuild), and a frame computed meanwhile is dropped
    with its dirty regions. A dialog pushed then exists but is not on the terminal, and what the
    user types would go into it unseen. So the app holds the keys for an undrawn dialog
    (``PaperclipApp.on_event``); the first painted frame hands them over, in order. A dropped
    frame asks for a full repaint once the batch is over.
    """

    drawn = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.held_keys: list[events.Key] = []

    def hold_key(self, event: events.Key) -> None:
        self.held_keys.append(events.Key(event.key, event.character))

    def _compositor_refresh(self) -> None:
        batched = bool(self.app._batch_count)
        super()._compositor_refresh()
        if not self.is_current or self.drawn:
            return
        if batched:  # this frame went nowhere: paint the whole dialog when the batch ends
            self.refresh()
            return
        self.drawn = True
        held, self.held_keys = self.held_keys, []
        for event in held:
            self.app.post_message(event)


class NameDialog(Dialog[str | None]):
    """Ask for one line (a session name by default); Enter accepts, Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", *, placeholder: str | None = None,
                 empty_error: str = "a session name cannot be empty") -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.value = value
        self.placeholder = placeholder if placeholder is not None else t("dialog.name")
        self.empty_error = empty_error

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="name-input", select_on_focus=True)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("dialog.ok"), variant="primary", id="ok")
                yield Button(t("dialog.cancel"), id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._accept()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self._accept()
        else:
            self.dismiss(None)

    def _accept(self) -> None:
        name = self.query_one("#name-input", Input).value.strip()
        if not name:
            self.notify(self.empty_error, markup=False, severity="warning")
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmDialog(Dialog[bool]):
    """Yes/no for something that cannot be undone; the safe answer has the (visible) focus, and
    the keys are on the buttons: ``y`` confirms, ``n`` or Esc cancels."""

    BINDINGS = [Binding("escape,n", "cancel", "Cancel"), Binding("y", "confirm", "Yes", show=False)]

    def __init__(self, question: str, confirm_label: str | None = None) -> None:
        super().__init__(classes="dialog")
        self.question = question
        self.confirm_label = confirm_label or t("dialog.delete")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.question, classes="dialog-title", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.confirm_label} (y)", variant="error", id="confirm")
                yield Button(f"{t('dialog.cancel')} (n / Esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class TextDialog(Dialog[str | None]):
    """Edit a multi-line text (a message to resend); Ctrl+S saves, Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save", priority=True)]

    def __init__(self, title: str, value: str = "") -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box dialog-wide"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield TextArea(self.value, id="text-input", soft_wrap=True, tab_behavior="focus")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("dialog.save") + " (Ctrl+S)", variant="primary", id="ok")
                yield Button(t("dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        area = self.query_one("#text-input", TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        text = self.query_one("#text-input", TextArea).text.strip()
        if not text:
            self.notify(t("chat.not_sent"), markup=False, severity="warning")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
