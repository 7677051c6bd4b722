"""Settings (persisted, model swapped in a worker), the context meter and inspector, help,
themes, Chinese UI text and the command palette."""

from __future__ import annotations

import tomllib

import pytest
from textual.widgets import Input, Select

from desktop_app import paths
from desktop_app.config import Settings
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.ui.app import PaperclipApp
from desktop_app.ui.palette import PaperclipCommands
from desktop_app.ui.screens.help import HelpScreen
from desktop_app.ui.screens.inspector import InspectorScreen
from desktop_app.ui.screens.settings import SettingsScreen
from desktop_app.ui.widgets.chat_log import ChatLog
from desktop_app.ui.widgets.context_meter import ContextMeter
from tests.support.embedders import HashingEmbedder, SlowEmbedder


async def test_settings_are_saved_to_the_config_file_and_the_model_is_swapped(settings, tmp_path, ui):
    loads: list[Settings] = []

    def factory(chosen: Settings) -> ScriptedEngine:
        loads.append(chosen)
        return ScriptedEngine("ok", n_ctx=chosen.ctx)

    app = PaperclipApp(settings, engine_factory=factory)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f9")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#set-ctx", Input).value = "2048"
        screen.query_one("#set-theme", Select).value = "light"
        await pilot.press("ctrl+s")
        await ui.wait_until(pilot, lambda: len(loads) == 2 and app.chat.engine is not None
                            and app.chat.engine.n_ctx == 2048)
        assert app.theme == "textual-light"
        assert app.chat.query_one(ContextMeter).window == 2048
    saved = tomllib.loads(paths.config_file().read_text(encoding="utf-8"))
    assert saved == {"ctx": 2048, "theme": "light"}  # not --db or --model of this run


async def test_invalid_settings_are_refused_with_the_reason(settings, ui, notifications):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f9")
        await pilot.pause()
        app.screen.notify = notifications
        app.screen.query_one("#set-temperature", Input).value = "9"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "temperature" in notifications.text()
    assert not paths.config_file().exists()


async def test_context_meter_shows_the_last_prompt_and_warns_past_80_percent(settings, ui):
    engine = ScriptedEngine("ok", n_ctx=256)
    app = ui.scripted_app(settings.model_copy(update={"mode": "full"}), engine)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        meter = app.chat.query_one(ContextMeter)
        assert (meter.used, meter.window) == (0, 256)
        await ui.send(pilot, "short question")
        record = app.store.list_turn_log(app.chat.session.id)[-1].record
        assert meter.used == record.total_tokens
        assert f"{meter.used}/256" in str(meter.render())
        assert "-warning" not in meter.classes
        while "-warning" not in meter.classes:  # "full" mode never drops turns: the window fills up
            await ui.send(pilot, "a longer message with quite a few more words in it, " * 3)
        assert meter.share > 0.8


async def test_inspector_shows_layers_and_past_turns_after_a_restart(settings, ui):
    app = ui.scripted_app(settings, ScriptedEngine("Noted."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Never modify the source CSV.")
        await ui.send(pilot, "Can I modify the source CSV?")

    app = ui.scripted_app(settings, ScriptedEngine("Noted."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f5")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InspectorScreen)
        assert [n for n, _ in screen.entries] == [1, 2]
        bars = ui.text_of(screen.query_one("#inspector-bars"))
        assert "anchors" in bars
        assert "reserve" in bars
        assert "window 4096" in bars
        included = ui.text_of(screen.query_one("#inspector-included"))
        assert "#1 [constraint] Never modify the source CSV" in included
        assert "replayed #1 Never modify the source CSV" in included  # the rule, next to the question
        recall = ui.text_of(screen.query_one("#inspector-recall"))
        # Nothing was archived yet, so no recall hit entered the prompt: the log says so.
        assert "no recall hits" in recall
        assert "recomputed" not in recall
        await pilot.press("left")
        await pilot.pause()
        assert screen.index == 0
        assert "added #1" in ui.text_of(screen.query_one("#inspector-memory"))
        await pilot.press("escape")
        assert not isinstance(app.screen, InspectorScreen)


async def test_inspector_says_which_items_were_superseded(settings, ui):
    app = ui.scripted_app(settings, ScriptedEngine("Noted."))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "My budget is 5000 yuan.")
        await ui.send(pilot, "Actually the budget is 8000.")
        await pilot.press("f5")
        await pilot.pause()
        left_out = ui.text_of(app.screen.query_one("#inspector-excluded"))
        assert "superseded by #2: My budget is 5000 yuan" in left_out
        await pilot.press("left")
        await pilot.pause()
        assert "superseded" not in ui.text_of(app.screen.query_one("#inspector-excluded"))


async def test_help_lists_keys_and_memory_commands(settings, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = ui.text_of(app.screen.query_one("#help-text"))
        for expected in ("Memory", "Inspector", "Regenerate", "f3 / ^f", "/memory", "/correct ID VALUE"):
            assert expected in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_chinese_ui_text(settings, ui):
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert "还没有消息" in str(app.chat.query_one(ChatLog).query_one(".empty-hint").render())
        descriptions = {b.description for bs in app.chat._bindings.key_to_bindings.values() for b in bs}
        assert {"记忆", "上下文", "搜索", "帮助"} <= descriptions
        # The app's own entries too: Ctrl+Q and the command palette.
        app_descriptions = {b.description for bs in app._bindings.key_to_bindings.values() for b in bs}
        assert "退出" in app_descriptions
        assert app.COMMAND_PALETTE_DISPLAY == "命令面板"


async def test_command_palette_has_an_entry_for_every_action(settings, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        provider = PaperclipCommands(app.screen, None)
        names = {name for name, _, _ in provider._commands()}
    for action in ("Toggle memory panel", "Context inspector", "Search all sessions", "Regenerate last reply",
                   "Edit last message", "Export session", "Import conversations", "Settings", "Session settings",
                   "Toggle dark/light theme", "Help", "Forget a topic", "What do you remember?"):
        assert action in names


async def test_file_picker_lists_only_gguf_files_and_returns_the_chosen_one(settings, tmp_path, ui):
    from desktop_app.ui.screens.file_picker import FilePicker, FilteredTree

    models = tmp_path / "models"
    models.mkdir()
    (models / "chat.gguf").write_bytes(b"GGUF")
    (models / "notes.txt").write_text("x")
    chosen = []
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        app.push_screen(FilePicker(models), chosen.append)
        await pilot.pause()
        tree = app.screen.query_one(FilteredTree)
        assert [p.name for p in tree.filter_paths(models.iterdir())] == ["chat.gguf"]
        app.screen.query_one("#picker-path", Input).value = str(models / "chat.gguf")
        app.screen.query_one("#picker-path", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
    assert chosen == [models / "chat.gguf"]


async def test_theme_toggle_switches_to_light_and_back_and_is_remembered(settings, ui):
    app = ui.scripted_app(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert app.theme == "textual-dark"
        app.toggle_theme()
        await pilot.pause()
        assert app.theme == "textual-light"
        assert app.settings.theme == "light"
        app.toggle_theme()
        assert app.theme == "textual-dark"
    assert tomllib.loads(paths.config_file().read_text(encoding="utf-8")) == {}


async def test_turns_are_embedded_in_the_background_after_each_reply(settings, db_path, ui):
    from desktop_app.memory.store import Store

    with Store(db_path) as store:
        if not store.vec_enabled:
            import pytest

            pytest.skip("sqlite-vec cannot be loaded here")
    app = PaperclipApp(settings, engine_factory=lambda _s: ScriptedEngine("ok"),
                       embedder_factory=lambda _s: HashingEmbedder("hash-8", dim=8))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "Remember the blue notebook.")
        with Store(db_path) as store:
            await ui.wait_until(pilot, lambda: store.count_pending_embeddings() == 0)
            assert store.recall_meta()["embed_model"] == "hash-8"


def test_inspector_lists_logged_recall_hits_with_a_column_per_signal():
    from desktop_app.memory.core.recall_hits import RecallHit
    from desktop_app.memory.core.records import RecallLog, TurnRecord
    from desktop_app.ui.widgets.turn_record import recall_hits

    common = {"session_id": 1, "created_at": 1.7e9, "fused": 0.1}
    record = TurnRecord(mode="layered", total_tokens=1, budget=1, n_ctx=1, recall=RecallLog(hits=[
        RecallHit(message_id=5, turn=3, score=0.42, role="user", snippet="The warehouse door code is 4417.",
                  signals={"bm25": {"score": 12.5, "rank": 1}, "vector": {"score": 0.81, "rank": 2}}, **common),
        RecallHit(message_id=6, turn=4, score=0.2, role="assistant", snippet="Noted.", signals={}, **common),
    ]))
    import io

    from rich.console import Console

    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(recall_hits(record))
    shown = console.file.getvalue()
    assert "bm25" in shown
    assert "vector" in shown
    assert "12.5 #1" in shown
    assert "0.81 #2" in shown
    assert "user: The warehouse door code is 4417." in shown
    assert "recomputed" not in shown


async def test_sending_a_message_interrupts_background_memory_jobs_which_resume_when_idle(settings, db_path, ui):
    from desktop_app.memory.store import Store

    with Store(db_path) as store:
        if not store.vec_enabled:
            import pytest

            pytest.skip("sqlite-vec cannot be loaded here")
        session = store.session_named("long")
        for i in range(1500):  # a long backlog of turns waiting for vectors
            store.add_message(session.id, "user" if i % 2 == 0 else "assistant", f"an old turn, number {i}")
    # each batch takes a while: the background job is still running when the user sends the next message
    embedder = SlowEmbedder("hash-8", dim=8, delay=0.3)  # slow enough to still be running under load
    app = PaperclipApp(settings, engine_factory=lambda _s: ScriptedEngine("ok"),
                       embedder_factory=lambda _s: embedder, session_name="long")
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        await ui.wait_until(pilot, lambda: embedder.calls >= 1)  # the jobs worker is embedding
        await ui.send(pilot, "And a new question.")

        def postponed() -> bool:  # the worker thread records the outcome once the job has returned
            return any(o.status == "postponed" for o in app.chat.jobs.history)

        await ui.wait_until(pilot, postponed, timeout=15)
        assert postponed(), "the reembed job yielded the model to the user's turn"
        with Store(db_path) as store:
            await ui.wait_until(pilot, lambda: store.count_pending_embeddings() == 0, timeout=30)
        assert app.chat.jobs.history[-1].status == "done"


async def test_the_settings_screen_offers_the_model_list_and_flags_missing_templates(settings, tmp_path, ui):
    from textual.widgets import OptionList

    from desktop_app.manifest import catalog
    from desktop_app.ui.screens.model_chooser import ModelChooser
    from tests.unit.test_models import write_gguf

    write_gguf(tmp_path / "mine" / "no-template.gguf", name="Bare", template=None)
    app = ui.scripted_app(settings.model_copy(update={"model_dirs": [tmp_path / "mine"]}))
    async with app.run_test(size=(140, 40)) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f9")
        await pilot.pause()
        await pilot.click("#choose-model")
        await ui.wait_until(pilot, lambda: isinstance(app.screen, ModelChooser) and app.screen.paths)
        chooser = app.screen
        labels = [str(o.prompt) for o in chooser.query_one("#model-options", OptionList).options]
        assert any(label.startswith("tiny") for label in labels)
        flagged = next(label for label in labels if "no-template.gguf" in label)
        assert "no chat template" in flagged
        tiny = catalog()["tiny"]
        chooser.query_one("#model-options", OptionList).highlighted = chooser.paths.index(tiny.path) \
            if tiny.installed else labels.index(flagged)
        await pilot.press("enter")
        await pilot.pause()
        chosen = app.screen.query_one("#set-model").value
        assert chosen.endswith(tiny.file if tiny.installed else "no-template.gguf")


async def test_the_settings_screen_edits_every_user_key(settings, ui, tmp_path):
    from desktop_app import paths

    app = ui.scripted_app(settings)
    async with app.run_test(size=(140, 50)) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f9")
        await pilot.pause()
        screen = app.screen
        for key in ("max_tokens", "repeat_penalty", "top_p", "seed", "system_prompt", "model_dirs", "engine"):
            assert screen.query_one(f"#set-{key}", Input)
        screen.query_one("#set-max_tokens", Input).value = "256"
        screen.query_one("#set-repeat_penalty", Input).value = "1.05"
        screen.query_one("#set-model_dirs", Input).value = f"{tmp_path / 'a'}, {tmp_path / 'b'}"
        await pilot.press("ctrl+s")
        await ui.settle(pilot)
        assert app.settings.max_tokens == 256
        assert app.settings.repeat_penalty == 1.05
        assert app.settings.model_dirs == [tmp_path / "a", tmp_path / "b"]
    saved = tomllib.loads(paths.config_file().read_text(encoding="utf-8"))
    assert saved["max_tokens"] == 256
    assert saved["model_dirs"] == [str(tmp_path / "a"), str(tmp_path / "b")]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_settings_buttons_stay_on_screen_at_small_sizes(settings, ui, size):
    app = ui.scripted_app(settings)
    async with app.run_test(size=size) as pilot:
        await ui.wait_for_model(pilot)
        await pilot.press("f9")
        await pilot.pause()
        for button in ("#save", "#cancel"):
            region = app.screen.query_one(button).region
            assert region.height >= 1, (button, region)
            assert region.bottom <= size[1], (button, region)
            assert region.right <= size[0], (button, region)
        assert app.screen.query_one("#set-model").region.height >= 1, "the form still shows its first fields"
