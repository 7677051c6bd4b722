"""The document QA set of `paperclip bench docs` ships in the package and is what the issue asks."""

from __future__ import annotations

from collections import Counter

from desktop_app.bench.docs import load_questions, normalise


def test_the_qa_set_has_sixty_questions_in_both_languages_with_spans():
    data = load_questions()
    questions = data["questions"]
    assert len(questions) >= 60
    by_lang = Counter(q["lang"] for q in questions)
    assert by_lang["en"] >= 30
    assert by_lang["zh"] >= 30
    assert {q["doc"] for q in questions} == set(data["documents"])
    assert all(q["span"].strip() and q["q"].strip() for q in questions)
    assert len({q["q"] for q in questions}) == len(questions)


def test_span_matching_ignores_line_breaks_quotes_and_case():
    page = normalise("Warning ”/etc/ssh/sshd_not_to_be_run”\nmust not be present if one wishes")
    assert normalise("sshd_not_to_be_run” must not be present") in page
    assert normalise("假设 vfat 文件系统 使用 CP437") in normalise("mount(8) 假设 vfat 文件系统\n使用 CP437.")


def test_the_cross_language_sets_ask_each_way_in_the_other_language():
    from desktop_app.bench.docs import QUESTION_SETS, direction

    for name in ("paraphrase", "cross"):
        data = load_questions(name)
        assert set(QUESTION_SETS) >= {name}
        assert {q["doc"] for q in data["questions"]} <= set(data["documents"])
        ways = Counter(direction(q) for q in data["questions"])
        assert ways["zh→en"] >= 20, ways
        assert ways["en→zh"] >= 20, ways
        assert all(q["span"].strip() and q["pages"] for q in data["questions"])
