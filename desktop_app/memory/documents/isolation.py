"""Reading a file in a child process, so no file can take the program's memory or time.

The readers bound what they can see (:class:`~desktop_app.memory.documents.reading.ReadLimits`),
but some work happens inside a library in one call — pdfminer inflating a font or an object
stream, zipfile reading a central directory of millions of entries — where no check can run.
So a PDF or a Word file is read by a child Python process
(:mod:`desktop_app.memory.documents.reader_child`) with an address-space ceiling
(``RLIMIT_AS``: its size once the libraries are loaded, plus ``memory_mb``) and a wall-clock
limit the parent enforces by killing it. A file over either is one line, ``name: skipped — …``,
and the batch goes on. Sections come back as JSON lines over a pipe while the child reads on.

A plain subprocess, not :mod:`multiprocessing`: it needs no file descriptor of the parent's
``sys.stderr`` (the TUI replaces it with one that has none) and never re-imports the parent's
``__main__``. Where there is no ``RLIMIT_AS`` (macOS, Windows) the time limit and the readers'
own limits still hold.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import IO

import desktop_app
from desktop_app.memory.documents.reading import DocumentError, LimitExceeded, ReadLimits, Section

CHILD = "desktop_app.memory.documents.reader_child"
_GRACE = 5.0  # seconds past the limit the child has to say so itself (and start up) before it is killed
# The directory the running desktop_app package was imported from: the child imports the same code.
_PACKAGE_ROOT = str(Path(desktop_app.__file__).resolve().parent.parent)


def read_isolated(path: Path, fmt: str, limits: ReadLimits) -> Iterator[Section]:
    """The sections of ``path`` read by a child process, yielded here as they come; a child over
    the memory ceiling or the time limit becomes a :class:`LimitExceeded`."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p)}
    child = subprocess.Popen([sys.executable, "-m", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env, close_fds=True)
    assert child.stdin is not None and child.stdout is not None
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_pump, args=(child.stdout, lines), name="paperclip-reader-pipe", daemon=True).start()
    ends = time.monotonic() + limits.seconds + _GRACE
    try:
        request = {"path": os.fsdecode(path), "format": fmt, "limits": asdict(limits)}
        try:
            child.stdin.write(json.dumps(request).encode() + b"\n")
            child.stdin.close()
        except OSError:  # the child is already gone: its status says why
            pass
        while True:
            try:
                line = lines.get(timeout=max(0.0, ends - time.monotonic()))
            except queue.Empty:
                raise LimitExceeded(f"still reading after {limits.seconds:g} s (limit)") from None
            if not line:
                raise _death(child.wait(), limits)
            kind, value = json.loads(line)
            if kind == "section":
                text, page, heading = value
                yield Section(text=text, page=page, heading=heading)
            elif kind == "done":
                return
            elif kind == "limit":
                raise LimitExceeded(value)
            elif kind == "memory":
                raise LimitExceeded(f"needs more than {limits.memory_mb} MB of memory (limit)")
            else:
                raise DocumentError(value)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


def _pump(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Hand the child's lines over one by one; an empty one means the pipe closed."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):  # closed under us after a kill
        pass
    lines.put(b"")


def _death(status: int, limits: ReadLimits) -> DocumentError:
    """The line for a child that ended without a word: killed (the kernel's OOM killer) or crashed."""
    if status == -getattr(signal, "SIGKILL", 9):
        return LimitExceeded(f"needs more than {limits.memory_mb} MB of memory (the reader was killed)")
    how = f"signal {-status}" if status < 0 else f"exit status {status}"
    return DocumentError(f"the reader crashed on this file ({how})")
