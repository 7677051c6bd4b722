"""The language is a setting in F9 — in view without scrolling — and a ``--lang zh`` run can be
kept: Save writes it to the config file, so the next start and the headless commands speak it."""

from __future__ import annotations

import tomllib

import pytest
from textual.widgets import Select

from desktop_app import paths
from desktop_app.config import load_settings
from desktop_app.ui.i18n import set_lang
from desktop_app.ui.screens.settings import SettingsScreen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_lang_flag_is_kept_by_saving_the_settings(settings, ui, size, notifications):
    set_lang("zh")
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}))  # as `paperclip --lang zh`
    async with app.run_test(size=size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.settle(pilot)
        app.notify = notifications
        await pilot.press("f9")
        await ui.wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        await pilot.pause()
        field = app.screen.query_one("#set-lang", Select)
        form = app.screen.query_one("#settings-form")
        assert field.value == "zh"
        assert form.region.contains_region(field.region), "the language is in view without scrolling"
        assert "语言" in str(app.screen.query_one("#set-lang").parent.query_one("Label").render())
        await pilot.press("ctrl+s")
        await ui.settle(pilot)
        assert not isinstance(app.screen, SettingsScreen)
    saved = tomllib.loads(paths.config_file().read_text(encoding="utf-8"))
    assert saved.get("lang") == "zh"
    assert load_settings().lang == "zh"  # what `paperclip ask` and the other headless commands read
    assert "以后启动和命令行命令也会使用它" in notifications.text()


async def test_a_run_in_an_unsaved_language_says_how_to_keep_it(settings, ui, notifications, monkeypatch):
    from desktop_app.ui.app import PaperclipApp

    set_lang("zh")
    monkeypatch.setattr(PaperclipApp, "notify", lambda self, message, **kw: notifications(message, **kw))
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.wait_for_model(pilot)
    assert "按 F9 再保存" in notifications.text()
