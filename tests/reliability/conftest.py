"""The fault suite runs the real entry point in subprocesses, on real files in tmp dirs."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Ran:
    code: int
    out: str
    err: str

    @property
    def one_line_error(self) -> bool:
        """Non-zero exit, one line on stderr, no traceback."""
        lines = [line for line in self.err.splitlines() if line.strip()]
        return self.code != 0 and len(lines) == 1 and "Traceback" not in self.err


@pytest.fixture
def cli(isolated_home):
    """``cli(*args, stdin=b"...", umask=0o022)``: run ``python -m desktop_app`` as a script would.

    No models are installed for it (an empty models folder) and embedding is off (the default
    embedder ships with the package): imports skip the embedding pass quietly, which keeps these
    tests to seconds. Tests that need a model pass ``--model`` (or ``env``)."""
    no_models = isolated_home.parent / "no-models"
    no_models.mkdir(exist_ok=True)

    def run(*args: str, stdin: bytes | None = None, umask: int | None = 0o022, timeout: float = 300,
            env: dict | None = None) -> Ran:
        preexec = (lambda: os.umask(umask)) if umask is not None else None
        done = subprocess.run([sys.executable, "-m", "desktop_app", *map(str, args)], input=stdin,
                              capture_output=True, timeout=timeout, preexec_fn=preexec,
                              env={**os.environ, "PAPERCLIP_MODELS_DIR": str(no_models),
                                   "PAPERCLIP_EMBED_MODEL": "off", **(env or {})})
        return Ran(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))

    return run


def raw_rows(db: Path, sql: str, params=()) -> list[tuple]:
    """Read the database directly (the backend Paperclip uses), bypassing the store."""
    from desktop_app.memory.store.sqlite_backend import sqlite

    conn = sqlite.connect(str(db))
    try:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()
