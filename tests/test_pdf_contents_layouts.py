"""Printed contents laid out in ways a simple reader gets wrong, on small generated PDFs.

Parts listed flush with their chapters (only a size larger), a contents in two
columns whose rows do not line up and that ends part-way down a page of text, a
bold numbered list item whose number the contents gives to a chapter, and a
part label over a title that is itself a label word.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line
from test_pdf_book_structure import tree
from test_pdf_headings import Flow, parse


def _leadered(title: str, page: int) -> str:
    return f"{title} " + ". " * 20 + str(page)


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
    contents.lines.append(Line("Contents", y=720, size=20, bold=True))
    y = 680.0
    for title, page, x, size in entries:
        contents.lines.append(Line(_leadered(title, page), x=x, y=y, size=size, bold=x == 72.0))
        y -= 16
    doc = parse(f.write(tmp_path / "flush-parts.pdf"))
    levels = {title: level for level, title in tree(doc)}
    assert levels["Basics"] == levels["Commands"]
    assert levels["Basics"] < levels["Copyright"] == levels["Plot"] == levels["Show"]
    assert levels["Plot"] < levels["Plot options"]


def test_contents_in_two_columns_ending_above_the_text_of_its_page(tmp_path: Path):
    # the right column's rows do not line up with the left one's; the first chapter starts under
    # the contents, on the same page: its headings are sections, the contents' lines are not
    f = Flow()
    f.heading("Handbook", 24, before=0).para(3)
    chapters = [
        (f"{n} Chapter {word}", [f"{n}.{k} Topic {word} {k}" for k in (1, 2)])
        for n, word in enumerate(("one", "two", "three", "four"), start=1)
    ]
    f.new_page()
    first_body = f.pages[-1]
    first_body.lines.append(Line("Contents", y=720, size=16, bold=True))
    rows: list[tuple[str, int, bool]] = []
    for number, (chapter, subs) in enumerate(chapters, start=2):
        rows.append((chapter, number, True))
        rows.extend((sub, number, False) for sub in subs)
    half = (len(rows) + 1) // 2
    for k, (title, page, bold) in enumerate(rows):
        left = k < half
        y = 690 - 15 * (k if left else k - half) - (0 if left else 6)  # the columns' rows do not line up
        x = (72.0 if bold else 86.0) + (0 if left else 250.0)
        first_body.lines.append(Line(title, x=x, y=y, size=10, bold=bold))
        first_body.lines.append(Line(str(page), x=300.0 if left else 540.0, y=y, size=10, bold=bold))
    f.y = 690 - 15 * half - 30
    f.heading(chapters[0][0], 16).para(4)
    f.heading(chapters[0][1][0], 12).para(4).heading(chapters[0][1][1], 12).para(4)
    for chapter, subs in chapters[1:]:
        f.new_page()
        f.heading(chapter, 16, before=0).para(5)
        for sub in subs:
            f.heading(sub, 12).para(5)
    doc = parse(f.write(tmp_path / "two-column-contents.pdf"))
    found = tree(doc)
    levels = {title: level for level, title in found}
    for chapter, subs in chapters:
        assert levels[chapter] == levels["1 Chapter one"]
        assert all(levels[sub] == levels[chapter] + 1 for sub in subs)
    # each heading once: the contents' lines on page 2 are not sections
    assert [title for _, title in found].count("1.1 Topic one 1") == 1
    assert next(s for s in doc.sections if s.title == "1 Chapter one").page_start == 2


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
