"""Each SQLite build Paperclip can run on stores, searches (FTS5 trigram) and loads sqlite-vec."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

BACKENDS = {"sqlean": "sqlean", "sqlcipher": "sqlcipher3"}


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_the_core_works_on_each_backend(backend, tmp_path, isolated_home):
    if importlib.util.find_spec(BACKENDS[backend]) is None:
        pytest.skip(f"{BACKENDS[backend]} is not installed")
    env = {**os.environ, "PAPERCLIP_SQLITE": backend, "PAPERCLIP_MODELS_DIR": str(tmp_path / "no-models"),
           "PAPERCLIP_EMBED_MODEL": "off"}
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": "我们的预算是五千元，地点在京都。"}) + "\n", encoding="utf-8")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "desktop_app", *map(str, args)], capture_output=True, text=True,
                              env=env, timeout=120)

    assert run("import", transcript, "--session", "s").returncode == 0
    found = run("recall", "预算是", "--session", "s", "--json")
    assert found.returncode == 0
    assert "五千元" in found.stdout
    doctor = run("doctor", "--json")
    checks = {c["check"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert BACKENDS[backend] in checks["sqlite"]["detail"]
    assert checks["sqlite-vec"]["ok"]
