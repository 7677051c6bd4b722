"""Model loading: the UI stays usable while loading, and after a failure to load."""

from __future__ import annotations

import threading

import pytest

from desktop_app.config import Settings
from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.store import Store
from desktop_app.paths import models_dir
from desktop_app.ui.app import PaperclipApp
from desktop_app.ui.widgets.chat_input import ChatInput
from desktop_app.ui.widgets.chat_log import ChatLog, MessageView
from desktop_app.ui.widgets.model_status import ModelStatus


def seed_history(db_path, name="history", turns=3):
    with Store(db_path) as store:
        session = store.create_session(name)
        for i in range(turns):
            store.add_message(session.id, "user", f"question {i}")
            store.add_message(session.id, "assistant", f"answer {i}")


async def test_missing_model_shows_the_error_and_history_stays_browsable(tmp_path, db_path, ui, notifications):
    seed_history(db_path)
    settings = Settings(db=db_path, model=tmp_path / "missing.gguf")
    app = PaperclipApp(settings)  # the real llama.cpp factory
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        status = app.chat.query_one(ModelStatus)
        assert app.chat.engine is None
        assert "model file not found" in app.chat.model_error
        assert "missing.gguf" in app.chat.model_error
        assert "-failed" in status.classes
        assert "missing.gguf" in status.detail

        views = list(app.chat.query_one(ChatLog).query(MessageView))
        assert [v.content for v in views] == [f"{kind} {i}" for i in range(3) for kind in ("question", "answer")]

        app.notify = notifications
        await pilot.press(*"still there?", "enter")
        await pilot.pause()
        assert "model is not loaded" in notifications.text()
        assert app.chat.query_one(ChatInput).text == "still there?"

        await pilot.press("ctrl+n", *"another", "enter")  # sessions still work
        await pilot.pause()
        assert app.chat.session.name == "another"
    assert len(ui.stored_messages(db_path, "history")) == 6


async def test_corrupt_model_file_is_reported_in_one_sentence(tmp_path, db_path, ui):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"this is not a model")
    app = PaperclipApp(Settings(db=db_path, model=broken))
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert "not a GGUF model file" in app.chat.model_error
        assert "\n" not in app.chat.model_error


async def test_unexpected_loader_errors_do_not_crash_the_app(settings, ui):
    def explode(_settings):
        raise RuntimeError("driver exploded\nwith a second line")

    app = PaperclipApp(settings, engine_factory=explode)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert app.chat.model_error == "could not load scripted.gguf: RuntimeError: driver exploded"


async def test_ui_responds_while_the_model_loads(settings, tmp_path, ui):
    gate = threading.Event()
    model_file = tmp_path / "big.gguf"
    model_file.write_bytes(b"GGUF" + b"\0" * 2048)

    def slow_factory(_settings):
        gate.wait(10)
        return ScriptedEngine("ready now")

    app = PaperclipApp(settings.model_copy(update={"model": model_file}), engine_factory=slow_factory)
    async with app.run_test(size=ui.size) as pilot:
        await pilot.pause(0.1)
        status = app.chat.query_one(ModelStatus)
        assert "-loading" in status.classes
        assert "big.gguf" in status.detail
        assert "(2 KB)" in status.detail
        await pilot.press("ctrl+b")  # the UI thread is free while the worker loads
        assert not app.chat.query_one("#sidebar").display
        gate.set()
        await ui.wait_for_model(pilot)
        await pilot.pause()
        assert "-ready" in status.classes
        assert "-loading" not in status.classes
        assert "loaded in" in status.detail


async def test_reload_model_after_fixing_the_file(tmp_path, db_path, ui):
    attempts = []

    def flaky(_settings):
        attempts.append(1)
        if len(attempts) == 1:
            from desktop_app.engine.errors import ModelLoadError

            raise ModelLoadError("model file not found: x.gguf")
        return ScriptedEngine("back")

    app = PaperclipApp(Settings(db=db_path, model=tmp_path / "x.gguf"), engine_factory=flaky)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert app.chat.model_error
        app.chat.action_reload_model()
        await ui.wait_until(pilot, lambda: app.chat.engine is not None)
        await pilot.press(*"hi", "enter")
        await ui.wait_for_reply(pilot)
    assert [m.content for m in ui.stored_messages(db_path)] == ["hi", "back"]


DEFAULT_MODEL = models_dir() / "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.mark.model
@pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="default GGUF not installed (make models)")
async def test_end_to_end_with_the_real_default_model(db_path, ui):
    pytest.importorskip("llama_cpp")
    settings = Settings(db=db_path, model=DEFAULT_MODEL, ctx=1024, max_tokens=24, temperature=0.0, seed=1)
    app = PaperclipApp(settings)
    async with app.run_test(size=ui.size) as pilot:
        await ui.wait_for_model(pilot)
        assert app.chat.model_error is None, app.chat.model_error
        await pilot.press(*"Say hello.", "enter")
        await ui.wait_for_reply(pilot)
        reply = list(app.chat.query_one(ChatLog).query(MessageView))[-1]
        assert reply.role == "assistant"
        assert reply.content.strip()
    stored = ui.stored_messages(db_path)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[-1].content == reply.content


@pytest.mark.model
def test_the_tui_loads_models_without_redirecting_the_terminal(monkeypatch, tmp_path):
    """llama-cpp-python's verbose=False points fds 1 and 2 at /dev/null while it loads; Textual
    draws on fd 2 from the UI thread meanwhile, so frames were lost and the screen froze until a
    key was pressed. The TUI's factories load without touching the descriptors, and quietly."""
    import os

    from desktop_app.config import load_settings
    from desktop_app.manifest import catalog
    from desktop_app.ui.inference import default_embedder_factory, default_engine_factory

    tiny = catalog()["tiny"]
    if not tiny.installed:
        pytest.skip("tiny model missing: run `make models`")
    redirected = []
    real_dup2 = os.dup2
    monkeypatch.setattr(os, "dup2", lambda fd, fd2, *a, **k: (redirected.append(fd2), real_dup2(fd, fd2, *a, **k))[1])
    settings = load_settings({"model": tiny.path, "db": tmp_path / "x.db", "ctx": 512})
    engine = default_engine_factory(settings)
    try:
        embedder = default_embedder_factory(settings)
    except Exception:  # no embedding model installed: the chat model alone still shows it
        embedder = None
    assert redirected == [], "no file descriptor may be redirected while the TUI draws"
    assert engine.n_ctx == 512
    assert embedder is None or embedder.dim > 0
