"""Is a reply an answer? The program's checks on every reply, before it feeds the next prompt.

A small model that copies its own earlier reply, echoes the user's message or pastes the
prompt's memory scaffolding back will do it again next turn if that reply is fed back as
history. These checks are pure and deterministic (no model): the chat regenerates a
degenerate reply once and keeps it out of the history the model sees; ``bench health``
scores whole conversations with the same checks.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal

from desktop_app.engine.protocol import ScriptHold
from desktop_app.lexicon import CJK, cue, fires, first_match, lexicon_words
from desktop_app.memory.lang.amounts import dateless_amounts
from desktop_app.memory.lang.text import marks_aside, numbers, rule_language, script_language, split_sentences
from desktop_app.memory.repeats import SAID_BEFORE_SHARE, said_before, similarity, squash, without_empty_opening
from desktop_app.memory.reply_form import form_finding, repeated_block
from desktop_app.memory.scaffolding import labels_pasted, pasted_notes, scaffolding_in
from desktop_app.memory.write.mood import is_question, is_small_talk
from desktop_app.memory.write.vetting import chatting
from desktop_app.prompts import LANGS, acknowledge_text, retry_text

NEAR_COPY = 0.8  # at least this similar to an earlier reply (or to the user's message) is a copy
UNCHANGED = 0.97  # … or this similar, when the user asked for it to change ("add what we need for a barbecue")
MIN_COPY_CHARS = 12  # shorter replies ("OK!", "好的") may repeat without being a loop
# The user's own message back, though, is an echo from a few characters on ("手冲咖啡怎么做？" is 8).
MIN_ECHO_CHARS = 5
# A reply of a word or two with no number ("One thing.", "好的。") answers nothing a user wrote at
# length: fewer words than this (Chinese: characters) to a message at least this long is empty.
FEW_WORDS, FEW_CJK = 4, 6
STANDING_LEAD_WORDS = 6  # "from now on", "以后", "从现在开始": a clause this short that sets a rule leads the next
LONG_MESSAGE_WORDS, LONG_MESSAGE_CJK = 10, 20
# ... and a reply of no word at all ("ok", "👍") answers nothing a user wrote at this length (not "Thanks!", not "Noted."
# to "The budget must stay under 5000 dollars.")
SOME_MESSAGE_WORDS, SOME_MESSAGE_CJK = 8, 12
SubstanceKind = Literal["copy", "echo", "scaffolding", "refusal", "language", "empty", "promise", "loop", "template",
                        "unfilled"]
# What makes a reply degenerate: it must not be fed back, and the chat asks once more. (A small
# model's refusal of an ordinary request is a loop too: it refuses again once it has seen itself do it.)
DEGENERATE: frozenset[str] = frozenset({"copy", "echo", "scaffolding", "refusal", "loop"})
# What is worth asking for once more, though harmless as history: a reply in the wrong language, or
# one that only asks for what memory already holds (another seed usually answers).
# A letter template with blanks to fill ("Dear [Wife's Name], … Best regards, [Your Name]") is asked for
# once more too, and so is a reply that is only a number ("12人" to "大概12个人，老老少少都有", run H;
# "Noted." to a statement is an answer).
# A list announced and not given ("Here are some starter ideas for your dinner party:" and nothing, run S) too.
WORTH_RETRY: frozenset[str] = DEGENERATE | {"language", "promise", "template", "unfilled"}
ONLY_A_NUMBER = "only a number"
A_WORD_OR_TWO = "a word or two for a long message"
# No answer, though no copy: asked for once more with a line saying so (round twenty-four: "Full-service movers" to
# "Should we hire full-service movers or just a man-and-van?", "Biscuit, packing herself" to a story of the cat).
EMPTY_RETRIED = frozenset({ONLY_A_NUMBER, A_WORD_OR_TWO})
SHORT_RUN = 3  # the same short reply this many times in a row is a copy, whatever the messages
SHORT_REPLY = 160  # characters: a refusal or a promise this short is all the reply says

_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


@dataclass(frozen=True)
class HealthFinding:
    """One reason a reply is not a healthy answer."""

    kind: SubstanceKind
    detail: str

    @property
    def degenerate(self) -> bool:
        return self.kind in DEGENERATE


def echoes(reply: str, user_text: str) -> bool:
    """The reply is the user's message again, or opens by repeating it (then goes on): reworded a
    little, or word for word from its start for at least half of it, however short the message
    ("我刚才说谁过敏来着？对什么过敏？ 预算: 1200" to "我刚才说谁过敏来着？对什么过敏？我怕记混了")."""
    if similarity(reply, user_text) >= NEAR_COPY:
        return True
    message = marks_aside(user_text)
    shared = len(os.path.commonprefix([message, marks_aside(reply)]))
    if shared >= max(MIN_COPY_CHARS, (len(message) + 1) // 2):
        return True
    asked = squash(user_text)
    opening = squash(reply)[: len(asked) + 4]
    return len(asked) >= 2 * MIN_COPY_CHARS and similarity(opening, asked) >= ECHO_OPENING



def _run_of(reply: str, user_text: str) -> bool:
    """The reply, marks aside, is a run of at least half of the user's message: the message said
    back cut short ("今年年夜饭轮到我家做，有点慌。" to "今年年夜饭轮到我家做，有点慌，帮我想想菜单"), which a
    similarity of the whole texts (0.78 here) lets through."""
    piece, whole = marks_aside(reply), marks_aside(user_text)
    return len(piece) >= max(MIN_ECHO_CHARS, (len(whole) + 1) // 2) and piece in whole


HELD_MESSAGE = 0.6  # a run of this share of a long message, inside a reply, is the message said back
HELD_LATIN, HELD_CJK = 60, 20  # characters, marks aside: a shorter message may be quoted in an answer


def _holds_message(reply: str, user_text: str) -> bool:
    """A long message said back inside the reply ("**New Info:** Our younger one Mia has a tree nut
    allergy. Cashews, almonds, all of it." in a reply to that message): a run of most of it. (A
    summary may restate the request for it: "Here's the full final plan with all my constraints".)"""
    whole, text = marks_aside(user_text), marks_aside(reply)
    dense = 2 * len(_CJK_CHAR.findall(whole)) >= len(whole)
    if len(whole) < (HELD_CJK if dense else HELD_LATIN) or fires("request.recap", user_text):
        return False
    run = SequenceMatcher(None, whole, text, autojunk=False).find_longest_match(0, len(whole), 0, len(text)).size
    return run >= HELD_MESSAGE * len(whole)


def _piece_of(reply: str, user_text: str) -> bool:
    """The reply, marks aside, is a run of the user's message ("1200", "8个人", "虾过敏"), which
    asked nothing (to "Lisbon or Porto?", "Lisbon" is the answer)."""
    if re.search(r"[?？]", user_text):
        return False
    piece, whole = marks_aside(reply), marks_aside(user_text)
    return bool(piece) and len(whole) >= max(MIN_ECHO_CHARS, 2 * len(piece)) and piece in whole


_CLAUSE = re.compile(r"[^，,。！!？?；;…\n]+[，,。！!？?；;…]*")


def _told_clause(reply: str, user_text: str) -> bool:
    """The reply, marks aside, is one or more whole clauses of a message that asks something, none
    of them the question ("我怕记混了。" to "我刚才说谁过敏来着？对什么过敏？我怕记混了", run M): what the
    message told said back, and nothing of the question's answer ("Lisbon" to "Lisbon or Porto?" is
    no clause; to a message that asks nothing, ``_piece_of`` judges)."""
    if not re.search(r"[?？]", user_text):
        return False
    piece = marks_aside(reply)
    if len(_CJK_CHAR.findall(piece)) < 3 and len(_LATIN_WORD.findall(reply)) < 2:
        return False
    clauses = [c for c in _CLAUSE.findall(user_text) if marks_aside(c)]
    for start in range(len(clauses)):
        joined = ""
        for clause in clauses[start:]:
            if re.search(r"[?？]", clause) or is_question(clause):
                break
            joined += marks_aside(clause)
            if joined == piece:
                return True
            if len(joined) >= len(piece):
                break
    return False


_QUOTED = re.compile(r'["“「『]([^"”」』]{8,})["”」』]')
QUOTE_FRAME = 120  # characters, squashed: a reply this short outside its quotes only frames them


def _quotes_the_user(reply: str, messages: Sequence[str]) -> bool:
    """The reply's substance is the user's own words in quotation marks, framed by a sentence of its own
    ("I would recommend the new itinerary for your family: \"We're thinking 7 days.\"", run P, three
    times): the user's message said back as the answer."""
    quoted = [m.group(1) for m in _QUOTED.finditer(reply)]
    if not quoted or len(squash(_QUOTED.sub(" ", reply))) > QUOTE_FRAME:
        return False
    said = [marks_aside(m) for m in messages if m.strip()]
    pieces = [marks_aside(p) for q in quoted for p in re.split(r"(?<=[.。!！?？;；])\s*", q) if marks_aside(p)]
    return bool(pieces) and all(any(piece in m for m in said) for piece in pieces)


MIN_GLEANED = 6  # characters, marks aside: a reply this long made only of the message's words, in order


def _gleaned(reply: str, user_text: str) -> bool:
    """The reply, marks aside, is the message's own characters in their order with some left out
    ("请客，小雨对虾过敏" to "周六在家请客，大概8个人，我表妹小雨对虾过敏", a Pilot walk): the message said
    back cut up, nothing of the reply's own. Not to a question (its answer may be words of it)."""
    if is_question(user_text):
        return False
    message, whole = marks_aside(user_text), marks_aside(reply)
    if len(whole) < MIN_GLEANED:
        return False
    # A Chinese reply may put a word or two of its own in ("结论已经先行，正常说就行。" to "结论先行那个不用了，正常说
    # 就行", run O): at most a fifth of its characters. (Latin letters are too few to tell: all of them.)
    slack = len(whole) // 5 if len(_CJK_CHAR.findall(whole)) * 2 >= len(whole) else 0
    at = 0
    for char in whole:
        found = message.find(char, at)
        if found < 0:
            slack -= 1
            if slack < 0:
                return False
        else:
            at = found + 1
    return True


OPENING_CHARS = 40  # from this many characters on, a streaming reply's opening is watched
SAME_OPENING = 0.9  # an opening this like an earlier reply's is a copy
# An opening this like the user's message is the message said back, reworded a little ("…could use
# some help organizing it" for "…help getting it organised").
ECHO_OPENING = 0.8


def degenerate_opening(text: str, *, user_text: str, earlier_replies: Sequence[str] = (),
                       earlier_messages: Sequence[str] = ()) -> HealthFinding | None:
    """Why a reply still streaming is already degenerate — it pastes the prompt's scaffolding,
    repeats the user's message, opens exactly like an earlier reply, or says a block of itself again — else
    None. Lets the chat stop a loop after a line instead of after the whole reply."""
    squashed = squash(text)
    if len(squashed) < OPENING_CHARS:
        return None
    piece = scaffolding_in(text)
    if piece:
        return HealthFinding("scaffolding", f"contains the prompt's {piece!r}")
    # (looked for as a line ends: run S's "Here are some other options: …" went on five times, to the token limit)
    if text.endswith("\n") and (block := repeated_block(text)) is not None:
        return HealthFinding("loop", f"says the block {block[:40]!r}… again")
    for said in (user_text, *earlier_messages):
        asked = squash(said)
        if len(asked) >= 2 * MIN_COPY_CHARS and similarity(squashed[: len(asked)], asked[: len(squashed)]) >= ECHO_OPENING:
            return HealthFinding("echo", "repeats a message of the user's")
    for earlier in earlier_replies:
        theirs = squash(earlier)[: len(squashed)]
        if len(theirs) >= OPENING_CHARS and similarity(squashed[: len(theirs)], theirs) >= SAME_OPENING:
            return HealthFinding("copy", "opens like an earlier reply")
    return None


def reply_language(text: str) -> str | None:
    """"zh" or "en" by the script of the reply's words; None when it has too few to tell or is
    mixed (then neither is wrong)."""
    return script_language(text)


def asks_for_translation(user_text: str) -> bool:
    """The message asks for a translation ("请翻译成英文：…", "how do you say … in French"): the
    reply is in the language asked for, whatever the turn's or a rule's language."""
    return fires("reply.translation", user_text)


def expected_language(user_text: str, rules: Iterable[str], default: str) -> str:
    """The language a reply should be in: an active language rule's, else the message's, else ``default``."""
    return rule_language(rules) or reply_language(user_text) or default


LOOP_TIMES = 5  # one short piece said this many times in a row is a loop ("60多，60多，60多，60多，60多")
_LOOP = re.compile(r"(\S.{0,11}?)(?:[\s,，、;；.。]*\1){" + str(LOOP_TIMES - 1) + ",}")
_WORDLIKE = re.compile(f"[A-Za-z{CJK}]")


def loops(reply: str) -> str | None:
    """The piece a reply says over and over (a small model's loop), or None. Rules and tables of
    marks ("|---|---|") are no loop: the piece must hold a letter or a Chinese character."""
    for match in _LOOP.finditer(reply):
        if _WORDLIKE.search(match.group(1)) and len(match.group(0)) >= MIN_COPY_CHARS:
            return match.group(1).strip()
    return None


_HAN_RUN = re.compile(f"[{CJK}]+")


def _stray_chinese(reply: str, said: Sequence[str]) -> str | None:
    """A run of Chinese characters in ``reply`` that none of the user's messages holds."""
    return next((run for run in _HAN_RUN.findall(reply) if not any(run in text for text in said)), None)


# A lower-case Latin word touching a Chinese character or mark ("帮我想想menu", "how处理", "饮食 habits。").
_MARKS = "，。、；：！？（）"
_TOUCHING_LATIN = re.compile(f"(?<=[{CJK}{_MARKS}])\\s?([a-z]{{2,}})(?![A-Za-z])"
                             f"|(?<![A-Za-z])([a-z]{{2,}})\\s?(?=[{CJK}{_MARKS}])")


@lru_cache(maxsize=1)
def _latin_in_chinese() -> frozenset[str]:
    return frozenset(w for lang in LANGS for w in lexicon_words("reply.latin_in_chinese", lang))


def script_hold(expected_lang: str | None, said: Sequence[str], *, hold_opening: bool = False) -> ScriptHold | None:
    """What the engine holds a reply in ``expected_lang`` to while it samples it, so that the reply never has
    the stray word this module finds in it (``_stray_english``, ``_stray_chinese``): in Chinese, the English words
    of ``said`` (the user's messages, memory's values) and those Chinese writes in Latin letters itself; in
    English, the Chinese that ``said`` holds. None for another language, or none known."""
    if expected_lang == "zh":
        words = {w.lower() for text in said for w in re.findall(r"[A-Za-z]+", text)}
        return ScriptHold("zh", words=frozenset(words) | _latin_in_chinese(), opening=_latin_in_chinese(),
                          hold_opening=hold_opening)
    if expected_lang == "en":
        return ScriptHold("en", said=tuple(said))
    return None


def _stray_english(reply: str, said: Sequence[str]) -> str | None:
    """A lower-case English word inside a Chinese reply, touching its characters, that no message of
    the user's holds and that Chinese does not write in Latin letters itself ("app", "wifi")."""
    for match in _TOUCHING_LATIN.finditer(reply):
        word = match.group(1) or match.group(2)
        if word not in _latin_in_chinese() and not any(re.search(rf"\b{word}\b", text.lower()) for text in said):
            return word
    return None


def check_reply(reply: str, *, user_text: str, earlier_replies: Sequence[str] = (), expected_lang: str | None = None,
                memory_held: bool = False, earlier_messages: Sequence[str] = (),
                notes: Sequence[str] = ()) -> list[HealthFinding]:
    """Everything wrong with ``reply`` as an answer to ``user_text`` (empty when it is healthy).

    ``earlier_replies``: the session's replies before this one; ``expected_lang``: the
    language it must be in (the turn's, or an active language rule's); ``memory_held``:
    memory already holds values, so a reply that only asks for them is no answer;
    ``earlier_messages``: the user's earlier messages (a reply repeating one of them — a rule it
    was told, say — is an echo too); ``notes``: the values the memory briefing showed (two of
    them in a row, joined as the briefing joins them, are the notes pasted back)."""
    findings: list[HealthFinding] = []
    text = reply.strip()
    squashed = squash(text)
    # A number is a word of an answer ("July 14", "5 people"): only a reply of fewer than two is empty.
    cjk, words, numbers = len(_CJK_CHAR.findall(text)), len(_LATIN_WORD.findall(text)), len(_NUMBER.findall(text))
    if (cjk < 2 and words + numbers < 2 or cjk < FEW_CJK and words < FEW_WORDS) and _piece_of(text, user_text) \
            or _told_clause(text, user_text):
        # "1200" to "人少了那预算就压到1200吧", "虾过敏" to "我表妹小雨对虾过敏…": the message said back in
        # part, which the 0.5B then repeats turn after turn.
        return [HealthFinding("echo", "only a piece of the user's message")]
    if cjk < 2 and words + numbers < 2:
        if numbers and not words and any(squash(e) == squashed for e in earlier_replies):
            # Run H: "12人" once, then "12人" to every message after it (too short to compare as a copy).
            return [HealthFinding("copy", "the same number as an earlier reply")]
        # (A number alone answers "how many?"; to a message that only tells, it is no answer.)
        if numbers and not words and tells_only(user_text):
            return [HealthFinding("empty", ONLY_A_NUMBER)]
        if not numbers and (len(_CJK_CHAR.findall(user_text)) >= SOME_MESSAGE_CJK
                            or len(_LATIN_WORD.findall(user_text)) >= SOME_MESSAGE_WORDS):
            # "ok" to "哈哈好难，看你的英文我都要查词典" (bench health round twenty-five, kept): asked for once more
            return [HealthFinding("empty", A_WORD_OR_TWO)]
        return [HealthFinding("empty", "no words")]
    before = list(earlier_replies)
    if len(squashed) < MIN_COPY_CHARS and before and squash(before[-1]) == squashed and not is_small_talk(user_text) and (
            not tells_only(user_text)
            or len(before) >= SHORT_RUN - 1 and all(squash(e) == squashed for e in before[1 - SHORT_RUN:])):
        # Run I: "菜单更新了。" to eleven messages in a row, questions among them (too short to compare as a
        # copy); "OK!" to thanks and "好的，已记下。" to what the user tells are answers, twice in a row
        # (a third time, it says nothing of what was told).
        return [HealthFinding("copy", "the same short reply as the last one")]
    asked_cjk, asked_words = len(_CJK_CHAR.findall(user_text)), len(_LATIN_WORD.findall(user_text))
    if not numbers and cjk < FEW_CJK and words < FEW_WORDS \
            and (asked_cjk >= LONG_MESSAGE_CJK or asked_words >= LONG_MESSAGE_WORDS):
        return [HealthFinding("empty", A_WORD_OR_TWO)]
    # Asked what the user said ("我之前说的几号出发来着？"), a reply says the user's earlier words, and what an
    # earlier reply noted of them ("好的，记下了：出发日期 10月1号"); asked what it recommended ("你刚才推荐的那个
    # 地方叫什么？"), it says its own again.
    asks_said = _asks_back(user_text, "recall.asks_said")
    said = [] if asks_said else list(earlier_messages)
    compared = [] if asks_said or _asks_back(user_text, "recall.asks_reply") else before
    # Asked to change what it gave, a reply keeps most of it: only the same again is a copy.
    near = UNCHANGED if fires("request.revise", user_text) else NEAR_COPY
    if len(squashed) >= MIN_COPY_CHARS:
        for n, earlier in enumerate(reversed(compared), start=1):
            score = similarity(text, earlier)
            if score >= near and not _names_news(text, earlier, user_text):
                findings.append(HealthFinding("copy", f"{score:.0%} like the reply {n} back"))
                break
    if len(squashed) >= MIN_ECHO_CHARS and (echoes(text, user_text) or _run_of(text, user_text) or _gleaned(text, user_text)
                                           or echoes(without_empty_opening(text), user_text)):
        findings.append(HealthFinding("echo", "repeats the user's message"))
    elif _holds_message(text, user_text):
        findings.append(HealthFinding("echo", "holds the user's message, said back inside it"))
    elif len(squashed) >= MIN_COPY_CHARS and any(echoes(text, message) or _run_of(text, message) for message in said):
        findings.append(HealthFinding("echo", "repeats an earlier message of the user's"))
    elif (len(aside := marks_aside(text)) >= MIN_COPY_CHARS or cjk >= FEW_CJK) \
            and any(aside in marks_aside(message) for message in (user_text, *said)):
        # bench health round eight: "Let's say €6,500 instead." — all of it a clause of a message the
        # user wrote four turns before (the 0.5B's reply to a change of the dates).
        findings.append(HealthFinding("echo", "is a piece of a message of the user's"))
    if not findings and _quotes_the_user(text, [user_text, *said]):
        findings.append(HealthFinding("echo", "quotes the user's words as its answer"))
    if not findings and (repeated := _said_before(text, user_text, compared, said)):
        findings.append(repeated)
    if not findings and (form := form_finding(text, user_text=user_text, messages=said,
                                              lang=expected_lang or reply_language(text) or "en")):
        # Read blind, run S: a block said twice, "Here are some starter ideas…:" and nothing, the question said
        # back, the user's first sentence opening the final plan.
        findings.append(HealthFinding(*form))
    looped = loops(text)
    if looped:
        findings.append(HealthFinding("loop", f"says {looped!r} over and over"))
    piece = scaffolding_in(text)
    meta = first_match("reply.meta", text)
    if piece:
        findings.append(HealthFinding("scaffolding", f"contains the prompt's {piece!r}"))
    elif meta is not None:
        # bench health round eight: retried, the 0.5B answered the note, not the user ("Here's the
        # revised response: **New Info:** <the user's message>").
        findings.append(HealthFinding("scaffolding", f"speaks of itself as a version: {meta.group(0)!r}"))
    elif not fires("request.recap", user_text) and pasted_notes(text, notes):
        # (A summary of everything that lists the values as the user said them is an answer.)
        findings.append(HealthFinding("scaffolding", "pastes the memory notes back"))
    elif labels_pasted(text, notes):
        # (… but not the notes with their labels, as the briefing joins them: run U's final plan)
        findings.append(HealthFinding("scaffolding", "pastes the memory notes back, labels and all"))
    lang = reply_language(text)
    if expected_lang and lang and lang != expected_lang:
        findings.append(HealthFinding("language", f"in {lang}, expected {expected_lang}"))
    elif expected_lang == "en" and (stray := _stray_chinese(text, [user_text, *earlier_messages])):
        # Under Pilot the 0.5B wrote "an initial预算 of 800 euros": a word of the other language in
        # a reply mostly in English. (A Chinese name the user wrote is theirs to quote.)
        findings.append(HealthFinding("language", f"the Chinese {stray!r} inside an English reply"))
    elif expected_lang == "zh" and (stray := _stray_english(text, [user_text, *earlier_messages, *notes])):
        # bench health round eight: "帮我想想menu", "请问 how处理？", "对 my饮食", "减少 unnecessary开支".
        findings.append(HealthFinding("language", f"the English {stray!r} inside a Chinese reply"))
    blank = first_match("reply.placeholder", text)
    if blank is not None and blank.group(0) not in user_text:
        # Under Pilot the 0.5B answered a trip plan as a letter: "Dear [Wife's Name], …".
        findings.append(HealthFinding("template", f"a blank to fill: {blank.group(0)!r}"))
    if len(squashed) < SHORT_REPLY and fires("reply.refusal", text):
        findings.append(HealthFinding("refusal", "refuses an ordinary request"))
    if memory_held and len(squashed) < SHORT_REPLY and fires("reply.promise", text):
        findings.append(HealthFinding("promise", "only promises or asks for what memory holds"))
    return findings


_LIST_NUMBER = re.compile(r"(?m)^\s*(?:[-*]\s*)?(?:\*\*)?\d+[.)、．]")


def _names_news(text: str, earlier: str, user_text: str) -> bool:
    """``text`` names a number of the message, or one the message's number comes to, that ``earlier`` did not:
    however alike in wording, it answers the news ("Got it. Noted: budget €6,500 (was €5,000)." after "Got it.
    Noted: budget €5,000." is no copy; bench health round fifteen)."""
    def said(t: str) -> set[object]:
        # Amounts by value ("1万" of "预算 1万（之前是1万5）" is news after "预算 1万5"), days as written ("April 5"
        # after "moving day March 29": a list's "5." said before is no April 5), a list's numbers none (bench health
        # G5: "5个小时（之前是3个小时）" was no news after a plan numbered 1 to 8)
        t = _LIST_NUMBER.sub(" ", t)
        days = {m.group(0).lower() for lang in LANGS if (pattern := cue("time.date", lang)) is not None
                for m in pattern.finditer(t)}
        return {a.value for a in dateless_amounts(t)} | days or {n.replace(",", "") for n in numbers(t)}
    # (or a value it comes to: "人均的预算 9000（之前是8000）" to "人均再加1000吧", after "4个人（之前是5个人）"; or the day
    # it moves to: "departure june 21 (was june 14)" to "let's push the whole thing back a week")
    moves = fires("shift.days_later", user_text) or fires("shift.days_earlier", user_text)
    if bool(said(text) - said(earlier)) and (bool(said(user_text)) or moves):
        return True
    # A value said with the one it replaces ("budget £150 (was £120)") is news whatever an earlier plan happened to name
    # (bench health G13, hc-en-10: the 0.5B had priced tents at £150, so the new budget read as said before)
    changed = [m for lang in LANGS for m in re.finditer(_was_pattern(lang), text)]
    return any(said(text[:m.start()]) & said(user_text) - said(m.group(0)) for m in changed)


@lru_cache(maxsize=4)
def _was_pattern(lang: str) -> str:
    """The change marker of the program's acknowledgments in ``lang`` (" (was {old})"), with its old value."""
    lead, _, tail = acknowledge_text(lang)["was"].partition("{old}")
    return re.escape(lead) + r".{1,40}?" + re.escape(tail)


def asks_what_was_said(user_text: str) -> bool:
    """The message asks what the user said before ("What budget did I give you?", "我之前说的几号出发来着？")."""
    return _asks_back(user_text, "recall.asks_said") or _asks_back(user_text, "recall.asks_name")


def only_asks_what_was_said(user_text: str) -> bool:
    """The message asks what the user said before and for nothing else ("我刚才说谁过敏来着？对什么过敏？我怕记混了";
    not "What budget did I give you? Plan the menu within it.")."""
    if not asks_what_was_said(user_text) or fires("request.recap", user_text):
        return False
    clauses = [c.strip() for c in re.split(r"[,，;；:：.。!！?？]\s*", user_text) if c.strip()]
    return not any(_requests(c) or fires("request.revise", c) for c in clauses)


def _requests(clause: str) -> bool:
    """The clause asks the assistant to do something now ("Plan day one around it", "帮我安排第一天", "…and could use
    some help"): the lexicon's ``request.ask``, ``request.to_assistant`` and ``request.for_help``."""
    return any(fires(concept, clause) for concept in ("request.ask", "request.to_assistant", "request.for_help"))


def _asks_back(user_text: str, concept: str) -> bool:
    """The message asks what was said before (``recall.asks_said``: by the user; ``recall.asks_reply``: by
    the assistant): a question that is no request for something new ("你说我要不要再加个甜品？",
    "你给我再推荐几个素菜" are; "就按我说的来" is no question)."""
    return fires(concept, user_text) and is_question(user_text) and not _A_NOT_A.search(user_text) \
        and not fires("request.revise", user_text) and not fires("request.to_assistant", user_text)


def _said_before(text: str, user_text: str, earlier_replies: Sequence[str],
                 earlier_messages: Sequence[str]) -> HealthFinding | None:
    """Most of the reply's sentences said before, each reworded a little (memory.repeats): earlier
    replies again (run J's hc-zh-01, three times), or the user's messages back. What may say them again:
    a summary of everything, thanks for thanks, an answer to "what did you recommend?" (the earlier
    replies) and a plan changed as asked ("add what we need for a barbecue": most of the last one
    stays). The answer to a question is not compared with the user's messages sentence by sentence:
    it may mirror the question ("No, you don't need a visa for Portugal." to "Do I need a visa for
    Portugal?") or give back what the user told ("你们预算是两万五" to "我们预算是多少？"); said back whole,
    it is an echo all the same. Asked what the user said, the answer may say what an earlier reply noted."""
    if fires("request.recap", user_text) or is_small_talk(user_text):
        return None
    # (Asked what the user said, the answer says again what an earlier reply noted: "我记下的是：出发日期：10月1号。"
    # after "好的，记下了：出发日期 10月1号；6天。" is no copy.)
    # (Asked to drop a rule, a short answer names the rule, in the words said before: "Got it. I'll stop following this
    # rule: a one-line answer first and then the details underneath." was judged a copy, bench health G11 hc-en-14.)
    drops_rule = fires("intent.revoke", user_text) and len(split_sentences(text)) <= 2
    replies = () if fires("request.revise", user_text) or asks_what_was_said(user_text) or drops_rule \
        else earlier_replies
    repeated = said_before(text, earlier_replies=replies,
                           messages=[] if is_question(user_text) else [user_text, *earlier_messages])
    if repeated is None or repeated.share < SAID_BEFORE_SHARE:
        return None
    if repeated.from_replies:
        if _names_news(text, "\n".join(replies), user_text):
            return None
        return HealthFinding("copy", f"{repeated.share:.0%} of it said in earlier replies")
    return HealthFinding("echo", f"{repeated.share:.0%} of it the user's messages said back")


def retry_note(findings: Iterable[HealthFinding], user_text: str, lang: str) -> str:
    """The line put before the input when a reply is asked for once more: what was wrong with it
    ("answer in your own words …"), and, to a message that only tells something ("我弟也要去，那就5个人
    了"), what an answer to it is. "" when nothing in the findings has a line."""
    text = retry_text(lang)
    kinds = [f.kind for f in findings if f.kind in WORTH_RETRY or f.kind == "empty"]
    lines = [text[kind] for kind in dict.fromkeys(kinds) if text.get(kind)]
    if lines and tells_only(user_text):
        lines.append(text["statement"])
    return f"{text['lead']}{text['join'].join(lines)}{text['end']}" if lines else ""


def language_note(user_text: str, rules: Iterable[str]) -> str:
    """The line put before a message not written in the language an active rule sets ("以后都用英文回答我" and then
    "有两个同事是清真" or "What should I focus on first? 我口语最差"), in the rule's language: "" with no such rule,
    for a message in that language, or one asking for a translation. (Shown the rule among the notes alone, the
    0.5B answered the Chinese messages after it in Chinese, retries included.)"""
    lang = rule_language(rules)
    if lang is None or reply_language(user_text) == lang or asks_for_translation(user_text):
        return ""
    text = retry_text(lang)
    return f"{text['lead']}{text['language']}{text['end']}"


def remark_note(user_text: str, lang: str) -> str:
    """The line put before a passing remark (the caller knows memory took nothing from it): a message that asks
    nothing and laughs, thanks or talks of the weather ("haha ok, Alfama sounds cute but I'm not hauling suitcases up
    those hills lol", "哈哈好吧，我妈已经开始研究穿什么拍照了" — "穿什么" asks nothing, "ugh the weather is awful today…"),
    answered in a sentence or two (run U: the 0.5B announced tips, or spoke of the budget, to each). "" for any
    other message ("Remind me what you said about octopuses" asks)."""
    if re.search(r"[?？]", user_text) or fires("request.ask", user_text) or fires("request.recap", user_text) \
            or not chatting(user_text):
        return ""
    return str(retry_text(lang)["remark"])


def tells_only(user_text: str) -> bool:
    """The message asks nothing and requests nothing: it tells ("We're 5 now", "我爸有高血压")."""
    sentences = split_sentences(user_text)
    return not re.search(r"[?？]", user_text) and not any(
        (fires("request.ask", s.strip()) or is_question(s.strip())) and not _sets_a_rule(s) for s in sentences)


def _sets_a_rule(text: str) -> bool:
    """A standing rule said as a request ("Please keep all your answers under 100 words from now on"): it tells
    how to answer from now on, it asks for nothing now (run P: answered "Okay, I'm ready. Please let me know…")."""
    return fires("rule.standing", text)


_A_NOT_A = re.compile(f"([{CJK}])不\\1")  # "够不够", "要不要": a question without a question mark


def only_tells(user_text: str) -> bool:
    """``tells_only``, clause by clause: no clause asks ("现在12个人了，菜够不够"), requests ("Budget is 1500
    now, please redo the itinerary") or asks for what was given to change ("We're 10 now, so update the
    menu"; the lexicon's ``request.revise``). Only such a message may be answered by what memory took in."""
    if not tells_only(user_text) or _A_NOT_A.search(user_text) or fires("request.recap", user_text):
        return False
    clauses = _with_standing_lead([c.strip() for c in re.split(r"[,，;；:：]\s*", user_text) if c.strip()])
    if any(fires("request.revise", c) for c in [user_text, *clauses]):
        return False
    return not any((_requests(c) or is_question(c)) and not _sets_a_rule(c) for c in clauses)


def _with_standing_lead(clauses: list[str]) -> list[str]:
    """The clauses, a clause that is only "from now on" ("From now on, give me a one-line answer first …", "以后，…")
    read with the one after it: the request it leads is the rule (bench health G4 and G5, hc-en-14: the model
    answered it, with the room's size)."""
    out: list[str] = []
    for clause in clauses:
        if out and _sets_a_rule(out[-1]) and len(_LATIN_WORD.findall(out[-1])) + len(_CJK_CHAR.findall(out[-1])) \
                <= STANDING_LEAD_WORDS:
            out[-1] = f"{out[-1]}, {clause}"
        else:
            out.append(clause)
    return out


def degenerate(findings: Iterable[HealthFinding]) -> bool:
    """Whether a reply with these findings must be regenerated and kept out of the history."""
    return any(f.degenerate for f in findings)


def worth_retry(findings: Iterable[HealthFinding]) -> bool:
    """Whether a reply with these findings is asked for once more (degenerate, or no answer)."""
    return any(f.kind in WORTH_RETRY or f.kind == "empty" and f.detail in EMPTY_RETRIED for f in findings)
