"""Settings precedence: defaults < config.toml < PAPERCLIP_* env < flags."""

import pytest

from desktop_app.config import ConfigError, load_settings, save_config


def test_file_then_env_then_flags(isolated_home, monkeypatch):
    config = isolated_home / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('ctx = 1024\nthreads = 2\nmode = "sliding"\n')
    assert load_settings().ctx == 1024
    monkeypatch.setenv("PAPERCLIP_CTX", "2048")
    assert load_settings().ctx == 2048
    settings = load_settings({"ctx": 512, "threads": None})
    assert (settings.ctx, settings.threads, settings.mode) == (512, 2, "sliding")


def test_unknown_key_and_bad_toml_are_clear_errors(isolated_home):
    config = isolated_home / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("colour = 'red'\n")
    with pytest.raises(ConfigError, match="colour"):
        load_settings()
    config.write_text("ctx = = 3\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings()


def test_saved_settings_load_back(isolated_home, tmp_path):
    settings = load_settings({"ctx": 8192, "gpu_layers": -1, "model": tmp_path / "m.gguf"})
    path = save_config(settings)
    assert path.parent.parent == isolated_home
    again = load_settings()
    assert (again.ctx, again.gpu_layers, again.model) == (8192, -1, tmp_path / "m.gguf")
