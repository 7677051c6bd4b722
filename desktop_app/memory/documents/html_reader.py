"""An HTML page's visible text, split at ``<h1>``–``<h6>``; scripts, styles, navigation and
other non-text left out.

lxml's HTML parser (libxml2) calls back per tag and per run of text, and builds no tree: what
is kept is the text itself. The callbacks count elements and nesting against
:class:`ReadLimits`, so a page of a million nested ``<div>`` stops at the limit instead of
building a million-deep tree. The bytes are decoded the way a browser would (a BOM, a declared
charset, UTF-8, then Windows-1252) by Beautiful Soup's ``UnicodeDammit``.
"""

from __future__ import annotations

from desktop_app.memory.documents.reading import Deadline, DocumentError, LimitExceeded, ReadLimits, first_line

HEADING_MARK = "\x01"  # starts a line that is a heading (the caller splits sections there)
_SKIPPED = {"script", "style", "noscript", "template", "svg", "iframe", "object", "head", "nav"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCKS = {"p", "div", "li", "tr", "pre", "blockquote", "dd", "dt", "section", "article", "table", "ul", "ol",
           "br", "hr", "figcaption", "caption", "td", "th"}
_FEED = 256 * 1024  # characters handed to the parser at a time


class _VisibleText:
    """The parser's target: collects the text a reader sees, one line per block."""

    def __init__(self, limits: ReadLimits, deadline: Deadline) -> None:
        self.limits, self.deadline = limits, deadline
        self.out: list[str] = []
        self.heading: list[str] | None = None  # the pieces of the heading being read
        self.depth = self.elements = self.hidden = self.taken = 0

    def start(self, tag: object, attrib: object) -> None:
        self.depth += 1
        self.elements += 1
        if self.depth > self.limits.depth:
            raise LimitExceeded(f"HTML nested more than {self.limits.depth:,} deep (limit)")
        if self.elements > self.limits.elements:
            raise LimitExceeded(f"more than {self.limits.elements:,} HTML elements (limit)")
        if self.elements % 4096 == 0:
            self.deadline.check()
        name = str(tag).lower()
        if name in _SKIPPED or self.hidden:
            self.hidden += 1
        elif name in _HEADINGS and self.heading is None:
            self.heading = []

    def end(self, tag: object) -> None:
        self.depth -= 1
        name = str(tag).lower()
        if self.hidden:
            self.hidden -= 1
            return
        if name in _HEADINGS and self.heading is not None:
            title = " ".join(" ".join(self.heading).split())
            self.heading = None
            self.out.append(f"\n{HEADING_MARK}{title}\n" if title else "\n")
        elif name in _BLOCKS and self.heading is None:
            self.out.append(" \n" if name in ("td", "th") else "\n")

    def data(self, text: str) -> None:
        if self.hidden:
            return
        self.taken += len(text)
        if self.taken > self.limits.text_chars:
            raise LimitExceeded(f"more than {self.limits.text_chars:,} characters of text (limit)")
        (self.heading if self.heading is not None else self.out).append(text)

    def comment(self, text: str) -> None:
        pass

    def close(self) -> str:
        return "".join(self.out)


def visible_text(raw: bytes, limits: ReadLimits, deadline: Deadline) -> str:
    """The page's text, headings on lines of their own that start with :data:`HEADING_MARK`."""
    from bs4.dammit import UnicodeDammit
    from lxml import etree

    markup = UnicodeDammit(raw, is_html=True).unicode_markup
    if markup is None:
        raise DocumentError("not a readable HTML file (unknown text encoding)")
    del raw
    if not markup.strip():
        return ""
    parser = etree.HTMLParser(target=_VisibleText(limits, deadline), remove_comments=True, remove_pis=True,
                              no_network=True)
    try:
        for start in range(0, len(markup), _FEED):
            parser.feed(markup[start:start + _FEED])
        return str(parser.close())
    except etree.XMLSyntaxError as exc:
        raise DocumentError(f"not a readable HTML file ({first_line(exc)})") from None
