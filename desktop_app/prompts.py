"""Prompt templates from ``assets/prompts/{lang}.toml`` (English and Chinese).

All wording the model reads — the system prompt, the labels of the memory layers, the
rolling summary's headings — lives in those files and nowhere in the code.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache

from desktop_app import paths
from desktop_app.languages import LANGS

REQUIRED = {
    "layers": ("join", "end", "label_end", "rules", "limits", "pinned", "goal", "done", "state", "pending", "open",
               "recalled", "said_user", "said_assistant", "said_on", "replay", "replay_state", "superseded",
               "superseded_gone", "revoked", "changes", "change_changed", "change_revoked", "change_confirmed",
               "change_new", "change_pending", "change_open", "documents"),
    "summary": ("title", "topics", "decisions", "constraints", "facts", "preferences", "open_questions", "turn"),
    "extract": ("system", "known", "examples"),
    "bookmark": ("system", "page"),
    "rerank": ("system", "ask"),
    "paging": ("system", "ask"),
    "stage": ("system", "page"),
    "summary_model": ("system", "page", "retry"),
    "resolve": ("system", "ask", "examples"),
    "guard": ("lead", "superseded", "limit", "directive", "revoked", "omitted", "ruled_out", "join", "end", "recap", "still_open",
              "everything", "plan_only"),
    "retry": ("lead", "echo", "copy", "refusal", "empty", "promise", "scaffolding", "language", "statement", "remark",
              "join", "end"),
    "acknowledge": ("lead", "noted", "plain", "was", "dropped", "join", "sentences", "offer", "rule", "named", "yours",
                    "short_kin"),
    "translate": ("system", "example", "example_reply"),
}


class PromptTemplatesMissing(RuntimeError):
    """The prompt template file is missing or incomplete: the install is broken (one line)."""


@lru_cache(maxsize=4)
def templates(lang: str = "en") -> dict:
    """All templates for ``lang`` (unknown languages use English), checked for completeness."""
    lang = lang if lang in LANGS else "en"
    path = paths.assets_dir() / "prompts" / f"{lang}.toml"
    try:
        with path.open("rb") as handle:
            loaded = tomllib.load(handle)
    except OSError as exc:
        raise PromptTemplatesMissing(f"prompt templates not found at {path} ({exc.strerror}); reinstall Paperclip") \
            from None
    except tomllib.TOMLDecodeError as exc:
        raise PromptTemplatesMissing(f"prompt templates at {path} are not valid TOML: {exc}") from None
    missing = [f"{table}.{key}" for table, keys in REQUIRED.items() for key in keys
               if not isinstance(loaded.get(table), dict) or key not in loaded[table]]
    if not isinstance(loaded.get("system"), str):
        missing.insert(0, "system")
    if missing:
        raise PromptTemplatesMissing(f"prompt templates at {path} lack {', '.join(missing)}")
    return loaded


def default_system_prompt(lang: str = "en") -> str:
    return templates(lang)["system"]


def layer_text(lang: str = "en") -> dict[str, str]:
    """The labels of the prompt's memory layers (anchors, state, recalled …)."""
    return templates(lang)["layers"]


def guard_text(lang: str = "en") -> dict[str, str]:
    """The correction line the reply guard puts before the input when it asks again."""
    return templates(lang)["guard"]


def retry_text(lang: str = "en") -> dict[str, str]:
    """The line before the input when a reply that was no answer is asked for once more."""
    return templates(lang)["retry"]


def acknowledge_text(lang: str = "en") -> dict[str, str]:
    """What the program answers to a message that told something, when the model's reply was no answer."""
    return templates(lang)["acknowledge"]


def recollect_text(lang: str = "en") -> dict[str, str]:
    """What the program says to "what did I say …?" when the model's reply does not say it."""
    return templates(lang)["recollect"]


def summary_labels(lang: str = "en") -> dict[str, str]:
    """The rolling summary's headings."""
    return templates(lang)["summary"]
