"""``paperclip docs`` on files that were not written to be nice: names and text that carry terminal
escapes, bidi overrides and zero-width characters, names that are not UTF-8, and removal that must
leave no byte of the text behind (and asks first, as ``memory forget`` does)."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from desktop_app.cli import main

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # a clipboard write
CSI = "\x1b[2J\x1b[31m"  # clear the screen, then red


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([*argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _has_escape(text: str) -> bool:
    return any(ch in text for ch in ("\x1b", "\x07", "\x9b", "\x9d"))


def test_names_and_text_reach_the_terminal_without_escapes_and_with_invisibles_shown(tmp_path, capsys):
    db = str(tmp_path / "x.db")
    name = f"evil{OSC52}{CSI}\u202egnp.md"
    path = tmp_path / name
    path.write_text(f"# Budget{CSI} plan\n\nThe fee is 4,200 euros.{OSC52} Pay to ac\u200bcount "
                    f"\u202eLIVE\u202c by Friday, as agreed in the meeting last week with the whole team.\n",
                    encoding="utf-8")
    outputs = {
        "add": _run(capsys, "docs", "add", str(path), "--no-vectors", "--db", db),
        "list": _run(capsys, "docs", "list", "--db", db),
        "show": _run(capsys, "docs", "show", "evil", "--db", db),
        "show missing": _run(capsys, "docs", "show", "nothing", "--db", db),
    }
    for what, (_code, out, err) in outputs.items():
        assert not _has_escape(out), (what, out, err)
        assert not _has_escape(err), (what, out, err)
        assert "\u202e" not in out + err, (what, out, err)
        assert "\u200b" not in out + err, (what, out, err)
    assert outputs["add"][0] == 0
    assert "<U+202E>gnp.md: added as evil" in outputs["add"][1]
    shown = outputs["show"][1]
    assert "§ Budget plan" in shown
    assert "ac<U+200B>count <U+202E>LIVE<U+202C>" in shown
    assert "<U+202E>gnp" in outputs["list"][1]
    # The database keeps the verbatim text; --json carries it, escaped by JSON itself.
    code, out, _ = _run(capsys, "docs", "show", "evil", "--json", "--db", db)
    sections = json.loads(out)["sections"]
    assert OSC52 in sections[0]["text"]
    assert "\u200b" in sections[0]["text"]
    assert "\x1b" not in out


def test_a_name_that_is_not_utf8_does_not_stop_the_batch(tmp_path, capsys):
    folder = tmp_path / "archive"
    folder.mkdir()
    for n in range(5):
        (folder / f"memo{n}.txt").write_text(f"Memo {n}: the boat leaves at nine.\n", encoding="utf-8")
    try:
        with open(os.path.join(os.fsencode(folder), b"r\xe9sum\xe9.txt"), "wb") as handle:
            handle.write(b"Named in Latin-1.\n")
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    code, out, err = _run(capsys, "docs", "add", str(folder), "--no-vectors", "--db", str(tmp_path / "x.db"))
    assert code == 1
    assert "Traceback" not in err
    assert "unexpected error" not in err
    assert out.count(": added as memo") == 5
    assert "r\\xe9sum\\xe9.txt: skipped — its name is not valid UTF-8 (rename the file to add it)" in err
    assert "5 indexed, 1 failed" in err


def test_remove_asks_first_unless_yes(tmp_path, capsys):
    db = str(tmp_path / "x.db")
    notes = tmp_path / "notes.md"
    notes.write_text("The key is under the mat.\n", encoding="utf-8")
    assert _run(capsys, "docs", "add", str(notes), "--no-vectors", "--db", db)[0] == 0
    code, out, err = _run(capsys, "docs", "remove", "notes", "--db", db)  # stdin is not a terminal here
    assert code == 1
    assert err.strip() == "paperclip: nothing removed: add --yes to remove without asking"
    assert json.loads(_run(capsys, "docs", "list", "--json", "--db", db)[1])[0]["name"] == "notes"
    code, out, _ = _run(capsys, "docs", "remove", "notes", "--yes", "--json", "--db", db)
    assert code == 0
    assert json.loads(out)["removed"]["name"] == "notes"
    assert json.loads(_run(capsys, "docs", "list", "--json", "--db", db)[1]) == []


def _hits(db, needles: list[str]) -> dict[str, int]:
    """Occurrences of each needle's bytes in the database file, its WAL and shared memory."""
    data = b"".join((db.with_name(db.name + suffix).read_bytes() if db.with_name(db.name + suffix).exists() else b"")
                    for suffix in ("", "-wal", "-shm"))
    return {needle: data.count(needle.encode()) for needle in needles}


@pytest.mark.parametrize("secret", ["ZANZIBARQUOKKA4417", "紫檀七七四一号"])
def test_a_removed_document_leaves_no_byte_of_its_words(tmp_path, capsys, secret):
    db = tmp_path / "x.db"
    gone = tmp_path / "gone.md"
    gone.write_text(f"# Vault\n\nThe vault code is {secret}, said twice: {secret}.\n\n" + "Filler line.\n" * 200,
                    encoding="utf-8")
    kept = tmp_path / "kept.md"
    kept.write_text("# Other\n\nThe harbour opens at KEPTWORD9931 sharp.\n", encoding="utf-8")
    assert _run(capsys, "docs", "add", str(gone), str(kept), "--no-vectors", "--db", str(db))[0] == 0
    assert _hits(db, [secret])[secret] > 0
    code, _, _ = _run(capsys, "docs", "remove", "gone", "--yes", "--db", str(db))
    assert code == 0
    with sqlite3.connect(db) as conn:  # what another program would see after a checkpoint
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    hits = _hits(db, [secret, secret.lower(), "KEPTWORD9931"])
    assert hits[secret] == 0, hits
    assert hits[secret.lower()] == 0, hits
    assert hits["KEPTWORD9931"] > 0, "the other document is still there (the scan sees stored text)"
    code, out, _ = _run(capsys, "docs", "show", "kept", "--db", str(db))
    assert code == 0
    assert "KEPTWORD9931" in out
