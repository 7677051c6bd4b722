"""The child process that reads one file (``python -m desktop_app.memory.documents.reader_child``).

It takes ``{"path", "format", "limits"}`` as one JSON line on stdin, loads the libraries that
format needs, caps its own address space, then writes ``["section", [text, page, heading]]``
lines and one last line that says how it ended: ``["done"]``, ``["limit", what]``,
``["error", reason]`` or ``["memory"]``. Library chatter on stdout and stderr goes to /dev/null;
the protocol has a descriptor of its own. :mod:`desktop_app.memory.documents.isolation` is the
other end.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import signal
import sys
import warnings
from pathlib import Path
from typing import IO, Any

from desktop_app.memory.documents.parsers import read_sections
from desktop_app.memory.documents.reading import MB, Deadline, DocumentError, LimitExceeded, ReadLimits, first_line

# Loaded before the memory ceiling is set, so the ceiling is all the file's.
_LIBRARIES = {"pdf": ["pypdf", "pdfminer.high_level", "pdfminer.layout", "pdfminer.converter"],
              "docx": ["lxml.etree"], "html": ["lxml.etree", "bs4.dammit"]}


def main() -> None:
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    _silence()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle: it kills us
    request = json.loads(sys.stdin.readline())
    fmt, limits = request["format"], ReadLimits(**request["limits"])
    for name in _LIBRARIES.get(fmt, []):
        importlib.import_module(name)
    _cap_memory(limits.memory_mb)
    try:
        for section in read_sections(Path(request["path"]), fmt, limits, Deadline(limits.seconds)):
            _send(channel, "section", [_valid(section.text), section.page,
                                       _valid(section.heading) if section.heading is not None else None])
        _send(channel, "done")
    except LimitExceeded as exc:
        _send(channel, "limit", exc.what)
    except DocumentError as exc:
        _send(channel, "error", str(exc))
    except MemoryError:
        _send(channel, "memory")
    except RecursionError:
        _send(channel, "limit", "structures nested too deep to read (limit)")
    except Exception as exc:  # a library's own bug on a strange file: one line, the batch goes on
        _send(channel, "error", f"cannot be read ({type(exc).__name__}: {first_line(exc)})")
    channel.close()


def _valid(text: str) -> str:
    """``text`` without lone surrogates (a broken font map can make pdfminer emit them): SQLite
    stores UTF-8, which has no encoding for them."""
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _send(channel: IO[str], kind: str, value: Any = None) -> None:
    channel.write(json.dumps([kind, value]) + "\n")
    channel.flush()


def _silence() -> None:
    """Library warnings on stdout or stderr would only be noise (the parent reads neither)."""
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def _cap_memory(megabytes: int) -> None:
    """Limit the address space to what the process has now plus ``megabytes`` (Linux: where
    ``/proc`` says how much that is and ``RLIMIT_AS`` is enforced)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            now = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError, IndexError):
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = now + megabytes * MB
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    if soft == resource.RLIM_INFINITY or ceiling < soft:
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))


if __name__ == "__main__":
    main()
