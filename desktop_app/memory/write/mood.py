"""How a sentence is said, which decides whether it writes memory at all: a question, a request
for something now, a supposition, someone else's words (quoted, relayed, pasted or handed over
to be processed), or small talk. The words live in ``assets/lexicon`` (``mood.*``, ``speech.*``,
``request.*``, ``material.*``, ``small_talk.*``); what a statement says is read in
:mod:`~desktop_app.memory.write.extraction`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from desktop_app.lexicon import LANGS, alternatives, cue, fires, lexicon
from desktop_app.memory.lang.text import without_lead_in


def rx(*patterns: str) -> re.Pattern[str]:
    """One case-insensitive pattern of alternatives."""
    return re.compile("|".join(patterns), re.IGNORECASE)


# Marks and spaces trimmed off a sentence's ends before it is read.
TRIM = " ，,。.!！?？；;：:\"'“”"
# A whole message that only says yes or no (``answer.affirm``, ``answer.deny``), one final mark at most.
AFFIRM = rx(rf"^({alternatives('answer.affirm', ('zh', 'en'))})[。.!！]?$")
DENY = rx(rf"^({alternatives('answer.deny', ('zh', 'en'))})[。.!！]?$")
# Questions ask about memory; they never write it ("what is the budget?", "预算是多少？").
# (The lexicon's ``mood.question``: ``^`` and ``$`` the start and end of the sentence only.)
QUESTION = rx(alternatives("mood.question", ("en", "zh")))
# Question words that ask nothing ("什么都行", "研究穿什么拍照"): left out before a sentence is read as a question.
INDEFINITE = rx(alternatives("mood.indefinite", ("zh", "en")))
# Hypotheticals suppose, they state nothing (the lexicon's ``mood.hypothetical``; ``^`` the start of
# the sentence only).
HYPOTHETICAL = rx(alternatives("mood.hypothetical", ("en", "zh")))
# Words the user passes on from someone else, or pasted material: never the user's own rule (the
# lexicon's ``speech.reported``, then what everyone says, ``speech.common``).
REPORTED = rx(alternatives("speech.reported", ("en", "zh")), alternatives("speech.common", ("zh", "en")))
# Relayed without quoting ("the sign said no diving", "my boss told me to …"): someone else's
# rule, never the user's — though the facts it relays ("they told me the venue takes 120") count.
# (The lexicon's ``speech.relayed``; ``^`` the start of the sentence only.)
RELAYED = rx(alternatives("speech.relayed", ("en", "zh")))
# Quoted passages, in any quotation marks (defined once: a second definition used to replace
# this one, so a rule in single quotes was taken for the user's own). An ASCII apostrophe counts
# only outside words (not "I'm … don't").
QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|『[^』]*』|‘[^’]*’|(?<![A-Za-z])'[^']+'(?![A-Za-z])")
_PASTED = re.compile(r"(?im)^\s*>.*$")
# Requests: ask the assistant to do something now, not state a value …
# (the lexicon's ``request.ask``, at the start of the sentence) …
REQUEST = rx(alternatives("request.ask", ("en", "zh")))
# … that only *uses* a stored value: "plan it within my budget", "按我的预算推荐几家酒店".
# (The lexicon's ``request.uses_value``.)
USES_VALUE = rx(alternatives("request.uses_value", ("en", "zh")))


def negated(text: str) -> bool:
    """Whether ``text`` says no (a value that drops the "not" says the opposite): the lexicon's
    ``polarity.negation``, in either language."""
    return fires("polarity.negation", text)


def is_hypothetical(sentence: str) -> bool:
    return HYPOTHETICAL.search(sentence.strip(TRIM)) is not None


def is_reported(sentence: str, message: str = "", *, kind: str = "directive") -> bool:
    """Reported speech or quoted/pasted material (``message``: where the sentence sits); for a
    fact, decision or open question, words merely relayed without quotes still count as the user's."""
    body = sentence.strip()
    if REPORTED.search(body):
        return True
    if kind not in ("fact", "decision", "open_question") and RELAYED.search(body.strip(TRIM)):
        return True
    squashed = body.strip(TRIM)
    if REPORTED.search(message or body):
        for quoted in QUOTED.findall(message or body):
            if squashed and squashed in quoted:
                return True
    if any(squashed and squashed in line for line in _PASTED.findall(message)):
        return True
    kept, handed_over = without_material(message)
    return handed_over and bool(squashed) and squashed in message and squashed not in kept


# A request for something to be made (the lexicon's ``request.task``).
ASKS = rx(alternatives("request.task", ("zh", "en")))
# A standing rule is addressed to the assistant or about the user's own world; "traffic is
# always terrible" is a remark about the world, not a rule.
# (Personal words: the lexicon's ``address.personal``; an imperative opening: ``mood.imperative``,
# ``^`` the start of the sentence only.)
_PERSONAL = rx(alternatives("address.personal", ("en", "zh")))
_IMPERATIVE = rx(alternatives("mood.imperative", ("en", "zh")))


def addressed(sentence: str) -> bool:
    """Said to the assistant or about the user (personal words, or an imperative opening); words
    in quotation marks are someone's text, not said to anyone here."""
    body = QUOTED.sub("", sentence).strip(TRIM)
    opened = without_lead_in(body, edge=TRIM) or body  # "and always include sources", "还有说话别那么客气"
    return bool(_PERSONAL.search(body) or _IMPERATIVE.search(body) or _IMPERATIVE.search(opened))


def is_request(sentence: str) -> bool:
    """A request that only uses a stored value ("plan it within my budget"): it states none."""
    body = sentence.strip(TRIM)
    return USES_VALUE.search(body) is not None and (REQUEST.search(body) is not None or ASKS.search(body) is not None)


def is_question(quote: str) -> bool:
    """A question mark, an interrogative opening (en) or a question particle/word (zh)."""
    return quote.rstrip().endswith(("?", "？")) or QUESTION.search(INDEFINITE.sub("，", quote.strip(TRIM))) is not None


def unquoted(text: str) -> str:
    """``text`` without pasted lines ("> …"), without text handed over to be processed, and,
    where someone else is quoted, without the quoted passages: their words write nothing
    (``Call me "Captain Li"`` keeps its quote)."""
    text = _PASTED.sub(" ", text)
    text, handed_over = without_material(text)
    return QUOTED.sub(" ", text) if handed_over or REPORTED.search(text) else text


_CLOSING = {"“": "”", '"': '"', "'": "'", "‘": "’", "「": "」", "『": "』"}


def _after_material(rest: str) -> str:
    """What follows handed-over material and is the user's again: after the closing quotation mark
    of quoted material, or from a sentence that turns back to the assistant ("Also, from now on …",
    "另外，以后…"); else nothing."""
    body = rest.lstrip(" \t\n:：")
    closing = _CLOSING.get(body[:1])
    if closing is not None:
        # The closing mark, not an apostrophe inside the quote ("the Landlord's consent").
        end = re.search(re.escape(closing) + r"(?![A-Za-z])", body[1:])
        if end is not None:
            return body[end.end() + 1:]
    turns = [m.start() for lang in LANGS if (p := cue("material.return", lang)) is not None
             for m in p.finditer(rest)]
    return rest[min(turns):] if turns else ""


def without_material(text: str) -> tuple[str, bool]:
    """``text`` without the material of a request to process it ("Summarize this email: …",
    "请翻译成英文：…", "… 用英语怎么说？"), and whether there was one. What the user hands over to be
    summarised, translated or corrected is someone's text, not the user's rule or fact."""
    leads = [m for lang in LANGS if (p := cue("material.lead", lang)) is not None and (m := p.search(text))]
    if leads:
        cut = min(m.end() for m in leads)
        return text[:cut] + " " + _after_material(text[cut:]), True
    trailing = [m for lang in LANGS if (p := cue("material.trailing", lang)) is not None and (m := p.search(text))]
    if trailing:  # "<text> — how do you say that in Japanese?": all before the request is the text
        return text[min(m.start() for m in trailing):], True
    return text, False


@lru_cache(maxsize=1)
def _small_talk() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Acknowledgements and laughter that open a message (``small_talk.*``), each repeated, and
    what is left when it only says the user is amused (``small_talk.amused``, at its start)."""
    acks = re.compile(rf"^(({alternatives('small_talk.ack', LANGS)})[，,。.!！~\s]*)+", re.I)
    laughter = re.compile(rf"^({alternatives('small_talk.laughter', ('zh', 'en'))}|😂|🤣|[!！。.,，~～\s])+")
    amused = re.compile(alternatives("small_talk.amused", ("zh", "en")))
    return acks, laughter, amused


@lru_cache(maxsize=1)
def _greetings() -> frozenset[str]:
    """Whole messages that only greet or thank (``small_talk.greeting``), lower-cased."""
    return frozenset(word.lower() for lang in LANGS for word in lexicon(lang)["small_talk"]["greeting"]["words"])


def opens_laughing(text: str) -> bool:
    """The message opens with laughter ("haha ok, …", "哈哈好吧，…"): whatever follows, it is chatting."""
    return _laughs(_small_talk()[1].match(text.strip().lower()))


def ends_laughing(text: str) -> bool:
    """The message ends with laughter ("… those hills lol", "…比我妈靠谱多了哈哈")."""
    return _laughs(_ends_laughing().search(text.strip().lower()))


def _laughs(found: re.Match[str] | None) -> bool:
    """The match holds laughter, not only the marks around it."""
    return found is not None and bool(found.group(0).strip(" !！。.,，~～"))


@lru_cache(maxsize=1)
def _ends_laughing() -> re.Pattern[str]:
    return re.compile(rf"(?:{alternatives('small_talk.laughter', ('zh', 'en'))}|😂|🤣)[!！。.,，~～\s]*$")


def greets(text: str) -> bool:
    """The whole message only greets or thanks ("hello", "Thanks!", "谢谢")."""
    return text.strip().lower().strip(" .!！。~～?？") in _greetings()


def only_chatter(text: str) -> bool:
    """``text`` is laughter and acknowledgements alone ("haha", "ok lol", "哈哈好吧"), nothing else."""
    acks, laughter, _ = _small_talk()
    body, rest = text.strip().lower(), ""
    while rest != body:  # "ok lol": an acknowledgement, then laughter
        rest, body = body, acks.sub("", laughter.sub("", body)).strip(" ，,。.!！~～")
    return bool(text.strip()) and not body


def is_small_talk(text: str) -> bool:
    """Greetings, acknowledgements, laughter: nothing to remember, nothing to keep in view."""
    body = text.strip().lower().strip(" .!！。~～?？")
    if len(body) < 4 or body in _greetings() or AFFIRM.match(body) or DENY.match(body):
        return True
    acks, laughter, amused = _small_talk()
    rest = acks.sub("", laughter.sub("", body)).strip(" ，,。.!！~")
    return len(rest) < 4 or rest in _greetings() or amused.match(rest) is not None
