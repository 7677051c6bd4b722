"""Prompt templates from ``assets/prompts/{lang}.toml`` (English and Chinese)."""

from __future__ import annotations

import tomllib
from functools import lru_cache

from desktop_app import paths

_BUILTIN = {
    "en": {"system": "You are Paperclip, a helpful offline assistant."},
    "zh": {"system": "你是 Paperclip，一个离线助手。"},
}


@lru_cache(maxsize=4)
def templates(lang: str = "en") -> dict[str, str]:
    """All templates for ``lang``; falls back to a built-in minimum if the asset is missing."""
    lang = lang if lang in _BUILTIN else "en"
    try:
        with (paths.assets_dir() / "prompts" / f"{lang}.toml").open("rb") as handle:
            loaded = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        loaded = {}
    return {**_BUILTIN[lang], **loaded}


def default_system_prompt(lang: str = "en") -> str:
    return templates(lang)["system"]
