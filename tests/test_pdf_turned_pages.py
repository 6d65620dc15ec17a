"""Pages shown turned (``/Rotate``) read as they show, and contents set in columns stay contents.

pdfium measures characters in the page's user space. A landscape page stored
as a portrait one turned a quarter (``/Rotate 90``, its text drawn upwards)
showed its lines as narrow vertical strips: every line a cell of a "table", its
headings lost. Boxes are now taken into the page as shown (``PageFrame``).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from _pdfgen import WORDS, Line, Page, write_pdf
from _section_checks import check_sections
from sectionrag.parsers._pdf_faces import rising
from sectionrag.parsers._pdfium import PageFrame, PdfLine
from sectionrag.parsers.pdf import PdfParser


@given(
    st.sampled_from([0, 90, 180, 270]),
    st.floats(0, 612, allow_nan=False),
    st.floats(0, 792, allow_nan=False),
)
def test_property_a_point_shown_maps_back_to_user_space(rotation: int, x: float, y: float):
    frame = PageFrame(rotation, 612.0, 792.0)
    left, top, right, bottom = frame.box(x, y, x, y)
    assert (left, top) == (right, bottom)
    back = frame.user_point(left, top)
    assert abs(back[0] - x) < 1e-9 and abs(back[1] - y) < 1e-9
    shown_width, shown_height = (792.0, 612.0) if rotation in (90, 270) else (612.0, 792.0)
    assert -1e-9 <= left <= shown_width + 1e-9 and -1e-9 <= top <= shown_height + 1e-9


def test_a_box_drawn_upwards_on_a_page_turned_clockwise_runs_across():
    # (a character 9 wide and 12 high as shown, drawn upwards at the portrait page's left edge)
    frame = PageFrame(90, 612.0, 792.0)
    assert frame.box(60.0, 100.0, 72.0, 109.0) == (100.0, 60.0, 109.0, 72.0)


def _paragraph(lines: list[Line], x: float, y: float, seed: int, n: int = 8) -> float:
    for i in range(n):
        words = [WORDS[(seed * 7 + i * 5 + k) % len(WORDS)] for k in range(8)]
        lines.append(Line(" ".join(words) + ("." if i == n - 1 else ""), x=x, y=y))
        y -= 13
    return y - 10


def test_landscape_pages_in_two_columns_turned_a_quarter_read_as_shown(tmp_path: Path):
    """Before, the columns' lines were narrow strips side by side: a table, no heading found."""
    heads = [("1 Introduction", 16), ("1.1 Scope of the review", 12), ("2 Results", 16), ("2.1 Revenue", 12)]
    pages = []
    for k in range(2):
        lines: list[Line] = []
        for column, x in enumerate((60.0, 420.0)):
            title, size = heads[2 * k + column]
            lines.append(Line(title, x=x, y=560, size=size, bold=True))
            y = _paragraph(lines, x, 538, 3 * k + column)
            _paragraph(lines, x, y, 5 * k + column + 1)
        pages.append(Page(lines, landscape=True))
    pdf = write_pdf(tmp_path / "landscape.pdf", pages)
    doc = PdfParser(use_outline=False).parse(pdf)
    check_sections(doc)
    assert [(s.level, s.title) for s in doc.sections] == [
        (1, "1 Introduction"),
        (2, "1.1 Scope of the review"),
        (1, "2 Results"),
        (2, "2.1 Revenue"),
    ]
    assert [s.page_start for s in doc.sections] == [1, 1, 2, 2]
    first = doc.sections[0]
    assert doc.text[first.start :].startswith("1 Introduction\n")


def _entry(text: str, column: int, row: int) -> PdfLine:
    x, top = 30 + 280 * column, 80 + 24 * row
    return PdfLine(text, x, x + 180, top, top + 12, 12.0, True, False, "Arial-BoldMT", 0)


def test_a_contents_in_columns_read_row_by_row_still_rises():
    # (a report's contents in two columns whose rows came in as a table's, row by row: 2, 10, 3, 11 ...)
    entries = [(column, row, 2 + 8 * column + row) for row in range(8) for column in range(2)]
    lines = [_entry(f"{column}.{row} Title {'.' * 12} {page}", column, row) for column, row, page in entries]
    assert rising(lines)
    # (an index's numbers rise neither way: they follow the alphabet)
    pages = [41, 7, 90, 12, 3, 66, 25, 8, 71, 30, 2, 55, 19, 80, 4, 37, 60, 11]
    index = [_entry(f"Term {'.' * 12} {page}", k % 2, k // 2) for k, page in enumerate(pages)]
    assert not rising(index)


def test_a_ruled_table_on_a_turned_page_is_read_cell_by_cell(tmp_path: Path):
    """pdfplumber finds the grid as the page shows; each cell's text is read where it stands."""
    import pytest

    pytest.importorskip("pdfplumber")
    from sectionrag.parsers._plumber_tables import ruled_tables

    rows = [["Region", "Revenue", "Margin"], ["North", "1,204", "12.5%"], ["South", "988", "9.1%"]]
    left, top, width, height = 100.0, 500.0, 150.0, 24.0  # (as shown: x right, y up, 792 by 612)
    lines = [Line("Quarterly results by region", x=100, y=540, size=14, bold=True)]
    rules = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x, y = left + c * width, top - r * height
            lines.append(Line(cell, x=x + 6, y=y - 16, size=10))
            # (the cell's rectangle in the portrait user space: shown (x, y) is drawn at (612 - y, x))
            rules.append(b"%.2f %.2f %.2f %.2f re S" % (612 - y, x, height, width))
    lines.append(
        Line("The table above lists the quarter's revenue and margin by region for review.", x=100, y=400)
    )
    pdf = write_pdf(tmp_path / "turned-table.pdf", [Page(lines, landscape=True, raw=b"\n".join(rules))])
    (table,) = ruled_tables(pdf)[0]  # (before, its cells were read where the page does not show them)
    assert [list(cells) for _, _, cells in table.rows] == rows
    doc = PdfParser(tables=True).parse(pdf)
    for row in rows:
        assert " | ".join(row) in doc.text
