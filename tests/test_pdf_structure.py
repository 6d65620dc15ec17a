"""Document structure of PDFs without bookmarks: printed contents, filings, covers, furniture.

Real 10-Q filings (three producers) are checked against the ground truth
written for them; generated PDFs check one behaviour each.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _pdfgen import Line, Page, body_lines, write_pdf
from _section_checks import check_sections
from sectionrag.parsers.headings import normalize_for_match
from sectionrag.parsers.pdf import PdfParser
from sectionrag.types import Document

ROOT = Path(__file__).resolve().parent.parent
SEC = Path(__file__).parent / "data" / "sec"
TRUTH = json.loads((ROOT / "benchmarks" / "ground_truth" / "sec-10q.json").read_text(encoding="utf-8"))


def parse(path: Path) -> Document:
    doc = PdfParser(use_outline=False).parse(path)
    check_sections(doc)
    return doc


# ------------------------------------------------------------------ real filings


@pytest.mark.parametrize("name", ["2023_Q2_AAPL.pdf", "2023_Q3_MSFT.pdf", "2023_Q2_INTC.pdf"])
def test_filing_parts_and_items_at_their_pages_and_levels(name: str):
    """Every PART and Item (Intel: its own contents headings) found at its page and level."""
    filing = TRUTH["filings"][name]
    doc = parse(SEC / name)
    found = [(normalize_for_match(s.title), s.page_start or 0, s.level) for s in doc.sections]
    for entry in filing["sections"]:
        title = normalize_for_match(entry["title"])
        hits = [f for f in found if f[0] == title and abs(f[1] - entry["page"]) <= 1]
        assert hits, (entry, [f for f in found if f[2] <= 2])
        assert any(level == entry["level"] for _, _, level in hits), (entry, hits)


@pytest.mark.parametrize("name", ["2023_Q2_AAPL.pdf", "2023_Q3_MSFT.pdf", "2023_Q2_INTC.pdf"])
def test_filing_contents_page_and_cover_lines_are_not_sections(name: str):
    filing = TRUTH["filings"][name]
    doc = parse(SEC / name)
    allowed = {normalize_for_match(e["title"]) for e in filing["sections"]}
    allowed |= {"table of contents", "contents", "index"}
    first_contents = min(filing["contents_pages"])
    for s in doc.sections:
        if s.page_start in filing["contents_pages"]:
            assert normalize_for_match(s.title) in allowed, s
        assert (s.page_start or 0) >= first_contents, s  # the cover page has no sections
    # with the sections nested right, only PART and Item headings (and the contents title, a
    # signature block) are at the top two levels of a filing printed with PART and Item headings
    if filing["structure"] == "sec":
        top = [s.title for s in doc.sections if s.level <= 2]
        extra = [t for t in top if normalize_for_match(t) not in allowed]
        assert len(extra) <= 2, extra


def test_filing_running_header_repeating_part_and_item_is_not_a_section():
    doc = parse(SEC / "2023_Q3_MSFT.pdf")  # every page is headed "PART I" / "Item 1"
    assert sum(1 for s in doc.sections if normalize_for_match(s.title) == "part i") == 0
    assert sum(1 for s in doc.sections if s.title.upper().startswith("PART I.")) == 1


def test_filing_sub_headings_nest_below_their_item():
    doc = parse(SEC / "2023_Q2_AAPL.pdf")
    item2 = next(s for s in doc.sections if s.title.startswith("Item 2. Management"))
    inside = [s for s in doc.sections if item2.start < s.start < item2.end]
    assert len(inside) >= 5
    assert all(s.level > item2.level and s.path[: item2.level] == item2.path for s in inside)


# ------------------------------------------------------------------ printed contents


def _contents_document(tmp_path: Path, *, with_contents: bool = True) -> Path:
    """Cover, contents (chapter rows bold with page numbers apart), then chapters whose headings
    are all in the same bold body-size face, so that only the contents tells the levels."""
    cover = Page(
        [
            Line("ANNUAL REVIEW", x=200, y=600, size=28, bold=True),
            Line("of the Widget Company", x=200, y=560, size=20, bold=True),
            Line("Prepared by the Board", x=200, y=520, size=16),
        ]
    )
    chapters = [("Overview", ["Markets", "Products"]), ("Operations", ["Plants", "Logistics", "Staff"])]
    contents = Page([Line("Contents", y=720, size=16, bold=True)])
    body_pages: list[Page] = []
    y = 690.0
    page_number = 3
    for chapter, sections in chapters:
        contents.lines += [Line(chapter, y=y, bold=True), Line(str(page_number), x=520, y=y, bold=True)]
        y -= 16
        page = Page([Line(chapter, y=720, bold=True)])
        lines, py = body_lines(6, len(body_pages) + 1, 700)
        page.lines += lines
        for section in sections:
            contents.lines += [Line(section, x=90, y=y), Line(str(page_number), x=520, y=y)]
            y -= 14
            py -= 14
            page.lines.append(Line(section, y=py, bold=True))
            lines, py = body_lines(5, len(page.lines), py - 14)
            page.lines += lines
        page.lines.append(Line(str(page_number), x=300, y=40, size=9))
        body_pages.append(page)
        page_number += 1
    pages = [cover, contents, *body_pages] if with_contents else [cover, *body_pages]
    return write_pdf(tmp_path / "contents.pdf", pages)


def test_printed_contents_gives_levels_and_keeps_its_own_lines_out(tmp_path: Path):
    doc = parse(_contents_document(tmp_path))
    levels = {s.title: s.level for s in doc.sections}
    assert levels == {
        "Contents": 1,
        "Overview": 1,
        "Markets": 2,
        "Products": 2,
        "Operations": 1,
        "Plants": 2,
        "Logistics": 2,
        "Staff": 2,
    }
    overview = next(s for s in doc.sections if s.title == "Overview")
    assert overview.page_start == 3  # the heading on its page, not the contents entry on page 2
    assert doc.metadata["title"].startswith("ANNUAL REVIEW")  # the cover is the title, not sections


def test_without_contents_the_same_headings_are_one_level(tmp_path: Path):
    """What the contents adds: the same pages without it cannot tell chapters from sections."""
    doc = parse(_contents_document(tmp_path, with_contents=False))
    assert {s.level for s in doc.sections if s.title in ("Overview", "Markets")} == {1}


def test_item_label_a_tab_away_from_its_title_is_one_heading(tmp_path: Path):
    pages = []
    for part, items in (("PART I", ["1.", "2."]), ("PART II", ["1.", "1A."])):
        page = Page([Line(part, x=250, y=720, size=12, bold=True)])
        y = 690.0
        for label in items:
            page.lines += [
                Line(f"Item {label}", x=72, y=y, bold=True),
                Line(f"Title of item {label.rstrip('.')} here", x=140, y=y, bold=True),
            ]
            lines, y = body_lines(5, len(page.lines), y - 16)
            page.lines += lines
            y -= 16
        pages.append(page)
    doc = parse(write_pdf(tmp_path / "items.pdf", pages))
    titles = [(s.title, s.level) for s in doc.sections]
    assert ("Item 1A. Title of item 1A here", 2) in titles
    assert ("PART II", 1) in titles


def test_figures_beside_a_bold_row_label_make_a_table_row_not_a_heading(tmp_path: Path):
    page = Page([Line("Balance Sheets", y=720, size=14, bold=True)])
    y = 690.0
    for label, value in (("Total assets", "352,755"), ("Total liabilities", "302,083"), ("Equity", "50,672")):
        page.lines += [Line(label, y=y, bold=True), Line(value, x=400, y=y), Line(value, x=480, y=y)]
        y -= 14
    page.lines += body_lines(6, 3, y - 20)[0]
    intro = Page([Line("Financial Review", y=720, size=14, bold=True), *body_lines(20, 1, 690)[0]])
    doc = parse(write_pdf(tmp_path / "table.pdf", [intro, page]))
    assert [s.title for s in doc.sections] == ["Financial Review", "Balance Sheets"]


def test_quotation_and_its_attribution_are_not_headings(tmp_path: Path):
    page = Page([Line("1 Beginnings", y=720, size=16, bold=True)])
    page.lines += [
        Line("\u201cA journey starts with one step.\u201d", x=120, y=690, italic=True),
        Line("\u2014Old saying", x=200, y=676, italic=True),
    ]
    page.lines += body_lines(8, 2, 650)[0]
    doc = parse(write_pdf(tmp_path / "quote.pdf", [page]))
    assert [s.title for s in doc.sections] == ["1 Beginnings"]


# ------------------------------------------------------------------ furniture


def test_same_text_on_every_page_is_kept_not_removed_as_furniture(tmp_path: Path):
    """Three pages with nothing but the same short text: that text is the document, not a header."""
    pages = [Page([Line("Quarterly summary", x=72, y=720)]) for _ in range(3)]
    doc = PdfParser().parse(write_pdf(tmp_path / "same.pdf", pages))
    assert doc.text.count("Quarterly summary") == 3
    assert all(doc.text[p.start : p.end].strip() for p in doc.pages)


def test_running_header_still_removed_when_pages_have_body_text(tmp_path: Path):
    pages = []
    for number in range(1, 4):
        lines = [Line("Quarterly summary", x=72, y=760, size=8)]
        lines += body_lines(20, number, 720)[0]
        lines.append(Line(str(number), x=300, y=40, size=8))
        pages.append(Page(lines))
    doc = PdfParser().parse(write_pdf(tmp_path / "header.pdf", pages))
    assert "Quarterly summary" not in doc.text


def test_contents_in_two_columns_reads_each_column_with_its_own_indents(tmp_path: Path):
    """Eight chapters in two columns of contents; chapter and section headings look the same."""
    chapters = [(f"Topic {name}", [f"First part of {name}", f"Second part of {name}"]) for name in "ABCDEFGH"]
    contents = Page([Line("Contents", y=740, size=18, bold=True)])
    pages = []
    for i, (chapter, sections) in enumerate(chapters):
        x = 72.0 if i < 4 else 320.0
        y = 700.0 - (i % 4) * 60
        number = str(3 + i)
        contents.lines += [Line(chapter, x=x, y=y, bold=True), Line(number, x=x + 200, y=y, bold=True)]
        for k, section in enumerate(sections, start=1):
            contents.lines += [Line(section, x=x + 12, y=y - 14 * k), Line(number, x=x + 200, y=y - 14 * k)]
        page = Page([Line(chapter, y=720, bold=True)])
        py = 700.0
        for section in sections:
            lines, py = body_lines(6, i + len(page.lines), py)
            page.lines += [*lines, Line(section, y=py - 14, bold=True)]
            py -= 30
        page.lines += body_lines(4, i, py)[0]
        page.lines.append(Line(number, x=300, y=40, size=9))
        pages.append(page)
    cover = Page([Line("The Book of Topics", x=150, y=500, size=30, bold=True)])
    doc = parse(write_pdf(tmp_path / "two-columns.pdf", [cover, contents, *pages]))
    levels = {s.title: (s.level, s.page_start) for s in doc.sections}
    for i, (chapter, sections) in enumerate(chapters):
        assert levels[chapter] == (1, 3 + i)
        for section in sections:
            assert levels[section] == (2, 3 + i)


def test_list_of_figures_after_the_contents_does_not_dilute_it(tmp_path: Path):
    """Contents, then a longer list of figures on the next pages: the contents still gives levels."""
    chapters = [("Overview", ["Markets", "Products"]), ("Operations", ["Plants", "Logistics"])]
    contents = Page([Line("Contents", y=720, size=16, bold=True)])
    figures = [Page([Line("Figures", y=720, size=16, bold=True)]), Page()]
    body_pages: list[Page] = []
    y = 690.0
    for number, (chapter, sections) in enumerate(chapters, start=1):
        page_number = str(number)
        contents.lines += [Line(chapter, y=y, bold=True), Line(page_number, x=520, y=y, bold=True)]
        y -= 16
        page = Page([Line(chapter, y=720, bold=True)])
        py = 700.0
        for section in sections:
            contents.lines += [Line(section, x=90, y=y), Line(page_number, x=520, y=y)]
            y -= 14
            lines, py = body_lines(6, number + len(page.lines), py)
            page.lines += [*lines, Line(section, y=py - 14, bold=True)]
            py -= 30
        page.lines += body_lines(4, number, py)[0]
        page.lines.append(Line(page_number, x=300, y=40, size=9))
        body_pages.append(page)
    for k in range(40):  # 40 figures over two pages, far more than the contents' 6 entries
        page = figures[k // 20]
        fy = 690.0 - (k % 20) * 14
        # the figures are on the chapters' pages
        page.lines += [Line(f"A diagram of part {k + 1}", y=fy), Line(str(4 + k // 10), x=520, y=fy)]
    doc = parse(write_pdf(tmp_path / "figures.pdf", [contents, *figures, *body_pages]))
    levels = {s.title: s.level for s in doc.sections}
    assert levels["Overview"] == 1 and levels["Markets"] == 2 and levels["Logistics"] == 2
    assert not any(s.title.startswith("A diagram") for s in doc.sections)
