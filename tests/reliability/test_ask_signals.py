"""SIGTERM or SIGHUP while `ask` streams stops the reply like Esc: what was printed is stored.
Even `kill -9` keeps the reply as it was saved (from its first piece on, at least every second)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from desktop_app import paths
from desktop_app.memory.core.safe_text import plain
from tests.reliability.conftest import raw_rows

TINY = paths.REPO_ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"


def _ask(db, isolated_home) -> subprocess.Popen:
    (isolated_home.parent / "no-models").mkdir(exist_ok=True)
    env = {**os.environ, "PAPERCLIP_MODELS_DIR": str(isolated_home.parent / "no-models"), "PAPERCLIP_EMBED_MODEL": "off"}
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "ask", "Write a long story about a lighthouse keeper.", "--db", str(db),
         "--session", "s", "--model", str(TINY), "--ctx", "1024", "--max-tokens", "2000", "--temperature", "0.8",
         "--no-wait"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


@pytest.mark.model
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_during_the_reply_keeps_what_was_printed(tmp_path, isolated_home, signum):
    if not TINY.exists():
        pytest.skip(f"tiny model missing at {TINY}: run `make models`")
    db = tmp_path / "p.db"
    process = _ask(db, isolated_home)
    first = process.stdout.read(1)  # the reply has started streaming
    assert first, process.stderr.read().decode()
    process.send_signal(signum)
    rest, err = process.communicate(timeout=120)
    printed = (first + rest).decode("utf-8", "replace").rstrip("\n")
    assert process.returncode == 128 + signum, err.decode()
    assert b"Traceback" not in err
    rows = raw_rows(db, "SELECT content, stopped FROM messages WHERE role = 'assistant'")
    assert len(rows) == 1, rows
    content, stopped = rows[0]
    assert stopped == 1
    assert printed, (printed, content)
    assert plain(content).startswith(printed), (printed, content)
    assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]


@pytest.mark.model
def test_kill_9_during_the_reply_keeps_what_was_saved(tmp_path, isolated_home):
    if not TINY.exists():
        pytest.skip(f"tiny model missing at {TINY}: run `make models`")
    db = tmp_path / "p.db"
    process = _ask(db, isolated_home)
    seen = process.stdout.read(64)  # the reply has started: its first piece was saved before it was printed
    assert seen, process.stderr.read().decode()
    process.send_signal(signal.SIGKILL)
    rest, _ = process.communicate(timeout=60)
    printed = (seen + rest).decode("utf-8", "replace")
    rows = raw_rows(db, "SELECT content, stopped FROM messages WHERE role = 'assistant'")
    assert len(rows) == 1, rows
    content, stopped = rows[0]
    assert stopped == 1
    assert content
    # What was saved is what was printed (a kill between saving a piece and printing it leaves that piece extra).
    saved = plain(content)
    assert printed.startswith(saved) or saved.startswith(printed), (printed, content)
    assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]
