"""Headings of documents set in languages other than English, and the layouts they came with.

Each test builds a small PDF with the layout a real document uses (French, Spanish and
Portuguese manuals) and checks the sections a user gets from it, outline off.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line, body_lines
from test_pdf_headings import Flow, parse, titles


def _outdented(tmp_path: Path, label_beside_text: bool) -> list[str]:
    # a class manual: sections in 14 pt bold set out at x=86, sub-sections in 12 pt bold at x=100,
    # the text at x=142; "Usage" ends before the text's left edge
    f = Flow(x=142)
    f.heading("Compilation", 14, x=86).para(4)
    f.heading("Usage", 14, x=86)
    f.heading("Options of the class", 12, x=100).para(4)
    f.heading("Options of the package", 12, x=100).para(3)
    if label_beside_text:
        f.gap(8)
        f.lines.append(Line("NOTE", x=86, y=f.y, size=10, bold=True))
        lines, f.y = body_lines(3, 9, f.y, x=142)
        f.lines.extend(lines)
    f.heading("Examples", 14, x=86).para(4)
    return titles(parse(f.write(tmp_path / "outdented.pdf")))


def test_a_short_heading_set_out_left_of_the_text_on_a_row_of_its_own_is_a_heading(tmp_path: Path):
    assert _outdented(tmp_path, label_beside_text=False) == [
        "Compilation",
        "Usage",
        "Options of the class",
        "Options of the package",
        "Examples",
    ]


def test_a_label_in_the_margin_beside_a_line_of_text_is_still_no_heading(tmp_path: Path):
    got = _outdented(tmp_path, label_beside_text=True)
    assert "NOTE" not in got
    assert "Usage" in got
