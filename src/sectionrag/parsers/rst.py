"""reStructuredText parser: section titles by their adornment, as docutils reads them."""

from __future__ import annotations

import re
from typing import Any

from sectionrag.parsers._sections import Heading, build_sections, normalize_title
from sectionrag.parsers._source import TextFormatParser
from sectionrag.types import Document

__all__ = ["RstParser", "find_rst_headings"]

# an adornment: one punctuation character (any that docutils allows) repeated, nothing else
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1*[ \t]*")
_ROLE = re.compile(r":[\w.+-]+:`([^`]*)`")  # :ref:`Title` -> Title
_LINK = re.compile(r"`([^`<]*?)\s*<[^`>]*>`__?")  # `Text <https://...>`_ -> Text
_LITERAL = re.compile(r"``([^`]+)``")
_INTERPRETED = re.compile(r"`([^`]+)`_{0,2}")
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)([^*]+?)(?<=\S)\*\*(?![\w*])")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")
# a reference to a target by its plain name ("docutils_"); "numpy.bool_" and "and_()" are names in code
_REFERENCE = re.compile(r"(?<![\w`.])([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)_(?=[\s,;:!?)]|$)")


class RstParser(TextFormatParser):
    """Parse reStructuredText; ``Document.text`` is the decoded file with LF newlines.

    Sections come from titles underlined, or over- and underlined, with one
    punctuation character (``Title`` over ``=====``); each adornment style (its
    character, with or without an overline) is a level, in the order the styles
    first appear, as docutils orders them. Indented lines (literal blocks,
    directives' bodies, comments) and transitions (an adornment alone between
    blank lines) are never titles. ``metadata["title"]`` is the first title.
    """

    format = "rst"

    def parse_text(
        self, text: str, *, source: str = "<memory>", metadata: dict[str, Any] | None = None
    ) -> Document:
        """Build a :class:`Document` from already decoded reStructuredText."""
        meta: dict[str, Any] = dict(metadata or {"format": "rst"})
        found = find_rst_headings(text)
        if found and "title" not in meta:
            meta["title"] = found[0][2]
        headings = [Heading(start, level, title) for start, level, title in found]
        sections = build_sections(headings, len(text))
        return Document.create(text, source=source, sections=sections, metadata=meta)


def find_rst_headings(text: str) -> list[tuple[int, int, str]]:
    """Return ``(offset, level, title)`` for each section title of ``text``, in order.

    The offset is where the title's first adornment (its overline, if any) or
    its text starts; ``level`` is 1 for the first style seen, 2 for the next ...
    """
    lines: list[tuple[int, str]] = []
    offset = 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    n = len(lines)

    def blank(i: int) -> bool:
        return i < 0 or i >= n or not lines[i][1].strip()

    def adornment(i: int) -> str | None:
        if i < 0 or i >= n:
            return None
        line = lines[i][1]
        m = _ADORNMENT.fullmatch(line)
        return m.group(1) if m is not None and len(line.rstrip()) >= 2 else None

    styles: dict[tuple[str, bool], int] = {}
    out: list[tuple[int, int, str]] = []
    after_title = -1  # the line after the last title's underline: a title may follow there at once
    i = 0
    while i < n:
        line = lines[i][1]
        title_at = i
        over = adornment(i)
        set_off = blank(i - 1) or i == after_title
        if over is not None and set_off and i + 2 < n and not blank(i + 1) and adornment(i + 1) is None:
            # an overline: the title (it may be inset) and an underline of the same character and length
            under = adornment(i + 2)
            if under == over and len(lines[i + 2][1].rstrip()) == len(line.rstrip()):
                title_at = i + 1
                key = (over, True)
            else:
                i += 1
                continue
        elif (
            over is None
            and line.strip()
            and not line[:1].isspace()
            and set_off
            and (under := adornment(i + 1)) is not None
            and _long_enough(lines[i + 1][1], line)
            and _ADORNMENT.fullmatch(line.strip()) is None
        ):
            key = (under, False)
        else:
            i += 1
            continue
        title = _clean(lines[title_at][1])
        if title:
            level = styles.setdefault(key, len(styles) + 1)
            out.append((lines[i][0], level, title))
        i = after_title = title_at + 2
    return out


def _long_enough(underline: str, title: str) -> bool:
    """Tell whether an underline is as long as its title, or four characters or more.

    (docutils warns of a shorter one, yet reads a title.)
    """
    length = len(underline.rstrip())
    return length >= len(title.rstrip()) or length >= 4


def _clean(title: str) -> str:
    """Return the title's words without their inline markup (roles, links, literals, emphasis, references)."""
    title = _ROLE.sub(r"\1", title)
    title = _LINK.sub(r"\1", title)
    title = _LITERAL.sub(r"\1", title)
    title = _INTERPRETED.sub(r"\1", title)
    title = _STRONG.sub(r"\1", title)
    title = _EMPHASIS.sub(r"\1", title)
    title = _REFERENCE.sub(r"\1", title)
    return normalize_title(title.replace("\\", ""))
