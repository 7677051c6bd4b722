"""The settings screen: model file (with a file picker), context size, GPU layers, threads,
temperature, embedding model, default context mode, language and theme.

It only edits and validates; it dismisses with the changed keys (``{}`` when nothing
changed, None on cancel). :meth:`PaperclipApp.apply_settings` persists them to the TOML
config and swaps the model in a worker when a model setting changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select

from desktop_app.config import CONTEXT_MODES, Settings
from desktop_app.languages import LANGS
from desktop_app.ui.i18n import t
from desktop_app.ui.screens.dialogs import Dialog

# Every key of config.toml a user may want to change (db stays a flag: moving it here would
# switch databases under the open session).
MODEL_KEYS = ("model", "ctx", "gpu_layers", "threads", "engine", "engine_model", "allow_remote")
# The language comes first, labelled in both languages: someone who cannot read the UI finds it.
CHOICES = {"lang": LANGS, "theme": ("dark", "light"), "mode": CONTEXT_MODES, "allow_remote": ("false", "true")}
FIRST_CHOICES = ("lang", "theme")  # above the text fields, in view without scrolling at 80×24
TEXT_FIELDS = ("model", "ctx", "gpu_layers", "threads", "temperature", "max_tokens", "repeat_penalty", "top_p",
               "seed", "system_prompt", "embed_model", "model_dirs", "engine", "engine_model")
OPTIONAL_TEXT = ("system_prompt", "engine", "engine_model")  # empty = unset


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def form_changes(settings: Settings, raw: dict[str, str]) -> dict[str, Any]:
    """The keys whose typed value differs from ``settings``; raises ``ValueError`` (one line)."""
    values: dict[str, Any] = {}
    for key, text in raw.items():
        text = text.strip()
        if key in ("model", "embed_model"):
            values[key] = Path(text).expanduser() if text else None
        elif key in ("threads", "gpu_layers"):
            values[key] = int(text) if text else None
        elif key in OPTIONAL_TEXT:
            values[key] = text or None
        elif key == "model_dirs":
            values[key] = [Path(part.strip()).expanduser() for part in text.split(",") if part.strip()]
        elif key == "allow_remote":
            values[key] = text == "true"
        else:
            values[key] = text
    try:
        checked = Settings(**{**settings.model_dump(), **values})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise ValueError(t("settings.invalid", field=field, error=first["msg"])) from None
    except ValueError as exc:
        raise ValueError(str(exc)) from None
    return {key: getattr(checked, key) for key in raw if getattr(checked, key) != getattr(settings, key)}


class SettingsScreen(Dialog[dict | None]):
    """Edit the global settings; Ctrl+S saves, Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save", priority=True)]

    def __init__(self, settings: Settings, saved_lang: str | None = None) -> None:
        super().__init__(classes="dialog")
        self.settings = settings
        # The language the config file holds (None: not there, so every run starts in English
        # unless told otherwise): a language given by --lang for this run is saved on Save.
        self.saved_lang = saved_lang

    def _choice(self, key: str) -> ComposeResult:
        with Horizontal(classes="form-row"):
            yield Label(t(f"settings.{key}"), classes="form-label", markup=False)
            yield Select([(o, o) for o in CHOICES[key]], value=_shown(getattr(self.settings, key)), allow_blank=False,
                         id=f"set-{key}", classes="form-input", compact=True)

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(classes="dialog-box dialog-wide", id="settings-box"):
            yield Label(t("settings.title"), classes="dialog-title", markup=False)
            with VerticalScroll(id="settings-form"):
                for key in FIRST_CHOICES:
                    yield from self._choice(key)
                for key in TEXT_FIELDS:
                    value = s.model_path if key == "model" else getattr(s, key)
                    with Horizontal(classes="form-row"):
                        yield Label(t(f"settings.{key}"), classes="form-label", markup=False)
                        yield Input(_shown(value), id=f"set-{key}", classes="form-input", compact=True,
                                    placeholder="default" if key == "embed_model" else "")
                        if key == "model":
                            yield Button(t("models.choose"), id="choose-model", classes="form-button", compact=True)
                        if key in ("model", "embed_model"):
                            yield Button(t("dialog.browse"), id=f"browse-{key}", classes="form-button", compact=True)
                for key in CHOICES:
                    if key not in FIRST_CHOICES:
                        yield from self._choice(key)
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("dialog.save") + " (Ctrl+S)", variant="primary", id="save")
                yield Button(t("dialog.cancel"), id="cancel")

    def raw_values(self) -> dict[str, str]:
        raw = {key: self.query_one(f"#set-{key}", Input).value for key in TEXT_FIELDS}
        raw.update({key: str(self.query_one(f"#set-{key}", Select).value) for key in CHOICES})
        if raw["model"].strip() == str(self.settings.model_path) and self.settings.model is None:
            raw.pop("model")  # still the default model: do not pin its path into the config
        return raw

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = event.button.id or ""
        if button == "save":
            self.action_save()
        elif button == "cancel":
            self.dismiss(None)
        elif button == "choose-model":
            from desktop_app.ui.screens.model_chooser import ModelChooser

            field = self.query_one("#set-model", Input)

            def picked(path: Path | None) -> None:
                if path is not None:
                    field.value = str(path)

            self.app.push_screen(ModelChooser(self.settings.model_dirs), picked)
        elif button.startswith("browse-"):
            key = button.removeprefix("browse-")
            field = self.query_one(f"#set-{key}", Input)
            from desktop_app.ui.screens.file_picker import FilePicker

            def chosen(path: Path | None) -> None:
                if path is not None:
                    field.value = str(path)

            start = Path(field.value).expanduser() if field.value.strip() else self.settings.model_path
            self.app.push_screen(FilePicker(start, (".gguf",)), chosen)

    def action_save(self) -> None:
        raw = self.raw_values()
        try:
            changes = form_changes(self.settings, raw)
        except ValueError as exc:
            self.notify(str(exc), markup=False, severity="error")
            return
        if raw["lang"] != (self.saved_lang or "en"):  # this run's --lang, not yet in the file
            changes["lang"] = raw["lang"]
        self.dismiss(changes)

    def action_cancel(self) -> None:
        self.dismiss(None)
