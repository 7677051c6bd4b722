"""The program's final say over what the model proposes: every entry is checked
against the user's own message before anything is written.

An entry is *dropped* when its quote is not a span of the user's message, when the quoted
sentence is a question, a hypothetical, a request that only uses a value, or words the user
reports from someone else, or when the value carries a number, date or id the quote does not
hold, or says things the quote does not. A directive without standing-rule evidence is kept
as *pending* (the assistant asks). Supersede and revoke targets are resolved later, against
the state (:mod:`desktop_app.memory.write.cooperation`).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from desktop_app.lexicon import CJK, LANGS, alternatives, fires, lexicon
from desktop_app.memory.lang.amounts import holds_its_kind
from desktop_app.memory.lang.text import (
    canonical_subject,
    keywords,
    numbers,
    split_sentences,
    term_set,
    terms,
    without_lead_in,
)
from desktop_app.memory.write.kind_cues import KIND_CUES
from desktop_app.memory.write.mood import (
    REQUEST,
    addressed,
    ends_laughing,
    greets,
    is_hypothetical,
    is_question,
    is_reported,
    is_request,
    negated,
    only_chatter,
    opens_laughing,
)
from desktop_app.memory.write.proposals import Proposal
from desktop_app.memory.write.sentence import PROHIBIT, SPECULATION, STANDING
from desktop_app.memory.write.shifts import shift_in

_VALUE_CHARS = 120
_SPAN_NOISE = re.compile(r"[\s\"'“”‘’「」『』《》（）()\[\]]+")
_EDGE_PUNCT = "，,。.!！?？；;：:、 "
# A rule about how to reply or behave that holds beyond this message (beyond STANDING/PROHIBIT):
# the lexicon's ``rule.evidence``, case-insensitive.
_RULE_EVIDENCE = re.compile(alternatives("rule.evidence", ("en", "zh")), re.IGNORECASE)
# A numeral word in a quote stands for the digit in a value ("两只猫" → "2只猫"): the lexicon's ``number.words``.
_NUMBER_WORDS = {word: str(n) for lang in LANGS for word, n in lexicon(lang)["number"]["words"].items()}

Verdict = Literal["accept", "pending", "drop"]


class Vetted(BaseModel):
    """One proposal with the program's verdict and the reason for it."""

    proposal: Proposal
    verdict: Verdict
    reason: str = ""
    sentence: str = ""  # the sentence of the user's message the quote lies in


def _squash(text: str) -> str:
    return _SPAN_NOISE.sub("", text).lower()


def quote_span(quote: str, message: str) -> bool:
    """Whether ``quote`` is a span of ``message`` (ignoring spaces, quotation marks, edge punctuation)."""
    needle = _squash(quote.strip(_EDGE_PUNCT))
    return len(needle) >= 2 and needle in _squash(message)


# "Remember that …", "just so you know …": a request that carries what to remember (``request.remember``).
_REMEMBER = re.compile(alternatives("request.remember", ("en", "zh")), re.IGNORECASE)


# The user's own people: "Grandma never eats pork" is about the user's world, not the world (``address.kin``).
_KIN = re.compile(alternatives("address.kin", ("en", "zh")), re.IGNORECASE)


# How things usually are: with no personal word, a remark about the world ("北京的冬天一般都挺干的";
# ``mood.generalising``).
_GENERALLY = re.compile(alternatives("mood.generalising", ("en", "zh")), re.IGNORECASE)


# Greetings, thanks and laughter that open a sentence ("haha ok that's fair", "早啊，今天天气不错";
# ``small_talk.opener``), not followed by a letter.
_CHAT_OPENER = re.compile(rf"^({alternatives('small_talk.opener', ('en', 'zh'))})(?![A-Za-z])", re.IGNORECASE)
# Hedges and intensifiers of an opinion about the world ("prices have gone up so much", "北京的冬天真的太干了";
# ``mood.opinion``), and the words that tie a sentence to the user (``address.anchor``).
_OPINION = re.compile(alternatives("mood.opinion", ("en", "zh")), re.IGNORECASE)
_ANCHOR = re.compile(alternatives("address.anchor", ("en", "zh")), re.IGNORECASE)
_WEATHER = re.compile(alternatives("small_talk.weather", ("en", "zh")), re.IGNORECASE)
_MOOD = re.compile(alternatives("small_talk.mood", ("en", "zh")), re.IGNORECASE)


def _cued(sentence: str, *, standing: bool = True) -> bool:
    """A word that makes a sentence a memory of some kind: a rule (with ``standing``, its "always"), a limit, a choice, a
    like, an aim, a doubt."""
    return bool(standing and STANDING.search(sentence) or PROHIBIT.search(sentence) or SPECULATION.search(sentence)
                or any(c.search(sentence) for _, cues in KIND_CUES for c in cues))


def is_small_talk_sentence(sentence: str) -> bool:
    """Opens with a greeting, thanks or laughter, and the rest holds no number, no name, no
    personal word and no memory cue ("OK, Postgres it is." and "好的，就订那家民宿吧" still count);
    or talks of the weather with no number and no memory cue ("ugh the weather is awful today, I was
    supposed to go to the farmers market": bench health filed "weather is awful" as a fact)."""
    body = sentence.strip(_EDGE_PUNCT)
    # (weather that "一直" rains sets no rule: "外面还一直下雨")
    lasting = fires("small_talk.weather_lasting", body)
    if _WEATHER.search(body) and not numbers(body) and not _cued(body, standing=not lasting):
        return True
    if _MOOD.search(body) and not numbers(body) and not _cued(body, standing=not lasting) and not _ANCHOR.search(body):
        return True  # a passing mood ("ugh so tired, moving boxes all week", "今天好累啊，上了一天班")
    opener = _CHAT_OPENER.match(body)
    if opener is None:
        return False
    rest = body[opener.end():].strip(_EDGE_PUNCT + "~～")
    return not (numbers(rest) or re.search(r"\b[A-Z][a-z]+", rest) or _ANCHOR.search(rest) or _cued(rest))


def chatting(text: str) -> bool:
    """The message laughs, at its start or end, thanks, greets, or talks of the weather ("lol Biscuit just climbed
    into an empty box, she's packing herself", "哈哈好吧，我妈已经开始研究穿什么拍照了")."""
    sentences = split_sentences(text)
    return opens_laughing(text) or ends_laughing(text) or only_chatter(text) or greets(text) \
        or bool(sentences) and all(is_small_talk_sentence(s) for s in sentences)  # ("Great. Give me the plan." asks)


def is_remark(sentence: str) -> bool:
    """An opinion about the world: hedged or intensified, with nothing tying it to the user."""
    return bool(_OPINION.search(sentence)) and not (
        _ANCHOR.search(sentence) or _KIN.search(sentence) or numbers(sentence) or _cued(sentence))


def is_plain_request(sentence: str) -> bool:
    """Asks for something now ("Suggest three hotels near the venue", "帮我整理一下纪要"), not a
    rule (those carry standing-rule words) and not "remember that …"."""
    body = sentence.strip(_EDGE_PUNCT)
    return REQUEST.search(body) is not None and not _REMEMBER.search(body) and not (
        STANDING.search(body) or PROHIBIT.search(body) or _RULE_EVIDENCE.search(body))


def repaired_quote(quote: str, message: str) -> str | None:
    """The sentence of ``message`` a paraphrased quote stands for: one that holds every number of
    the quote and at least three quarters of its words ("Please use metric units for everything,
    please." for "Use metric units for everything, please."); None when no sentence does."""
    wanted = term_set(quote)
    if len(wanted) < 2:
        return None
    for sentence in split_sentences(message):
        have = term_set(sentence)
        if len(wanted & have) * 4 >= len(wanted) * 3 and not ungrounded_numbers(quote, sentence):
            return sentence.strip()
    return None


def _sentence_of(quote: str, message: str) -> str:
    needle = _squash(quote.strip(_EDGE_PUNCT))
    for sentence in split_sentences(message):
        squashed = _squash(sentence)
        if needle in squashed or (squashed and squashed in needle):
            return sentence
    return message


def _quote_numbers(quote: str) -> set[str]:
    found = set(numbers(quote))
    found |= {digit for word, digit in _NUMBER_WORDS.items() if word in quote}
    return found


def ungrounded_numbers(value: str, quote: str) -> list[str]:
    """Numbers (dates, ids, amounts) in ``value`` that the quote does not hold."""
    held = _quote_numbers(quote)
    compact = quote.replace(",", "").replace(" ", "")
    return [n for n in numbers(value) if n not in held and n.replace(",", "") not in compact]


def grounded(value: str, quote: str, subject: str) -> bool:
    """The value says what the quote says: its numbers are there (checked apart), or at least
    half of its content words are (the subject may supply words when there are several)."""
    value_terms = term_set(value) - set(numbers(value))
    if not value_terms or numbers(value):
        return True
    source = term_set(quote) | {t for t in term_set(subject) if len(value_terms) > 1}
    lowered = quote.lower()
    hits = sum(1 for t in value_terms if t in source or t in lowered)
    return hits * 2 >= len(value_terms)


# A negation before a value word, and one after it (the lexicon's ``polarity.negator``, ``polarity.negator_after``;
# their words carry their own word edges, and "n't" has none before it: it ends "don't").
_NEGATOR_EN = f"(?:{alternatives('polarity.negator', ('en',))})"
_NEGATOR_ZH = f"(?:{alternatives('polarity.negator', ('zh',))})"
_NEGATOR_AFTER = f"(?:{alternatives('polarity.negator_after', ('en', 'zh'))})"


def drops_negation(proposal: Proposal, sentence: str) -> bool:
    """The value states what the sentence negates: the quote cut the "not" away, or a value word
    follows a negation in it while the value itself says no "no"."""
    if not negated(sentence):
        return False
    if not negated(proposal.quote):
        return _negated_beside(proposal.quote, sentence)
    if negated(proposal.value):
        return False
    for term in term_set(proposal.value) - set(numbers(proposal.value)):
        word = re.escape(term)
        if re.search(rf"{_NEGATOR_EN}\s+(?:\w+\s+){{0,2}}{word}", proposal.quote, re.IGNORECASE) or \
                re.search(rf"{_NEGATOR_ZH}.{{0,2}}{word}", proposal.quote) or \
                re.search(rf"{word}\s+(?:\w+\s+){{0,2}}{_NEGATOR_AFTER}\b", proposal.quote, re.IGNORECASE):
            return True
    return False


# Punctuation, a spaced dash, or a conjunction (``clause.break``; as written, not case-insensitive).
_CLAUSE_BREAK = re.compile(r"[，,；;:：—–]|\s-\s|" + alternatives("clause.break", ("en", "zh")))


def _negated_beside(quote: str, sentence: str) -> bool:
    """A negation just outside the quote, in its own clause ("I'm not | vegetarian", "我不 | 吃辣",
    "I eat meat | anymore"); one in another clause ("I'm 34, so nothing with stairs") is not the quote's."""
    at = sentence.find(quote.strip(_EDGE_PUNCT))
    if at < 0:
        return negated(sentence.replace(quote, ""))
    before = _CLAUSE_BREAK.split(sentence[:at])[-1]
    after = _CLAUSE_BREAK.split(sentence[at + len(quote.strip(_EDGE_PUNCT)):])[0]
    return negated(" ".join(before.split()[-3:]) + " " + before[-3:]) or negated(after)


# Chatter as a whole value or subject ("thank you", "哈哈哈"; ``small_talk.chatter``).
_CHATTER = re.compile(rf"^({alternatives('small_talk.chatter', ('en', 'zh'))})$", re.IGNORECASE)


def _says_nothing(proposal: Proposal) -> bool:
    """A value with no number that adds nothing to its subject ("冬天" about 冬天, "thank you")."""
    value = proposal.value.strip(" .!！。")
    if _CHATTER.match(value) or _CHATTER.match(proposal.subject.strip(" .!！。")):
        return True
    if numbers(value):
        return False
    # "this time" about time, "my sister" about sister, 冬天 about 冬天: only stopwords added.
    # A negation is information ("no smoking" about smoking).
    rest = term_set(value) - term_set(proposal.subject)
    return not rest and (not negated(value) or negated(proposal.subject))


# Subjects that name a kind or nothing at all: as a key they would make every decision replace
# the last one ("decision: skip Porto" superseding "decision: fly into Lisbon"; ``subject.generic``).
GENERIC_SUBJECTS = frozenset(word for lang in LANGS for word in lexicon(lang)["subject"]["generic"]["words"])


def specific(proposal: Proposal) -> Proposal:
    """A generic subject is replaced by the value's own first content words, so the entry only
    matches an earlier item about the same thing."""
    if " ".join(proposal.subject.lower().replace("_", " ").split()) not in GENERIC_SUBJECTS:
        return proposal
    words = [w for w in terms(proposal.value) if not w.isdigit()][:2] or keywords([proposal.quote], k=2)
    return proposal.model_copy(update={"subject": " ".join(words) or "note"})


def regrounded(proposal: Proposal, sentence: str) -> Proposal:
    """A canonical subject the sentence never names ("budget" for "The offsite will be in
    Porto") is replaced by the sentence's own telling word, so the entry cannot overwrite the
    budget; other subjects are the model's labels and stay."""
    claimed = canonical_subject(proposal.subject)
    if claimed is None or canonical_subject(sentence) == claimed or canonical_subject(proposal.quote) == claimed \
            or holds_its_kind(claimed, proposal.quote):  # "来80个人" is a head count, though it says no 人数
        return proposal
    named = canonical_subject(proposal.quote)
    if named is not None:  # "预算总共5000元" filed as the days: it is the budget
        return proposal.model_copy(update={"subject": named})
    run = _CJK_OPENING.search(proposal.quote)
    if run:  # the opening words of the quote ("老人腿脚"), not two bigrams cut from it ("老人 人腿")
        return proposal.model_copy(update={"subject": run.group(0)})
    words = [w for w in keywords([proposal.quote], k=3) if w.lower() not in proposal.value.lower() and not w.isdigit()]
    return proposal.model_copy(update={"subject": words[0] if words else "note"})


_CJK_OPENING = re.compile(f"[{CJK}]{{2,4}}")


def _only_lead_in(value: str) -> bool:
    """The value is nothing but a spoken opening ("Oh, one thing", "对了"; ``value.lead_in``)."""
    text = value.strip(_EDGE_PUNCT)
    return bool(text) and not without_lead_in(text, edge=_EDGE_PUNCT)


def vet(proposal: Proposal, message: str) -> Vetted:
    """The verdict on one proposal for the user message ``message``."""
    def verdict(kind: Verdict, reason: str, sentence: str = "") -> Vetted:
        return Vetted(proposal=proposal, verdict=kind, reason=reason, sentence=sentence)

    if not quote_span(proposal.quote, message):
        repaired = repaired_quote(proposal.quote, message)
        if repaired is None:
            return verdict("drop", "the quote is not the user's words")
        proposal = proposal.model_copy(update={"quote": repaired})
    sentence = _sentence_of(proposal.quote, message)
    if is_question(sentence):
        return verdict("drop", "a question writes nothing", sentence)
    if is_hypothetical(sentence):
        return verdict("drop", "a hypothetical writes nothing", sentence)
    if proposal.kind != "directive" and shift_in(sentence) is not None \
            and (numbers(proposal.value) or shift_in(proposal.value) is not None):
        # "再加500吧" filed as "预算: 500", "add 300 to the budget" as the budget: the rules compute the change.
        return verdict("drop", "a change by an amount is the rules' to compute", sentence)
    if is_reported(sentence, message, kind=proposal.kind):
        return verdict("drop", "words quoted from someone else write nothing", sentence)
    if is_request(sentence) and proposal.kind not in ("directive", "goal"):
        return verdict("drop", "a request that uses a value does not change it", sentence)
    if (STANDING.search(sentence) or _GENERALLY.search(sentence)) and not (
            addressed(sentence) or _KIN.search(sentence) or numbers(sentence)):
        return verdict("drop", "a remark about the world is not the user's memory", sentence)
    if proposal.kind in ("fact", "preference", "decision") and is_plain_request(sentence):
        return verdict("drop", "a request for something now states nothing to remember", sentence)
    if proposal.kind in ("fact", "preference", "decision", "open_question", "constraint") and (
            is_small_talk_sentence(sentence) or is_remark(sentence)):
        return verdict("drop", "small talk and opinions about the world write nothing", sentence)
    if _only_lead_in(proposal.value):
        # "Oh, one thing" filed as a rule of its own superseded the rule the sentence went on to set.
        return verdict("drop", "the value is only the sentence's spoken opening", sentence)
    proposal = specific(regrounded(proposal, sentence))
    missing = ungrounded_numbers(proposal.value, sentence) + ungrounded_numbers(proposal.subject, sentence)
    if missing:
        return verdict("drop", f"{', '.join(missing)} is not in the quote", sentence)
    if proposal.change != "cancel" and not grounded(proposal.value, sentence, proposal.subject):
        return verdict("drop", "the value says what the quote does not", sentence)
    if proposal.change != "cancel" and drops_negation(proposal, sentence):
        # "I'm not vegetarian anymore" stored as "vegetarian", "我不吃辣" as "吃辣": the opposite.
        return verdict("drop", "the entry drops the sentence's negation", sentence)
    if proposal.kind not in ("open_question",) and _says_nothing(proposal):
        # The model named the thing twice ("metric units: metric units", "高血压: 高血压"): what the
        # user said about it is their own clause, kept as the value; chatter is dropped.
        words = proposal.quote.strip(_EDGE_PUNCT)
        if _CHATTER.match(words) or len(_squash(words)) <= len(_squash(proposal.subject)):
            return verdict("drop", "the value only repeats the subject", sentence)
        proposal = proposal.model_copy(update={"value": words[:_VALUE_CHARS]})
    if proposal.kind == "directive" and proposal.change != "cancel" and not addressed(sentence):
        return verdict("drop", "a remark about the world is not a rule", sentence)
    if proposal.kind == "directive" and proposal.change != "cancel" and not (
            STANDING.search(sentence) or PROHIBIT.search(sentence) or _RULE_EVIDENCE.search(sentence)):
        return verdict("pending", "a rule without standing-rule evidence: the user confirms it", sentence)
    return verdict("accept", "", sentence)


def vet_all(proposals: list[Proposal], message: str) -> list[Vetted]:
    return [vet(p, message) for p in proposals]
