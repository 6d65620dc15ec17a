from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

import sectionrag
from _pdfgen import Line, Page, body_lines, report, write_pdf
from _section_checks import check_sections
from sectionrag.errors import ParseError
from sectionrag.parsers._pdf_outline import read_outline
from sectionrag.parsers.pdf import PdfParser

DATA = Path(__file__).parent / "data" / "pdf"
ROOT = Path(__file__).resolve().parent.parent


def _heading_eval():
    spec = importlib.util.spec_from_file_location("heading_eval", ROOT / "benchmarks" / "heading_eval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- real PDFs


def test_outline_sections_placed_at_their_headings():
    doc = PdfParser().parse(DATA / "clsguide.pdf")
    assert doc.metadata["sections_from"] == "outline"
    assert len(doc.pages) == 33
    check_sections(doc)
    titles = [s.title for s in doc.sections]
    assert "1.2 Overview" in titles
    overview = doc.sections[titles.index("1.2 Overview")]
    assert doc.text[overview.start :].startswith("1.2 Overview\n")
    assert overview.page_start == 3
    assert overview.path == ("1 Introduction", "1.2 Overview")


@pytest.mark.parametrize(
    ("name", "min_f1"),
    [
        ("clsguide.pdf", 0.85),
        ("amsldoc.pdf", 0.85),
        ("testflow_doc.pdf", 0.85),
        ("sample-sigconf.pdf", 0.85),
        ("texlive-en.pdf", 0.85),
        # not made by TeX: LibreOffice, Apache FOP (DocBook), ReportLab
        ("annual-report-libreoffice.pdf", 0.90),
        ("x-protocol-security-analysis.pdf", 0.90),
        ("icccm.pdf", 0.85),
        # its bookmarks stop at level 2 while the pages show level 3 and 4 headings too
        ("reportlab-userguide.pdf", 0.55),
        # 615 pages; chapters of specimen headings, and bookmarks that list the index's 51
        # letters, which the parser takes for no sections (most producers' bookmarks leave them out)
        ("memman.pdf", 0.85),
        # producers added later: groff (gropdf), cairo (an HTML page printed to PDF)
        ("groff-mom-pdf.pdf", 0.90),
        ("groff-automake.pdf", 0.90),
        ("sil-charis-features.pdf", 0.85),
        # second round: bold headings smaller than the text (LibreOffice), a centred paper title
        ("gutenprint-users-manual.pdf", 0.90),
        ("llncsdoc.pdf", 0.90),
    ],
)
def test_heading_detection_against_outline(name: str, min_f1: float):
    row = _heading_eval().evaluate(DATA / name)
    assert row.f1 >= min_f1, row
    assert row.f1_in_depth >= (0.85 if name == "memman.pdf" else 0.90), row
    assert row.level_agreement >= 0.85, row


@pytest.mark.parametrize(
    "name",
    [
        "aastex-sample631.pdf",  # line numbers in the margin; some bookmarks name headings differently
        "mnras-guide.pdf",  # running heads with folios; sample table titles in the title's face
        "dccpaper.pdf",  # a journal banner above the title; bookmarks of code files
        "hagenberg-thesis-en.pdf",  # bookmarks that shorten the chapter titles printed
        "confproc-dafx-paper.pdf",  # authors and affiliations side by side in the title block
    ],
)
def test_heading_detection_on_papers_and_theses(name: str):
    row = _heading_eval().evaluate(DATA / name)
    assert row.f1_in_depth >= 0.80, row
    assert row.recall >= 0.80, row
    assert row.level_agreement >= 0.90, row


def test_annual_report_structure_without_outline():
    """A LibreOffice 10-K: PART > Item > topic > italic sub-topic, contents page and furniture ignored."""
    doc = PdfParser(use_outline=False).parse(DATA / "annual-report-libreoffice.pdf")
    check_sections(doc)
    by_title = {s.title: s for s in doc.sections}
    item = by_title[
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
    ]
    assert item.path[0].startswith("PART II")
    liquidity = by_title["Liquidity and Capital Resources"]
    assert liquidity.path[:2] == item.path and liquidity.level == 3
    assert by_title["Cash Flows"].path[:3] == liquidity.path
    # contents entries, risk-factor captions and the running header are not sections
    assert sum(1 for s in doc.sections if s.title.startswith("Item 7.")) == 1
    assert not any(s.title.endswith(".") and "could" in s.title for s in doc.sections)
    assert "Annual Report 2025" not in doc.text[doc.pages[3].start : doc.pages[3].end]


@pytest.mark.parametrize(
    "name", ["clsguide.pdf", "amsldoc.pdf", "testflow_doc.pdf", "sample-sigconf.pdf", "texlive-en.pdf"]
)
def test_outline_order_is_text_order(name: str):
    """Bookmarks placed in reading order come out in outline order (two-column pages included)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(DATA / name))
    try:
        expected = [title for _, title, _, _ in read_outline(pdf)]
    finally:
        pdf.close()
    doc = PdfParser().parse(DATA / name)
    assert [s.title for s in doc.sections] == expected
    check_sections(doc)


def test_text_is_clean():
    doc = PdfParser().parse(DATA / "texlive-en.pdf")
    for bad in ("\ufb01", "\ufb02", "\ufffe", "\x02", "\u00ad", "\x00"):
        assert bad not in doc.text
    # running page numbers are gone: no line is a bare number
    lines = doc.text.split("\n")
    assert sum(1 for ln in lines if ln.strip().isdigit()) < 0.2 * len(doc.pages)


def test_two_column_paper_reads_column_by_column():
    doc = PdfParser(use_outline=False).parse(DATA / "sample-sigconf.pdf")
    check_sections(doc)
    intro = next(s for s in doc.sections if s.title.lower().endswith("introduction"))
    body = doc.text[intro.start : intro.end]
    # the section's first paragraph follows its heading, not text of the other column
    assert "ACM" in body[:400]


# ----------------------------------------------------------- generated PDFs


def test_generated_report_headers_footers_removed_and_levels(tmp_path: Path):
    pages, outline = report(12)
    path = write_pdf(tmp_path / "report.pdf", pages, outline)
    doc = PdfParser(use_outline=False).parse(path)
    check_sections(doc)
    assert "ACME Corp Annual Report" not in doc.text
    assert not any(line.strip().isdigit() for line in doc.text.split("\n"))
    levels = {s.title: s.level for s in doc.sections}
    assert levels["PART 1"] == 1
    assert levels["1. Section 1 of Part 1"] == 2
    assert levels["1.1 Details of Section 1 in Part 1"] == 3
    with_outline = PdfParser().parse(path)
    assert [s.title for s in with_outline.sections] == [s.title for s in doc.sections]


def test_tables_columns_and_hyphens(tmp_path: Path):
    left_right = [Line("Two Column Layout Heading", y=740, size=18, bold=True)]
    y = 700.0
    for i in range(20):  # content stream interleaves the two columns
        left_right.append(Line(f"left column line {i} alpha beta with more words here", x=72, y=y))
        left_right.append(Line(f"right column line {i} gamma delta with more words too", x=320, y=y))
        y -= 12
    second = [Line("Results Table", y=720, size=14, bold=True)]
    y = 690.0
    for r in range(4):
        for c, x in enumerate((72, 200, 330, 460)):
            second.append(Line(f"r{r}c{c}", x=x, y=y))
        y -= 14
    second += [Line("The board expects strong manage-", y=600), Line("ment of costs next year.", y=588)]
    path = write_pdf(tmp_path / "layout.pdf", [Page(left_right), Page(second)])
    doc = PdfParser().parse(path)
    text = doc.text
    assert text.index("left column line 19") < text.index("right column line 0")
    assert "r0c0 | r0c1 | r0c2 | r0c3\nr1c0 | r1c1 | r1c2 | r1c3" in text
    assert "strong management of costs" in text
    table_section = next(s for s in doc.sections if s.title == "Results Table")
    assert "r3c3" in text[table_section.start : table_section.end]
    assert doc.pages[1].start <= table_section.start


def test_hyphen_across_page_break_is_rejoined(tmp_path: Path):
    first, _ = body_lines(30, seed=1, y=720)
    first.append(Line("Results depend on careful manage-", y=first[-1].y - 12))
    second = [Line("ment of working capital through the year.", y=720)]
    more, _ = body_lines(30, seed=2, y=708)
    pages = [Page([*first, Line("1", x=300, y=40)]), Page([*second, *more, Line("2", x=300, y=40)])]
    doc = PdfParser().parse(write_pdf(tmp_path / "break.pdf", pages))
    assert "careful management of working capital" in doc.text
    assert "manage-" not in doc.text
    # the word straddles the page boundary; pages stay contiguous and cover the text
    start = doc.text.index("careful management") + len("careful ")
    assert doc.pages[0].start < start < doc.pages[1].start < start + len("management")
    assert doc.pages[0].end == doc.pages[1].start and doc.pages[-1].end == len(doc.text)
    assert doc.pages_for(start, start + len("management")) == (1, 2)
    # a capitalised continuation is not a broken word: "Anglo-" / "Saxon" keeps its hyphen
    pages[0].lines[-2] = Line("The merger of the Anglo-", y=first[-1].y - 12)
    pages[1].lines[0] = Line("Saxon firms went ahead in May.", y=720)
    doc = PdfParser().parse(write_pdf(tmp_path / "keep.pdf", pages))
    assert "Anglo-" in doc.text


def test_page_spans_cover_text(tmp_path: Path):
    pages = [Page([Line(f"Page {i} heading text", y=700, size=14, bold=True)]) for i in range(3)]
    pages.insert(1, Page([]))  # an empty page in the middle
    for page in pages:
        page.lines += body_lines(5, 3, 660)[0]
    doc = PdfParser().parse(write_pdf(tmp_path / "p.pdf", pages))
    assert [p.number for p in doc.pages] == [1, 2, 3, 4]
    check_sections(doc)


# ----------------------------------------------------------------- hard inputs


def test_encrypted_without_and_with_password():
    path = DATA / "encrypted.pdf"
    with pytest.raises(ParseError, match=r"encrypted\.pdf.*encrypted.*password"):
        sectionrag.parse(path)
    doc = sectionrag.parse(path, password="user")
    assert "Confidential body text" in doc.text
    with pytest.raises(ParseError, match="wrong password"):
        PdfParser(password="nope").parse(path)


@pytest.mark.parametrize("keep", [100, 3000, 300_000])
def test_truncated_pdf(tmp_path: Path, keep: int):
    path = tmp_path / "cut.pdf"
    path.write_bytes((DATA / "clsguide.pdf").read_bytes()[:keep])
    try:
        doc = sectionrag.parse(path)
    except ParseError as e:
        assert "cut.pdf" in str(e) and ("corrupt" in str(e) or "no page" in str(e))
    else:  # pdfium may repair it: then the result must be real text
        assert doc.text.strip() and doc.pages


def test_garbage_after_header(tmp_path: Path):
    path = tmp_path / "junk.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 20)
    with pytest.raises(ParseError, match=r"junk\.pdf.*corrupt"):
        sectionrag.parse(path)


def test_not_a_pdf_binary(tmp_path: Path):
    path = tmp_path / "fake.pdf"
    path.write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(ParseError, match=r"fake\.pdf.*not a PDF"):
        sectionrag.parse(path)


def test_scanned_pdf_without_text_layer(tmp_path: Path):
    path = write_pdf(tmp_path / "scan.pdf", [Page(image=True), Page(image=True)])
    with pytest.raises(ParseError, match=r"scan\.pdf.*no text layer.*OCR"):
        sectionrag.parse(path)


def test_empty_file(tmp_path: Path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(ParseError, match=r"empty\.pdf.*empty"):
        sectionrag.parse(path)
    with pytest.raises(ParseError, match=r"empty\.pdf.*empty"):
        PdfParser().parse(path)


def test_zero_page_pdf(tmp_path: Path):
    path = write_pdf(tmp_path / "zero.pdf", [])
    with pytest.raises(ParseError, match=r"zero\.pdf.*no pages"):
        sectionrag.parse(path)


def test_extension_lies_pdf_named_txt(tmp_path: Path):
    path = tmp_path / "notes.txt"
    path.write_bytes((DATA / "encrypted.pdf").read_bytes())
    with pytest.raises(ParseError, match="encrypted"):
        sectionrag.parse(path)  # dispatched to the PDF parser by content
    path.write_bytes(write_pdf(tmp_path / "x.pdf", report(1)[0]).read_bytes())
    assert sectionrag.parse(path).metadata["format"] == "pdf"


def test_600_pages_fast_and_complete(tmp_path: Path):
    pages, outline = report(600)
    path = write_pdf(tmp_path / "long.pdf", pages, outline)
    start = time.perf_counter()
    doc = PdfParser(use_outline=False).parse(path)
    elapsed = time.perf_counter() - start
    assert len(doc.pages) == 600
    assert sum(1 for s in doc.sections if s.level == 1) == 60
    assert sum(1 for s in doc.sections if s.level == 2) == 1200
    assert doc.sections[-1].path == (
        "PART 60",
        "20. Section 20 of Part 60",
        "20.1 Details of Section 20 in Part 60",
    )
    assert elapsed < 60, elapsed
    check_sections(doc)


def test_page_with_thousands_of_tiny_text_objects(tmp_path: Path):
    ops = []
    for i in range(6000):
        x = 40 + (i % 100) * 5.3
        y = 760 - (i // 100) * 11
        ops.append(b"BT /F1 4 Tf %.1f %.1f Td (%s) Tj ET" % (x, y, bytes([97 + i % 26])))
    page = Page([Line("Dense Page", y=775, size=14, bold=True)], raw=b"\n".join(ops))
    path = write_pdf(tmp_path / "dense.pdf", [page, Page(body_lines(5, 1, 700)[0])])
    start = time.perf_counter()
    doc = PdfParser().parse(path)
    assert time.perf_counter() - start < 20
    assert len(doc.text) > 5000
    check_sections(doc)


@pytest.mark.parametrize(
    ("name", "min_f1", "min_recall"),
    [
        ("classicthesis.pdf", 0.75, 0.65),  # letter-spaced titles, small-capitals sections, parts
        ("oup-authoring-template.pdf", 0.75, 0.70),  # a banner over the title; "Abstract" in its own face
    ],
)
def test_heading_levels_on_books_and_papers_with_title_blocks(name: str, min_f1: float, min_recall: float):
    row = _heading_eval().evaluate(DATA / name)
    assert row.f1_in_depth >= min_f1, row
    assert row.recall >= min_recall, row
    assert row.level_agreement >= 0.90, row
