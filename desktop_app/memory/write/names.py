"""A name corrected: "哦打错了，应该是小邹" right after "你可以叫我小周", "Oops, typo, it's John" after
"You can call me Jon", or with the old spelling named whenever it is said ("it's spelled Kathryn not
Katherine", "是李炜，不是李伟"). Such a correction names no subject and holds no number, so nothing
else reads it. The words are the lexicon's ``name`` tables: ``not`` stands before the old spelling,
``lead`` opens a correction that only gives the name, ``before`` stands before a name in Chinese,
``typo`` owns up to a typo ("ugh typo, Katy", "哎打错了，是王霆，雷霆的霆"): such a message respells any
name memory holds a near spelling of (``respellings``), read before anything else in it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from desktop_app.lexicon import CJK, LANGS, cue, first_match
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.write.typed_values import says_when

NAME_SUBJECTS = ("name", "name:called")  # the user's name and what the user is called; "name:manager" is someone's


def is_name_subject(subject: str) -> bool:
    """The subject of a name: the user's, what the user is called, or someone's ("name:同事")."""
    return subject in NAME_SUBJECTS or subject.startswith("name:")
_CJK_NAME = re.compile(f"[{CJK}]{{2,4}}")
_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN_NAME = re.compile(r"\b(?:Ma?c|O')?[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")  # (MacDonald, O'Brien)
_CLAUSE = re.compile(r"[，,、；;\s]+")
MAX_CORRECTION_CHARS = 24  # a longer sentence is news, not a spelling fixed (unless it names the old one)


def owns_a_typo(said: str) -> bool:
    return _first("name.typo", said) is not None


def corrected_name(active: Sequence[MemoryItem], said: str) -> tuple[MemoryItem, str] | None:
    """The name item ``said`` corrects and its value with the new spelling in place, or None."""
    said = said.split(": ", 1)[-1].strip(" .。!！")
    if not said or any(ch.isdigit() for ch in said) or not active:
        return None
    named = old_name_said(active, said)
    if named is not None or len(said) > MAX_CORRECTION_CHARS:
        return named
    latest = max(active, key=lambda i: (i.updated_at, i.id))
    if not is_name_subject(latest.subject):
        return None
    new = _name_in(said)
    old = _nearest(latest.value, new) if new is not None else None
    return (latest, latest.value.replace(old, new, 1)) if old is not None and new is not None else None


def respellings(active: Sequence[MemoryItem], said: str) -> list[tuple[str, str]]:
    """The names a message owning up to a typo spells anew, as (old, new) pairs ("ugh typo, Katy. and sorry
    autocorrect, it's Debra not Deborah": Katie → Katy, Deborah → Debra; "*Lindsay", "嗯 名字写错了 蒋桂芳"):
    each a near spelling of a name a name item holds (the latest first), however long ago it was said. A
    name the message says itself stays ("typo, it's Sam not Pam, Pam is my sister") unless it stands after
    "not"; a message with a number spells nothing anew ("typo, i meant 3 days not 2")."""
    if any(ch.isdigit() for ch in said):
        return []
    if not owns_a_typo(said):  # "不是何俊，是何峻，山字旁": the old spelling named after "not", no typo owned up to
        named = old_name_said(active, said)
        return _named_pair(named[0].value, named[1]) if named is not None else []
    pairs: dict[str, str] = {}
    named_first = sorted(active, key=lambda i: (is_name_subject(i.subject), i.updated_at, i.id), reverse=True)
    own = _without_old_asked(said)  # ("did i write Elisabeth? it's Elizabeth": the old spelling asked about)
    for item in named_first:
        named = old_name_said([item], said)
        if named is not None and (pair := _named_pair(item.value, named[1])):
            pairs.setdefault(*pair[0])
            continue
        held = names_in(item.value) if is_name_subject(item.subject) else _names_held(_past_first_word(item.value))
        for old in sorted(held, key=len, reverse=True):
            if old in pairs or _says(own, old):
                continue
            new = _near_spelling_in(own, old)
            if new is not None and new not in pairs.values():
                pairs[old] = new
                break
    named = old_name_said(active, said, any_item=True)  # "it's Debra not Deborah" of the manager a plan named
    if named is not None:
        was = next((n for n in _names_held(named[0].value) if n not in named[1] and n not in pairs), None)
        now = next((n for n in _LATIN_NAME.findall(named[1]) + list(names_in(named[1])) if n not in named[0].value),
                   None)
        if was is not None and now is not None:
            pairs[was] = now
    return list(pairs.items())


def _named_pair(held: str, respelt: str) -> list[tuple[str, str]]:
    """The (old, new) names of a value and that value respelt."""
    old = next((n for n in _names_held(held) if n not in respelt), None)
    new = next((n for n in names_in(respelt) if n not in held), None)
    return [(old, new)] if old is not None and new is not None else []


def respell(value: str, pairs: Sequence[tuple[str, str]]) -> str:
    """``value`` with each old spelling (a whole word, in Chinese as written) put right."""
    for old, new in pairs:
        pattern = re.escape(old) if _CJK_CHAR.match(old) else rf"(?<![\w'’]){re.escape(old)}(?![\w'’])"
        value = re.sub(pattern, new, value)
    return value


def respell_subject(subject: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A subject naming the old spelling ("fact:coworker shawn") names the new one."""
    for old, new in pairs:
        subject = re.sub(rf"(?<![\w'’]){re.escape(old.lower())}(?![\w'’])", new.lower(), subject)
    return subject


def named_in_passing(said: str, earlier: Sequence[str]) -> tuple[str, str, str] | None:
    """A typo owned up to that spells anew a name an earlier message said in passing, which memory did not
    keep ("my roommate Lindsey keeps eating my food", then "*Lindsay"; "我同事徐鹏今天请假了", then "是徐朋
    不是鹏"): the person matters now. The earlier message (the latest that holds it) with the new spelling,
    whose the name is (``name.relation`` right before it: "name:roommate", "name:同事"), and the new name."""
    if not owns_a_typo(said) or any(ch.isdigit() for ch in said):
        return None
    own = _without_old_asked(said)
    news = [n for n in _names_said(own) if not _first("name.typo", n)]
    negation = _first("name.not", said)
    for message in reversed(earlier):
        for new in dict.fromkeys(news):
            old = _near_spelling_in(message, new, past_first_word=True)
            if old is None or _says(own, old) and not (negation is not None and _says(said[negation.end():], old)):
                continue
            at = message.find(old)
            whose = next((m.group(0).lower() for lang in LANGS if (p := cue("name.relation", lang)) is not None
                          for m in p.finditer(message[:at]) if _RIGHT_BEFORE.fullmatch(message[m.end():at])), None)
            if whose is not None and not says_when(new):  # (a person: "是周日上午" moves the day the 师傅 comes)
                return respell(message, [(old, new)]), f"name:{whose}", new
    return None


_RIGHT_BEFORE = re.compile(r"[\s,，]*(?:(?:Mrs|Mr|Ms|Dr)\.?\s*)?")  # between whose and the name ("teacher, Mrs. ")


def _without_old_asked(said: str) -> str:
    """``said`` without the old spelling a question asks about ("wait did i write Elisabeth?"; ``name.asked``)."""
    asked = _first("name.asked", said)
    return said[:asked.start()] + said[asked.end():] if asked is not None else said


def _past_first_word(value: str) -> str:
    """A value past its first word (a sentence's capital is no name: "Looking at a CR-V")."""
    return value.split(None, 1)[-1] if " " in value.strip() else ""


def names_in(value: str) -> set[str]:
    """The names an item holds ("陛下" of "叫我陛下", "Chief" of "just call me Chief"): those
    ``_names_held`` reads, a Chinese one also by its first two characters, and those its pattern read
    ("我同事徐鹏今天请假了": 徐鹏)."""
    held = _names_held(value)
    read = {m.group("value") for name in ("fact.person_name", "fact.name")
            if (m := first_match(name, value)) is not None and m.groupdict().get("value")}
    return held | {h[:2] for h in held if _CJK_CHAR.match(h)} | read


def _near_spelling_in(said: str, old: str, *, past_first_word: bool = False) -> str | None:
    """The one name in ``said`` a typo away from ``old``: a capitalised word two letters off (one for
    a name of three letters; three for one of five or more whose first three letters stay: Graham →
    Graeme), or in Chinese a run of as many characters with the surname kept and one character changed
    ("杨丽" → "杨莉老师")."""
    if _CJK_CHAR.match(old):
        runs = {said[i:i + len(old)] for i in range(len(said) - len(old) + 1)}
        close = [r for r in runs if _CJK_NAME.fullmatch(r) and r[0] == old[0] and _distance(r, old) == 1]
    else:
        words = _LATIN_NAME.findall(_past_first_word(said) if past_first_word else said)
        close = list(dict.fromkeys(w for w in words if w.lower() != old.lower() and _distance(w, old) <= _limit(w, old)))
    return close[0] if len(close) == 1 else None


def old_name_said(active: Sequence[MemoryItem], said: str, *, any_item: bool = False) -> tuple[MemoryItem, str] | None:
    """A correction that names the old spelling after "not" ("it's spelled Kathryn not Katherine",
    "是李炜，不是李伟"), however long and whenever said: the name item holding it (with ``any_item``, any
    item: the plan that named the manager), with the name said before "not" in its place. "It's
    Katherine, not Kathryn" keeps Katherine."""
    negation = _first("name.not", said)
    if negation is None:
        return None
    right, wrong = said[:negation.start()], said[negation.end():]
    if not right.strip(" ，,。.!！"):  # "不是何俊，是何峻，山字旁": the old spelling first, the new after it
        wrong, _, right = wrong.partition(next((m for m in "，,；;" if m in wrong), "\n"))
    for item in reversed([i for i in active if any_item or is_name_subject(i.subject)]):
        for old in _names_held(item.value):
            if not _says(wrong, old) or _says(right, old):
                continue
            new = [n for n in _names_said(right) if n != old and _distance(n, old) <= max(2, len(old) // 2)]
            if not new and (near := _near_spelling_in(right, old)) is not None:
                new = [near]  # "手滑了，同事是小邹，不是小周": the name inside its clause
            if new:
                return item, item.value.replace(old, new[-1], 1)
    return None


def _first(name: str, text: str) -> re.Match[str] | None:
    found = [m for lang in LANGS if (p := cue(name, lang)) is not None and (m := p.search(text)) is not None]
    return min(found, key=lambda m: m.start()) if found else None


def _says(text: str, name: str) -> bool:
    """``text`` holds ``name`` as a word of its own ("Dan's" is not "Dan"; Chinese has no word edges)."""
    if _CJK_CHAR.match(name):
        return name in text
    return re.search(rf"(?<![\w'’]){re.escape(name)}(?![\w'’])", text) is not None


def _names_held(value: str) -> set[str]:
    """The names a stored name item holds: its capitalised words, and in Chinese what follows "叫我",
    "我叫" (``name.before``)."""
    held = set(_LATIN_NAME.findall(value))
    before = _first("name.before", value)
    if before is not None:
        run = _CJK_NAME.match(value, before.end())
        if run is not None:
            held.add(run.group(0)[:3])
    return held


def _names_said(text: str) -> list[str]:
    """Names in a correction: capitalised words, and Chinese clauses of two to four characters once
    their opening ("是", "应该是": ``name.lead``) is taken off."""
    clauses = (_without_lead(c) for c in _CLAUSE.split(text))
    return [*_LATIN_NAME.findall(text), *(c for c in clauses if _CJK_NAME.fullmatch(c))]


def _without_lead(text: str) -> str:
    lead = _first("name.lead", text)
    return text[lead.end():].strip() if lead is not None and lead.start() == 0 else text


def _name_in(said: str) -> str | None:
    """The one name a short correction gives ("it's John", "应该是小邹", "李炜，火字旁那个")."""
    latin = _LATIN_NAME.findall(said)
    if latin:
        return latin[-1] if len(latin) == 1 or _first("name.lead", said) is not None else None
    first = _without_lead(re.split(r"[，,、；;（(]", said, maxsplit=1)[0])
    return first if _CJK_NAME.fullmatch(first) else None


def _nearest(value: str, new: str) -> str | None:
    """The word of ``value`` the new name is a near spelling of (not the same)."""
    if _CJK_NAME.fullmatch(new):
        # A whole name: what stands after "叫我", "我叫" (or a mark) up to the end or a mark, not the
        # 小明 of 王小明.
        held = _names_held(value)
        pieces = {p for h in held for p in (h, h[:len(new)]) if len(p) == len(new)} or {
            value[i:i + len(new)] for i in range(len(value) - len(new) + 1)
            if (i == 0 or not _CJK_CHAR.match(value[i - 1])) and
            (i + len(new) == len(value) or not _CJK_CHAR.match(value[i + len(new)]))}
        limit = 1
    else:
        pieces = set(_LATIN_NAME.findall(value))
        limit = 1 if len(new) <= 4 else 2
    close = sorted((_distance(p, new), p) for p in pieces if p != new and re.fullmatch(r"\w+", p))
    return close[0][1] if close and close[0][0] <= limit and (len(close) == 1 or close[1][0] > close[0][0]) else None


def _limit(a: str, b: str) -> int:
    if min(len(a), len(b)) <= 3:
        return 1
    return 3 if min(len(a), len(b)) >= 5 and a[:3].lower() == b[:3].lower() else 2


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace; case aside) between two short words."""
    a, b = a.lower(), b.lower()
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]
