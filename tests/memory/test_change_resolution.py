"""A change of mind the extraction pass could not place: the model points at the item it changes,
the program checks the pointer and the new value (a scripted engine answers for the model)."""

from __future__ import annotations

import json

from desktop_app.engine.scripted import ScriptedEngine
from desktop_app.memory.background.memory_pass import ExtractJob, MemoryModel
from desktop_app.memory.background.queue import JobContext
from desktop_app.memory.write.change_resolution import mentions_change
from tests.support.engines import entry

FIRST = "<the first item shown>"


class Model:
    """Answers the extraction prompt with ``items`` and the change prompt with ``answer``; counts both."""

    def __init__(self, items: list[dict], answer: dict | str | None = None):
        self.items, self.answer = items, answer
        self.asked_change = 0
        self.engine = ScriptedEngine(self._reply)

    def _reply(self, messages) -> str:
        if "Remembered:" in messages[-1]["content"] or "已记住" in messages[-1]["content"]:
            self.asked_change += 1
            if isinstance(self.answer, str):
                return self.answer
            shown = [line[2:] for line in messages[-1]["content"].splitlines() if line.startswith("- ")]
            answer = dict(self.answer or {"old": "none", "new": ""})
            answer["old"] = shown[0] if answer["old"] == FIRST else answer["old"]
            return json.dumps(answer, ensure_ascii=False)
        return json.dumps({"items": self.items}, ensure_ascii=False)


def model_pass(convo, model: Model):
    job = ExtractJob(convo.sid, [convo.recorded.message.id], MemoryModel("always"))
    outcome = job.run(JobContext(store=convo.store, should_stop=lambda: False, engine=model.engine))
    assert outcome.status == "done"
    return job


def values(convo, status="active") -> list[str]:
    return [i.value for i in convo.store.list_items(convo.sid, statuses=(status,))]


def test_a_raised_limit_named_differently_replaces_the_old_one_and_states_the_new_value_once(conversation):
    convo = conversation()
    convo.user("Keep the trip under 2000 dollars.")
    model_pass(convo, Model([entry("Keep the trip under 2000 dollars", "trip limit", "under 2000 dollars",
                                   kind="constraint")]))
    assert "trip limit: under 2000 dollars" in values(convo)
    convo.user("We got a bonus, so 2800 is okay now.")
    model = Model([entry("so 2800 is okay now", "bonus", "2800")], {"old": FIRST, "new": "2800 dollars"})
    job = model_pass(convo, model)
    assert model.asked_change == 1
    now = values(convo)
    assert "trip limit: 2800 dollars" in now
    assert not [v for v in now if "2000" in v], "the superseded limit is not left active"
    assert "bonus: 2800" not in now, "the stray label for the same value is folded into the replacement"
    assert any("replaces" in note for note in job.notes)
    [new] = [i for i in convo.store.list_items(convo.sid, statuses=("active",)) if "2800" in i.value]
    assert new.kind == "constraint"
    assert new.origin == "model"
    assert new.supersedes is not None


def test_a_number_the_message_does_not_hold_is_refused(conversation):
    convo = conversation()
    convo.user("We're 7 for dinner.")
    model_pass(convo, Model([entry("We're 7 for dinner", "dinner guests", "7 people")]))
    convo.user("Two more friends are joining us.")
    model = Model([], {"old": FIRST, "new": "11 people"})
    job = model_pass(convo, model)
    assert "head count: 7 people" in values(convo), "the model's label for the head count is the head count"
    assert any("does not hold" in note for note in job.notes)


def test_a_new_count_of_people_never_replaces_the_budget(conversation):
    """bench health run N: "We're at 10 now" (the rules' head count) pointed at the budget by the model,
    and "budget: 10 now" replaced both the budget and the head count."""
    convo = conversation()
    convo.user("Budget for food and drinks is around $250.")
    model_pass(convo, Model([entry("Budget for food and drinks is around $250", "budget", "$250", kind="constraint")]))
    convo.user("Ok so two more people confirmed, Sam and his partner. We're at 10 now.")
    model = Model([], {"old": FIRST, "new": "10 now"})
    job = model_pass(convo, model)
    now = values(convo)
    assert any("$250" in v for v in now), now
    assert any("We're at 10 now" in v for v in now), now
    assert any("counts people" in note for note in job.notes), job.notes


def test_a_switched_rule_with_a_rule_key_keeps_the_users_sentence(conversation):
    convo = conversation()
    convo.user("Write all code examples in Rust from now on.")
    rules = [i for i in convo.active() if i.kind == "directive"]
    assert rules, "the rules catch the standing rule"
    convo.user("Switch the examples back to Python.")
    model_pass(convo, Model([], {"old": FIRST, "new": "Python"}))
    directives = [i.value for i in convo.active("directive")]
    assert directives == ["Switch the examples back to Python"]


def test_a_dropped_rule_is_revoked_and_a_fact_is_never_revoked(conversation):
    convo = conversation()
    convo.user("每次回复都用表格。")
    convo.user("表格太累了，正常写就行。")
    model_pass(convo, Model([], {"old": FIRST, "new": ""}))
    assert not convo.active("directive")
    assert values(convo, "revoked")

    other = conversation("facts")
    other.user("Our office has 40 desks.")
    model_pass(other, Model([entry("Our office has 40 desks", "office desks", "40 desks")]))
    other.user("We don't need to worry about the desks anymore.")
    job = model_pass(other, Model([], {"old": FIRST, "new": ""}))
    assert "office desks: 40 desks" in values(other)
    assert any("not dropped" in note for note in job.notes)


def test_a_profile_item_the_sentence_does_not_name_is_asked_about(conversation):
    convo = conversation()
    convo.user("Call me Jonathan.")
    model_pass(convo, Model([entry("Call me Jonathan", "name", "Jonathan", scope="profile")]))
    convo.user("Jon is fine now, honestly.")
    model_pass(convo, Model([], {"old": FIRST, "new": "Jon"}))
    assert any("Jonathan" in v for v in values(convo))
    assert any("Jon" in v and "Jonathan" not in v for v in values(convo, "pending"))


def test_the_model_is_not_asked_without_a_change_cue_or_about_a_question(conversation):
    convo = conversation()
    convo.user("The venue holds 150 guests.")
    model_pass(convo, Model([entry("The venue holds 150 guests", "venue capacity", "150 guests")]))
    for text in ("We also need a projector.", "Could we move it to 120 instead?", "If it were 120 now, what then?"):
        convo.user(text)
        model = Model([], {"old": FIRST, "new": "120 guests"})
        model_pass(convo, model)
        assert model.asked_change == 0, text
    assert "venue capacity: 150 guests" in values(convo)


def test_a_pointer_at_no_item_or_one_never_shown_or_malformed_changes_nothing(conversation):
    convo = conversation()
    convo.user("孩子生日派对请了12个小朋友。")
    model_pass(convo, Model([entry("孩子生日派对请了12个小朋友", "派对人数", "12个小朋友")]))
    before = values(convo)
    for answer in ({"old": "none", "new": ""}, {"old": "派对人数: 7个", "new": "10个"}, "{not json"):
        convo.user("有两个来不了，最后是10个。")
        model_pass(convo, Model([], answer))
        assert "派对人数: 12个小朋友" in values(convo)
    assert set(before) <= set(values(convo))


def test_a_count_changed_replaces_the_old_value_and_its_twin(conversation):
    convo = conversation()
    convo.user("孩子生日派对请了12个小朋友。")
    model_pass(convo, Model([entry("孩子生日派对请了12个小朋友", "派对", "孩子生日派对请了12个小朋友"),
                             entry("请了12个小朋友", "小朋友", "12个小朋友")]))
    convo.user("有两个来不了，最后是10个。")
    model_pass(convo, Model([entry("最后是10个", "最后", "10个")], {"old": FIRST, "new": "10个"}))
    now = values(convo)
    assert not [v for v in now if "12" in v], now
    assert [v for v in now if "10个" in v]


def test_change_cues():
    assert mentions_change("They just told me the venue can only take 120.")
    assert mentions_change("还是租两室的吧。")
    assert not mentions_change("Could we move it to 120 instead?")
    assert not mentions_change("We also need a projector.")


def test_a_profile_change_the_pass_asked_about_is_settled_when_the_pointer_agrees(conversation):
    convo = conversation()
    convo.user("以后用英文回答我。")
    model_pass(convo, Model([entry("以后用英文回答我", "language", "英文", kind="directive", scope="profile")]))
    convo.user("算了，还是用中文吧。")
    # The pass names the rule but only asks (a profile item); the pointer names the same rule.
    model_pass(convo, Model([entry("还是用中文吧", "language", "中文", kind="directive", scope="profile",
                                   change="update")], {"old": FIRST, "new": "用中文"}))
    directives = [i.value for i in convo.active("directive")]
    assert any("中文" in v for v in directives), directives
    assert not any("英文" in v for v in directives), directives


def test_a_pointer_at_another_item_than_the_pass_asked_about_settles_nothing(conversation):
    convo = conversation()
    convo.user("I'm vegetarian and I live in Leeds.")
    model_pass(convo, Model([entry("I'm vegetarian", "diet", "vegetarian", scope="profile"),
                             entry("I live in Leeds", "home", "Leeds", scope="profile")]))
    convo.user("Started eating fish again, so pescatarian now.")
    model = Model([entry("so pescatarian now", "diet", "pescatarian", scope="profile", change="update")],
                  {"old": "home: Leeds", "new": "pescatarian"})
    model_pass(convo, model)
    now = values(convo)
    # (The rules now read "so pescatarian now" themselves and replace the diet; the pass's pointer
    # at the home settles nothing.)
    assert any("Leeds" in v for v in now), "nothing settled on a pointer that disagrees"
    assert [v for v in now if "vegetarian" in v or "pescatarian" in v] == \
        [next(v for v in now if "pescatarian" in v)], now


def test_a_label_in_the_new_value_is_dropped_and_a_chinese_numeral_twin_goes_too(conversation):
    convo = conversation()
    convo.user("房子想租三室的。")
    model_pass(convo, Model([entry("房子想租三室的", "房子", "房子想租三室的"), entry("想租三室的", "房子", "三室")]))
    convo.user("看了下价格，还是租两室的吧。")
    model_pass(convo, Model([], {"old": FIRST, "new": "房子: 租两室的"}))
    now = values(convo)
    assert not [v for v in now if "三室" in v], now
    assert [v for v in now if "两室" in v and v.count(":") == 1], now


def test_a_dropped_rule_goes_with_its_restatement_and_a_quoted_rule_is_no_rule(conversation):
    convo = conversation()
    convo.user("以后每次回答最后都帮我出一道练习题。")
    model_pass(convo, Model([entry("以后每次回答最后都帮我出一道练习题", "练习题", "每次回答最后出一道练习题", kind="directive")]))
    assert len(convo.active("directive")) >= 1
    convo.user("练习题就不用出了。")
    model_pass(convo, Model([], {"old": FIRST, "new": ""}))
    assert not convo.active("directive"), [i.value for i in convo.active("directive")]

    quoted = conversation("quoted")
    quoted.user("把“以后都用英文回复”这句话翻译成英文")
    assert not quoted.active("directive")


def test_a_value_stretched_or_stated_now_is_a_change():
    assert mentions_change("Got a bonus, so I can stretch it to $2500.")
    assert mentions_change("这两个月瘦了不少，现在72.5了")
