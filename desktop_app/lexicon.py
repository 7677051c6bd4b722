"""Language knowledge as data: ``assets/lexicon/{lang}.toml``, compiled into patterns.

Each concept is a table with ``words`` (matched as whole words, case-insensitive; a word
written in CJK characters matches anywhere, since Chinese has no spaces) and ``patterns``
(regular expressions kept as written). Code asks for a concept by its dotted name
(``cue("reply.promise", "zh")``) and never spells the words itself.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache

from desktop_app import paths
from desktop_app.languages import LANGS

# The Unicode ranges of East Asian scripts, defined here once, for character classes (f"[{CJK}]");
# no other module spells a range.
# Han characters: the unified ideographs, extension A and the compatibility block (what Chinese text
# is written in). ``CJK`` is the program's one definition of "a CJK character".
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK = HAN
KANA = "\u3040-\u30ff"  # hiragana and katakana
HANGUL = "\uac00-\ud7af"  # Hangul syllables
FULLWIDTH = "\uff00-\uffef"  # halfwidth and fullwidth forms (full-width punctuation, letters and digits)
EAST_ASIAN = HAN + KANA + HANGUL  # the letters of Chinese, Japanese and Korean


class LexiconMissing(RuntimeError):
    """The lexicon file is missing or broken: the install is broken (one line)."""


@lru_cache(maxsize=4)
def lexicon(lang: str) -> dict:
    """The whole lexicon of ``lang`` (unknown languages read English)."""
    lang = lang if lang in LANGS else "en"
    path = paths.assets_dir() / "lexicon" / f"{lang}.toml"
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise LexiconMissing(f"lexicon not found at {path} ({exc.strerror}); reinstall Paperclip") from None
    except tomllib.TOMLDecodeError as exc:
        raise LexiconMissing(f"lexicon at {path} is not valid TOML: {exc}") from None


def subject_labels(lang: str) -> dict[str, str]:
    """What the program calls each canonical subject in ``lang`` ("head count" → "人数"; ``subject.label``)."""
    return lexicon(lang)["subject"].get("label", {})


def _entry(name: str, lang: str) -> dict:
    node: object = lexicon(lang)
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            raise LexiconMissing(f"the {lang} lexicon has no entry {name!r}")
        node = node[part]
    if not isinstance(node, dict):
        raise LexiconMissing(f"the {lang} lexicon entry {name!r} is not a table")
    return node


_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


def _word(word: str) -> str:
    escaped = re.escape(word)
    if re.search(f"[{CJK}]", word):
        return escaped
    return rf"(?<![\w]){escaped}(?![\w])"


@lru_cache(maxsize=256)
def cue(name: str, lang: str) -> re.Pattern[str] | None:
    """The compiled pattern of concept ``name`` in ``lang``; None when it holds nothing."""
    entry = _entry(name, lang)
    # Joined, a group name may repeat: the joined form matches only (``each_pattern`` keeps the names).
    parts = [_word(w) for w in entry.get("words", [])] + [_NAMED_GROUP.sub("(?:", p) for p in entry.get("patterns", [])]
    return re.compile("|".join(f"(?:{p})" for p in parts), re.IGNORECASE | re.MULTILINE) if parts else None


def alternatives(name: str, langs: tuple[str, ...] = LANGS) -> str:
    """Concept ``name`` in ``langs`` as one alternation, to sit inside a larger pattern that the
    caller compiles with its own flags (``cue`` compiles case-insensitive and multi-line)."""
    return "|".join(p.pattern for lang in langs if (p := cue(name, lang)) is not None)


def fires(name: str, text: str, langs: tuple[str, ...] = LANGS) -> bool:
    """Whether concept ``name`` matches ``text`` in any of ``langs``."""
    for lang in langs:
        pattern = cue(name, lang)
        if pattern is not None and pattern.search(text):
            return True
    return False


def lexicon_words(name: str, lang: str) -> tuple[str, ...]:
    """The words of concept ``name`` in ``lang``, as written."""
    return tuple(_entry(name, lang).get("words", []))


@lru_cache(maxsize=64)
def each_pattern(name: str, lang: str) -> tuple[re.Pattern[str], ...]:
    """Concept ``name``'s patterns compiled one by one (for patterns that name a group, such as
    the number of a length limit, which one joined pattern could not repeat)."""
    return tuple(re.compile(p, re.IGNORECASE | re.MULTILINE) for p in _entry(name, lang).get("patterns", []))


def first_match(name: str, text: str, langs: tuple[str, ...] = LANGS) -> re.Match[str] | None:
    """The first match of any of concept ``name``'s patterns in ``text``."""
    for lang in langs:
        for pattern in each_pattern(name, lang):
            found = pattern.search(text)
            if found is not None:
                return found
    return None
