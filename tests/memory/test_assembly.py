"""Prompt assembly is a pure function: order, budgets, modes, the system prompt never truncated."""

import pytest

from desktop_app.engine.tokens import fallback_counter
from desktop_app.memory.core.models import MemoryItem
from desktop_app.memory.core.turn_numbers import TurnView
from desktop_app.memory.prompt.assembly import AssemblyInput, RecalledPage, assemble_context
from desktop_app.memory.prompt.budget import SystemPromptTooLarge, compute_budgets

NOW = 1_750_000_000.0
COUNTER = fallback_counter()
LAYERS = ["system", "anchors", "state", "summary", "recent", "changes", "recalled", "input"]


def item(id_, kind, value, *, status="active", subject=None, pinned=False, source=None, supersedes=None):
    return MemoryItem(id=id_, session_id=1, kind=kind, subject=subject or f"s{id_}", value=value, status=status,
                      pinned=pinned, origin="rule", source_message_id=source, supersedes=supersedes,
                      state_version=id_, created_at=NOW, updated_at=NOW)


def turns(n, start=1, words=12):
    out = []
    for i in range(start, start + n):
        for role, offset in (("user", 0), ("assistant", 1)):
            text = f"{role} message {i} " + " ".join(f"word{i}x{k}" for k in range(words))
            out.append(TurnView(id=2 * i + offset, role=role, content=text, tokens=COUNTER.count(text), turn=i,
                                created_at=NOW + i))
    return out


def base(**kw):
    values = dict(system_prompt="You are Paperclip.", input_text="What is the budget now?", n_ctx=2048, now=NOW,
                  items=[item(1, "directive", "Always answer in English."),
                         item(2, "constraint", "The budget must stay under 5000 dollars."),
                         item(3, "fact", "The venue is Hall 3.")])
    values.update(kw)
    return AssemblyInput(**values)


def test_layers_come_in_the_design_order_and_tokens_add_up():
    result = assemble_context(base(recent=turns(2)), COUNTER)
    assert list(result.layers) == LAYERS
    assert result.total_tokens == sum(layer.tokens for layer in result.layers.values())
    head = result.messages[0]["content"]
    assert head.index("You are Paperclip.") < head.index("standing rules") < head.index("What you know")
    assert [m["role"] for m in result.messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert result.messages[-1]["content"].endswith("What is the budget now?")


def test_anchors_hold_rules_and_limits_as_sentences_and_state_holds_the_rest():
    result = assemble_context(base(), COUNTER)
    anchors, state = result.layers["anchors"].text, result.layers["state"].text
    assert "rules for your replies (follow them without mentioning them): Always answer in English." in anchors
    assert "Hard limits: The budget must stay under 5000 dollars." in anchors
    assert "Hall 3" in state
    assert "Hall 3" not in anchors
    assert [(x.id, x.kind) for x in result.layers["anchors"].items] == [(1, "directive"), (2, "constraint")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memory_reads_as_plain_sentences_without_markers_ids_kinds_or_clock(lang):
    history = [item(4, "constraint", "预算不超过3000元", status="superseded", source=2)]
    items = [item(1, "directive", "以后每次回答都先给结论"), item(5, "constraint", "预算: 5000元", supersedes=4),
             item(3, "fact", "我对花生过敏", source=9), item(6, "goal", "规划大理之行"),
             item(7, "open_question", "住古城还是洱海边", source=11), item(8, "fact", "两个孩子", status="pending")]
    raw = [TurnView(id=2, role="user", content="预算不超过3000元。", tokens=10, turn=1, created_at=NOW),
           TurnView(id=3, role="assistant", content="好的。", tokens=2, turn=1, created_at=NOW)]
    page = RecalledPage(page_id=7, score=3.0, turns=[
        TurnView(id=20, role="user", content="预算的事和酒店聊过了。", tokens=10, turn=3, created_at=NOW - 86400 * 3)])
    result = assemble_context(base(lang=lang, items=items, history=history, recent=raw, recalled=[page],
                                   input_text="总结一下我的预算和要求"), COUNTER)
    prompt = "\n".join(m["content"] for m in result.messages)
    for marker in ("【关键】", "KEY", "#1", "#5", "#?", "[directive]", "[constraint]", "[fact]", "第3轮", "turn 3",
                   "v0", "15:06", "“?”"):
        assert marker not in prompt, marker
    assert "5000" in prompt
    assert "花生" in prompt
    if lang == "en":
        assert "【" not in prompt
        assert "第" not in prompt.replace("第一", "")
    assert {x.id for x in result.layers["anchors"].items} >= {1, 5}, "the ids stay in the layer items"


def test_at_most_four_anchors_pinned_first():
    items = [item(i, "constraint", f"Limit number {i} is {i * 100}.") for i in range(1, 8)]
    items.append(item(9, "fact", "My dog is called Rex.", pinned=True))
    result = assemble_context(base(items=items), COUNTER)
    anchored = [x.id for x in result.layers["anchors"].items]
    assert len(anchored) == 4
    assert 9 in anchored
    assert all(f"Limit number {i} is" in result.layers["state"].text for i in range(1, 8) if i not in anchored)
    assert {x.reason for x in result.excluded if x.layer == "anchors"} == {"only 4 anchors; shown in state"}


def test_the_system_prompt_is_never_truncated():
    with pytest.raises(SystemPromptTooLarge):
        assemble_context(base(system_prompt="rule " * 2000, n_ctx=512), COUNTER)
    long_history = turns(200)
    result = assemble_context(base(recent=long_history, n_ctx=1024), COUNTER)
    assert result.messages[0]["content"].startswith("You are Paperclip.")
    assert result.total_tokens <= result.budget
    assert any(x.reason == "over the prompt budget" for x in result.excluded)
    assert result.messages[1]["role"] == "user"


def test_budgets_reserve_a_quarter_for_the_reply():
    budgets = compute_budgets(4096, 50)
    assert budgets.total == 3072
    assert budgets.high_watermark == int(budgets.recent * 0.85)
    assert budgets.low_watermark == int(budgets.recent * 0.6)


def test_usage_over_eighty_percent_warns():
    result = assemble_context(base(all_turns=turns(60), mode="full", n_ctx=2048), COUNTER)
    assert result.total_tokens > 2048 * 0.8
    assert any("passes 80%" in w for w in result.warnings)


def test_replay_repeats_matching_constraints_next_to_the_input_at_most_three():
    items = [item(i, "constraint", f"The budget for part {i} is at most {i}000 dollars.") for i in range(1, 6)]
    result = assemble_context(base(items=items), COUNTER)
    replayed = [x for x in result.layers["recalled"].items if x.type == "replay"]
    assert len(replayed) == 3
    tail = result.messages[-1]["content"]
    assert tail.index("In this reply, keep to:") < tail.index("What is the budget now?")


def test_recalled_turns_say_who_said_them_and_on_which_day():
    page = RecalledPage(page_id=7, score=3.0, turns=[
        TurnView(id=5, role="user", content="The budget question came up with the caterer.", tokens=10, turn=3,
                 created_at=NOW),
        TurnView(id=6, role="assistant", content="Noted.", tokens=2, turn=3, created_at=NOW)])
    result = assemble_context(base(recalled=[page], input_text="What did you say about the budget?"), COUNTER)
    text = result.layers["recalled"].text
    assert "The user said: The budget question" in text
    assert "You replied: Noted." in text
    assert "2025-06" not in text, "a turn from today carries no date"
    earlier = page.model_copy(update={"turns": [t.model_copy(update={"created_at": NOW - 86400 * 40}) for t in page.turns]})
    text = assemble_context(base(recalled=[earlier]), COUNTER).layers["recalled"].text
    assert "On 6 May 2025, the user said: The budget question" in text
    assert (result.layers["recalled"].items[-1].type, result.layers["recalled"].items[-1].page_id) == ("page", 7)


@pytest.mark.parametrize("ask, replies_shown", [
    ("What is the budget now?", False), ("Which caterer did you suggest for the budget?", True),
    ("预算现在是多少？", False), ("你之前推荐的预算方案是什么？", True),
])
def test_the_models_own_replies_are_recalled_only_when_asked_about(ask, replies_shown):
    page = RecalledPage(page_id=7, score=3.0, turns=[
        TurnView(id=5, role="user", content="The budget question came up with the caterer. 预算问题。", tokens=10,
                 turn=3, created_at=NOW),
        TurnView(id=6, role="assistant", content="With 5000 dollars, try Rossi's. 预算可以找罗西。", tokens=9, turn=3,
                 created_at=NOW)])
    text = assemble_context(base(recalled=[page], input_text=ask), COUNTER).layers["recalled"].text
    assert "budget question came up" in text
    assert ("Rossi" in text) is replies_shown
    imported = page.model_copy(update={"turns": [page.turns[0], page.turns[1].model_copy(update={"imported": True})]})
    assert "Rossi" in assemble_context(base(recalled=[imported], input_text=ask), COUNTER).layers["recalled"].text, \
        "an imported reply is someone's words: recalled like the user's"


def test_recalled_pages_read_oldest_first_unless_the_context_holds_an_order():
    def page(page_id, turn, score, words):
        return RecalledPage(page_id=page_id, score=score, turns=[
            TurnView(id=turn * 2, role="user", content=f"The caterer and the {words} came up.", tokens=10, turn=turn,
                     created_at=NOW + turn)])

    late, early, middle = page(9, 30, 5.0, "budget"), page(4, 8, 3.0, "budget venue"), page(6, 15, 1.0, "menu")
    text = assemble_context(base(input_text="the caterer budget?", recalled=[late, early, middle]),
                            COUNTER).layers["recalled"].text
    assert text.index("the budget venue") < text.index("the menu") < text.index("the budget came")  # read in time
    held = assemble_context(base(input_text="the caterer budget?", recalled=[late, early, middle], recalled_first=[9, 6]),
                            COUNTER).layers["recalled"]
    assert held.text.index("the budget came") < held.text.index("the menu") < held.text.index("the budget venue")
    assert [i.page_id for i in held.items if i.type == "page"] == [9, 6, 4]


def test_superseded_values_in_raw_turns_are_marked_in_layered_mode_only():
    history = [item(4, "constraint", "The budget must stay under 3000 dollars.", status="superseded", source=2)]
    current = [item(5, "constraint", "budget: 5000 dollars", supersedes=4)]
    raw = [TurnView(id=2, role="user", content="The budget must stay under 3000 dollars.", tokens=10, turn=1,
                    created_at=NOW),
           TurnView(id=3, role="assistant", content="OK.", tokens=2, turn=1, created_at=NOW)]
    layered = assemble_context(base(items=current, history=history, recent=raw), COUNTER)
    assert layered.messages[1]["content"].endswith("(later changed to: budget: 5000 dollars)")
    sliding = assemble_context(base(items=current, history=history, all_turns=raw, mode="sliding"), COUNTER)
    assert sliding.messages[1]["content"] == "The budget must stay under 3000 dollars."


@pytest.mark.parametrize("mode, present, absent", [
    ("layered", {"anchors", "state", "recent", "recalled"}, set()),
    ("sliding", {"recent"}, {"anchors", "state", "summary", "recalled"}),
    ("summary", {"recent"}, {"anchors", "state", "recalled"}),
    ("retrieval", {"recalled"}, {"anchors", "state", "summary", "recent"}),
    ("full", {"recent"}, {"anchors", "state", "summary", "recalled"}),
])
def test_each_mode_fills_its_own_layers(mode, present, absent):
    result = assemble_context(base(mode=mode, recent=turns(3), all_turns=turns(3)), COUNTER)
    filled = {name for name, layer in result.layers.items() if layer.tokens}
    assert present <= filled
    assert not (absent & filled)
    assert {"system", "input"} <= filled


def test_full_mode_sends_everything_even_past_the_budget():
    result = assemble_context(base(mode="full", all_turns=turns(120), n_ctx=1024), COUNTER)
    assert len(result.messages) == 2 + 240
    assert result.total_tokens > result.budget


def test_same_inputs_same_prompt():
    inp = base(recent=turns(4))
    assert assemble_context(inp, COUNTER) == assemble_context(inp, COUNTER)


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="unknown context mode"):
        assemble_context(base(mode="magic"), COUNTER)


def test_a_page_the_context_holds_keeps_the_lines_it_was_warmed_with():
    turns = [TurnView(id=10, role="user", content="The caterer sent the menu.", tokens=8, turn=4, created_at=NOW),
             TurnView(id=11, role="assistant", content="Nice menu.", tokens=3, turn=4, created_at=NOW),
             TurnView(id=12, role="user", content="The venue wants a deposit.", tokens=8, turn=5, created_at=NOW),
             TurnView(id=13, role="assistant", content="Pay the deposit.", tokens=3, turn=5, created_at=NOW)]
    page = RecalledPage(page_id=3, score=2.0, turns=turns)
    typed = assemble_context(base(input_text="what did the caterer say", recalled=[page]), COUNTER)
    sent = dict(input_text="what did the caterer say about the venue deposit?", recalled=[page])
    fresh = assemble_context(base(**sent), COUNTER).layers["recalled"].text
    held = assemble_context(base(**sent, recalled_first=[3], recalled_words=sorted({"caterer", "say"})),
                            COUNTER).layers["recalled"].text
    warmed = typed.layers["recalled"].text

    def page_lines(text):
        return [line for line in text.splitlines() if line.startswith("[turn")]

    assert "deposit" in fresh, "the whole message matches more lines of the page"
    assert "deposit" not in warmed, "the whole message matches more lines of the page"
    assert page_lines(held)[:len(page_lines(warmed))] == page_lines(warmed), "the warmed lines stay a prefix"
    assert set(page_lines(held)) == set(page_lines(fresh)), "and the lines only the whole message matches follow"


PLAN_ZH = ("好的，计划如下：\n\n1. **路线选择**：\n   - 从昆明出发\n   - 到大理古城\n\n2. **时间安排**：\n"
           "   - 第一天：大理古城\n   - 第二天：洱海骑行\n   - 第三天：喜洲古镇\n\n希望这些信息对你有帮助！")
PLAN_EN = ("Great question! Here is a plan for your family trip to Lisbon with the kids.\n\n"
           "1. **Day one**: Belém, the tower and the monastery, then pastéis de nata at the old bakery.\n"
           "2. **Day two**: the Oceanário, which the kids will love, and a walk along the river.\n"
           "3. **Day three**: a day trip to Sintra by train from Rossio.\n\nEnjoy your trip!")


def dialogue(reply: str) -> list[TurnView]:
    ask = "帮我安排一下行程"
    return [TurnView(id=1, role="user", content=ask, tokens=COUNTER.count(ask), turn=1, created_at=NOW),
            TurnView(id=2, role="assistant", content=reply, tokens=COUNTER.count(reply), turn=1, created_at=NOW + 1)]


@pytest.mark.parametrize("reply, opening, left", [
    (PLAN_ZH, "好的，计划如下：\n1. **路线选择**：\n   - 从昆明出发\n   - 到大理古城", "洱海骑行"),
    (PLAN_EN, "Great question! Here is a plan for your family trip to Lisbon with the kids.\n1. **Day one**: Belém, "
              "the tower and the monastery, then pastéis de nata at the old bakery.", "Sintra"),
])
def test_an_earlier_reply_is_shown_to_the_model_by_its_opening_lines(reply, opening, left):
    # bench health replays (round nine): shown its whole plans, the 0.5B answered by copying one.
    shown = assemble_context(base(recent=dialogue(reply)), COUNTER).messages[2]
    assert shown == {"role": "assistant", "content": opening}
    assert left not in shown["content"]


@pytest.mark.parametrize("mode", ["full", "sliding"])
def test_the_baselines_and_reply_history_full_show_replies_whole(mode):
    assert assemble_context(base(recent=dialogue(PLAN_EN), all_turns=dialogue(PLAN_EN), mode=mode),
                            COUNTER).messages[2]["content"] == PLAN_EN
    assert assemble_context(base(recent=dialogue(PLAN_EN), brief_replies=False), COUNTER).messages[2]["content"] == PLAN_EN


def test_a_short_reply_is_shown_whole_and_the_brief_form_is_the_same_every_turn():
    from desktop_app.memory.prompt.render import brief_reply

    assert brief_reply("Sure — 5 people now, so book the larger apartment.") == \
        "Sure — 5 people now, so book the larger apartment."
    # The same reply is shown the same way at every later turn: the evaluated prefix stays reusable.
    first = assemble_context(base(recent=dialogue(PLAN_ZH)), COUNTER).messages[:3]
    later = assemble_context(base(recent=[*dialogue(PLAN_ZH), *turns(1, start=2)]), COUNTER).messages[:3]
    assert first == later
