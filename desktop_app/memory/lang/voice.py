"""The user's words said in the program's voice: "我妈一点辣都不能吃" is "你妈一点辣都不能吃" when the program lists it,
"Priya told me she went fully vegan" is "Priya told you she went fully vegan". A blind reader of bench health run S
read the program's list of the user's sentences, first person and all, as the user's messages said back.
The words are the lexicon's ``voice.yours``."""

from __future__ import annotations

import re
from functools import lru_cache

from desktop_app.lexicon import CJK, lexicon

_END = re.compile(r"[.!?。！？:：]\s*$")


@lru_cache(maxsize=4)
def _table(lang: str) -> tuple[dict[str, str], re.Pattern[str]]:
    table = {k.lower(): v for k, v in lexicon(lang).get("voice", {}).get("yours", {}).items()}
    keys = sorted(table, key=len, reverse=True)
    if lang == "zh":
        return table, re.compile("|".join(map(re.escape, keys)) or "(?!)")
    # (no CJK character before or after: a Chinese word is no English one)
    words = "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in keys) or "(?!)"
    return table, re.compile(f"(?<![\\w'{CJK}])(?:{words})(?![\\w'])", re.IGNORECASE)


def in_your_voice(text: str, lang: str) -> str:
    """``text``, the user's words, with the user's first person made the second ("I'm vegetarian" → "You're
    vegetarian", "my mum" → "your mum", "我们一共5个人" → "你们一共5个人"). "US" (the country) stays."""
    table, pattern = _table(lang)

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) > 1 and word.isupper():
            return word
        said = table[" ".join(word.lower().split())]
        opens = not _END.sub("", text[: match.start()]) or _END.search(text[: match.start()]) is not None
        if said[:1].isascii() and (opens or word[0].isupper() and not word.lower().startswith("i")):
            return said[:1].upper() + said[1:]
        return said

    return pattern.sub(swap, text)
