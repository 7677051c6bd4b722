"""Installs like a real package: the wheel, in a fresh venv, run from outside the checkout, has
its styles, prompt templates and model catalog, and puts models in the data dir."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import desktop_app

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_in_the_wheel_configuration():
    configured = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"desktop_app"} | {m.name for m in pkgutil.walk_packages(desktop_app.__path__, "desktop_app.")
                               if m.ispkg}
    assert found - {"desktop_app.assets", "desktop_app.catalog"} <= configured


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The project built as a wheel and installed into a new venv (llama-cpp-python comes from
    pip's wheel cache, the rest from the package index, as a user's `pip install .` would)."""
    tmp = tmp_path_factory.mktemp("wheel")
    run = lambda *cmd, **kw: subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=900, **kw)  # noqa: E731
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(ROOT))
    run(sys.executable, "-m", "venv", str(tmp / "venv"))
    [wheel] = (tmp / "dist").glob("*.whl")
    try:
        run(str(tmp / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel))
    except subprocess.CalledProcessError as exc:
        pytest.fail(f"pip install of the wheel failed: {exc.stderr[-2000:]}")
    return tmp


def _paperclip(installed: Path, *args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    home = installed / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERCLIP_") and k != "PYTHONPATH"}
    env.update({"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")})
    env.update(env_extra or {})
    return subprocess.run([str(installed / "venv" / "bin" / "paperclip"), *args], cwd=installed, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_installed_wheel_runs_from_outside_the_checkout(installed):
    probe = subprocess.run(
        [str(installed / "venv" / "bin" / "python"), "-c",
         "import desktop_app, desktop_app.paths as p; from desktop_app.ui.app import CSS_FILE; "
         "print(desktop_app.__file__); print(p.in_checkout(), CSS_FILE.exists(), p.manifest_file().exists()); "
         "print(p.models_dir())"],
        cwd=installed, capture_output=True, text=True, timeout=120, env={"HOME": str(installed / "home"),
                                                                         "PATH": os.environ.get("PATH", "")})
    where, flags, models = probe.stdout.strip().splitlines()
    assert "site-packages" in where
    assert not where.startswith(str(ROOT))
    assert flags == "False True True", "styles and the model catalog ship inside the wheel"
    assert models.startswith(str(installed / "home")), "models go to the data dir, not the site-packages"

    doctor = _paperclip(installed, "doctor", "--no-load", "--json",
                        env_extra={"PAPERCLIP_MODELS_DIR": str(ROOT / "models")})
    checks = {c["check"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["sqlite-vec"]["ok"]
    assert checks["python"]["ok"]

    noted = _paperclip(installed, "ask", "/directive Never modify the source CSV.", "--db", str(installed / "x.db"))
    assert noted.returncode == 0, noted.stderr  # a memory command: no model needed
    context = _paperclip(installed, "context", "Can I edit it?", "--json", "--db", str(installed / "x.db"))
    assert context.returncode == 0, context.stderr
    plan = json.loads(context.stdout)
    en = tomllib.loads((ROOT / "assets" / "prompts" / "en.toml").read_text(encoding="utf-8"))
    assert plan["layers"]["system"]["text"] == en["system"], "the prompt templates come from the wheel"
    assert en["layers"]["rules"] in plan["layers"]["anchors"]["text"]  # folded in at the first message
    _paperclip(installed, "ask", "/directive 以后每次都用中文回答", "--db", str(installed / "y.db"))
    zh = _paperclip(installed, "context", "你好", "--json", "--lang", "zh", "--db", str(installed / "y.db"))
    zh_labels = tomllib.loads((ROOT / "assets" / "prompts" / "zh.toml").read_text(encoding="utf-8"))["layers"]
    assert zh_labels["rules"] in json.loads(zh.stdout)["layers"]["anchors"]["text"], "the lexicon and prompts ship too"
