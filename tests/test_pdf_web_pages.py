"""Headings of web pages printed to PDF by a browser (Chrome's "Save as PDF", headless printing).

A browser keeps the page's bar of links over its text and shows the page's title twice. Each
test builds a small PDF laid out as Chrome prints a manual's page and checks the sections a
user gets from it, outline off.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line, Page, browser_paragraph, write_pdf
from test_pdf_headings import parse, titles

TITLE = "9.16. JSON Functions and Operators"


def _manual_page(tmp_path: Path, *, header: bool, bar: bool) -> list[str]:
    # a manual's page: its title in the header, the bar of links under it, the title again as
    # the page's heading, and its sections
    lines: list[Line] = []
    if header:
        lines.append(Line(TITLE, x=202, y=760, size=12, bold=True))
    if bar:
        links = (("Prev", 37, False), ("Up", 92, False), ("Chapter 9. Functions and Operators", 204, True))
        for text, x, bold in links:
            lines.append(Line(text, x=x, y=743, size=12, bold=bold))
        lines += [Line("Home", x=490, y=743, size=12), Line("Next", x=552, y=743, size=12)]
    lines.append(Line(TITLE, x=34, y=700, size=14.4, bold=True))
    y = browser_paragraph(lines, 675, 1)
    for k, name in enumerate(("Processing and Creating JSON Data", "The SQL/JSON Path Language"), 1):
        lines.append(Line(f"9.16.{k}. {name}", x=34, y=y, size=13.2, bold=True))
        y = browser_paragraph(lines, y - 25, 1 + k, n=5)
    return titles(parse(write_pdf(tmp_path / f"manual-{header}-{bar}.pdf", [Page(lines)])))


EXPECTED = [TITLE, "9.16.1. Processing and Creating JSON Data", "9.16.2. The SQL/JSON Path Language"]


def test_a_bar_of_links_over_the_text_is_no_section(tmp_path: Path):
    # "Prev  Up  Chapter 9. Functions and Operators  Home  Next": its middle link is bold like a heading
    assert _manual_page(tmp_path, header=False, bar=True) == EXPECTED


def test_a_title_repeated_right_under_the_header_is_one_section(tmp_path: Path):
    assert _manual_page(tmp_path, header=True, bar=False) == EXPECTED
    assert _manual_page(tmp_path, header=True, bar=True) == EXPECTED


def test_a_title_repeated_after_text_stays_twice(tmp_path: Path):
    # the same title twice with a paragraph between them: two sections (a summary's title and
    # the section it summarises), not a header's echo
    lines = [Line("Results", x=34, y=760, size=14.4, bold=True)]
    y = browser_paragraph(lines, 735, 1)
    lines.append(Line("Results", x=34, y=y, size=14.4, bold=True))
    browser_paragraph(lines, y - 25, 2, n=5)
    assert titles(parse(write_pdf(tmp_path / "twice.pdf", [Page(lines)]))) == ["Results", "Results"]
