"""Escape sequences in content and titles never reach the terminal as plain text."""

from __future__ import annotations

import json

from desktop_app.memory.core.safe_text import plain, plain_line
from tests.reliability.conftest import raw_rows

CSI = "\x1b[31m\x1b[2J"
OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
EVIL = f"I live in Par{CSI}is{OSC52} now"


def _has_escape(text: str) -> bool:
    return any(ch in text for ch in ("\x1b", "\x07", "\x9b", "\x9d"))


def test_plain_removes_sequences_and_controls_but_keeps_layout():
    assert plain(f"a{CSI}b{OSC52}c\td\ne\x00\x7f\x9b1mf") == "abc\td\nef"
    assert plain("\x1b]52;c;AAAA\x1b\\tail") == "tail"
    assert plain_line("x\ny\tz") == "x y z"
    assert plain("中文 ok") == "中文 ok"


def test_plain_text_outputs_carry_no_escapes(cli, tmp_path):
    db = tmp_path / "p.db"
    title = f"trip{OSC52}{CSI}"
    lines = [{"role": "user", "content": EVIL, "id": "u1"},
             {"role": "assistant", "content": f"Noted{CSI}, Paris.{OSC52}", "id": "a1"}]
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    ran = cli("import", transcript, "--db", db, "--session", title)
    assert ran.code == 0, ran.err

    # The messages table keeps the verbatim text.
    stored = [r[0] for r in raw_rows(db, "SELECT content FROM messages ORDER BY id")]
    assert stored == [EVIL, lines[1]["content"]]
    # The extractor's memory value does not.
    values = [r[0] for r in raw_rows(db, "SELECT value FROM memory_items")]
    assert values, values
    assert not any(_has_escape(v) for v in values), values

    outputs = {
        "export": cli("export", "--db", db, "--session", title),
        "sessions": cli("sessions", "--db", db),
        "memory list": cli("memory", "list", "--db", db, "--session", title),
        "memory list --all": cli("memory", "list", "--all", "--db", db, "--session", title),
        "recall": cli("recall", "Paris", "--db", db, "--session", title, "--signals", "bm25"),
    }
    for name, ran in outputs.items():
        assert ran.code == 0, (name, ran.err)
        assert "Par" in ran.out or "trip" in ran.out, (name, ran.out)
        assert not _has_escape(ran.out), (name, repr(ran.out))
        assert not _has_escape(ran.err), (name, repr(ran.err))

    # --json stays escaped JSON, with the verbatim text inside.
    ran = cli("sessions", "--json", "--db", db)
    assert "\\u001b" in ran.out
    assert "\x1b" not in ran.out
    assert json.loads(ran.out)[0]["messages"][0]["content"] == EVIL
