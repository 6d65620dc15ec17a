"""Heading rules met on PDFs outside the measured sets, checked on small generated PDFs.

Each test writes a layout that class guides and papers set (a contents that
runs onto the first page of the text, references whose cited titles are set
in italics inside their lines, sub-headings a size above the text in its own
face, two columns on a page widened by a line past its margin, running heads
that name the current section) and looks at ``doc.sections`` only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _pdfgen import Line, Page, write_pdf
from test_pdf_headings import Flow, levels, parse, section, titles


def _flush_right(
    pages: list[Page], entries: list[list[tuple[str, int, float, float, bool]]], tmp: Path
) -> None:
    """Add contents rows ``(title, page, x, y, bold)`` whose page numbers end flush at x = 500.

    As TeX sets them: one run of text, the title and its number apart by a
    space stretched across the row. The titles' widths are measured on a
    probe page first.
    """
    import pypdfium2 as pdfium

    from sectionrag.parsers._pdfium import extract_page_lines

    # (a section's title runs into dotted leaders, a chapter's, in bold, does not)
    entries = [
        [(t if b else f"{t} " + ". " * 11 + ".", n, x, y, b) for t, n, x, y, b in page] for page in entries
    ]
    rows = [row for page in entries for row in page]
    probe = [Line(f"{t} {n}", x=72, y=760 - 12 * k, bold=b) for k, (t, n, _, _, b) in enumerate(rows)]
    lines = extract_page_lines(pdfium.PdfDocument(write_pdf(tmp / "probe.pdf", [Page(probe)]))[0], 0)
    width = {ln.text: ln.x1 - 72 for ln in lines}
    for page, rows_of_page in zip(pages, entries, strict=True):
        ops = []
        for title, number, x, y, bold in rows_of_page:
            stretch = 500 - x - width[f"{title} {number}"]
            font = b"/F2" if bold else b"/F1"
            ops.append(
                b"BT %s 10 Tf %.2f %.2f Td (%s) Tj %.2f Tw ( %d) Tj 0 Tw ET"
                % (font, x, y, title.encode(), stretch, number)
            )
        page.raw, page.raw_first = b"\n".join(ops), True


def test_contents_that_ends_at_the_top_of_the_first_text_page_lists_no_section_there(tmp_path: Path):
    # a class guide: the contents fills page 1 and its last chapters run onto page 2, where the
    # first chapter starts under them; those entries are the contents, not sections of page 2
    chapters = [
        ("1 Introduction", ["1.1 Disclaimer", "1.2 Dependencies"]),
        ("2 Quick Start", []),
        ("3 Usage", ["3.1 Options", "3.2 Commands"]),
        ("4 Arrangement", ["4.1 Title Page", "4.2 Copyright Page", "4.3 Abstract", "4.4 Dedication"]),
        ("5 Notes for Authors", ["5.1 Tips", "5.2 Errors"]),
        ("6 Other Packages", ["6.1 Generating PDF"]),
        ("7 The Implementation", []),
    ]
    rows = [row for c, subs in chapters for row in [(c, 72.0, True), *((s, 90.0, False) for s in subs)]]
    split = rows.index(("5 Notes for Authors", 72.0, True))
    placed = [(title, 2 + k // 3, x, 0.0, bold) for k, (title, x, bold) in enumerate(rows)]
    first = [(t, n, x, 690 - 16 * k, b) for k, (t, n, x, _, b) in enumerate(placed[:split])]
    rest = [(t, n, x, 720 - 16 * k, b) for k, (t, n, x, _, b) in enumerate(placed[split:])]
    f = Flow()
    f.pages = [Page([Line("Contents", y=720, size=14, bold=True)]), Page()]
    _flush_right(f.pages, [first, rest], tmp_path)
    f.y = 720 - 16 * len(rest)
    f.gap(20)
    for chapter, subs in chapters:
        if chapter != chapters[0][0]:
            f.new_page()
        f.heading(chapter, 16).para(8)
        for sub in subs:
            f.heading(sub, 12).para(8)
    doc = parse(f.write(tmp_path / "guide.pdf"))
    got = levels(doc)
    assert [s.title for s in doc.sections if s.page_start == 2] == [
        "1 Introduction",
        "1.1 Disclaimer",
        "1.2 Dependencies",
    ]
    assert got.get("5 Notes for Authors") == 1 and got.get("5.2 Errors") == 2
    assert not any(t.split()[-1].isdigit() for t in titles(doc))  # no entry with its page number


def test_an_italic_title_inside_a_reference_line_and_its_wrapped_rest_are_no_headings(tmp_path: Path):
    # a reference list: an entry's authors and an italic cited title share a line; the title goes
    # on upright or wraps, still in italics, onto the next line. A line of text never ends in a
    # heading, and the italic run that wraps on is the same title
    # (the paper sets its lowest headings in italics at the text's size)
    f = Flow().heading("1 Introduction", 14).para(6)
    for head in ("Scope", "Method", "Results"):
        f.heading(head, 10, bold=False, italic=True, family="Times").para(4)
    f.heading("References", 14)
    # (the cited title starts 20 pt after the authors end, a justified line's stretched space)
    for number, author, at, cited, wrapped, rest in (
        (
            1,
            "Michael Downes and Barbara Beeton.",
            258,
            "The amsart document classes",
            "",
            "AMS, August 2004.",
        ),
        (
            2,
            "American Mathematical Society.",
            237,
            "Instructions for Preparation",
            "",
            "of Papers, AMS, 2004.",
        ),
        (
            3,
            "Leslie Lamport and Frank Mittelbach.",
            258,
            "Standard",
            "Document Classes for LaTeX",
            "version 2e.",
        ),
    ):
        head = Line(f"[{number}] {author}", x=72, y=f.y, family="Times")
        f.lines.extend([head, Line(cited, x=at, y=f.y, family="Times", italic=True)])
        f.y -= 12
        if wrapped:
            f.line(wrapped, x=86, family="Times", italic=True)
        f.line(rest, x=86, family="Times", after=18)
    f.heading("Index", 14).para(3)
    doc = parse(f.write(tmp_path / "paper.pdf"))
    assert titles(doc) == ["1 Introduction", "Scope", "Method", "Results", "References", "Index"]


def test_numbered_sub_heading_a_little_larger_than_the_text_in_its_own_face_is_a_heading(tmp_path: Path):
    # a journal class sets its sections at 14 pt and its sub-sections at 11 pt over 10 pt text, all
    # in the text's upright face: the sub-sections are set off by space above and below
    f = Flow()
    for number, subs in ((1, ("Description of the class", "Required packages")), (2, ("Installation",))):
        f.heading(f"{number} {'Introduction' if number == 1 else 'Usage'}", 14, bold=False).para(5)
        for k, sub in enumerate(subs, start=1):
            f.heading(f"{number}.{k} {sub}", 11, bold=False, before=10).para(6)
    doc = parse(f.write(tmp_path / "journal.pdf"))
    assert levels(doc) == {
        "1 Introduction": 1,
        "1.1 Description of the class": 2,
        "1.2 Required packages": 2,
        "2 Usage": 1,
        "2.1 Installation": 2,
    }


def test_two_columns_are_read_apart_when_a_line_overhangs_the_right_margin(tmp_path: Path):
    # a two-column paper whose right column holds a long address set past the margin: the page's
    # width then puts the middle of the page on the right column's left edge; the gutter lies in
    # the white space between the columns all the same, and each column is read in turn
    text = (
        "the company reported revenue growth across its cloud",
        "segment while operating costs rose modestly and",
        "management expects continued momentum in the year",
        "subscription services during the next fiscal period.",
    )

    def column(x: float, top: float, n: int) -> list[Line]:
        return [Line(text[k % 4], x=x, y=top - 12 * k) for k in range(n)]

    lines = [
        *column(54, 720, 8),
        Line("1 Introduction", x=54, y=610, size=12, bold=True),
        *column(54, 590, 20),
    ]
    lines += [Line("2 Overview", x=318, y=720, size=12, bold=True), *column(318, 700, 10)]
    lines.append(Line("https://www.example.org/publications/proceedings-templates", x=318, y=580))
    lines += [Line("2.1 Template Styles", x=318, y=554, bold=True), *column(318, 536, 10)]
    doc = parse(write_pdf(tmp_path / "paper.pdf", [Page([*lines, Line("1", x=300, y=40, size=9)])]))
    assert titles(doc) == ["1 Introduction", "2 Overview", "2.1 Template Styles"]


def _two_pages_per_section(sections: list[str]) -> Flow:
    """A report whose sections each fill two pages, their headings at the top of the first."""
    f = Flow(top=700)
    for k, title in enumerate(sections):
        if k:
            f.new_page()
        f.heading(title, 14).para(12).para(12).new_page().para(12).para(12).para(12)
    return f


def test_running_head_that_names_the_current_section_is_no_heading(tmp_path: Path):
    # a report's pages are topped by a running head in italics at the text's size, set apart above
    # the text and naming the section the page is in, so that its words change from page to page
    sections = ["1 Introduction", "2 Methods", "3 Results", "4 Discussion", "5 Conclusions"]
    f = _two_pages_per_section(sections)
    for number, page in enumerate(f.pages):
        head = sections[number // 2].split(" ", 1)[1]
        page.lines.insert(0, Line(f"Annual Review: {head}", x=230, y=750, italic=True))
    doc = parse(f.write(tmp_path / "report.pdf"))
    assert titles(doc) == sections
    assert "Annual Review" not in doc.text  # page furniture, like a repeated header


def test_bold_running_heads_at_the_place_of_the_books_title_are_no_headings(tmp_path: Path):
    # a manual's left-hand pages are topped by its title in bold at the text's size, its right-hand
    # pages by the current section's number and title in that face at that place, each set apart
    # above the text: both are page furniture, whatever the section's head reads
    sections = ["1.1 Getting started", "1.2 Packaging new software", "1.3 Security updates"]
    sections += ["1.4 Patches to packages", "1.5 Shared libraries"]
    f = _two_pages_per_section(sections)
    for number, page in enumerate(f.pages):
        head = "Packaging Guide" if number % 2 else f"{sections[number // 2]} Packaging Guide"
        page.lines.insert(0, Line(head, x=72, y=750, bold=True))
    doc = parse(f.write(tmp_path / "manual.pdf"))
    assert titles(doc) == sections
    assert "Packaging Guide" not in doc.text


@pytest.mark.parametrize(
    ("title", "kind", "rest"),
    [
        ("\u7b2c\u4e00\u7ae0 \u7eea\u8bba", "chapter", "\u7eea\u8bba"),  # 第一章 绪论
        ("\u7b2c 2 \u7ae0 \u65b9\u6cd5", "chapter", "\u65b9\u6cd5"),  # 第 2 章 方法
        ("\u7b2c\u4e09\u7bc7 \u7ed3\u8bba", "part", "\u7ed3\u8bba"),  # 第三篇 结论
        ("\u9644\u5f55 A \u8bc1\u660e", "appendix", "\u8bc1\u660e"),  # 附录 A 证明
        (
            "\u7b2c II \u90e8 \u30ea\u30d5\u30a1\u30ec\u30f3\u30b9",
            "part",
            "\u30ea\u30d5\u30a1\u30ec\u30f3\u30b9",
        ),  # 第 II 部 リファレンス
        ("\u7b2c\u2162\u90e8 \u5b9f\u88c5", "part", "\u5b9f\u88c5"),  # 第Ⅲ部 実装
        ("\u7b2c\uff11\u7ae0 \u6982\u8981", "chapter", "\u6982\u8981"),  # 第１章 概要 (a full-width digit)
    ],
)
def test_chinese_and_japanese_chapter_labels_number_their_titles(title: str, kind: str, rest: str):
    # a Chinese thesis prints "第一章 绪论" ("Chapter 1 Introduction") where its bookmarks and its
    # contents say "绪论": the label numbers the chapter, and the title matches without it
    from sectionrag.parsers.headings import classify, normalize_for_match

    style = classify(title)
    assert style is not None and (style.kind, style.rest) == (kind, rest)
    assert normalize_for_match(title) == normalize_for_match(rest)


def test_a_short_chinese_heading_spaced_out_matches_its_unspaced_title():
    from sectionrag.parsers.headings import normalize_for_match

    assert normalize_for_match("\u81f4 \u8c22") == normalize_for_match("\u81f4\u8c22")  # 致 谢
    assert normalize_for_match("Risk Factors") == "risk factors"  # words of other scripts keep theirs


def test_a_chinese_contents_entry_with_its_fonts_leader_dots_reads_as_an_entry():
    # a Chinese thesis's contents: the title follows its number without a space, and the leader
    # dots are the font's middle dots (U+A78F, U+30FB), not full stops
    from sectionrag.parsers._pdf_toc import _LEADERED
    from sectionrag.parsers.headings import classify, is_toc_line, normalize_for_match

    for dot in ("\ua78f", "\u30fb", "\u00b7"):
        entry = "1\u7b80\u4ecb" + dot * 30 + " 14"  # 1简介ꞏꞏꞏ 14
        assert is_toc_line(entry)
        m = _LEADERED.match(entry)
        assert m is not None and (m["title"], m["page"]) == ("1\u7b80\u4ecb", "14")
    style = classify("1.2\u811a\u6ce8")  # 1.2脚注
    assert style is not None and (style.label, style.rest) == ("1.2", "\u811a\u6ce8")
    assert normalize_for_match("1.2\u811a\u6ce8") == normalize_for_match("1.2 \u811a\u6ce8")
    assert classify("2023\u5e74\u62a5\u544a") is None  # 2023年报告: a year, not a number of a heading


def test_a_watermark_stamped_on_every_page_is_no_heading(tmp_path: Path):
    # a vendor's manual stamps its name large across the middle of every page, the same words at
    # the same place: a page's furniture, not a top-level section on each page
    f = Flow()
    for number in (1, 2, 3):
        if number > 1:
            f.new_page()
        f.heading(f"{number} Chapter {number}", 20).para(8)
        f.heading(f"{number}.1 Key Terms", 14).para(12)
    for page in f.pages:
        page.lines.insert(0, Line("Mellanox Technologies", x=130, y=560, size=48, bold=True, italic=True))
    doc = parse(f.write(tmp_path / "manual.pdf"))
    assert levels(doc) == {
        "1 Chapter 1": 1,
        "1.1 Key Terms": 2,
        "2 Chapter 2": 1,
        "2.1 Key Terms": 2,
        "3 Chapter 3": 1,
        "3.1 Key Terms": 2,
    }
    assert "Mellanox" not in doc.text


def test_a_sections_own_list_of_topics_is_not_the_documents_contents(tmp_path: Path):
    # a reference manual prints no contents at its front; its second chapter opens an API section
    # with a leadered list of the functions it documents. The chapters and sections before that list
    # stay, and the list's entries do not rank the document's headings
    f = Flow()
    f.pages[0].lines.append(Line("Silo User's Guide", x=180, y=600, size=36, italic=True))
    for number in (1, 2):
        f.new_page().heading(f"Chapter {number} Topic {number}", 24).para(6)
        for k in (1, 2):
            f.heading(f"{number}.{k}. Section {number}.{k}", 12).para(8)
    f.new_page().heading("Error Handling", 18).para(3).gap(12)
    names = ["DBErrno", "DBErrString", "DBShowErrors", "DBErrlvl", "DBErrfunc"]
    for k, name in enumerate(names):
        f.line(f"{name} " + ". " * 30 + str(6 + k), size=12, after=14)
    for name in names:  # (each function's page carries its name as a running head)
        f.new_page().heading(f"{name} - function of the library", 14).para(8)
        f.lines.insert(0, Line(name, x=500, y=760, size=10, italic=True))
    doc = parse(f.write(tmp_path / "guide.pdf"))
    got = levels(doc)
    assert got.get("Chapter 1 Topic 1") == 1 and got.get("Chapter 2 Topic 2") == 1
    assert got.get("1.1. Section 1.1") == 2 and got.get("2.2. Section 2.2") == 2


def test_a_worded_label_beside_a_title_that_wraps_after_a_comma_is_one_heading(tmp_path: Path):
    # a FrameMaker manual sets "2 API Section" in bold a tab away from its title in the same size,
    # and the title wraps after a comma onto a second line
    f = Flow().heading("Chapter 2 Functions", 24).para(6).new_page()
    f.lines.append(Line("2 API Section", x=72, y=f.y, size=18, bold=True, family="Times"))
    f.lines.append(Line("Part Assemblies, AMR, Slide Surfaces,", x=207, y=f.y, size=18, family="Times"))
    f.y -= 21
    f.line("Nodesets and Other Mesh Subsets", x=207, size=18, family="Times", after=30)
    f.para(8).heading("DBMakeMrgtree", 14).para(8)
    doc = parse(f.write(tmp_path / "api.pdf"))
    assert "2 API Section Part Assemblies, AMR, Slide Surfaces, Nodesets and Other Mesh Subsets" in titles(
        doc
    )


def test_a_contents_of_links_without_page_numbers_is_no_section(tmp_path: Path):
    # a word processor's contents of links: the numbered headings one under another in bold
    # capitals, no page numbers; the same headings then open the sections of later pages
    heads = [
        "1 General Questions",
        "1.1 What is it?",
        "1.2 Why was it written?",
        "2 Operation",
        "2.1 Starting",
    ]
    f = Flow().heading("Frequently Asked Questions", 20).para(4).new_page()
    for head in heads:
        f.line(head.upper(), bold=True, size=12, after=14)
    for head in heads:
        chapter = head[1] == " "  # "1 General Questions", not "1.1 What is it?"
        if chapter:
            f.new_page()
        f.heading(head, 16 if chapter else 14).para(8)
    doc = parse(f.write(tmp_path / "faq.pdf"))
    assert [(s.title, s.page_start) for s in doc.sections if s.title != "Frequently Asked Questions"] == [
        ("1 General Questions", 3),
        ("1.1 What is it?", 3),
        ("1.2 Why was it written?", 3),
        ("2 Operation", 4),
        ("2.1 Starting", 4),
    ]


def test_a_first_page_of_prose_set_above_the_body_size_of_a_long_index_is_no_cover(tmp_path: Path):
    # a class's documentation: its prose in 10 pt, its change history and a long index in 9 pt,
    # which outweigh the prose and give the body size; the first page, its title over two
    # numbered sections and their paragraphs, is no cover page whose lines are all title
    f = Flow().heading("The Book Class", 18, bold=False).line("Jane Author", size=12, after=30)
    f.heading("1 Introduction", 14).para(4).heading("2 Options", 14).para(4)
    f.new_page().heading("Change History", 14)
    for k in range(6):
        f.line(f"v0.{k} General: the release note of version {k} says what changed then", size=9, after=11)
    for page in range(4):
        f.new_page().heading("Index", 14) if page == 0 else f.new_page()
        for k in range(55):
            f.line(f"\\entry{page}x{k} 12, 34, 56", size=9, after=11)
    doc = parse(f.write(tmp_path / "class-doc.pdf"))
    assert [(s.title, s.page_start) for s in doc.sections if s.title[:1].isdigit()] == [
        ("1 Introduction", 1),
        ("2 Options", 1),
    ]


def test_light_headings_a_size_above_the_text_count_in_a_script_without_case():
    # a Chinese thesis sets its unnumbered chapter titles (摘要, 致谢, 参考文献) in a black face
    # 1.25 times the text's size, in regular weight: their first letters are neither capitals nor
    # lower case, and they are headings as a web page's light sub-headings in Latin letters are
    from sectionrag.parsers._pdf_headings import find_headings
    from sectionrag.parsers._pdf_layout import assign_rows
    from sectionrag.parsers._pdfium import PdfLine

    titles_ = ["\u6458\u8981", "\u81f4\u8c22", "\u53c2\u8003\u6587\u732e"]  # 摘要 致谢 参考文献
    sentence = "\u7075\u7280\u4e00\u6307\u662f\u4e00\u79cd\u975e\u5e38\u5389\u5bb3\u7684\u6b66\u529f" * 2
    pages: list[list[PdfLine]] = []
    for index, title in enumerate(titles_):
        lines = [PdfLine(title, 270, 320, 100, 115, 15.0, False, False, "SimHei", index)]
        for k in range(8):
            top = 150 + 20 * k
            text = sentence + "\u3002"
            lines.append(PdfLine(text, 72, 520, top, top + 12, 12.0, False, False, "SimSun", index))
        assign_rows(lines)
        pages.append(lines)
    assert [c.title for c in find_headings(pages, 12.0)] == titles_


def test_a_lettered_appendix_in_capitals_over_its_own_first_sub_section_is_a_heading(tmp_path: Path):
    # ACM's formats set sections and an appendix in capitals of a sans face just above the size of
    # the serif text, and a sub-section may follow the appendix's title at once: "A RESEARCH
    # METHODS" heads no paragraph of its own, its "A.1 Part One" is numbered inside its letter
    def head(f: Flow, text: str) -> Flow:
        return f.heading(text, 10.5, bold=False, before=10)

    f = Flow()
    for text in ("1 INTRODUCTION", "2 RELATED WORK"):
        head(f, text).para(6)
    head(f, "A RESEARCH METHODS")
    head(f, "A.1 Part One").para(5).gap(6)
    head(f, "A.2 Part Two").para(5)
    for page in f.pages:
        for line in page.lines:
            if line.size == 10:
                line.family = "Times"
    doc = parse(f.write(tmp_path / "acm-appendix.pdf"))
    assert titles(doc) == [
        "1 INTRODUCTION",
        "2 RELATED WORK",
        "A RESEARCH METHODS",
        "A.1 Part One",
        "A.2 Part Two",
    ]
    assert section(doc, "A.1 Part One").path == ("A RESEARCH METHODS", "A.1 Part One")


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("DBShowErrors\u2014Set the error reporting mode.", "DBShowErrors"),
        ("DBErrno\u2014Get internal error number.", "DBErrno"),
        ("DB_VERSION_GE \u2014 Compile time macro to test the version", "DB_VERSION_GE"),
        ("dbset2dstrlen\u2014Set the size of a row", "dbset2dstrlen"),
        ("getValue \u2013 returns the stored value", "getValue"),
        ("*DEFAULT-DATABASE* \u2014 The database used by default", "*DEFAULT-DATABASE*"),
        ("fread() -- read a value from a file", "fread()"),
        ("Chapter 3 \u2014 Results", None),  # a label and its title
        ("Item 1A\u2014Risk Factors", None),
        ("Introduction\u2014Why this guide", None),  # a word, not a name in code
        ("DBErrno\u2014Errors", None),  # one word of gloss: a title of its own
        ("Pre-processing the data", None),
    ],
)
def test_a_reference_entry_is_named_by_the_code_name_its_heading_glosses(title: str, name: str | None):
    from sectionrag.parsers.headings import reference_name

    assert reference_name(title) == name


def test_reference_pages_without_contents_are_sections_titled_by_their_names(tmp_path: Path):
    # an API reference's pages open on the function's name and what it does, set large after a dash
    # and ending in a full stop like a sentence: each is a section, titled by the name alone
    f = Flow()
    f.heading("Chapter 2 Error Handling", 20, before=0).para(6)
    names = ["DBShowErrors", "DBErrno", "DBSetCompression"]
    for name in names:
        f.new_page()
        f.heading(f"{name}\u2014Set the error reporting mode of the library.", 14, bold=False, before=0)
        f.line("Synopsis:", italic=True, after=20).para(8)
    doc = parse(f.write(tmp_path / "reference.pdf"))
    assert titles(doc) == ["Chapter 2 Error Handling", *names]
    assert "DBErrno\u2014Set the error reporting mode of the library." in doc.text


def test_api_sections_numbered_anew_after_the_chapters_sections_keep_their_functions(tmp_path: Path):
    # a manual's second chapter has sections 2.1 and 2.2, then API sections numbered anew ("1 API
    # Section", "2 API Section") whose pages document one function each: the restart is a series
    # of its own, confirmed by its second member, and the functions nest under their API section
    f = Flow()
    f.heading("Chapter 1 Introduction", 24, before=0).para(6)
    f.heading("1.1 Overview", 14).para(6)
    f.new_page().heading("Chapter 2 Functions", 24, before=0).para(6)
    f.heading("2.1 Conventions", 14).para(6).heading("2.2 Calling Sequence", 14).para(6)
    api = {
        "1 API Section Error Handling": ["DBShowErrors", "DBErrno"],
        "2 API Section Files": ["DBCreate", "DBOpen"],
    }
    for api_section, names in api.items():
        f.new_page().heading(api_section, 18, before=0).para(5)
        for name in names:
            f.new_page()
            f.heading(f"{name}\u2014Set the error reporting mode of the library.", 14, bold=False, before=0)
            f.line("Synopsis:", italic=True, after=20).para(8)
    doc = parse(f.write(tmp_path / "api.pdf"))
    paths = [s.path for s in doc.sections]
    for api_section, names in api.items():
        assert ("Chapter 2 Functions", api_section) in paths
        for name in names:
            assert ("Chapter 2 Functions", api_section, name) in paths


def test_a_command_references_page_template_headings_are_sections(tmp_path: Path):
    # each command's page repeats "Name", "Synopsis", "Description" and "Return Value" set large:
    # a page template, whose headings are sections under their command
    f = Flow()
    f.heading("Command Reference", 24, before=0).para(4)
    commands = ["pg_connect", "pg_dbinfo", "pg_disconnect", "pg_exec", "pg_result"]
    for k, command in enumerate(commands):
        f.new_page().heading(command, 18, before=0).para(1 + k)  # (each page's headings at other heights)
        for sub in ("Name", "Synopsis", "Description", "Return Value"):
            f.heading(sub, 14).para(3)
    doc = parse(f.write(tmp_path / "commands.pdf"))
    paths = {s.path for s in doc.sections}
    for command in commands:
        for sub in ("Name", "Synopsis", "Description", "Return Value"):
            assert ("Command Reference", command, sub) in paths


def test_one_title_recurring_large_over_each_worked_problem_is_a_label(tmp_path: Path):
    # "Worked problem" set well above the text over each problem, the only title of its face that
    # recurs: a label, not five sections
    f = Flow()
    f.heading("Mechanics", 24, before=0).para(4)
    for k, topic in enumerate(["Velocity", "Acceleration", "Momentum", "Energy", "Torque"]):
        f.new_page().heading(topic, 16, before=0).para(2 + k).heading("Worked problem", 14).para(4)
    doc = parse(f.write(tmp_path / "mechanics.pdf"))
    assert titles(doc) == ["Mechanics", "Velocity", "Acceleration", "Momentum", "Energy", "Torque"]


def test_function_signatures_set_bold_over_their_descriptions_are_sections(tmp_path: Path):
    # a word processor's API guide heads each callback's description with its signature in bold at
    # the text's size: a heading, not a sentence for its lower-case start
    f = Flow()
    f.heading("3. Writing custom callbacks", 18, before=0).para(4)
    signatures = ["void resetfn(void *parent)", "int scanfn(void *parent, const char *argval)"]
    signatures.append("int checkfn(void *parent)")
    for signature in signatures:
        f.heading(signature, 10, before=16).para(5)
    f.heading("Words of restraint", 10, before=16).para(5)
    doc = parse(f.write(tmp_path / "callbacks.pdf"))
    assert titles(doc) == ["3. Writing custom callbacks", *signatures, "Words of restraint"]
    assert {levels(doc)[title] for title in [*signatures, "Words of restraint"]} == {2}


def test_an_overloads_count_set_smaller_after_its_heading_stays_in_the_heading(tmp_path: Path):
    # Doxygen sets an overloaded member's count after its heading, smaller and in another family
    # ("5.1.2.3 fread()" "[1/3]"): a word after a head is no paragraph run into it, and with no
    # contents to vouch for it the heading is found whole
    f = Flow()
    f.heading("5 Namespace Documentation", 16, before=0).para(5)
    members = [("5.1.1 fread()", "[1/2]"), ("5.1.2 fread()", "[2/2]"), ("5.1.3 fwrite()", "")]
    for title, count in members:
        f.heading(title, 11, before=18)
        if count:
            x = 78 + 4.75 * len(title)  # (a space or so after the title)
            f.lines.append(Line(count, x=x, y=f.y + 19, size=9.5, bold=True, family="Times"))
        f.para(5)
    doc = parse(f.write(tmp_path / "members.pdf"))
    assert titles(doc) == [
        "5 Namespace Documentation",
        "5.1.1 fread() [1/2]",
        "5.1.2 fread() [2/2]",
        "5.1.3 fwrite()",
    ]


def test_a_title_pages_date_set_flush_right_above_the_contents_is_no_entry(tmp_path: Path):
    # a Sphinx manual's first page: the title, the release, the author and the date flush right
    # ("Feb 27, 2023", its year where the contents below sets its page numbers), then the contents;
    # the date is no entry for page 2023 a level above the chapters
    chapters = [("1 Overview", ["1.1 Components"]), ("2 Installation", ["2.1 Using pip", "2.2 From source"])]
    chapters.append(("3 Tutorial", []))
    rows = [(c, 72.0, True) for c, _ in chapters] + [(s, 90.0, False) for _, subs in chapters for s in subs]
    rows.sort(key=lambda r: r[0])
    placed = [
        (title, 2 + int(title[0]) - 1, x, 620 - 16 * k, bold) for k, (title, x, bold) in enumerate(rows)
    ]
    first = Page([Line("PETSc for Python", x=300, y=740, size=24, bold=True)])
    first.lines.append(Line("Lisandro Dalcin", x=380, y=700, size=14, bold=True))
    first.lines.append(Line("Contents", y=650, size=14, bold=True))
    _flush_right([first], [[("Feb 27,", 2023, 430, 675, True), *placed]], tmp_path)
    f = Flow()
    f.pages = [first]
    for chapter, subs in chapters:
        f.new_page().heading(chapter, 16, before=0).para(8)
        for sub in subs:
            f.heading(sub, 12).para(8)
    doc = parse(f.write(tmp_path / "manual.pdf"))
    got = levels(doc)
    assert got.get("1 Overview") == got.get("3 Tutorial") == 1
    assert got.get("1.1 Components") == got.get("2.2 From source") == 2
