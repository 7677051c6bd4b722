"""The summary chain: a stage summary every few pages, found by recall before the page in it."""

from __future__ import annotations

from desktop_app.memory.archive.summary_chain import STAGE_PAGES, chain_pages, stage_text
from desktop_app.memory.recall.query import plan_query
from desktop_app.memory.recall.search import gather_signals, search

TOPICS = [
    ("My cousin Teodora runs a small bakery in Porto, the one with the blue door.", "A bakery in Porto, nice."),
    ("We repaired the greenhouse roof with polycarbonate panels last spring.", "Polycarbonate lasts well."),
    ("The choir rehearses on Tuesdays in the old chapel near the river.", "Tuesday rehearsals, got it."),
    ("Our landlord raised the rent to 1450 euros from March.", "1450 euros from March, noted."),
    ("I finally finished the watercolour of the lighthouse at dusk.", "Lighthouse at dusk sounds lovely."),
    ("The vet said the dog needs a lighter diet and longer walks.", "Lighter diet and walks."),
]
FILLER = "We chatted about ordinary things again: the weekend, the weather and what to cook tonight."


def run_pages(chat, pages: int):
    n = 0
    while len(chat.paging) < pages:
        user, reply = TOPICS[n % len(TOPICS)] if n % 3 == 0 else (FILLER, FILLER)
        chat.say(user if n < 3 * len(TOPICS) else FILLER, reply)
        n += 1


def test_every_few_pages_a_stage_summary_covers_them(conversation):
    chat = conversation(n_ctx=1024)
    chat.say("The rent must stay under 1500 euros.", "Noted: under 1500 euros.")
    run_pages(chat, STAGE_PAGES)
    [stage] = chat.store.list_stages(chat.sid)
    assert chat.paging[-1].stage_id == stage.id
    assert all(e.stage_id is None for e in chat.paging[:-1])
    pages = [e.page_id for e in chat.paging]
    assert (stage.first_page_id, stage.last_page_id) == (pages[0], pages[-1])
    assert stage.first_turn == 1
    assert stage.author == "rule"
    assert "1500 euros" in stage.text, "the values stated in its pages"
    marks = chat.store.page_bookmarks(pages)
    assert all(mark.keywords[0] in stage.text for mark in marks), "and their bookmarks"
    run_pages(chat, 2 * STAGE_PAGES)
    assert len(chat.store.list_stages(chat.sid)) == 2


def test_stage_text_is_pure_and_bounded():
    text = stage_text(1, 40, [(["rent", "euros"], "The rent must stay under 1500")], ["rent: under 1500 euros"] * 2,
                      ["rent rent euros landlord"] * 3)
    assert text == stage_text(1, 40, [(["rent", "euros"], "The rent must stay under 1500")],
                              ["rent: under 1500 euros"] * 2, ["rent rent euros landlord"] * 3)
    assert text.count("rent: under 1500 euros") == 1
    assert text.startswith("turns 1–40")
    assert len(stage_text(1, 2, [], ["x" * 100] * 40, [])) <= 1500


def test_recall_reaches_an_early_turn_through_its_stage(conversation):
    chat = conversation(n_ctx=1024)
    run_pages(chat, 2 * STAGE_PAGES)
    assert len(chat.store.list_stages(chat.sid)) == 2
    question = "Which bakery does Teodora run?"
    lists = gather_signals(chat.store, chat.sid, question, plan=plan_query(question), signals=("stage",))
    texts = {mid: text for page in chat.store.page_message_texts(e.page_id for e in chat.paging).values()
             for mid, text in page}
    assert lists["stage"], "the stage matched"
    assert "Teodora" in texts[lists["stage"][0][0]], "and inside it the page and turn that name her"
    hits = search(chat.store, chat.sid, question, k=5)
    assert "Teodora" in hits[0].snippet
    assert "stage" in hits[0].signals


def test_an_archive_gets_its_stages_afterwards_and_forgetting_reaches_them(conversation):
    from desktop_app.memory.forgetting import carry_out

    chat = conversation(n_ctx=1024)
    run_pages(chat, 2 * STAGE_PAGES)
    chat.store.conn.execute("DELETE FROM stages")
    assert chain_pages(chat.store, chat.sid, now=0.0) == 2
    assert any("teodora" in s.text.lower() for s in chat.store.list_stages(chat.sid))
    plan = chat.store.plan_forget_topic(chat.sid, "Teodora")
    counts = carry_out(chat.store, plan)
    assert counts["stages"] == 2, "the chain is written again from what stays"
    assert not any("teodora" in s.text.lower() for s in chat.store.list_stages(chat.sid)), \
        "not even as a lowercased keyword"
    found = gather_signals(chat.store, chat.sid, "Teodora's bakery", signals=("stage",))["stage"]
    rows = chat.store.recall_rows(mid for mid, _ in found)
    assert not any("Teodora" in row["content"] for row in rows.values())


def test_the_model_adds_topics_and_a_synopsis_only_from_the_pages(conversation):
    import json

    from desktop_app.engine.scripted import ScriptedEngine
    from desktop_app.memory.background.archive_jobs import StageJob
    from desktop_app.memory.background.memory_pass import MemoryModel
    from desktop_app.memory.background.queue import JobContext

    chat = conversation(n_ctx=1024)
    run_pages(chat, STAGE_PAGES)
    [stage] = chat.store.list_stages(chat.sid)

    def run(reply):
        engine = ScriptedEngine(json.dumps(reply))
        job = StageJob(chat.sid, stage.id, stage.last_page_id, MemoryModel("always"))
        return job.run(JobContext(store=chat.store, should_stop=lambda: False, engine=engine)), engine

    outcome, engine = run({"topics": ["bakery", "greenhouse"], "synopsis": "Teodora's bakery; the rent is 1900 euros."})
    assert outcome.status == "rejected", "a value the pages do not hold"
    assert "1900" in outcome.detail, "a value the pages do not hold"
    assert "Teodora" in engine.calls[0][-1]["content"], "the model reads the stage's pages"
    outcome, _ = run({"topics": ["spaceships", "moon"], "synopsis": "A trip to the moon."})
    assert outcome.status == "rejected"
    assert chat.store.get_stage(stage.id).author == "rule"
    outcome, _ = run({"topics": ["bakery", "family in Porto"],
                      "synopsis": "Family news: a cousin's bakery in Porto, the greenhouse roof, choir practice."})
    updated = chat.store.get_stage(stage.id)
    assert outcome.status == "done"
    assert updated.author == "model"
    assert updated.text.startswith(stage.text), "the rule text stays"
    assert "family in Porto" in updated.text, "the rule text stays"
    lists = gather_signals(chat.store, chat.sid, "family news", signals=("stage",))
    assert lists["stage"], "the model's words are indexed"


def test_discarding_a_tail_drops_the_stages_over_its_pages(conversation):
    chat = conversation(n_ctx=1024)
    run_pages(chat, 2 * STAGE_PAGES)
    first, second = chat.store.list_stages(chat.sid)
    inside = chat.store.pages_messages([second.first_page_id + 1])[0]
    chat.store.archive_tail(chat.sid, inside.id)
    assert [s.id for s in chat.store.list_stages(chat.sid)] == [first.id]
    run_pages(chat, 3 * STAGE_PAGES)
    stages = chat.store.list_stages(chat.sid)
    assert len(stages) >= 2, "written again, no gap"
    assert stages[1].first_page_id == first.last_page_id + 1, "written again, no gap"
