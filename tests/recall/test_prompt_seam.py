"""The ``recalled`` layer seam: page faults, the 3-5 hit limit, the token budget, references."""

from __future__ import annotations

from desktop_app.engine.tokens import fallback_counter
from desktop_app.memory.prompt.recalled import format_hit, recall_for_prompt
from tests.recall.conftest import add_turns

TURNS = ["The budget for the launch party is 5000 euros.", "Noted.",
         "Venue options: the old brewery or the rooftop bar.", "Both look fine.",
         "Please send the guest list as a spreadsheet file.", "Will do.",
         "The caterer wants the final headcount by Friday.", "OK."]


def test_recall_stays_empty_without_need_and_fills_on_a_page_fault(store):
    session = store.session_named("party")
    add_turns(store, session.id, TURNS)
    counter = fallback_counter()
    quiet = recall_for_prompt(store, session.id, "what was the budget?", budget_tokens=200, counter=counter,
                              enabled=False)
    assert quiet == []
    fault = recall_for_prompt(store, session.id, "what budget did you say earlier?", budget_tokens=200,
                              counter=counter, enabled=False)
    assert fault
    assert "5000" in fault[0].snippet
    assert fault[0].label.startswith("turn 1, ")


def test_recall_respects_limit_budget_and_exclusions(store):
    session = store.session_named("party2")
    messages = add_turns(store, session.id, TURNS)
    counter = fallback_counter()
    hits = recall_for_prompt(store, session.id, "budget venue guest list caterer headcount", budget_tokens=10_000,
                             counter=counter, limit=3)
    assert 0 < len(hits) <= 3
    tight = recall_for_prompt(store, session.id, "budget venue guest list caterer headcount", budget_tokens=30,
                              counter=counter)
    assert sum(counter.count(format_hit(h)) + 2 for h in tight) <= 30
    skipped = recall_for_prompt(store, session.id, "launch party budget", budget_tokens=500, counter=counter,
                                exclude_ids=[messages[0].id])
    assert messages[0].id not in {h.message_id for h in skipped}


def test_recall_for_the_prompt_is_read_only(store):
    """Planning (previews, benchmarks, ``context --json``) never changes the reference counts;
    the turn's log stage does (tests/recall/test_turn_record.py)."""
    session = store.session_named("refs")
    messages = add_turns(store, session.id, TURNS)
    counter = fallback_counter()
    for _ in range(2):
        hits = recall_for_prompt(store, session.id, "launch party budget", budget_tokens=500, counter=counter, limit=1)
    assert hits
    assert store.reference_counts([messages[0].id]) == {}


def test_one_shared_word_of_a_longer_question_is_not_worth_recalling(store):
    session = store.session_named("weak")
    add_turns(store, session.id, TURNS)
    counter = fallback_counter()
    weak = recall_for_prompt(store, session.id, "any good tips for a rainy weekend with the kids and a spreadsheet?",
                             budget_tokens=500, counter=counter)
    assert weak == []  # only "spreadsheet" is shared: chit-chat overlap
    strong = recall_for_prompt(store, session.id, "who wanted the final headcount for the caterer?", budget_tokens=500,
                               counter=counter)
    assert strong
    assert "caterer" in strong[0].snippet
    one_word = recall_for_prompt(store, session.id, "the caterer?", budget_tokens=500, counter=counter)
    assert one_word
    assert "caterer" in one_word[0].snippet


def test_recall_only_when_asked_leaves_the_layer_empty_unless_the_input_points_back(store):
    from desktop_app.chat import pipeline_for
    from desktop_app.config import load_settings

    session = store.session_named("asked")
    messages = add_turns(store, session.id, TURNS)
    store.create_page(session.id, messages, 1_700_001_000.0)  # archived long ago
    counter = fallback_counter()

    def pages(recall: str, text: str) -> list:
        settings = load_settings({"db": store.path, "recall": recall})
        plan, _ = pipeline_for(store, settings, counter=counter, n_ctx=4096).preview(session, text)
        return [i for i in plan.layers["recalled"].items if i.type == "page"]

    question = "who wanted the final headcount for the caterer?"
    assert pages("auto", question)
    assert pages("asked", question) == []
    assert pages("asked", "what did you say earlier about the caterer and the headcount?")
