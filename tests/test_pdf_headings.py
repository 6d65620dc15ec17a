"""Heading rules of the PDF parser, checked from the outside on small generated PDFs.

Each test writes a few pages with ``_pdfgen`` (body paragraphs of several
lines, headings in the sizes and weights that real documents use) and looks
only at ``doc.sections``: which titles became sections, and at what level.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from _pdfgen import Line, Page, body_lines, write_pdf
from _section_checks import check_sections
from sectionrag.parsers._pdf_toc_levels import set_levels
from sectionrag.parsers.pdf import PdfParser
from sectionrag.types import Document


class Flow:
    """Lay out blocks top to bottom, page after page, like a word processor would."""

    def __init__(self, *, x: float = 72.0, top: float = 720.0, bottom: float = 100.0) -> None:
        self.x = x
        self.top = top
        self.bottom = bottom
        self.pages: list[Page] = [Page()]
        self.y = top
        self.seed = 0

    @property
    def lines(self) -> list[Line]:
        return self.pages[-1].lines

    def new_page(self) -> Flow:
        self.pages.append(Page())
        self.y = self.top
        return self

    def _room(self, height: float) -> None:
        if self.y - height < self.bottom and self.lines:
            self.new_page()

    def heading(
        self, text: str, size: float = 14.0, *, bold: bool = True, before: float = 14.0, **kw
    ) -> Flow:
        self._room(size + 60)
        if self.lines:
            self.y -= before
        self.lines.append(Line(text, x=kw.pop("x", self.x), y=self.y, size=size, bold=bold, **kw))
        self.y -= size + 8
        return self

    def line(self, text: str, *, after: float = 12.0, **kw) -> Flow:
        self._room(after)
        self.lines.append(Line(text, x=kw.pop("x", self.x), y=self.y, **kw))
        self.y -= after
        return self

    def para(self, n: int = 5, *, x: float | None = None) -> Flow:
        self._room(12 * n)
        self.seed += 1
        lines, self.y = body_lines(n, self.seed, self.y, x=self.x if x is None else x)
        self.lines.extend(lines)
        self.y -= 6
        return self

    def gap(self, dy: float) -> Flow:
        self.y -= dy
        return self

    def write(self, path: Path) -> Path:
        for number, page in enumerate(self.pages, start=1):
            page.lines.append(Line(str(number), x=300, y=40, size=9))
        return write_pdf(path, self.pages)


def parse(path: Path) -> Document:
    doc = PdfParser(use_outline=False).parse(path)
    check_sections(doc)
    return doc


def titles(doc: Document) -> list[str]:
    return [s.title for s in doc.sections]


def levels(doc: Document) -> dict[str, int]:
    return {s.title: s.level for s in doc.sections}


def section(doc: Document, title: str):
    matches = [s for s in doc.sections if s.title == title]
    assert len(matches) == 1, (title, titles(doc))
    return matches[0]


# ------------------------------------------------------------------ rule 2


def test_admonition_labels_below_one_and_a_half_body_are_not_headings(tmp_path: Path):
    f = Flow().heading("1 Installing the package", 16).para(6)
    f.heading("1.1 From source", 12).para(5)
    f.heading("Note", 11).para(3).heading("Warning:", 11).para(3)
    f.heading("1.2 From a wheel", 12).para(6).heading("Tip", 12).para(3)
    f.heading("Notes", 16).para(4)  # a chapter-sized "Notes" is a heading
    doc = parse(f.write(tmp_path / "notes.pdf"))
    assert titles(doc) == ["1 Installing the package", "1.1 From source", "1.2 From a wheel", "Notes"]
    # the box's text stays in the section that holds the box
    source = section(doc, "1.1 From source")
    assert "Note\n" in doc.text[source.start : source.end]
    assert "Warning:" in doc.text[source.start : source.end]


def test_marginal_label_left_of_the_text_block_is_not_a_heading(tmp_path: Path):
    # body text starts at x=144; short bold labels stand in the left margin beside a paragraph
    # (two a page: three or more lines sharing a left edge would make that the text block's edge,
    # as side heads in a margin column are)
    f = Flow(x=144).heading("2 Managing risk", 16).para(6)
    for label in ("Key point", "Beware", "Remember"):
        if label == "Remember":
            f.new_page().para(5)
        f.gap(10)
        f.lines.append(Line(label, x=48, y=f.y, bold=True))
        f.para(4)
    f.heading("2.1 Hedging", 12).para(6)
    doc = parse(f.write(tmp_path / "margin.pdf"))
    assert titles(doc) == ["2 Managing risk", "2.1 Hedging"]
    assert "Key point" in doc.text
    # the same bold label inside the text block is a heading
    g = Flow(x=144).heading("2 Managing risk", 16).para(6).gap(10)
    g.line("Key point", x=144, bold=True).para(4).heading("2.1 Hedging", 12).para(6)
    doc = parse(g.write(tmp_path / "inline.pdf"))
    assert "Key point" in titles(doc)


# ------------------------------------------------------------------ rule 3


def test_contents_rows_with_page_number_apart_are_not_headings(tmp_path: Path):
    # a contents page: chapter rows larger and bold, page number set apart on the right;
    # section rows with dotted leaders
    contents = Page([Line("Contents", y=720, size=16, bold=True)])
    y = 690.0
    chapters = [("1 Introduction", 2), ("2 Methods", 3), ("3 Results", 4)]
    for number, (title, page) in enumerate(chapters, start=1):
        contents.lines += [
            Line(title, y=y, size=12, bold=True),
            Line(str(page), x=520, y=y, size=12, bold=True),
        ]
        y -= 18
        for k in range(1, 3):
            contents.lines.append(Line(f"{number}.{k} Part {k} of {title[2:]} " + ". " * 30 + str(page), y=y))
            y -= 14
        y -= 6
    f = Flow()
    f.pages = [contents, Page()]
    for number, (title, _) in enumerate(chapters, start=1):
        if number > 1:
            f.new_page()
        f.heading(title, 16).para(6)
        for k in range(1, 3):
            f.heading(f"{number}.{k} Part {k} of {title[2:]}", 12).para(7)
    doc = parse(f.write(tmp_path / "contents.pdf"))
    chapter_sections = [s for s in doc.sections if s.level == 1 and s.title != "Contents"]
    assert [s.title for s in chapter_sections] == [t for t, _ in chapters]
    assert [s.page_start for s in chapter_sections] == [2, 3, 4]
    assert not any(s.page_start == 1 for s in doc.sections if s.title != "Contents")
    assert levels(doc)["2.2 Part 2 of Methods"] == 2


# ------------------------------------------------------------------ rule 4


def test_numbered_line_out_of_chapter_sequence_is_dropped(tmp_path: Path):
    f = Flow().heading("1 Fonts", 16).para(6).heading("1.1 Families", 12).para(6)
    f.heading("2 Type sizes", 16).para(5).heading("2.1 Standard sizes", 12).para(4)
    # a specimen: lines set in the size they name, inside section 2.1
    for size in (14.5, 17.3, 20.7):
        f.line(f"{size} points: The quick brown fox jumps", size=size, after=size + 10)
    f.para(4).heading("2.2 Leading", 12).para(6)
    # a chapter the numbering skips to, confirmed by its own sub-heading, stays
    f.heading("4 Page layout", 16).para(5).heading("4.1 Margins", 12).para(6)
    doc = parse(f.write(tmp_path / "specimen.pdf"))
    assert titles(doc) == [
        "1 Fonts",
        "1.1 Families",
        "2 Type sizes",
        "2.1 Standard sizes",
        "2.2 Leading",
        "4 Page layout",
        "4.1 Margins",
    ]
    sizes = section(doc, "2.1 Standard sizes")
    assert "20.7 points: The quick brown fox" in doc.text[sizes.start : sizes.end]


def test_numbered_heading_repeated_as_running_head_is_dropped(tmp_path: Path):
    f = Flow().heading("4 Methods", 16).para(8).heading("4.1 Sampling", 12).para(10)
    f.new_page().heading("5 Abstracts", 16).para(10).heading("5.1 Submission", 12).para(12)
    for sub in ("5.2 Review", "5.3 Publication"):
        f.new_page()
        f.lines.append(Line("5 Abstracts", y=760, bold=True))  # the chapter's running head
        f.para(10).heading(sub, 12).para(12)
    doc = parse(f.write(tmp_path / "running.pdf"))
    assert titles(doc) == [
        "4 Methods",
        "4.1 Sampling",
        "5 Abstracts",
        "5.1 Submission",
        "5.2 Review",
        "5.3 Publication",
    ]
    chapter = section(doc, "5 Abstracts")
    assert chapter.page_start == 2 and chapter.end == len(doc.text)
    assert all(s.path[0] == "5 Abstracts" for s in doc.sections if s.title.startswith("5."))


def test_chapter_title_set_before_its_number_is_renumbered(tmp_path: Path):
    f = Flow().heading("5 Page styles", 16).para(6).heading("5.1 Headers", 12).para(6)
    f.new_page().heading("Document divisions 6", 18).para(5).heading("6.1 Front matter", 12).para(6)
    doc = parse(f.write(tmp_path / "divisions.pdf"))
    assert section(doc, "6 Document divisions").level == 1
    assert section(doc, "6.1 Front matter").path == ("6 Document divisions", "6.1 Front matter")


def test_a_heading_that_ends_in_the_next_chapters_number_is_not_that_chapter(tmp_path: Path):
    # a minor heading under "1.2.1" ends in "2" and the next numbered heading is "Chapter 2.": the
    # chapter is not its confirmation (only its own sub-section, "2.1", would be), so it keeps its
    # title and its place below "1.2.1", as its twin under "1.1.1" does
    f = Flow()
    f.heading("Chapter 1. Planning", 24).para(4)
    for s in (1, 2):
        f.heading(f"1.{s} Overview of part {s}", 14).para(5)
        f.heading(f"1.{s}.1 Details of part {s}", 12, before=10).para(5)
        f.heading(f"Considerations for step {s}", 10, before=8).para(4)
    f.new_page().heading("Chapter 2. Installing", 24).para(4).heading("2.1 Requirements", 14).para(5)
    doc = parse(f.write(tmp_path / "guide.pdf"))
    assert levels(doc) == {
        "Chapter 1. Planning": 1,
        "1.1 Overview of part 1": 2,
        "1.1.1 Details of part 1": 3,
        "Considerations for step 1": 4,
        "1.2 Overview of part 2": 2,
        "1.2.1 Details of part 2": 3,
        "Considerations for step 2": 4,
        "Chapter 2. Installing": 1,
        "2.1 Requirements": 2,
    }


# ------------------------------------------------------------------ rule 5


def test_one_level_per_numbering_order_whatever_the_font(tmp_path: Path):
    f = Flow().heading("1 Overview", 16).para(6).heading("1.1 Scope", 12).para(6)
    f.heading("1.2 Audience", 11).para(6)  # the same order in a smaller face
    f.heading("2 Design", 16).para(6).heading("2.1 Goals", 11).para(5).heading("2.2 Limits", 12).para(5)
    doc = parse(f.write(tmp_path / "orders.pdf"))
    assert levels(doc) == {
        "1 Overview": 1,
        "1.1 Scope": 2,
        "1.2 Audience": 2,
        "2 Design": 1,
        "2.1 Goals": 2,
        "2.2 Limits": 2,
    }
    assert section(doc, "2.2 Limits").path == ("2 Design", "2.2 Limits")


def test_unnumbered_display_heading_inside_a_chapter_is_not_parent_of_chapters(tmp_path: Path):
    f = Flow().heading("1 Title pages", 16).para(6).heading("1.1 What goes on them", 12).para(6)
    f.heading("2 Examples", 16).para(6)
    f.heading("The Annual Report of Widgets", 22).para(3)  # a sample title page, in display type
    f.heading("2.1 A plain design", 12).para(6)
    f.heading("3 Printing", 16).para(6).heading("3.1 Paper", 12).para(6)
    doc = parse(f.write(tmp_path / "display.pdf"))
    assert [s.title for s in doc.sections if s.level == 1] == ["1 Title pages", "2 Examples", "3 Printing"]
    assert section(doc, "The Annual Report of Widgets").path[0] == "2 Examples"


# ------------------------------------------------------------------ rule 6


def test_body_size_label_repeated_four_times_is_not_a_section(tmp_path: Path):
    f = Flow().heading("1 Conventions", 16).para(5)
    for k in range(1, 5):
        f.heading(f"1.{k} Convention {k}", 12).para(4).heading("Rationale", 10).para(3)
    f.heading("Open questions", 10).para(4)  # a one-off bold line stays
    doc = parse(f.write(tmp_path / "labels.pdf"))
    assert "Rationale" not in titles(doc)
    assert "Open questions" in titles(doc)
    assert [s.title for s in doc.sections if s.level == 2] == [f"1.{k} Convention {k}" for k in range(1, 5)]
    # three repeats are not yet a label
    g = Flow().heading("1 Conventions", 16).para(5)
    for k in range(1, 4):
        g.heading(f"1.{k} Convention {k}", 12).para(4).heading("Rationale", 10).para(3)
    assert titles(parse(g.write(tmp_path / "three.pdf"))).count("Rationale") == 3


# ------------------------------------------------------------------ rule 7


def test_index_letters_are_not_sections(tmp_path: Path):
    f = Flow().heading("1 Usage", 16).para(6)
    f.heading("Z", 12).para(4)  # a lone letter (a figure's label) is not a section
    f.heading("2 Reference", 16).para(6)
    f.new_page().heading("Index", 16)
    entries = {"A": ["abstract, 3", "accounts, 5, 9"], "B": ["balance, 4"], "C": ["cash, 2", "costs, 7"]}
    entries["D"] = ["dividends, 8"]
    for letter, items in entries.items():
        f.heading(letter, 12)
        for item in items:
            f.line(item)
    doc = parse(f.write(tmp_path / "index.pdf"))
    assert "Z" not in titles(doc)
    # an index's letters head no section: the index is one, its entries its text
    assert [s.title for s in doc.sections if len(s.title) == 1] == []
    index = section(doc, "Index")
    assert "cash, 2" in doc.text[index.start : index.end]
    assert "dividends, 8" in doc.text[index.start : index.end]


def test_big_letter_over_a_title_joins_it(tmp_path: Path):
    f = Flow().heading("E", 28).heading("The terrors of errors", 20, before=4).para(8)
    f.heading("Messages", 13).para(6)
    f.new_page().heading("F", 28).heading("Files and folders", 20, before=4).para(8)
    f.heading("Paths", 13).para(6)
    doc = parse(f.write(tmp_path / "letters.pdf"))
    assert titles(doc) == ["E The terrors of errors", "Messages", "F Files and folders", "Paths"]
    assert section(doc, "Messages").path == ("E The terrors of errors", "Messages")


def test_big_roman_letter_over_a_title_joins_it(tmp_path: Path):
    f = Flow().heading("C", 28).heading("Compiling", 20, before=4).para(8).heading("Flags", 13).para(6)
    f.new_page().heading("D", 28).heading("Debugging", 20, before=4).para(8)
    f.heading("Breakpoints", 13).para(6)
    doc = parse(f.write(tmp_path / "letters.pdf"))
    assert titles(doc) == ["C Compiling", "Flags", "D Debugging", "Breakpoints"]


# ------------------------------------------------------------------ rule 8


def test_italic_run_in_heading_at_body_size(tmp_path: Path):
    f = Flow().heading("Liquidity and Capital Resources", 12).para(6)
    f.line("Cash Flows", italic=True, after=14).para(6)
    # an italic quotation of several lines is not a heading
    f.gap(6).line("We expect demand to stay strong", italic=True).line("across all regions", italic=True)
    f.gap(6).para(4)
    f.line("Debt", italic=True, after=14).para(6)
    f.heading("Critical Accounting Estimates", 12).para(6)
    doc = parse(f.write(tmp_path / "italic.pdf"))
    assert titles(doc) == [
        "Liquidity and Capital Resources",
        "Cash Flows",
        "Debt",
        "Critical Accounting Estimates",
    ]
    assert section(doc, "Cash Flows").path == ("Liquidity and Capital Resources", "Cash Flows")
    assert section(doc, "Critical Accounting Estimates").level == 1


def test_capitals_at_body_size_head_a_paragraph_not_a_caption(tmp_path: Path):
    f = Flow().heading("PART I", 16).para(6)
    f.gap(8).line("RISK FACTORS", after=20).para(6)
    # display type in a figure: a capitals line over short lines and a caption
    f.gap(8).line("QUARTERLY SUMMARY", x=200, after=20)
    f.line("Revenue up", x=200).line("Costs flat", x=200, after=20)
    f.line("Figure 2: The summary box on the cover.", after=20).para(5)
    f.gap(8).line("MARKET RISK", after=20).para(6)
    doc = parse(f.write(tmp_path / "caps.pdf"))
    assert titles(doc) == ["PART I", "RISK FACTORS", "MARKET RISK"]


# ------------------------------------------------------------------ rule 9


def test_lone_item_label_and_punctuation_titles_are_not_headings(tmp_path: Path):
    f = Flow().heading("PART I", 16).para(5)
    f.line("Item 1. Business", after=20).para(6)
    # a plain "Item 7" label in a cross-reference box, followed by plain text
    f.gap(8).line("Item 7", after=20).line("is discussed with the results of operations below.", after=20)
    f.para(5).line("Item 1A. Risk Factors", after=20).para(6)
    f.heading("Appendix*", 12).para(4)  # a command's name, not an appendix
    f.heading("Appendix A Glossary", 14).para(6)
    doc = parse(f.write(tmp_path / "items.pdf"))
    assert titles(doc) == ["PART I", "Item 1. Business", "Item 1A. Risk Factors", "Appendix A Glossary"]
    assert section(doc, "Item 1A. Risk Factors").path == ("PART I", "Item 1A. Risk Factors")


def test_a_labelled_sentence_in_the_text_face_is_no_heading(tmp_path: Path):
    # a paragraph of its own in the text's face that opens on a label word ("Appendix A", "Article
    # 1") and ends in a full stop is a sentence; a labelled title in that face stays a heading
    f = Flow().heading("1 Introduction", 14).para(4)
    f.gap(8).line("Appendix A describes the options of this package.", after=20)
    f.line("Article 1 is fundamental.", after=20).para(4)
    # a paragraph of a description list that opens on a label and runs on into its next line
    f.gap(8).line("Appendix B Description of the driver file (the counterpart of the", after=12)
    f.line("kernel's own file) and of the scripts that process it.", after=20).para(3)
    f.line("Item 2. Properties.", after=20).para(5)
    # (a labelled title that wraps in the text's face stays one)
    f.gap(8).line("Item 3. Quantitative and Qualitative Disclosures About Market", after=12)
    f.line("Risk", after=20).para(4)
    f.heading("2 Usage", 14).para(6)
    f.heading("Appendix A Package options", 14).para(6)
    doc = parse(f.write(tmp_path / "labelled-sentences.pdf"))
    assert titles(doc) == [
        "1 Introduction",
        "Item 2. Properties.",
        "Item 3. Quantitative and Qualitative Disclosures About Market Risk",
        "2 Usage",
        "Appendix A Package options",
    ]


# ------------------------------------------------------------------ faces without case


def test_small_capitals_face_at_body_size_heads_sections(tmp_path: Path):
    # ConTeXt's design: unnumbered headings in a small-capitals face at the text size, centred,
    # their letters all lower case in the text layer
    heads = ["loading the module", "options explained", "basic functionality", "uses and abuses"]
    f = Flow().para(6)
    for title in heads:
        f.gap(14).line(title, x=220, face="Palatino-SC", after=26).para(6)
    doc = parse(f.write(tmp_path / "smallcaps.pdf"))
    assert titles(doc) == heads


def test_lower_case_line_in_the_text_face_is_no_heading(tmp_path: Path):
    # the same lines in the text's own face are prose (a paragraph's last words), not headings
    f = Flow().para(6)
    for title in ("loading the module", "options explained", "basic functionality", "uses and abuses"):
        f.gap(14).line(title, x=220, after=26).para(6)
    doc = parse(f.write(tmp_path / "lower.pdf"))
    assert titles(doc) == []


def test_lower_case_display_face_heads_sections(tmp_path: Path):
    f = Flow().para(6)
    for title in ("preliminaries", "motivation", "demonstration"):
        f.heading(title, 16, x=220, before=20).para(6)
    f.heading("Installation", 16, x=220, before=20).para(6)
    doc = parse(f.write(tmp_path / "lower-display.pdf"))
    assert titles(doc) == ["preliminaries", "motivation", "demonstration", "Installation"]
    assert set(levels(doc).values()) == {1}


# ------------------------------------------------------------------ printed contents: levels


def test_contents_entry_set_further_left_never_nests_under_an_indented_one():
    from sectionrag.parsers._sections import nest_levels

    # two indented entries (sections of a title the contents does not list), then the chapters
    keys: list[tuple[object, int | None]] = [
        (("x", 1), None),
        (("x", 1), None),
        (("x", 0), None),
        (("x", 1), None),
        (("x", 0), None),
        (("x", 1), None),
    ]
    assert nest_levels(keys) == [1, 1, 2, 1, 2, 1]  # by document order alone: inverted
    assert nest_levels(keys, [1, 1, 0, 1, 0, 1]) == [1, 1, 1, 2, 1, 2]


@dataclass
class _TocEntry:
    """A printed contents' entry as ``set_levels`` reads it: title, indent and face."""

    title: str
    x0: float
    face: tuple[float, bool]
    level: int = 0


def test_larger_bold_part_flush_with_numbered_chapters_is_above_them():
    entries = [
        _TocEntry("I User Manual", 72, (10.8, True)),
        _TocEntry("1 Introduction", 71, (9.0, True)),
        _TocEntry("1.1 Compiling from source", 71, (9.0, False)),
        _TocEntry("1.2 Installing the binaries", 71, (9.0, False)),
        _TocEntry("2 Getting started", 71, (9.0, True)),
        _TocEntry("2.1 Step one", 71, (9.0, False)),
        _TocEntry("II Reference Manual", 72, (10.8, True)),
        _TocEntry("3 Features", 71, (9.0, True)),
    ]
    set_levels(entries)
    assert [e.level for e in entries] == [1, 2, 3, 3, 2, 3, 1, 2]


def test_larger_part_flush_with_numbered_chapters_in_their_weight_is_above_them():
    # KOMA-Script's contents: the parts a size larger than the chapters, neither bold; a chapter
    # before the first part stands level with the parts, those after a part under it
    entries = [
        _TocEntry("1 Einleitung", 86, (10.9, False)),
        _TocEntry("1.1 Bestandteile", 102, (10.9, False)),
        _TocEntry("I Das Bundle", 86, (12.0, False)),
        _TocEntry("2 Die Hauptklassen", 86, (10.9, False)),
        _TocEntry("2.1 Die Schriften", 102, (10.9, False)),
        _TocEntry("II Anhang", 86, (12.0, False)),
        _TocEntry("3 Befehle", 86, (10.9, False)),
    ]
    set_levels(entries)
    assert [e.level for e in entries] == [1, 2, 1, 2, 3, 1, 2]
    # a larger entry lighter than bold chapters is no part of theirs
    lighter = [
        _TocEntry("1 Introduction", 72, (10.0, True)),
        _TocEntry("Notation", 72, (11.0, False)),
        _TocEntry("2 Methods", 72, (10.0, True)),
    ]
    set_levels(lighter)
    assert [e.level for e in lighter] == [1, 1, 1]


def test_contents_read_from_its_second_page_opens_inside_a_chapter():
    # the first page of a printed contents shares the title page and is not read as contents: the
    # entries found open with "1.4" and its sub-sections, and their chapter "1" is not among them;
    # "1.4" ranks as a section all the same, below the chapters that follow
    entries = [
        _TocEntry("1.4 What is an object?", 141, (10.0, False)),
        _TocEntry("1.4.1 A name", 164, (10.0, False)),
        _TocEntry("1.4.2 Points", 164, (10.0, False)),
        _TocEntry("1.5 Transformations", 141, (10.0, False)),
        _TocEntry("2 A first object", 125, (10.0, True)),
        _TocEntry("2.1 A segment", 140, (10.0, False)),
    ]
    set_levels(entries)
    assert [e.level for e in entries] == [2, 3, 3, 2, 1, 2]
    # a contents that opens on its first chapter is ranked as before
    whole = [_TocEntry("1 Introduction", 125, (10.0, True)), *entries]
    set_levels(whole)
    assert [e.level for e in whole] == [1, 2, 3, 3, 2, 1, 2]


# ------------------------------------------------------------------ "Section N" over its title


def test_bare_section_label_over_its_title_is_one_heading_above_the_slides(tmp_path: Path):
    # a slide deck's section page: "Section 2" over the section's title, then slides with titles
    f = Flow()
    deck = ((1, "Introduction", ("What it does", "How it works")), (2, "Usage", ("Commands",)))
    for number, name, slides in deck:
        f.line(f"Section {number}", x=200, size=14, after=40).line(name, x=180, size=14, after=20).new_page()
        for slide in slides:
            f.line(slide, size=14, after=24).para(5).new_page()
    doc = parse(f.write(tmp_path / "slides.pdf"))
    assert titles(doc) == [
        "Section 1 Introduction",
        "What it does",
        "How it works",
        "Section 2 Usage",
        "Commands",
    ]
    assert section(doc, "How it works").path == ("Section 1 Introduction", "How it works")


def test_slides_continuing_one_title_with_a_counter_are_one_section(tmp_path: Path):
    # "Examples - 1/3" to "3/3" on three slides are one section; a counted title that does not
    # follow its predecessor ("Results 2/2" after other slides) and years stay as they are
    f = Flow()
    slides = (
        "Overview",
        "Examples - 1/3",
        "Examples - 2/3",
        "Examples - 3/3",
        "Commands 1/2 (excerpt)",
        "Commands 2/2 (excerpt)",
        "Results 2/2",
        "Plans for 2026/27",
    )
    for slide in slides:
        f.line(slide, size=14, after=24).para(5).new_page()
    f.pages.pop()
    doc = parse(f.write(tmp_path / "counted-slides.pdf"))
    assert titles(doc) == [
        "Overview",
        "Examples - 1/3",
        "Commands 1/2 (excerpt)",
        "Results 2/2",
        "Plans for 2026/27",
    ]
    examples = section(doc, "Examples - 1/3")
    assert (examples.page_start, examples.page_end) == (2, 4)
    assert "Examples - 3/3" in doc.text[examples.start : examples.end]  # kept as the section's text


# ------------------------------------------------------------------ margin headings, releases


def test_margin_heading_on_the_paragraphs_first_baseline_is_a_heading(tmp_path: Path):
    # a larger face of another family in the margin, a little before the text it starts on
    # the same baseline (pdfium reads the two as one line): the head is a sub-heading
    f = Flow(x=144).heading("1 Widows and orphans", 16).para(4)
    heads = ["Widows", "Orphans", "Algorithm", "Behaviour"]
    for head in heads:
        f.gap(10)
        f.lines.append(Line(head, x=72, y=f.y, size=13, family="Times"))
        f.para(5)
    f.heading("2 Installation", 16).para(6)
    doc = parse(f.write(tmp_path / "margin-heads.pdf"))
    assert titles(doc) == ["1 Widows and orphans", *heads, "2 Installation"]
    assert {levels(doc)[h] for h in heads} == {2}
    # the paragraph's text stays whole in its section
    widows = section(doc, "Widows")
    assert doc.text[widows.start : widows.end].count(".") == 1


def test_margin_head_in_the_text_face_family_stays_text(tmp_path: Path):
    # the same layout with the head in the text's own family and size is a paragraph's first words
    f = Flow(x=144).heading("1 Widows and orphans", 16).para(4)
    for head in ["Widows", "Orphans", "Algorithm", "Behaviour"]:
        f.gap(10)
        f.lines.append(Line(head, x=100, y=f.y))
        f.para(5)
    doc = parse(f.write(tmp_path / "same-face.pdf"))
    assert titles(doc) == ["1 Widows and orphans"]


def test_releases_set_larger_inside_one_section_are_its_sub_headings(tmp_path: Path):
    f = Flow()
    for title in ("preface", "installation", "usage"):
        f.heading(title.title(), 14).para(6)
    f.heading("Changelog", 14).para(3)
    releases = ["v3.0.0 (2022-11-22)", "v2.2.2 (2022-08-23)", "v2.2.1 (2022-07-28)"]
    for release in releases:
        f.heading(release, 16, bold=False, italic=True).para(4)
    f.heading("Implementation", 14).para(6)
    doc = parse(f.write(tmp_path / "changelog.pdf"))
    assert titles(doc) == ["Preface", "Installation", "Usage", "Changelog", *releases, "Implementation"]
    assert {levels(doc)[r] for r in releases} == {2}
    assert levels(doc)["Implementation"] == 1
    assert section(doc, releases[0]).path == ("Changelog", releases[0])


def test_a_heading_hyphenated_across_its_lines_is_one_word_again(tmp_path: Path) -> None:
    f = Flow()
    f.heading("1 Introduction", 14).para(6)
    f.heading("2 Estimating the Variance of Robust Regression Es-", 14).gap(-6)
    f.line("timators under Heavy Tails", size=14, bold=True, after=22)
    f.para(6)
    f.heading("3 A Fully Object-", 14).gap(-6)  # the hyphen of a compound stays
    f.line("Oriented Design of the Library", size=14, bold=True, after=22)
    f.para(6)
    # where the document spells the word elsewhere, that spelling decides
    f.heading("4 Packages Uploaded to the Archive Called Stable-", 14).gap(-6)
    f.line("backports", size=14, bold=True, after=22)
    f.para(3).line("Uploads to stable-backports wait a day.").para(2)
    f.heading("5 Fonts Whose Properties Lack a DE-", 14).gap(-6)
    f.line("FAULT_CHAR Entry", size=14, bold=True, after=22)
    f.para(3).line("A font names its DEFAULT_CHAR property.").para(2)
    f.heading("6 Results", 14).para(5)
    titles = [s.title for s in parse(f.write(tmp_path / "wrapped.pdf")).sections]
    assert titles == [
        "1 Introduction",
        "2 Estimating the Variance of Robust Regression Estimators under Heavy Tails",
        "3 A Fully Object-Oriented Design of the Library",
        "4 Packages Uploaded to the Archive Called Stable-backports",
        "5 Fonts Whose Properties Lack a DEFAULT_CHAR Entry",
        "6 Results",
    ]


@pytest.mark.parametrize(
    ("lines", "title"),
    [
        (["Sandwich Es-", "timators"], "Sandwich Estimators"),
        (["Object-", "Oriented Design"], "Object-Oriented Design"),
        (["PART I -", "FINANCIAL INFORMATION"], "PART I - FINANCIAL INFORMATION"),  # a dash, not a hyphen
        (["Revenue by 2022-", "2023 segment"], "Revenue by 2022- 2023 segment"),  # no word to mend
        (["  Two  ", "", "lines "], "Two lines"),
    ],
)
def test_title_lines_are_joined_by_a_space_unless_a_word_was_broken(lines: list[str], title: str) -> None:
    from sectionrag.parsers._sections import join_title_lines

    assert join_title_lines(lines) == title


def test_the_documents_own_spelling_decides_a_hyphen_at_a_titles_line_end() -> None:
    from sectionrag.parsers._sections import join_title_lines

    words = {"stable-backports", "autor-data", "default_char", "estimators"}
    assert join_title_lines(["to stable-", "backports?"], words.__contains__) == "to stable-backports?"
    assert join_title_lines(["(sistema autor-", "data)"], words.__contains__) == "(sistema autor-data)"
    assert join_title_lines(["and DE-", "FAULT_CHAR"], words.__contains__) == "and DEFAULT_CHAR"
    assert join_title_lines(["Sandwich Es-", "timators"], words.__contains__) == "Sandwich Estimators"
    assert join_title_lines(["Object-", "Oriented"], words.__contains__) == "Object-Oriented"  # unknown
