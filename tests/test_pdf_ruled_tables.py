"""Tables drawn with rules: their head cells are no sections, boxed headings still are.

A browser, a word processor or FrameMaker prints a table's column heads in
bold at the text's size, alone in their row ("Operator" over "Description"
over "Example(s)"): from the text alone that is a heading over a paragraph.
The rules drawn round the cells say otherwise. Each test builds a small PDF
and checks the sections a user gets from it, outline off.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pypdfium2 as pdfium
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from _pdfgen import Line, Page, browser_paragraph, write_pdf
from sectionrag.parsers._pdf_headings import Candidate
from sectionrag.parsers._pdf_levels import _without_labels
from sectionrag.parsers._pdf_rules import mark_ruled_cells
from sectionrag.parsers._pdfium import extract_page_lines
from test_pdf_headings import parse, titles

LEFT, RIGHT = 36.0, 576.0


def _para(lines: list[Line], y: float, seed: int, n: int = 3) -> float:
    return browser_paragraph(lines, y, seed, n, x=40)


def _rule(x0: float, y0: float, x1: float, y1: float) -> bytes:
    return b"0.75 w %.2f %.2f m %.2f %.2f l S" % (x0, y0, x1, y1)


def _box(x0: float, y0: float, x1: float, y1: float) -> bytes:
    return b"0.75 w %.2f %.2f %.2f %.2f re S" % (x0, y0, x1 - x0, y1 - y0)


def _table(lines: list[Line], top: float, *, cells_boxed: bool) -> tuple[float, list[bytes]]:
    """A table of two columns' worth of text in cells stacked under a bold head cell, as Chrome prints one."""
    ops: list[bytes] = []
    head = [("Operator", 40), ("Description", 60), ("Example(s)", 60)]
    body = [
        ["json -> integer -> json", "Extracts the n'th element of a JSON array.", "'[1,2,3]'::json -> 2"],
        [
            "json ->> text -> text",
            "Extracts the field with the given key, as text.",
            "'{\"a\":1}'::json ->> 'a'",
        ],
    ]
    edges = [top]
    y = top - 14
    for text, x in head:
        lines.append(Line(text, x=x, y=y, size=12, bold=True))
        y -= 14
    edges.append(y + 4)
    y -= 10
    for row in body:
        for k, text in enumerate(row):
            lines.append(
                Line(text, x=40 if k == 0 else 60, y=y, size=12 if k == 1 else 10, family="Helvetica")
            )
            y -= 14
        edges.append(y + 4)
        y -= 10
    if cells_boxed:  # each cell its own box (Chrome)
        for a, b in itertools.pairwise(edges):
            ops.append(_box(LEFT, b, RIGHT, a))
    else:  # one frame, a rule between the rows (a word processor)
        ops.append(_rule(LEFT, edges[0], LEFT, edges[-1]))
        ops.append(_rule(RIGHT, edges[0], RIGHT, edges[-1]))
        ops.extend(_rule(LEFT, e, RIGHT, e) for e in edges)
    return edges[-1] - 20, ops


def _manual(tmp_path: Path, name: str, *, cells_boxed: bool = True, rules: bool = True) -> list[str]:
    lines = [Line("9.16. JSON Functions and Operators", x=LEFT, y=740, size=14.4, bold=True)]
    y = _para(lines, 715, 1)
    y, ops = _table(lines, y, cells_boxed=cells_boxed)
    lines.append(Line("9.16.1. Processing and Creating JSON Data", x=LEFT, y=y - 10, size=13.2, bold=True))
    _para(lines, y - 35, 2, n=5)
    raw = b"\n".join(ops) if rules else b""
    return titles(parse(write_pdf(tmp_path / name, [Page(lines, raw=raw)])))


EXPECTED = ["9.16. JSON Functions and Operators", "9.16.1. Processing and Creating JSON Data"]


def test_the_head_cell_of_a_table_of_boxed_cells_is_no_section(tmp_path: Path):
    assert _manual(tmp_path, "boxed.pdf", cells_boxed=True) == EXPECTED


def test_the_head_cell_of_a_framed_table_with_row_rules_is_no_section(tmp_path: Path):
    assert _manual(tmp_path, "framed.pdf", cells_boxed=False) == EXPECTED


def test_without_its_rules_the_same_head_reads_as_a_heading(tmp_path: Path):
    # the text alone is a bold line over paragraphs: the rules are the evidence, not its words
    assert "Operator" in _manual(tmp_path, "bare.pdf", rules=False)


def test_a_heading_in_a_box_of_its_own_stays_a_section(tmp_path: Path):
    # a banner: the box closes round the heading alone and the text under it is not boxed
    lines = [Line("Getting Started", x=44, y=740, size=12, bold=True)]
    y = _para(lines, 712, 1, n=4)
    lines.append(Line("Configuration", x=44, y=y, size=12, bold=True))
    _para(lines, y - 28, 2, n=4)
    ops = [_box(LEFT, 734, RIGHT, 754), _box(LEFT, y - 6, RIGHT, y + 14)]
    got = titles(parse(write_pdf(tmp_path / "banner.pdf", [Page(lines, raw=b"\n".join(ops))])))
    assert got == ["Getting Started", "Configuration"]


def test_a_frame_round_the_page_marks_no_line(tmp_path: Path):
    # a border round the whole page and a rule under the running head: no line sits in a cell
    lines = [
        Line("Annual Report", x=44, y=758, size=12, bold=True),
        Line("Overview", x=44, y=720, size=14, bold=True),
    ]
    _para(lines, 695, 1, n=6)
    ops = [_box(24, 24, 588, 768), _rule(24, 752, 588, 752)]
    path = write_pdf(tmp_path / "frame.pdf", [Page(lines, raw=b"\n".join(ops))])
    page = pdfium.PdfDocument(path)[0]
    got = extract_page_lines(page, 0)
    mark_ruled_cells(page, got)
    assert got and not any(ln.ruled for ln in got)
    assert "Overview" in titles(parse(path))


def test_cells_of_ruled_tables_count_toward_a_recurring_label():
    # "Dataset Result" heads three tables without rules and one with them: four times a table's
    # head, a label; three alone stay headings (a title may recur three times)
    def head(page: int, cells: int) -> Candidate:
        return Candidate([], "Dataset Result", 12.0, True, 9, False, page, 0, cell_repeats=cells)

    assert len(_without_labels([head(p, 0) for p in range(3)])) == 3
    assert _without_labels([head(p, 1) for p in range(3)]) == []


def test_a_page_drawn_with_more_objects_than_a_table_has_is_not_read(tmp_path: Path):
    # a plan or a map of tens of thousands of strokes: its drawing is not listed, so a table on it
    # is read from its text alone (as before rules were read), and the parse stays fast
    lines: list[Line] = [Line("9.16. JSON Functions and Operators", x=LEFT, y=740, size=14.4, bold=True)]
    y = _para(lines, 715, 1)
    _, ops = _table(lines, y, cells_boxed=True)
    strokes = [b"%d %d m %d %d l S" % (k % 500, k % 700, k % 500 + 1, k % 700 + 1) for k in range(20_001)]
    path = write_pdf(tmp_path / "plan.pdf", [Page(lines, raw=b"\n".join([*ops, *strokes]))])
    page = pdfium.PdfDocument(path)[0]
    got = extract_page_lines(page, 0)
    mark_ruled_cells(page, got)
    assert not any(ln.ruled for ln in got)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.floats(0, 600), st.floats(0, 790), st.floats(0.1, 600), st.floats(0.1, 790), st.booleans()
        ),
        max_size=12,
    )
)
@example([(290.0, 594.0, 110.0, 18.0, True), (290.0, 560.0, 110.0, 34.0, True)])  # "Name" in a head cell
def test_rules_mark_only_lines_inside_them(tmp_path: Path, shapes):
    # whatever is drawn, a marked line has a box's side at or left of its start and a box's side at
    # or right of its end, both level with it (horizontal strokes alone never make a cell)
    lines = [
        Line("Overview", x=LEFT, y=740, size=14, bold=True),
        Line("Name", x=300, y=600, size=12, bold=True),
    ]
    _para(lines, 715, 1, n=4)
    ops = [_box(x, y, x + w, y + h) if boxed else _rule(x, y, x + w, y) for x, y, w, h, boxed in shapes]
    path = write_pdf(tmp_path / "random.pdf", [Page(lines, raw=b"\n".join(ops))])
    page = pdfium.PdfDocument(path)[0]
    got = extract_page_lines(page, 0)
    mark_ruled_cells(page, got)
    # the boxes' sides, top-down: (x, top, bottom)
    sides = [(side, 792 - (y + h), 792 - y) for x, y, w, h, boxed in shapes if boxed for side in (x, x + w)]
    for ln in got:
        if ln.ruled:
            middle = (ln.top + ln.bottom) / 2
            level = [x for x, top, bottom in sides if top - 2 <= middle <= bottom + 2]
            assert any(x <= ln.x0 + 2 for x in level) and any(x >= ln.x1 - 2 for x in level)
