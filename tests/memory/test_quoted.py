"""Someone else's words in quotation marks are theirs, whatever the marks (both languages)."""

from __future__ import annotations

import pytest

from desktop_app.memory.write.extraction import extract
from desktop_app.memory.write.mood import addressed, is_reported

EN = [("'", "'"), ('"', '"'), ("“", "”"), ("‘", "’")]
ZH = [*EN, ("「", "」"), ("『", "』")]
CASES = [("Her email says {o}Always cc me on invoices.{c}", "Always cc me on invoices.", marks) for marks in EN] + [
    ("邮件里说{o}以后每封邮件都抄送我。{c}", "以后每封邮件都抄送我。", marks) for marks in ZH]


@pytest.mark.parametrize("message, rule, marks", CASES)
def test_a_rule_quoted_from_someone_else_is_reported_in_every_kind_of_quotation_mark(message, rule, marks):
    open_, close = marks
    said = message.format(o=open_, c=close)
    assert is_reported(rule, said), f"{said!r}: the quoted rule is someone else's"
    assert is_reported(f"{open_}{rule}{close}", said)
    assert not addressed(f"{open_}{rule}{close}"), "words in quotation marks are said to no one here"
    assert [c for c in extract(said) if c.kind == "directive"] == []


def test_an_apostrophe_inside_words_is_no_quotation_mark():
    assert [c.quote for c in extract("I'm vegetarian and don't eat fish.")] == ["I'm vegetarian and don't eat fish."]


def test_the_users_own_rule_is_still_the_users():
    assert [c.kind for c in extract("Always cc me on invoices.")] == ["directive"]
    assert [c.kind for c in extract("以后每封邮件都抄送我。")] == ["directive"]
