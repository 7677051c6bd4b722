"""How memory is written into the prompt: a short briefing in plain sentences (zh + en).

Pure text formatting; no clock: times come from the rows. The model reads memory as notes about
the user and the task — no markers, item ids, kinds in brackets, turn labels or clock stamps,
because a small model continues whatever looks like text to copy (measured by ``bench health``).
The ids, kinds and turns stay in the layer items (``context --json``), where programs read them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from desktop_app.lexicon import CJK, subject_labels
from desktop_app.memory.core.models import REVOKE_MARK, MemoryItem
from desktop_app.memory.core.records import GuardFinding
from desktop_app.memory.core.turn_numbers import TurnView
from desktop_app.memory.lang.text import without_lead_in
from desktop_app.prompts import guard_text, layer_text

KIND_ORDER = {"goal": 0, "directive": 1, "constraint": 2, "decision": 3, "fact": 4, "preference": 5,
              "open_question": 6}
_TRAILING = re.compile(r"[\s。．.!！;；,，、]+$")


def text_for(lang: str) -> dict[str, str]:
    """The layer labels for ``lang`` (from ``assets/prompts``)."""
    return layer_text(lang)


def stamp(ts: float | None) -> str:
    """Unix seconds as 'YYYY-MM-DD HH:MM' (UTC), the time label of records and exports."""
    if ts is None:
        return "?"
    try:
        return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, ValueError, OSError):  # a time stored before imports checked them (1e300, NaN)
        return "?"


def day(ts: float | None) -> str | None:
    """Unix seconds as 'YYYY-MM-DD' (UTC), or None when there is no valid time."""
    label = stamp(ts)
    return None if label == "?" else label[:10]


def spoken_day(ts: float | None, lang: str) -> str | None:
    """The day as people write it ("8 May 2023", "2023年5月8日"), not as a record does: a model
    answering "when?" copies the form it was shown."""
    if day(ts) is None:
        return None
    when = datetime.fromtimestamp(ts, tz=UTC)  # type: ignore[arg-type]  # day() checked it
    return f"{when.year}年{when.month}月{when.day}日" if lang == "zh" else f"{when.day} {when:%B} {when.year}"


def plain_value(value: str) -> str:
    """An item's value as a clause of a sentence: without the spoken opening that says nothing
    ("Oh, one thing:", "对了，") and without a trailing full stop or separator."""
    text = value.strip().removeprefix(REVOKE_MARK.strip()).strip()  # the program's mark, not the user's words
    return _TRAILING.sub("", without_lead_in(text, keep_last=True)) or _TRAILING.sub("", text)


def in_language(value: str, lang: str) -> str:
    """``value`` with the label the program gave it ("budget: 2万左右", "head count: 4个人") named in
    ``lang`` ("预算：2万左右"): a Chinese prompt shows no English label (the lexicon's ``subject.label``)."""
    label, colon, rest = value.partition(": ")
    names = subject_labels(lang)
    if not colon or label.lower() not in names or not rest.strip():
        return value
    return f"{names[label.lower()]}{text_for(lang)['label_end']}{rest}"


def sentence(label: str, values: list[str], lang: str) -> str:
    """``label`` followed by ``values`` joined into one sentence ("Hard limits: a; b.")."""
    t = text_for(lang)
    return label + t["join"].join(plain_value(in_language(v, lang)) for v in values) + t["end"]


def goal_sentence(goal: MemoryItem, lang: str) -> str:
    t = text_for(lang)
    steps = goal.details.get("steps_done") or []
    done = f" ({t['done']}{t['join'].join(steps)})" if steps else ""
    return f"{t['goal']}{plain_value(goal.value)}{done}{t['end']}"


def said_line(turn: TurnView, content: str, lang: str, now: float | None = None) -> str:
    """A recalled turn as a sentence: who said it (and the day, when it was not ``now``'s day: the
    input's, so the prompt depends on the rows only)."""
    t = text_for(lang)
    who = t["said_user"] if turn.role == "user" else t["said_assistant"]
    when = day(turn.created_at)
    on = t["said_on"].format(date=spoken_day(turn.created_at, lang)) if when and now is not None and \
        when != day(now) else ""
    if on:
        who = who[:1].lower() + who[1:]
    return f"{on}{who}{content}"


# A reply shown again in the history keeps its opening lines: up to the line reaching the first
# length, never past the second (characters; Chinese says in 40 what English says in about 100).
BRIEF_LATIN, BRIEF_CJK = (100, 250), (40, 100)
_SENTENCE_DONE = re.compile(r"[。！？!?]|[.](?=\s|$)")
_CJK_CHAR = re.compile(f"[{CJK}]")


def brief_reply(text: str) -> str:
    """An earlier reply as the model sees it again: its opening lines, cut at a sentence's end.

    ``bench health`` replays (round nine): shown its whole replies, the 0.5B answered 15 of 16
    hard turns by copying one (its last plan again, the notes it had pasted) and was asked once
    more; shown their openings, 5 of 16 needed no second attempt. What a reply said in full stays in
    the conversation and in recall; the next reply needs to know what was answered, not its words."""
    lines = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    dense = 2 * len(_CJK_CHAR.findall(text)) >= len(re.sub(r"\s", "", text))
    least, most = BRIEF_CJK if dense else BRIEF_LATIN
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) > most:
            ends = [m.end() for m in _SENTENCE_DONE.finditer(line) if m.end() <= most - used]
            if ends:
                kept.append(line[: ends[-1]])
            elif not kept:
                cut = line[:most]
                kept.append(cut if dense or " " not in cut else cut[: cut.rfind(" ")])
            break
        kept.append(line)
        used += len(line)
        if used >= least:
            break
    return "\n".join(kept)


def annotate(turn: TurnView, notes: dict[int, list[str]]) -> str:
    """A raw turn with memory notes appended (old values marked as changed or dropped)."""
    extra = notes.get(turn.id)
    return turn.content if not extra else turn.content + " " + " ".join(extra)


def supersession_notes(history: list[MemoryItem], current: dict[int, MemoryItem], lang: str) -> dict[int, list[str]]:
    """Notes per source message id for items no longer current, so raw turns never show
    an old value as if it still held."""
    t = text_for(lang)
    by_supersedes = {i.supersedes: i for i in [*history, *current.values()] if i.supersedes is not None}
    notes: dict[int, list[str]] = {}
    for item in history:
        if item.source_message_id is None or item.details.get("proposal"):
            continue
        if item.status == "superseded":
            newer = by_supersedes.get(item.id)
            while newer is not None and newer.status == "superseded" and newer.id in by_supersedes:
                newer = by_supersedes[newer.id]
            note = t["superseded"].format(new=plain_value(in_language(newer.value, lang))) \
                if newer is not None and newer.status in ("active", "pending") else t["superseded_gone"]
        elif item.status == "revoked":
            note = t["revoked"]
        else:
            continue
        if note not in notes.get(item.source_message_id, []):
            notes.setdefault(item.source_message_id, []).append(note)
    return notes


def guard_note(findings: Sequence[GuardFinding], lang: str) -> str:
    """One line of correction for a reply asked for again: what counts now, for each finding
    the guard can fix (a cut-off reply is continued, not corrected)."""
    text = guard_text(lang)
    parts = []
    for f in findings:
        if f.kind == "cut_off" or (f.kind == "revoked" and not f.old) or (f.kind != "revoked" and not f.current):
            continue
        part = text[f.kind].format(current=f.current, old=f.old)
        if part not in parts:
            parts.append(part)
    return f"{text['lead']}{text['join'].join(parts)}{text['end']}" if parts else ""
