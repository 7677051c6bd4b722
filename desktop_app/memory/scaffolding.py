"""What of the prompt a reply pasted back: its labels, ids and stamps, the retry's line, the memory notes.

A small model continues whatever looks like text to continue: "当前任务：…", "#3 [constraint]", the
retry's own "Note for this reply: …", two of the briefing's notes in a row. These checks find that
scaffolding in a reply (``memory.reply_health`` calls it no answer), and ``without_scaffolding`` keeps
what is left of an answer with a label pasted into it. Pure and deterministic (no model).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from desktop_app.languages import LANGS
from desktop_app.memory.lang.text import CJK_CHAR as _CJK_CHAR
from desktop_app.memory.repeats import similarity, squash
from desktop_app.prompts import templates

MIN_PIECE_CHARS = 12  # a piece of a reply shorter than this (and than MIN_NOTE_CJK) is not compared with a line

_KINDS = "directive|fact|constraint|preference|decision|goal|open_question"
# The prompt's structure, whatever its wording: an item id before a kind, a placeholder, kinds in brackets, clock stamps,
# quotation delimiters of documents, a state version, the old key marker.
_STRUCTURE = re.compile(
    rf"#\d+\s*\[|#\?|\[(?:{_KINDS})\]|\b\d{{4}}-\d{{2}}-\d{{2}} \d{{2}}:\d{{2}}\b|<<<|>>>|【关键】|\bKEY\b|"
    r"\bv\d+\s*[（(]|第\s*\d+\s*轮|\b[Tt]urn \d+\b")


@lru_cache(maxsize=1)
def scaffold_labels() -> tuple[str, ...]:
    """The fixed wording of the prompt's memory labels, in every language: a reply that
    contains one has copied the prompt, not answered."""
    labels: set[str] = set()
    for lang in LANGS:
        t = templates(lang)
        for table in ("layers", "summary", "guard", "retry"):
            for key, template in t[table].items():
                if table == "guard" and key in ("recap", "still_open", "everything"):
                    continue  # the program's own lines before what it adds to a summary
                # A label with its colon ("still undecided:", "当前任务：") is the prompt's, however short.
                head = re.match(r"^([^{:：]*[:：])", str(template).strip())
                if head and (len(_CJK_CHAR.findall(head.group(1))) >= 3 or len(head.group(1)) >= 10):
                    labels.add(head.group(1).lower())
                # So is an aside in brackets ("（以此为准）", "(this overrides the notes above)").
                for aside in re.findall(r"[（(][^{}（）()]+[）)]", str(template)):
                    if len(_CJK_CHAR.findall(aside)) >= 4 or len(aside) >= 14:
                        labels.add(aside.lower())
                # The mark before an old value ("{value}（原为 {old}）"): the 0.5B pastes "人数：5个人（原为 …）".
                before_old = re.search(r"\}([^{}]*)\{old\}", str(template))
                if before_old and len(_CJK_CHAR.findall(before_old.group(1))) >= 2:
                    labels.add(before_old.group(1).strip().lower())
                for piece in re.split(r"\{[^}]*\}|[\n:：;；()（）\[\]“”\"]", str(template)):
                    piece = piece.strip(" -—–,.，。、")
                    cjk = len(_CJK_CHAR.findall(piece))
                    if (cjk >= 6) or (not cjk and len(piece) >= 18):
                        labels.add(piece.lower())
    return tuple(sorted(labels, key=len, reverse=True))


def scaffolding_in(reply: str) -> str | None:
    """The first piece of the prompt's scaffolding found in ``reply``, else None: a label, an id, a
    stamp, or the retry's line reworded ("Note for this response: say something new …")."""
    match = _STRUCTURE.search(reply)
    if match:
        return match.group(0)
    lowered = reply.lower()
    return next((label for label in scaffold_labels() if label in lowered), None) or _retry_line_in(reply)


RETRY_LINE_ALIKE = 0.75  # a piece of a reply this like a line of the retry's note is that line said back
RETRY_PIECE_CHARS, RETRY_PIECE_CJK = 28, 6  # a piece of a line that long is compared on its own ("用一句话确认", run M)
# (A full stop ends a piece before a space: "…for the plan. With her".)
_PIECE = re.compile(r"(?:[^\n。！？!?;；:：，,.]|\.(?!\s))+")


@lru_cache(maxsize=1)
def _retry_lines() -> tuple[str, ...]:
    """The retry's lines in every language, whole and in their pieces ("acknowledge it in a sentence")."""
    lines = set()
    for lang in LANGS:
        for key, line in templates(lang)["retry"].items():
            if key not in ("join", "end"):
                text = str(line).strip(" :：")
                lines.add(squash(text))
                # (and what follows its colon: "acknowledge it in a sentence and say what it changes for the plan")
                lines.update(squash(p) for p in re.split(r"[:：]", text)[1:] if len(squash(p)) >= RETRY_PIECE_CHARS)
                # (A shorter piece is a phrase a reply may use: "let me give you a concrete suggestion".)
                lines.update(squash(p) for p in re.split(r"[:：,，;；]|\band\b", text)
                             if len(squash(p)) >= RETRY_PIECE_CHARS or len(_CJK_CHAR.findall(p)) >= RETRY_PIECE_CJK)
    return tuple(sorted(lines))


def _retry_line_in(reply: str) -> str | None:
    """A piece of ``reply`` (between end marks, colons and semicolons) that says a line of the
    retry's note again, reworded a little: the 0.5B, told "Note for this reply: say something new
    …", answered "Note for this response: say something new in a sentence …"."""
    for found in _PIECE.finditer(reply):
        piece = found.group(0)
        mine = squash(piece.strip(" -—–,.，、"))
        if len(mine) < MIN_PIECE_CHARS and len(_CJK_CHAR.findall(mine)) < MIN_NOTE_CJK:
            continue
        for line in _retry_lines():
            if similarity(mine, line) >= RETRY_LINE_ALIKE:
                return piece.strip()
    return None


# A sentence of a line: up to its end mark (an English full stop only before a space), or the line's end.
_CLAUSE = re.compile(r".+?(?:[。！？!?]+\s*|\.\s+|$)")


def without_scaffolding(reply: str) -> str:
    """``reply`` without the sentences that hold the prompt's scaffolding (a label, an id, a
    stamp): what is left of an answer with a label pasted into it; "" when nothing is."""
    lines = []
    for line in reply.strip().splitlines():
        if not line.strip():
            lines.append("")
            continue
        kept = "".join(piece for piece in _CLAUSE.findall(line) if scaffolding_in(piece) is None).rstrip()
        if kept == line.rstrip() and scaffolding_in(line) is not None:
            # a note of the prompt said across its clauses ("The user is just chatting. Reply in one short, friendly
            # sentence." at the top of a reply, bench health round twenty-one): the line goes
            kept = ""
        if kept.strip():
            lines.append(kept)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# What may stand between two notes pasted one after the other: the briefing's join, or any short
# run of punctuation and spaces ("…allergy. Cashews, …", "…；…", "\n- ").
_BETWEEN_NOTES = r"[\s;；,，.。、:：!！\-–—]{0,4}"
MIN_NOTE_CHARS, MIN_NOTE_CJK = 12, 6  # shorter values ("5 people", "7 days") follow each other in any answer


def _note_forms(notes: Sequence[str], *, short: bool = False) -> list[str]:
    """Each note as the briefing showed it and without its label ("tree nut allergy: Mia has …" →
    "Mia has …"), long enough that two in a row are no coincidence (``short``: any of four characters
    or more, "预算1000")."""
    forms: set[str] = set()
    for note in notes:
        value = note.strip().rstrip("。.;；")
        head, colon, body = value.partition(": ") if ": " in value[:40] else value.partition("：")
        for form in (value, body.strip() if colon and head else ""):
            if len(squash(form)) >= MIN_NOTE_CHARS or len(_CJK_CHAR.findall(form)) >= MIN_NOTE_CJK \
                    or short and len(squash(form)) >= 4:
                forms.add(squash(form))
    return sorted(forms)


# The briefing's own join between two values ("预算1000；我表妹小雨对虾过敏"): a short value beside a long one
# is the notes pasted back when the reply joins them as the briefing does (a Pilot walk, round thirteen).
_BRIEFING_JOIN = r"\s?[；;]\s?"


def pasted_notes(reply: str, notes: Sequence[str]) -> str | None:
    """Two of the briefing's values in a row, verbatim, with at most a few punctuation marks
    between them ("虾过敏: …；家庭: …", "Mia has a tree nut allergy. Cashews, almonds, all of it"): the
    memory notes pasted back, not an answer that uses them. Returns the pasted run, else None."""
    squashed = squash(reply)
    present = [f for f in _note_forms(notes) if f in squashed]
    for a in present:
        for b in present:
            if a != b and a not in b and b not in a:
                found = re.search(re.escape(a) + _BETWEEN_NOTES + re.escape(b), squashed)
                if found:
                    return found.group(0)
    long = set(present)
    for a in (f for f in _note_forms(notes, short=True) if f in squashed):
        for b in long:
            if a != b and a not in b and b not in a:
                found = re.search(f"{re.escape(a)}{_BRIEFING_JOIN}{re.escape(b)}|{re.escape(b)}{_BRIEFING_JOIN}"
                                  f"{re.escape(a)}", squashed)
                if found:
                    return found.group(0)
    return _labelled_notes_said_back(reply, notes)


def without_pasted_notes(reply: str, notes: Sequence[str]) -> str:
    """``reply`` without its sentences that hold a memory note verbatim, when it pasted the notes back (``pasted_notes``,
    ``labels_pasted``): what is left of an answer with the briefing pasted into it (bench health round twenty-five: "…搬家
    日子定在6月15号，周六；预算3000块，包括搬家公司和买收纳箱什么的；家里就我和我对象阿杰…" after its retry); else ``reply``."""
    if pasted_notes(reply, notes) is None and labels_pasted(reply, notes) is None:
        return reply
    forms = _note_forms(notes)
    pieces = re.split(r"(?<=[。！？!?；;\n])", reply)
    return "".join(p for p in pieces if not any(f in squash(p) for f in forms)).strip()


def labels_pasted(reply: str, notes: Sequence[str]) -> str | None:
    """Two notes with their labels, as the briefing joins them ("虾过敏: 虾一定不能有；预算控制: 人少了那预算就压到1500吧",
    run U's final plan): the briefing pasted back even in a summary of everything, which may list the values
    but not the notes. The pasted run, else None."""
    squashed = squash(reply)
    labelled = [squash(n) for n in notes if _NOTE_LABEL.match(n) and squash(n) in squashed]
    for a in labelled:
        for b in labelled:
            if a != b and (found := re.search(re.escape(a) + _BRIEFING_JOIN + re.escape(b), squashed)):
                return found.group(0)
    return None


NOTE_ALIKE = 0.75  # a piece of a reply this like a labelled note is the note said back


def _labelled_notes_said_back(reply: str, notes: Sequence[str]) -> str | None:
    """Notes as the briefing labels them ("菜预算: 1500以内"), said back in the reply's pieces a word or
    two off ("菜预算: 1500内。", "菜单: 有点慌，帮我想想菜单；…"), when they make at least half of it."""
    labelled = [note for note in notes if _NOTE_LABEL.match(note)]
    pieces = [piece for piece in _REPLY_PIECES.split(reply) if squash(piece)]
    said_back = [piece for piece in pieces if _NOTE_LABEL.match(piece.strip()) and not _said_by_program(piece)
                 and any(similarity(piece, note) >= NOTE_ALIKE for note in labelled)]
    covered = sum(len(squash(piece)) for piece in said_back)
    return said_back[0].strip() if said_back and covered * 2 >= len(squash(reply)) else None


_NOTE_LABEL = re.compile(r"^[^:：\n]{1,24}[:：]\s*\S")
_REPLY_PIECES = re.compile(r"[；;。\n]+")


@lru_cache(maxsize=1)
def _program_leads() -> tuple[str, ...]:
    """How the program's own answers open before the values they say ("What I have noted:", "好的，记下了："), in
    every language: the lead of a recollection or an acknowledgment, not a note's label."""
    leads = []
    for lang in LANGS:
        t = templates(lang)
        for line in (t["recollect"]["noted"], t["acknowledge"]["lead"] + t["acknowledge"]["noted"]):
            leads.append(squash(str(line).split("{", 1)[0]))
    return tuple(lead for lead in leads if lead)


def _said_by_program(piece: str) -> bool:
    """The piece opens as the program's own recollection or acknowledgment does."""
    return squash(piece).startswith(_program_leads())
