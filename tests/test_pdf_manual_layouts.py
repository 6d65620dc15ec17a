"""Heading rules met on long manuals and class guides, checked on small generated PDFs.

Each test writes the layout a producer sets (DocBook through Apache FOP: a
printed contents, table captions above their tables, long lists of codes; a
class guide showing a specimen of its output) and looks at ``doc.sections``
only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _pdfgen import WORDS, Line, Page, write_pdf
from test_pdf_headings import Flow, levels, parse, titles


def _entry(title: str, page: int, *, x: float, y: float) -> Line:
    return Line(f"{title} " + ". " * 30 + str(page), x=x, y=y)


def test_contents_list_that_restarts_the_chapter_numbers_nests_under_its_entry(tmp_path: Path):
    # a DocBook contents: chapters "1." to "3." at the margin, their unnumbered sections indented;
    # an appendix lists the numbered clauses of a licence ("0. Preamble", "1. Applicability")
    # indented under it: they are the appendix's sections, not chapters, and the chapters'
    # indented sections stay below the chapters
    rows = [
        ("1. Introduction", 2, 72),
        ("Getting help", 2, 96),
        ("Mouse buttons", 2, 96),
        ("2. Getting started", 3, 72),
        ("The welcome screen", 3, 96),
        ("3. Menus", 4, 72),
        ("The file menu", 4, 96),
        ("The edit menu", 4, 96),
        ("A. License", 5, 72),
        ("0. Preamble", 5, 96),
        ("1. Applicability", 5, 96),
        ("2. Verbatim copying", 5, 96),
    ]
    contents = Page([Line("Table of Contents", y=720, size=16, bold=True)])
    contents.lines += [_entry(title, page, x=x, y=690 - 18 * k) for k, (title, page, x) in enumerate(rows)]
    f = Flow()
    f.pages = [contents, Page()]
    for title, _, x in rows:
        if x == 72 and title != "1. Introduction":
            f.new_page()
        f.heading(title, 16 if x == 72 else 12).para(3)
    doc = parse(f.write(tmp_path / "manual.pdf"))
    got = levels(doc)
    assert {t: got.get(t) for t in ("1. Introduction", "2. Getting started", "3. Menus", "A. License")} == {
        "1. Introduction": 1,
        "2. Getting started": 1,
        "3. Menus": 1,
        "A. License": 1,
    }
    assert got.get("Getting help") == 2 and got.get("The edit menu") == 2
    assert got.get("0. Preamble") == 2 and got.get("2. Verbatim copying") == 2
    path = next(s.path for s in doc.sections if s.title == "1. Applicability")
    assert path[-2:] == ("A. License", "1. Applicability")


def test_caption_second_line_and_header_row_under_a_table_caption_are_no_headings(tmp_path: Path):
    # a table's caption set above it in bold, a size above the text, wraps onto a second line;
    # the table's header row follows at a line's leading: neither is a section
    f = Flow().heading("Account Tree Menus", 16).para(5)
    f.line("Table 4.2. Account Tree - Edit Menu - Access to file and account editing", size=12, bold=True)
    f.line("operations and preferences.", size=12, bold=True, after=16)
    f.lines.append(Line("Menu Item", x=72, y=f.y, bold=True))
    f.line("Description", x=300, bold=True, after=16)
    for item, text in (("Cut", "Moves the selection"), ("Copy", "Copies the selection"), ("Paste", "Pastes")):
        f.lines.append(Line(item, x=72, y=f.y))
        f.line(text, x=300, after=14)
    f.gap(10).para(4)
    f.heading("Account Register", 16).para(5)
    doc = parse(f.write(tmp_path / "table.pdf"))
    assert titles(doc) == ["Account Tree Menus", "Account Register"]


def test_terms_of_a_list_of_codes_differing_in_their_digits_are_labels(tmp_path: Path):
    # a help manual lists tax codes: each code in italics at the text size over its meaning,
    # set apart like a run-in sub-heading; the codes differ only in their digits, and a label
    # that recurs that way is no section
    f = Flow().heading("Tax Report Options", 16).para(5)
    f.heading("Schedule C codes", 13).para(2)
    meanings = (
        "Gross receipts or sales",
        "Meals and entertainment",
        "Returns and allowances",
        "Wages paid",
        "Legal and professional fees",
        "Rent or lease of vehicles",
    )
    for k, meaning in enumerate(meanings):
        f.gap(20).line(f"Sched C \\ N{293 + k}", italic=True, after=16).line(meaning, after=12)
    f.gap(10).heading("Online Quotes", 16).para(5)
    doc = parse(f.write(tmp_path / "codes.pdf"))
    assert titles(doc) == ["Tax Report Options", "Schedule C codes", "Online Quotes"]


def test_specimen_heading_shown_twice_does_not_break_the_chapter_sequence(tmp_path: Path):
    # a class guide shows the front page its class sets, twice (with and without an option):
    # each specimen prints "1. Introduction" in its own face inside chapter 5; the chapters after
    # it, 6 and 7, still follow chapter 5
    f = Flow()
    for number, name in enumerate(("Introduction", "Differences", "Installation", "Usage"), start=1):
        f.heading(f"{number}. {name}", 14).para(6)
    f.heading("5. Frontmatter", 14).para(5)
    for _ in range(2):
        f.new_page().para(3)
        f.heading("Abstract", 11).para(3)
        f.heading("1. Introduction", 12).para(4)
    f.new_page()
    f.heading("6. Floats", 14).para(6)
    f.heading("7. Theorem environments", 14).para(6)
    doc = parse(f.write(tmp_path / "guide.pdf"))
    got = titles(doc)
    assert "6. Floats" in got and "7. Theorem environments" in got
    assert got.count("1. Introduction") == 1


# sections at 16 pt with numbered captions between them, in bold at 12 pt:
_CAPTIONED = {
    # DocBook titles its numbered examples and procedures like captions, a size above the text
    # ("Procedure 11.2. On macOS", "Example 6.1. Sample file"): not sections; the bookmarks list
    # the sections around them
    "procedures": (
        ("Setting Up Quotes", "Procedure 11.1. On Linux", "Procedure 11.2. On macOS"),
        ("Importing Files", "Example 6.1. Sample Multi-split file"),
        ("Checking the Result",),
    ),
    # a German manual's figure and table captions ("Abbildung 3.1.", "Tabelle 4.1.") and an
    # example's title ("Beispiel 6.1.") are captions, as in English
    "german": (
        (
            "Erste Schritte",
            "Abbildung 3.1. Der Startbildschirm",
            "Tabelle 4.1. Datei-Menue - Zugriff auf Dateien",
            "Beispiel 6.1. Eine Beispieldatei",
        ),
        ("Die Kontenuebersicht",),
    ),
    # Word sets a dash for the stop after a caption's number ("Table 5.1—Format Requirements")
    "dashes": (
        ("Format Requirements", "Table 5.1\u2014Format Requirements", "Figure 6.1 \u2013 A single container"),
        ("Container Format", "Table 6.6\u2014 Read identifier formatting characters"),
    ),
}


@pytest.mark.parametrize("name", sorted(_CAPTIONED))
def test_numbered_captions_and_formal_titles_are_no_headings(tmp_path: Path, name: str):
    f = Flow()
    for section, *captions in _CAPTIONED[name]:
        f.heading(section, 16).para(5)
        for caption in captions:
            f.heading(caption, 12).para(3)
    doc = parse(f.write(tmp_path / f"{name}.pdf"))
    assert titles(doc) == [section for section, *_ in _CAPTIONED[name]]


def test_numbered_heading_tight_under_its_parent_heading_is_a_heading(tmp_path: Path):
    # an appendix heading in bold capitals at the text size, its first section numbered "A.1" set
    # at a line's leading under it, in the same face: the section is set off by the heading above
    f = Flow().heading("1 INTRODUCTION", 10).para(8)
    f.heading("2 RESULTS", 10).para(8)
    f.gap(10).line("A RESEARCH METHODS", bold=True, after=14)
    f.line("A.1 Part One", bold=True, after=14).para(6)
    f.heading("A.2 Part Two", 10).para(6)
    doc = parse(f.write(tmp_path / "appendix.pdf"))
    assert "A.1 Part One" in titles(doc)
    assert levels(doc)["A.1 Part One"] == levels(doc)["A.2 Part Two"] == 2


def test_slides_after_the_last_section_page_stay_inside_that_section(tmp_path: Path):
    # a slide deck: "Section N" pages over the section's title, then slides whose titles are set
    # in the same face; the last section's slides come after the last section page and still
    # belong to it, as the slides of the sections before do; a usual back title set alike
    # ("References") stands beside the sections
    f = Flow()
    deck = (
        (1, "Introduction", ("What it does", "How it works")),
        (2, "Usage", ("Commands", "Scripts", "Selections")),
        (3, "Extensions", ("Program components", "Data structures")),
    )
    for number, name, slides in deck:
        f.line(f"Section {number}", x=200, size=14, after=40).line(name, x=180, size=14, after=20).new_page()
        for slide in slides:
            f.line(slide, size=14, after=24).para(5).new_page()
    f.line("References", size=14, after=24).para(3)
    doc = parse(f.write(tmp_path / "deck.pdf"))
    got = levels(doc)
    assert got.get("Section 3 Extensions") == 1
    assert got.get("Scripts") == 2
    assert got.get("Program components") == 2 and got.get("Data structures") == 2
    assert got.get("References") == 1


def test_section_number_in_a_sans_face_a_little_larger_than_the_text_is_a_heading(tmp_path: Path):
    # a journal sets its sub-sections in a sans face only a tenth larger than its serif text, in
    # regular weight ("2.1 Template Styles" in 10 pt Helvetica over 9 pt Times text): another
    # family, numbered, set apart; the text's own lines stay text
    words = list(WORDS[:13])
    lines: list[Line] = []
    y = 720.0

    def para(n: int) -> None:
        nonlocal y
        for k in range(n):
            lines.append(Line(" ".join(words[k % 3 :] + words[: k % 3]), y=y, size=9, family="Times"))
            y -= 11
        y -= 6

    def head(text: str) -> None:
        nonlocal y
        y -= 8
        lines.append(Line(text, y=y, size=10))
        y -= 16

    head("1 INTRODUCTION")
    para(8)
    head("1.1 Template Styles")
    para(8)
    head("1.2 Template Parameters")
    para(8)
    head("2 RESULTS")
    para(8)
    path = write_pdf(tmp_path / "journal.pdf", [Page(lines)])
    doc = parse(path)
    assert titles(doc) == ["1 INTRODUCTION", "1.1 Template Styles", "1.2 Template Parameters", "2 RESULTS"]
    assert levels(doc)["1.2 Template Parameters"] == 2


def test_line_numbers_in_the_right_margin_make_no_contents_page(tmp_path: Path):
    # a review draft numbers its lines in the right margin too, in small type: rows that end in a
    # rising number read like a contents page, which hid every heading of the page
    lines: list[Line] = []
    y, number = 720.0, 1
    for k, heading in enumerate(("1 Introduction", "2 Template Overview", "3 Modifications")):
        lines.append(Line(heading, y=y, size=12, bold=True))
        y -= 18
        for i in range(7):
            lines.append(Line(" ".join(WORDS[(k * 7 + i + j) % len(WORDS)] for j in range(12)), y=y))
            lines.append(Line(str(number), x=560, y=y, size=6))
            y, number = y - 12, number + 1
        y -= 10
    doc = parse(write_pdf(tmp_path / "draft.pdf", [Page(lines)]))
    assert titles(doc) == ["1 Introduction", "2 Template Overview", "3 Modifications"]
