"""Drawn rules of a PDF page, and the lines that sit in the cells of a ruled table.

Text alone does not tell a table's head cell ("Operator" over "Description"
in bold, alone in its row) from a heading over the text. Tables drawn with
a full grid say it with their rules: the cell is closed on four sides, and
its column rules go on into the next cell above or below. This module reads
the page's path objects once (thin ones as rules, stroked rectangles as four
rules) and marks the lines inside such cells (``PdfLine.ruled``).

A box around one heading (a banner) is a closed cell too, but its side
rules stop with it: the text under it is not boxed, so it is not marked. A
frame round the whole page is not a table: a cell is at most a few lines
high, and so is the next one of its column.
"""

from __future__ import annotations

import ctypes
import itertools
from collections import Counter
from typing import Any

from sectionrag.parsers._pdfium import CODE_FONT, PageFrame, PdfLine
from sectionrag.parsers.headings import is_all_caps

__all__ = ["mark_ruled_cells"]

_THIN = 2.5  # a rule is at most this thick (points)
_SHORTEST = 4.0  # and at least this long
_SLACK = 1.5  # a line may touch the rules of its cell
_ALIGNED = 3.0  # rules of one table column line up within this
_CELL_LINES = 6  # a cell is at most this many of its lines high
_NEXT_CELL_LINES = 25  # and the next cell of its column at most this many
_HEAD_WORDS = 12  # a head cell's line has at most this many words
_SMALLEST, _LARGEST = 0.85, 1.3  # and a size this near the text's (a table's text may be smaller)
_MOST_OBJECTS = 20_000  # a page drawn with more objects (a map, a plan) is not read for rules


class _Rules:
    """Horizontal rules as ``(x0, x1, y)`` and vertical rules as ``(x, top, bottom)``, top-down."""

    __slots__ = ("across", "down")

    def __init__(self) -> None:
        self.across: list[tuple[float, float, float]] = []
        self.down: list[tuple[float, float, float]] = []


def _is_rectangle(raw: Any, obj: Any, point_x: Any, point_y: Any) -> bool:
    """Tell whether a path object is one axis-aligned rectangle (four or five straight segments)."""
    count = raw.FPDFPath_CountSegments(obj)
    if count not in (4, 5):
        return False
    points: list[tuple[float, float]] = []
    for k in range(count):
        segment = raw.FPDFPath_GetPathSegment(obj, k)
        if raw.FPDFPathSegment_GetType(segment) == raw.FPDF_SEGMENT_BEZIERTO:
            return False
        raw.FPDFPathSegment_GetPoint(segment, point_x, point_y)
        points.append((point_x.value, point_y.value))
    points.append(points[0])
    return all(abs(a[0] - b[0]) < 0.5 or abs(a[1] - b[1]) < 0.5 for a, b in itertools.pairwise(points))


def _page_rules(page: Any) -> _Rules:
    """Read the rules drawn on ``page`` (form objects included); none on a page of too many objects."""
    import pypdfium2.raw as raw

    rules = _Rules()
    count = raw.FPDFPage_CountObjects(page.raw)
    if count > _MOST_OBJECTS:
        return rules  # a drawing: listing its objects would cost more than reading its text
    frame = PageFrame.of(page)
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    point_x, point_y = ctypes.c_float(), ctypes.c_float()
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    pending: list[tuple[Any, int]] = [(None, count)]
    while pending:
        form, count = pending.pop()
        for k in range(count):
            obj = raw.FPDFPage_GetObject(page.raw, k) if form is None else raw.FPDFFormObj_GetObject(form, k)
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_FORM:
                pending.append((obj, raw.FPDFFormObj_CountObjects(obj)))
                continue
            if kind != raw.FPDF_PAGEOBJ_PATH or not raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
                continue
            x0, y0, x1, y1 = frame.box(left.value, bottom.value, right.value, top.value)
            if y1 - y0 <= _THIN and x1 - x0 >= _SHORTEST:
                rules.across.append((x0, x1, (y0 + y1) / 2))
            elif x1 - x0 <= _THIN and y1 - y0 >= _SHORTEST:
                rules.down.append(((x0 + x1) / 2, y0, y1))
            elif (
                raw.FPDFPath_GetDrawMode(obj, fill, stroke)
                and stroke.value
                and _is_rectangle(raw, obj, point_x, point_y)
            ):
                rules.across += [(x0, x1, y0), (x0, x1, y1)]
                rules.down += [(x0, y0, y1), (x1, y0, y1)]
    return rules


def _in_ruled_cell(ln: PdfLine, rules: _Rules) -> bool:
    """Tell whether ``ln`` sits in a closed cell whose column rules go on past it."""
    middle = (ln.top + ln.bottom) / 2
    lefts = [
        x
        for x, top, bottom in rules.down
        if x <= ln.x0 + _SLACK and top - _SLACK <= middle <= bottom + _SLACK
    ]
    rights = [
        x
        for x, top, bottom in rules.down
        if x >= ln.x1 - _SLACK and top - _SLACK <= middle <= bottom + _SLACK
    ]
    if not lefts or not rights:
        return False
    x_left, x_right = max(lefts), min(rights)
    spans = [y for x0, x1, y in rules.across if x0 <= x_left + _ALIGNED and x1 >= x_right - _ALIGNED]
    above = [y for y in spans if y <= ln.top + _SLACK]
    below = [y for y in spans if y >= ln.bottom - _SLACK]
    if not above or not below:
        return False
    cell_top, cell_bottom = max(above), min(below)
    if cell_bottom - cell_top > _CELL_LINES * max(ln.height, 1.0):
        return False
    # a table's column rule goes on into the next cell below or above (one rule, or the next cell's
    # own touching this one), and that cell is a few lines high too: a rule closes it, or its side
    # rules end (at the foot of the page the table breaks at). A boxed heading's rules stop with it;
    # a page's frame under its running head goes on round the whole page.
    reach = _NEXT_CELL_LINES * max(ln.height, 1.0)
    closed_below = any(cell_bottom + _SHORTEST < y <= cell_bottom + reach for y in spans)
    closed_above = any(cell_top - reach <= y < cell_top - _SHORTEST for y in spans)
    return any(
        abs(x - edge) <= _ALIGNED
        and (
            (
                top <= cell_bottom + _ALIGNED
                and bottom > cell_bottom + _SHORTEST
                and (closed_below or bottom <= cell_bottom + reach)
            )
            or (
                bottom >= cell_top - _ALIGNED
                and top < cell_top - _SHORTEST
                and (closed_above or top >= cell_top - reach)
            )
        )
        for x, top, bottom in rules.down
        for edge in (x_left, x_right)
    )


def _set_like_a_cell_head(ln: PdfLine, text_size: float) -> bool:
    """Tell whether a line looks like a table's head cell: short, near the text's size, in another face."""
    return (
        _SMALLEST * text_size <= ln.size <= _LARGEST * text_size
        and len(ln.text.split()) <= _HEAD_WORDS
        and (ln.bold or ln.italic or is_all_caps(ln.text))
    )


def mark_ruled_cells(page: Any, lines: list[PdfLine]) -> None:
    """Set ``ruled`` on the lines of ``page`` set like a head cell that sit in a cell of a ruled table.

    Only lines that could pass for a heading at the text's size are looked at,
    and the page's drawing is read only where it has one: listing a page's
    objects costs about a tenth of reading its text.
    """
    if not lines:
        return
    # the text's size: that of most lines outside code (a page of a manual's function tables holds
    # more lines of code, set smaller, than lines of prose)
    prose = [ln for ln in lines if not CODE_FONT.search(ln.font)] or lines
    text_size = Counter(round(ln.size * 2) / 2 for ln in prose).most_common(1)[0][0]
    heads = [ln for ln in lines if _set_like_a_cell_head(ln, text_size)]
    if not heads:
        return
    rules = _page_rules(page)
    if not rules.down or not rules.across:
        return
    for ln in heads:
        if _in_ruled_cell(ln, rules):
            ln.ruled = True
