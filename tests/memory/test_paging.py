"""Paging with watermarks, bookmarks, the incremental summary, and page-in by keyword."""

from desktop_app.memory.archive.paging import choose_evictions
from desktop_app.memory.prompt.budget import compute_budgets

CHATTER = "We talked about the weather, the garden, some music and a few recipes for dinner tonight."


def recent_tokens(chat):
    return sum(m.token_count + 4 for m in chat.store.unpaged_messages(chat.sid))


def test_no_paging_below_the_high_watermark(conversation):
    chat = conversation(n_ctx=8192)
    for _ in range(4):
        chat.say(CHATTER, CHATTER)
    assert chat.paging == []
    assert chat.store.list_pages(chat.sid) == []


def test_passing_the_high_watermark_pages_out_one_chunk_down_to_the_low_one(conversation):
    chat = conversation(n_ctx=1024)
    budgets = compute_budgets(1024, chat.counter.count(chat.store.get_session(chat.sid).system_prompt or
                                                        "You are Paperclip"))
    while not chat.paging:
        chat.say(CHATTER, CHATTER)
    [event] = chat.paging
    assert event.recent_before > event.high_watermark
    assert event.recent_after <= event.low_watermark + 60  # finishes the exchange it started
    assert recent_tokens(chat) == event.recent_after
    page = chat.store.get_page(event.page_id)
    archived = chat.store.page_messages(page.id)
    assert archived[0].role == "user"
    assert archived[-1].role == "assistant"
    assert [m.id for m in archived] == list(range(page.first_message_id, page.last_message_id + 1))
    assert chat.store.unpaged_messages(chat.sid)[0].role == "user"
    assert budgets.recent > 0


class M:
    def __init__(self, role, id_=0):
        self.role, self.id = role, id_


def test_choose_evictions_keeps_exchanges_whole_and_the_last_turns():
    msgs = [M(r) for r in ["user", "assistant"] * 5]
    assert choose_evictions(msgs, [10] * 10, high=85, low=60) == [0, 1, 2, 3]
    assert choose_evictions(msgs, [10] * 10, high=100, low=60) == []
    assert choose_evictions(msgs[:2], [100, 100], high=50, low=10) == []


def test_a_kept_exchange_is_passed_over_within_its_budget_and_leaves_when_nothing_else_can():
    msgs = [M(r, i) for i, r in enumerate(["user", "assistant"] * 6)]
    costs = [10] * 12
    assert choose_evictions(msgs, costs, high=100, low=80, keep={0}, keep_budget=20) == [2, 3, 4, 5]
    assert choose_evictions(msgs, costs, high=100, low=80, keep={0}, keep_budget=10) == [0, 1, 2, 3], \
        "a kept exchange over the budget leaves as before"
    assert choose_evictions(msgs, costs, high=100, low=80, keep={0, 2}, keep_budget=40) == [4, 5, 6, 7]
    # Only the last two messages could stay otherwise: the kept ones leave too, oldest first.
    assert choose_evictions(msgs, costs, high=100, low=10, keep={0, 2}, keep_budget=40) == list(range(10))


def test_each_page_gets_a_bookmark_and_folds_into_the_summary(conversation):
    chat = conversation(n_ctx=1024)
    chat.say("The budget must stay under 5000 dollars.", "Noted.")
    while len(chat.paging) < 2:
        chat.say(CHATTER, CHATTER)
    marks = chat.store.list_bookmarks(chat.sid)
    assert len(marks) == 2
    assert all(2 <= len(b.keywords) <= 4 and b.origin == "auto" for b in marks)
    assert marks[0].description.startswith("The budget must stay")
    summary = chat.store.latest_summary(chat.sid)
    assert summary.version == 2
    assert summary.through_message_id == chat.paging[-1].last_message_id
    assert len(summary.content.topics) == 2
    assert [e.item_id for e in summary.content.constraints] == [chat.active("constraint")[0].id]


def test_hard_values_stay_items_after_their_turn_is_paged_out(conversation):
    chat = conversation(n_ctx=1024)
    chat.say("Never modify the original CSV file.", "Understood.")
    while not chat.paging:
        chat.say(CHATTER, CHATTER)
    plan = chat.say("Let's continue.")
    assert "original CSV" not in plan.layers["recent"].text
    assert "original CSV" in plan.layers["anchors"].text


def test_an_archived_page_is_paged_back_in_by_its_keywords(conversation):
    chat = conversation(n_ctx=1024)
    chat.say("Our caterer is Bella Cucina, they serve lasagna and tiramisu.", "Great choice.")
    while not chat.paging:
        chat.say(CHATTER, CHATTER)
    plan = chat.say("What did the caterer serve, lasagna?")
    recalled = plan.layers["recalled"]
    assert "Bella Cucina" in recalled.text
    assert "user said: Our caterer" in recalled.text
    assert recalled.items[0].type == "page"


def test_recent_is_append_only_between_page_outs(conversation):
    chat = conversation(n_ctx=2048)
    previous, paged_before = None, 0
    for turn in range(12):
        plan = chat.say(f"{CHATTER} ({turn})", CHATTER)
        history = plan.messages[1:-1]
        if previous is not None and len(chat.paging) == paged_before:
            assert history[: len(previous)] == previous
        previous, paged_before = history, len(chat.paging)
    assert chat.paging, "the window should have paged at least once"
