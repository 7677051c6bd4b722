"""The memory core stays headless: none of its modules pulls in Textual or rich."""

import subprocess
import sys

MODULES = ["assembly", "budget", "bookmark_recall", "commands", "context", "extraction", "hooks", "paging",
           "patches", "render", "summary", "text", "updates"]


def test_memory_core_modules_do_not_import_textual():
    code = ("import sys\n"
            + "".join(f"import desktop_app.memory.{name}\n" for name in MODULES)
            + "import desktop_app.commands.context, desktop_app.commands.memory, desktop_app.bench.context\n"
            + "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
            + "raise SystemExit(','.join(bad) or 0)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + result.stdout
