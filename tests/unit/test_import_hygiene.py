"""The core must stay usable headless: importing memory and engine never loads Textual."""

import subprocess
import sys


def test_memory_and_engine_do_not_import_textual():
    code = (
        "import sys\n"
        "import desktop_app.memory, desktop_app.memory.store, desktop_app.memory.store.migrations\n"
        "import desktop_app.engine, desktop_app.engine.llama, desktop_app.engine.tokens\n"
        "import desktop_app.chat, desktop_app.cli\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
        "raise SystemExit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"textual/rich imported by the core: {result.stdout} {result.stderr}"


def test_cli_help_does_not_import_textual():
    code = (
        "import sys\n"
        "from desktop_app.cli import build_parser\n"
        "build_parser()\n"
        "raise SystemExit(1 if 'textual' in sys.modules else 0)\n"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
