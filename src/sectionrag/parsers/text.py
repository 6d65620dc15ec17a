"""Plain-text parser: the file's own text, with obvious headings detected conservatively."""

from __future__ import annotations

import re
from typing import Any

from sectionrag.parsers._sections import Heading, build_sections, nest_levels, normalize_title
from sectionrag.parsers._source import TextFormatParser
from sectionrag.parsers.headings import (
    LABEL_WORD_KINDS,
    classify,
    has_trailing_page_number,
    is_toc_line,
    looks_like_sentence,
    reads_as_labelled_title,
)
from sectionrag.types import Document

__all__ = ["TextParser", "find_text_headings"]

#: the longest heading line, and the longest after a label word (a filing's item titles run long:
#: ``Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and ...``)
_HEADING_LINE = 100
_LABELLED_LINE = 160
_UNDERLINE = re.compile(r"^\s{0,3}([=\-~*])\1{2,}\s*$")
# a wiki heading: "== History ==", or with its equals signs spaced as WikiText sets them, "= = History = ="
_WIKI = re.compile(r"(=(?: ?=){0,5})\s*([^=\s](?:.*?[^=\s])?)\s*\1")
# a Markdown heading in a plain-text file: "## Installation", closing hashes optional
_ATX = re.compile(r"(#{1,6})\s+([^#\s](?:.*?[^#\s])?)(?:\s+#+)?")
_FENCE = re.compile(r"^\s{0,3}```")
_NUMBERING_SPAN = 200  # characters of a line that show its numbering
_TOC_LINE = 300  # a longer line is not a table-of-contents entry


class TextParser(TextFormatParser):
    """Parse plain text; ``Document.text`` is the decoded file with LF newlines.

    Headings are detected only where they are obvious: numbered headings
    (``1.``, ``1.2``, ``Item 1A.``, ``PART II``, ``Chapter 3``), short all-caps
    lines set off by blank lines, lines underlined with ``===``/``---``, and
    heading markup: wiki headings (``== History ==``, also spaced as
    ``= = History = =``) and Markdown headings (``## Usage``) set off by blank
    lines, outside code fences, their level given by the markup.
    """

    format = "text"

    def parse_text(
        self, text: str, *, source: str = "<memory>", metadata: dict[str, Any] | None = None
    ) -> Document:
        """Build a :class:`Document` from already decoded text."""
        headings = find_text_headings(text)
        sections = build_sections(headings, len(text))
        return Document.create(
            text, source=source, sections=sections, metadata=metadata or {"format": "text"}
        )


def _lines(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    offset = 0
    for line in text.split("\n"):
        out.append((offset, line))
        offset += len(line) + 1
    return out


def _labelled(line: str) -> bool:
    """Tell whether a line starts with a heading's label word (``Item 5.02``, ``PART II``)."""
    style = classify(line)
    return style is not None and style.kind in LABEL_WORD_KINDS


def find_text_headings(text: str) -> list[Heading]:
    """Return the headings of plain ``text``, in order, with nesting ranks."""
    lines = _lines(text)
    n = len(lines)

    def blank(i: int) -> bool:
        return i < 0 or i >= n or not lines[i][1].strip()

    # Lines inside a run of consecutive heading-like lines are a table of contents.
    tocish = [False] * n
    i = 0
    while i < n:
        if blank(i):
            i += 1
            continue
        j = i
        while j < n and not blank(j):
            j += 1
        run = range(i, j)
        numbered = sum(
            1
            for k in run
            # a contents entry is a short line; a numbering is told by the line's first characters
            if (len(lines[k][1]) <= _TOC_LINE and is_toc_line(lines[k][1]))
            or ((s := classify(lines[k][1].strip()[:_NUMBERING_SPAN])) is not None and s.kind != "caps")
        )
        if j - i >= 3 and numbered >= 3:
            for k in run:
                tocish[k] = True
        i = j

    found: list[tuple[int, str, tuple[object, int | None]]] = []
    marked: list[tuple[int, str, tuple[object, int | None]]] = []  # headings in wiki or Markdown markup
    skip_next = False
    fenced = False
    for i, (offset, line) in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if skip_next:
            skip_next = False
            continue
        stripped = line.strip()
        if not stripped or fenced:
            continue
        markup = _markup_heading(stripped, blank(i - 1) and blank(i + 1))
        if markup is not None:
            level, title = markup
            marked.append((offset, normalize_title(title), (("markup", level), level)))
            continue
        if tocish[i] or len(stripped) > _LABELLED_LINE:
            continue
        if len(stripped) > _HEADING_LINE and not _labelled(stripped):
            continue
        # Underlined title: "Title\n=====".
        m = _UNDERLINE.match(lines[i + 1][1]) if i + 1 < n and blank(i - 1) else None
        if (
            m is not None
            and not _UNDERLINE.match(line)
            and len(lines[i + 1][1].strip()) >= max(3, len(stripped) // 2)
            and not looks_like_sentence(stripped, max_words=12)
        ):
            found.append((offset, stripped, (("underline", m.group(1)), None)))
            skip_next = True
            continue
        if not blank(i - 1) or is_toc_line(stripped):
            continue
        style = classify(stripped)
        if style is None or style.kind == "alpha":
            continue
        indent = len(line) - len(line.lstrip())
        if style.kind in LABEL_WORD_KINDS:
            if indent > 8 or (
                style.rest
                and (
                    (looks_like_sentence(style.rest) and not reads_as_labelled_title(style))
                    or has_trailing_page_number(style.rest)
                )
            ):
                continue
        elif style.kind == "caps":
            words = stripped.split()
            if not blank(i + 1) or len(words) > 10 or stripped[-1] in ",;:" or len(stripped) < 3:
                continue
        else:
            if (
                indent > 4
                or not blank(i + 1)
                or not style.rest
                or looks_like_sentence(style.rest, max_words=12)
            ):
                continue
            if has_trailing_page_number(style.rest) or not style.rest[0].isupper():
                continue
        key: object = (style.kind, style.depth) if style.kind in ("num", "alnum", "section") else style.kind
        found.append((offset, normalize_title(stripped), (key, style.order)))

    # a text that marks its headings up has said where they are: its capitals and numbers are text
    found = marked if len(marked) >= 2 else sorted(found + marked)
    ranks = nest_levels([k for _, _, k in found])
    return [Heading(start, rank, title) for (start, title, _), rank in zip(found, ranks, strict=True)]


def _markup_heading(line: str, set_off: bool) -> tuple[int, str] | None:
    """Return the level and title of a wiki or Markdown heading line (stripped), else ``None``.

    A wiki heading's equals signs make it one wherever it stands; a Markdown
    heading in plain text must be set off by blank lines and read as a title,
    since ``# install the package`` is as often a comment in a listing.
    """
    m = _WIKI.fullmatch(line)
    if m is not None:
        title = m.group(2)
        if any(c.isalnum() for c in title) and len(title.split()) <= 30:
            return m.group(1).count("="), title
        return None
    m = _ATX.fullmatch(line)
    if m is None or not set_off:
        return None
    title = m.group(2)
    if not title[0].isalnum() or len(title.split()) > 30 or looks_like_sentence(title, max_words=30):
        return None
    return len(m.group(1)), title
