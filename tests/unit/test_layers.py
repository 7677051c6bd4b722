"""The layering is enforced: the import-linter contracts in pyproject.toml (ui > commands > chat
> memory > engine; memory and engine never import Textual; the runtime never imports the
installer) hold for every import in the package, function-level ones included."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _lint_imports() -> str:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("import-linter is not installed (it is in the test extras: pip install -e '.[test]')")
    return found


def test_import_linter_contracts_are_kept():
    result = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "broken" in result.stdout
    assert " 0 broken" in result.stdout


def test_a_broken_contract_is_reported(tmp_path):
    """The contract can fail: an engine module that imports the memory core breaks it."""
    package = tmp_path / "pkg"
    (package / "memory").mkdir(parents=True)
    (package / "engine").mkdir()
    (package / "__init__.py").write_text("")
    (package / "memory" / "__init__.py").write_text("")
    (package / "engine" / "__init__.py").write_text("import pkg.memory\n")
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_package = pkg\n\n[importlinter:contract:layers]\nname = layers\ntype = layers\n"
        "layers =\n    pkg.memory\n    pkg.engine\n")
    result = subprocess.run([_lint_imports(), "--no-cache"], cwd=tmp_path, capture_output=True, text=True,
                            env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
