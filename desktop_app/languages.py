"""The languages Paperclip speaks: each has a lexicon, a prompts file and UI strings
(``assets/lexicon/{lang}.toml``, ``assets/prompts/{lang}.toml``, ``desktop_app/ui/i18n.py``)."""

from __future__ import annotations

LANGS: tuple[str, ...] = ("en", "zh")
