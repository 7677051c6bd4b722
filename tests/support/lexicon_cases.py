"""The three checks every table of lexicon cues gets (each test module keeps its own tables):
each cue exists in both languages, a one-language cue is empty in the other, and each labelled
sentence fires its cue or stays quiet as labelled."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from desktop_app import lexicon


def cue_table_tests(migrated: Sequence[str], one_language: Mapping[str, str],
                    cue_cases: Sequence[tuple[str, str, str, bool]]) -> tuple[Callable[..., Any], ...]:
    """The three test functions over these tables; assign them to ``test_*`` names in the module."""
    @pytest.mark.parametrize("name", migrated)
    def every_cue_is_in_both_languages(name: str) -> None:
        for lang in lexicon.LANGS:
            assert lexicon.cue(name, lang) is not None, f"{name} is empty in {lang}"

    @pytest.mark.parametrize("name, only", one_language.items())
    def a_one_language_cue_is_empty_in_the_other(name: str, only: str) -> None:
        for lang in lexicon.LANGS:
            assert (lexicon.cue(name, lang) is not None) is (lang == only)

    @pytest.mark.parametrize("name, lang, text, fires", cue_cases)
    def each_cue_fires_where_it_should_and_only_there(name: str, lang: str, text: str, fires: bool) -> None:
        assert lexicon.fires(name, text, (lang,)) is fires

    return every_cue_is_in_both_languages, a_one_language_cue_is_empty_in_the_other, \
        each_cue_fires_where_it_should_and_only_there
