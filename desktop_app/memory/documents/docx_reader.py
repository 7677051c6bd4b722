"""A Word file's text: paragraphs and table rows in order, split at Title/Heading-styled paragraphs.

The archive is read as a stream: the parts that carry text (the main document, its styles and
the relationships that name them) are unzipped a block at a time into lxml's pull parser (no
DTD, no entity expansion, no network), and every element is dropped once its end is read, so
memory holds one paragraph, not the document. The zip's member count, the declared unzipped
size of each part read and of all of them together, element nesting, element count and the
text taken are all checked against :class:`ReadLimits` as the file is read. Images and other
parts are never unzipped.
"""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from desktop_app.memory.documents.reading import (
    MB,
    Deadline,
    DocumentError,
    LimitExceeded,
    ReadLimits,
    Section,
    first_line,
    size_text,
)

_WORD = ("http://schemas.openxmlformats.org/wordprocessingml/2006/main",
         "http://purl.oclc.org/ooxml/wordprocessingml/main")
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"  # a copy of the Choice
_BLOCK = 256 * 1024


def read_docx(path: Path, limits: ReadLimits, deadline: Deadline) -> Iterator[Section]:
    """Paragraphs and tables in order, split at Title/Heading-styled paragraphs."""
    size = path.stat().st_size
    if size > limits.file_mb * MB:
        raise LimitExceeded(f"a {size_text(size)} DOCX (limit {limits.file_mb:,} MB)")
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise DocumentError(f"not a readable DOCX ({first_line(exc)})") from None
    with archive:
        count = len(archive.infolist())
        if count > limits.members:
            raise LimitExceeded(f"{count:,} parts in the archive (limit {limits.members:,})")
        reading = _Parts(archive, limits, deadline)
        main = reading.target("_rels/.rels", "/officeDocument", start="") or "word/document.xml"
        styles_part = reading.target(_rels_of(main), "/styles", start=posixpath.dirname(main))
        styles = reading.style_names(styles_part) if styles_part else {}
        yield from _Body(styles, limits).sections(reading.events(main))


def _rels_of(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _local(tag: Any) -> tuple[str, str]:
    """``(namespace, local name)`` of an lxml tag (comments and the like have no string tag)."""
    if not isinstance(tag, str) or not tag.startswith("{"):
        return "", str(tag)
    namespace, _, name = tag[1:].partition("}")
    return namespace, name


class _Parts:
    """The archive's parts as bounded event streams."""

    def __init__(self, archive: zipfile.ZipFile, limits: ReadLimits, deadline: Deadline) -> None:
        self.archive, self.limits, self.deadline = archive, limits, deadline
        self.inflated = 0  # declared unzipped bytes of the parts read so far

    def _info(self, name: str) -> zipfile.ZipInfo | None:
        try:
            return self.archive.getinfo(name)
        except KeyError:
            return None

    def events(self, name: str) -> Iterator[tuple[str, Any]]:
        """``(event, element)`` pairs of one part; an element is emptied once its end is handled.
        zipfile stops a member at its declared size (and fails its CRC if the data goes on), so
        the declared sizes checked here bound what is unzipped."""
        from lxml import etree

        info = self._info(name)
        if info is None:
            raise DocumentError(f"not a readable DOCX (no {name})")
        limits = self.limits
        if info.file_size > limits.part_mb * MB:
            raise LimitExceeded(f"{name} unzips to {size_text(info.file_size)} (limit {limits.part_mb} MB)")
        self.inflated += info.file_size
        if self.inflated > limits.inflated_mb * MB:
            raise LimitExceeded(f"its text parts unzip to more than {limits.inflated_mb} MB (limit)")
        parser = etree.XMLPullParser(events=("start", "end"), resolve_entities=False, no_network=True,
                                     load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True)
        depth = elements = 0
        try:
            with self.archive.open(info) as part:
                while True:
                    block = part.read(_BLOCK)
                    try:
                        parser.feed(block) if block else parser.close()
                    except etree.XMLSyntaxError as exc:
                        raise _xml_error(exc, name, limits) from None
                    for event, element in parser.read_events():
                        if event == "start":
                            if elements == 0 and element.getroottree().docinfo.doctype:
                                raise LimitExceeded(f"{name} declares a DTD (XML entities are refused)")
                            depth += 1
                            elements += 1
                            if depth > limits.depth:
                                raise LimitExceeded(f"{name} nests elements more than {limits.depth} deep (limit)")
                            if elements > limits.elements:
                                raise LimitExceeded(f"{name} has more than {limits.elements:,} elements (limit)")
                            if elements % 4096 == 0:
                                self.deadline.check()
                            yield event, element
                        else:
                            depth -= 1
                            yield event, element
                            element.clear(keep_tail=True)
                            while element.getprevious() is not None:
                                del element.getparent()[0]
                    if not block:
                        return
        except (zipfile.BadZipFile, NotImplementedError, EOFError, OSError) as exc:  # a CRC, an unknown method
            raise DocumentError(f"not a readable DOCX ({name}: {first_line(exc)})") from None

    def target(self, rels: str, kind: str, *, start: str) -> str | None:
        """The part a relationship of type ``…kind`` in ``rels`` points at (internal targets only)."""
        if self._info(rels) is None:
            return None
        for event, element in self.events(rels):
            if event == "end" and _local(element.tag)[1] == "Relationship" and element.get("TargetMode") != "External" \
                    and (element.get("Type") or "").endswith(kind) and element.get("Target"):
                target = element.get("Target")
                path = target.lstrip("/") if target.startswith("/") else posixpath.join(start, target)
                found = posixpath.normpath(path)
                return found if self._info(found) is not None else None
        return None

    def style_names(self, part: str) -> dict[str, str]:
        """Paragraph style id → style name (Word writes built-in names in lower case: "heading 1")."""
        names: dict[str, str] = {}
        pending = ""
        for event, element in self.events(part):
            if event != "end":
                continue
            namespace, name = _local(element.tag)
            if namespace not in _WORD:
                continue
            if name == "name":
                pending = next((v for k, v in element.attrib.items() if _local(k)[1] == "val"), "")
            elif name == "style":
                style_id = next((v for k, v in element.attrib.items() if _local(k)[1] == "styleId"), "")
                if style_id and pending:
                    names[style_id] = pending
                pending = ""
        return names


def _xml_error(exc: Exception, part: str, limits: ReadLimits) -> DocumentError:
    text = str(exc)
    lowered = text.lower()
    if "depth" in lowered:
        return LimitExceeded(f"{part} nests elements more than {min(limits.depth, 256)} deep (limit)")
    if "amplification" in lowered or "entit" in lowered:
        return LimitExceeded(f"{part} has XML entities that expand without end (refused)")
    if "huge" in lowered:
        return LimitExceeded(f"{part} has one text run over 10 MB (limit)")
    return DocumentError(f"not a readable DOCX ({part}: {first_line(exc)})")


def _is_heading(style: str) -> bool:
    lowered = style.lower()
    return lowered.startswith(("heading", "title")) or lowered == "subtitle" or style == "标题"


class _Body:
    """Turns the main part's events into sections: one per heading, paragraphs and table rows
    (cells joined with `` | ``) in order."""

    def __init__(self, styles: dict[str, str], limits: ReadLimits) -> None:
        self.styles, self.limits = styles, limits
        self.taken = 0

    def _take(self, text: str) -> str:
        self.taken += len(text)
        if self.taken > self.limits.text_chars:
            raise LimitExceeded(f"more than {self.limits.text_chars:,} characters of text (limit)")
        return text

    def sections(self, events: Iterator[tuple[str, Any]]) -> Iterator[Section]:
        heading: str | None = None
        lines: list[str] = []
        paragraphs: list[tuple[list[str], list[str]]] = []  # open paragraphs: (text pieces, [style id])
        containers: list[str] = []  # open "p" and "tc" elements, innermost last
        cells: list[list[str]] = []  # open table cells: their paragraphs
        rows: list[list[str]] = []  # open table rows: their cells' text
        skipping = 0
        for event, element in events:
            if element.tag == _FALLBACK:
                skipping += 1 if event == "start" else -1
                continue
            namespace, name = _local(element.tag)
            if skipping or namespace not in _WORD:
                continue
            if event == "start":
                if name == "p":
                    paragraphs.append(([], []))
                    containers.append("p")
                elif name == "tc":
                    cells.append([])
                    containers.append("tc")
                elif name == "tr":
                    rows.append([])
                continue
            if name == "t" and paragraphs:
                paragraphs[-1][0].append(self._take(element.text or ""))
            elif name in ("tab", "ptab") and paragraphs:
                paragraphs[-1][0].append("\t")
            elif name in ("br", "cr") and paragraphs:
                paragraphs[-1][0].append("\n")
            elif name == "noBreakHyphen" and paragraphs:
                paragraphs[-1][0].append("-")
            elif name == "pStyle" and paragraphs:
                paragraphs[-1][1][:] = [v for k, v in element.attrib.items() if _local(k)[1] == "val"][:1]
            elif name == "p" and paragraphs:
                pieces, style_id = paragraphs.pop()
                containers.pop()
                text = "".join(pieces).strip()
                if not text:
                    continue
                if "tc" in containers:
                    cells[-1].append(text)
                    continue
                style = self.styles.get(style_id[0], style_id[0]) if style_id else ""
                if _is_heading(style) and "p" not in containers:
                    if lines:
                        yield Section(text="\n\n".join(lines), heading=heading)
                    heading, lines = text, []
                else:
                    lines.append(text)
            elif name == "tc" and cells:
                containers.pop()
                text = "\n".join(cells.pop()).strip()
                if rows:
                    rows[-1].append(text)
            elif name == "tr" and rows:
                line = " | ".join(dict.fromkeys(c for c in rows.pop() if c))
                if line:
                    (cells[-1] if "tc" in containers and cells else lines).append(line)
        if lines:
            yield Section(text="\n\n".join(lines), heading=heading)
