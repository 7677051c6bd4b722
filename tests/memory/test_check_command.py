"""`paperclip check REPLY`: the reply guard's headless contract (no model)."""

import json

import pytest

from desktop_app.cli import main


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "check.db"
    transcript = tmp_path / "t.jsonl"
    lines = [("user", "Help me plan a product launch event."), ("assistant", "Sure."),
             ("user", "The budget must stay under 5000 dollars."), ("assistant", "Noted."),
             ("user", "Change the budget to 8000 dollars."), ("assistant", "Updated."),
             ("user", "以后都用中文回答。"), ("assistant", "好的。")]
    transcript.write_text("\n".join(json.dumps({"role": r, "content": c}, ensure_ascii=False) for r, c in lines) + "\n")
    assert main(["import", str(transcript), "--db", str(path), "--session", "s"]) == 0
    return path


def check(capsys, db, *argv):
    code = main(["check", *argv, "--json", "--db", str(db), "--session", "s"])
    return code, json.loads(capsys.readouterr().out)


def test_a_reply_that_agrees_with_memory_is_ok(db, capsys):
    code, data = check(capsys, db, "预算是8000美元，场地和餐饮都在里面。")
    assert code == 0
    assert data == {"ok": True, "findings": []}


def test_an_old_budget_stated_as_current_names_the_superseded_item(db, capsys):
    code, data = check(capsys, db, "按5000美元的预算，场地选小一点的。")
    assert code == 1
    assert data["ok"] is False
    assert [f["kind"] for f in data["findings"]] == ["superseded"]
    assert isinstance(data["findings"][0]["item"], int)
    assert set(data["findings"][0]) == {"kind", "item", "detail"}


def test_the_language_rule_and_a_cut_off_reply(db, capsys):
    code, data = check(capsys, db, "The venue should be booked by Friday, then catering.", "--cut-off")
    assert code == 1
    assert [f["kind"] for f in data["findings"]] == ["directive", "cut_off"]
    assert data["findings"][1]["item"] is None


def test_an_unknown_session_is_one_clear_line(db, capsys):
    code = main(["check", "hello", "--db", str(db), "--session", "nope"])
    assert code != 0
    assert "nope" in capsys.readouterr().err
