"""Exports and imports that lose nothing and carry no escapes: a session made only with memory
commands round-trips through its own JSON export; a Markdown export file holds no terminal
escapes; a long import says how far it is; a rejected option is never offered back."""

from __future__ import annotations

import json

ESCAPES = "\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J"


def test_a_memory_only_session_round_trips_through_its_export(cli, tmp_path):
    assert cli("memory", "fact", "budget: 8000 dollars", "--session", "plans").code == 0
    assert cli("memory", "directive", "always answer in one short paragraph", "--session", "plans").code == 0
    assert cli("memory", "fact", "过敏: 我对花生过敏", "--session", "plans").code == 0
    exported = cli("export", "--format", "json", "--session", "plans")
    assert exported.code == 0
    data = json.loads(exported.out)
    assert data["messages"] == []
    assert len(data["memory"]) == 3
    path = tmp_path / "plans.json"
    path.write_text(exported.out, encoding="utf-8")

    restored = cli("import", path, "--db", tmp_path / "other.db")
    assert restored.code == 0, restored.err
    assert "restored the memory of session 'plans' (3 items" in restored.out
    listed = cli("memory", "list", "--json", "--session", "plans", "--db", tmp_path / "other.db")
    values = sorted(i["value"] for i in json.loads(listed.out)["data"]["items"])
    assert values == sorted(i["value"] for i in data["memory"])

    again = cli("import", path, "--db", tmp_path / "other.db")  # the same file again adds nothing
    assert again.code == 0
    listed = cli("memory", "list", "--json", "--session", "plans", "--db", tmp_path / "other.db")
    assert len(json.loads(listed.out)["data"]["items"]) == 3
    sessions = cli("sessions", "--json", "--db", tmp_path / "other.db")
    assert [s["name"] for s in json.loads(sessions.out)].count("plans") == 1


def test_an_export_with_neither_turns_nor_memory_still_says_so(cli, tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": "paperclip-session", "version": 1, "session": {"name": "x"},
                                "messages": [], "memory": []}), encoding="utf-8")
    ran = cli("import", path)
    assert ran.one_line_error
    assert "holds no turns and no memory" in ran.err


def test_a_markdown_export_file_carries_no_terminal_escapes(cli, tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": f"hello {ESCAPES} world"}) + "\n", encoding="utf-8")
    assert cli("import", transcript, "--session", "s").code == 0
    out = tmp_path / "s.md"
    assert cli("export", "--session", "s", "--out", out).code == 0
    text = out.read_text(encoding="utf-8")
    assert "hello" in text
    assert "world" in text
    assert "\x1b" not in text
    assert "\x07" not in text
    as_json = cli("export", "--session", "s", "--format", "json")  # JSON keeps the text, escaped
    assert ESCAPES in json.loads(as_json.out)["messages"][0]["content"]


def test_a_long_import_reports_progress_on_a_terminal(tmp_path, isolated_home):
    import os
    import pty
    import subprocess
    import sys

    transcript = tmp_path / "long.jsonl"
    lines = [json.dumps({"role": "user" if i % 2 == 0 else "assistant", "content": f"turn number {i}"})
             for i in range(400)]
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "desktop_app", "import", str(transcript), "--session", "long",
                                "--memory-model", "off"], stdout=subprocess.PIPE, stderr=follower,
                               env={**os.environ, "PAPERCLIP_MODELS_DIR": str(tmp_path / "none"),
                                    "PAPERCLIP_EMBED_MODEL": "off"})
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    process.communicate(timeout=120)
    os.close(leader)
    assert process.returncode == 0
    assert b"import: 400/400 turns" in seen


def test_a_script_gets_no_progress_lines(cli, tmp_path):
    transcript = tmp_path / "long.jsonl"
    transcript.write_text("\n".join(json.dumps({"role": "user", "content": f"turn {i}"}) for i in range(300)) + "\n",
                          encoding="utf-8")
    ran = cli("import", transcript, "--session", "long", "--memory-model", "off")
    assert ran.code == 0
    assert "import:" not in ran.err


def test_a_rejected_option_is_never_suggested_back(cli):
    ran = cli("sessions", "--yes")
    assert ran.one_line_error
    assert "did you mean '--yes'" not in ran.err
    assert "--yes does not apply here" in ran.err
    assert "memory forget" in ran.err
    typo = cli("sessions", "--jsno")
    assert typo.one_line_error
    assert "did you mean '--json'" in typo.err
