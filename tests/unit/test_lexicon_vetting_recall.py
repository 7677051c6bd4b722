"""The language knowledge of vetting (``rule.evidence``, ``request.remember``, ``address.kin``,
``address.anchor``, ``mood.generalising``, ``mood.opinion``, ``small_talk.opener``,
``small_talk.chatter``, ``polarity.negator*``, ``clause.break``, ``subject.generic``,
``number.words``) and of recall's queries (``question.frame``, ``question.when``,
``reference.earlier``, ``time.month``, ``time.year``, ``time.calendar_date``, ``time.month_day``,
``time.mention``) lives in the lexicon: each cue exists in both languages (or says why not),
fires where it should and only there, and vetting and recall still read it. The ranges of CJK
characters are spelled once, in ``desktop_app/lexicon.py``."""

from __future__ import annotations

import datetime
import pathlib
import re

import pytest

from desktop_app import lexicon
from desktop_app.memory.recall.query import (
    QUESTION_WORDS,
    ZH_QUESTION_PHRASES,
    is_page_fault,
    mentions_time,
    plan_query,
    query_dates,
)
from desktop_app.memory.write.proposals import Proposal
from desktop_app.memory.write.vetting import (
    _CHAT_OPENER,
    _CHATTER,
    _CLAUSE_BREAK,
    _GENERALLY,
    _KIN,
    _RULE_EVIDENCE,
    GENERIC_SUBJECTS,
    _quote_numbers,
    drops_negation,
    is_plain_request,
    is_remark,
    is_small_talk_sentence,
    specific,
)
from tests.support.lexicon_cases import cue_table_tests

MIGRATED = ["rule.evidence", "request.remember", "address.kin", "address.anchor", "mood.generalising", "mood.opinion",
            "small_talk.opener", "small_talk.chatter", "polarity.negator", "clause.break", "subject.generic",
            "question.frame", "question.when", "reference.earlier", "time.mention"]
# Cues that only one language has: the other's entry is there and empty (said so in the lexicon).
ONE_LANGUAGE = {"polarity.negator_after": "en", "time.month": "en", "time.year": "en", "time.calendar_date": "zh",
                "time.month_day": "zh"}


# Sentence → whether a cue fires, per language.
CUE_CASES = [
    ("rule.evidence", "en", "Keep every reply short", True),
    ("rule.evidence", "en", "Sign off as Bob", True),
    ("rule.evidence", "en", "Everyone came to the party", False),  # a word inside a word is not the word
    ("rule.evidence", "zh", "所有回复都用中文", True),
    ("rule.evidence", "zh", "先写大纲再写正文", True),
    ("rule.evidence", "zh", "今天天气不错", False),
    ("request.remember", "en", "Remember that I'm vegetarian", True),
    ("request.remember", "en", "FYI the meeting moved", True),
    ("request.remember", "en", "I remembered nothing", False),
    ("request.remember", "zh", "记住我的生日是五月三号", True),
    ("request.remember", "zh", "我忘了", False),
    ("address.kin", "en", "My grandma never eats pork", True),
    ("address.kin", "en", "Kids eat free", True),
    ("address.kin", "en", "The sonnet is long", False),  # "son" inside a word is no son
    ("address.kin", "zh", "我妈不吃辣", True),
    ("address.kin", "zh", "北京的冬天很干", False),
    ("address.anchor", "en", "I'd rather stay", True),
    ("address.anchor", "en", "Please be brief", False),  # "please" is personal, not an anchor
    ("address.anchor", "en", "Iceland is cold", False),
    ("address.anchor", "zh", "咱们走吧", True),
    ("address.anchor", "zh", "请简短一点", False),
    ("mood.generalising", "en", "Winters usually are dry", True),
    ("mood.generalising", "en", "They tend to agree", True),
    ("mood.generalising", "en", "The usual place", False),
    ("mood.generalising", "zh", "北京的冬天一般都挺干的", True),
    ("mood.generalising", "zh", "北京的冬天很干", False),
    ("mood.opinion", "en", "Prices have gone up so much", True),
    ("mood.opinion", "en", "Everybody loves it", True),
    ("mood.opinion", "en", "PeopleSoft is software", False),
    ("mood.opinion", "zh", "北京的冬天真的太干了", True),
    ("mood.opinion", "zh", "太干了", True),
    ("mood.opinion", "zh", "我们去北京", False),
    # (unanchored here: vetting anchors the opener at the start of the sentence)
    ("small_talk.opener", "en", "hahaha ok that's fair", True),
    ("small_talk.opener", "en", "The budget is 5000", False),
    ("small_talk.opener", "zh", "早啊，今天天气不错", True),
    ("small_talk.opener", "zh", "预算是5000元", False),
    ("small_talk.chatter", "en", "thank you", True),
    ("small_talk.chatter", "en", "The budget is 5000", False),
    ("small_talk.chatter", "zh", "辛苦了", True),
    ("small_talk.chatter", "zh", "预算是5000元", False),
    ("polarity.negator", "en", "I'm not vegetarian", True),
    ("polarity.negator", "en", "The budget is 5000", False),
    ("polarity.negator", "zh", "我不吃辣", True),
    ("polarity.negator", "zh", "我吃辣", False),
    ("polarity.negator_after", "en", "I don't eat meat anymore", True),
    ("polarity.negator_after", "en", "I eat meat", False),
    ("clause.break", "en", "I'm 34, so nothing with stairs", True),
    ("clause.break", "en", "So nothing with stairs", False),  # lower case only, as written
    ("clause.break", "en", "Sonic and Tails", True),
    ("clause.break", "en", "Sonic the hedgehog", False),  # a word inside a word is not the word
    ("clause.break", "zh", "我34了，所以别爬楼梯", True),
    ("clause.break", "zh", "我们去北京", False),
    ("subject.generic", "en", "decision", True),
    ("subject.generic", "en", "budget", False),
    ("subject.generic", "zh", "规则", True),
    ("subject.generic", "zh", "预算", False),
    ("question.frame", "en", "what", True),
    ("question.frame", "en", "whatever", False),
    ("question.frame", "zh", "你还记得那家店吗", True),
    ("question.frame", "zh", "那家店在北京", False),
    ("question.when", "en", "When did we go to Rome?", True),
    ("question.when", "en", "What date is the party?", True),
    ("question.when", "en", "We went there when it rained", False),  # at the start only
    ("question.when", "en", "Whenever you like", False),
    ("question.when", "zh", "我们什么时候去的罗马？", True),
    ("question.when", "zh", "我们去了罗马", False),
    ("reference.earlier", "en", "As you said, the budget is 5000", True),
    ("reference.earlier", "en", "What was that file called?", True),
    ("reference.earlier", "en", "The earliest train leaves at six", False),  # a word inside a word is not the word
    ("reference.earlier", "zh", "你刚才说的那家店", True),
    ("reference.earlier", "zh", "推荐一家店", False),
    ("time.month", "en", "We met in August", True),
    ("time.month", "en", "We may meet", True),  # "may" is a month too; the date forms need a day or a year
    ("time.month", "en", "We met at the mayor's office", False),
    ("time.year", "en", "We moved there in 2019", True),
    ("time.year", "en", "Room 2019", False),
    ("time.calendar_date", "zh", "2023年5月7日", True),
    ("time.calendar_date", "zh", "五月七日", False),  # numerals in digits only
    ("time.month_day", "zh", "5月7号见", True),
    ("time.month_day", "zh", "2023年5月", False),
    ("time.mention", "en", "I went to the support group yesterday", True),
    ("time.mention", "en", "See you next Friday", True),
    ("time.mention", "en", "I like painting sunsets", False),
    ("time.mention", "zh", "我上周去了博物馆", True),
    ("time.mention", "zh", "5月去北京", True),
    ("time.mention", "zh", "我喜欢画画", False),
]


test_every_migrated_cue_is_in_both_languages, test_a_one_language_cue_is_empty_in_the_other, \
    test_each_cue_fires_where_it_should_and_only_there = cue_table_tests(MIGRATED, ONE_LANGUAGE, CUE_CASES)


def test_number_words_are_chinese_numerals_one_to_ten():
    assert lexicon.lexicon("en")["number"]["words"] == {}  # "two cats" grounds no "2"
    assert lexicon.lexicon("zh")["number"]["words"]["两"] == 2
    assert lexicon.lexicon("zh")["number"]["words"]["十"] == 10
    assert "零" not in lexicon.lexicon("zh")["number"]["words"]
    assert {"2", "3"} <= _quote_numbers("两只猫，三个孩子")
    assert "2" not in _quote_numbers("two cats")


def test_generic_subjects_read_both_languages():
    assert {"decision", "open question", "决定", "规则"} <= GENERIC_SUBJECTS
    assert "budget" not in GENERIC_SUBJECTS


# Vetting's compiled patterns read the lexicon: a pattern, a sentence, whether it matches (searches).
PATTERN_CASES = [
    (_RULE_EVIDENCE, "By default use metric units", True),
    (_RULE_EVIDENCE, "用中文写", True),
    (_RULE_EVIDENCE, "The hotel is nice", False),
    (_KIN, "Grandpa never eats pork", True),
    (_KIN, "我爸不吃辣", True),
    (_KIN, "The grandstand is full", False),
    (_GENERALLY, "In general, people like it", True),
    (_GENERALLY, "通常很干", True),
    (_GENERALLY, "I generalised it", False),
]


@pytest.mark.parametrize("pattern, text, found", PATTERN_CASES)
def test_vetting_patterns_read_the_lexicon(pattern, text, found):
    assert (pattern.search(text) is not None) is found


@pytest.mark.parametrize("text, opener", [
    ("haha ok that's fair", "haha"),
    ("thanks2 for the map", "thanks"),  # only a letter may not follow
    ("早啊，今天天气不错", "早啊"),
    ("嗯嗯，好的", "嗯嗯"),
    ("Thanksgiving is in November", None),
    ("Oh haha", None),  # at the start only
])
def test_chat_opener_is_anchored_and_keeps_its_length(text, opener):
    found = _CHAT_OPENER.match(text)
    assert (found.group(1) if found else None) == opener


@pytest.mark.parametrize("text, chatter", [
    ("thank you", True), ("Haha", True), ("辛苦", True), ("哈哈哈", True),
    ("thank you for the map", False), ("哈", False),
])
def test_chatter_is_the_whole_text(text, chatter):
    assert (_CHATTER.match(text) is not None) is chatter


# Laughter of any length is chatter as a whole value, and opens a sentence ("hahaha", not only "haha").
@pytest.mark.parametrize("text, chatter", [
    ("hahaha", True), ("hehehe", True), ("HAHAHA", True), ("hahahaha", True), ("haha", True), ("hahaaa", True),
    ("heheee", True), ("哈哈哈", True), ("哈哈哈哈", True),
    ("ha", False), ("hahaha ok", False), ("Hahn", False), ("哈", False),
])
def test_laughter_of_any_length_is_chatter(text, chatter):
    assert (_CHATTER.match(text) is not None) is chatter


@pytest.mark.parametrize("text, opener", [
    ("hahaha ok that's fair", "hahaha"), ("hehehe thanks", "hehehe"), ("hahaaa ok", "hahaaa"), ("哈哈哈，好的", "哈哈哈"),
    ("Hahn is here", None),
])
def test_laughter_of_any_length_opens_a_sentence(text, opener):
    found = _CHAT_OPENER.match(text)
    assert (found.group(0) if found else None) == opener


@pytest.mark.parametrize("text, clauses", [
    ("I'm 34, so nothing with stairs", ["I'm 34", " ", " nothing with stairs"]),
    ("So nothing with stairs", ["So nothing with stairs"]),
    ("我34了，所以别爬楼梯", ["我34了", "", "别爬楼梯"]),
])
def test_clause_break_splits_without_groups(text, clauses):
    assert _CLAUSE_BREAK.split(text) == clauses


@pytest.mark.parametrize("sentence, small", [
    ("早啊，今天天气不错", True),
    ("haha ok that's fair", True),
    ("Thanks, I'm vegetarian", False),  # a personal word after the opener
    ("好的，我的预算是5000元", False),
])
def test_small_talk_sentence_reads_the_lexicon(sentence, small):
    assert is_small_talk_sentence(sentence) is small


@pytest.mark.parametrize("sentence, remark", [
    ("北京的冬天真的太干了", True),
    ("Prices have gone up so much", True),
    ("我觉得北京的冬天真的太干了", False),  # the user's own
    ("My mom says prices have gone up so much", False),
])
def test_remark_reads_the_lexicon(sentence, remark):
    assert is_remark(sentence) is remark


@pytest.mark.parametrize("sentence, plain", [
    ("Suggest three hotels near the venue", True),
    ("帮我整理一下纪要", True),
    ("Please remember that I'm vegetarian", False),
    ("请记住我的生日", False),
])
def test_plain_request_reads_the_lexicon(sentence, plain):
    assert is_plain_request(sentence) is plain


@pytest.mark.parametrize("quote, value, drops", [
    ("I never eat pork", "eat pork", True),
    ("I don't eat meat any more", "eat meat", True),
    ("我不吃辣", "吃辣", True),
    ("I eat pork", "eat pork", False),
])
def test_negators_read_the_lexicon(quote, value, drops):
    proposal = Proposal(quote=quote, subject="diet", value=value, kind="preference")
    assert drops_negation(proposal, quote) is drops


@pytest.mark.parametrize("quote, value, drops", [
    ("I don't eat pork", "eat pork", True),  # "n't" sits inside a word: no word edge before it
    ("I do not eat pork", "eat pork", True),
    ("I DON'T EAT PORK", "eat pork", True),
    ("We can't take the stairs", "take the stairs", True),
    ("Don't worry, I eat pork", "eat pork", False),  # the negation is in another clause
    ("我不吃猪肉", "吃猪肉", True),
    ("我不担心，我吃猪肉", "吃猪肉", False),
])
def test_a_contracted_negation_is_a_negation(quote, value, drops):
    proposal = Proposal(quote=quote, subject="diet", value=value, kind="preference")
    assert drops_negation(proposal, quote) is drops


def test_generic_subject_is_replaced():
    proposal = Proposal(quote="Let's fly into Lisbon", subject="decision", value="fly into Lisbon", kind="decision")
    assert specific(proposal).subject != "decision"


def test_recall_reads_question_frames_from_the_lexicon():
    assert {"what", "when", "ever"} <= QUESTION_WORDS
    assert ZH_QUESTION_PHRASES[0] == "它的名字是"  # longest first
    assert ZH_QUESTION_PHRASES.index("我曾经") < ZH_QUESTION_PHRASES.index("曾经")
    plan = plan_query("What did I tell you about my dentist?")
    assert "what" not in plan.words
    assert "dentist" in plan.words
    assert not any("曾经" in t for t in plan_query("我曾经去过哪个城市").trigrams)


@pytest.mark.parametrize("text, fault", [
    ("You said the budget was 5000", True),
    ("我们上次说的那家店", True),
    ("Book a table for two", False),
    ("订一张两人桌", False),
])
def test_page_faults_read_the_lexicon(text, fault):
    assert is_page_fault(text) is fault


@pytest.mark.parametrize("text, month", [
    ("on May 7, 2023", 5), ("7th of August, 2023", 8), ("in December 2022", 12), ("2023年5月7日", 5),
])
def test_dates_read_the_months_from_the_lexicon(text, month):
    (start, _), *_ = query_dates(text)
    assert datetime.datetime.fromtimestamp(start, datetime.UTC).month == month


def test_year_month_day_and_asks_when_read_the_lexicon():
    assert query_dates("since 1999")  # time.year
    assert plan_query("我们5月7号见过吗").month_days == [(5, 7)]
    assert plan_query("2023年5月7号").month_days == []  # with a year it is a date, not a month and day
    assert plan_query("When did Ann move?").asks_when
    assert plan_query("安什么时候搬家的？").asks_when
    assert not plan_query("Ann moved to Rome").asks_when
    assert mentions_time("我上周去了博物馆")
    assert mentions_time("back in March")
    assert not mentions_time("I like sunsets")


# --- The CJK range is defined once: desktop_app/lexicon.py ---

# A range of East Asian characters spelled out: an escape or a literal character of those blocks on
# either side of "-" in a character class, or a code point compared by number.
_EAST_ASIAN_CHAR = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_RANGE = re.compile(r"\\u(?:3040|30ff|3400|4dbf|4e00|9fa5|9fff|ac00|d7af|f900|faff|ff00|ffef)\b"
                    rf"|[{_EAST_ASIAN_CHAR}]-[{_EAST_ASIAN_CHAR}]|0x(?:3400|4e00|9fff|9fa5)\b", re.IGNORECASE)
# Modules another change is moving onto the lexicon's ranges (remove each once it no longer spells one).
_NOT_YET: set[str] = set()


def test_only_the_lexicon_spells_a_cjk_range():
    package = pathlib.Path(lexicon.__file__).parent
    spelled = sorted(str(path.relative_to(package)) for path in package.rglob("*.py")
                     if path.name != "lexicon.py" or path.parent != package
                     if _RANGE.search(path.read_text(encoding="utf-8")))
    assert [p for p in spelled if p not in _NOT_YET] == []
    assert _RANGE.search(pathlib.Path(lexicon.__file__).read_text(encoding="utf-8"))  # the test sees a range


def test_ranges_compose():
    assert lexicon.CJK == lexicon.HAN
    assert lexicon.EAST_ASIAN == lexicon.HAN + lexicon.KANA + lexicon.HANGUL
    east_asian = re.compile(f"[{lexicon.EAST_ASIAN}]")
    for ch, han in [("中", True), ("\u3400", True), ("\uf900", True), ("か", False), ("한", False), ("a", False)]:
        assert (re.fullmatch(f"[{lexicon.CJK}]", ch) is not None) is han
    assert all(east_asian.fullmatch(ch) for ch in "中かカ한")
    assert not east_asian.search("abc，")
    assert re.fullmatch(f"[{lexicon.FULLWIDTH}]", "，")
