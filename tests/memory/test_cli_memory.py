"""Headless contract: `paperclip context MESSAGE --json`, `paperclip memory …`, slash commands in `ask`."""

import json

import pytest

from desktop_app.cli import main

LAYERS = ["system", "anchors", "state", "summary", "recent", "changes", "recalled", "input"]


def run_json(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "cli.db"
    transcript = tmp_path / "t.jsonl"
    lines = [("user", "Help me plan a product launch event."), ("assistant", "Sure."),
             ("user", "The budget must stay under 5000 dollars."), ("assistant", "Noted."),
             ("user", "Change the budget to 8000 dollars."), ("assistant", "Updated.")]
    transcript.write_text("\n".join(json.dumps({"role": r, "content": c}) for r, c in lines) + "\n")
    assert main(["import", str(transcript), "--db", str(path), "--session", "s"]) == 0
    return path


def test_context_json_follows_the_design_contract_and_stores_nothing(db, capsys):
    data = run_json(capsys, "context", "Remind me of the budget.", "--json", "--db", str(db), "--session", "s",
                    "--ctx", "2048")
    assert list(data["layers"]) == LAYERS
    assert all(set(layer) >= {"tokens", "text", "items"} for layer in data["layers"].values())
    assert data["total_tokens"] == sum(layer["tokens"] for layer in data["layers"].values())
    assert data["budget"] == 1536
    assert data["mode"] == "layered"
    assert data["messages"][0]["role"] == "system"
    assert data["messages"][-1]["content"].endswith("Remind me of the budget.")
    # Memory written since the head was folded (at the first message) reaches the prompt before the input.
    changes = data["layers"]["changes"]["text"]
    assert "8000" in changes
    assert "(was " in changes
    assert "5000" in changes
    assert data["messages"][-1]["content"].index("8000") < data["messages"][-1]["content"].index("Remind me")
    after = run_json(capsys, "sessions", "--db", str(db), "--json")
    assert len(after[0]["messages"]) == 6  # the previewed message was rolled back


def test_context_previews_extraction_of_the_message_itself(db, capsys):
    data = run_json(capsys, "context", "Never invite competitors.", "--json", "--db", str(db), "--session", "s")
    # Stated by the input itself: not repeated before it (the next turn lists it), but recorded.
    assert "competitors" not in data["layers"]["changes"]["text"]
    assert data["memory_changes"][0]["action"] == "added"
    listed = run_json(capsys, "memory", "list", "--json", "--db", str(db), "--session", "s")
    assert all("competitors" not in i["value"] for i in listed["data"]["items"])


@pytest.mark.parametrize("mode", ["sliding", "summary", "retrieval", "full"])
def test_context_mode_flag_selects_the_strategy(db, capsys, mode):
    data = run_json(capsys, "context", "hello", "--json", "--mode", mode, "--db", str(db), "--session", "s")
    assert data["mode"] == mode
    assert data["layers"]["anchors"]["tokens"] == 0


def test_memory_list_show_forget_pin_correct(db, capsys):
    listed = run_json(capsys, "memory", "list", "--json", "--db", str(db), "--session", "s")
    budget = next(i for i in listed["data"]["items"] if i["kind"] == "constraint")
    shown = run_json(capsys, "memory", "show", str(budget["id"]), "--json", "--db", str(db), "--session", "s")
    assert [c["status"] for c in shown["data"]["chain"]] == ["superseded", "active"]
    assert main(["memory", "pin", str(budget["id"]), "--db", str(db), "--session", "s"]) == 0
    assert main(["memory", "correct", str(budget["id"]), "9000", "--db", str(db), "--session", "s"]) == 0
    assert "→" in capsys.readouterr().out
    everything = run_json(capsys, "memory", "list", "--all", "--json", "--db", str(db), "--session", "s")
    assert [i["status"] for i in everything if i["kind"] == "constraint"] == ["superseded", "superseded", "active"]
    assert main(["memory", "revoke", "budget", "--db", str(db), "--session", "s"]) == 0
    capsys.readouterr()
    assert main(["memory", "show", "999", "--db", str(db), "--session", "s"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("paperclip: no memory item #999")
    assert "\n" not in err


def test_ask_runs_slash_commands_without_loading_the_model(db, capsys, monkeypatch):
    import desktop_app.commands.common as common

    monkeypatch.setattr(common, "load_engine", lambda *a, **k: pytest.fail("the model must not load"))
    assert main(["ask", "/memory", "--db", str(db), "--session", "s"]) == 0
    out = capsys.readouterr().out
    assert "Constraints:" in out
    assert "8000" in out
    assert main(["ask", "/remember The launch venue is Hall 3", "--db", str(db), "--session", "s"]) == 0
