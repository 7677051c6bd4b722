"""With ``lang = "zh"`` every screen speaks Chinese: a walk over the screens fails on any label
of two or more English words that is not a key name, a command, a model or a file name."""

from __future__ import annotations

import re

from textual.widgets import Button, Input, Label, OptionList, Static

from desktop_app.engine.scripted import ScriptedEngine

# What may stay English in a Chinese UI: key names, slash commands, ids, layer and mode names of
# the prompt contract, model/counter/file names, numbers.
VOCAB = {"ctrl", "shift", "alt", "tab", "enter", "esc", "escape", "up", "down", "left", "right", "pgup", "pgdn",
         "home", "end", "del", "delete", "space", "system", "anchors", "state", "summary", "recent", "changes",
         "recalled", "input", "reserve", "layered", "sliding", "retrieval", "full", "profile", "session", "rule",
         "model", "user", "assistant", "command", "import", "tok", "id", "key", "gguf", "tiktoken", "offline",
         "scripted", "or", "paperclip", "json", "chatgpt", "markdown"}
SEGMENT_OK = re.compile(r"^(?:[/@]\w+.*|#\d+.*|[\w.\-/~]+\.(?:gguf|db|toml|md|json|jsonl)|tiktoken cl100k_base.*)$")
WORDS = re.compile(r"[A-Za-z][A-Za-z'’\-]*(?:\s+[A-Za-z][A-Za-z'’\-]*)+")


def allowed_word(word: str) -> bool:
    low = word.lower().strip("'’-")
    return low in VOCAB or bool(re.fullmatch(r"\^?[a-z]|f\d{1,2}|\w*\d[\w.\-]*", low))


def english_phrases(text: str) -> list[str]:
    """Runs of two or more English words in ``text`` that are not all key names or allowed names."""
    found = []
    for segment in re.split(r"[\n│|·:：，。、（）()\[\]【】「」“”\"]+", text):
        segment = segment.strip()
        if not segment or SEGMENT_OK.match(segment):
            continue
        for match in WORDS.finditer(segment):
            phrase = match.group(0)
            if not all(allowed_word(word) for word in phrase.split()):
                found.append(phrase)
    return found


def visible_text(app, ui) -> list[str]:
    texts = []
    for widget in app.screen.query("*"):
        if not widget.display or not widget.visible:
            continue
        if isinstance(widget, Button):
            texts.append(str(widget.label))
        elif isinstance(widget, Input):
            texts.append(widget.placeholder or "")
        elif isinstance(widget, (Static, Label)):
            try:
                texts.append(ui.text_of(widget))
            except Exception:  # a widget whose content is not renderable alone
                continue
    bindings = [b.description for bs in app.screen._bindings.key_to_bindings.values() for b in bs if b.show]
    return texts + bindings


async def test_every_screen_speaks_chinese(settings, ui):
    from desktop_app.ui.i18n import set_lang

    set_lang("zh")
    engine = ScriptedEngine("好的，已记下。")
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}), engine)
    offenders: dict[str, set[str]] = {}
    seen: dict[str, int] = {}
    async with app.run_test(size=(140, 44)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "以后每次都用中文回答。")
        await ui.send(pilot, "预算不超过5000元。")
        await ui.send(pilot, "预算改成6000元。")
        await ui.send(pilot, "/memory")

        def collect(name: str, extra: tuple[str, ...] = ()) -> None:
            texts = visible_text(app, ui) + list(extra)
            seen[name] = sum(bool(re.search(r"[\u4e00-\u9fff]", text)) for text in texts)
            for text in texts:
                for phrase in english_phrases(text):
                    offenders.setdefault(name, set()).add(phrase)

        collect("chat")
        for key, name in (("f4", "memory panel"), ("f1", "help"), ("f5", "inspector"), ("f9", "settings"),
                          ("f10", "session settings"), ("f3", "search")):
            await pilot.press(key)
            await ui.settle(pilot)
            collect(name)
            if name != "memory panel":
                await pilot.press("escape")
                await ui.settle(pilot)
        await pilot.press("ctrl+p")  # the command palette: Paperclip's commands and Textual's own
        await ui.settle(pilot)
        listed = [str(option.prompt) for listing in app.screen.query(OptionList)
                  for option in listing._options]
        assert len(listed) > 10, listed
        collect("command palette", tuple(listed))
        await pilot.press("escape")
    assert all(seen.values()), seen
    assert len(seen) == 8, seen  # every screen was reached and shows Chinese
    assert not offenders, "\n".join(f"{k}: {sorted(v)}" for k, v in offenders.items())


def test_the_walk_would_catch_english_labels():
    assert english_phrases("Scroll home") == ["Scroll home"]
    assert english_phrases("滚到顶部 · ctrl+q · /memory · layered · Qwen2.5-Coder-0.5B · session profile") == []


def test_a_label_the_program_gave_an_item_is_named_in_the_ui_language():
    # Under Pilot (round six) a Chinese session's panel listed the budget as "budget: 4000".
    from desktop_app.memory.core.models import MemoryItem
    from desktop_app.ui.i18n import set_lang
    from desktop_app.ui.widgets.memory_panel import item_prompt

    budget = MemoryItem(id=10, session_id=1, kind="constraint", subject="budget", value="budget: 4000", status="active",
                        origin="model", state_version=1, created_at=0.0, updated_at=0.0)
    try:
        set_lang("zh")
        assert item_prompt(budget, 5).plain.startswith("#10 预算：4000")
        set_lang("en")
        assert item_prompt(budget, 5).plain.startswith("#10 budget: 4000")
    finally:
        set_lang("en")


async def test_the_inspector_says_why_in_chinese_when_a_reply_is_kept_out(settings, ui):
    """A degenerate reply is kept out of the model's history; the inspector's "left out and why"
    table says so in Chinese (it was English, round eleven)."""
    from desktop_app.ui.i18n import set_lang

    set_lang("zh")
    engine = ScriptedEngine("菜单更新了。")  # the same short reply to every question: a copy from the second on
    app = ui.scripted_app(settings.model_copy(update={"lang": "zh"}), engine)
    async with app.run_test(size=(140, 44)) as pilot:
        await ui.wait_for_model(pilot)
        await ui.send(pilot, "凉菜几个比较合适？")
        await ui.send(pilot, "我刚才说谁过敏来着？")
        await ui.send(pilot, "热菜要几个？")
        await pilot.press("f5")
        await ui.settle(pilot)
        texts = visible_text(app, ui)
        assert any("有问题的回复" in text for text in texts), texts
        offenders = [p for text in texts for p in english_phrases(text)]
        assert not offenders, offenders


def test_every_kind_of_guard_finding_has_its_line_in_both_languages():
    """A Pilot walk (round thirteen) showed the bare key "guard.ruled_out" in the chat: the guard's every
    kind of finding (``GuardKind``) has a line, in English and in Chinese, that takes its fields."""
    from typing import get_args

    from desktop_app.memory.core.records import GuardKind
    from desktop_app.ui import i18n

    for kind in get_args(GuardKind):
        entry = i18n.STRINGS.get(f"guard.{kind}")
        assert entry is not None, kind
        for text in entry:
            text.format(item=1, current="我表妹小雨对虾过敏", old="虾")
