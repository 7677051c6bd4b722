"""Enter while a reply streams: the message is shown as queued (in the UI language) and sent
when the reply ends — never ignored with the text sitting in the box."""

from __future__ import annotations

from desktop_app.ui.i18n import set_lang
from desktop_app.ui.widgets.chat_input import ChatInput
from desktop_app.ui.widgets.chat_log import MessageView, ReplyView


def asked(engine, text: str) -> bool:
    return any(call[-1]["content"].endswith(text) for call in engine.calls)


def user_views(app) -> list[MessageView]:
    return [v for v in app.chat.query(MessageView) if v.role == "user"]


async def test_a_message_sent_while_a_reply_streams_is_queued_then_sent(settings, ui):
    set_lang("zh")
    engine = ui.HoldingEngine("好的 我 记下 了 。", hold_after=2)
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}), engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
        chat_input = app.chat.query_one(ChatInput)
        chat_input.text = "预算是五千元。"
        await pilot.press("enter")
        await ui.wait_until(pilot, engine.held.is_set)

        try:
            chat_input.text = "那么房租呢？"
            await pilot.press("enter")
            await pilot.pause()
            assert chat_input.text == "", "the message left the box"
            queued = user_views(app)[-1]
            assert queued.content == "那么房租呢？"
            assert "-queued" in queued.classes
            title = str(queued.query_one(".message-title").render())
            assert "排队中" in title
            assert "回复结束后发送" in title
            assert not asked(engine, "那么房租呢？"), "not sent while the first reply streams"
        finally:
            engine.hold_after = 10**6  # the next reply streams through
            engine.release.set()
        await ui.wait_until(pilot, lambda: asked(engine, "那么房租呢？"))
        await ui.wait_for_reply(pilot)
        await ui.settle(pilot)
        assert "-queued" not in queued.classes
        views = [v for v in app.chat.query(MessageView) if v.role != "command"]  # not the memory-in-use notes
        # the queued message is answered below itself, after the first exchange
        assert [v.role for v in views] == ["user", "assistant", "user", "assistant"]
        assert isinstance(views[-1], ReplyView)
        assert views[2] is queued
    stored = ui.stored_messages(settings.db_path)
    assert [(m.role, m.content) for m in stored if m.role == "user"] == [("user", "预算是五千元。"),
                                                                         ("user", "那么房租呢？")]


async def test_a_queued_message_waits_for_a_stopped_reply_too(settings, ui):
    engine = ui.HoldingEngine("one two three four five", hold_after=2)
    app = ui.scripted_app(settings, engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        chat_input = app.chat.query_one(ChatInput)
        chat_input.text = "first"
        await pilot.press("enter")
        await ui.wait_until(pilot, engine.held.is_set)
        try:
            chat_input.text = "second"
            await pilot.press("enter")
            await pilot.pause()
            title = str(user_views(app)[-1].query_one(".message-title").render())
            assert "queued — sent when this reply ends" in title
            await pilot.press("escape")  # stops the streaming reply; the queued message goes next
        finally:
            engine.hold_after = 10**6  # the next reply streams through
            engine.release.set()
        await ui.wait_until(pilot, lambda: asked(engine, "second"))
        await ui.wait_for_reply(pilot)
