"""The user's memory controls typed in the chat: /remember, /directive, /fact, /revoke, /forget, /correct,
/pin, /bookmark, /memory, /confirm, /reject, /mode — answered from state, without the model."""

from desktop_app.memory.controls import handle_slash


def slash(chat, text):
    return handle_slash(chat.store, chat.store.get_session(chat.sid), text, now=1_750_000_000.0)


def test_plain_text_and_unknown_commands_are_not_handled(conversation):
    chat = conversation()
    assert slash(chat, "hello there") is None
    assert slash(chat, "/etc/passwd is a path") is None


def test_memory_answers_what_do_you_remember(conversation):
    chat = conversation()
    assert "Nothing remembered yet" in slash(chat, "/memory").text
    chat.say("My name is Alice.")
    chat.say("The budget must stay under 5000 dollars.")
    result = slash(chat, "/memory")
    assert "Facts:" in result.text
    assert "Alice" in result.text
    assert "Constraints:" in result.text
    assert "5000" in result.text
    assert {i["kind"] for i in result.data["items"]} == {"fact", "constraint"}


def test_remember_directive_and_fact_store_explicit_items(conversation):
    chat = conversation()
    assert slash(chat, "/remember The office wifi password is on the fridge").changed
    slash(chat, "/directive Always answer in English.")
    slash(chat, "/fact venue: Hall 3")
    slash(chat, "/fact venue: Hall 5")
    kinds = {(i.kind, i.origin) for i in chat.active()}
    assert ("directive", "command") in kinds
    assert ("fact", "command") in kinds
    venues = [i.value for i in chat.active("fact") if i.subject == "fact:venue"]
    assert venues == ["venue: Hall 5"]


def test_directive_command_replaces_a_conflicting_rule_because_it_is_explicit(conversation):
    chat = conversation()
    chat.say("From now on, always answer in English.")
    result = slash(chat, "/directive Always answer in Chinese.")
    assert "replaces" in result.text
    [rule] = chat.active("directive")
    assert "Chinese" in rule.value


def test_revoke_by_id_and_by_topic_keeps_history(conversation):
    chat = conversation()
    chat.say("Never modify the original CSV file.")
    chat.say("The budget must stay under 5000 dollars.")
    csv, budget = chat.active()
    assert slash(chat, f"/revoke {csv.id}").ok
    assert chat.store.get_item(csv.id).status == "revoked"
    assert slash(chat, "/revoke budget").ok
    assert chat.active() == []
    assert len(chat.store.list_items(chat.sid)) == 2  # nothing deleted


def test_revoke_an_ambiguous_topic_lists_the_candidates(conversation):
    chat = conversation()
    chat.say("The budget must stay under 5000 dollars.")
    chat.say("Never spend the budget on ads.")
    result = slash(chat, "/revoke budget")
    assert not result.ok
    assert len(result.data["candidates"]) == 2


def test_correct_supersedes_with_the_users_value(conversation):
    chat = conversation(lang="zh")
    chat.say("预算不超过5000元。")
    [budget] = chat.active()
    result = slash(chat, f"/correct {budget.id} 7000")
    [new] = chat.active()
    assert new.value == "预算不超过7000元"
    assert new.origin == "user"
    assert new.supersedes == budget.id
    assert result.data == {"id": new.id, "supersedes": budget.id}


def test_pin_moves_an_item_into_the_anchor_zone(conversation):
    chat = conversation()
    chat.say("My dog is called Rex.")
    [fact] = chat.active()
    slash(chat, f"/pin {fact.id}")  # an explicit edit: the head is refolded at the next message
    chat.user("Hi again.")
    assert "Rex" in chat.plan().layers["anchors"].text


def test_bookmark_points_at_the_latest_user_message(conversation):
    chat = conversation()
    chat.say("Our caterer is Bella Cucina.")
    result = slash(chat, "/bookmark caterer food")
    mark = chat.store.list_bookmarks(chat.sid)[0]
    assert mark.origin == "user"
    assert mark.keywords == ["caterer", "food"]
    assert "Bella Cucina" in mark.description
    assert result.ok


def test_confirm_and_reject_resolve_pending_items(conversation):
    chat = conversation()
    chat.say("From now on, always answer in English.")
    chat.say("From now on, always answer in French.")
    [pending] = chat.store.list_items(chat.sid, statuses=("pending",))
    assert slash(chat, f"/confirm {pending.id}").ok
    assert "French" in chat.active("directive")[0].value
    chat.say("From now on, always answer in German.")
    assert slash(chat, "/reject").ok
    assert "French" in chat.active("directive")[0].value
    assert not slash(chat, "/confirm").ok  # nothing pending any more


def test_mode_shows_and_sets_the_session_mode(conversation):
    chat = conversation()
    assert "default" in slash(chat, "/mode").text
    assert slash(chat, "/mode sliding").ok
    assert chat.store.get_session(chat.sid).mode == "sliding"
    assert not slash(chat, "/mode turbo").ok


def test_bad_ids_answer_with_one_line(conversation):
    chat = conversation()
    result = slash(chat, "/pin 42")
    assert not result.ok
    assert "no memory item #42" in result.text
    assert not slash(chat, "/correct x").ok


def test_show_prints_the_supersede_chain(conversation):
    chat = conversation(lang="zh")
    chat.say("预算不超过5000元。")
    chat.say("预算改成8000元。")
    chat.say("预算改成6500元。")
    first = chat.store.list_items(chat.sid)[0]
    result = slash(chat, f"/show {first.id}")
    chain = [c["value"] for c in result.data["chain"]]
    assert chain == ["预算不超过5000元", "预算不超过8000元", "预算不超过6500元"]
    assert [c["status"] for c in result.data["chain"]] == ["superseded", "superseded", "active"]


def test_a_correction_keeps_the_pin_and_the_chain(conversation):
    import time

    from desktop_app.memory.controls import run_command

    chat = conversation()
    chat.say("My budget is 5000 dollars.")
    [budget] = chat.active()
    run_command(chat.store, chat.session, "pin", str(budget.id), time.time())
    result = run_command(chat.store, chat.store.get_session(chat.sid), "correct", f"{budget.id} 6000 dollars",
                         time.time())
    new = chat.store.get_item(result.data["id"])
    assert new.pinned
    assert new.supersedes == budget.id
    assert new.origin == "user"
    assert chat.store.get_item(budget.id).status == "superseded"
    chat.say("Actually the budget is 7000 dollars.")
    newest = next(i for i in chat.active() if "7000" in i.value)
    assert newest.pinned, "a newer value stated in the chat keeps the pin too"


def test_memory_answers_and_notices_speak_the_ui_language(conversation):
    from desktop_app.memory.controls import handle_slash

    chat = conversation(lang="zh")
    chat.say("预算不超过5000元。")
    [outcome] = chat.user("预算改成6000元。")
    assert outcome.notice.startswith("Updated #1 → #2")
    assert outcome.notice_in("zh").startswith("已更新 #1 → #2")
    answer = handle_slash(chat.store, chat.store.get_session(chat.sid), "/memory", now=1_750_000_000.0, lang="zh")
    assert "的记忆（状态 v" in answer.text
    assert "约束" in answer.text
    assert "Constraints" not in answer.text
    english = handle_slash(chat.store, chat.store.get_session(chat.sid), "/memory", now=1_750_000_000.0)
    assert "Constraints:" in english.text
