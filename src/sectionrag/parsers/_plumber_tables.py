"""Ruled tables found by pdfplumber, for ``PdfParser(tables=True)`` (private).

pdfplumber finds a table from the lines and rectangles drawn on a page (a
ruled grid, boxed cells) and gives the box of every cell; each cell's text is
then read by pypdfium2 from inside its box, so it is the same text the
default reading gives (pdfplumber's own reading loses symbol fonts), a cell
that wraps onto two lines stays one cell, and neighbouring columns never run
together. Each table replaces the lines read inside its box with one line
per row, cells joined by ``" | "`` (empty cells kept, so the columns line
up): the form the layout reading of :mod:`sectionrag.parsers.pdf` gives the
tables it recognises by alignment alone.

pdfplumber is slow (it lays out every character in Python), so it only looks
at pages that draw enough vector paths to hold a ruled table; pypdfium2
counts them in milliseconds. A grid whose cells are mostly empty (a figure,
a frame around a code sample) is not taken for a table.
"""

from __future__ import annotations

import io
import logging
import os
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sectionrag.errors import MissingDependencyError
from sectionrag.parsers._pdfium import PageFrame, PdfLine

__all__ = ["MIN_FILLED", "MIN_PATHS", "RuledTable", "add_ruled_tables", "place_tables", "ruled_tables"]

logger = logging.getLogger(__name__)

#: vector path objects a page must draw before pdfplumber looks at it
MIN_PATHS = 4
#: share of non-empty cells a grid needs to count as a table
MIN_FILLED = 0.5
#: a word hyphenated at the end of a cell's line (pdfium marks the hyphen U+0002 or U+FFFE)
_WRAPPED_HYPHEN = re.compile(r"(?<=[a-z])[-\u0002\ufffe]\s*\n\s*(?=[a-z])")


@dataclass(frozen=True, slots=True)
class RuledTable:
    """A table found on a page, in the page's top-down coordinates (points).

    Attributes:
        bbox: ``(x0, top, x1, bottom)`` of the whole table.
        rows: ``(top, bottom, cells)`` of each row, top to bottom.
    """

    bbox: tuple[float, float, float, float]
    rows: tuple[tuple[float, float, tuple[str, ...]], ...]


def _cell_text(raw: str) -> str:
    """One line of text for a cell: words hyphenated across its lines rejoined, white space folded."""
    return " ".join(_WRAPPED_HYPHEN.sub("", raw.replace("\r\n", "\n")).split())


def _pages_with_paths(pdf: Any) -> list[int]:
    """Return the pages that draw at least :data:`MIN_PATHS` vector paths (pypdfium2: fast)."""
    import pypdfium2 as pdfium

    out = []
    for index in range(len(pdf)):
        page = pdf[index]
        try:
            paths = page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_PATH], max_depth=2)
            if sum(1 for _ in zip(range(MIN_PATHS), paths, strict=False)) >= MIN_PATHS:
                out.append(index)
        finally:
            page.close()
    return out


def _grids(source: str | bytes, pages: list[int], password: str | None) -> dict[int, list[Any]]:
    """Pdfplumber's tables on ``pages`` (their cell boxes; the text is read by pdfium)."""
    try:
        import pdfplumber
    except ImportError as e:  # pragma: no cover - pdfplumber is a core dependency
        raise MissingDependencyError(
            'PdfParser(tables=True) needs pdfplumber: pip install "pdfplumber>=0.11"'
        ) from e
    found: dict[int, list[Any]] = {}
    opened = io.BytesIO(source) if isinstance(source, bytes) else source
    with pdfplumber.open(opened, pages=[i + 1 for i in pages], password=password) as pdf:
        for index, page in zip(pages, pdf.pages, strict=True):
            try:
                tables = [t for t in page.find_tables() if len(t.rows) >= 2]
            except Exception as e:  # a page pdfplumber cannot lay out keeps the default reading
                logger.warning("pdfplumber could not find the tables of page %d: %s", index + 1, e)
                tables = []
            finally:
                page.close()
            if tables:
                found[index] = tables
    return found


def _read(textpage: Any, frame: PageFrame, grid: Any) -> RuledTable | None:
    """Read every cell of a pdfplumber table with pdfium; ``None`` if it is no real table.

    pdfplumber gives the cells as the page shows (turned by its ``/Rotate``);
    pdfium reads text in user space.
    """
    rows = []
    filled = total = 0
    for row in grid.rows:
        cells = []
        for box in row.cells:
            if box is None:  # the continuation of a merged cell
                continue
            x0, top, x1, bottom = box
            corners = (frame.user_point(x0, top), frame.user_point(x1, bottom))
            (left, right), (low, high) = (sorted(axis) for axis in zip(*corners, strict=True))
            raw = textpage.get_text_bounded(left=left, bottom=low, right=right, top=high)
            cells.append(_cell_text(raw))
            filled += bool(cells[-1])
            total += 1
        _, top, _, bottom = row.bbox
        rows.append((float(top), float(bottom), tuple(cells)))
    if max(len(cells) for _, _, cells in rows) < 2 or filled < MIN_FILLED * total:
        return None
    x0, top, x1, bottom = grid.bbox
    return RuledTable((float(x0), float(top), float(x1), float(bottom)), tuple(rows))


def ruled_tables(
    source: str | os.PathLike[str] | bytes, *, password: str | None = None
) -> dict[int, list[RuledTable]]:
    """Find the ruled tables of a PDF: ``{page index: tables}`` (pages without any are left out).

    Raises:
        MissingDependencyError: pdfplumber is not installed.
    """
    import pypdfium2 as pdfium

    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source)
    pdf = pdfium.PdfDocument(data, password=password)
    try:
        found: dict[int, list[RuledTable]] = {}
        for index, grids in _grids(data, _pages_with_paths(pdf), password).items():
            page = pdf[index]
            textpage = page.get_textpage()
            try:
                frame = PageFrame.of(page)
                tables = [t for t in (_read(textpage, frame, g) for g in grids) if t is not None]
            finally:
                textpage.close()
                page.close()
            if tables:
                found[index] = tables
        return found
    finally:
        pdf.close()


def _inside(line: PdfLine, box: tuple[float, float, float, float]) -> bool:
    x0, top, x1, bottom = box
    cx, cy = (line.x0 + line.x1) / 2, (line.top + line.bottom) / 2
    return x0 - 1 <= cx <= x1 + 1 and top - 1 <= cy <= bottom + 1


def place_tables(pages_lines: list[list[PdfLine]], tables: Mapping[int, Sequence[RuledTable]]) -> int:
    """Replace the lines inside each table's box by one table line per row; return the tables placed.

    A row line sits where the first line it replaces stood, so the reading
    order around the table is kept; it is one text line high, however tall
    its cells, so that rows are never taken for one. A table with no text
    pdfium read inside it is skipped.
    """
    placed = 0
    for index, found in tables.items():
        lines = pages_lines[index]
        for table in found:
            inside = [ln for ln in lines if _inside(ln, table.bbox)]
            if not inside:
                continue
            size = statistics.median(ln.size for ln in inside)
            rows = [
                PdfLine(
                    text=" | ".join(cells),
                    x0=table.bbox[0],
                    x1=table.bbox[2],
                    top=top,
                    bottom=min(bottom, top + 1.2 * size),  # a line's height: rows stay apart
                    size=size,
                    bold=False,
                    italic=False,
                    font=inside[0].font,
                    page=index,
                    role="table",
                )
                for top, bottom, cells in table.rows
                if any(cells)
            ]
            at = lines.index(inside[0])
            drop = {id(ln) for ln in inside}
            kept = [ln for ln in lines if id(ln) not in drop]
            before = sum(1 for ln in lines[:at] if id(ln) not in drop)
            lines[:] = kept[:before] + rows + kept[before:]
            placed += 1
    return placed


def add_ruled_tables(
    source: str | os.PathLike[str] | bytes, pages_lines: list[list[PdfLine]], *, password: str | None
) -> None:
    """Find the ruled tables of ``source`` and write them into ``pages_lines`` (the hook of PdfParser)."""
    place_tables(pages_lines, ruled_tables(source, password=password))
