"""Printed contents and headings laid out in ways a simple reader gets wrong, on small generated PDFs.

Parts listed flush with their chapters (only a size larger), a contents in two
columns whose rows do not line up and one that ends part-way down a page of
text, a bold numbered list item whose number the contents gives to a chapter,
a part label over a title that is itself a label word, a heading beside the
other column's equation number, a book's front titles in capitals at the text
size, bibliography entries in italics, lettered appendices, contents entries
whose headings stand level with a line of the other column, a contents without
leaders or a column of numbers, a short contents before the full one, a part's own
label set over its title two lines apart, and a row that lost its page number.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line, Page, body_lines, write_pdf
from sectionrag.types import Document
from test_pdf_book_structure import tree
from test_pdf_headings import Flow, parse


def _leadered(title: str, page: int) -> str:
    return f"{title} " + ". " * 20 + str(page)


def _print_contents(page: Page, entries: list[tuple[str, int, float, float]]) -> None:
    """Print a contents on ``page``: its title, then a leadered row per (title, page, indent, size)."""
    page.lines.append(Line("Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, number, x, size in entries:
        page.lines.append(Line(_leadered(title, number), x=x, y=y, size=size, bold=x == 72.0))
        y -= 16


def test_parts_listed_flush_with_the_chapters_but_larger_stand_above_them(tmp_path: Path):
    # "Basics" in 12 pt bold, flush with "Copyright" and "Introduction" in 10 pt bold: a part
    f = Flow()
    f.heading("Manual", 20, before=0).para(4).new_page()
    contents = f.pages[-1]
    f.new_page()
    entries: list[tuple[str, int, float, float]] = []
    for part, chapters in (("Basics", ["Copyright", "Introduction"]), ("Commands", ["Plot", "Set", "Show"])):
        f.heading(part, 22, before=0).para(3)
        entries.append((part, len(f.pages), 72.0, 12.0))
        for chapter in chapters:
            f.heading(chapter, 14).para(6)
            entries.append((chapter, len(f.pages), 72.0, 10.0))
            f.heading(f"{chapter} options", 11).para(5)
            entries.append((f"{chapter} options", len(f.pages), 90.0, 10.0))
        f.new_page()
    f.pages.pop()
    _print_contents(contents, entries)
    doc = parse(f.write(tmp_path / "flush-parts.pdf"))
    levels = {title: level for level, title in tree(doc)}
    assert levels["Basics"] == levels["Commands"]
    assert levels["Basics"] < levels["Copyright"] == levels["Plot"] == levels["Show"]
    assert levels["Plot"] < levels["Plot options"]


def _chapters() -> list[tuple[str, list[str]]]:
    words = ("one", "two", "three", "four", "five", "six")
    return [(f"Chapter {w}", [f"Topic {w} {k}" for k in (1, 2)]) for w in words]


def _handbook(chapters: list[tuple[str, list[str]]]) -> tuple[Flow, Page, list[tuple[str, int, bool]]]:
    """A title page, to hold the contents, then each chapter and its topics, all headed in one face.

    Returns the flow, the title page and the contents' rows (title, page number, whether a chapter).
    """
    f = Flow()
    f.heading("Handbook", 24, before=0).para(3)
    contents = f.pages[-1]
    f.new_page()
    rows: list[tuple[str, int, bool]] = []
    for chapter, topics in chapters:
        rows.append((chapter, len(f.pages), True))
        f.heading(chapter, 12, before=0).para(8)
        for topic in topics:
            rows.append((topic, len(f.pages), False))
            f.heading(topic, 12).para(8)
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("Contents", y=600, size=16, bold=True))
    return f, contents, rows


def _assert_levels_by_contents(doc: Document, chapters: list[tuple[str, list[str]]]) -> None:
    levels = {title: level for level, title in tree(doc)}
    for chapter, topics in chapters:
        assert levels[chapter] == levels["Chapter one"]
        assert all(levels[topic] == levels[chapter] + 1 for topic in topics)


def test_contents_in_two_columns_whose_rows_do_not_line_up_gives_the_levels(tmp_path: Path):
    # chapters and topics share one face on the pages: only the contents' indents tell their levels;
    # the right column's rows sit half a row lower than the left one's
    chapters = _chapters()
    f, contents, rows = _handbook(chapters)
    half = (len(rows) + 1) // 2
    for k, (title, page, chapter) in enumerate(rows):
        left = k < half
        y = 570 - 15 * (k if left else k - half) - (0 if left else 7)
        x = (72.0 if chapter else 86.0) + (0 if left else 250.0)
        contents.lines.append(Line(title + " . . . . .", x=x, y=y, size=10, bold=chapter))
        contents.lines.append(Line(str(page), x=290.0 if left else 540.0, y=y, size=10, bold=chapter))
    doc = parse(f.write(tmp_path / "two-column-contents.pdf"))
    _assert_levels_by_contents(doc, chapters)


def test_two_column_contents_entry_with_its_number_run_into_its_title_is_an_entry(tmp_path: Path):
    # chapters and topics share one face on the pages: only the contents tells their levels; a long
    # chapter title ends close enough to its page number to make one piece with it ("... others 4"),
    # its end aligned with the other page numbers of its column, not with those of the other column
    long_title = "Chapter three, with a title longer than others"
    chapters = _chapters()
    chapters[2] = (long_title, chapters[2][1])
    f, contents, rows = _handbook(chapters)
    half = len(rows) // 2
    for k, (title, page, chapter) in enumerate(rows):
        left = k < half
        y = 570 - 15 * (k if left else k - half)
        x = (72.0 if chapter else 86.0) + (0 if left else 250.0)
        shown = title if chapter else title + " . . . . ."
        contents.lines.append(Line(shown, x=x, y=y, size=10, bold=chapter))
        contents.lines.append(Line(str(page), x=290.0 if left else 540.0, y=y, size=10, bold=chapter))
    doc = parse(f.write(tmp_path / "two-column-contents-run-in-number.pdf"))
    _assert_levels_by_contents(doc, chapters)


def test_text_under_a_contents_on_its_page_is_the_first_chapter(tmp_path: Path):
    # the contents ends half-way down page 1 and chapter one starts under it
    f = Flow()
    chapters = _chapters()[:4]
    f.heading("Contents", 16, before=0)
    contents_top = f.y
    f.y -= 15 * (3 * len(chapters)) + 20
    rows: list[tuple[str, int, float]] = []
    for n, (chapter, topics) in enumerate(chapters):
        if n:
            f.new_page()
        f.heading(chapter, 16, before=0 if n else 14).para(6)
        rows.append((chapter, len(f.pages), 72.0))
        for topic in topics:
            f.heading(topic, 12).para(6)
            rows.append((topic, len(f.pages), 90.0))
    for k, (title, page, x) in enumerate(rows):
        f.pages[0].lines.append(Line(_leadered(title, page), x=x, y=contents_top - 15 * k))
    doc = parse(f.write(tmp_path / "contents-then-text.pdf"))
    found = tree(doc)
    assert (1, "Chapter one") in found and (2, "Topic one 1") in found
    first = next(s for s in doc.sections if s.title == "Chapter one")
    assert first.page_start == 1
    assert [t for _, t in found].count("Topic one 2") == 1  # its contents line is not a section


def test_bold_list_item_numbered_like_a_listed_chapter_is_not_a_section(tmp_path: Path):
    # inside chapter 2, "1. Precision" and "3. Separator" are the steps of a numbered list
    f = Flow()
    f.heading("Guide", 20, before=0).para(4).new_page()
    contents = f.pages[-1]
    f.new_page()
    listed: list[tuple[str, int, float]] = []
    for number, name in ((1, "Introduction"), (2, "Export"), (3, "Import")):
        f.heading(f"{number} {name}", 16, before=0).para(5)
        listed.append((f"{number} {name}", len(f.pages), 72.0))
        f.heading(f"{number}.1 Overview of {name.lower()}", 12).para(5)
        listed.append((f"{number}.1 Overview of {name.lower()}", len(f.pages), 90.0))
        if number == 2:
            for step, word in ((1, "Precision"), (3, "Separator"), (4, "Encoding")):
                f.heading(f"{step}. {word}", 10, before=4).para(2)
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, page, x in listed:
        contents.lines.append(Line(_leadered(title, page), x=x, y=y))
        y -= 14
    doc = parse(f.write(tmp_path / "list-items.pdf"))
    titles = [title for _, title in tree(doc)]
    assert "2 Export" in titles and "2.1 Overview of export" in titles
    assert not any(t.endswith(("Precision", "Separator", "Encoding")) for t in titles)


def test_part_label_over_a_label_word_title_is_one_section(tmp_path: Path):
    # "Part III." over "Appendix" (the part's title), then the appendix's own sections
    f = Flow()
    f.heading("1 Usage", 16, before=0).para(6).heading("1.1 Options", 12).para(6)
    f.new_page()
    f.heading("Part III.", 20, before=0)
    f.heading("Appendix", 24, before=6).para(3)
    f.heading("A. Examples", 16).para(6).heading("A.1 Small example", 12).para(6)
    doc = parse(f.write(tmp_path / "part-appendix.pdf"))
    titles = [title for _, title in tree(doc)]
    assert "Part III. Appendix" in titles
    assert "Part III." not in titles and "Appendix" not in titles


def test_heading_atop_the_right_column_beside_an_equation_number_is_a_section(tmp_path: Path):
    # two columns of 8 pt text; the left column's displayed equation, numbered "(6)", shares its
    # baseline with "Competing interests" in the right column: not a table row
    first = Flow()
    first.heading("Sorting Widgets", 20, before=0).para(20)
    first.heading("Introduction", 11, bold=False).para(20)
    pages = [*first.pages, Page()]
    page = pages[-1]
    for x, seed in ((72.0, 1), (320.0, 2)):
        lines, _ = body_lines(48, seed, 690, x=x, width_words=6)
        for ln in lines:
            ln.size = 8
        page.lines.extend(ln for ln in lines if not 444 < ln.y < 480)
    page.lines.append(Line("x = y + z", x=150, y=460, size=8))
    page.lines.append(Line("(6)", x=280, y=460, size=8))
    page.lines.append(Line("Competing interests", x=320, y=460, size=11))
    page.lines.append(Line("Methods", x=72, y=706, size=11))
    page.lines.append(Line("Results", x=320, y=706, size=11))
    doc = parse(write_pdf(tmp_path / "two-columns-equation.pdf", pages))
    titles = [title for _, title in tree(doc)]
    assert "Competing interests" in titles


def test_book_titles_in_capitals_at_the_text_size_are_sections_beside_the_chapters(tmp_path: Path):
    # a thesis sets "ACKNOWLEDGMENTS", "CONTENTS" and "LIST OF FIGURES" in capitals at the text
    # size, each over a short line; the lists are contents pages, their titles still sections
    f = Flow()
    f.heading("A Thesis on Widgets", 24, before=0).para(2).new_page()
    f.heading("ACKNOWLEDGMENTS", 10, bold=False, before=0)
    f.y -= 20
    f.line("Thanks to all.", after=14).para(6).new_page()
    contents = f.pages[-1]
    f.new_page()
    figures = f.pages[-1]
    f.new_page()
    listed: list[tuple[str, int, float]] = []
    for number, name in ((1, "Introduction"), (2, "Method"), (3, "Results")):
        f.heading(f"{number} {name}", 18, before=0).para(6)
        listed.append((f"{number} {name}", len(f.pages), 72.0))
        f.heading(f"{number}.1 Details of {name.lower()}", 12).para(6)
        listed.append((f"{number}.1 Details of {name.lower()}", len(f.pages), 90.0))
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("CONTENTS", y=720, size=10))
    for k, (title, page, x) in enumerate(listed):
        contents.lines.append(Line(_leadered(title, page), x=x, y=680 - 14 * k))
    figures.lines.append(Line("LIST OF FIGURES", y=720, size=10))
    for k in range(5):
        figures.lines.append(
            Line(_leadered(f"Figure {k + 1}  A widget seen from side {k}", 4 + k // 2), y=680 - 14 * k)
        )
    doc = parse(f.write(tmp_path / "book-titles.pdf"))
    levels = {title: level for level, title in tree(doc)}
    assert (
        levels["ACKNOWLEDGMENTS"]
        == levels["CONTENTS"]
        == levels["LIST OF FIGURES"]
        == levels["1 Introduction"]
    )
    assert not any(title.startswith("Figure") for title in levels)


def test_bibliography_entries_opening_in_italics_are_not_sections(tmp_path: Path):
    # "[8] G. Dueck. Trilogie 2.1: ..." set in italics, spaced from the entry above, over an
    # upright line: an entry of the bibliography, not a run-in heading
    f = Flow()
    f.heading("1 Introduction", 16, before=0).para(8)
    f.heading("References", 16)
    for k in range(1, 9):
        f.y -= 8
        f.line(f"[{k}] Ada Lovelace. Engine Notes {k}: Sketch \u2013", italic=k % 2 == 0, after=12)
        f.line("Analytical Engine. London: Taylor, 1843.", after=12)
    doc = parse(f.write(tmp_path / "bibliography.pdf"))
    titles = [title for _, title in tree(doc)]
    assert titles == ["1 Introduction", "References"]


def test_lettered_appendices_in_capitals_stand_beside_the_numbered_sections(tmp_path: Path):
    # a paper: "1. INTRODUCTION" in capitals at the text size; a bare "APPENDIX" divider over
    # "A. DATA", "B. ...", "C. ..." ("C." is a letter here, not the roman 100), "D. ..."
    f = Flow()
    f.heading("Sorting Widgets at Scale", 20, before=0).para(10)
    for number, word in ((1, "INTRODUCTION"), (2, "METHOD"), (3, "RESULTS")):
        f.heading(f"{number}. {word}", 10, bold=False, before=16, x=200).para(10)
    f.heading("APPENDIX", 10, bold=False, before=24, x=260)
    for letter, word in zip(
        "ABCD", ("DATA SOURCES", "EXTRA TABLES", "ROTATING TABLES", "UNITS"), strict=True
    ):
        f.heading(f"{letter}. {word}", 10, bold=False, before=16, x=200).para(10)
    f.line("(GM)", bold=True, x=260, after=24).para(4)
    doc = parse(f.write(tmp_path / "appendices.pdf"))
    found = tree(doc)
    levels = {title: level for level, title in found}
    assert "APPENDIX" not in levels and "(GM)" not in levels
    top = levels["1. INTRODUCTION"]
    assert [levels[x] for x in ("A. DATA SOURCES", "B. EXTRA TABLES", "C. ROTATING TABLES", "D. UNITS")] == [
        top
    ] * 4


def test_right_column_headings_beside_a_table_in_the_left_column_are_sections(tmp_path: Path):
    # a two-column page: a table of short cells runs down the left column while the right column
    # goes on with its text and small bold headings on the same baselines as the table's rows
    first = Flow()
    first.heading("Sorting Widgets", 20, before=0).para(20)
    pages = [*first.pages, Page()]
    page = pages[-1]
    left, _ = body_lines(12, 3, 700, x=72, width_words=8)
    page.lines.extend(left)
    y = 540.0
    for k in range(12):
        page.lines.append(Line(f"Language {chr(65 + k)}", x=72, y=y))
        page.lines.append(Line("yes", x=200, y=y))
        y -= 12
    page.lines.extend(body_lines(30, 4, 380, x=72, width_words=8)[0])
    heads = ("Resumen", "Sommario", "Ringkasan")
    page.lines.extend(body_lines(13, 9, 700, x=320, width_words=8)[0])
    for k, (head, y) in enumerate(zip(heads, (540.0, 480.0, 420.0), strict=True)):
        page.lines.append(Line(head, x=320, y=y, size=9, bold=True))
        page.lines.extend(body_lines(3, 10 + k, y - 12, x=320, width_words=8)[0])
    page.lines.extend(body_lines(25, 20, 360, x=320, width_words=8)[0])
    doc = parse(write_pdf(tmp_path / "table-beside-headings.pdf", pages))
    titles = [title for _, title in tree(doc)]
    assert [t for t in titles if t in heads] == list(heads)


def test_contents_entry_heading_level_with_the_other_columns_text_is_located(tmp_path: Path):
    # two columns of text; the contents lists titles that the pages print in the body face,
    # some at the top of the right column, on the baseline of a line of the left column
    f = Flow()
    f.heading("Field Notes", 20, before=0).para(3).new_page()
    contents = f.pages[-1]
    contents.lines.append(Line("Contents", y=720, size=16, bold=True))
    heads = [f"Notes from station {w}" for w in ("one", "two", "three", "four")]
    for k, head in enumerate(heads):
        contents.lines.append(Line(_leadered(head, 3 + k // 2), y=690 - 16 * k))
    pages = f.pages
    for n in range(2):
        page = Page()
        page.lines.extend(body_lines(50, 2 * n, 700, x=72, width_words=6)[0])
        for x, head, seed in ((72.0, heads[2 * n], 5 + n), (320.0, heads[2 * n + 1], 8 + n)):
            if x == 72.0:
                page.lines.insert(0, Line(head, x=x, y=712))
                continue
            page.lines.extend(body_lines(20, seed, 700, x=x, width_words=6)[0])
            page.lines.append(Line(head, x=x, y=460))  # level with a left-column line at y 460
            page.lines.extend(body_lines(28, seed + 3, 448, x=x, width_words=6)[0])
        pages.append(page)
    doc = parse(write_pdf(tmp_path / "two-columns-contents-headings.pdf", pages))
    found = {s.title: s.page_start for s in doc.sections}
    for k, head in enumerate(heads):
        assert found.get(head) == 3 + k // 2, (head, found)


def test_contents_without_leaders_or_aligned_numbers_gives_the_chapters(tmp_path: Path):
    # "introduction 4": each entry's number right after its title, no leaders, no number column;
    # the chapters print their titles in small capitals and an edition history lists years
    f = Flow()
    f.heading("Widget Module", 20, before=0).para(2)
    for k, year in enumerate((2001, 2004, 2008, 2012, 2015)):
        f.line(f"Edition {k + 1}: 3 June {year}", x=200)
    f.new_page()
    contents = f.pages[-1]
    f.new_page()
    chapters = ("introduction", "usage", "metadata", "scripting", "register")
    rows = []
    for name in chapters:
        rows.append((name, len(f.pages)))
        f.line(name.upper(), x=200, size=8, after=40).para(12).para(12).new_page()
    f.pages.pop()
    contents.lines.append(Line("Part 1: Manual", x=150, y=700, size=20))
    for k, (name, page) in enumerate(rows):
        contents.lines.append(Line(f"{name} {page}", x=46, y=660 - 24 * k))
    doc = parse(f.write(tmp_path / "ragged-contents.pdf"))
    found = {s.title: s.page_start for s in doc.sections}
    for name, page in rows:
        assert found.get(name.upper()) == page, (name, found)
    assert not any(title.startswith("Edition") for title in found)
    assert not any(s.page_start == 2 for s in doc.sections)  # the contents' lines are not sections


def test_short_contents_before_the_full_one_gives_way_to_it(tmp_path: Path):
    # a short contents lists the chapters; the full contents on the next page adds their sections,
    # set in the text face on the pages: only the full contents makes them sections
    f = Flow()
    f.heading("Handbook", 24, before=0).para(3).new_page()
    short, full = f.pages[-1], f.new_page().pages[-1]
    f.new_page()
    rows: list[tuple[str, int, bool]] = []
    for chapter, topics in _chapters():
        rows.append((chapter, len(f.pages), True))
        f.heading(chapter, 12, before=0).para(8)
        for topic in topics:
            rows.append((topic, len(f.pages), False))
            f.gap(12).line(topic).para(8)  # in the text face: only the full contents lists it
        for _ in range(3):
            f.new_page().para(30)
        f.new_page()
    f.pages.pop()
    short.lines.append(Line("Short contents", y=720, size=16, bold=True))
    full.lines.append(Line("Contents", y=720, size=16, bold=True))
    chapters = [(title, page) for title, page, chapter in rows if chapter]
    for k, (title, page) in enumerate(chapters):
        short.lines.append(Line(_leadered(title, page), y=690 - 16 * k))
    for k, (title, page, chapter) in enumerate(rows):
        full.lines.append(Line(_leadered(title, page), x=72.0 if chapter else 90.0, y=690 - 16 * k))
    doc = parse(f.write(tmp_path / "short-and-full-contents.pdf"))
    levels = {title: level for level, title in tree(doc)}
    for chapter, topics in _chapters():
        assert levels[chapter] == levels["Chapter one"]
        assert all(levels.get(topic) == levels[chapter] + 1 for topic in topics), levels


def test_listed_heading_wrapped_onto_a_second_line_keeps_both(tmp_path: Path):
    # an annual report's contents lists "Item 5. Market for ... Equity Securities" on one line; the
    # page sets it in capitals over two lines ("... AND ISSUER" / "PURCHASES OF EQUITY SECURITIES"):
    # the heading is both lines, not the first one, which alone reads like the listed title's start
    long = "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer"
    items = [
        "Item 1. Business",
        "Item 2. Properties",
        f"{long} Purchases of Equity Securities",
        "Item 6. Reserved",
    ]
    f = Flow()
    f.heading("Annual Report", 20, before=0).para(4).new_page()
    contents = f.pages[-1]
    for item in items:
        f.new_page()
        if item.startswith("Item 5."):
            # (bold at the text's size, its lines at the text's leading: it reads as a bold paragraph
            # but for the contents)
            f.gap(14).line(long.upper(), bold=True).line("PURCHASES OF EQUITY SECURITIES", bold=True).para(8)
        else:
            f.heading(item.upper(), 10).para(8)
    contents.lines.append(Line("TABLE OF CONTENTS", y=720, size=12, bold=True))
    for k, item in enumerate(items):
        contents.lines.append(Line(_leadered(item, k + 3), x=72, y=680 - 16 * k, size=9))
    doc = parse(f.write(tmp_path / "wrapped-item.pdf"))
    assert [s.title for s in doc.sections if s.title.startswith("ITEM 5")] == [
        f"{long.upper()} PURCHASES OF EQUITY SECURITIES"
    ]


def test_appendix_listed_flush_with_numbered_chapters_does_not_hold_the_index_after_it(tmp_path: Path):
    # "Appendix A References" listed like "2 Spreadsheets", in its face, then "Concept index":
    # three chapters of one level, not an appendix over the index
    f = Flow()
    f.heading("Data Import", 20, before=0).para(4).new_page()
    contents = f.pages[-1]
    f.new_page()
    entries: list[tuple[str, int, float, float, bool]] = []
    chapters = (("1 Introduction", ["1.1 Imports", "1.2 Exports"]), ("2 Spreadsheets", ["2.1 Variations"]))
    for chapter, sections in (*chapters, ("Appendix A References", []), ("Concept index", [])):
        f.heading(chapter, 17, before=0).para(6)
        entries.append((chapter, len(f.pages), 72.0, 14.0, True))
        for title in sections:
            f.heading(title, 14).para(6)
            entries.append((title, len(f.pages), 90.0, 11.0, False))
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("Table of Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, page, x, size, bold in entries:
        contents.lines.append(Line(_leadered(title, page), x=x, y=y, size=size, bold=bold))
        y -= 18
    doc = parse(f.write(tmp_path / "appendix-flush.pdf"))
    levels = {title: level for level, title in tree(doc)}
    top = levels["1 Introduction"]
    assert levels["Appendix A References"] == levels["Concept index"] == levels["2 Spreadsheets"] == top, (
        levels
    )
    assert levels["1.1 Imports"] == top + 1


def test_front_matter_the_contents_leaves_out_takes_the_level_of_listed_entries_in_its_face(tmp_path: Path):
    # "Symbols and Notation" after the contents, set like the listed "Acknowledgements" and
    # "Publications" at the back: a chapter-level section, not one below every listed level
    f = Flow()
    f.heading("A Thesis on Widgets", 24, before=0).para(4).new_page()
    contents = f.pages[-1]
    f.new_page()
    f.heading("Symbols and Notation", 18, bold=False, before=0).para(8).new_page()
    entries: list[tuple[str, int, float]] = []
    for chapter, sections in (("1 Introduction", ["1.1 Scope", "1.2 Outline"]), ("2 Method", ["2.1 Data"])):
        f.heading(chapter, 16, bold=False, before=0).para(6)
        entries.append((chapter, len(f.pages), 72.0))
        for title in sections:
            f.heading(title, 12, bold=False).para(6)
            entries.append((title, len(f.pages), 90.0))
        f.new_page()
    for back in ("Acknowledgements", "Publications of the Author"):
        f.heading(back, 18, bold=False, before=0).para(6)
        entries.append((back, len(f.pages), 72.0))
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, page, x in entries:
        contents.lines.append(Line(_leadered(title, page), x=x, y=y, size=11))
        y -= 18
    doc = parse(f.write(tmp_path / "unlisted-front.pdf"))
    levels = {title: level for level, title in tree(doc)}
    top = levels["1 Introduction"]
    assert levels["Symbols and Notation"] == levels["Acknowledgements"] == top, levels
    assert levels["1.1 Scope"] == top + 1


def test_unlisted_heading_in_the_chapters_face_beside_unlisted_book_titles_is_a_chapter(tmp_path: Path):
    # "References", "Change History" and "Index" in the face of the listed chapters, none listed:
    # the book's usual titles do not make the face one of unlisted headings of unknown level
    f = Flow()
    contents = f.pages[-1]
    f.new_page()
    entries: list[tuple[str, int, float]] = []
    for chapter, sections in (
        ("1 Introduction", ["1.1 Scope"]),
        ("2 Interface", ["2.1 Options", "2.2 Commands"]),
        ("3 Notes", ["3.1 Fonts"]),
        ("4 Implementation", ["4.1 Macros"]),
    ):
        f.heading(chapter, 14, before=0).para(6)
        entries.append((chapter, len(f.pages), 72.0))
        for title in sections:
            f.heading(title, 12).para(6)
            entries.append((title, len(f.pages), 90.0))
        f.new_page()
    for back in ("References", "Change History", "Index"):
        f.heading(back, 14, before=0).para(6).new_page()
    f.pages.pop()
    contents.lines.append(Line("Contents", y=720, size=14, bold=True))
    y = 680.0
    for title, page, x in entries:
        contents.lines.append(Line(_leadered(title, page), x=x, y=y, size=10, bold=x == 72.0))
        y -= 16
    doc = parse(f.write(tmp_path / "unlisted-back.pdf"))
    levels = {title: level for level, title in tree(doc)}
    top = levels["1 Introduction"]
    assert levels["References"] == levels["Change History"] == levels["Index"] == top, levels
    assert levels["2.1 Options"] == top + 1


def test_chinese_thesis_references_left_out_of_the_contents_stand_with_the_chapters():
    # "参考文献" (references) in the face of the listed chapters and back matter, itself not listed:
    # a book's usual title in Chinese takes the level of its face's entries
    from sectionrag.parsers._pdf_headings import Candidate, numbering_order
    from sectionrag.parsers._pdf_levels import rank_headings
    from sectionrag.parsers._pdfium import PdfLine

    heads = [
        ("\u6458 \u8981", 15.7, 1),  # abstract
        ("Abstract", 15.7, 1),
        ("\u7b2c\u4e00\u7ae0 \u7eea\u8bba", 15.7, None),  # chapter one, not located in the contents
        ("1.1 \u7814\u7a76\u5185\u5bb9", 13.9, 2),
        ("1.2 \u95ee\u9898", 13.9, 2),
        ("\u81f4 \u8c22", 15.7, 1),  # acknowledgements
        ("\u53c2\u8003\u6587\u732e", 15.7, None),  # references
        ("\u9644\u5f55 A \u7b2c\u4e00\u4e2a\u9644\u5f55", 15.7, 1),  # appendix A
        ("\u9644\u5f55 B \u7b2c\u4e8c\u4e2a\u9644\u5f55", 15.7, 1),  # appendix B
        ("\u4f5c\u8005\u7b80\u4ecb \u8bba\u6587\u6e05\u5355", 15.7, None),  # about the author
    ]
    candidates = []
    for k, (title, size, level) in enumerate(heads):
        line = PdfLine(title, 50, 200, 100, 110, size, False, False, "SimSun", k)
        order, numbered = numbering_order(title)
        c = Candidate([line], title, size, False, order, numbered, k, 0)
        c.toc_level = level
        candidates.append(c)
    offsets = {id(c.lines[0]): 100 * k for k, c in enumerate(candidates)}
    got = {h.title: h.rank for h in rank_headings(candidates, offsets)}
    assert got["\u53c2\u8003\u6587\u732e"] == got["\u81f4 \u8c22"] == got["Abstract"], got
    assert got["1.1 \u7814\u7a76\u5185\u5bb9"] == got["Abstract"] + 1


def test_a_contents_entry_that_adds_a_statements_period_finds_its_title(tmp_path: Path):
    # a filing's contents lists its statements with the period each covers ("... of Income for the
    # Six Months Ended June 30, 2023"), while their pages print the title alone in bold capitals:
    # each statement is found through its entry and all of them stand at one level under the Item
    f = Flow()
    f.heading("ACME Corp Quarterly Report", 18, before=0).para(4).new_page()
    contents = f.pages[-1]
    f.new_page()
    f.heading("PART I. FINANCIAL INFORMATION", 12, before=0)
    f.heading("Item 1. Financial Statements", 11).para(3)
    listed: list[tuple[str, int, float]] = [
        ("PART I. FINANCIAL INFORMATION", 3, 72.0),
        ("Item 1. Financial Statements", 3, 72.0),
    ]
    statements = [
        (
            "CONDENSED STATEMENTS OF INCOME",
            "Condensed Statements of Income for the Six Months Ended June 30, 2023",
        ),
        ("CONDENSED BALANCE SHEETS", "Condensed Balance Sheets"),
        (
            "CONDENSED STATEMENTS OF CASH FLOWS",
            "Condensed Statements of Cash Flows for the Six Months Ended June 30, 2023",
        ),
        ("NOTES TO CONDENSED FINANCIAL STATEMENTS", "Notes to Condensed Financial Statements"),
    ]
    for printed, entry in statements:
        if printed != statements[0][0]:
            f.new_page()
        f.heading(printed, 10, x=200, before=0 if printed != statements[0][0] else 14).para(8)
        listed.append((entry, len(f.pages), 90.0))
    f.new_page().heading("Item 2. Management's Discussion and Analysis", 11, before=0).para(8)
    listed.append(("Item 2. Management's Discussion and Analysis", len(f.pages), 72.0))
    contents.lines.append(Line("TABLE OF CONTENTS", x=230, y=720, size=12, bold=True))
    y = 680.0
    for title, page, x in listed:
        contents.lines.append(Line(title, x=x, y=y))
        contents.lines.append(Line(str(page), x=520, y=y))
        y -= 16
    doc = parse(f.write(tmp_path / "statements-contents.pdf"))
    levels = {title: level for level, title in tree(doc)}
    item = levels["Item 1. Financial Statements"]
    assert [levels[printed] for printed, _ in statements] == [item + 1] * 4


def test_contents_under_a_title_and_an_abstract_is_read_from_its_title_down():
    # a package's documentation: title, author and abstract on page 1 and the contents under them,
    # going on on page 2; the abstract is not part of the contents, its first entries are
    from sectionrag.parsers._pdf_toc import find_contents
    from sectionrag.parsers._pdfium import PdfLine

    def line(
        text: str, page: int, top: float, x0: float = 72.0, size: float = 10.0, bold: bool = False
    ) -> PdfLine:
        return PdfLine(
            text, x0, 500.0 if text.isdigit() else 480.0, top, top + size, size, bold, False, "Times", page
        )

    first = [line("The widget substyle", 0, 60, size=17), line("Ada Lovelace", 0, 90, size=12)]
    first += [
        line("This file documents the widget substyle of the class and how to build it.", 0, 120 + 12 * k)
        for k in range(12)
    ]
    first.append(line("Contents", 0, 290, size=14, bold=True))
    # chapters 1 to 6 on pages 3 to 8, each with one topic: six entries on page 1, six on page 2
    entries = [(title, 2 + n) for n in range(1, 7) for title in (f"{n} Chapter {n}", f"{n}.1 Topic")]
    pages: list[list[PdfLine]] = [first, []]
    for k, (title, page) in enumerate(entries):
        where, top = (0, 315 + 15 * k) if k < 6 else (1, 60 + 15 * (k - 6))
        pages[where].append(line(f"{title} " + ". " * 20 + str(page), where, top))
    for lines in pages:
        for row, ln in enumerate(lines):
            ln.row = row
    contents = find_contents(pages, 10.0)
    assert contents is not None
    assert contents.pages == [0, 1]
    assert [e.title for e in contents.entries][:3] == ["1 Chapter 1", "1.1 Topic", "2 Chapter 2"]
    assert all(ln.role == "body" for ln in first[:14])  # (the title, the author and the abstract)
    assert all(ln.role == "toc" for ln in pages[0][15:])


def test_a_chapter_whose_page_prints_the_first_words_of_its_contents_title_is_kept(tmp_path: Path):
    # the contents gives chapter 2's whole title, its page only the first words ("Die
    # Hauptklassen"), under the label "Kapitel 2": the chapter stays a section, its sections under it
    f = Flow()
    f.heading("Inhaltsverzeichnis", 16, before=0)
    contents = f.pages[-1]
    chapters = [
        ("Einleitung", "Einleitung", ["Installation", "Verwendung"]),
        (
            "Die Hauptklassen",
            "Die Hauptklassen tudscrbook, tudscrreprt und tudscrartcl",
            ["Schriften", "Layout"],
        ),
        ("Die Posterklasse", "Die Posterklasse", ["Papierformat", "Gestalt"]),
    ]
    rows: list[tuple[str, int, float]] = []
    for n, (printed, listed, sections) in enumerate(chapters, start=1):
        f.new_page()
        f.heading(f"Kapitel {n}", 20, before=0).heading(printed, 24, before=10).para(4)
        rows.append((f"{n} {listed}", len(f.pages), 72.0))
        for k, title in enumerate(sections, start=1):
            f.heading(f"{n}.{k} {title}", 13).para(8)
            rows.append((f"{n}.{k} {title}", len(f.pages), 90.0))
    for k, (title, page, x) in enumerate(rows):
        contents.lines.append(Line(_leadered(title, page), x=x, y=680 - 16 * k))
    got = tree(parse(f.write(tmp_path / "kapitel.pdf")))
    assert (1, "Kapitel 2 Die Hauptklassen") in got, got
    assert (2, "2.1 Schriften") in got and (2, "3.1 Papierformat") in got, got


def test_a_part_label_over_its_title_far_apart_is_one_heading_above_its_chapters(tmp_path: Path):
    # a part page prints its own label ("Theme B", no label word sectionrag knows) over the part's
    # title, two lines apart in one face; the contents lists them as one entry, above the chapters
    f = Flow()
    f.heading("Field Manual", 20, before=0).para(4).new_page()
    contents = f.pages[-1]
    f.new_page()
    entries: list[tuple[str, int, float, float]] = []
    for label, part, chapters in (
        ("Theme A", "Groundwork", ["Copyright", "Introduction"]),
        ("Theme B", "Background", ["Plot", "Set", "Show"]),
    ):
        f.lines.append(Line(label, x=72, y=500, size=22, bold=True))
        f.lines.append(Line(part, x=72, y=440, size=22, bold=True))  # 38 pt under the label
        entries.append((f"{label}. {part}", len(f.pages), 72.0, 12.0))
        f.new_page()
        for chapter in chapters:
            f.heading(chapter, 16, before=0 if not f.lines else 14).para(8)
            entries.append((chapter, len(f.pages), 90.0, 10.0))
        f.new_page()
    f.pages.pop()
    _print_contents(contents, entries)
    doc = parse(f.write(tmp_path / "part-pages.pdf"))
    levels = {title: level for level, title in tree(doc)}
    assert "Theme B" not in levels and "Background" not in levels  # (two lines, one heading)
    assert levels["Theme A Groundwork"] == levels["Theme B Background"]
    assert levels["Theme B Background"] < levels["Plot"] == levels["Show"] == levels["Copyright"]
    paths = {s.title: s.path for s in doc.sections}
    assert paths["Show"] == ("Theme B Background", "Show")


def test_a_contents_row_that_lost_its_page_number_is_an_entry_of_its_own(tmp_path: Path):
    # a row ending in leaders without its number (taken for the page's running number) is no
    # wrapped first line of the title below it: both are entries, at their own levels
    f = Flow()
    f.heading("Handbook", 24, before=0).para(3)
    contents = f.pages[-1]
    f.new_page()
    rows: list[tuple[str, int, float]] = []
    for chapter, sections in (("1 Setup", ["1.1 Requirements", "1.2 Build"]), ("2 Usage", ["2.1 Preamble"])):
        f.heading(chapter, 16, before=0).para(6)
        rows.append((chapter, len(f.pages), 72.0))
        for sec in sections:
            f.heading(sec, 13).para(6)
            rows.append((sec, len(f.pages), 90.0))
            sub = f"{sec} Options"
            f.heading(sub.replace(" ", ".1 ", 1), 11).para(5)
            rows.append((sub.replace(" ", ".1 ", 1), len(f.pages), 108.0))
        f.new_page()
    f.pages.pop()
    contents.lines.append(Line("Contents", y=600, size=16, bold=True))
    y = 570.0
    for title, page, x in rows:
        text = _leadered(title, page)
        if title == "2.1 Preamble":
            text = text.rsplit(" ", 1)[0]  # the page number lost
        contents.lines.append(Line(text, x=x, y=y, bold=x == 72.0))
        y -= 14
    doc = parse(f.write(tmp_path / "lost-number.pdf"))
    paths = {s.title: s.path for s in doc.sections}
    assert paths["2.1.1 Preamble Options"] == ("2 Usage", "2.1 Preamble", "2.1.1 Preamble Options")


def test_reference_pages_whose_name_line_glosses_the_listed_name_are_sections(tmp_path: Path):
    # a reference chapter lists its entries' names; each entry's page prints the name in the text's
    # face, glossed after a dash ("OPEN — Open a connection"), under a repeated "Name" label
    entries = [("OPEN", "Open a connection to a server"), ("CLOSE", "Close a connection")]
    entries.append(("*DEFAULT-MODE*", "The mode new connections take"))
    f = Flow()
    f.heading("Reference Manual", 24, before=0).para(3).new_page()
    contents = f.pages[-1]
    f.new_page()
    f.heading("1 Connections", 20, before=0).para(6)
    rows: list[tuple[str, int, float]] = [("1 Connections", len(f.pages), 72.0)]
    for k, (name, gloss) in enumerate(entries):
        f.new_page()
        f.heading("Name", 16, before=0)
        f.line(f"{name} \u2014 {gloss}", after=20)
        rows.append((name, len(f.pages), 90.0))
        for sub in ("Syntax", "Description"):
            f.heading(sub, 16).para(2 + 2 * k)  # (set lower on each page: no running head)
    _print_contents(contents, [(title, page, x, 10.0) for title, page, x in rows])
    doc = parse(f.write(tmp_path / "reference.pdf"))
    paths = [s.path for s in doc.sections]
    for name, _ in entries:
        assert ("1 Connections", name) in paths
        assert ("1 Connections", name, "Description") in paths


def test_a_heading_whose_last_words_are_set_smaller_on_its_row_is_found_whole(tmp_path: Path):
    # an overloaded member's heading prints its count smaller, in another face, on its row
    # ("fread()" "[1/2]"):
    # the contents entry names both, and both make the section's title
    f = Flow()
    f.heading("Library Reference", 24, before=0).para(3).new_page()
    contents = f.pages[-1]
    f.new_page()
    f.heading("2 Functions", 16, before=0).para(5)
    rows: list[tuple[str, int, float]] = [("2 Functions", len(f.pages), 72.0)]
    members = [("2.1 fread()", "[1/2]"), ("2.2 fread()", "[2/2]"), ("2.3 fwrite()", ""), ("2.4 fseek()", "")]
    for title, count in members:
        f.new_page().heading(title, 11, before=0)
        if count:
            x = 78 + 4.75 * len(title)  # (a space or so after the title)
            f.lines.append(Line(count, x=x, y=f.y + 19, size=9.5, bold=True, family="Times"))
        f.para(5)
        rows.append((f"{title} {count}".strip(), len(f.pages), 90.0))
    _print_contents(contents, [(title, page, x, 10.0) for title, page, x in rows])
    doc = parse(f.write(tmp_path / "overloads.pdf"))
    titles = [s.title for s in doc.sections]
    assert "2.1 fread() [1/2]" in titles
    assert "2.2 fread() [2/2]" in titles
    assert "2.3 fwrite()" in titles
    assert "2.4 fseek()" in titles


def test_functions_listed_by_name_whose_pages_print_their_signatures_are_sections(tmp_path: Path):
    # an R or Python package's manual: the contents lists each function by its name ("hclust",
    # "single"); its page prints the signature at the margin ("hclust (d, method='complete')",
    # "fastcluster.single (X)") over its description, indented; an example calling the function
    # ("fastcluster::hclust(...)") is set in line with the text around it
    f = Flow()
    f.heading("fastcluster manual", 24, before=0).para(3).new_page()
    contents = f.pages[-1]
    f.new_page()
    f.heading("1 The R interface", 16, before=0).para(3)
    rows: list[tuple[str, int, float]] = [("1 The R interface", len(f.pages), 72.0)]
    f.line("fastcluster::hclust(...)", x=100, family="Courier")
    f.line("stats::hclust(...)", x=100, family="Courier", after=20)
    signatures = [("hclust", "hclust (d, method='complete', members=NULL)")]
    signatures += [(name, f"fastcluster.{name} (X)") for name in ("single", "complete", "average")]
    for k, (name, signature) in enumerate(signatures):
        if k == 1:
            f.new_page()
        f.line(signature, family="Courier", after=14)
        f.para(2 + k, x=100)
        rows.append((name, len(f.pages), 90.0))
    _print_contents(contents, [(title, page, x, 10.0) for title, page, x in rows])
    doc = parse(f.write(tmp_path / "signatures.pdf"))
    paths = [s.path for s in doc.sections]
    assert [p[-1] for p in paths if len(p) == 2] == ["hclust", "single", "complete", "average"]
    assert all(p[0] == "1 The R interface" for p in paths if len(p) == 2)
