"""The conversation: a scrollable column of message views, the newest at the bottom.

Long sessions (hundreds of turns) would be slow to mount in full, so only the last
``PAGE`` messages are shown; a button at the top mounts the previous page on demand.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Label, Markdown, Static

from desktop_app.memory.models import Message

PAGE = 100

ROLE_TITLES = {"user": "you", "assistant": "paperclip", "system": "system"}


class MessageView(Vertical):
    """One stored (or streaming) message: a title line and the body."""

    def __init__(self, role: str, content: str = "", *, stopped: bool = False,
                 message_id: int | None = None) -> None:
        super().__init__(classes=f"message {role}")
        self.role = role
        self.content = content
        self.message_id = message_id
        self.stopped = stopped
        self.set_class(stopped, "stopped")

    def compose(self) -> ComposeResult:
        yield Label(self._title(), classes="message-title", markup=False)
        if self.role == "assistant":
            yield Markdown(self.content, classes="message-body")
        else:
            # Pasted documents are shown verbatim: no markup, no Markdown surprises.
            yield Static(self.content, markup=False, classes="message-body")

    def _title(self, note: str = "") -> str:
        title = ROLE_TITLES.get(self.role, self.role)
        if self.stopped:
            note = note or "stopped"
        return f"{title} · {note}" if note else title

    def set_note(self, note: str) -> None:
        """Show a short state next to the role ("thinking…", "stopped", "failed")."""
        self.query_one(".message-title", Label).update(self._title(note))


class ReplyView(MessageView):
    """The assistant message being generated; text arrives through a Markdown stream."""

    def __init__(self) -> None:
        super().__init__("assistant")
        self.add_class("streaming")
        self._stream = None

    def on_mount(self) -> None:
        self.set_note("thinking…")

    async def append(self, text: str) -> None:
        if self._stream is None:
            self.set_note("writing…")
            self._stream = Markdown.get_stream(self.query_one(Markdown))
        self.content += text
        await self._stream.write(text)

    async def finish(self, final_text: str | None, *, stopped: bool, note: str = "") -> None:
        """Flush the stream and show exactly what was stored (the source of truth)."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        markdown = self.query_one(Markdown)
        if final_text is not None and final_text != markdown.source:
            await markdown.update(final_text)
        self.content = final_text if final_text is not None else self.content
        self.stopped = stopped
        self.set_class(stopped, "stopped")
        self.remove_class("streaming")
        self.set_note(note or ("stopped" if stopped else ""))


class ChatLog(VerticalScroll):
    """The messages of the current session."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._older: list[Message] = []

    async def show_messages(self, messages: list[Message]) -> None:
        """Replace the log with the last page of ``messages`` (oldest first)."""
        await self.remove_children()
        self._older = list(messages[:-PAGE]) if len(messages) > PAGE else []
        shown = messages[-PAGE:]
        if not shown:
            await self.mount(Static("No messages yet — type below and press Enter.", classes="empty-hint"))
        await self.mount_all([self._view(m) for m in shown])
        await self._update_earlier_button()
        self.scroll_end(animate=False, immediate=True)
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

    async def add_user(self, text: str) -> MessageView:
        for hint in self.query(".empty-hint"):
            await hint.remove()
        view = MessageView("user", text)
        await self.mount(view)
        self.anchor()
        return view

    async def start_reply(self) -> ReplyView:
        view = ReplyView()
        await self.mount(view)
        self.anchor()
        return view

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "earlier":
            event.stop()
            self.run_worker(self.show_earlier(), group="history", exclusive=True)

    @staticmethod
    def _view(message: Message) -> MessageView:
        return MessageView(message.role, message.content, stopped=message.stopped, message_id=message.id)
