"""Reference manuals' layouts on small generated PDFs: definition lists, indexes, symbols in titles.

A definition list's terms over indented descriptions (an API reference
printed from HTML), section numbers over short code-like titles, a title with
two math symbols among many words, an index set in three columns whose
leadered entries look like a contents, and an index set like the chapters
the printed contents lists.
"""

from __future__ import annotations

import re
from pathlib import Path

from _pdfgen import Line, Page, write_pdf
from sectionrag.parsers.pdf import PdfParser
from test_pdf_book_structure import tree
from test_pdf_headings import Flow, parse, titles


def _definitions(f: Flow, names: list[str]) -> None:
    """Terms flush at the margin, each over a description indented under it (two lines)."""
    for name in names:
        f.line(f"Constant: {name.upper()}_SIZE", bold=True, after=16)
        f.line(f"The size of one {name} block in octets, the value used by the", x=100, after=12)
        f.line(f"functions of {name} when they pad the last block.", x=100, after=18)


def test_definition_terms_over_indented_descriptions_are_not_headings(tmp_path: Path):
    f = Flow().heading("7 Reference", 18, before=0).para(4)
    f.heading("7.1 Hash functions", 14).para(3)
    _definitions(f, ["sha256", "sha512", "md5"])
    f.heading("7.2 Cipher functions", 14).para(3)
    _definitions(f, ["aes", "des", "twofish"])
    doc = parse(f.write(tmp_path / "terms.pdf"))
    assert titles(doc) == ["7 Reference", "7.1 Hash functions", "7.2 Cipher functions"]
    cipher = next(s for s in doc.sections if s.title == "7.2 Cipher functions")
    assert "Constant: AES_SIZE" in doc.text[cipher.start : cipher.end]


def test_bold_headings_over_flush_text_stay_headings(tmp_path: Path):
    # the same bold face over text that starts where the heading does: headings, not terms
    f = Flow().heading("Guide", 18, before=0).para(4)
    for name in ("Installing", "Configuring", "Running", "Upgrading"):
        f.heading(name, 10).para(3)
    doc = parse(f.write(tmp_path / "flush.pdf"))
    assert titles(doc) == ["Guide", "Installing", "Configuring", "Running", "Upgrading"]


def test_section_numbers_over_short_code_like_titles_and_symbols_in_titles(tmp_path: Path):
    # "7.1.1.1 SHA256" has more digits than letters, yet its title is "SHA256";
    # "C/C++ header dependencies" has two math symbols among twenty letters
    f = Flow().heading("7 Hash functions", 18, before=0).para(4)
    f.heading("7.1 Recommended", 14).para(4)
    for k, name in enumerate(("SHA256", "SHA224", "SHA3-512"), start=1):
        f.heading(f"7.1.1.{k} {name}", 11).para(4)
    f.heading("C/C++ header dependencies", 18).para(5)
    f.heading("x + y = z", 18, bold=False).para(3)  # a displayed formula stays text
    doc = parse(f.write(tmp_path / "numbers.pdf"))
    found = titles(doc)
    assert "7.1.1.1 SHA256" in found and "7.1.1.3 SHA3-512" in found
    assert "C/C++ header dependencies" in found
    assert "x + y = z" not in found
    levels = {title: level for level, title in tree(doc)}
    assert levels["7.1.1.1 SHA256"] == levels["7.1 Recommended"] + 1


def _index_page(letters: str, entries_per_letter: int) -> Page:
    """An index in three columns of leadered entries (page numbers in no order), letters in bold."""
    page = Page([Line("Index", y=740, size=18, bold=True)])
    column_x = (72.0, 250.0, 428.0)
    items: list[tuple[str, bool]] = []
    for k, letter in enumerate(letters):
        items.append((letter, True))
        for n in range(entries_per_letter):
            refs = f"{(k * 37 + n * 53) % 90 + 3}, {(k * 11 + n * 29) % 90 + 5}"
            items.append((f"{letter.lower()}term{n} . . . . . . . . {refs}", False))
    per_column = (len(items) + 2) // 3
    for i, (text, letter) in enumerate(items):
        column, row = divmod(i, per_column)
        y = 700 - 13 * row - (6 if letter else 0)
        page.lines.append(Line(text, x=column_x[column] + (40 if letter else 0), y=y, size=9, bold=letter))
    return page


def test_three_column_index_reads_column_by_column(tmp_path: Path):
    f = Flow().heading("1 Usage", 18, before=0).para(8)
    f.heading("2 Reference", 18).para(8)
    f.pages.append(_index_page("ABCDEFGHI", 5))
    path = f.write(tmp_path / "index3.pdf")
    doc = PdfParser(use_outline=False).parse(path)
    index = next(s for s in doc.sections if s.title == "Index")
    text = doc.text[index.start : index.end]
    # read column by column, the entries come in their alphabetical order (row by row they interleave)
    order = re.findall(r"\b([a-i])term(\d)\b", text)
    assert order == [(letter, str(n)) for letter in "abcdefghi" for n in range(5)]
    assert [s.title for s in doc.sections if len(s.title) == 1] == []  # the letters head no section


def test_index_set_like_the_listed_chapters_stands_with_them(tmp_path: Path):
    # the printed contents lists the chapters, not the index, which is set in the chapters' face
    f = Flow()
    f.heading("Handbook", 24, before=0).para(3)
    contents = f.pages[-1]
    f.new_page()
    entries: list[tuple[str, int, float]] = []
    for chapter in ("1 Getting started", "2 Configuration", "3 Commands"):
        entries.append((chapter, len(f.pages), 72.0))
        f.heading(chapter, 16, before=0).para(8)
        section = chapter.split()[0] + ".1 Details"
        entries.append((section, len(f.pages), 90.0))
        f.heading(section, 12).para(8)
        f.new_page()
    f.heading("Index", 16, before=0)
    for n in range(12):
        f.line(f"entry{n}, {(n * 7) % 5 + 2}")
    contents.lines.append(Line("Contents", y=600, size=16, bold=True))
    y = 570.0
    for title, page, x in entries:
        contents.lines.append(Line(f"{title} " + ". " * 20 + str(page), x=x, y=y, size=10))
        y -= 15
    doc = parse(f.write(tmp_path / "index-level.pdf"))
    levels = {title: level for level, title in tree(doc)}
    assert levels["Index"] == levels["3 Commands"]
    assert levels["3.1 Details"] == levels["3 Commands"] + 1


def test_statement_page_is_not_read_as_three_columns(tmp_path: Path):
    # a centred PART over a flush-left Item, then a statement: a label column, figures, centred
    # titles; three bands of pieces, yet no three columns of text: PART is read before the Item
    page = Page(
        [
            Line("PART I. FINANCIAL INFORMATION", x=230, y=740, size=9, bold=True),
            Line("Item 1. Financial Statements", x=20, y=726, size=9, bold=True),
            Line("ACME CORP.", x=262, y=710, size=9, bold=True),
            Line("CONSOLIDATED STATEMENTS OF CASH FLOWS", x=201, y=699, size=9, bold=True),
            Line("(in millions)", x=283, y=688, size=9, bold=True),
            Line("(unaudited)", x=284, y=677, size=9, bold=True),
        ]
    )
    labels = ["CASH, BEGINNING OF PERIOD", "Net income (loss)", "Depreciation and amortization"]
    labels += ["Stock-based compensation", "Other expense (income), net", "Deferred income taxes"]
    labels += ["Inventories", "Accounts receivable, net and other", "Accounts payable", "Accrued expenses"]
    y = 660.0
    for k in range(24):
        label = labels[k % len(labels)] + ", as reported"
        page.lines.append(Line(label, x=20, y=y, size=8))
        for j, x in enumerate((441.0, 484.0, 527.0, 570.0)):
            figure = f"{(k * 37 + j * 101) % 900 + 10},{(k * 13 + j) % 900 + 100}"
            page.lines.append(Line(figure, x=x, y=y, size=7))
        y -= 12
    for k in range(4):  # a total alone in its row, under the last column
        page.lines.append(Line(f"({k + 3},8{k}4)", x=560, y=y, size=7))
        y -= 12
    path = write_pdf(tmp_path / "statement.pdf", [page])
    doc = PdfParser(use_outline=False).parse(path)
    assert doc.text.index("PART I. FINANCIAL INFORMATION") < doc.text.index("Item 1. Financial Statements")


def test_headings_that_differ_by_a_letter_are_not_one_recurring_label(tmp_path: Path):
    # "B hook", "D hook", "T hook", "V hook": four features, not one label set over four boxes
    f = Flow().heading("Character alternates", 16, before=0).para(3)
    hooks = ["B hook", "D hook", "T hook", "V hook"]
    for name in hooks:
        f.heading(name, 10).para(3)
    f.heading("Other features", 16).para(3)
    for name in ("P hook", "K hook", "Y hook", "Z hook"):
        hooks.append(name)
        f.heading(name, 10).para(3)
    doc = parse(f.write(tmp_path / "hooks.pdf"))
    assert [t for t in titles(doc) if t.endswith("hook")] == hooks


def _api_reference(tmp_path: Path) -> Path:
    """An API reference set like Pandoc through Typst: code at 0.8 of the text, also in headings.

    11 pt serif text, listings in a regular typewriter face at 8.8 pt that outweigh the prose,
    section headings whose code part is set in a bold typewriter face at 0.8 of the heading
    ("Class: " in 13.2 pt bold, "EventEmitter" in 10.56 pt bold code), and member headings made
    only of code (8.8 pt bold code, the 11 pt bold level's code).
    """
    f = Flow()
    f.heading("Events", 15.4, before=0, family="Times")

    def prose(n: int) -> None:
        for k in range(n):
            f.line(f"The emitter calls every listener of the event in turn, line {k} of the text,", size=11,
                   family="Times", after=14.4)  # fmt: skip
        f.gap(6)

    def listing(n: int) -> None:
        for k in range(n):
            f.line(f"const emitter{k} = new EventEmitter(); emitter{k}.on('event', handler{k});", size=8.8,
                   family="Courier", after=12.4)  # fmt: skip
        f.gap(6)

    def code_heading(label: str, code: str, size: float) -> None:
        f._room(size + 60)
        f.y -= 14
        f.lines.append(Line(label, y=f.y, size=size, bold=True, family="Times"))
        f.lines.append(
            Line(code, x=72 + 0.52 * size * len(label), y=f.y, size=0.8 * size, bold=True, family="Courier")
        )
        f.y -= size + 8

    prose(3)
    listing(8)
    f.heading("Passing arguments to listeners", 13.2, family="Times")
    prose(3)
    listing(10)
    code_heading("Class: ", "EventEmitter", 13.2)
    prose(2)
    members = ["emitter.on(eventName, listener)", "emitter.once(eventName, listener)"]
    for member in [*members, "emitter.eventNames()", "emitter.off(eventName, listener)"]:
        f.heading(member, 8.8, family="Courier")
        prose(2)
        listing(6)
    code_heading("Class: ", "EventTarget", 13.2)
    prose(3)
    return f.write(tmp_path / "typst-api.pdf")


def test_code_set_smaller_in_headings_of_an_api_reference(tmp_path: Path):
    doc = parse(_api_reference(tmp_path))
    # the prose sets the body's size although the listings hold more characters: paragraphs are
    # no headings; a heading whose name is code keeps its text face, one made of code is found
    assert titles(doc) == [
        "Events",
        "Passing arguments to listeners",
        "Class: EventEmitter",
        "emitter.on(eventName, listener)",
        "emitter.once(eventName, listener)",
        "emitter.eventNames()",
        "emitter.off(eventName, listener)",
        "Class: EventTarget",
    ]
    levels = {title: level for level, title in tree(doc)}
    assert levels["Class: EventEmitter"] == levels["Passing arguments to listeners"]
    assert levels["emitter.on(eventName, listener)"] == levels["Class: EventEmitter"] + 1
    assert levels["Class: EventTarget"] == levels["Class: EventEmitter"]


def test_listings_in_nimbus_mono_that_outweigh_the_prose_do_not_set_the_text_size(tmp_path: Path):
    # a Doxygen reference printed with URW's fonts: its source listings, 7 pt in Nimbus Mono L
    # ("NimbusMonL-Regu"), hold more characters than its 9 pt prose; the prose's cross-reference
    # lines set apart under each member ("Referenced by Cborder_store().") are text, not sections
    f = Flow().heading("4 Class Documentation", 16, before=0)
    for k, member in enumerate(("4.2.3.1 angle", "4.2.3.2 is_in", "4.2.3.3 mom")):
        f.heading(member, 11)
        f.line("angle w.r.t. circle centre of the particle momentum", size=9)
        f.line(f"Definition at line {60 + k} of file protocones.h.", size=9, after=22)
        f.line("Referenced by Cborder_store().", size=9, after=24)
    f.new_page().heading("5 File Documentation", 13, before=0)
    for n in range(14):  # (more characters than the prose, under three times as many)
        f.line(f"{n:05d}   double Cborder_store::angle_{n} = atan2(p.py, p.px) - centre;", size=7,
               face="NimbusMonL-Regu", after=8.5)  # fmt: skip
    doc = parse(f.write(tmp_path / "refman.pdf"))
    assert titles(doc) == [
        "4 Class Documentation", "4.2.3.1 angle", "4.2.3.2 is_in", "4.2.3.3 mom", "5 File Documentation"
    ]  # fmt: skip
