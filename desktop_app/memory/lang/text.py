"""Language helpers shared by extraction, bookmarks, replay and recall (Chinese and English).

No segmenter is needed: English is split into words, Chinese runs into character bigrams,
which is enough to match "预算" in "预算不超过5000元" against "预算改成8000元".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from desktop_app.lexicon import CJK, LANGS, cue, fires, lexicon

# A ";" between two letters ("TL;DR") ends nothing, nor the period of a title ("Dr. Okafor"; the
# lexicon's ``sentence.abbreviation``).
# (as typed in a hurry too: "with dr. Patel" lost Patel from the appointment, integrity's third set)
_NOT_ENDED = "".join(f"(?<!\\b{re.escape(form)})" for lang in LANGS
                     for word in lexicon(lang).get("sentence", {}).get("abbreviation", {}).get("words", [])
                     for form in dict.fromkeys((word, word.lower())))
_SENTENCE_END = re.compile(r"(?<=[。！？!?；\n])|(?<=;)(?![A-Za-z])|(?<=[.])" + _NOT_ENDED + r"\s+")
_ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-']*|\d+(?:[.,]\d+)*")
CJK_RUN = re.compile(f"[{CJK}]+")  # Chinese characters in a row
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
CJK_CHAR = re.compile(f"[{CJK}]")  # one Chinese character
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# A sentence or a list line of a reply, for the checks that read a reply sentence by sentence; a list's number
# ("4. Use …") ends no sentence (cut alone as "4.", it read as a stale count of 4).
REPLY_SENTENCE = re.compile(r"[^\n]+?(?:[。！？!?；]+|(?<!\n\d)(?<!\n\d\d)(?<!^\d)(?<!^\d\d)\.(?=\s|$)|(?=\n)|$)")

# Words that carry grammar, not topic (the lexicon's ``term.stopword``): English words are left out of
# a text's terms; Chinese bigrams holding one of the Chinese characters are skipped.
EN_STOPWORDS = frozenset(lexicon("en")["term"]["stopword"]["words"])
ZH_STOPCHARS = frozenset("".join(lexicon("zh")["term"]["stopword"]["words"]))
ZH_FUNCTION_CHARS = frozenset("".join(lexicon("zh")["term"]["function_char"]["words"]))


def script_language(text: str) -> str | None:
    """"zh" or "en" by the script of the text's words (a CJK character counts as a word, a Latin
    word as one and a half); None when there are too few to tell or the two are mixed."""
    cjk = len(CJK_CHAR.findall(text))
    latin = len(_LATIN_WORD.findall(text))
    units = cjk + 1.5 * latin
    if units < 4:
        return None
    share = cjk / units
    return "zh" if share >= 0.5 else "en" if share <= 0.2 else None


def languages_named(text: str) -> list[str]:
    """The languages ``text`` names ("English", "中文"; the lexicon's ``language_name``)."""
    return [lang for lang in LANGS if fires(f"language_name.{lang}", text)]


def rule_language(rules: Iterable[str]) -> str | None:
    """The reply language an active rule sets (the newest rule naming exactly one language wins). A rule naming
    two is read by the clause that says how to reply ("以后都用英文回复我，我要直接转发给老板Mike，他是美国人，中文
    不太行" sets English: read whole it set none, and the program went on answering in Chinese)."""
    for rule in reversed(list(rules)):
        named = languages_named(rule)
        if len(named) == 1:
            return named[0]
        said = {lang for part in _REPLY_CLAUSE_CUT.split(rule) if fires("rule.reply", part) for lang in languages_named(part)}
        if len(said) == 1:
            return said.pop()
    return None


_REPLY_CLAUSE_CUT = re.compile(r"[，,;；。!！?？]")


def without_lead_in(text: str, *, edge: str = "", keep_last: bool = False) -> str:
    """``text`` without the spoken openings that say nothing ("Oh, one thing:", "对了，";
    ``value.lead_in``), up to three in a row, each remainder stripped of ``edge`` characters;
    "" when the text is nothing but openings, unless ``keep_last`` (then the last one stays)."""
    for _ in range(3):  # "Oh, one thing: actually, …"
        for lang in LANGS:
            pattern = cue("value.lead_in", lang)
            found = pattern.match(text) if pattern is not None else None
            if found is not None and found.end() > 0 and not (keep_last and found.end() >= len(text)):
                text = text[found.end():].strip(edge)
                break
        else:
            break
    return text


def split_sentences(text: str) -> list[str]:
    """Sentences/clauses of ``text`` (Chinese and English punctuation)."""
    parts = (p.strip() for p in _SENTENCE_END.split(text))
    return [p for p in parts if p and len(p.strip(" 。！？!?；;.,，")) > 0]


def cjk_bigrams(text: str) -> list[str]:
    out = []
    for run in CJK_RUN.findall(text):
        if len(run) == 1:
            continue
        for i in range(len(run) - 1):
            gram = run[i:i + 2]
            if not any(ch in ZH_STOPCHARS for ch in gram):
                out.append(gram)
    return out


def terms(text: str) -> list[str]:
    """Content terms of ``text``: lowercased English words (no stopwords), numbers, CJK bigrams."""
    words = [w.lower().strip("'-") for w in _ASCII_WORD.findall(text)]
    out = [w for w in words if w and w not in EN_STOPWORDS and (len(w) > 1 or w.isdigit())]
    return out + cjk_bigrams(text)


def term_set(text: str) -> set[str]:
    return set(terms(text))


def named_terms(text: str) -> set[str]:
    """What in ``text`` names a thing: its words of three letters or more, its numbers, and its pairs of Chinese
    characters with no grammar character in them ("年会" and "银行" too, whose characters ``terms`` leaves out;
    not "那个", "今天")."""
    words = {t for t in term_set(text) if not t.isascii() or t.isdigit() or len(t) >= 3}
    pairs = (run[i:i + 2] for run in CJK_RUN.findall(text) for i in range(len(run) - 1))
    return words | {p for p in pairs if not set(p) & ZH_FUNCTION_CHARS}


def overlap(a: set[str], b: set[str]) -> int:
    return len(a & b)


def numbers(text: str) -> list[str]:
    return _NUMBER.findall(text)


def keywords(texts: list[str], k: int = 4, *, avoid: set[str] | None = None) -> list[str]:
    """The ``k`` most telling terms of ``texts`` (frequent, longer first, no duplicates).

    Adjacent CJK bigrams that co-occur are merged back into longer words ("预算" + "算不"
    would be noise); a bigram overlapping a chosen one is skipped.
    """
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(terms(text))
    avoid = avoid or set()
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))
    chosen: list[str] = []
    for term, _ in ranked:
        if term in avoid or term.isdigit() and len(chosen) < 1 and len(ranked) > 1:
            continue
        if any(term in c or c in term or (len(term) == 2 and len(c) == 2 and (term[0] == c[1] or term[1] == c[0]))
               for c in chosen):
            continue
        chosen.append(term)
        if len(chosen) >= k:
            break
    return chosen


def marks_aside(text: str) -> str:
    """``text`` lower-cased without spaces, punctuation or marks: how a piece of one text is found in another."""
    return re.sub(r"[\W_]+", "", text.lower())


def clip(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


# Canonical subjects: two statements about the same subject update each other (a newer budget
# replaces the older one; a second language rule conflicts with the first). The lexicon's
# ``subject.canonical``: the subjects in the English lexicon's order, each with its names in every language.
_CANONICAL = [lexicon(lang)["subject"]["canonical"] for lang in LANGS]
SUBJECT_ALIASES: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (subject, tuple(alias for table in _CANONICAL for alias in table.get(subject, [])))
    for subject in dict.fromkeys(subject for table in _CANONICAL for subject in table))


def _alias_matcher(alias: str) -> Callable[[str], object]:
    """A whole-word regex for a single ASCII word, a plain substring test for the rest."""
    if alias.isascii() and alias.strip().isalpha() and " " not in alias.strip():
        return re.compile(rf"\b{re.escape(alias.strip())}\b").search
    return lambda lowered: alias in lowered


# Compiled once: recall labels every hit with its subject (hundreds of calls per turn).
_SUBJECT_MATCHERS = tuple((subject, tuple(_alias_matcher(a) for a in aliases)) for subject, aliases in SUBJECT_ALIASES)


CANONICAL_SUBJECTS: tuple[str, ...] = tuple(subject for subject, _ in SUBJECT_ALIASES)


def subjects_named(text: str) -> set[str]:
    """Every canonical subject ``text`` names (``canonical_subject`` gives only the first)."""
    lowered = text.lower()
    return {subject for subject, matchers in _SUBJECT_MATCHERS if any(match(lowered) for match in matchers)}


def canonical_subject(text: str) -> str | None:
    """The canonical subject named in ``text`` (see ``SUBJECT_ALIASES``), or None."""
    lowered = text.lower()
    for subject, matchers in _SUBJECT_MATCHERS:
        if any(match(lowered) for match in matchers):
            return subject
    return None


SUBJECT_WORD_CHARS = 40


def topic_subject(prefix: str, text: str) -> str:
    """A subject made from the first telling terms of ``text`` (when no canonical one fits)."""
    picked = keywords([text], k=2)
    # (a word is cut to a label's length: a message of one 10,000-letter "word" made a subject past the store's limit)
    return f"{prefix}:{'/'.join(sorted(w[:SUBJECT_WORD_CHARS] for w in picked)) or clip(text, 24)}"


# The names of the subjects the program files values under, in every language ("length", "篇幅"): a label of
# its own, never the user's words.
SUBJECT_NAMES = frozenset(name.lower() for lang in LANGS
                          for key, label in lexicon(lang).get("subject", {}).get("label", {}).items() for name in (key, label))


def unlabelled(value: str, *, subject_names: bool = False) -> str:
    """A value without its "label: " when the rest names it anyway ("tree nut allergy: Mia has a tree
    nut allergy" → "Mia has a tree nut allergy"; "flight: way cheaper" stays); with ``subject_names`` also
    when the label is only the name of a subject (a dropped rule "length: 100 words" → "100 words"; a
    budget in a summary keeps its name)."""
    label, colon, rest = value.partition(": ")
    if not colon or len(label) > 30 or not rest.strip():
        return value
    named = subject_names and label.strip().lower() in SUBJECT_NAMES
    return rest.strip() if term_set(label) <= term_set(rest) or named else value
