"""Page layout of extracted PDF lines: clean text, rows, tables, reading order, assembly.

Lines come from :mod:`sectionrag.parsers._pdfium`. Here they are cleaned
(ligatures, odd spaces), grouped into visual rows, marked as table rows when
several short cells share rows, put in reading order (two-column pages
column by column) and joined into the document text with page spans and the
offset of every line.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from sectionrag.parsers._pdfium import CODE_FONT, PdfLine
from sectionrag.types import PageSpan

__all__ = [
    "assemble",
    "assign_rows",
    "body_size",
    "clean_text",
    "in_other_column",
    "lines_by_row",
    "mark_tables",
    "merge_labels",
    "prose_columns",
    "reading_order",
    "right_column_start",
]

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
# Adobe's private-use code points for the glyphs of its expert fonts, which a font without a
# Unicode map names by glyph ("oneoldstyle", "Asmall"): old-style figures, small capitals
_EXPERT = {
    **{0xF730 + k: str(k) for k in range(10)},
    **{0xF761 + k: chr(ord("a") + k) for k in range(26)},
    **{0xF7E0 + k: chr(0xE0 + k) for k in range(32) if k != 0x17},  # "Agravesmall" ... "Ydieresissmall"
    0xF721: "!",
    0xF724: "$",
    0xF726: "&",
    0xF73F: "?",
    0xF7A1: "\u00a1",
    0xF7BF: "\u00bf",
    0xF6DC: "1",  # "onefitted"
    0xF6F9: "\u0142",
    0xF6FA: "\u0153",
    0xF6FD: "\u0161",
    0xF6FF: "\u017e",
}
_HAS_EXPERT = re.compile("[\uf6dc-\uf7ff]")
_SPACES = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\t\f\v]")
_DROP = re.compile(r"[\u0000-\u0008\u000b\u000e-\u001f\u00ad\u200b-\u200d\u2060\ufeff\ufffe\uffff]")
_MULTISPACE = re.compile(r" {2,}")
# a zero-width non-joiner between Arabic-script letters parts two pieces of a Persian word ("حروف‌چینی"),
# which the page shows apart and a reader of its text finds with a space; elsewhere (Indic
# scripts) it only shapes a letter and goes
_PERSIAN_JOIN_BREAK = re.compile("(?<=[\u0600-\u06ff])\u200c(?=[\u0600-\u06ff])")
_HYPHEN_END = re.compile(r"[A-Za-z\u00c0-\u024f][-\u2010\u00ad\x02]$")


def clean_text(text: str) -> str:
    """Normalise ligatures, odd spaces, control characters and expert fonts' glyphs in one line."""
    if _HAS_EXPERT.search(text):
        text = text.translate(_EXPERT)
    if any(ch in text for ch in _LIGATURES):
        text = "".join(_LIGATURES.get(ch, ch) for ch in text)
    text = _SPACES.sub(" ", text)
    if "\u200c" in text:
        text = _PERSIAN_JOIN_BREAK.sub(" ", text)
    text = _DROP.sub("", text.replace("\x02", "-").replace("\ufffe", "-"))
    return _MULTISPACE.sub(" ", text).strip()


def reading_order(lines: list[PdfLine]) -> list[PdfLine]:
    """Order a page's lines for reading: column by column on multi-column pages.

    Table rows and lines that cross a gutter are read as full-width bands;
    between them, the columns are read left to right (two columns, or three:
    an index or a glossary set in three narrow columns).
    """
    if len(lines) < 8:
        return _rows_in_order(lines) if any(ln.role == "table" for ln in lines) else lines
    gutters = _gutters(lines)
    if not gutters:
        return _rows_in_order(lines) if any(ln.role == "table" for ln in lines) else lines
    # a "table row" of one cell in each column is column lines after all
    rows: dict[int, list[PdfLine]] = {}
    for ln in lines:
        if ln.role == "table":
            rows.setdefault(ln.row, []).append(ln)
    extent: dict[int, tuple[float, float]] = {}
    for row, cells in rows.items():
        columns = {_column_of(c.x0, c.x1, gutters) for c in cells}
        if len(cells) >= 2 and None not in columns and len(columns) == len(cells):
            for c in cells:
                c.role = "body"
        else:
            extent[row] = (min(c.x0 for c in cells), max(c.x1 for c in cells))
    out: list[PdfLine] = []
    bands: list[list[PdfLine]] = [[] for _ in range(len(gutters) + 1)]

    def close_band() -> None:
        nonlocal bands
        filled = [band for band in bands if band]
        if len(filled) > 1:
            for band in filled[1:]:
                band[0].column_top = True
        for band in filled:
            out.extend(band)
        bands = [[] for _ in range(len(gutters) + 1)]

    for ln in sorted(lines, key=lambda ln: (ln.row, ln.x0)):
        x0, x1 = extent.get(ln.row, (ln.x0, ln.x1)) if ln.role == "table" else (ln.x0, ln.x1)
        column = _column_of(x0, x1, gutters)
        if column is None:  # a table row or a line across the columns closes the band above it
            close_band()
            out.append(ln)
        else:
            bands[column].append(ln)
    close_band()
    return out


def _columns_of_text(lines: list[PdfLine], gutters: list[float], inside: list[int]) -> bool:
    """Tell three real columns: each holds a fair share of the lines, most of them flush left.

    A financial statement's label column, centred titles and figures make
    three bands of pieces too, but not three columns of flush lines.
    """
    if min(inside) < 0.2 * sum(inside):
        return False
    for k in range(len(gutters) + 1):
        starts = Counter(round(ln.x0 / 3) for ln in lines if _column_of(ln.x0, ln.x1, gutters) == k)
        flush = sum(starts[s] for s in starts if any(abs(s - m) <= 1 for m, _ in starts.most_common(1)))
        if flush < 0.5 * inside[k]:
            return False
    return True


def _column_of(x0: float, x1: float, gutters: list[float]) -> int | None:
    """Return the column a piece from ``x0`` to ``x1`` lies in, or ``None`` when it crosses a gutter."""
    lower = float("-inf")
    for k, upper in enumerate(gutters):
        if x0 >= lower and x1 <= upper:
            return k
        lower = upper
    return len(gutters) if x0 >= lower else None


def _column_counts(lines: list[PdfLine], gutters: list[float]) -> list[int]:
    """Count the lines that lie in each column (a line across a gutter in none)."""
    counts = [0] * (len(gutters) + 1)
    for ln in lines:
        column = _column_of(ln.x0, ln.x1, gutters)
        if column is not None:
            counts[column] += 1
    return counts


def _gutters(lines: list[PdfLine]) -> list[float]:
    """Find the gutters of a page of two or three columns of text (none on a one-column page).

    Three columns are tried first: each must hold four lines or more and
    together most of the page's text lines, else two columns.
    """
    x_min = min(ln.x0 for ln in lines)
    width = max(ln.x1 for ln in lines) - x_min
    for layouts in (
        ((1 / 3, 2 / 3), (0.3, 0.65), (0.35, 0.68), (0.32, 0.62)),
        ((0.5,), (0.45,), (0.55,), (0.4,), (0.6,)),
    ):
        best: list[float] = []
        best_score = 0
        # in three columns, a "table row" whose cells are as wide as columns is a row of column
        # lines (an index's entries), a narrow cell is a table's
        wide = 0.2 * width if len(layouts[0]) == 2 else float("inf")
        text_lines = [ln for ln in lines if ln.role != "table" or ln.x1 - ln.x0 >= wide]
        # a line across every trial's first gutter is in no column of any: where over two in five
        # lines are, no trial can hold the three in five it needs (a page of one column, mostly)
        low = x_min + min(fracs[0] for fracs in layouts) * width
        high = x_min + max(fracs[0] for fracs in layouts) * width
        across = sum(1 for ln in text_lines if ln.x0 < low and ln.x1 > high)
        if len(text_lines) - across < 0.6 * len(text_lines):
            continue
        for fracs in layouts:
            gutters = [x_min + f * width for f in fracs]
            inside = _column_counts(text_lines, gutters)
            if min(inside) < 4 or sum(inside) < 0.6 * len(text_lines) or min(inside) <= best_score:
                continue
            if len(gutters) == 2 and not _columns_of_text(text_lines, gutters, inside):
                continue
            best, best_score = gutters, min(inside)
        if best:
            return _centred(best, text_lines)
    return []


def _centred(gutters: list[float], lines: list[PdfLine]) -> list[float]:
    """Move each gutter into the white space between the columns it parts.

    The gutters are tried at fixed shares of the page's width; one that lands
    on a column's edge (a line set past the margin widens the page) would
    count that column's lines as lines across the page. Each gutter moves to
    the middle of the widest stretch near it that the fewest lines of three
    words or more cross, when at most one in ten of them crosses it.
    """
    x_min = min(ln.x0 for ln in lines)
    reach = 0.12 * (max(ln.x1 for ln in lines) - x_min)
    spans = [(ln.x0, ln.x1) for ln in lines if len(ln.text.split()) >= 3]
    out: list[float] = []
    for k, g in enumerate(gutters):
        low = max(g - reach, out[-1] + 1 if out else x_min)
        high = min(g + reach, gutters[k + 1] - 1 if k + 1 < len(gutters) else g + reach)
        # coverage changes only at line edges: sweep them, counting the lines over each stretch
        edges = sorted({low, high, *(x for span in spans for x in span if low < x < high)})
        best: tuple[int, float, float] | None = None  # (lines crossing, -width, distance to g)
        middle = g
        for a, b in itertools.pairwise(edges):
            crossing = sum(1 for x0, x1 in spans if x0 < b and x1 > a)
            key = (crossing, -(b - a), abs((a + b) / 2 - g))
            if best is None or key < best:
                best, middle = key, (a + b) / 2
        # (a page of one column with displays in it is crossed everywhere: its gutter stays)
        clear = best is not None and best[0] <= 0.2 * len(spans)
        out.append(middle if clear else g)
    return out


def _rows_in_order(lines: list[PdfLine]) -> list[PdfLine]:
    """Keep pdfium's order but read each table row's cells together, left to right."""
    out: list[PdfLine] = []
    done: set[int] = set()
    for ln in lines:
        if ln.role != "table":
            out.append(ln)
        elif ln.row not in done:
            done.add(ln.row)
            out += sorted((c for c in lines if c.row == ln.row and c.role == "table"), key=lambda c: c.x0)
    return out


def body_size(pages: list[list[PdfLine]]) -> float:
    """Return the body text's font size (the size most characters use).

    Lines in a typewriter face (code listings) count only when the text's own
    faces hold under a quarter of the characters: a reference whose listings
    outweigh its prose (9 pt code beside 11 pt text) keeps the prose's size.
    """
    sizes: Counter[float] = Counter()
    code: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            (code if CODE_FONT.search(ln.font) else sizes)[round(ln.size * 2) / 2] += len(ln.text)
    if sum(sizes.values()) < 0.25 * (sum(sizes.values()) + sum(code.values())):
        sizes += code
    if not sizes:
        return 10.0
    return sizes.most_common(1)[0][0]


def assign_rows(lines: list[PdfLine]) -> None:
    """Give each line its visual row: pieces whose boxes share a baseline share a row."""
    row = -1
    last_bottom = -1e9
    last_top = -1e9
    for ln in sorted(lines, key=lambda ln: (ln.bottom, ln.x0)):
        tolerance = 0.4 * max(ln.height, 1.0)
        if abs(ln.bottom - last_bottom) > tolerance and abs(ln.top - last_top) > tolerance:
            row += 1
            last_bottom, last_top = ln.bottom, ln.top
        ln.row = row


_LABEL = re.compile(
    r"^(?:(?:PART|Part|ITEM|Item|CHAPTER|Chapter|ARTICLE|Article|SECTION|Section|APPENDIX|Appendix|NOTE|Note)"
    r"\s+(?:\d{1,2}\.\d\d|[\dIVXLC]{1,4}[A-Z]?)|\d{1,3}(?:\.\d{1,3})*|[A-Z]|[IVXL]{1,5}) ?[.:)]?$"
)


_WORDED_LABEL = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s+[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?$")


def merge_labels(lines: list[PdfLine]) -> list[PdfLine]:
    """Join a numbering label to the title set a tab away in its row (``Item 1A.`` | ``Risk Factors``).

    Returns the page's lines with each such pair replaced by one line.
    """
    drop: set[int] = set()
    text_size = sorted(ln.size for ln in lines)[len(lines) // 2] if lines else 0.0
    right = right_column_start(lines)
    for pieces in lines_by_row(lines).values():
        if len(pieces) < 2:
            continue
        pieces.sort(key=lambda ln: ln.x0)
        label, title = pieces[0], pieces[1]
        # a numbered label of words in bold, display size, beside its title ("1 API Section" |
        # "Error Handling and Other Global Library Behavior")
        worded = (
            _WORDED_LABEL.match(label.text) is not None
            and label.bold
            and label.size >= 1.3 * text_size
            and abs(label.size - title.size) < 0.6
        )
        if not (_LABEL.match(label.text) or worded) or not title.text[:1].isalpha():
            continue
        if not any(sum(map(str.isalpha, w)) >= 2 for w in title.text.split()):
            continue  # a letter beside a letter ("A" and "B" drawn in a figure) is no label and title
        if len(pieces) > 3 or (len(pieces) == 3 and any(ch.isalpha() for ch in pieces[2].text)):
            continue  # a table row, not a label and its title (a page number may follow)
        if title.x0 - label.x1 > 12 * max(label.size, 1.0):
            continue
        if in_right_column(label, right) != in_right_column(title, right):
            continue  # a figure's label in the left column beside a line of the right one
        label.text = f"{label.text} {title.text}"
        label.title_x = title.x0
        label.x1 = title.x1
        label.top = min(label.top, title.top)
        label.bottom = max(label.bottom, title.bottom)
        label.size = max(label.size, title.size)
        label.bold = title.bold
        label.italic = title.italic
        if worded:
            label.font = title.font  # (the title's face: its wrapped line continues in it)
        drop.add(id(title))
    return [ln for ln in lines if id(ln) not in drop] if drop else lines


def mark_tables(lines: list[PdfLine]) -> None:
    """Mark rows of two or more short cells, in runs of two or more rows, as table rows."""
    if not lines:
        return
    width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
    # on a page of two columns of prose, a row is cut where the right column starts: a line of
    # the right column beside a table in the left one is not one of its cells
    right = right_column_start(lines)
    by_row: dict[tuple[int, bool], list[PdfLine]] = {}
    for ln in lines:
        by_row.setdefault((ln.row, in_right_column(ln, right)), []).append(ln)

    def is_cells(cells: list[PdfLine]) -> bool:
        if any(c.lead for c in cells):
            return False  # a numbered head run into its text a gap away is no table cell
        if len(cells) >= 3:
            return True
        return len(cells) == 2 and all(c.x1 - c.x0 < 0.35 * width for c in cells)

    for side in (False, True):
        rows_sorted = sorted(row for row, s in by_row if s == side)
        multi = {row for row in rows_sorted if is_cells(by_row[row, side])}
        for i, row in enumerate(rows_sorted):
            if row not in multi:
                continue
            neighbours = {rows_sorted[j] for j in (i - 1, i + 1) if 0 <= j < len(rows_sorted)}
            if neighbours & multi:
                for ln in by_row[row, side]:
                    ln.role = "table"


def in_right_column(ln: PdfLine, right: float | None) -> bool:
    """Tell whether ``ln`` stands in the right column that starts at ``right`` (``None``: no such column)."""
    return right is not None and ln.x0 >= right - 3


def right_column_start(lines: list[PdfLine]) -> float | None:
    """Where the right column of a two-column page of prose starts, else ``None``.

    Two left edges each shared by five lines of prose (eight words or more),
    the second beyond a third of the text's width from the first. The right
    column starts at the first such edge: the one past it, shared by its
    paragraphs' indented first lines, is inside the column.
    """
    if not lines:
        return None
    width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
    starts = Counter(round(ln.x0 / 3) for ln in lines if len(ln.text.split()) >= 8)
    edges = sorted(3.0 * k for k, n in starts.items() if n >= 5)
    beyond = [edge for edge in edges[1:] if edge - edges[0] >= 0.35 * width]
    return beyond[0] if beyond else None


def lines_by_row(lines: list[PdfLine]) -> dict[int, list[PdfLine]]:
    """Group a page's lines by visual row (``PdfLine.row``), in page order within each row."""
    by_row: dict[int, list[PdfLine]] = {}
    for ln in lines:
        by_row.setdefault(ln.row, []).append(ln)
    return by_row


def prose_columns(lines: list[PdfLine]) -> set[int]:
    """Return where columns of prose start on a page, as ``round(x0 / 3)``.

    A left edge shared by four lines of six words or more starts a column.
    """
    prose = Counter(round(ln.x0 / 3) for ln in lines if len(ln.text.split()) >= 6)
    return {k for k, n in prose.items() if n >= 4}


def in_other_column(ln: PdfLine, other: PdfLine, columns: set[int]) -> bool:
    """Tell a piece in the other column of a two-column page from a cell of ``ln``'s row.

    ``ln`` starts a column of prose (``columns`` from :func:`prose_columns`)
    and ``other`` lies wholly in another one (an equation's number in the
    left column beside a heading at the top of the right one); or ``ln``
    lies inside the left column, not at its edge (a heading centred in it),
    and ``other`` wholly in a column right of it (a figure's labels).
    """
    if len(columns) < 2:
        return False
    starts = sorted(3.0 * k for k in columns)
    if not {round(ln.x0 / 3) + d for d in (-1, 0, 1)} & columns:
        inside = [edge for edge in starts if edge - 3 <= ln.x0]
        beyond = [edge for edge in starts if inside and edge > inside[-1]]
        # (ln between its column's edge and the next one: a piece crossing a column's edge is a cell)
        return bool(beyond) and ln.x1 < beyond[0] - 6 <= other.x0
    if other.x1 <= ln.x0:
        return True  # wholly left of the column ln starts
    return any(ln.x1 < edge - 6 <= other.x0 for edge in starts)


# ------------------------------------------------------------------ assembly


def _is_heading_role(line: PdfLine) -> bool:
    return line.role in ("heading", "title")


def _joins_hyphenated(prev: PdfLine, ln: PdfLine) -> bool:
    """Tell whether ``prev`` ends in a hyphenated word that ``ln`` completes ("manage-" / "ment")."""
    return (
        prev.role == "body"
        and ln.role == "body"
        and bool(_HYPHEN_END.search(prev.text))
        and ln.text[:1].islower()
    )


def assemble(
    pages: list[list[PdfLine]], heading_first: set[int]
) -> tuple[str, list[PageSpan], dict[int, int]]:
    """Join the ordered lines into one text, recording page spans and line offsets."""
    parts: list[str] = []
    pos = 0
    spans: list[PageSpan] = []
    offsets: dict[int, int] = {}
    starts: list[int] = []
    carry: PdfLine | None = None  # the last line of the previous page
    for page_index, lines in enumerate(pages):
        if page_index > 0:
            first = lines[0] if lines else None
            if carry is not None and first is not None and _joins_hyphenated(carry, first):
                parts[-1] = parts[-1][:-1]  # "manage-" | page break | "ment" -> "management"
                pos -= 1
            else:
                parts.append("\n\n")
                pos += 2
        page_start = pos
        starts.append(page_start)
        prev: PdfLine | None = None
        for ln in lines:
            if prev is not None:
                if prev.role == "table" and ln.role == "table" and prev.row == ln.row:
                    sep = " | "
                elif _joins_hyphenated(prev, ln):
                    parts[-1] = parts[-1][:-1]
                    pos -= 1
                    sep = ""
                elif prev.row == ln.row and ln.x0 >= prev.x1 - 1 and prev.role == ln.role != "heading":
                    sep = " "  # pieces of one row: a TOC entry and its page number
                elif id(ln) in heading_first or _is_heading_role(prev) != _is_heading_role(ln):
                    sep = "\n\n"
                elif prev.role == "table" and ln.role == "table":
                    sep = "\n"
                elif (
                    prev.role == "table"
                    or ln.role == "table"
                    or ln.bottom - prev.bottom > 1.65 * max(prev.size, ln.size, 1.0)
                    or ln.bottom < prev.top
                ):
                    sep = "\n\n"
                else:
                    sep = "\n"
                parts.append(sep)
                pos += len(sep)
            offsets[id(ln)] = pos
            parts.append(ln.text)
            pos += len(ln.text)
            prev = ln
        carry = prev
    # a page runs to where the next one starts (the blank line between them is its own)
    for page_index, page_start in enumerate(starts):
        end = starts[page_index + 1] if page_index + 1 < len(starts) else pos
        spans.append(PageSpan(page_index + 1, page_start, end))
    text = "".join(parts)
    return text, spans, offsets
