"""SIGTERM or SIGHUP while `ask` streams stops the reply like Esc: what was printed is stored."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from desktop_app import paths
from desktop_app.memory.safe_text import plain
from tests.reliability.conftest import raw_rows

TINY = paths.REPO_ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.mark.model
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_during_the_reply_keeps_what_was_printed(tmp_path, isolated_home, signum):
    if not TINY.exists():
        pytest.skip(f"tiny model missing at {TINY}: run `make models`")
    db = tmp_path / "p.db"
    (isolated_home.parent / "no-models").mkdir(exist_ok=True)
    env = {**os.environ, "PAPERCLIP_MODELS_DIR": str(isolated_home.parent / "no-models")}
    process = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "ask", "Write a long story about a lighthouse keeper.", "--db", str(db),
         "--session", "s", "--model", str(TINY), "--ctx", "1024", "--max-tokens", "2000", "--temperature", "0.8",
         "--no-wait"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
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
    assert printed and plain(content).startswith(printed), (printed, content)
    assert raw_rows(db, "PRAGMA integrity_check") == [("ok",)]
