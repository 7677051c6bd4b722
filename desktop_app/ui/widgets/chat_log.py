"""The conversation: a scrollable column of message views, the newest at the bottom.

Long sessions (hundreds of turns) would be slow to mount in full, so only the last
``PAGE`` messages are shown; a button at the top mounts the previous page on demand.

Focused (Ctrl+↑ from the input), the log is a message selector: ↑/↓ move the selection,
``e`` edits a message of yours and regenerates from there, ``r`` regenerates a reply,
←/→ switch between the versions of a message, Esc goes back to the message box; each
request is posted to the screen.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message as TextualMessage
from textual.widgets import Button, Label, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from desktop_app.memory.core.models import Message
from desktop_app.ui.i18n import t
from desktop_app.ui.shown import shown

PAGE = 100


class MessageView(Vertical):
    """One stored (or streaming) message: a title line and the body."""

    def __init__(self, role: str, content: str = "", *, stopped: bool = False,
                 message_id: int | None = None) -> None:
        super().__init__(classes=f"message {role}")
        self.role = role
        self.content = content
        self.message_id = message_id
        self.stopped = stopped
        self.version = ""
        self._note = ""
        self.set_class(stopped, "stopped")

    def compose(self) -> ComposeResult:
        yield Label(self._title(self._note), classes="message-title", markup=False)
        if self.role == "assistant":
            yield Markdown(shown(self.content), classes="message-body")
        else:
            # Pasted documents are shown verbatim: no markup, no Markdown surprises.
            yield Static(shown(self.content), markup=False, classes="message-body")

    def _title(self, note: str = "") -> str:
        title = t(f"role.{self.role}")
        if self.stopped:
            note = note or t("note.stopped")
        parts = [title, *(x for x in (note, self.version) if x)]
        return " · ".join(parts)

    def set_note(self, note: str) -> None:
        """Show a short state next to the role ("thinking…", "stopped", "failed")."""
        self._note = note
        if self.is_mounted:
            self.query_one(".message-title", Label).update(self._title(note))

    def set_version(self, number: int | None, of: int | None) -> None:
        """Show "‹ version n/of ›" when this message has other versions."""
        self.version = f"‹ {t('note.version', n=number, of=of)} ›" if number and of and of > 1 else ""
        self.set_class(bool(self.version), "-versions")
        self.set_note(self._note)


class ReplyView(MessageView):
    """The assistant message being generated; text arrives through a Markdown stream."""

    def __init__(self) -> None:
        super().__init__("assistant")
        self.add_class("streaming")
        self._stream: MarkdownStream | None = None

    def on_mount(self) -> None:
        self.set_note(t("note.thinking"))

    async def append(self, text: str) -> None:
        if self._stream is None:
            self.set_note(t("note.writing"))
            self._stream = Markdown.get_stream(self.query_one(Markdown))
        self.content += text
        await self._stream.write(shown(text))

    async def restart(self, note: str) -> None:
        """Clear what streamed: the reply is being asked for once more."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        self.content = ""
        await self.query_one(Markdown).update("")
        self.set_note(note)

    async def finish(self, final_text: str | None, *, stopped: bool, note: str = "") -> None:
        """Flush the stream and show exactly what was stored (the source of truth)."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        markdown = self.query_one(Markdown)
        if final_text is not None and shown(final_text) != markdown.source:
            await markdown.update(shown(final_text))
        self.content = final_text if final_text is not None else self.content
        self.stopped = stopped
        self.set_class(stopped, "stopped")
        self.remove_class("streaming")
        self.set_note(note or (t("note.stopped") if stopped else ""))


class ChatLog(VerticalScroll):
    """The messages of the current session; focused, a selector over them."""

    DEFAULT_CSS = """
    ChatLog .message.-queued {
        border-left: dashed $primary;
        color: $text-muted;
    }
    """

    BINDINGS = [
        Binding("up", "select(-1)", "Previous", show=False),
        Binding("down", "select(1)", "Next", show=False),
        Binding("e", "edit", "Edit"),
        Binding("r", "regenerate", "Regenerate"),
        Binding("left", "versions(-1)", "Prev version"),
        Binding("right", "versions(1)", "Next version"),
        Binding("escape", "leave", "Back"),
    ]

    class ActionRequested(TextualMessage):
        """The user asked to ``edit``, ``regenerate`` or switch ``versions`` (by ``step``) of a message."""

        def __init__(self, action: str, message_id: int, step: int = 0) -> None:
            super().__init__()
            self.action = action
            self.message_id = message_id
            self.step = step

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._older: list[Message] = []
        self.selected: MessageView | None = None
        self.version_notes: dict[int, tuple[int, int, int]] = {}

    async def show_messages(self, messages: list[Message]) -> None:
        """Replace the log with the last page of ``messages`` (oldest first)."""
        await self.remove_children()
        self.anchor()  # before mounting: every layout pass while the page mounts keeps the newest in view
        self._older = list(messages[:-PAGE]) if len(messages) > PAGE else []
        shown = messages[-PAGE:]
        self.selected = None
        if not shown:
            await self.mount(Static(t("chat.empty"), classes="empty-hint"))
        await self.mount_all([self._view(m) for m in shown])
        await self._update_earlier_button()
        self.anchor()

    async def show_earlier(self) -> None:
        """Mount the previous page above what is shown, keeping the reader's place."""
        page, self._older = self._older[-PAGE:], self._older[:-PAGE]
        first = self.query(MessageView).first() if self.query(MessageView) else None
        if page:
            await self.mount_all([self._view(m) for m in page], before=first)
        await self._update_earlier_button()
        if first is not None:
            self.scroll_to_widget(first, top=True, animate=False)

    async def _update_earlier_button(self) -> None:
        for button in self.query("#earlier"):
            await button.remove()
        if self._older:
            label = f"▲ {len(self._older)} earlier messages — show more"
            await self.mount(Button(label, id="earlier", classes="earlier"), before=0)

    async def add_user(self, text: str, *, queued: bool = False) -> MessageView:
        """The user's message; ``queued``: sent while a reply streams, it waits for that reply."""
        for hint in self.query(".empty-hint"):
            await hint.remove()
        view = MessageView("user", text)
        if queued:
            view.add_class("-queued")
            view.set_note(t("chat.queued"))
        await self.mount(view)
        self.anchor()
        return view

    async def start_reply(self) -> ReplyView:
        view = ReplyView()
        await self.mount(view)
        self.anchor()
        return view

    async def add_note(self, text: str, *, ok: bool = True) -> MessageView:
        """A memory command's answer or a memory notice (shown, not stored: the memory itself is)."""
        for hint in self.query(".empty-hint"):
            await hint.remove()
        view = MessageView("command", text)
        view.set_class(not ok, "failed")
        await self.mount(view)
        self.anchor()
        return view

    def show_versions(self, notes: dict[int, tuple[int, int, int]]) -> None:
        """``notes[message_id] = (anchor, n, of)`` for messages that start a version."""
        self.version_notes = notes
        for view in self.query(MessageView):
            number = notes.get(view.message_id) if view.message_id is not None else None
            view.set_version(number[1] if number else None, number[2] if number else None)

    def view_of(self, message_id: int) -> MessageView | None:
        return next((v for v in self.query(MessageView) if v.message_id == message_id), None)

    # -- selection -------------------------------------------------------------------------
    def _selectable(self) -> list[MessageView]:
        return [v for v in self.query(MessageView) if v.message_id is not None]

    def on_focus(self) -> None:
        views = self._selectable()
        if self.selected not in views:
            self._select(views[-1] if views else None)

    def on_blur(self) -> None:
        if self.selected is not None:
            self.selected.remove_class("-selected")

    def _select(self, view: MessageView | None) -> None:
        for other in self.query(".-selected"):
            other.remove_class("-selected")
        self.selected = view
        if view is not None:
            view.add_class("-selected")
            self.scroll_to_widget(view, animate=False)

    def action_select(self, step: int) -> None:
        views = self._selectable()
        if not views:
            return
        index = views.index(self.selected) if self.selected in views else len(views)
        self._select(views[max(0, min(len(views) - 1, index + step))])

    def _request(self, action: str, step: int = 0) -> None:
        if self.selected is not None and self.selected.message_id is not None:
            self.post_message(self.ActionRequested(action, self.selected.message_id, step))

    def action_edit(self) -> None:
        self._request("edit")

    def action_regenerate(self) -> None:
        self._request("regenerate")

    def action_versions(self, step: int) -> None:
        self._request("versions", step)

    def action_leave(self) -> None:
        """Back to the message box (where Esc stops a reply being written)."""
        self.screen.query_one("#chat-input").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "earlier":
            event.stop()
            self.run_worker(self.show_earlier(), group="history", exclusive=True)

    @staticmethod
    def _view(message: Message) -> MessageView:
        return MessageView(message.role, message.content, stopped=message.stopped, message_id=message.id)
