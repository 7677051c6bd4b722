"""Hostile files: each one ends in one line for that file — ``name: skipped — …``, or why it is not a
document — and the batch goes on to the good file after it. The files are made here, small on disk,
and the limits set low so each trips its limit in about a second (the defaults, measured on the
full-size files of ``desktop_app/bench/hostile_docs.py``, are in docs/privacy-and-reliability.md)."""

from __future__ import annotations

import os
import resource
import threading
from pathlib import Path

import pytest

from desktop_app.bench import hostile_docs as hostile
from desktop_app.memory.documents.chunking import chunk_text
from desktop_app.memory.documents.ingest import add_documents
from desktop_app.memory.documents.isolation import read_isolated
from desktop_app.memory.documents.parsers import LimitExceeded, ReadLimits, Section

LOW = ReadLimits(seconds=20, memory_mb=150, text_file_mb=1, file_mb=8, members=50, inflated_mb=4, part_mb=2,
                 stream_mb=1, pages=20, page_objects=5_000, elements=20_000, depth=64, text_chars=300_000)

CASES = {  # file name: (how to make it, the line it gets)
    "bomb.docx": (lambda p: hostile.docx_inflating(p, 6_000_000),
                  "bomb.docx: skipped — word/document.xml unzips to 6 MB (limit 2 MB)"),
    "members.docx": (lambda p: hostile.docx_many_members(p, 200, 1_000),
                     "members.docx: skipped — 203 parts in the archive (limit 50)"),
    "deep.docx": (lambda p: hostile.docx_deep(p, 200),
                  "deep.docx: skipped — word/document.xml nests elements more than 64 deep (limit)"),
    "laughs.docx": (hostile.docx_laughs,
                    "laughs.docx: skipped — word/document.xml has XML entities that expand without end (refused)"),
    "bomb.pdf": (lambda p: hostile.pdf_inflating(p, 5_000_000),
                 "bomb.pdf: skipped — page 1's content inflates past 1 MB (limit)"),
    "crowded.pdf": (lambda p: hostile.pdf_crowded(p, 20_000),
                    "crowded.pdf: skipped — more than 5,000 glyphs or shapes on page 1 (limit)"),
    "pages.pdf": (lambda p: hostile.pdf_pages(p, 30), "pages.pdf: skipped — 30 pages (limit 20)"),
    "tree.pdf": (lambda p: hostile.pdf_page_tree_bomb(p, 10, 6), "tree.pdf: skipped — more than 20 pages (limit)"),
    "deep.html": (lambda p: hostile.html_deep(p, 500), "deep.html: skipped — HTML nested more than 64 deep (limit)"),
    "elements.html": (lambda p: hostile.html_many_elements(p, 30_000),
                      "elements.html: skipped — more than 20,000 HTML elements (limit)"),
    "attribute.html": (lambda p: hostile.html_huge_attribute(p, 2_000_000),
                       "attribute.html: skipped — a 2 MB file (limit 1 MB for text, Markdown, code and HTML)"),
    "line.txt": (lambda p: hostile.one_line(p, 500_000),
                 "line.txt: skipped — more than 300,000 characters of text (limit)"),
    "noise.md": (lambda p: hostile.ascii_noise(p, 100_000), "noise.md: binary file, not a document"),
    "garbage.txt": (lambda p: hostile.garbage(p, 100_000), "garbage.txt: binary file, not a document"),
    "latin1.txt": (hostile.latin1, "latin1.txt: not UTF-8 or GB18030 text"),
}


def _lines(report) -> list[str]:
    return [outcome.line() for outcome in report.outcomes]


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_file_is_one_line_and_the_batch_goes_on(store, counter, tmp_path, name):
    make, expected = CASES[name]
    hostile_file = make(tmp_path / name)
    good = tmp_path / "zz-good.md"
    good.write_text("# Notes\nThe meeting is on Tuesday.\n", encoding="utf-8")
    report = add_documents(store, [hostile_file, good], session_id=None, counter=counter, limits=LOW)
    assert _lines(report) == [expected, "zz-good.md: added as zz-good — 1 chunks"]
    assert [d.name for d in store.list_documents()] == ["zz-good"]


def test_a_stream_no_check_reaches_meets_the_reader_memory_ceiling(store, counter, tmp_path):
    """A font's map that inflates to 400 MB is not page content: the child process's address-space
    ceiling stops it, and this process never holds it."""
    if not Path("/proc/self/statm").exists():
        pytest.skip("the memory ceiling needs Linux (RLIMIT_AS sized from /proc)")
    font = hostile.pdf_font_bomb(tmp_path / "font.pdf", 400_000_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report = add_documents(store, [font], session_id=None, counter=counter, limits=LOW)
    assert _lines(report) == ["font.pdf: skipped — needs more than 150 MB of memory (limit)"]
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KB: the bytes stayed in the child


def test_a_reader_stuck_where_no_check_runs_is_killed_at_the_time_limit(tmp_path):
    """A FIFO handed straight to the reader blocks it in ``open``; the parent kills it."""
    stuck = tmp_path / "stuck.pdf"
    os.mkfifo(stuck)
    with pytest.raises(LimitExceeded, match=r"still reading after 0\.5 s \(limit\)"):
        list(read_isolated(stuck, "pdf", ReadLimits(seconds=0.5)))


def test_fifos_and_devices_are_named_as_such_and_never_opened(store, counter, tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    os.mkfifo(folder / "pipe.txt")  # reading it would block until someone writes
    (folder / "zero.txt").symlink_to("/dev/zero")  # reading it would never end
    (folder / "real.txt").write_text("Real notes.\n", encoding="utf-8")
    (tmp_path / "gone.md").symlink_to(tmp_path / "nowhere.md")
    os.mkfifo(tmp_path / "named.md")
    done: list = []
    worker = threading.Thread(target=lambda: done.append(add_documents(
        store, [folder, tmp_path / "named.md", tmp_path / "gone.md"], session_id=None, counter=counter)), daemon=True)
    worker.start()
    worker.join(30)
    assert done, "the batch blocked on a FIFO"
    assert sorted(_lines(done[0])) == [
        "gone.md: a broken symbolic link (its target does not exist)",
        "named.md: not a regular file (a named pipe (FIFO))",
        "pipe.txt: not a regular file (a named pipe (FIFO))",
        "real.txt: added as real — 1 chunks",
        "zero.txt: not a regular file (a character device)",
    ]


def test_a_name_that_is_not_utf8_is_one_line_and_the_batch_goes_on(store, counter, tmp_path):
    folder = tmp_path / "old-archive"
    folder.mkdir()
    for n in range(5):
        (folder / f"note{n}.txt").write_text(f"Note number {n} about the harbour.\n", encoding="utf-8")
    try:
        with open(os.path.join(os.fsencode(folder), b"caf\xe9.txt"), "wb") as handle:
            handle.write(b"Latin-1 named.\n")
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    report = add_documents(store, [folder], session_id=None, counter=counter)
    assert report.count("added") == 5
    assert [o.line() for o in report.failed] == [
        "caf\\xe9.txt: skipped — its name is not valid UTF-8 (rename the file to add it)"]


def test_counting_never_sees_a_run_longer_than_a_chunk_could_be(counter):
    """Token counting is quadratic in the length of a word with no space: a 1 MB one-line file
    once took minutes. The chunker only counts spans that could fit in a chunk."""
    longest: list[int] = []

    class Spy:
        def count(self, text: str) -> int:
            longest.append(len(text))
            return counter.count(text)

    text = "abcdefghij" * 100_000 + "\n\nA short paragraph. " + "word " * 2_000
    chunks = list(chunk_text(Section(text=text), 0, Spy(), max_tokens=200))
    assert max(longest) <= 200 * 16
    assert all(c.tokens <= 200 for c in chunks)
    assert "".join(text[c.char_start:c.char_end] for c in chunks[:3]).startswith("abcdefghij")
