"""Cooperative memory without a model: a scripted engine returns fixed JSON (also malformed
JSON and entries that must be refused), and the program vets, merges and applies it."""

from __future__ import annotations

import json

import pytest

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.background.memory_pass import ExtractJob, MemoryModel, worth_proposing
from desktop_app.memory.background.queue import JobContext
from desktop_app.memory.controls import run_command
from desktop_app.memory.write.kind_cues import settle_kind
from desktop_app.memory.write.patches import AddItem, apply_patch, propose
from desktop_app.memory.write.proposals import Proposal
from desktop_app.memory.write.vetting import vet
from tests.support.engines import entry, replying


def scripted(*replies):
    """An engine whose JSON replies are ``replies`` in turn (dicts are dumped, strings sent as they are)."""
    return replying(*(r if isinstance(r, str) else {"items": r} for r in replies))


def model_pass(convo, engine, *, mode: str = "always"):
    job = ExtractJob(convo.sid, [convo.recorded.message.id], MemoryModel(mode))
    outcome = job.run(JobContext(store=convo.store, should_stop=lambda: False, engine=engine))
    return outcome, job


def active(store, sid):
    return {i.value: i for i in store.list_items(sid, statuses=("active",))}


# -- vetting --------------------------------------------------------------------------------
@pytest.mark.parametrize("message, proposal, verdict", [
    ("Our office has 40 desks.", entry("Our office has 40 desks", "office desks", "40 desks"), "accept"),
    ("Our office has 40 desks.", entry("We have 50 desks", "office desks", "50 desks"), "drop"),  # not a span
    ("Our office has 40 desks.", entry("Our office has 40 desks", "office desks", "45 desks"), "drop"),  # number
    ("What's my budget again?", entry("What's my budget again?", "budget", "budget"), "drop"),  # question
    ("预算是多少来着？", entry("预算是多少来着", "预算", "10000"), "drop"),
    ("If I had 10k I would buy a boat.", entry("If I had 10k I would buy a boat", "money", "10k"), "drop"),
    ("假如预算是一万的话，能去哪？", entry("假如预算是一万的话", "预算", "一万"), "drop"),
    ("My boss said 'always CC him on everything'.",
     entry("always CC him on everything", "cc", "always CC him", kind="directive"), "drop"),  # someone else's words
    ("Please plan a 7-day itinerary within my budget.",
     entry("Please plan a 7-day itinerary within my budget", "budget", "7 days"), "drop"),  # a request uses a value
    ("What's the weather like on Mars?", entry("What's the weather like on Mars?", "weather", "warm"), "drop"),
    ("孩子今年上三年级，数学比较弱。", entry("孩子今年上三年级", "孩子年级", "三年级", scope="profile"), "accept"),
    ("孩子今年上三年级，数学比较弱。", entry("孩子今年上三年级", "年龄", "33岁"), "drop"),
    ("Sign off every email as Priya, not Ms. Raman.",
     entry("Sign off every email as Priya, not Ms. Raman.", "sign-off", "Priya", kind="directive"), "accept"),
    ("I'd like bullet points.", entry("I'd like bullet points", "format", "bullet points", kind="directive"),
     "pending"),  # a rule without standing-rule evidence: the user confirms it
    ("Bullet points look nice.", entry("Bullet points look nice", "format", "bullet points", kind="directive"),
     "drop"),  # a remark, not addressed to anyone
    ("The sign at the pool said no diving after 8pm.",
     entry("no diving after 8pm", "pool", "no diving after 8pm", kind="constraint"), "drop"),
    ("They told me the venue can only take 120.", entry("the venue can only take 120", "venue", "120 guests"), "accept"),
    ("I'm not vegetarian anymore.", entry("vegetarian", "diet", "vegetarian", scope="profile"), "drop"),
    ("I'm not vegetarian anymore.", entry("I'm not vegetarian anymore", "diet", "vegetarian"), "drop"),
    ("我不吃辣。", entry("我不吃辣", "饮食", "吃辣"), "drop"),
    ("我不吃辣。", entry("我不吃辣", "饮食", "不吃辣"), "accept"),
    ("Could you cancel the hotel booking?", entry("cancel the hotel booking", "hotel", "none", change="cancel"),
     "drop"),  # a question never revokes
    ("我不吃猪肉。", entry("我不吃猪肉", "饮食", "no猪肉"), "accept"),  # "no" next to a CJK letter is a "no"
    ("I'm 34 and I have a bad left knee, so nothing with lots of stairs.",
     entry("I'm 34 and I have a bad left knee", "knee", "bad left knee"), "accept"),  # the "nothing" is another clause's
    ("I drive a 2015 Honda Civic, nothing fancy.", entry("I drive a 2015 Honda Civic", "car", "2015 Honda Civic"),
     "accept"),
    ("I'm not vegetarian anymore.", entry("vegetarian anymore", "diet", "vegetarian"), "drop"),  # "not" right before
    ("Use metric units for everything.", entry("Please use metric units for everything", "units", "metric",
                                               kind="directive"), "accept"),  # a paraphrased quote: its sentence
    ("Our office has 40 desks.", entry("Our office has 45 desks", "office desks", "45 desks"), "drop"),
    ("Traffic in big cities is always terrible.", entry("Traffic in big cities is always terrible", "traffic",
                                                         "terrible"), "drop"),  # a remark about the world
    ("Grandma never eats pork.", entry("Grandma never eats pork", "grandma diet", "no pork"), "accept"),
    ("北京的冬天一般都挺干的。", entry("北京的冬天一般都挺干的", "冬天", "冬天"), "drop"),  # how things usually are
    ("Haha okay, that's fair.", entry("Haha okay, that's fair", "haha", "that's fair", kind="decision"), "drop"),
    ("早啊，今天天气不错", entry("今天天气不错", "天气", "不错"), "drop"),  # small talk
    ("OK, Postgres it is.", entry("OK, Postgres it is", "database", "Postgres", kind="decision"), "accept"),
    ("好的，就订那家民宿吧。", entry("就订那家民宿吧", "住宿", "那家民宿", kind="decision"), "accept"),
    ("Prices for everything have gone up so much this year.",
     entry("Prices for everything have gone up so much", "prices", "gone up"), "drop"),  # an opinion about the world
    ("国庆期间景区人肯定特别多。", entry("国庆期间景区人肯定特别多", "景区", "人多"), "drop"),
    ("Convert 350 grams of flour to cups for me.", entry("350 grams of flour", "flour", "350 grams"), "drop"),
    ("我妈总念叨‘吃饭别看手机’，烦得很。", entry("吃饭别看手机", "吃饭", "别看手机", kind="constraint"), "drop"),
    ("算了，还是用中文吧。", entry("还是用中文吧", "language", "中文", kind="directive", change="update"),
     "pending"),  # said to the assistant (not a remark), without a standing-rule word: asked
    ("Suggest three hotels near the venue I mentioned.",
     entry("Suggest three hotels near the venue I mentioned", "hotels", "three hotels near the venue"), "drop"),
    ("请记住我对花生过敏。", entry("我对花生过敏", "过敏", "花生"), "accept"),
    ("音乐的话，民谣听得最多。", entry("民谣听得最多", "音乐", "民谣", kind="preference"), "accept"),  # a topic, not an "if"
    ("明天下雨的话，我们就不去了。", entry("我们就不去了", "计划", "不去了"), "drop"),
    # A spoken opening is no rule of its own ("one thing: Oh, one thing" superseded the real rule).
    ("Oh, one thing: from now on please give me the conclusion first, then the details.",
     entry("Oh, one thing", "one thing", "Oh, one thing", kind="directive"), "drop"),
    ("对了，以后回答都先说结论再说细节。", entry("对了", "对了", "对了", kind="directive"), "drop"),
    ("Oh, one thing: from now on please give me the conclusion first, then the details.",
     entry("from now on please give me the conclusion first, then the details", "reply order",
           "conclusion first, then the details", kind="directive"), "accept"),
    # A change by an amount is the rules' to compute: filed as it reads, it became the budget.
    ("再加500吧，难得一次", entry("再加500吧", "预算", "500", kind="constraint"), "drop"),
    ("add 300 to the budget", entry("add 300 to the budget", "budget", "add 300", kind="constraint"), "drop"),
    ("ok let's halve that", entry("let's halve that", "budget", "halve that", kind="constraint"), "drop"),
    # bench health run N: weather talk filed as a fact, the plan it spoiled as a decision.
    ("ugh the weather is awful today, I was supposed to go to the farmers market",
     entry("the weather is awful today", "weather", "weather is awful"), "drop"),
    ("ugh the weather is awful today, I was supposed to go to the farmers market",
     entry("I was supposed to go to the farmers market", "farmers market", "farmers market", kind="decision"), "drop"),
    ("今天下雨了，好烦啊", entry("今天下雨了", "天气", "下雨"), "drop"),
    ("鱼要不要整条蒸？年年有余嘛", entry("年年有余嘛", "年年有余", "年年有余嘛"), "drop"),  # run O: a saying
    ("We want somewhere sunny in July.", entry("We want somewhere sunny in July", "destination", "somewhere sunny",
                                               kind="preference"), "accept"),
])

def test_every_entry_is_checked_against_the_users_own_words(message, proposal, verdict):
    assert vet(Proposal(**proposal), message).verdict == verdict


@pytest.mark.parametrize("text", ["请记住我对花生过敏", "Please remember my budget is 300 EUR", "Check-in is at 3pm on May 5",
                                  "Make sure the venue holds at least 120 people", "Say it in Chinese from now on",
                                  "According to my doctor, I am allergic to penicillin", 'Call me "Captain Li" from now on'])
def test_the_rules_still_write_ordinary_statements_that_start_like_requests_or_quote(text):
    from desktop_app.memory.write.extraction import extract

    assert extract(text), text


def test_a_bare_yes_in_another_session_does_not_settle_a_pending_profile_item(store, settings, conversation):
    first = conversation("first")
    first.user("My name is Ana.")
    model_pass(first, scripted([entry("My name is Ana", "name", "Ana", scope="profile")]))
    first.user("Actually call me Anita.")
    other = conversation("second")
    other.user("yes")
    assert not [i for i in store.list_items(other.sid, statuses=("active",)) if i.value == "yes"]
    assert all(i.status != "revoked" or i.value != "Ana" for i in store.list_items(other.sid))


def test_the_pre_filter_skips_greetings_acknowledgements_and_pure_questions():
    assert not worth_proposing("thanks!")
    assert not worth_proposing("好的")
    assert not worth_proposing("What's the capital of Peru?")
    assert worth_proposing("Just so you know, shellfish makes me sick.")


# -- merging with the rules -------------------------------------------------------------------
def test_a_compound_sentence_becomes_one_item_per_subject_and_a_later_change_touches_only_its_own(store, settings, conversation):
    convo = conversation()
    convo.user("My name is Bob and the budget is 300 euros.")
    rule_items = store.list_items(convo.sid, statuses=("active",))  # the rules divide it at "and the budget"
    assert len(rule_items) == 2
    engine = scripted([entry("My name is Bob", "name", "Bob", scope="profile"),
                       entry("the budget is 300 euros", "budget", "300 EUR", kind="constraint")])
    outcome, _ = model_pass(convo, engine)
    assert outcome.status == "done"
    now = active(store, convo.sid)
    assert set(now) == {"name: Bob", "budget: 300 EUR"}
    assert now["name: Bob"].scope == "profile"
    assert now["name: Bob"].origin == "model"
    assert all(store.get_item(i.id).status == "superseded" for i in rule_items), "refined, kept in history — not dropped"
    convo.user("Actually my budget is 450 euros.")
    now = active(store, convo.sid)
    assert "name: Bob" in now, "superseding the budget never touches the name"
    assert any("450" in v for v in now)
    assert not any("300" in v for v in now)


def test_a_rule_item_is_kept_when_the_model_loses_one_of_its_numbers(store, settings, conversation):
    convo = conversation()
    convo.user("预算不超过5000元，3月20日之前交。")
    before = set(active(store, convo.sid))
    model_pass(convo, scripted([entry("预算不超过5000元", "预算", "不超过", kind="constraint")]))
    assert before <= set(active(store, convo.sid)), "nothing a rule wrote disappears"


def test_the_model_fills_in_what_the_rules_missed_and_supersedes_a_changed_value(store, settings, conversation):
    convo = conversation()
    assert convo.user("The venue holds 150 guests.") == [] or True
    model_pass(convo, scripted([entry("The venue holds 150 guests", "venue capacity", "150 guests")]))
    assert "venue capacity: 150 guests" in active(store, convo.sid)
    convo.user("They just told me the venue can only take 120.")
    engine = scripted([entry("the venue can only take 120", "venue capacity", "120 guests", kind="constraint",
                             change="update")])
    model_pass(convo, engine)
    now = active(store, convo.sid)
    assert "venue capacity: 120 guests" in now
    assert not any("150" in v for v in now)
    known = engine.calls[-1][-1]["content"].split("\n")[0]
    assert known.startswith("Known subjects:") and "venue capacity" in known, "memory's subjects reach the model"


def test_a_clear_cancellation_revokes_the_rule_and_an_unclear_one_asks(store, settings, conversation):
    convo = conversation()
    convo.user("Write all code examples in Rust from now on.")
    [rust] = [i for i in store.list_items(convo.sid) if "Rust" in i.value]
    convo.user("Switch the examples back to Python.")
    model_pass(convo, scripted([entry("Switch the examples back to Python.", "code examples", "Python",
                                      kind="directive", change="cancel")]))
    assert store.get_item(rust.id).status == "revoked"
    convo.user("Always answer in bullet points.")
    convo.user("Always keep answers under 100 words.")
    convo.user("Drop that rule.")
    model_pass(convo, scripted([entry("Drop that rule", "rule", "none", kind="directive", change="cancel")]))
    pending = store.list_items(convo.sid, statuses=("pending",))
    assert pending, "unclear: the assistant asks"
    assert pending[-1].details.get("proposal") == "revoke", "unclear: the assistant asks"


def test_a_request_that_names_a_value_does_not_change_it(store, settings, conversation):
    convo = conversation()
    convo.user("My budget is 300 euros.")
    before = set(active(store, convo.sid))
    convo.user("Please plan a 7-day itinerary within my budget")
    model_pass(convo, scripted([entry("Please plan a 7-day itinerary within my budget", "budget", "7-day itinerary")]))
    assert set(active(store, convo.sid)) == before
    assert not store.list_items(convo.sid, statuses=("pending",))


# -- invalid output and races --------------------------------------------------------------------
def test_invalid_json_is_retried_once_with_a_shorter_prompt(store, settings, conversation):
    convo = conversation()
    convo.user("我家有两只猫。")
    engine = scripted("{not json", [entry("我家有两只猫", "宠物", "两只猫", scope="profile")])
    outcome, _ = model_pass(convo, engine)
    assert outcome.status == "done"
    assert "宠物: 两只猫" in active(store, convo.sid)
    assert len(engine.calls) == 2, "the retry is shorter"
    assert len(engine.calls[1]) < len(engine.calls[0]), "the retry is shorter"


def test_invalid_json_twice_leaves_the_rules_result_and_loses_nothing(store, settings, conversation):
    convo = conversation()
    convo.user("From now on answer in Chinese.")
    before = store.list_items(convo.sid)
    outcome, job = model_pass(convo, scripted('{"items": [{"quote": 1}]}'))
    assert outcome.status == "done"
    assert any("invalid twice" in n for n in job.notes)
    assert store.list_items(convo.sid) == before


def test_a_patch_made_stale_by_the_user_is_rejected_whole_and_planned_again(store, settings, conversation):
    convo = conversation()
    convo.user("Our office has 40 desks and the lease ends in September.")
    reply = json.dumps({"items": [entry("Our office has 40 desks", "office desks", "40 desks"),
                                  entry("the lease ends in September", "lease end", "September", kind="constraint")]})

    def meanwhile(messages):  # the user changes memory while the model is thinking
        if not getattr(meanwhile, "done", False):
            meanwhile.done = True
            run_command(store, store.get_session(convo.sid), "fact", "parking: 3 spaces", 0.0)
        return reply

    version = store.state_version(convo.sid)
    outcome, job = model_pass(convo, ScriptedEngine(meanwhile))
    assert outcome.status == "done"
    values = set(active(store, convo.sid))
    assert {"office desks: 40 desks", "lease end: September"} <= values
    assert any("parking" in v for v in values)
    assert store.state_version(convo.sid) == version + 2, "the user's change and one applied patch"


def test_a_stale_patch_never_half_applies(store, settings, conversation):
    from desktop_app.memory.write.patches import MemoryPatch, PatchRejected

    session = store.session_named("s")
    op = AddItem(kind="fact", subject="a", value="a: 1")
    apply_patch(store, propose(store, session.id, [op]))
    with pytest.raises(PatchRejected, match="stale"):
        apply_patch(store, MemoryPatch(session_id=session.id, expected_version=0,
                                       ops=[AddItem(kind="fact", subject="b", value="b: 2"), op]))
    assert [i.value for i in store.list_items(session.id)] == ["a: 1"]


def test_the_chat_needing_the_model_postpones_the_pass(store, settings, conversation):
    convo = conversation()
    convo.user("Our office has 40 desks.")
    job = ExtractJob(convo.sid, [convo.recorded.message.id], MemoryModel("always"))
    engine = scripted([entry("Our office has 40 desks", "office desks", "40 desks")])
    outcome = job.run(JobContext(store=store, should_stop=lambda: bool(engine.calls), engine=engine))
    assert outcome.status == "postponed"
    assert not any("desks: 40" in v for v in active(store, convo.sid))


def test_auto_mode_falls_back_to_the_rules_when_the_model_fails_the_json_self_test(store, settings, conversation):
    convo = conversation()
    convo.user("Our office has 40 desks.")
    outcome, _ = model_pass(convo, ScriptedEngine("I am a tiny model and I write prose."), mode="auto")
    assert outcome.status == "done"
    assert "rules only" in outcome.detail
    outcome, _ = model_pass(convo, scripted([entry("Our office has 40 desks", "office desks", "40 desks")]),
                            mode="off")
    assert "rules only" in outcome.detail


def test_the_cost_of_model_memory_work_lands_in_the_turn_record(store, settings, conversation):
    from desktop_app.chat import pipeline_for, run_turn
    from desktop_app.memory.background.queue import JobQueue

    jobs = JobQueue()
    engine = ScriptedEngine(lambda m: json.dumps({"items": [entry("I keep bees", "hobby", "bees", scope="profile")]})
                            if "JSON" in m[0]["content"] else "Lovely.")
    pipeline = pipeline_for(store, settings.model_copy(update={"memory_model": "always"}), counter=engine.counter,
                            n_ctx=engine.n_ctx, jobs=jobs)
    session = store.session_named("s")
    run_turn(pipeline, session, engine, "I keep bees.", settings=settings)
    jobs.run_pending(lambda stop: JobContext(store=store, should_stop=stop, engine=engine))
    work = store.last_turn_record(session.id).memory_work
    assert work is not None
    assert work.calls == 1
    assert work.prompt_tokens > 0
    assert work.completion_tokens > 0
    assert "hobby: bees" in active(store, session.id)


# -- only the user's words write memory ---------------------------------------------------------------
def test_assistant_and_pasted_text_never_write_directives(store, settings, conversation):
    convo = conversation()
    convo.pipeline.import_message(convo.session, "assistant", "From now on I will always reply in French.")
    convo.user("Here is the email I got:\n> 以后每次报告都要抄送财务。\n> From now on always reply in French.\nThoughts?")
    convo.reply("Noted.")
    assert not store.list_items(convo.sid), "the rules wrote nothing"
    engine = scripted([entry("以后每次报告都要抄送财务", "报告抄送", "抄送财务", kind="directive"),
                       entry("From now on always reply in French.", "language", "French", kind="directive")])
    model_pass(convo, engine)
    assert not store.list_items(convo.sid), "quoted material is not the user's rule"
    assistant = store.last_messages(convo.sid, 1)[0]
    job = ExtractJob(convo.sid, [assistant.id], MemoryModel("always"))
    job.run(JobContext(store=store, should_stop=lambda: False, engine=scripted(
        [entry("From now on I will always reply in French.", "language", "French", kind="directive")])))
    assert not store.list_items(convo.sid), "an assistant turn is never proposed on"


# -- the profile scope -----------------------------------------------------------------------------------
def test_profile_items_reach_every_session_and_forgetting_removes_them_everywhere(store, settings, conversation):
    first = conversation("first")
    first.user("I'm allergic to peanuts.")
    [allergy] = store.list_items(first.sid)
    assert allergy.scope == "profile", "the rules put facts about the user in the profile"
    other = conversation("second")
    other.user("Plan a dinner menu for Saturday.")
    assert allergy.id in {i.id for i in store.list_items(other.sid)}
    plan = other.plan()
    assert "peanuts" in plan.layer("anchors").text + plan.layer("state").text
    assert allergy.id not in {i.id for i in store.list_items(other.sid, include_profile=False)}
    store.delete_session(first.sid)
    assert store.get_item(allergy.id) is not None, "deleting a session leaves the profile"
    result = run_command(store, store.get_session(other.sid), "revoke", str(allergy.id), 0.0)
    assert result.ok
    assert store.get_item(allergy.id).status == "revoked"
    assert allergy.id not in {i.id for i in store.list_items(other.sid, statuses=("active",))}


def test_an_item_moves_between_the_session_and_the_profile(store, settings, conversation):
    convo = conversation()
    convo.user("Our office has 40 desks.")
    model_pass(convo, scripted([entry("Our office has 40 desks", "office desks", "40 desks")]))
    item = active(store, convo.sid)["office desks: 40 desks"]
    assert item.scope == "session"
    result = run_command(store, convo.session, "scope", f"{item.id} profile", 0.0)
    assert result.ok
    assert store.get_item(item.id).scope == "profile"
    elsewhere = store.session_named("elsewhere")
    assert item.id in {i.id for i in store.list_items(elsewhere.id)}
    run_command(store, convo.session, "scope", f"{item.id} session", 0.0)
    assert item.id not in {i.id for i in store.list_items(elsewhere.id)}
    assert "profile" not in [s.name for s in store.list_sessions()]


# -- answering from memory: the state next to the input -----------------------------------------------
def test_asking_for_the_constraints_replays_the_current_state_last_and_never_recalls_revoked_text(store, settings,
                                                                                                conversation):
    convo = conversation(n_ctx=1024)
    convo.say("The trip budget is 2000 euros.")
    convo.say("Always answer in bullet points.")
    for n in range(6):
        convo.say(f"Tell me something about harbour cranes and tide tables, part {n}.", "Cranes lift containers. " * 12)
    convo.say("Actually the trip budget is 2600 euros.")
    convo.say("Stop the bullet points rule.")
    for n in range(8):
        convo.say(f"Chit-chat about weather and budget airlines, round {n}.", "Weather chatter. " * 15)
    assert convo.paging, "the early turns were paged out"
    plan = convo.say("Summarise my constraints and give me the final plan.")
    tail = plan.messages[-1]["content"] if plan.messages[-1]["role"] == "user" else ""
    recalled = plan.layer("recalled").text
    assert "2600" in recalled
    assert "2000 euros" not in recalled.split("Reminder")[-1]
    replay = [i for i in plan.layer("recalled").items if i.type == "replay"]
    assert any("2600" in (i.value or "") for i in replay), "the current value sits right before the input"
    assert not any("bullet" in (i.value or "").lower() for i in replay), "the revoked rule is not replayed"
    assert "Always answer in bullet points" not in recalled, "revoked text is not recalled as if live"
    assert "Summarise my constraints" in tail or plan.layer("input").text


# -- what the tmux walk saw the default model do ------------------------------------------------
@pytest.mark.parametrize("first, second", [
    (("We decided to fly into Lisbon.", "fly into Lisbon"), ("We decided to skip Porto.", "skip Porto")),
    (("我们决定住在阿尔法玛。", "住在阿尔法玛"), ("我们决定去辛特拉一日游。", "去辛特拉一日游")),
])
def test_a_generic_subject_never_makes_one_decision_replace_another(conversation, first, second):
    convo = conversation()
    kept = []
    for text, value in (first, second):
        convo.user(text)
        subject = "决定" if text.startswith("我们") else "decision"
        model_pass(convo, scripted([entry(text.rstrip("。."), subject, value, kind="decision")]))
        kept.append(value)
    values = " | ".join(active(convo.store, convo.sid))
    assert all(v in values for v in kept), values


@pytest.mark.parametrize("text, subject, value", [
    ("This time my sister is coming along.", "time", "this time"),
    ("This time my sister is coming along.", "sister", "my sister"),
    ("这次我妹妹也一起去。", "妹妹", "我的妹妹"),
])
def test_a_value_that_only_repeats_its_subject_becomes_the_users_own_words(text, subject, value):
    vetted = vet(Proposal(**entry(text.rstrip("。."), subject, value)), text)
    assert vetted.verdict == "accept"
    assert vetted.proposal.value == text.rstrip("。.")


@pytest.mark.parametrize("text, subject, value, kind", [
    ("Please address me as Dr. Okafor in anything formal you draft for me.", "Dr. Okafor", "Dr. Okafor", "directive"),
    ("Use metric units for everything, please.", "metric units", "metric units", "directive"),
    ("我有高血压，一直在吃药。", "高血压", "高血压", "fact"),
])
def test_a_subject_named_twice_keeps_what_the_user_said_about_it(text, subject, value, kind):
    quote = text.split("，")[0].rstrip("。.")
    vetted = vet(Proposal(**entry(quote, subject, value, kind=kind)), text)
    assert vetted.verdict == "accept"
    assert vetted.proposal.value == quote


@pytest.mark.parametrize("text, subject, value", [("Thanks!", "thanks", "thanks"), ("哈哈哈", "哈哈哈", "哈哈哈")])
def test_chatter_named_twice_is_dropped(text, subject, value):
    assert vet(Proposal(**entry(text.rstrip("!"), subject, value)), text).verdict == "drop"


def test_a_negated_value_is_not_a_repetition():
    text = "No smoking in the apartment."
    assert vet(Proposal(**entry("No smoking in the apartment", "smoking", "no smoking", kind="constraint")),
               text).verdict == "accept"


@pytest.mark.parametrize("said, corrected, proposed", [
    ("My budget is 5000 euros.", "6000 euros", "5000 euros"),
    ("我的预算是5000欧元。", "6000欧元", "5000欧元"),
])
def test_a_late_model_pass_never_overrides_a_correction_made_after_the_message(conversation, said, corrected,
                                                                             proposed):
    convo = conversation()
    convo.user(said)
    [budget] = convo.active()
    session = convo.store.get_session(convo.sid)
    run_command(convo.store, session, "correct", f"{budget.id} {corrected}", 2_000_000_000.0)
    outcome, _ = model_pass(convo, scripted([entry(said.rstrip("。."), "budget", proposed, kind="constraint")]))
    items = convo.store.list_items(convo.sid, statuses=("active", "pending"))
    assert [i.value for i in items if i.status == "active"] == [next(i.value for i in items if corrected in i.value)]
    assert not [i for i in items if i.status == "pending"], "nothing asks to undo the correction"


# -- what bench memory's misses showed ----------------------------------------------------------
@pytest.mark.parametrize("first, second, new, old", [
    (("团建人数定为30人。", [entry("团建人数定为30人", "团建人数", "30人")]),
     ("又有5个人报名，一共35人。", [entry("又有5个人报名", "报名人数", "5个人"), entry("一共35人", "报名人数", "35人")]),
     "35人", "30人"),
    (("The report is due March 10.", [entry("The report is due March 10", "report", "March 10", kind="constraint")]),
     ("The client pushed it back a week, to March 17.", [entry("The client pushed it back a week, to March 17",
                                                               "date", "March 17", kind="constraint")]),
     "March 17", "March 10"),
])
def test_a_quote_that_says_a_value_changed_replaces_the_one_value_it_counts(conversation, first, second, new, old):
    convo = conversation()
    for text, entries in (first, second):
        convo.user(text)
        model_pass(convo, scripted(entries))
    values = " | ".join(active(convo.store, convo.sid))
    assert new in values, values
    assert old not in values, values


def test_a_new_number_that_counts_something_else_replaces_nothing(conversation):
    convo = conversation()
    convo.user("The hotel is 3 nights.")
    model_pass(convo, scripted([entry("The hotel is 3 nights", "hotel", "3 nights")]))
    convo.user("We have 2 kids.")
    model_pass(convo, scripted([entry("We have 2 kids", "kids", "2 kids")]))
    convo.user("Priya dropped out, so we're 4 now.")  # says "changed", but counts neither nights nor kids
    model_pass(convo, scripted([entry("Priya dropped out, so we're 4 now", "group", "4 people")]))
    values = " | ".join(active(convo.store, convo.sid))
    assert "3 nights" in values, values
    assert "2 kids" in values, values
    assert "4 people" in values, values


def test_a_profile_value_the_user_says_has_changed_is_replaced_without_asking(conversation):
    convo = conversation()
    convo.user("My diet is vegetarian.")
    model_pass(convo, scripted([entry("My diet is vegetarian", "diet", "vegetarian", scope="profile")]))
    convo.user("Started eating fish again, so my diet is pescatarian now.")
    model_pass(convo, scripted([entry("so my diet is pescatarian now", "diet", "pescatarian", scope="profile",
                                      change="update")]))
    items = convo.store.list_items(convo.sid, statuses=("active", "pending"))
    assert [i.value for i in items if i.status == "active" and "diet" in i.value] == ["diet: pescatarian"]


def test_a_profile_item_the_sentence_never_names_is_only_asked_to_change(conversation):
    convo = conversation()
    convo.user("我叫李娜。")
    model_pass(convo, scripted([entry("我叫李娜", "name", "李娜", scope="profile")]))
    convo.user("其实我上个月搬到重庆了。")  # "其实" says something changed, but not the name
    model_pass(convo, scripted([entry("其实我上个月搬到重庆了", "name", "重庆", scope="profile", change="update")]))
    assert any("李娜" in v for v in active(convo.store, convo.sid)), "the name stays"


def test_one_pass_writes_a_value_once_though_the_model_names_it_twice(conversation):
    convo = conversation()
    convo.user("我的预算是5000元。")
    model_pass(convo, scripted([entry("我的预算是5000元", "预算", "5000元", kind="constraint"),
                                entry("我的预算是5000元", "budget", "5000元", kind="constraint")]))
    assert len([v for v in active(convo.store, convo.sid) if "5000" in v]) == 1


@pytest.mark.parametrize("sentence, model_kind, kind", [
    ("The abstract can be 250 words tops.", "fact", "constraint"),
    ("I picked FastAPI over Flask for the backend.", "fact", "decision"),
    ("Jazz is my go-to when I need to focus.", "fact", "preference"),
    ("想在年底前把雅思考到7分。", "decision", "goal"),
    ("Kind of leaning toward React, but Svelte is tempting too.", "constraint", "open_question"),
    ("人均控制在200块上下。", "fact", "constraint"),
    ("Our server runs Ubuntu 22.04.", "fact", "fact"),  # no cue: the model's kind stands
    ("Always reply in English.", "directive", "directive"),  # a rule stays a rule
])
def test_the_sentences_own_words_settle_the_kind(sentence, model_kind, kind):
    assert settle_kind(model_kind, sentence) == kind


def test_an_undecided_sentence_is_kept_whole_as_one_open_question(conversation):
    convo = conversation()
    convo.user("Still torn between Lisbon and Porto for the second week.")
    model_pass(convo, scripted([entry("Still torn between Lisbon and Porto", "city", "Lisbon"),
                                entry("for the second week", "week", "second week", kind="constraint")]))
    questions = [i for i in convo.store.list_items(convo.sid, statuses=("active",)) if i.kind == "open_question"]
    assert len(questions) == 1
    assert "Lisbon" in questions[0].value
    assert "Porto" in questions[0].value


def test_a_goal_needs_words_of_aiming():
    """Seen in a real session: the 0.5B filed "年终奖发下来了" (the bonus came) as the session's goal."""
    from desktop_app.memory.write.kind_cues import settle_kind

    assert settle_kind("goal", "预算改成12000元了，年终奖发下来了。") == "fact"
    assert settle_kind("goal", "我们一家四口想十月去大理玩五天。") == "goal"
    assert settle_kind("goal", "I want to run a marathon next spring.") == "goal"
    assert settle_kind("goal", "My bonus came through.") == "fact"


@pytest.mark.parametrize("lang, task, detail, value", [
    ("zh", "帮我规划一下带爸妈去云南玩的行程呗", "打算国庆去，10月1号出发，玩6天", "10月1号出发，玩6天"),
    ("en", "Help me plan a family trip to Lisbon.", "We're thinking 7 days, flying out July 14.", "7 days from July 14"),
])
def test_a_detail_of_the_task_is_a_fact_not_a_second_goal(store, settings, conversation, lang, task, detail, value):
    convo = conversation(lang=lang)
    convo.user(task)
    goals = [i for i in active(store, convo.sid).values() if i.kind == "goal"]
    assert len(goals) == 1
    convo.user(detail)
    quote = detail.rstrip("。.")
    model_pass(convo, scripted([entry(quote, "trip dates", value, kind="goal")]))
    now = active(store, convo.sid).values()
    assert [i.value for i in now if i.kind == "goal"] == [goals[0].value]
    # a fact: the model's, or the rules' items that already hold each of its values
    held = " ".join(i.value for i in now if i.kind == "fact")
    assert value in held or all(piece in held for piece in (("10月1号", "6天") if lang == "zh" else ("7 days", "July 14")))


def test_a_new_request_is_still_a_goal(store, settings, conversation):
    convo = conversation()
    convo.user("Help me plan a family trip to Lisbon.")
    convo.user("Next I want to write a cover letter for the job at Acme.")
    model_pass(convo, scripted([entry("I want to write a cover letter for the job at Acme", "cover letter",
                                      "write a cover letter for Acme", kind="goal")]))
    now = active(store, convo.sid).values()
    assert any(i.kind == "goal" and "cover letter" in i.value for i in now), [(i.kind, i.value) for i in now]


@pytest.mark.parametrize("lang, text, quote, subject, value, kept", [
    ("en", "I'm hosting a party on Saturday, expecting 20 guests.", "I'm hosting a party on Saturday, expecting 20 guests",
     "party", "I'm hosting a party on Saturday, expecting 20 guests", "goal"),
    ("en", "We're going to Kyoto for 5 days in October.", "We're going to Kyoto for 5 days in October",
     "trip length", "5 days", "Kyoto"),
    ("zh", "我在写一篇论文，学校要求8000字。", "我在写一篇论文，学校要求8000字", "论文内容", "8000字", "goal"),
])
def test_a_restatement_that_drops_the_plan_or_a_name_does_not_replace_the_rule_item(conversation, lang, text, quote,
                                                                                     subject, value, kept):
    convo = conversation(lang=lang)
    convo.user(text)
    before = convo.store.list_items(convo.sid, statuses=("active",))
    assert before, "the rules read the sentence"
    model_pass(convo, scripted([entry(quote, subject, value)]))
    after = convo.store.list_items(convo.sid, statuses=("active",))
    assert any(kept == i.kind or kept in i.value for i in after), [(i.kind, i.value) for i in after]
    assert all(i.status == "active" for i in convo.store.list_items(convo.sid) if i.id in {b.id for b in before})


@pytest.mark.parametrize("lang, text, quote, subject, value, old", [
    ("zh", "说错了，是下周四，不是周三。", "说错了，是下周四，不是周三", "周四", "说错了，是下周四，不是周三", "周三"),
    ("en", "Sorry, I meant the 14th, not the 12th.", "I meant the 14th, not the 12th", "date", "the 14th, not the 12th",
     "12th"),
])
def test_a_model_value_never_keeps_the_old_value_its_correction_drops(conversation, lang, text, quote, subject,
                                                                      value, old):
    convo = conversation(lang=lang)
    convo.user(text)
    model_pass(convo, scripted([entry(quote, subject, value)]))
    assert not any(old in i.value for i in convo.store.list_items(convo.sid, statuses=("active",)))


def test_a_restatement_holding_two_things_the_rules_kept_apart_replaces_neither(store, settings, conversation):
    """bench health run N: the pass's "friend Priya: Dietary stuff: my friend Priya is vegetarian, and Jake has a
    shellfish allergy" replaced the diet and stood beside the allergy (one thing is one item)."""
    for lang, said, vegetarian, allergy in (
            ("en", "Dietary stuff: my friend Priya is vegetarian, and Jake has a shellfish allergy.", "Priya is vegetarian",
             "Jake has a shellfish allergy"),
            ("zh", "我表妹小雨对虾过敏，我奶奶吃素。", "我表妹小雨对虾过敏", "我奶奶吃素")):
        convo = conversation(name=f"diets-{lang}", lang=lang)
        convo.user(said)
        before = set(active(store, convo.sid))
        whole = said.rstrip(".。")
        outcome, job = model_pass(convo, scripted([entry(whole, "diets", whole, scope="profile")]))
        now = set(active(store, convo.sid))
        assert before <= now and not any(vegetarian in v and allergy in v for v in now), (lang, now)


def test_the_goal_said_again_in_fewer_words_is_no_second_item(store, settings, conversation):
    """bench health run N: "hosting dinner party" (a fact) beside the goal it shortens."""
    for lang, said, quote, short in (
            ("en", "I'm hosting a dinner party on Saturday the 18th and I'm already stressing. Can you help me plan a menu?",
             "I'm hosting a dinner party", "hosting dinner party"),
            ("zh", "我下周六要在家办个生日派对，有点紧张，帮我想想菜单", "我下周六要在家办个生日派对", "生日派对")):
        convo = conversation(name=f"goal-{lang}", lang=lang)
        convo.user(said)
        before = set(active(store, convo.sid))
        model_pass(convo, scripted([entry(quote, short.split()[0], short)]))
        assert set(active(store, convo.sid)) == before, (lang, set(active(store, convo.sid)))
