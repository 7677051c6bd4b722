"""Prompt wording lives in assets/prompts only, complete in both languages, and a broken
install says so in one line."""

import pytest

from desktop_app import paths, prompts
from desktop_app.memory.prompt.render import text_for
from desktop_app.memory.prompt.summary_text import render_summary


@pytest.mark.parametrize("lang", prompts.LANGS)
def test_every_template_exists_in_both_languages(lang):
    loaded = prompts.templates(lang)  # raises when a required key is missing
    assert loaded["system"].strip()
    assert set(prompts.REQUIRED["layers"]) <= set(loaded["layers"])
    assert text_for(lang)["rules"] == loaded["layers"]["rules"]


def test_the_memory_core_reads_its_labels_from_the_assets():
    assert text_for("zh")["join"] == "；"
    assert text_for("en")["join"] == "; "
    from desktop_app.memory.core.models import SummaryContent, SummaryEntry

    content = SummaryContent(facts=[SummaryEntry(text="budget 5000", turn=3)], first_turn=1, last_turn=4)
    assert render_summary(content, set(), lang="zh")[0].startswith(prompts.summary_labels("zh")["facts"])


def test_missing_templates_fail_with_one_clear_line(tmp_path, monkeypatch):
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "en.toml").write_text('system = "hi"\n[layers]\nkey = "KEY"\n', encoding="utf-8")
    monkeypatch.setattr(paths, "assets_dir", lambda: tmp_path)
    prompts.templates.cache_clear()
    try:
        with pytest.raises(prompts.PromptTemplatesMissing, match="lack layers.join") as info:
            prompts.templates("en")
        assert "\n" not in str(info.value)
        with pytest.raises(prompts.PromptTemplatesMissing, match="not found"):
            prompts.templates("zh")
    finally:
        prompts.templates.cache_clear()
