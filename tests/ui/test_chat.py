"""Chatting in the real app with a scripted engine: streaming, stopping, refusing input."""

from __future__ import annotations

import threading

import pytest

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.ui.widgets.chat_input import ChatInput
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView, ReplyView

LONG_REPLY = " ".join(f"word{i}" for i in range(200))


def views(app) -> list[MessageView]:
    return list(app.chat.query_one(ChatLog).query(MessageView))


async def test_typed_message_streams_a_reply_and_both_are_stored(settings, db_path, ui):
    engine = ScriptedEngine("Paperclips hold **paper** together.")
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"hello there", "enter")
        await ui.wait_for_reply(pilot)

        shown = views(app)
        assert [(v.role, v.content) for v in shown] == [
            ("user", "hello there"),
            ("assistant", "Paperclips hold **paper** together."),
        ]
        reply = shown[-1]
        assert isinstance(reply, ReplyView)
        assert not reply.stopped
        assert reply.query_one("Markdown").source == "Paperclips hold **paper** together."
        assert app.chat.query_one(ChatInput).text == ""

    stored = ui.stored_messages(db_path)
    assert [(m.role, m.content, m.stopped) for m in stored] == [
        ("user", "hello there", False),
        ("assistant", "Paperclips hold **paper** together.", False),
    ]
    # (a greeting gets the passing remark's aside before it: memory/reply_health.remark_note)
    assert engine.calls[0][-1]["role"] == "user" and engine.calls[0][-1]["content"].endswith("hello there")


async def test_reply_text_appears_while_it_is_still_streaming(settings, ui):
    engine = ui.HoldingEngine(LONG_REPLY, hold_after=3)
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"go", "enter")
        reply = lambda: app.chat.query(ReplyView).last()  # noqa: E731
        await ui.wait_until(pilot, lambda: engine.held.is_set() and reply().content == "word0 word1 word2 ")
        await pilot.pause()
        assert app.chat.generating
        assert "streaming" in reply().classes
        assert reply().query_one("Markdown").source.startswith("word0 word1")
        engine.release.set()
        await ui.wait_for_reply(pilot)
        assert reply().content == LONG_REPLY
        assert "streaming" not in reply().classes


async def test_escape_stops_the_reply_and_keeps_the_partial_text(settings, db_path, ui):
    engine = ui.HoldingEngine(LONG_REPLY, hold_after=3)
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"tell me everything", "enter")
        await ui.wait_until(pilot, engine.held.is_set)
        await pilot.press("escape")
        assert app.chat.stop_requested.is_set()
        engine.release.set()  # the worker checks should_stop before its next token
        await ui.wait_for_reply(pilot)

        reply = views(app)[-1]
        assert reply.stopped
        assert "stopped" in reply.classes
        assert "stopped" in str(reply.query_one(".message-title").render())
        assert reply.content == "word0 word1 word2 "

    stored = ui.stored_messages(db_path)
    assert [(m.role, m.stopped) for m in stored] == [("user", False), ("assistant", True)]
    assert stored[-1].content == "word0 word1 word2 "


@pytest.mark.parametrize("how", ["ctrl+q", "sighup"])
async def test_quitting_mid_reply_stores_the_partial_reply(settings, db_path, ui, how):
    """Ctrl+Q, or SIGHUP (what the terminal sends when its window closes), mid-stream."""
    import os
    import signal

    engine = ui.HoldingEngine(LONG_REPLY, hold_after=2)
    app = ui.scripted_app(settings, engine)

    def release_once_stop_is_requested() -> None:
        if app.chat.stop_requested.wait(10):
            engine.release.set()

    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"long answer please", "enter")
        await ui.wait_until(pilot, engine.held.is_set)
        threading.Thread(target=release_once_stop_is_requested, daemon=True).start()
        if how == "sighup":
            os.kill(os.getpid(), signal.SIGHUP)
        else:
            await pilot.press("ctrl+q")
        await ui.wait_until(pilot, app.chat.reply_done.is_set)
        await pilot.pause()
    assert app.return_code == 0
    stored = ui.stored_messages(db_path)
    assert [(m.role, m.stopped) for m in stored] == [("user", False), ("assistant", True)]
    assert stored[-1].content == "word0 word1 "


async def test_rejected_input_is_kept_in_the_box_and_not_stored(settings, db_path, ui, notifications):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        chat_input = app.chat.query_one(ChatInput)
        chat_input.text = "binary\x00data"
        await pilot.press("enter")
        await pilot.pause()
        assert chat_input.text == "binary\x00data"
        assert "NUL bytes" in notifications.text()
        assert not app.chat.generating

        chat_input.text = "   "
        await pilot.press("enter")
        await pilot.pause()
        assert "empty" in notifications.text()
    assert ui.stored_messages(db_path) == []


async def test_sending_while_a_reply_streams_queues_the_message_until_the_reply_ends(settings, db_path, ui):
    engine = ui.HoldingEngine(LONG_REPLY, hold_after=1)
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"first", "enter")
        await ui.wait_until(pilot, engine.held.is_set)
        try:
            await pilot.press(*"second", "enter")
            assert app.chat.query_one(ChatInput).text == ""
            assert [text for text, _view in app.chat.queued] == ["second"]
        finally:
            engine.hold_after = 10**6
            engine.release.set()
        await ui.wait_until(pilot, lambda: not app.chat.queued)
        await ui.wait_for_reply(pilot)
    assert [m.content for m in ui.stored_messages(db_path) if m.role == "user"] == ["first", "second"]


async def test_enter_sends_and_ctrl_j_adds_a_line(settings, db_path, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press(*"line one", "ctrl+j", *"line two")
        assert app.chat.query_one(ChatInput).text == "line one\nline two"
        await pilot.press("enter")
        await ui.wait_for_reply(pilot)
    assert ui.stored_messages(db_path)[0].content == "line one\nline two"


async def test_pasted_multiline_text_is_sent_whole(settings, db_path, ui):
    document = "\n".join(f"row {i}: value {i * 7}" for i in range(2000))
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        app.chat.query_one(ChatInput).insert(document)
        await pilot.press("enter")
        await ui.wait_for_reply(pilot)
    assert ui.stored_messages(db_path)[0].content == document


class FailingEngine(ScriptedEngine):
    """Streams two pieces, then fails the way llama.cpp does when the window overflows."""

    def stream_chat(self, messages, **kwargs):
        from desktop_app.engine.errors import ContextFullError

        yield "partial "
        yield "answer"
        raise ContextFullError("the prompt does not fit the 4096-token context window")


async def test_a_failing_reply_keeps_what_streamed_and_says_why(settings, db_path, ui, notifications):
    app = ui.scripted_app(settings, FailingEngine())
    async with app.run_test(size=ui.size) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        await pilot.press(*"question", "enter")
        await ui.wait_for_reply(pilot)
        reply = views(app)[-1]
        assert reply.stopped
        assert "failed" in str(reply.query_one(".message-title").render())
        assert reply.content == "partial answer"
        assert ("the prompt does not fit the 4096-token context window", "error") in notifications
        await pilot.press(*"again", "enter")  # the app is usable afterwards
        await ui.wait_for_reply(pilot)
    stored = ui.stored_messages(db_path)
    assert [(m.role, m.content, m.stopped) for m in stored[:2]] == [
        ("user", "question", False), ("assistant", "partial answer", True)]
