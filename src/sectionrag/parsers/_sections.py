"""Turning a flat list of headings into nested :class:`Section` spans."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from sectionrag.types import PageSpan, Section

__all__ = [
    "MAX_TITLE",
    "Heading",
    "build_sections",
    "clip_title",
    "WORD_EDGES",
    "join_title_lines",
    "nest_levels",
    "normalize_title",
]

#: section titles longer than this (characters) are clipped: a title is a label, and
#: it is repeated in every chunk's section path and contextual header
MAX_TITLE = 200


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading found in the text.

    Attributes:
        start: Offset of the heading line in the text.
        rank: Nesting rank; a heading closes every open heading of rank >= its own.
        title: The heading text.
    """

    start: int
    rank: int
    title: str


def normalize_title(title: str) -> str:
    """Collapse runs of whitespace to one space and strip the ends."""
    return " ".join(title.split())


#: punctuation around a word, left out when words are compared (``(stable-backports).``)
WORD_EDGES = ".,;:!?()[]{}\"'\u201c\u201d\u2018\u2019\u00ab\u00bb"


def join_title_lines(lines: Iterable[str], known: Callable[[str], bool] | None = None) -> str:
    """Join the lines of a title that wraps, rejoining a word hyphenated across two of them.

    A letter's hyphen at a line's end before a letter either breaks a word
    (``Es-`` / ``timators``: ``Estimators``) or is the word's own
    (``stable-`` / ``backports``: ``stable-backports``). ``known`` (a
    lower-cased word, its edges' punctuation left out: is it in the
    document?) decides where the document spells either form elsewhere;
    otherwise a lower-case letter after the hyphen makes it a broken word,
    as the text joins it, and a capital a hyphen of the word's own
    (``Object-Oriented``). Other lines are joined by a space.
    """
    out = ""
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if len(out) > 1 and out[-1] in "-\u2010" and out[-2].isalpha() and text[0].isalpha():
            out = (out if _keeps_hyphen(out, text, known) else out[:-1]) + text
        else:
            out = f"{out} {text}" if out else text
    return normalize_title(out)


def _keeps_hyphen(before: str, after: str, known: Callable[[str], bool] | None) -> bool:
    """Tell whether the hyphen ending ``before`` stays when ``after`` goes on from it."""
    if known is not None:
        head = before[:-1].rsplit(None, 1)[-1].lstrip(WORD_EDGES).casefold()
        tail = after.split(None, 1)[0].rstrip(WORD_EDGES).casefold()
        if known(f"{head}-{tail}"):
            return True
        if known(head + tail):
            return False
    return not after[0].islower()


def clip_title(title: str, limit: int = MAX_TITLE) -> str:
    """Return ``title`` cut to at most ``limit`` characters at a word boundary, marked with an ellipsis."""
    if len(title) <= limit:
        return title
    cut = title.rfind(" ", limit // 2, limit)
    return title[: cut if cut > 0 else limit - 1].rstrip() + "\u2026"


def build_sections(
    headings: Sequence[Heading], text_length: int, pages: Sequence[PageSpan] = ()
) -> list[Section]:
    """Build sections from headings sorted by ``start``.

    A section starts at its heading and ends where the next heading of the same
    or a lower rank starts (or at ``text_length``). ``level`` is the depth in
    the resulting tree (``len(path)``), so skipped ranks (an H1 followed by an
    H3) do not leave holes.
    """
    page_starts = [p.start for p in pages]
    stack: list[tuple[Heading, tuple[str, ...]]] = []
    open_items: list[tuple[Heading, tuple[str, ...], int]] = []
    ends: dict[int, int] = {}
    for index, heading in enumerate(headings):
        while stack and stack[-1][0].rank >= heading.rank:
            stack.pop()
        path = (*stack[-1][1], heading.title) if stack else (heading.title,)
        stack.append((heading, path))
        open_items.append((heading, path, index))
    # End of each heading: the next heading (later in order) whose rank <= its rank.
    pending: list[tuple[int, int]] = []  # (rank, index) of headings still open
    for index, heading in enumerate(headings):
        while pending and pending[-1][0] >= heading.rank:
            _, closed = pending.pop()
            ends[closed] = heading.start
        pending.append((heading.rank, index))
    sections: list[Section] = []
    for heading, path, index in open_items:
        end = ends.get(index, text_length)
        page_start = page_end = None
        if pages:
            i = max(bisect.bisect_right(page_starts, heading.start) - 1, 0)
            j = max(bisect.bisect_right(page_starts, max(heading.start, end - 1)) - 1, 0)
            page_start, page_end = pages[i].number, pages[j].number
        sections.append(
            Section(
                title=heading.title,
                level=len(path),
                path=path,
                start=heading.start,
                end=end,
                page_start=page_start,
                page_end=page_end,
            )
        )
    return sections


def nest_levels(
    keys: Sequence[tuple[Hashable, int | None]], indents: Sequence[int | None] | None = None
) -> list[int]:
    """Assign nesting ranks to a sequence of heading styles, in document order.

    Each key is ``(style, order)``: ``order`` is a known precedence (smaller is
    higher, e.g. ``PART`` before ``Item``, ``1.`` before ``1.2``) or ``None``
    for a style known only by its look. A style seen again returns to the
    level it has in the open stack; a new style nests under the open ones,
    except that a known order first closes every open style of equal or lower
    precedence. ``indents`` (one per key, ``None`` where unknown) are the
    indentation ranks of a printed contents' entries: an entry never nests
    under an open one indented deeper than itself, which it closes.

    Returns:
        One rank per key (1 = top).
    """
    stack: list[tuple[Hashable, int | None, int | None]] = []
    ranks: list[int] = []
    for n, (style, order) in enumerate(keys):
        indent = indents[n] if indents is not None else None
        cut = None
        if order is not None:
            for i, (_, other, _) in enumerate(stack):
                if other is not None and other >= order:
                    cut = i
                    break
        if cut is None:
            for i, (other_style, _, _) in enumerate(stack):
                if other_style == style:
                    cut = i
                    break
        if indent is not None:
            for i, (_, _, other_indent) in enumerate(stack[: len(stack) if cut is None else cut]):
                if other_indent is not None and other_indent > indent:
                    cut = i
                    break
        if cut is not None:
            del stack[cut:]
        stack.append((style, order, indent))
        ranks.append(len(stack))
    return ranks
