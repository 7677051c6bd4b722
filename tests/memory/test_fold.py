"""The folded prompt head (issue 11): memory changes between page-outs reach the prompt as a
changes block before the input; the head keeps its bytes until the next fold."""

from __future__ import annotations

from desktop_app.memory.controls import handle_slash
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.prompt.head_folding import MAX_CHANGES, changes_since, fold, needs_fold

T0 = 1_750_000_000.0


def item(id, value, *, kind="constraint", status="active", supersedes=None, source=None, pinned=False):
    return MemoryItem(id=id, session_id=1, kind=kind, subject=value.split()[0], value=value, status=status,
                      origin="rule", supersedes=supersedes, source_message_id=source, state_version=id,
                      pinned=pinned, created_at=T0 + id, updated_at=T0 + id)


def head_text(plan) -> str:
    return plan.messages[0]["content"]


def test_the_fold_is_pure_and_deterministic():
    items = [item(2, "budget under 5000"), item(1, "always answer in English", kind="directive")]
    history = [item(3, "venue in Porto", kind="fact", status="revoked", source=9)]
    args = dict(state_version=4, turn=10, summary=None, recent_ids={9}, lang="en", reason="page_out")
    a = fold(items, history, **args)
    b = fold(list(reversed(items)), history, **args)
    assert a == b
    assert a.model_dump_json() == b.model_dump_json()
    assert [i.id for i in a.items] == [1, 2]
    assert a.last_item_id == 3
    assert a.turn == 10
    assert a.notes == {9: ["(the user later dropped this)"]}
    assert items[0].status == "active"  # inputs untouched


def test_changes_say_what_was_replaced_and_what_no_longer_applies():
    old = item(1, "budget under 5000", source=1)
    rule = item(2, "answer in tables", kind="directive", source=2)
    head = fold([old, rule], [], state_version=2, turn=2, summary=None, recent_ids=set(), lang="en", reason="start")
    new = item(3, "budget under 8000", supersedes=1, source=5)
    later = item(4, "venue in Lisbon", kind="fact", source=6)
    gone = item(5, "venue in Porto", kind="fact", status="revoked", source=4)  # written and revoked since
    changes = changes_since(head, [new, later], [old.model_copy(update={"status": "superseded"}),
                                                 rule.model_copy(update={"status": "revoked"}), gone],
                            {3: 5, 4: 6, 5: 4})
    kinds = {(c.change, c.item.id) for c in changes}
    assert kinds == {("changed", 3), ("new", 4), ("revoked", 2), ("revoked", 5)}
    changed = next(c for c in changes if c.change == "changed")
    assert changed.was.value == "budget under 5000"
    assert changed.turn == 5


def test_nothing_changed_means_no_changes_and_no_fold():
    items = [item(1, "budget under 5000")]
    head = fold(items, [], state_version=1, turn=3, summary=None, recent_ids=set(), lang="en", reason="page_out")
    assert changes_since(head, items, [], {}) == []
    assert needs_fold(head, [], tokens=0, budget=100) is None
    assert needs_fold(None, [], tokens=0, budget=100) == "start"
    many = [item(10 + n, f"limit {n}") for n in range(MAX_CHANGES + 1)]
    assert needs_fold(head, changes_since(head, [*items, *many], [], {}), tokens=10, budget=100) == "overflow"


def test_the_head_keeps_its_bytes_while_memory_changes(conversation):
    chat = conversation()
    chat.say("The budget must stay under 5000 dollars.")
    chat.say("Never book flights before 9am.")
    chat.pipeline.fold(chat.store.get_session(chat.sid), "page_out")
    first = chat.say("Tell me about Lisbon.")
    heads = [head_text(first)]
    recents = [first.messages[1:-1]]
    for text in ("Change the budget to 8000 dollars.", "Forget the rule about flights before 9am.",
                 "From now on, always answer in English.", "What about Porto?"):
        plan = chat.say(text)
        heads.append(head_text(plan))
        recents.append(plan.messages[1:-1])
    assert not chat.paging
    assert len(set(heads)) == 1, "the system message changed without a page-out"
    for shorter, longer in zip(recents, recents[1:], strict=False):
        assert longer[: len(shorter)] == shorter  # recent turns append-only, annotations frozen
    tail = plan.messages[-1]["content"]
    assert "5000" in heads[-1]  # the head still shows the folded value …
    assert "budget: 8000 dollars (was The budget must stay under 5000" in tail  # … overridden
    assert "no longer applies: Never book flights before 9am" in tail
    assert tail.index("Since then (this overrides the notes above)") < tail.index("What about Porto?")


def test_a_page_out_folds_the_changes_into_the_head(conversation):
    chat = conversation(n_ctx=1024)
    chat.say("The budget must stay under 5000 dollars.")
    chat.pipeline.fold(chat.store.get_session(chat.sid), "page_out")
    chat.say("Change the budget to 8000 dollars.")
    turn = 0
    while not chat.paging:
        turn += 1
        chat.say(f"Tell me a long story about the harbour, part {turn}, with boats and gulls and nets.",
                 reply="Here is a long story about the harbour, with boats, gulls, nets and the morning tide. " * 3)
        assert turn < 60
    plan = chat.say("And now?")
    head = head_text(plan)
    assert "8000" in head
    assert "under 5000" not in plan.layers["anchors"].text + plan.layers["state"].text
    assert plan.layers["changes"].text == ""
    assert chat.store.latest_fold(chat.sid).reason == "page_out"


def test_a_changed_value_is_never_shown_twice_as_current(conversation):
    chat = conversation(lang="zh")
    chat.say("团建人数定为30人。")
    chat.pipeline.fold(chat.store.get_session(chat.sid), "page_out")
    chat.say("团建人数改为35人。")
    plan = chat.say("现在人数是多少？")
    assert "30" in plan.layers["state"].text + plan.layers["anchors"].text
    assert "35人" in plan.layers["changes"].text
    assert "原为 " in plan.layers["changes"].text
    assert "以此为准" in plan.layers["changes"].text


def test_too_many_changes_fold_after_the_reply(conversation, monkeypatch):
    monkeypatch.setattr("desktop_app.memory.prompt.head_folding.MAX_CHANGES", 2)
    chat = conversation()
    chat.say("Hello.")
    chat.say("The budget must stay under 5000 dollars.")
    plan = chat.say("Never book flights before 9am.")
    # the input's own rule is not repeated before it
    assert len(plan.layers["changes"].items) == 1
    assert chat.store.latest_fold(chat.sid).reason == "start"
    plan = chat.say("From now on, always answer in English.")
    assert len(plan.layers["changes"].items) == 2  # this turn still reads them before the input …
    assert chat.store.latest_fold(chat.sid).reason == "overflow"  # … and the head folds after the reply
    plan = chat.say("Thanks.")
    assert plan.layers["changes"].items == []
    assert "5000" in head_text(plan)
    assert "9am" in head_text(plan)
    assert "answer in English" in head_text(plan)


def test_forgetting_an_item_takes_it_out_of_the_head_at_once(conversation):
    chat = conversation()
    chat.say("My dog is called Rex.")
    chat.pipeline.fold(chat.store.get_session(chat.sid), "page_out")
    [fact] = chat.active()
    assert "Rex" in head_text(chat.say("Hi."))
    handle_slash(chat.store, chat.store.get_session(chat.sid), f"/revoke {fact.id}", now=T0)
    assert "Rex" not in head_text(chat.say("Hi."))
