"""Levels of a printed contents' entries: numbering first, then indentation and face."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from sectionrag.parsers._sections import nest_levels
from sectionrag.parsers.headings import HeadingStyle, classify


class TocEntry(Protocol):
    """What levels need of a contents entry: its title, indent, face, and the level to set."""

    title: str
    x0: float
    face: tuple[float, bool]
    level: int


__all__ = ["set_levels"]

#: a decimal number's order, as classify gives it: this plus its depth ("1" 11, "1.2" 12)
_DECIMAL = 10


def set_levels(entries: Sequence[TocEntry]) -> None:
    """Set each entry's level from its numbering and, unnumbered, from its indentation."""
    xs = sorted({round(e.x0) for e in entries})
    cluster: dict[int, int] = {}
    k = -1
    prev = None
    for x in xs:
        if prev is None or x - prev > 3:
            k += 1
        cluster[x] = k
        prev = x
    styles = [classify(e.title) for e in entries]
    orders: list[int | None] = []
    for style in styles:
        if style is not None and style.kind not in ("caps", "alpha") and style.order is not None:
            orders.append(style.order if style.kind not in ("num", "alnum") else _DECIMAL + style.depth)
        else:
            orders.append(None)
    orders = _restarted_lists(entries, orders, cluster)
    orders = _appendices_beside_chapters(entries, styles, orders, cluster)
    # an unnumbered entry at the indent of numbered ones takes their order ("Signatures" among Items),
    # unless it is set in a smaller face than theirs: chapters listed flush with their numbered parts
    # ("I Gnuplot" in 12 pt bold over "Copyright" in 10 pt bold) are a level below them
    by_indent: dict[int, Counter[int]] = {}
    faces: dict[int, Counter[tuple[float, bool]]] = {}
    for e, order in zip(entries, orders, strict=True):
        if order is not None:
            indent = cluster[round(e.x0)]
            by_indent.setdefault(indent, Counter())[order] += 1
            faces.setdefault(indent, Counter())[e.face] += 1
    above = _larger_at_indent([e for e, order in zip(entries, orders, strict=True) if order is None], cluster)
    keys: list[tuple[object, int | None]] = []
    # (an unnumbered entry is placed by its indent: one set further left never nests under it)
    indents: list[int | None] = []
    for e, order in zip(entries, orders, strict=True):
        indents.append(None if order is not None else cluster[round(e.x0)])
        indent = cluster[round(e.x0)]
        if order is None and indent in by_indent:
            size, bold = faces[indent].most_common(1)[0][0]
            if e.face[0] >= size + 1.0 and (e.face[1] or not bold):
                # a larger face than theirs, as heavy: a part listed flush with its numbered chapters
                # ("I User Manual" in 10.8 pt bold over "1 Introduction" in 9 pt bold, "I Das
                # TUD-Script-Bundle" in 12 pt over "2 Die Hauptklassen" in 10.9 pt) is above them
                order = min(by_indent[indent]) - 1
            elif e.face[0] >= size - 0.5 or (e.face[0] > 0 and size - e.face[0] < 1.0 and bold == e.face[1]):
                order = by_indent[indent].most_common(1)[0][0]
            else:
                keys.append((("x", indent, e.face), None))
                continue
        if order is None and id(e) in above:
            keys.append((("x", indent, "above"), None))
            continue
        keys.append((("n", order) if order is not None else ("x", indent), order))
    # a contents read from its second page on opens inside a chapter ("1.4 ..." before "2 ..."):
    # that chapter is open above its first entries, as a section never comes before its chapter
    first = orders[0] if orders else None
    decimal = [order for order in orders if order is not None and order > _DECIMAL]
    if first is not None and first > _DECIMAL + 1 and decimal and min(decimal) < first:
        keys = [(("n", min(decimal)), min(decimal)), *keys]
        indents = [None, *indents]
        levels = nest_levels(keys, indents)[1:]
    else:
        levels = nest_levels(keys, indents)
    for e, level in zip(entries, levels, strict=True):
        e.level = level


def _restarted_lists(
    entries: Sequence[TocEntry], orders: list[int | None], cluster: dict[int, int]
) -> list[int | None]:
    """Forget the numbering order of a list that restarts the chapters' numbers, indented deeper.

    A contents may list a numbered list inside one of its entries with the
    chapters' numbering (``B. GNU Free Documentation License`` over ``0.
    PREAMBLE``, ``1. APPLICABILITY ...`` indented under it, after chapters
    ``1.`` to ``11.`` at the margin). Those entries are not chapters: a run of
    entries of one order, indented more than most of an em deeper than that
    order's leftmost entries, whose numbers start again at or below the last
    number seen there, is placed by its indent, like unnumbered entries. A
    run that continues the count (``PART II`` centred a little right of
    ``PART I``) keeps its order.
    """
    numbers = [
        _number(e.title) if order is not None else None for e, order in zip(entries, orders, strict=True)
    ]
    home: dict[int, int] = {}
    for e, order in zip(entries, orders, strict=True):
        if order is not None:
            home[order] = min(home.get(order, cluster[round(e.x0)]), cluster[round(e.x0)])
    right: dict[int, float] = {}  # right-most left edge of each indent
    for e in entries:
        k = cluster[round(e.x0)]
        right[k] = max(right.get(k, e.x0), e.x0)
    out = list(orders)
    last: dict[int, int] = {}  # the last number of each order at its own indent
    i = 0
    while i < len(entries):
        order = orders[i]
        if order is None:
            i += 1
            continue
        k = cluster[round(entries[i].x0)]
        if k == home[order]:
            if numbers[i] is not None:
                last[order] = numbers[i]  # type: ignore[assignment]
            i += 1
            continue
        j = i
        while j < len(entries) and orders[j] == order and cluster[round(entries[j].x0)] == k:
            j += 1
        em = entries[i].face[0] if entries[i].face[0] > 0 else 10.0
        first, seen = numbers[i], last.get(order)
        if (
            entries[i].x0 - right[home[order]] > 0.8 * em
            and first is not None
            and seen is not None
            and first <= seen
        ):
            for n in range(i, j):
                out[n] = None
        i = j
    return out


def _appendices_beside_chapters(
    entries: Sequence[TocEntry],
    styles: Sequence[HeadingStyle | None],
    orders: list[int | None],
    cluster: dict[int, int],
) -> list[int | None]:
    """Give appendix entries listed like the chapters' numbers the chapters' order.

    ``Appendix A References`` flush with ``9 Reading Excel spreadsheets``, in
    its face, is the chapter after it: ranked above it by its label, it would
    hold the ``Concept index`` listed after it.
    """
    top = _DECIMAL + 1  # "1 Introduction"
    # (two chapters at least: a stray glyph read as a digit, "\u1a88 \u8981", numbers no chapter)
    listed = Counter(
        (cluster[round(e.x0)], e.face) for e, order in zip(entries, orders, strict=True) if order == top
    )
    out = list(orders)
    for n, (e, style) in enumerate(zip(entries, styles, strict=True)):
        if (
            style is not None
            and style.kind == "appendix"
            and style.depth == 1
            and listed[(cluster[round(e.x0)], e.face)] >= 2
        ):
            out[n] = top
    return out


def _number(title: str) -> int | None:
    """Return the first number of an entry's numbering (``11.`` gives 11, ``0. PREAMBLE`` 0)."""
    style = classify(title)
    if style is None or not style.label:
        return None
    head = style.label.split(".")[0].split()[-1] if style.label.split(".")[0].split() else ""
    return int(head) if head.isdigit() else None


def _larger_at_indent(entries: Sequence[TocEntry], cluster: dict[int, int]) -> set[int]:
    """Unnumbered entries set larger than most entries at their indent: the parts above the chapters.

    A contents may list its parts flush with the chapters, only a size larger
    (``I Gnuplot`` in 12 pt over ``Copyright`` in 10 pt); a face larger by a
    point or more, used by at most a third of the entries at that indent,
    marks a level above theirs.
    """
    by_indent: dict[int, list[TocEntry]] = {}
    for e in entries:
        by_indent.setdefault(cluster[round(e.x0)], []).append(e)
    out: set[int] = set()
    for group in by_indent.values():
        if len(group) < 4:
            continue
        size, _ = Counter(e.face for e in group).most_common(1)[0][0]
        larger = [e for e in group if e.face[0] >= size + 1.0]
        if 2 <= len(larger) <= len(group) / 3:
            out.update(id(e) for e in larger)
    return out
