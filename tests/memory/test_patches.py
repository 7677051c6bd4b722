"""Every change is a validated patch against the expected state_version: all or nothing."""

import pytest

from desktop_app.memory.write.patches import AddItem, MemoryPatch, PatchRejected, SetStatus, apply_patch, propose


def add(value="预算不超过5000元", **kw):
    return AddItem(kind=kw.pop("kind", "constraint"), subject=kw.pop("subject", "budget"), value=value, **kw)


def test_each_patch_bumps_the_state_version_once_and_logs_each_change(store):
    session = store.session_named("s")
    result = apply_patch(store, propose(store, session.id, [add(), add("不要修改原始CSV", subject="forbid:csv")]))
    assert result.state_version == 1 == store.state_version(session.id)
    assert [i.state_version for i in store.list_items(session.id)] == [1, 1]
    assert [c.action for c in store.session_changes(session.id)] == ["add", "add"]


def test_a_stale_patch_is_rejected_and_changes_nothing(store):
    session = store.session_named("s")
    stale = propose(store, session.id, [add()])
    apply_patch(store, propose(store, session.id, [add("预算不超过6000元")]))
    with pytest.raises(PatchRejected, match="stale"):
        apply_patch(store, stale)
    assert [i.value for i in store.list_items(session.id)] == ["预算不超过6000元"]
    assert store.state_version(session.id) == 1


def test_an_invalid_op_rolls_back_the_ops_before_it(store):
    session = store.session_named("s")
    patch = propose(store, session.id, [add(), SetStatus(item_id=999, status="revoked", action="revoke")])
    with pytest.raises(PatchRejected, match="#999"):
        apply_patch(store, patch)
    assert store.list_items(session.id) == []
    assert store.state_version(session.id) == 0


def test_superseding_keeps_history_and_links_the_chain(store):
    session = store.session_named("s")
    first = apply_patch(store, propose(store, session.id, [add()])).added_ids[0]
    second = apply_patch(store, propose(store, session.id, [add("预算不超过8000元", supersedes=first)])).added_ids[0]
    old, new = store.get_item(first), store.get_item(second)
    assert (old.status, new.status, new.supersedes) == ("superseded", "active", first)
    assert [i.id for i in store.items_superseding(first)] == [second]


def test_forbidden_transitions_and_foreign_items_are_rejected(store):
    a, b = store.session_named("a"), store.session_named("b")
    item = apply_patch(store, propose(store, a.id, [add()])).added_ids[0]
    apply_patch(store, propose(store, a.id, [SetStatus(item_id=item, status="revoked", action="revoke")]))
    with pytest.raises(PatchRejected, match="cannot become active"):
        apply_patch(store, propose(store, a.id, [SetStatus(item_id=item, status="active", action="confirm")]))
    with pytest.raises(PatchRejected, match="no memory item"):
        apply_patch(store, propose(store, b.id, [SetStatus(item_id=item, status="revoked", action="revoke")]))


def test_an_inferred_change_cannot_silently_replace_an_explicit_one(store):
    session = store.session_named("s")
    explicit = apply_patch(store, propose(store, session.id, [add(origin="user")])).added_ids[0]
    with pytest.raises(PatchRejected, match="without confirmation"):
        apply_patch(store, propose(store, session.id, [add("预算不超过9000元", supersedes=explicit, origin="model")]))


def test_patch_models_validate_their_input():
    with pytest.raises(ValueError):
        MemoryPatch(session_id=1, expected_version=0, ops=[])
    with pytest.raises(ValueError):
        AddItem(kind="wish", subject="x", value="y")
    with pytest.raises(ValueError):
        AddItem(kind="fact", subject="x", value="   ")
