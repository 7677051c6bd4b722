"""The memory core and the engine stay headless: none of their modules pulls in Textual or rich
(checked in a fresh interpreter, so an import hidden anywhere in the package counts)."""

import pkgutil
import subprocess
import sys

import desktop_app.engine
import desktop_app.memory


def _modules(package) -> list[str]:
    return [info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]


def test_memory_core_and_engine_modules_do_not_import_textual():
    modules = _modules(desktop_app.memory) + _modules(desktop_app.engine)
    assert "desktop_app.memory.turn" in modules
    assert "desktop_app.engine.guard" in modules
    code = ("import sys\n"
            + "".join(f"import {name}\n" for name in modules)
            + "import desktop_app.commands.context, desktop_app.commands.memory, desktop_app.bench.context\n"
            + "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
            + "raise SystemExit(','.join(bad) or 0)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + result.stdout
