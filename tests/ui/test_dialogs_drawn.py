"""A dialog is on the terminal before it takes keys.

The new-session dialog (Ctrl+N, or the palette's "New session") at 80×24, 120×40 and 200×50, in
Chinese and English; pushed while the app-wide batch is held (a streamed Markdown reply holds it
for every write, and Textual paints nothing meanwhile); while a reply streams; and while background
model work runs (it gives the CPU back while a dialog is open)."""

from __future__ import annotations

import threading
import time

import pytest
from textual.widgets import Input

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.background.queue import MemoryJob
from desktop_app.ui.i18n import set_lang
from desktop_app.ui.screens.dialogs import NameDialog
from desktop_app.ui.widgets.chat_input import ChatInput

SIZES = [(80, 24), (120, 40), (200, 50)]
TITLE = {"zh": "新会话", "en": "New session"}
OK = {"zh": "确定", "en": "OK"}


def screen_rows(app) -> list[str]:
    return ["".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips()]


async def open_new_session(pilot, how: str, lang: str) -> None:
    if how == "key":
        await pilot.press("ctrl+n")
    else:
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*("新建会话" if lang == "zh" else "New session"))
        await pilot.pause(0.3)
        await pilot.press("enter")


@pytest.mark.parametrize("how", ["key", "palette"])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_new_session_dialog_is_drawn_at_every_size(settings, ui, size, lang, how):
    set_lang(lang)
    app = ui.scripted_app(settings.model_copy(update={"lang": lang}))
    async with app.run_test(size=size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.settle(pilot)
        await open_new_session(pilot, how, lang)
        await ui.wait_until(pilot, lambda: isinstance(app.screen, NameDialog))
        await pilot.pause()
        box = app.screen.query_one(".dialog-box")
        assert box.region.width >= 30
        assert box.region.height >= 7
        assert app.screen.region.contains_region(box.region)
        rows = "\n".join(screen_rows(app))
        assert TITLE[lang] in rows
        assert OK[lang] in rows
        await pilot.press(*"plans", "enter")
        await ui.settle(pilot)
        assert app.chat.session.name == "plans"


async def test_keys_wait_until_the_dialog_is_on_the_terminal(settings, ui):
    """While something holds the app-wide batch nothing is painted; the dialog pushed meanwhile
    keeps what is typed until its first frame, then gets it all, in order."""
    set_lang("zh")
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.settle(pilot)
        app._begin_batch()  # as a Markdown write or a footer rebuild does, only longer
        try:
            await pilot.press("ctrl+n")
            await pilot.pause(0.1)
            dialog = app.screen
            assert isinstance(dialog, NameDialog)
            assert not dialog.drawn
            await pilot.press(*"预算", "backspace", "算")
            await pilot.pause(0.1)
            field = dialog.query_one("#name-input", Input)
            assert field.value == "会话 2", "nothing typed reaches a dialog the user cannot see"
            assert app.chat.query_one(ChatInput).text == ""
        finally:
            app._end_batch()
        await ui.wait_until(pilot, lambda: dialog.drawn and field.value == "预算")
        await pilot.press("enter")
        await ui.settle(pilot)
        assert app.chat.session.name == "预算"


async def test_ctrl_n_while_a_reply_streams_says_why_in_chinese_and_keeps_the_keys(settings, ui, notifications):
    set_lang("zh")
    engine = ui.HoldingEngine("好的 我 在 写 回复 。", hold_after=2)
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}), engine)
    async with app.run_test(size=(120, 40)) as pilot:
        app.notify = notifications
        await ui.wait_for_model(pilot)
        chat_input = app.chat.query_one(ChatInput)
        chat_input.text = "写一段话"
        await pilot.press("enter")
        await ui.wait_until(pilot, engine.held.is_set)
        await pilot.press("ctrl+n", *"下一句")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, NameDialog)
        assert "请先停止回复（Esc）再新建会话。" in notifications.text()
        assert chat_input.text == "下一句"
        engine.release.set()
        await ui.wait_for_reply(pilot)


class SlowJob(MemoryJob):
    """Background work in small steps, as warming or the memory pass runs: it yields at a stop."""

    name = "slow"

    def __init__(self, steps: int = 400):
        super().__init__(None)
        self.steps, self.done = steps, 0
        self.started = threading.Event()

    def run(self, ctx):
        self.started.set()
        while self.done < self.steps:
            if ctx.should_stop():
                return self.outcome("postponed", f"{self.done} steps")
            time.sleep(0.01)
            self.done += 1
        return self.outcome("done")


async def test_background_work_gives_way_while_a_dialog_is_open(settings, ui):
    app = ui.scripted_app(settings, ScriptedEngine("ok"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.settle(pilot)
        chat = app.chat
        job = SlowJob()
        chat.jobs.submit(job)
        chat.run_memory_jobs()
        await ui.wait_until(pilot, job.started.is_set)
        await pilot.press("ctrl+n")
        await ui.wait_until(pilot, lambda: any(o.job == "slow" and o.status == "postponed" for o in chat.jobs.history))
        paused_at = job.done
        await pilot.pause(0.5)
        assert job.done == paused_at, "no background work while the dialog is open"
        assert job.done < job.steps
        await pilot.press("escape")
        await ui.wait_until(pilot, lambda: job.done == job.steps, timeout=20)
