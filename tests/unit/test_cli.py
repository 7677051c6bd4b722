"""The headless contract: ask, import, sessions, doctor — and one-line errors."""

import json
import subprocess
import sys

import pytest

from desktop_app.cli import main


def paperclip(*args, stdin: bytes | None = None, env_home=None):
    """Run the real entry point in a subprocess, as a script would."""
    return subprocess.run([sys.executable, "-m", "desktop_app", *args], input=stdin,
                          capture_output=True, timeout=300)


@pytest.mark.model
def test_ask_streams_a_reply_from_the_default_model_and_stores_the_turn(tmp_path, default_model):
    db = tmp_path / "x.db"
    result = paperclip("ask", "hello", "--db", str(db), "--max-tokens", "24")
    assert result.returncode == 0, result.stderr.decode()
    reply = result.stdout.decode().strip()
    assert reply
    listed = paperclip("sessions", "--db", str(db), "--json")
    sessions = json.loads(listed.stdout)
    assert [s["name"] for s in sessions] == ["default"]
    roles = [(m["role"], m["content"].strip()) for m in sessions[0]["messages"]]
    assert roles == [("user", "hello"), ("assistant", reply)]


def test_import_appends_turns_without_generating(tmp_path, capsys):
    db = tmp_path / "x.db"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        '{"role": "user", "content": "我的预算是 5000 元", "id": "D1:1", "time": "2023-05-08T13:56:00"}\n'
        '\n'
        '{"role": "assistant", "content": "记住了", "id": "D1:2", "time": 1683554200}\n', encoding="utf-8")
    assert main(["import", str(transcript), "--db", str(db), "--session", "trip"]) == 0
    capsys.readouterr()
    assert main(["sessions", "--db", str(db), "--json"]) == 0
    sessions = json.loads(capsys.readouterr().out)
    messages = sessions[0]["messages"]
    assert sessions[0]["name"] == "trip"
    assert [(m["ext_id"], m["role"]) for m in messages] == [("D1:1", "user"), ("D1:2", "assistant")]
    assert messages[0]["created_at"].startswith("2023-05-08")


@pytest.mark.parametrize("payload, reason", [
    (b"\xff\xfe\x00\x01binary\x00\x00", "binary"),
    (b'{"role": "user", "content": "caf\xe9"}\n', "not valid UTF-8"),
    (b'{"role": "user", "content": "ok"}\n{"role": "robot", "content": "x"}\n', ":2: 'role'"),
    (b'{"role": "user", "content": "ok"}\nnot json\n', ":2: not valid JSON"),
])
def test_bad_transcripts_are_refused_whole_with_one_line(tmp_path, capsys, payload, reason):
    db = tmp_path / "x.db"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(payload)
    assert main(["import", str(bad), "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert reason in err
    assert "\n" not in err
    assert "Traceback" not in err
    main(["sessions", "--db", str(db), "--json"])
    assert all(s["message_count"] == 0 for s in json.loads(capsys.readouterr().out))


def test_ask_with_a_missing_model_fails_in_one_line_and_keeps_nothing_broken(tmp_path):
    result = paperclip("ask", "hi", "--db", str(tmp_path / "x.db"), "--model", str(tmp_path / "missing.gguf"))
    err = result.stderr.decode().strip().splitlines()
    assert result.returncode == 1
    assert err[-1].startswith("paperclip: model file not found")
    assert b"Traceback" not in result.stderr


def test_ask_rejects_invalid_utf8_on_stdin(tmp_path):
    result = paperclip("ask", "-", "--db", str(tmp_path / "x.db"), stdin=b"caf\xe9 \xff")
    assert result.returncode == 2
    assert b"not valid UTF-8" in result.stderr
    assert b"Traceback" not in result.stderr


def test_invalid_config_value_is_a_one_line_error(tmp_path, isolated_home, capsys):
    config = isolated_home / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("ctx = -5\n")
    assert main(["sessions", "--db", str(tmp_path / "x.db")]) == 2
    assert "invalid setting ctx" in capsys.readouterr().err


def test_doctor_reports_sqlite_vec_and_the_backend(tmp_path, capsys):
    code = main(["doctor", "--json", "--no-load", "--db", str(tmp_path / "x.db")])
    report = json.loads(capsys.readouterr().out)
    checks = {c["check"]: c for c in report["checks"]}
    assert checks["sqlite-vec"]["ok"]
    assert "sqlean" in checks["sqlite"]["detail"] or "stdlib" in checks["sqlite"]["detail"]
    assert code == (0 if report["ok"] else 1)


def test_doctor_fails_when_the_model_is_missing(tmp_path, capsys):
    code = main(["doctor", "--no-load", "--model", str(tmp_path / "none.gguf"), "--db", str(tmp_path / "x.db")])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL" in out
    assert "model file not found" in out


@pytest.mark.model
def test_the_bilingual_default_answers_chinese_in_chinese(tmp_path):
    """The issue's acceptance line: `paperclip ask "你好，用一句话介绍你自己" --db x.db` answers in
    Chinese, on the default model (Qwen2.5-Coder-0.5B), through the real entry point."""
    from desktop_app.bench.answers import language_of
    from desktop_app.manifest import catalog, install_plan

    default = catalog()[install_plan()["chat"]]
    if not default.installed:
        pytest.skip(f"the default model is not installed at {default.path}: run `make models`")
    result = paperclip("ask", "你好，用一句话介绍你自己", "--db", str(tmp_path / "x.db"), "--max-tokens", "48")
    assert result.returncode == 0, result.stderr.decode()
    assert default.file.removesuffix(".gguf") in result.stderr.decode()  # it really ran the default
    reply = result.stdout.decode().strip()
    assert reply, reply
    assert language_of(reply) == "zh", reply


@pytest.mark.model
def test_the_default_fills_a_json_schema(tmp_path):
    from desktop_app.engine.llama import EngineSettings, LlamaEngine
    from desktop_app.manifest import catalog, install_plan

    default = catalog()[install_plan()["chat"]]
    if not default.installed:
        pytest.skip(f"the default model is not installed at {default.path}: run `make models`")
    engine = LlamaEngine(default.path, EngineSettings(n_ctx=1024, seed=7))
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "budget": {"type": "integer"}},
              "required": ["name", "budget"]}
    value = engine.complete_json([{"role": "user", "content": "提取姓名和预算：我叫小王，预算是8000元。"}], schema,
                                 max_tokens=48)
    assert value == {"name": "小王", "budget": 8000}


@pytest.mark.parametrize("argv, expected", [
    (["--modle", "x", "sessions"], "unknown option --modle; did you mean '--mode'?"),
    (["sesions"], "unknown command 'sesions'; did you mean 'sessions'?"),
    (["sessions", "--jsn"], "unknown option --jsn; did you mean '--json'?"),
    (["--mode", "fulll", "sessions"], "--mode: 'fulll' is not one of layered, sliding, summary, retrieval, full; "
                                      "did you mean 'full'?"),
    (["models", "lst"], "unknown action 'lst'; did you mean 'list'?"),
])
def test_argument_errors_are_one_line_with_a_suggestion(argv, expected, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.startswith(f"paperclip: {expected}")
    assert err.count("\n") == 1
    assert "usage:" not in err


def test_help_still_shows_the_usage(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    assert "usage: paperclip" in capsys.readouterr().out


def test_the_chat_with_piped_output_prints_a_one_line_hint(monkeypatch, capsys):
    import desktop_app.ui.app as ui_app

    monkeypatch.setattr(ui_app, "run_app", lambda settings, session_name=None: 0)
    assert main([]) == 0  # pytest's stdout is not a terminal
    err = capsys.readouterr().err
    assert err.startswith("paperclip: stdout is not a terminal")
    assert err.count("\n") == 1


@pytest.mark.model
def test_ask_json_lists_the_memory_in_use_beside_the_guards_verdict(tmp_path, default_model):
    db = tmp_path / "x.db"
    assert paperclip("memory", "fact", "budget: 8000 dollars", "--db", str(db)).returncode == 0
    result = paperclip("ask", "What is my budget?", "--db", str(db), "--json", "--max-tokens", "40")
    assert result.returncode == 0, result.stderr.decode()
    data = json.loads(result.stdout)
    in_use = data["memory_in_use"]
    assert [u["id"] for u in in_use] == [1]
    assert in_use[0]["used"] == ("8000" in data["reply"].replace(",", "") or "8k" in data["reply"].lower())
    assert data["guard"] is not None
    assert "ok" in data["guard"]


def test_save_lang_keeps_the_language_for_later_headless_runs(tmp_path, capsys):
    import tomllib

    from desktop_app import paths

    db = tmp_path / "x.db"
    assert main(["sessions", "--lang", "zh", "--save-lang", "--db", str(db)]) == 0
    assert "saved" in capsys.readouterr().err
    assert tomllib.loads(paths.config_file().read_text(encoding="utf-8"))["lang"] == "zh"
    from desktop_app.config import load_settings

    assert load_settings({}).lang == "zh"
