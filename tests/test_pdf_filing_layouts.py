"""Structure met in financial filings, checked on small generated PDFs.

A quarterly report set smaller than the exhibits filed behind it, notes to
the financial statements in the ways filers print them (a bold mixed-case
title, a centred capitals title over bold sub-headings, a label a tab away
from its title), and a paper's page of references set smaller than its text
(the same per-page text face), each looked at through ``doc.sections`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from _pdfgen import Line, Page, body_lines, write_pdf
from test_pdf_headings import Flow, levels, parse, titles
from test_pdf_paper_layouts import _centre


def _small_text(lines: list[Line], y: float, n: int, seed: int, size: float = 8.0) -> float:
    """``n`` lines of twelve words at ``size`` from ``y`` down; returns the next line's height."""
    words = ["the", "company", "reported", "net", "sales", "for", "the", "quarter", "driven", "by"]
    words += ["higher", "services", "revenue", "and"]
    for i in range(n):
        text = " ".join(words[(seed + i + k) % len(words)] for k in range(12))
        lines.append(Line(text + ("." if i == n - 1 else ""), x=72, y=y, size=size))
        y -= size + 2
    return y - 8


def _mdna_page(heads: tuple[str, ...]) -> Page:
    """A page of a report set at 8 pt: its Item 2 title, then ``heads`` in bold 8 pt over paragraphs."""
    page = Page()
    page.lines.append(Line("Item 2. Management's Discussion and Analysis", x=72, y=720, size=8, bold=True))
    y = _small_text(page.lines, 700, 6, 1)
    for k, head in enumerate(heads):
        page.lines.append(Line(head, x=72, y=y - 6, size=8, bold=True))
        y = _small_text(page.lines, y - 22, 7, 3 * k + 2)
    return page


def _filed_with_exhibits(pages: list[Page], path: Path) -> Path:
    """Write ``pages`` followed by six pages of 10 pt exhibits (the document's body size), numbered."""
    for n in range(6):
        page = Page()
        y = 720.0
        if n in (0, 3):
            page.lines.append(Line(f"Exhibit 10.{n // 3 + 1}", x=72, y=y, size=12, bold=True))
            y -= 24
        lines, _ = body_lines(44, n + 20, y)
        page.lines.extend(lines)
        pages.append(page)
    for number, p in enumerate(pages, start=1):
        p.lines.append(Line(str(number), x=300, y=40, size=9))
    return write_pdf(path, pages)


def test_report_set_smaller_than_the_exhibits_behind_it_keeps_its_bold_headings(tmp_path: Path):
    # a quarterly report set at 8 pt, its sub-headings bold at the text's size, filed with long
    # exhibits set at 10 pt: the exhibits hold most of the characters, so the document's body size
    # is theirs; the report's pages (and its page of statements, with few long lines) still judge
    # their headings against their own 8 pt text
    pages = [_mdna_page(("Segment Operating Performance", "Gross Margin", "Operating Expenses"))]
    page = Page()  # statements: a bold title over rows of figures, one long line
    page.lines.append(Line("Condensed Balance Sheets", x=72, y=720, size=8, bold=True))
    _small_text(page.lines, 700, 1, 9)
    for k, row in enumerate(("Total current assets", "Property, plant and equipment", "Total assets")):
        page.lines.append(Line(row, x=72, y=670 - 12 * k, size=8))
        page.lines.append(Line(f"{135 + k},405", x=400, y=670 - 12 * k, size=8))
    pages.append(page)
    page = Page()
    page.lines.append(Line("Liquidity and Capital Resources", x=72, y=720, size=8, bold=True))
    _small_text(page.lines, 700, 8, 5)
    pages.append(page)
    doc = parse(_filed_with_exhibits(pages, tmp_path / "filing.pdf"))
    got = titles(doc)
    for head in (
        "Segment Operating Performance",
        "Gross Margin",
        "Operating Expenses",
        "Condensed Balance Sheets",
        "Liquidity and Capital Resources",
    ):
        assert head in got, got
    assert not [t for t in got if t.startswith(("the company", "Total"))], got


def _filing_with_notes(note: Callable[[int, str], list[Line]], tmp_path: Path) -> Path:
    """A statement page, then three notes (each from ``note``) with bold sub-headings, then MD&A."""
    pages: list[Page] = []
    page = Page()
    page.lines.append(Line("PART I \u2014 FINANCIAL INFORMATION", x=72, y=720, size=10, bold=True))
    page.lines.append(Line("Item 1. Financial Statements", x=72, y=700, size=10, bold=True))
    y = _small_text(page.lines, 680, 6, 1, size=9)
    block = "Notes to Condensed Consolidated Financial Statements"
    page.lines.append(Line(block, x=72, y=y - 6, size=9, bold=True))
    y = _small_text(page.lines, y - 24, 3, 2, size=9)
    pages.append(page)
    # (the last note has no sub-heading: what follows it, an auditor's report or the next item, is
    # no part of it)
    subs = {1: ["Basis of Presentation", "Earnings Per Share"], 2: ["Operating Leases", "Term Debt"], 3: []}
    for n, title in ((1, "Summary of Accounting Policies"), (2, "Leases"), (3, "Debt")):
        page = Page()
        page.lines.extend(note(n, title))
        y = _small_text(page.lines, 680, 4, n + 3, size=9)
        for k, sub in enumerate(subs[n]):
            page.lines.append(Line(sub, x=72, y=y - 6, size=9, bold=True))
            y = _small_text(page.lines, y - 24, 5, n + k + 7, size=9)
        pages.append(page)
    page = Page()
    page.lines.append(Line("Item 2. Management's Discussion and Analysis", x=72, y=720, size=10, bold=True))
    y = _small_text(page.lines, 700, 6, 11, size=9)
    page.lines.append(Line("Liquidity and Capital Resources", x=72, y=y - 6, size=9, bold=True))
    _small_text(page.lines, y - 24, 6, 12, size=9)
    pages.append(page)
    for number, p in enumerate(pages, start=1):
        p.lines.append(Line(str(number), x=300, y=40, size=8))
    return write_pdf(tmp_path / "notes.pdf", pages)


def _check_notes(doc: Any, label: Callable[[int, str], str]) -> None:
    got = levels(doc)
    block = got["Notes to Condensed Consolidated Financial Statements"]
    notes = [label(n, t) for n, t in ((1, "Summary of Accounting Policies"), (2, "Leases"), (3, "Debt"))]
    assert all(got.get(t) == block + 1 for t in notes), got
    for sub in ("Basis of Presentation", "Earnings Per Share", "Operating Leases", "Term Debt"):
        assert got.get(sub) == block + 2, got
    # outside the notes, the same bold face heads the discussion's own sections
    assert got["Liquidity and Capital Resources"] == got["Item 2. Management's Discussion and Analysis"] + 1


def test_bold_notes_set_like_their_sub_headings_hold_them(tmp_path: Path):
    # "Note 1 - Summary of Accounting Policies" in the bold text face that its sub-headings use too:
    # the numbered label says which is which, and the notes nest under the block's heading
    def note(n: int, title: str) -> list[Line]:
        return [Line(f"Note {n} \u2013 {title}", x=72, y=720, size=9, bold=True)]

    doc = parse(_filing_with_notes(note, tmp_path))
    _check_notes(doc, lambda n, t: f"Note {n} \u2013 {t}")


def test_centred_capitals_notes_over_bold_sub_headings_hold_them(tmp_path: Path):
    # "NOTE 2 \u2014 LEASES" centred in the regular face at the text's size, with the first sub-heading
    # set right under it in bold: a heading (not display type), and above the bolder sub-headings
    def note(n: int, title: str) -> list[Line]:
        text = f"NOTE {n} \u2014 {title.upper()}"
        return [Line(text, x=306 - 2.6 * len(text), y=720, size=9)]

    def first_sub_under_note(n: int, title: str) -> list[Line]:
        return [*note(n, title), Line(f"{title} in Brief", x=72, y=702, size=9, bold=True)]

    doc = parse(_filing_with_notes(first_sub_under_note, tmp_path))
    _check_notes(doc, lambda n, t: f"NOTE {n} \u2014 {t.upper()}")
    got = levels(doc)
    assert got["Leases in Brief"] == got["NOTE 2 \u2014 LEASES"] + 1, got


def test_note_label_a_tab_away_from_its_title_joins_it(tmp_path: Path):
    # "Note 1 :" and "Basis of Presentation" set as two pieces of one row, a tab apart
    def note(n: int, title: str) -> list[Line]:
        return [Line(f"Note {n} :", x=72, y=720, size=11), Line(title, x=140, y=720, size=11)]

    doc = parse(_filing_with_notes(note, tmp_path))
    assert [t for t in titles(doc) if t.startswith("Note ")] == [
        "Note 1 : Summary of Accounting Policies",
        "Note 2 : Leases",
        "Note 3 : Debt",
    ]


def test_note_numbering_needs_a_number_a_stop_and_a_title():
    from sectionrag.parsers.headings import classify, normalize_for_match

    for text, rest in (
        ("Note 1 \u2013 Summary of Accounting Policies", "Summary of Accounting Policies"),
        ("NOTE 7 \u2014 GOODWILL", "GOODWILL"),
        ("Note 7 : Income Taxes", "Income Taxes"),
        ("Note 12. Leases", "Leases"),
    ):
        style = classify(text)
        assert style is not None and style.kind == "note" and style.rest == rest, text
    # an admonition, a bare label and a sentence about a note are no notes' headings
    for text in ("Note: the figures are unaudited", "Note 1", "Note that the figures are unaudited"):
        style = classify(text)
        assert style is None or style.kind != "note", text
    assert normalize_for_match("NOTE 7 \u2014 GOODWILL") == normalize_for_match("Goodwill")


def test_item_numbering_is_a_whole_number_of_one_or_two_digits():
    from sectionrag.parsers.headings import classify

    for text, label in (("Item 1A. Risk Factors", "Item 1A"), ("ITEM 7A\u2014QUANTITATIVE", "ITEM 7A")):
        style = classify(text)
        assert style is not None and style.kind == "item" and style.label == label, text
    # a paragraph about item 176 of a memo is no "Item 17" with the title "6 (Gosper): ..."
    style = classify("Item 176 (Gosper): The banana phenomenon was encountered")
    assert style is None or style.kind != "item"


def test_current_report_items_carry_two_decimals():
    from sectionrag.parsers.headings import classify

    cases = (("Item 2.02 Results of Operations", "Item 2.02"), ("ITEM 9.01. EXHIBITS", "ITEM 9.01"))
    for text, label in cases:
        style = classify(text)
        assert style is not None and style.kind == "item" and style.label == label, text


def _current_report(items: list[list[list[Line]]], tmp_path: Path) -> Any:
    """A one-page current report: each item's heading rows (bold lines), then a paragraph under it."""
    page = Page()
    page.lines.append(Line("FORM 8-K", x=270, y=760, size=14, bold=True))
    y = 720.0
    for k, rows in enumerate(items):
        for row in rows:
            for ln in row:
                ln.y = y
                page.lines.append(ln)
            y -= 13
        y = _small_text(page.lines, y - 7, 5, k + 2, size=10)
    return parse(write_pdf(tmp_path / "8k.pdf", [page]))


def test_current_report_items_a_tab_away_from_their_titles_keep_their_labels(tmp_path: Path):
    items = [
        ("Item 2.02", "Results of Operations and Financial Condition."),
        ("Item 2.03", "Creation of a Direct Financial Obligation."),
        ("Item 7.01", "Regulation FD Disclosure."),
        ("Item 9.01", "Financial Statements and Exhibits."),
    ]
    doc = _current_report(
        [
            [[Line(label, x=72, size=10, bold=True), Line(title, x=144, size=10, bold=True)]]
            for label, title in items
        ],
        tmp_path,
    )
    assert [t for t in titles(doc) if t.startswith("Item")] == [f"{label} {title}" for label, title in items]


def test_a_long_item_title_wrapped_in_bold_is_one_heading(tmp_path: Path):
    first = "Item 5.02 Departure of Directors or Certain Officers; Election of Directors; Appointment of"
    second = "Certain Officers; Compensatory Arrangements of Certain Officers."
    doc = _current_report(
        [
            [[Line("Item 2.02 Results of Operations and Financial Condition.", x=72, size=10, bold=True)]],
            [[Line(first, x=72, size=10, bold=True)], [Line(second, x=72, size=10, bold=True)]],
            [[Line("Item 9.01 Financial Statements and Exhibits.", x=72, size=10, bold=True)]],
        ],
        tmp_path,
    )
    assert [t for t in titles(doc) if t.startswith("Item")] == [
        "Item 2.02 Results of Operations and Financial Condition.",
        f"{first} {second}",
        "Item 9.01 Financial Statements and Exhibits.",
    ]


def test_page_of_references_set_smaller_keeps_the_heading_above_them(tmp_path: Path):
    # a paper's last page: its references at 7 pt, each entry a long line and a short one, under a
    # bold 9 pt heading; the page reads by its references' face, whose leading is the distance
    # between neighbouring lines (not between the long lines, which skip the short ones)
    pages: list[Page] = []
    for n, head in enumerate(("Introduction", "Related Work", "Method")):  # 9 pt text, bold 9 pt heads
        page = Page()
        page.lines.append(Line(f"{n + 1} {head}", x=72, y=720, size=9, bold=True))
        _small_text(page.lines, 700, 40, n, size=9)
        pages.append(page)
    page = Page()
    page.lines.append(Line("Acknowledgments", x=72, y=740, size=9, bold=True))
    y = _small_text(page.lines, 722, 2, 8, size=9)
    page.lines.append(Line("References", x=72, y=y - 8, size=9, bold=True))
    y -= 28
    for k in range(28):
        entry = f"[{k + 1}] A. Author and B. Author. 2020. A title of a paper on widgets"
        page.lines.append(Line(entry, x=72, y=y, size=7))
        page.lines.append(Line("and frames. In Proceedings.", x=80, y=y - 8.5, size=7))
        y -= 20
    pages.append(page)
    for number, p in enumerate(pages, start=1):
        p.lines.append(Line(str(number), x=300, y=40, size=8))
    got = titles(parse(write_pdf(tmp_path / "refs.pdf", pages)))
    assert "Acknowledgments" in got and "References" in got, got
    assert got[:3] == ["1 Introduction", "2 Related Work", "3 Method"], got


def test_notes_nest_below_a_block_heading_that_the_contents_places():
    # the printed contents lists "Notes to ..." (level 3) but not the notes, which the contents
    # ranking set level with it: they and their sub-headings move one level down, the next item not
    from sectionrag.parsers._pdf_headings import Candidate
    from sectionrag.parsers._pdf_levels import _notes_below_listed_block

    def cand(title: str, toc_level: int | None = None) -> Candidate:
        return Candidate([], title, 9.0, True, 5, False, 0, 0, toc_level=toc_level)

    titles_ = ["Notes to Financial Statements", "Note 1 - Leases", "Term Debt", "Note 2 - Debt"]
    titles_ += ["Note 3 - Equity", "Item 2. Discussion"]
    candidates = [
        cand(t, 3 if t.startswith("Notes") else 2 if t.startswith("Item") else None) for t in titles_
    ]
    ranks = [3, 3, 4, 3, 3, 2]
    _notes_below_listed_block(candidates, ranks, [1, 3, 4])
    assert ranks == [3, 4, 5, 4, 4, 2]


def test_a_certifications_centred_title_is_one_heading_and_a_continued_title_no_new_section(tmp_path: Path):
    # an exhibit's title in bold capitals centred over three lines, its first breaking after "TO"
    # before a line that opens on a label ("SECTION 906"); a statement's title repeated on a later
    # page with "(Continued)" continues its section
    f = Flow().para(4).heading("NOTES TO FINANCIAL STATEMENTS", 12).para(6).para(6)
    f.new_page()
    f.lines.append(Line("NOTES TO FINANCIAL STATEMENTS (Continued)", x=200, y=f.y, bold=True))
    f.lines.append(Line("(Unaudited)", x=270, y=f.y - 12, bold=True))
    f.y -= 40
    f.para(6).para(6)
    f.new_page()
    opening = "In connection with the Quarterly Report of the Company on Form 10-Q for the quarter"
    title = ["CERTIFICATION PURSUANT TO", "SECTION 906 OF THE SARBANES-OXLEY ACT OF 2002", "(18 U.S.C. 1350)"]
    for text in title:
        f.lines.append(Line(text, y=f.y, bold=True))
        f.y -= 12
    _centre(f.lines[-3:], Line(opening), tmp_path)
    f.y -= 16
    f.line(opening).para(6)
    doc = parse(f.write(tmp_path / "exhibit.pdf"))
    assert titles(doc) == [
        "NOTES TO FINANCIAL STATEMENTS",
        "CERTIFICATION PURSUANT TO SECTION 906 OF THE SARBANES-OXLEY ACT OF 2002 (18 U.S.C. 1350)",
    ]
    notes = doc.sections[0]
    assert doc.pages[1].start < notes.end  # the continued page stays in the notes' section


def _statement_rows(f: Flow, labels: list[str], *, pitch: float = 12.0) -> None:
    """Rows of a statement: a label at the left, two figures in columns at the right."""
    for k, label in enumerate(labels):
        f.lines.append(Line(label, x=72, y=f.y))
        f.lines.append(Line(f"{1200 + 37 * k:,}", x=400, y=f.y))
        f.lines.append(Line(f"{980 + 41 * k:,}", x=490, y=f.y))
        f.y -= pitch


def test_a_tables_group_labels_and_column_heads_set_alone_in_their_rows_are_no_sections(tmp_path: Path):
    # a balance sheet: bold group labels ("Assets", "Liabilities") alone in their rows between its
    # rows of figures, a bold column head ("Reported as") alone over its columns at the right; a
    # bold heading over a table keeps a heading's space under it and stays a section
    f = Flow().heading("Item 1. Financial Statements", 12).para(3)
    f.heading("Condensed Balance Sheets", 10)
    f.lines.append(Line("Reported as", x=470, y=f.y, bold=True))
    f.y -= 12
    f.lines.append(Line("June 30, 2023", x=390, y=f.y, bold=True))
    f.lines.append(Line("June 30, 2022", x=480, y=f.y, bold=True))
    f.y -= 16
    f.lines.append(Line("Assets", x=72, y=f.y, bold=True))
    f.y -= 12
    _statement_rows(f, ["Cash and cash equivalents", "Accounts receivable", "Inventories", "Total assets"])
    f.y -= 8
    f.lines.append(Line("Liabilities", x=72, y=f.y, bold=True))
    f.y -= 12
    _statement_rows(f, ["Accounts payable", "Accrued expenses", "Total liabilities"])
    f.y -= 10
    f.para(3).heading("Revenue by Segment", 10).gap(4)
    _statement_rows(f, ["Products", "Services", "Total revenue"])
    f.y -= 10
    f.para(4)
    doc = parse(f.write(tmp_path / "statements.pdf"))
    assert titles(doc) == ["Item 1. Financial Statements", "Condensed Balance Sheets", "Revenue by Segment"]


def test_a_label_opening_on_an_amount_is_no_section(tmp_path: Path):
    # a walk from one period's operating income to the next: bold totals opening on their amounts
    # ("2,073 Q3 2023 Operating Income", "(139) Q3 2022 ...") between lines of changes; a section
    # number is never written with a thousands separator, nor as three digits in parentheses
    f = Flow().heading("Operating Income Summary", 12).para(3)
    f.lines.append(Line("2,073 Q3 2023 Operating Income", x=90, y=f.y, bold=True))
    f.y -= 12
    for change in ("562 Lower period charges from the sell-through", "352 Lower operating expenses"):
        f.line(change, x=90)
    f.lines.append(Line("(139) Q3 2022 Operating Income", x=90, y=f.y, bold=True))
    f.y -= 18
    f.para(4).heading("Gross Margin", 12).para(4)
    doc = parse(f.write(tmp_path / "walk.pdf"))
    assert titles(doc) == ["Operating Income Summary", "Gross Margin"]


def test_a_statements_title_over_its_notes_in_parentheses_is_a_section_and_its_notes_are_not(tmp_path: Path):
    # a statement's centred bold title over its unit note and "(Unaudited)", both bold and set
    # tight under it: the title is a section (the notes make it no bold paragraph), the notes are not
    f = Flow().heading("Item 1. Financial Statements", 12).para(3)
    f.y -= 14
    for text, x in (
        ("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", 183),
        ("(In millions, except per share data)", 233),
        ("(Unaudited)", 282),
    ):
        f.lines.append(Line(text, x=x, y=f.y, bold=True))
        f.y -= 11
    f.y -= 14
    f.lines.append(Line("June 30, 2023", x=390, y=f.y, bold=True))
    f.lines.append(Line("June 30, 2022", x=480, y=f.y, bold=True))
    f.y -= 16
    _statement_rows(f, ["Revenue", "Cost of revenue", "Gross profit", "Net income"])
    f.y -= 10
    f.para(4)
    doc = parse(f.write(tmp_path / "income.pdf"))
    assert titles(doc) == ["Item 1. Financial Statements", "CONDENSED CONSOLIDATED STATEMENTS OF INCOME"]


def test_statement_titles_over_a_note_centred_under_them_are_sections(tmp_path: Path):
    # each statement opens its page with a bold centred title over "(In millions)" centred under
    # it in the text's face: the note is no definition's description, the titles are no terms
    f = Flow().heading("Item 1. Financial Statements", 12).para(3)
    titles_printed = [
        "CONDENSED STATEMENTS OF OPERATIONS (Unaudited)",
        "CONDENSED STATEMENTS OF COMPREHENSIVE INCOME (Unaudited)",
        "CONDENSED BALANCE SHEETS (Unaudited)",
        "CONDENSED STATEMENTS OF CASH FLOWS (Unaudited)",
    ]
    notes = [
        "(In millions)",
        "(In millions, except per share data)",
        "(In thousands)",
        "(In millions of dollars)",
    ]
    for title, text in zip(titles_printed, notes, strict=True):
        f.new_page()
        head = Line(title, y=f.y, bold=True)
        note = Line(text, y=f.y - 11)  # (each page its own note: one repeated is a running head)
        _centre([head, note], Line("x" * 90), tmp_path)
        f.lines.extend([head, note])
        f.y -= 36
        f.para(6)
    doc = parse(f.write(tmp_path / "statements.pdf"))
    assert titles(doc) == ["Item 1. Financial Statements", *titles_printed]


def test_a_signers_name_and_title_under_a_conformed_signature_are_no_sections(tmp_path: Path):
    # a filing's signature page and a certification's end: "/s/ Andrew R. Jassy", then the name
    # again and the signer's title in bold; the block under the "/s/" line is no section
    f = Flow().heading("SIGNATURES", 12).para(2)
    f.line("AMAZON.COM, INC. (REGISTRANT)", x=300)
    f.line("By: /s/ Shelley L. Reynolds", x=300, after=14)
    f.lines.append(Line("Shelley L. Reynolds", x=340, y=f.y, bold=True))
    f.y -= 13
    f.lines.append(Line("Vice President, Worldwide Controller", x=340, y=f.y, bold=True))
    f.y -= 13
    f.line("(Principal Accounting Officer)", x=340, after=20)
    f.line("Dated: August 3, 2023", x=72, after=20)
    f.new_page().heading("CERTIFICATIONS", 12).para(6)
    f.line("/s/ Andrew R. Jassy", x=300, after=14)
    f.lines.append(Line("Andrew R. Jassy", x=300, y=f.y, bold=True))
    f.y -= 13
    f.lines.append(Line("President and Chief Executive Officer", x=300, y=f.y, bold=True))
    f.y -= 30
    f.heading("Certification Pursuant to 18 U.S.C. Section 1350", 12).para(4)
    doc = parse(f.write(tmp_path / "signatures.pdf"))
    assert titles(doc) == ["SIGNATURES", "CERTIFICATIONS", "Certification Pursuant to 18 U.S.C. Section 1350"]


def test_sub_headings_naming_products_that_open_in_lower_case_are_sections(tmp_path: Path):
    # a product line's name opens in lower case with a capital inside ("iPhone", "iPad"): it is a
    # name, not a sentence's lower-case start, and heads its paragraph like "Mac" and "Services"
    f = Flow().heading("Products and Services Performance", 12).para(3)
    for name in ("iPhone", "Mac", "iPad", "Services"):
        f.heading(name, 10).para(3)
    f.heading("Gross Margin", 12).para(3)
    assert levels(parse(f.write(tmp_path / "products.pdf"))) == {
        "Products and Services Performance": 1,
        "iPhone": 2,
        "Mac": 2,
        "iPad": 2,
        "Services": 2,
        "Gross Margin": 1,
    }


def test_a_report_page_with_a_tables_footnotes_set_smaller_keeps_its_bold_headings(tmp_path: Path):
    # the report is set at 8 pt and its exhibits at 10 pt (the document's body size); one page of
    # the report ends in a table's footnotes at 7 pt: they are notes, not the page's prose, and the
    # bold 8 pt headings above them still head sections
    pages = [_mdna_page(("Segment Operating Performance", "Americas", "Europe"))]
    page = Page()
    page.lines.append(Line("Products and Services Performance", x=72, y=720, size=8, bold=True))
    y = _small_text(page.lines, 700, 3, 2)
    page.lines.append(Line("iPhone", x=72, y=y - 6, size=8, bold=True))
    y = _small_text(page.lines, y - 22, 3, 4)
    y = _small_text(page.lines, y, 4, 6, size=7)  # the table's footnotes
    pages.append(page)
    got = titles(parse(_filed_with_exhibits(pages, tmp_path / "filing.pdf")))
    assert "Americas" in got
    assert "Products and Services Performance" in got
    assert "iPhone" in got


def test_light_sub_headings_a_tenth_larger_than_the_text_are_sections_where_they_recur(tmp_path: Path):
    # a segment's "Revenue Summary" and "Operating Income Summary" in the text's regular face, set
    # 10.9 pt over 10 pt text (a tenth larger) on lines of their own, again under every segment:
    # a recurring light heading face, as a word processor's third heading level is
    segments = ("Client Computing", "Data Center", "Network and Edge")
    f = Flow()
    for segment in segments:
        f.heading(segment, 14).para(3)
        for head in ("Revenue Summary", "Operating Income Summary"):
            f.heading(head, 10.9, bold=False).para(3)
    doc = parse(f.write(tmp_path / "segments.pdf"))
    assert [(s.level, s.title) for s in doc.sections] == [
        (level, title)
        for segment in segments
        for level, title in ((1, segment), (2, "Revenue Summary"), (2, "Operating Income Summary"))
    ]
