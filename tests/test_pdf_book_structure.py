"""Structure a reader expects from books, papers and statements, on small generated PDFs.

Each test lays out one kind of page that heading detectors get wrong (a cover,
a two-line chapter opening, a wrapped numbered heading, an epigraph, a
financial statement, front matter before chapter 1) and checks the section
tree: which titles are sections, at what level, under which parent.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line, Page, body_lines, write_pdf
from sectionrag.types import Document
from test_pdf_headings import Flow, parse, section, titles


def tree(doc: Document) -> list[tuple[int, str]]:
    return [(s.level, s.title) for s in doc.sections]


def _cover(f: Flow, *, authors: bool = True) -> None:
    """A cover page: the title on two lines, a subtitle, authors, a date; no prose."""
    f.lines.append(Line("Managing Storage", x=150, y=620, size=28, bold=True))
    f.lines.append(Line("Volumes", x=150, y=586, size=28, bold=True))
    f.lines.append(Line("A practical guide for administrators", x=150, y=540, size=16))
    if authors:
        for k, name in enumerate(("Ada Lovelace", "Charles Babbage", "Grace Hopper")):
            f.lines.append(Line(name, x=150, y=470 - 20 * k, size=14, bold=True))
    f.lines.append(Line("Second Edition, March 2021", x=150, y=380, size=12))
    f.new_page()


def test_cover_page_lines_are_the_title_not_sections(tmp_path: Path):
    f = Flow()
    _cover(f)
    f.heading("1 Introduction", 14).para(6).heading("1.1 Audience", 12).para(6)
    f.heading("2 Volumes", 14).para(6).heading("2.1 Creating a volume", 12).para(6)
    doc = parse(f.write(tmp_path / "cover.pdf"))
    assert tree(doc) == [
        (1, "1 Introduction"),
        (2, "1.1 Audience"),
        (1, "2 Volumes"),
        (2, "2.1 Creating a volume"),
    ]
    assert doc.metadata["title"].startswith("Managing Storage")


def test_cover_names_set_like_the_headings_are_still_not_sections(tmp_path: Path):
    # the authors' names use the bold 14 pt face of the chapter headings: still a cover
    f = Flow()
    _cover(f)
    f.heading("Introduction", 14).para(6).heading("Audience", 12).para(6)
    f.heading("Volumes", 14).para(6).heading("Creating a volume", 12).para(6)
    doc = parse(f.write(tmp_path / "cover-names.pdf"))
    assert tree(doc) == [(1, "Introduction"), (2, "Audience"), (1, "Volumes"), (2, "Creating a volume")]


def test_a_title_page_after_the_covers_blank_back_is_the_title_too(tmp_path: Path):
    # a thesis: its cover, the cover's blank back, then a title page that repeats the cover's lines
    # over the degree it is submitted for; neither page's lines are sections
    def title_page(f: Flow, note: bool) -> None:
        f.lines.append(Line("STATE UNIVERSITY OF THE PLAINS", x=160, y=720, size=14, bold=True))
        f.lines.append(Line("SCHOOL OF AGRICULTURE", x=200, y=700, size=14, bold=True))
        f.lines.append(Line("ESTIMATING CITRUS YIELD FROM IMAGES", x=130, y=500, size=16, bold=True))
        f.lines.append(Line("Walter Reed Junior", x=380, y=380, size=14, bold=True))
        if note:
            f.lines.append(Line("Advisor: Prof. Dr. Jane Doe", x=340, y=360, size=14, bold=True))
            note_lines = ("Thesis presented to the School", "of Agriculture for the degree", "of Doctor")
            for k, text in enumerate(note_lines):
                f.lines.append(Line(text, x=300, y=320 - 14 * k, size=12))

    f = Flow()
    title_page(f, note=False)
    f.new_page().new_page()
    title_page(f, note=True)
    f.new_page()
    f.heading("1 Introduction", 14).para(6).heading("1.1 Background", 12).para(6)
    f.heading("2 Methods", 14).para(6).heading("2.1 Orchards", 12).para(6)
    pages = f.pages
    for number, page in enumerate(pages, start=1):
        if number > 3:  # (the cover, its back and the title page carry no page number)
            page.lines.append(Line(str(number), x=300, y=40, size=9))
    doc = parse(write_pdf(tmp_path / "thesis.pdf", pages))
    assert tree(doc) == [(1, "1 Introduction"), (2, "1.1 Background"), (1, "2 Methods"), (2, "2.1 Orchards")]


def test_chapter_label_above_its_title_is_one_section(tmp_path: Path):
    f = Flow()
    for number, (title, subs) in enumerate(
        (("Getting Started", ["Installing", "First steps"]), ("Configuration", ["Files", "Options"])), start=1
    ):
        if number > 1:
            f.new_page()
        f.heading(f"Chapter {number}.", 18, before=0).heading(title, 24, before=12).para(6)
        for k, sub in enumerate(subs, start=1):
            f.heading(f"{number}.{k} {sub}", 13).para(6)
    doc = parse(f.write(tmp_path / "chapters.pdf"))
    assert tree(doc) == [
        (1, "Chapter 1. Getting Started"),
        (2, "1.1 Installing"),
        (2, "1.2 First steps"),
        (1, "Chapter 2. Configuration"),
        (2, "2.1 Files"),
        (2, "2.2 Options"),
    ]
    assert section(doc, "Chapter 2. Configuration").page_start == 2


def test_chapter_label_over_a_title_wrapped_onto_two_lines_is_one_section(tmp_path: Path):
    f = Flow().heading("Chapter 1", 18, before=0).heading("Getting Started", 24, before=12).para(6)
    f.heading("1.1 Installing", 13).para(6).new_page()
    f.heading("Chapter 2", 18, before=0, bold=False)
    f.heading("Mathematical Elements, Equations and", 24, before=12)
    f.heading("Algorithms", 24, before=-6).para(6).heading("2.1 Matrices", 13).para(6)
    doc = parse(f.write(tmp_path / "wrapped-chapter.pdf"))
    assert tree(doc) == [
        (1, "Chapter 1 Getting Started"),
        (2, "1.1 Installing"),
        (1, "Chapter 2 Mathematical Elements, Equations and Algorithms"),
        (2, "2.1 Matrices"),
    ]


def test_title_breaking_before_an_acronym_is_one_title(tmp_path: Path):
    f = Flow()
    title = "The widget bundle: Classes for submissions to IJDC and"
    f.lines.append(Line(title, x=90, y=700, size=16, bold=True))
    f.lines.append(Line("IDCC", x=280, y=680, size=16, bold=True))
    f.lines.append(Line("Alex Ball", x=280, y=650, size=11))
    f.y = 620
    f.heading("Introduction", 16).para(8).heading("Dependencies", 16).para(8)
    doc = parse(f.write(tmp_path / "acronym.pdf"))
    assert tree(doc) == [(1, "Introduction"), (1, "Dependencies")]
    assert doc.metadata["title"] == "The widget bundle: Classes for submissions to IJDC and IDCC"


def test_chapter_titles_breaking_after_a_french_or_german_connector_are_one_title(tmp_path: Path):
    # ("Introduction à l'utilisation de" over "LATEX": the case changes, but no title ends on "de")
    f = Flow()
    for number, (first, second) in enumerate(
        (("Introduction \u00e0 l'utilisation de", "LATEX"), ("Die Grundlagen f\u00fcr", "TEX UND PDF")), 1
    ):
        f.heading(f"Chapitre {number}", 18, before=0).heading(first, 24, before=12)
        f.heading(second, 24, before=-6).para(6).heading(f"{number}.1 Premiers pas", 13).para(6).new_page()
    doc = parse(f.write(tmp_path / "connector.pdf"))
    assert tree(doc) == [
        (1, "Chapitre 1 Introduction \u00e0 l'utilisation de LATEX"),
        (2, "1.1 Premiers pas"),
        (1, "Chapitre 2 Die Grundlagen f\u00fcr TEX UND PDF"),
        (2, "2.1 Premiers pas"),
    ]


def test_big_number_above_a_capitals_title_is_one_section(tmp_path: Path):
    f = Flow()
    for number, title in ((1, "INTRODUCTION"), (2, "EXAMPLES")):
        if number > 1:
            f.new_page()
        f.heading(str(number), 48, before=0, bold=False, x=480).heading(title, 12, before=30, bold=False)
        f.para(8).heading(f"{number}.1 A first section", 12).para(6)
    doc = parse(f.write(tmp_path / "numbers.pdf"))
    assert tree(doc) == [
        (1, "1 INTRODUCTION"),
        (2, "1.1 A first section"),
        (1, "2 EXAMPLES"),
        (2, "2.1 A first section"),
    ]


def test_chapter_word_over_a_number_word_over_the_title_is_one_section(tmp_path: Path):
    # the chapter opening of a Sphinx-built manual: "CHAPTER" over "ONE" over the title
    f = Flow()
    for number, (word, title) in enumerate((("ONE", "About this manual"), ("TWO", "The archive")), start=1):
        if number > 1:
            f.new_page()
        f.heading("CHAPTER", 14, before=0, bold=False, x=460).heading(word, 28, before=4, x=460)
        f.heading(title, 24, before=20).para(6).heading(f"{number}.1 Scope", 14).para(6)
    doc = parse(f.write(tmp_path / "sphinx.pdf"))
    assert tree(doc) == [
        (1, "CHAPTER 1 About this manual"),
        (2, "1.1 Scope"),
        (1, "CHAPTER 2 The archive"),
        (2, "2.1 Scope"),
    ]


def test_numbered_heading_wrapped_onto_two_lines_is_one_section(tmp_path: Path):
    f = Flow().heading("3 Results", 16).para(6)
    f.heading("3.1 Effects of the proposed changes on the long-term stability", 13).heading(
        "of the regional financial system", 13, before=-6, x=96
    )
    f.para(6).heading("3.2 Limits", 13).para(6)
    doc = parse(f.write(tmp_path / "wrapped.pdf"))
    assert tree(doc) == [
        (1, "3 Results"),
        (
            2,
            "3.1 Effects of the proposed changes on the long-term stability of the regional financial system",
        ),
        (2, "3.2 Limits"),
    ]


def test_epigraph_and_its_attribution_are_not_sections(tmp_path: Path):
    f = Flow()
    for number, title in ((1, "Origins"), (2, "Descent")):
        if number > 1:
            f.new_page()
        f.heading(f"{number} {title}", 20, before=0).gap(10)
        # an epigraph: short italic lines set to the right, the source under them
        f.line("Ohana means family.", x=330, italic=True)
        f.line("Family means nobody gets left behind.", x=330, italic=True, after=16)
        f.line("Lilo and Stitch" if number == 1 else "\u2014Dwarven saying", x=420, italic=True, after=24)
        f.para(8).heading(f"{number}.1 Early days", 13).para(6)
    doc = parse(f.write(tmp_path / "epigraph.pdf"))
    assert tree(doc) == [(1, "1 Origins"), (2, "1.1 Early days"), (1, "2 Descent"), (2, "2.1 Early days")]


def test_financial_statement_row_labels_are_not_sections(tmp_path: Path):
    pages = [Page([Line("PART I \u2014 FINANCIAL INFORMATION", x=200, y=720, size=11, bold=True)])]
    pages[0].lines.append(Line("Item 1. Financial Statements", y=690, bold=True))
    pages[0].lines += body_lines(10, 1, 670)[0]
    statements = {
        "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS": [
            ("Net sales", False),
            ("Cost of sales", False),
            ("Gross margin", True),
            ("Operating expenses:", True),
            ("Research and development", False),
            ("Total operating expenses", True),
            ("Net income (loss)", True),
        ],
        "CONDENSED CONSOLIDATED BALANCE SHEETS": [
            ("ASSETS:", True),
            ("Current assets:", True),
            ("Cash and cash equivalents", False),
            ("Total current assets", True),
            ("Total assets", True),
            ("LIABILITIES AND SHAREHOLDERS\u2019 EQUITY:", True),
            ("Total liabilities", True),
        ],
    }
    for title, rows in statements.items():
        page = Page([Line(title, x=150, y=720, bold=True), Line("(In millions)", x=270, y=706)])
        page.lines += [
            Line("June 24, 2023", x=380, y=680, bold=True),
            Line("June 25, 2022", x=470, y=680, bold=True),
        ]
        y = 660.0
        for label, bold in rows:
            page.lines.append(Line(label, y=y, bold=bold))
            if not label.endswith(":"):  # a group label stands alone in its row
                page.lines += [Line("81,797", x=400, y=y, bold=bold), Line("82,959", x=490, y=y, bold=bold)]
            y -= 13
        page.lines += body_lines(4, 5, y - 30)[0]
        pages.append(page)
    last = Page([Line("Item 2. Management\u2019s Discussion and Analysis", y=720, bold=True)])
    last.lines += body_lines(12, 7, 700)[0]
    pages.append(last)
    for number, page in enumerate(pages, start=1):
        page.lines.append(Line(str(number), x=300, y=40, size=9))
    doc = parse(write_pdf(tmp_path / "statements.pdf", pages))
    assert tree(doc) == [
        (1, "PART I \u2014 FINANCIAL INFORMATION"),
        (2, "Item 1. Financial Statements"),
        (3, "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS"),
        (3, "CONDENSED CONSOLIDATED BALANCE SHEETS"),
        (2, "Item 2. Management\u2019s Discussion and Analysis"),
    ]


def test_front_matter_before_chapter_one_is_sections_at_chapter_level(tmp_path: Path):
    f = Flow()
    _cover(f, authors=False)
    f.heading("Notices", 20, before=0).para(8).heading("Trademarks", 13).para(5).new_page()
    f.heading("Preface", 20, before=0).para(8).heading("Authors", 13).para(5)
    f.heading("Comments welcome", 13).para(4).new_page()
    for number, title in ((1, "Introduction"), (2, "Planning")):
        f.heading(f"Chapter {number}.", 18, before=0).heading(title, 20, before=12).para(6)
        f.heading(f"{number}.1 Scope", 13).para(6).heading(f"{number}.2 Terms", 13).para(6).new_page()
    f.pages.pop()
    doc = parse(f.write(tmp_path / "front.pdf"))
    assert tree(doc) == [
        (1, "Notices"),
        (2, "Trademarks"),
        (1, "Preface"),
        (2, "Authors"),
        (2, "Comments welcome"),
        (1, "Chapter 1. Introduction"),
        (2, "1.1 Scope"),
        (2, "1.2 Terms"),
        (1, "Chapter 2. Planning"),
        (2, "2.1 Scope"),
        (2, "2.2 Terms"),
    ]
    assert "Managing Storage" not in titles(doc)


def test_front_matter_and_printed_contents_before_chapter_one(tmp_path: Path):
    f = Flow()
    _cover(f, authors=False)
    f.heading("Notices", 20, before=0).para(8).new_page()
    contents = f.pages[-1]
    f.new_page().heading("Preface", 20, before=0).para(8).new_page()
    entries = [("Notices", 2), ("Preface", 4)]
    for number, title in ((1, "Introduction"), (2, "Planning")):
        f.heading(f"Chapter {number}.", 18, before=0).heading(title, 20, before=12).para(6)
        f.heading(f"{number}.1 Scope", 13).para(6).new_page()
        entries += [(f"Chapter {number}. {title}", len(f.pages) - 1), (f"{number}.1 Scope", len(f.pages) - 1)]
    f.pages.pop()
    contents.lines.append(Line("Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, page in entries:
        x = 90.0 if title[0].isdigit() else 72.0
        contents.lines.append(Line(f"{title} " + ". " * 25 + str(page), x=x, y=y))
        y -= 14
    doc = parse(f.write(tmp_path / "front-contents.pdf"))
    assert tree(doc) == [
        (1, "Notices"),
        (1, "Contents"),
        (1, "Preface"),
        (1, "Chapter 1. Introduction"),
        (2, "1.1 Scope"),
        (1, "Chapter 2. Planning"),
        (2, "2.1 Scope"),
    ]
    assert section(doc, "Chapter 1. Introduction").page_start == 5


def _paper(tmp_path: Path, *, numbered: bool) -> Document:
    """A two-column paper: a title on two lines and authors across the top, then columns."""
    pages = [Page(), Page()]
    first = pages[0].lines
    first.append(Line("Journal of Widget Studies, 2022, pp. 1\u20139", x=72, y=770, size=8))
    first.append(Line("Learning to Sort Widgets with", x=170, y=720, size=18, bold=True))
    first.append(Line("Very Little Supervision", x=200, y=698, size=18, bold=True))
    first.append(Line("Ada Lovelace, Charles Babbage and Grace Hopper", x=160, y=670, size=11))
    first.append(Line("Department of Widgets, University of Somewhere", x=170, y=655, size=9, italic=True))
    heads = [
        ("Abstract", 0, None),
        ("1 Introduction" if numbered else "Introduction", 0, None),
        ("2 Method" if numbered else "Method", 1, None),
        ("2.1 Data" if numbered else "Data", 1, "sub"),
        ("3 Results" if numbered else "Results", 2, None),
        ("3.1 Accuracy" if numbered else "Accuracy", 3, "sub"),
        ("4 Conclusion" if numbered else "Conclusion", 3, None),
    ]
    y = {0: 620.0, 1: 620.0, 2: 720.0, 3: 720.0}
    for k, (title, column, kind) in enumerate(heads):
        page = pages[column // 2]
        x = 72.0 if column % 2 == 0 else 320.0
        size = 10.0 if kind == "sub" or title == "Abstract" else 12.0
        page.lines.append(Line(title, x=x, y=y[column], size=size, bold=True))
        lines, y[column] = body_lines(9, k + 1, y[column] - 16, x=x, width_words=5)
        page.lines += lines
        y[column] -= 14
    pages[1].lines.append(Line("2", x=300, y=40, size=9))
    pages[0].lines.append(Line("1", x=300, y=40, size=9))
    return parse(write_pdf(tmp_path / "paper.pdf", pages))


def test_paper_title_and_authors_are_not_sections(tmp_path: Path):
    doc = _paper(tmp_path, numbered=True)
    assert tree(doc) == [
        (1, "Abstract"),
        (1, "1 Introduction"),
        (1, "2 Method"),
        (2, "2.1 Data"),
        (1, "3 Results"),
        (2, "3.1 Accuracy"),
        (1, "4 Conclusion"),
    ]
    assert doc.metadata["title"] == "Learning to Sort Widgets with Very Little Supervision"


def test_paper_title_flush_in_its_column_over_an_author_set_like_the_headings(tmp_path: Path):
    # the title block in the left column, flush with the text; the author's name in the bold
    # body-size face of the section headings, over affiliation lines; text in 8 pt columns
    def small(lines: list[Line]) -> list[Line]:
        return [Line(ln.text, x=ln.x, y=ln.y, size=8) for ln in lines]

    page = Page([Line("Estimating the length", x=72, y=720, size=20, bold=True)])
    page.lines += [Line("of journal manuscripts", x=72, y=698, size=20, bold=True)]
    page.lines += [Line("Patrick Egan", x=72, y=670, size=8, bold=True)]
    page.lines += [Line("University of Limerick", x=72, y=660, size=8), Line("Ireland", x=72, y=650, size=8)]
    y = 620.0
    for k, title in enumerate(("1 Prerequisites", "2 Introduction", "3 Environments")):
        page.lines.append(Line(title, x=72, y=y, size=8, bold=True))
        lines, y = body_lines(8, k, y - 12, width_words=8)
        page.lines += small(lines)
        y -= 12
    page.lines += small(body_lines(40, 9, 720, x=320, width_words=8)[0])
    doc = parse(write_pdf(tmp_path / "flush.pdf", [page]))
    assert tree(doc) == [(1, "1 Prerequisites"), (1, "2 Introduction"), (1, "3 Environments")]
    assert doc.metadata["title"] == "Estimating the length of journal manuscripts"


def test_paper_with_unnumbered_headings_keeps_its_title_out(tmp_path: Path):
    doc = _paper(tmp_path, numbered=False)
    assert tree(doc) == [
        (1, "Abstract"),
        (1, "Introduction"),
        (1, "Method"),
        (2, "Data"),
        (1, "Results"),
        (2, "Accuracy"),
        (1, "Conclusion"),
    ]


def test_contents_listing_front_matter_flat_still_nests_a_sub_heading_by_its_face(tmp_path: Path):
    # the contents sets "Trademarks" at the margin like "Notices", but the page sets it in the face
    # of the "1.1" sections: it is a section of "Notices", as its bookmarks would have it
    f = Flow()
    _cover(f, authors=False)
    contents = f.pages[-1]
    f.new_page().heading("Notices", 22, before=0).para(8).heading("Trademarks", 14).para(5).new_page()
    f.heading("Preface", 22, before=0).para(8).heading("Authors", 14).para(5)
    f.heading("Comments welcome", 14).para(4).new_page()
    entries = [("Notices", 3), ("Trademarks", 3), ("Preface", 4), ("Authors", 4), ("Comments welcome", 4)]
    for number, title in ((1, "Introduction"), (2, "Planning")):
        f.heading(f"Chapter {number}. {title}", 22, before=0).para(6)
        f.heading(f"{number}.1 Scope", 14).para(6).heading(f"{number}.2 Terms", 14).para(6).new_page()
        page = len(f.pages) - 1
        entries += [(f"Chapter {number}. {title}", page)]
        entries += [(f"{number}.1 Scope", page), (f"{number}.2 Terms", page)]
    f.pages.pop()
    contents.lines.append(Line("Contents", y=720, size=22, bold=True))
    y = 680.0
    for title, page in entries:
        x = 90.0 if title[0].isdigit() else 72.0
        contents.lines.append(Line(f"{title} " + ". " * 25 + str(page), x=x, y=y))
        y -= 14
    doc = parse(f.write(tmp_path / "flat-front.pdf"))
    assert tree(doc) == [
        (1, "Contents"),
        (1, "Notices"),
        (2, "Trademarks"),
        (1, "Preface"),
        (2, "Authors"),
        (2, "Comments welcome"),
        (1, "Chapter 1. Introduction"),
        (2, "1.1 Scope"),
        (2, "1.2 Terms"),
        (1, "Chapter 2. Planning"),
        (2, "2.1 Scope"),
        (2, "2.2 Terms"),
    ]


def test_running_heads_with_their_folio_are_furniture_not_sections(tmp_path: Path):
    # a journal's running heads, larger than the text and in italics: the author's name after the
    # folio on even pages, the short title before it on odd pages
    f = Flow()
    for title in ("1 Introduction", "2 Methods", "3 Results", "4 Discussion"):
        f.heading(title, 12).para(30).para(30)
    for number, page in enumerate(f.pages, start=1):
        head = f"{number} K. T. Smith" if number % 2 == 0 else f"A guide for authors {number}"
        page.lines.append(Line(head, x=72 if number % 2 == 0 else 400, y=770, size=12, italic=True))
    doc = parse(f.write(tmp_path / "heads.pdf"))
    assert len(f.pages) >= 6
    assert tree(doc) == [(1, "1 Introduction"), (1, "2 Methods"), (1, "3 Results"), (1, "4 Discussion")]
    assert "K. T. Smith" not in doc.text


def test_line_numbers_in_the_margin_are_furniture_but_a_tables_numbers_are_not():
    from sectionrag.parsers._pdf_furniture import mark_line_numbers
    from sectionrag.parsers._pdfium import PdfLine

    def line(text: str, x0: float, x1: float, top: float) -> PdfLine:
        return PdfLine(text, x0, x1, top, top + 9, 9.0, False, False, "Times", 0)

    prose = "widgets were sampled across the region"
    lines = [line(prose, 90, 500, 100 + 12 * k) for k in range(8)]
    margin = [line(str(20 + k), 40, 46, 100 + 12 * k) for k in range(8)]
    # a ranked table inside the text block: its first column is numbers too
    table = [line(str(k), 92, 98, 300 + 12 * k) for k in range(1, 7)]
    mark_line_numbers(lines + margin + table)
    assert {ln.role for ln in margin} == {"furniture"}
    assert {ln.role for ln in table} == {"body"}
    assert {ln.role for ln in lines} == {"body"}


def test_paper_title_flush_left_over_numbered_sections_is_not_their_parent(tmp_path: Path):
    f = Flow()
    f.lines.append(Line("Template demonstrating the widget bibstyle", x=72, y=720, size=24))
    f.lines.append(Line("David Wierichs and Johannes Meyer", x=72, y=690, size=11))
    f.lines.append(Line("Institute for Theoretical Widgets, University of Cologne", x=72, y=674, size=9))
    f.y = 640
    f.heading("1 Overview", 14, bold=False).para(8).heading("2 Articles", 14, bold=False).para(8)
    f.heading("2.1 Journals", 12, bold=False).para(8).heading("3 Books", 14, bold=False).para(8)
    doc = parse(f.write(tmp_path / "flush-numbered.pdf"))
    assert tree(doc) == [(1, "1 Overview"), (1, "2 Articles"), (2, "2.1 Journals"), (1, "3 Books")]


def _spaced(text: str, x: float, y: float, size: float, *, letter: int = -400, word: int = -1200) -> bytes:
    """Content-stream bytes that set ``text`` letter-spaced, each glyph placed apart as TeX does."""
    words = [
        b" ".join(b"(%s)" % ch.encode() for ch in w).replace(b") (", b") %d (" % letter) for w in text.split()
    ]
    return b"BT /F1 %.2f Tf %.2f %.2f Td [%s] TJ ET" % (size, x, y, (b" %d " % word).join(words))


def test_letter_spaced_capitals_read_as_words():
    from sectionrag.parsers._pdfium import _looks_letter_spaced

    assert _looks_letter_spaced("S O M E K I N D O F M A N UA L")
    assert _looks_letter_spaced("L I S T O F TA B L E S")
    assert not _looks_letter_spaced("A B testing of a new model")
    assert not _looks_letter_spaced("Part I")


def test_letter_spaced_chapter_titles_are_sections_with_their_words(tmp_path: Path):
    # a thesis style: chapter titles in letter-spaced capitals, sections in small capitals
    f = Flow()
    for number, title in ((1, "GETTING STARTED"), (2, "THE SHOWCASE")):
        if number > 1:
            f.new_page()
        f.pages[-1].raw += _spaced(f"{title}", 72, 720, 20) + b"\n"
        f.y = 680
        f.heading(f"{number} Chapter {number}", 16).para(6)
        f.heading(f"{number}.1 a first section", 10, bold=False, face="Times-Roman-SC").para(6)
        f.heading(f"{number}.2 a second section", 10, bold=False, face="Times-Roman-SC").para(6)
    doc = parse(f.write(tmp_path / "spaced.pdf"))
    assert "GETTING STARTED" in doc.text and "G E T T I N G" not in doc.text
    titles_found = [title for _, title in tree(doc)]
    assert "1.1 a first section" in titles_found and "2.2 a second section" in titles_found
    assert section(doc, "1.2 a second section").level == section(doc, "1 Chapter 1").level + 1


def test_small_capitals_numbered_headings_are_sections(tmp_path: Path):
    f = Flow()
    f.heading("1 Introduction", 16).para(6)
    f.heading("1.1 organization", 10, bold=False, face="Palatino-SC").para(6)
    f.heading("1.2 style options", 10, bold=False, face="Palatino-SC").para(6)
    f.heading("2 Examples", 16).para(6)
    f.heading("2.1 a new section", 10, bold=False, face="Palatino-SC").para(6)
    doc = parse(f.write(tmp_path / "small-caps.pdf"))
    assert tree(doc) == [
        (1, "1 Introduction"),
        (2, "1.1 organization"),
        (2, "1.2 style options"),
        (1, "2 Examples"),
        (2, "2.1 a new section"),
    ]


def test_first_chapter_printed_title_then_number_is_chapter_one(tmp_path: Path):
    # the chapter's number set after its title ("INTRODUCTION 1"), the first chapter included
    f = Flow()
    f.heading("INTRODUCTION 1", 24).para(6).heading("1.1 Goals", 13).para(6).heading("1.2 Scope", 13).para(6)
    f.new_page().heading("METHODS 2", 24).para(6).heading("2.1 Data", 13).para(6)
    doc = parse(f.write(tmp_path / "title-number.pdf"))
    assert tree(doc) == [
        (1, "1 INTRODUCTION"),
        (2, "1.1 Goals"),
        (2, "1.2 Scope"),
        (1, "2 METHODS"),
        (2, "2.1 Data"),
    ]


def test_numbered_headings_the_contents_leaves_out_nest_by_their_numbering(tmp_path: Path):
    # the printed contents lists parts and sections flush and indented, not the chapters'
    # own lines: the chapter "1 Introduction" stands between "Part I" and "1.1"
    f = Flow()
    f.heading("Preface", 20, before=0).para(8).new_page()
    contents = f.pages[-1]
    f.new_page()
    entries: list[tuple[str, int, float]] = []
    for part, (number, chapter, subs) in zip(
        ("Part I Basics", "Part II Practice"),
        ((1, "Introduction", ["Goals", "Scope"]), (2, "Examples", ["Small", "Large"])),
        strict=True,
    ):
        f.heading(part, 22, before=0).para(3)
        entries.append((part, len(f.pages), 72.0))
        f.new_page()
        f.heading(f"{number} {chapter}", 18, before=0).para(6)
        for k, sub in enumerate(subs, start=1):
            f.heading(f"{number}.{k} {sub}", 12).para(6)
            entries.append((f"{number}.{k} {sub}", len(f.pages), 90.0))
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, page, x in entries:
        contents.lines.append(Line(f"{title} " + ". " * 25 + str(page), x=x, y=y))
        y -= 14
    doc = parse(f.write(tmp_path / "contents-numbering.pdf"))
    levels = {title: level for level, title in tree(doc)}
    assert levels["Part I Basics"] < levels["1 Introduction"] < levels["1.1 Goals"]
    assert levels["2 Examples"] == levels["1 Introduction"]
    assert levels["2.2 Large"] == levels["1.1 Goals"]
    assert "Preface" in levels  # front matter before the contents is a section


def test_banner_above_a_paper_title_and_the_authors_are_not_sections(tmp_path: Path):
    # a journal's small banner ("RESEARCH ARTICLE") above the title, set like the sub-headings;
    # a bold "Abstract" in a face of its own beside the sections, not above them
    f = Flow()
    f.line("RESEARCH ARTICLE", size=13, after=24)
    f.line("Sorting Widgets at Scale", size=20, bold=True, after=28)
    f.line("Ada Lovelace and Grace Hopper", size=14, after=20)
    f.heading("Abstract", 13.5, before=6).para(3)
    f.heading("Introduction", 13, bold=False).para(6)
    f.heading("Method", 13, bold=False).para(6).heading("Data sources", 11, bold=True).para(6)
    f.heading("Results", 13, bold=False).para(6).heading("Rates", 11, bold=True).para(6)
    doc = parse(f.write(tmp_path / "banner.pdf"))
    assert tree(doc) == [
        (1, "Abstract"),
        (1, "Introduction"),
        (1, "Method"),
        (2, "Data sources"),
        (1, "Results"),
        (2, "Rates"),
    ]
    assert not any(t in ("RESEARCH ARTICLE", "Ada Lovelace and Grace Hopper") for _, t in tree(doc))
    assert doc.metadata["title"] == "Sorting Widgets at Scale"


def test_authors_and_affiliations_side_by_side_are_the_title_block(tmp_path: Path):
    # four authors in two columns, each over an affiliation in a face no later page uses
    pages = [Page(), Page()]
    first = pages[0].lines
    first.append(Line("TEMPLATES FOR AUTHORS", x=200, y=730, size=14, bold=True))
    for k, (x, y) in enumerate(((100, 690), (330, 690), (100, 630), (330, 630))):
        first.append(Line(f"Author Number{k}", x=x, y=y, size=12, italic=True))
        first.append(Line(f"Group {k}, Dept. of Sciences", x=x, y=y - 16, size=12))
        first.append(Line(f"University {k}, Somewhere", x=x, y=y - 30, size=12))
    first.append(Line("ABSTRACT", x=150, y=570, size=9, bold=True))
    lines, y = body_lines(6, 1, 556, x=72, width_words=9)
    first.extend(lines)
    first.append(Line("1. INTRODUCTION", x=150, y=y - 14, size=9, bold=True))
    lines, y = body_lines(6, 2, y - 28, x=72, width_words=9)
    first.extend(lines)
    second = pages[1].lines
    second.append(Line("2. METHOD", x=150, y=720, size=9, bold=True))
    lines, y = body_lines(6, 3, 706, x=72, width_words=9)
    second.extend(lines)
    second.append(Line("2.1. Data", x=72, y=y - 14, size=9, bold=True))
    lines, _ = body_lines(6, 4, y - 28, x=72, width_words=9)
    second.extend(lines)
    doc = parse(write_pdf(tmp_path / "authors.pdf", pages))
    assert tree(doc) == [(1, "ABSTRACT"), (1, "1. INTRODUCTION"), (1, "2. METHOD"), (2, "2.1. Data")]


def test_chapter_number_set_large_in_the_margin_beside_its_title(tmp_path: Path):
    # the number is read after the title (it stands to the right): still "2 EXAMPLES"
    f = Flow()
    for number, title in ((1, "GETTING STARTED"), (2, "EXAMPLES")):
        if number > 1:
            f.new_page()
        f.lines.append(Line(str(number), x=480, y=680, size=60))
        f.lines.append(Line(title, x=72, y=680, size=14, bold=True))
        f.y = 650
        f.para(6).heading(f"{number}.1 First part", 12).para(6).heading(f"{number}.2 Second part", 12).para(6)
    doc = parse(f.write(tmp_path / "side-number.pdf"))
    assert [t for _, t in tree(doc)][:4] == [
        "1 GETTING STARTED",
        "1.1 First part",
        "1.2 Second part",
        "2 EXAMPLES",
    ]
    assert section(doc, "2.1 First part").level == section(doc, "2 EXAMPLES").level + 1


def test_front_matter_set_like_the_chapters_before_the_contents_is_kept(tmp_path: Path):
    # a title page, then an abstract in another language set like the chapter headings, then the
    # printed contents: the abstract is a section, the title page's lines are not
    f = Flow()
    f.heading("A Thesis About Widgets", 24, before=0).line("Ada Lovelace", size=14).new_page()
    f.heading("ZUSAMMENFASSUNG", 16, before=0).para(8).new_page()
    contents = f.pages[-1]
    f.new_page()
    entries = []
    for number, title in ((1, "Introduction"), (2, "Method")):
        f.heading(f"{number} {title.upper()}", 16, before=0).para(6)
        entries.append((f"{number} {title}", len(f.pages)))
        f.heading(f"{number}.1 Scope", 12).para(6).new_page()
        entries.append((f"{number}.1 Scope", len(f.pages) - 1))
    f.pages.pop()
    f.heading("BIBLIOGRAPHY", 16, before=0).para(6)
    entries.append(("Bibliography", len(f.pages)))
    contents.lines.append(Line("Contents", y=720, size=16, bold=True))
    y = 680.0
    for title, page in entries:
        contents.lines.append(
            Line(f"{title} " + ". " * 25 + str(page), x=90.0 if "." in title else 72.0, y=y)
        )
        y -= 14
    doc = parse(f.write(tmp_path / "front-face.pdf"))
    titles_found = [t for _, t in tree(doc)]
    assert titles_found[0] == "ZUSAMMENFASSUNG"
    assert "A Thesis About Widgets" not in titles_found and "Ada Lovelace" not in titles_found
    assert section(doc, "1 INTRODUCTION").level == section(doc, "ZUSAMMENFASSUNG").level


def test_numbering_fits():
    from sectionrag.parsers._pdf_levels import _numbering_fits

    class C:
        def __init__(self, title: str) -> None:
            self.title = title

    heads = [
        C(t)
        for t in (
            "Installing",
            "1 Introduction",
            "1.1 Goals",
            "3. Click on Settings",
            "Usage",
            "2.4 Layout",
            "2.4.1 A",
            "2.4.2 B",
        )
    ]
    fits = [_numbering_fits(heads, i) for i in range(len(heads))]  # type: ignore[arg-type]
    assert fits == [True, True, True, False, True, True, True, True]


def test_numbering_fits_after_a_siblings_sub_heading_and_before_a_sibling():
    from sectionrag.parsers._pdf_levels import _numbering_fits

    class C:
        def __init__(self, title: str) -> None:
            self.title = title

    # "3.3.2" after "3.3.1.1" (a sub-heading of its sibling) fits, and so does "3.3.4" before
    # "3.3.5"; a list step "2. Click" between unrelated headings still does not
    titles = (
        "3.3.1 Determination",
        "3.3.1.1 Examples",
        "3.3.2 Expressions",
        "Views",
        "3.3.4 Example",
        "3.3.5 End",
    )
    heads = [C(t) for t in (*titles, "Usage", "2. Click on Settings", "Notes")]
    fits = [_numbering_fits(heads, i) for i in range(len(heads))]  # type: ignore[arg-type]
    assert fits == [True, True, True, True, True, True, True, False, True]


def test_an_examples_section_is_a_section_and_a_note_box_label_is_not(tmp_path: Path):
    # "Examples" heads a manual's section as "Installation" does; a box's one-word label ("Note")
    # over its text stays no section
    f = Flow()
    f.heading("Installation", 14).para(4)
    f.heading("Usage", 14).para(3).heading("Note", 10).para(2).para(3)
    f.heading("Examples", 14).para(4)
    f.heading("License", 14).para(3)
    assert titles(parse(f.write(tmp_path / "manual.pdf"))) == ["Installation", "Usage", "Examples", "License"]


def test_a_title_entry_naming_a_file_or_a_doi_gives_way_to_the_printed_title(tmp_path: Path):
    # word processors and layout programs fill the PDF's Title with the authoring file's name, a
    # publisher with the article's DOI: the title printed on the first page is the document's; the
    # entry is kept as ``pdf_title``. A Title that names the document stays the title.
    f = Flow()
    f.heading("Cubic approximation of a digitized curve", 17, bold=False)
    f.para(8).heading("1. Introduction", 11).para(8).heading("2. Method", 11).para(8)
    for entry in ("doi:10.1016/j.patcog.2007.01.019", "Silo.book.fm", "Microsoft Word - report.docx"):
        path = write_pdf(tmp_path / "paper.pdf", f.pages, info={"Title": entry})
        doc = parse(path)
        assert doc.metadata["title"] == "Cubic approximation of a digitized curve"
        assert doc.metadata["pdf_title"] == entry
    doc = parse(write_pdf(tmp_path / "named.pdf", f.pages, info={"Title": "Curve Fitting Notes"}))
    assert doc.metadata["title"] == "Curve Fitting Notes"
    assert "pdf_title" not in doc.metadata


def test_a_title_block_on_pages_of_its_own_does_not_hold_the_numbered_sections(tmp_path: Path):
    # a contest paper: a summary sheet, then a page with the title, the team's name and a summary
    # with its prose, each a face larger than the numbered sections that start on the next page
    f = Flow()
    f.heading("Summary Sheet", 16).para(10)
    f.new_page()
    f.heading("The Template for Modelling Papers", 20)
    f.heading("Team 2317", 16, bold=False)
    f.heading("Summary", 14).para(8)
    f.new_page()
    f.heading("1 Introduction", 12).para(6).heading("1.1 Background", 11).para(6)
    f.heading("2 The Model", 12).para(6).heading("3 Conclusions", 12).para(6)
    doc = parse(f.write(tmp_path / "title-block.pdf"))
    assert tree(doc) == [
        (1, "The Template for Modelling Papers"),
        (1, "Team 2317"),
        (1, "Summary"),
        (1, "1 Introduction"),
        (2, "1.1 Background"),
        (1, "2 The Model"),
        (1, "3 Conclusions"),
    ]


def test_a_title_on_the_first_sections_page_still_heads_them(tmp_path: Path):
    # a manual whose second page sets its title and author over its first section: bookmarks
    # often put such a title over the sections, and the reader keeps it there
    f = Flow()
    f.heading("Contents", 16).para(10)
    f.new_page()
    f.heading("Using Automake in the Project", 20)
    f.heading("Bertrand Garrigues", 16, bold=False)
    f.heading("1 Overview", 12).para(6).heading("2 Building", 12).para(6)
    doc = parse(f.write(tmp_path / "title-over-body.pdf"))
    title = section(doc, "Using Automake in the Project")
    assert section(doc, "1 Overview").level > title.level
    assert section(doc, "2 Building").level == section(doc, "1 Overview").level


def test_a_contents_first_entry_under_its_title_is_no_running_head(tmp_path: Path):
    # a manual in parts: its contents opens with the first part's entry, set apart under the title
    # and ending in a page number as a running head ends in its folio; the page's own folio is at
    # its foot, as on every page
    f = Flow()
    f.heading("Contents", 16)
    f.gap(14)
    entries = [
        ("I User's manual", "2", 12, True, 72),
        ("1 Introduction", "2", 10, True, 72),
        ("1.1 Background", "2", 10, False, 86),
        ("2 Setup", "3", 10, True, 72),
        ("2.1 Install", "3", 10, False, 86),
        ("II Reference", "4", 12, True, 72),
        ("3 Commands", "4", 10, True, 72),
        ("3.1 Options", "4", 10, False, 86),
    ]
    for k, (title, page, size, bold, x) in enumerate(entries):
        f.lines.append(Line(title, x=x, y=f.y, size=size, bold=bold))
        f.lines.append(Line(page, x=500, y=f.y, size=size, bold=bold))
        f.y -= 30 if k == 0 else 15
    for part, title, chapters in (("Part I", "User's manual", ("1", "2")), ("Part II", "Reference", ("3",))):
        f.new_page()
        f.heading(part, 14).heading(title, 20, before=6)
        for n in chapters:
            if n == "2":
                f.new_page()
            name = {"1": "Introduction", "2": "Setup", "3": "Commands"}[n]
            sub = {"1": "Background", "2": "Install", "3": "Options"}[n]
            f.heading(f"{n} {name}", 14).para(6).heading(f"{n}.1 {sub}", 12).para(6)
    doc = parse(f.write(tmp_path / "parts.pdf"))
    assert "I User's manual" in doc.text
    got = {title: level for level, title in tree(doc)}
    assert got["Part I User's manual"] == got["Part II Reference"] == 1, tree(doc)
    assert got["1 Introduction"] == got["2 Setup"] == got["3 Commands"] == 2, tree(doc)
