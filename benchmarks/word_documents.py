"""Heading detection on word-processor documents: Word styles, typeset by LibreOffice.

Most documents people keep (policies, reports, manuals) are written in a word
processor with its heading styles, and printed to PDF with the headings as
bookmarks. This script writes such documents: four public texts with real
heading structure (SQLite's manual, GNU sed's manual, Jargon File entries,
the first chapters of *Persuasion*; all in ``benchmarks/retrieval_set``, with
their licences there) as ``.docx`` files with ``python-docx``, each in five
looks (Word 2010's default styles; Word 2013's unbolded Calibri Light; a
report in Arial with capitals; a legal document in Times with centred
headings; Word 2013's look with numbered headings), a title page and a running
head, and converts them to PDF with LibreOffice (bookmarks from the heading
styles). They are scored as ``heading_eval.py`` scores a PDF, outline off.
The 20 documents are split by name order before any output was looked at:
the first, third, fifth ... is development data, the second, fourth ... is
held out (only measured).

Needs ``pip install python-docx`` and LibreOffice (Debian:
``libreoffice-writer-nogui``, ``fonts-crosextra-carlito``,
``fonts-crosextra-caladea``).

    python benchmarks/word_documents.py            # one row per document, and the means
    python benchmarks/word_documents.py --keep D   # keep the .docx and .pdf files in D
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (for heading_eval)

import heading_eval as he

DOCS = Path(__file__).resolve().parent / "retrieval_set" / "docs"

Block = tuple[str, int, str]  # ("h", level, title) | ("p", 0, text) | ("li", 0, text) | ("code", 0, text)


def markdown_blocks(path: Path, first: int = 0) -> list[Block]:
    """Headings (``#`` levels, minus ``first``), paragraphs, list items and code of a Markdown file."""
    blocks: list[Block] = []
    fence = False
    code: list[str] = []
    for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        text = para.strip()
        if text.startswith("```") or fence:
            fence = not (text.endswith("```") and (fence or text.count("```") >= 2))
            code.append(text.strip("`"))
            if not fence:
                blocks.append(("code", 0, "\n".join(code).strip()))
                code = []
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", text)
        if m:
            level = len(m.group(1)) - first
            if level >= 1:
                blocks.append(("h", level, m.group(2).strip()))
            continue
        if text.startswith("|"):
            continue  # (tables are left out: the texts' own tables are few and small)
        items = re.split(r"\n(?=[-*] |\d+\. )", text)
        if len(items) > 1 or re.match(r"^(?:[-*]|\d+\.) ", text):
            blocks += [("li", 0, re.sub(r"^(?:[-*]|\d+\.) ", "", i).replace("\n", " ")) for i in items]
        elif text:
            blocks.append(("p", 0, " ".join(text.split())))
    return blocks


def texinfo_blocks(path: Path) -> list[Block]:
    """Headings (underlined with ``*``, ``=``, ``-``, ``.``) and paragraphs of makeinfo's plain text."""
    levels = {"*": 1, "=": 2, "-": 3, ".": 4}
    blocks: list[Block] = []
    for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))[1:]:
        lines = para.strip("\n").splitlines()
        if len(lines) == 2 and lines[1] and set(lines[1]) <= set(levels) and len(set(lines[1])) == 1:
            blocks.append(("h", levels[lines[1][0]], lines[0].strip()))
        elif lines and lines[0].lstrip().startswith("* "):
            continue  # a menu
        elif lines and all(ln.startswith("     ") for ln in lines):
            blocks.append(("code", 0, "\n".join(ln[5:] for ln in lines)))
        elif lines:
            blocks.append(("p", 0, " ".join(" ".join(lines).split())))
    return blocks


def chapter_blocks(path: Path) -> list[Block]:
    """``Chapter N`` headings and paragraphs of a plain-text novel."""
    blocks: list[Block] = []
    for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        text = " ".join(para.split())
        if re.fullmatch(r"Chapter \d+", text):
            blocks.append(("h", 1, text))
        elif text and blocks:
            blocks.append(("p", 0, text))
    return blocks


_ITEMS = (
    ("PART I", None),
    (
        "Item 1. Business",
        ("Overview", "Products and Services", "Competition", "Human Capital", "Available Information"),
    ),
    (
        "Item 1A. Risk Factors",
        ("Macroeconomic and Industry Risks", "Operational Risks", "Legal and Regulatory Risks"),
    ),
    ("Item 1B. Unresolved Staff Comments", ()),
    ("Item 1C. Cybersecurity", ("Risk Management and Strategy", "Governance")),
    ("Item 2. Properties", ()),
    ("Item 3. Legal Proceedings", ()),
    ("Item 4. Mine Safety Disclosures", ()),
    ("PART II", None),
    (
        "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer "
        "Purchases of Equity Securities",
        ("Stock Performance Graph",),
    ),
    ("Item 6. [Reserved]", ()),
    (
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
        (
            "Overview",
            "Results of Operations",
            "Liquidity and Capital Resources",
            "Critical Accounting Estimates",
        ),
    ),
    ("Item 7A. Quantitative and Qualitative Disclosures About Market Risk", ()),
    (
        "Item 8. Financial Statements and Supplementary Data",
        (
            "CONSOLIDATED STATEMENTS OF OPERATIONS",
            "CONSOLIDATED BALANCE SHEETS",
            "Note 1 \u2013 Summary of Significant Accounting Policies",
            "Note 2 \u2013 Revenue",
            "Note 3 \u2013 Income Taxes",
        ),
    ),
    ("Item 9. Changes in and Disagreements with Accountants on Accounting and Financial Disclosure", ()),
    ("Item 9A. Controls and Procedures", ()),
    ("Item 9B. Other Information", ()),
    ("PART III", None),
    ("Item 10. Directors, Executive Officers and Corporate Governance", ()),
    ("Item 11. Executive Compensation", ()),
    ("PART IV", None),
    ("Item 15. Exhibit and Financial Statement Schedules", ()),
    ("Item 16. Form 10-K Summary", ()),
)


def annual_report_blocks(path: Path) -> list[Block]:
    """An annual report on Form 10-K: its PARTs, Items and sub-headings, filled with a filing's prose.

    The headings are the form's (and common sub-headings); the paragraphs are
    the prose of a quarterly report of the retrieval set, in their order.
    """
    prose = [
        " ".join(p.split())
        for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        if len(p) > 300 and not p.lstrip().startswith(("#", "|")) and "|" not in p
    ]
    pick = iter(prose * 3)
    blocks: list[Block] = []
    for title, subs in _ITEMS:
        if subs is None:
            blocks.append(("h", 1, title))
            continue
        blocks += [("h", 2, title), ("p", 0, next(pick))]
        for sub in subs:
            blocks += [("h", 3, sub), ("p", 0, next(pick)), ("p", 0, next(pick))]
            if sub.startswith("CONSOLIDATED"):
                blocks.append(("table", 0, sub))
    return blocks


#: the fourth round's: annual reports on Form 10-K (name, title, blocks)
FILINGS: tuple[tuple[str, str, Callable[[], list[Block]]], ...] = (
    (
        "aapl",
        "Apple Inc. 2023 Form 10-K",
        partial(annual_report_blocks, DOCS / "finance" / "2023_Q3_AAPL.md"),
    ),
    (
        "intc",
        "Intel Corporation 2023 Form 10-K",
        partial(annual_report_blocks, DOCS / "finance" / "2023_Q3_INTC.md"),
    ),
    (
        "msft",
        "Microsoft Corporation 2023 Form 10-K",
        partial(annual_report_blocks, DOCS / "finance" / "2023_Q3_MSFT.md"),
    ),
)


#: (name, title, blocks)
SOURCES: tuple[tuple[str, str, Callable[[], list[Block]]], ...] = (
    (
        "jargon",
        "Selected Entries of the Jargon File",
        partial(markdown_blocks, DOCS / "encyclopedia" / "jargon_file_entries.md", 1),
    ),
    (
        "persuasion",
        "Persuasion, Chapters 1 to 12",
        partial(chapter_blocks, DOCS / "book" / "persuasion_ch01-12.txt"),
    ),
    (
        "sed",
        "GNU sed: Scripts and Commands",
        partial(texinfo_blocks, DOCS / "manual" / "gnu_sed_manual_ch3-4.txt"),
    ),
    (
        "sqlite",
        "SQLite: Transactions, Logging and Types",
        partial(markdown_blocks, DOCS / "manual" / "sqlite_manual.md"),
    ),
)


def _font(style: Any, name: str | None, size: float | None, bold: bool | None, italic: bool | None) -> None:
    from docx.shared import Pt

    if name is not None:
        style.font.name = name
        rpr = style.element.get_or_add_rPr()
        fonts = rpr.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}rFonts")
        for attr in ("ascii", "hAnsi", "cs", "eastAsia"):
            fonts.set(f"{{http://schemas.openxmlformats.org/wordprocessingml/2006/main}}{attr}", name)
    if size is not None:
        style.font.size = Pt(size)
    style.font.bold = bold
    style.font.italic = italic


def look(document: Any, name: str) -> None:
    """Set the heading and body styles of ``document`` to one of the looks."""
    from docx.enum.text import WD_ALIGN_PARAGRAPH

    styles = document.styles
    if name == "word2010":
        return  # python-docx's template: Word 2010's Cambria headings over Calibri text
    if name in ("word2013", "numbered", "corporate"):
        _font(styles["Normal"], "Calibri", 11, None, None)
        for level, size in ((1, 16), (2, 13), (3, 12), (4, 11)):
            _font(styles[f"Heading {level}"], "Calibri Light", size, False, level == 4)
    elif name == "report":
        _font(styles["Normal"], "Arial", 10, None, None)
        for level, size, italic in ((1, 14, False), (2, 12, False), (3, 11, True), (4, 10, True)):
            _font(styles[f"Heading {level}"], "Arial", size, True, italic)
        styles["Heading 1"].font.all_caps = True
    elif name == "policy":
        _font(styles["Normal"], "Arial", 10, None, None)
        for level, size, italic in ((1, 12, False), (2, 10, False), (3, 10, True), (4, 10, True)):
            _font(styles[f"Heading {level}"], "Arial", size, True, italic)
    elif name == "handbook":
        _font(styles["Normal"], "Liberation Serif", 11, None, None)
        for level, size in ((1, 18), (2, 14), (3, 12), (4, 11)):
            _font(styles[f"Heading {level}"], "Liberation Sans", size, True, level == 4)
    elif name == "redbook":
        _font(styles["Normal"], "Liberation Serif", 10, None, None)
        for level, size in ((1, 24), (2, 14), (3, 12), (4, 11)):
            _font(styles[f"Heading {level}"], "Liberation Sans", size, True, False)
    elif name == "rulebook":
        _font(styles["Normal"], "Liberation Serif", 9.5, None, None)
        for level, size in ((1, 20), (2, 13), (3, 10.5), (4, 9.5)):
            _font(styles[f"Heading {level}"], "Liberation Serif", size, True, level >= 3)
        styles["Heading 2"].font.small_caps = True
    elif name in ("filing-times", "filing-tabbed"):
        _font(styles["Normal"], "Times New Roman", 10, None, None)
        for level, bold, italic in ((1, True, False), (2, True, False), (3, True, True), (4, False, True)):
            _font(styles[f"Heading {level}"], "Times New Roman", 10, bold, italic)
        styles["Heading 1"].paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    elif name == "filing-arial":
        _font(styles["Normal"], "Arial", 9, None, None)
        for level, size in ((1, 10), (2, 9), (3, 9), (4, 9)):
            _font(styles[f"Heading {level}"], "Arial", size, True, False)
        styles["Heading 1"].paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
        styles["Heading 2"].font.all_caps = True
    elif name == "legal":
        _font(styles["Normal"], "Times New Roman", 12, None, None)
        for level, bold, italic in ((1, True, False), (2, True, False), (3, False, True), (4, False, True)):
            _font(styles[f"Heading {level}"], "Times New Roman", 12, bold, italic)
        styles["Heading 1"].font.all_caps = True
        styles["Heading 1"].paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    colour = None if name == "legal" or name.startswith("filing") else styles["Heading 1"].font.color.rgb
    for level in range(1, 5):
        styles[f"Heading {level}"].font.color.rgb = colour


def _page_field(paragraph: Any, prefix: str) -> None:
    """Append ``prefix`` and a PAGE field (the page's number) to ``paragraph``."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    paragraph.add_run(prefix)
    field = OxmlElement("w:fldSimple")
    field.set(qn("w:instr"), "PAGE")
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    field.append(run)
    paragraph._p.append(field)


_FIGURES = (
    ("Total revenue", "12,480", "11,902"),
    ("Cost of revenue", "(7,311)", "(7,050)"),
    ("Gross margin", "5,169", "4,852"),
    ("Operating expenses", "(3,204)", "(3,118)"),
    ("Net income", "1,965", "1,734"),
)


def _table(document: Any, caption: str | None) -> None:
    """A table of figures: a bold header row, row labels, two columns of amounts."""
    if caption is not None:
        document.add_paragraph(caption, style="Caption")
    table = document.add_table(rows=1 + len(_FIGURES), cols=3)
    table.style = document.styles["Table Grid"]
    for k, cell in enumerate(table.rows[0].cells):
        cell.text = ("", "2023", "2022")[k]
        for run in cell.paragraphs[0].runs:
            run.bold = True
    for row, values in zip(table.rows[1:], _FIGURES, strict=True):
        for k, value in enumerate(values):
            row.cells[k].text = value
            if k == 0 and value in ("Gross margin", "Net income"):
                row.cells[k].paragraphs[0].runs[0].bold = True


def heading_texts(blocks: list[Block], style: str) -> list[tuple[int, str]]:
    """The headings as the document prints them: ``(level, text)``, numbered as the look numbers them."""
    numbers = [0] * 6
    out = []
    for kind, level, text in blocks:
        if kind != "h":
            continue
        level = min(level, 4)
        numbers[level - 1] += 1
        numbers[level:] = [0] * (len(numbers) - level)
        own = re.sub(r"^\d+(?:\.\d+)*\.?\s+", "", text)
        number = ".".join(str(n) for n in numbers[:level])
        if style == "numbered":  # (the source's own numbers give way to the document's)
            text = f"{number} {own}"
        elif style == "corporate":  # a multilevel list's number, a tab before the title
            text = f"{number}\t{own}"
        elif style == "policy":
            text = f"Section {number}. {own}" if level == 1 else f"{number} {own}"
        elif style == "redbook":  # "Chapter 3." over the chapter's title, in one heading
            label = "" if own.startswith("Chapter") else f"Chapter {number}.\n"
            text = f"{label}{own}" if level == 1 else f"{number} {own}"
        elif style == "rulebook":
            text = f"Chapter {number}: {own}" if level == 1 else own
        elif style == "filing-tabbed":  # the Item's number, a tab, its title
            text = re.sub(r"^(Item \d+[A-C]?\.) ", "\\1\t", text)
        out.append((level, text))
    return out


def write_docx(
    path: Path,
    title: str,
    blocks: list[Block],
    style: str,
    contents: list[tuple[int, str, int]] | None = None,
) -> None:
    """Write one document: a title page, then the blocks, with the title as running head.

    With ``contents`` (level, title, page), a contents page follows the title
    page: each title, a row of dots and its page, as a word processor's
    contents field prints them.
    """
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK, WD_TAB_ALIGNMENT, WD_TAB_LEADER
    from docx.shared import Inches, Pt

    document = docx.Document()
    look(document, style)
    document.sections[0].header.paragraphs[0].text = title
    if style in FILING_LOOKS:
        document.sections[0].header.paragraphs[0].text = "Table of Contents"
    if style in ROUND_2 or style in ROUND_3 or style in FILING_LOOKS:
        footer = document.sections[0].footer.paragraphs[0]
        footer.alignment = WD_ALIGN_PARAGRAPH.CENTER
        _page_field(footer, "Page " if style in ("corporate", "policy") else "")
    if style in FILING_LOOKS:
        for k, (line, bold) in enumerate(_COVER):
            para = document.add_paragraph()
            para.add_run(line).bold = bold
            para.alignment = WD_ALIGN_PARAGRAPH.CENTER if k < 8 else WD_ALIGN_PARAGRAPH.LEFT
            if k == 6:
                company = document.add_paragraph()
                company.add_run(title.rsplit(" 2023", 1)[0].upper()).bold = True
                company.alignment = WD_ALIGN_PARAGRAPH.CENTER
        para.add_run().add_break(WD_BREAK.PAGE)
    else:
        document.add_paragraph(title, style="Title")
        document.add_paragraph("A document for testing heading detection", style="Subtitle")
        document.add_paragraph("Prepared by the sectionrag project").add_run().add_break(WD_BREAK.PAGE)
    if contents is not None:
        head = document.add_paragraph().add_run("TABLE OF CONTENTS" if style in FILING_LOOKS else "Contents")
        head.bold, head.font.size = True, Pt(12 if style in FILING_LOOKS else 16)
        for level, text, page in contents:
            para = document.add_paragraph(f"{' '.join(text.split())}\t{page}")  # (on one line)
            para.paragraph_format.left_indent = Inches(0.25 * (level - 1))
            para.paragraph_format.tab_stops.add_tab_stop(
                Inches(6), WD_TAB_ALIGNMENT.RIGHT, WD_TAB_LEADER.DOTS
            )
        para.add_run().add_break(WD_BREAK.PAGE)
    if style == "redbook":
        for level, name, text in _FRONT:
            document.add_heading(name, level=level)
            document.add_paragraph(text)
    if style == "rulebook":
        _two_columns(document)
    headings = iter(heading_texts(blocks, style))
    seen = 0
    for kind, _, text in blocks:
        if kind == "h":
            level, printed = next(headings)
            renamed = ("numbered", *ROUND_2, *ROUND_3, "filing-tabbed")
            document.add_heading(printed if style in renamed else text, level=level)
            seen += 1
            if style in ROUND_2 and seen % 4 == 0:
                caption = f"Table {seen // 4}: Summary of results" if style == "handbook" else None
                _table(document, caption)
            if style == "rulebook" and level == 1:
                quote, source = _EPIGRAPHS[seen % len(_EPIGRAPHS)]
                document.add_paragraph().add_run(f"\u201c{quote}\u201d").italic = True
                attribution = document.add_paragraph()
                attribution.add_run(source).italic = True
                attribution.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            if style == "rulebook" and seen % 3 == 0:
                _sidebar(
                    document, "Variant: Quick Play", "Players who want a shorter game may skip this step."
                )
                _table(document, None)
        elif kind == "table":
            _table(document, None)
        elif kind == "li":
            document.add_paragraph(text, style="List Number" if style == "policy" else "List Bullet")
        elif kind == "code":
            para = document.add_paragraph()
            run = para.add_run(text)
            run.font.name = "Courier New"
        else:
            document.add_paragraph(text)
    if style == "redbook":
        for level, name, text in _BACK:
            document.add_heading(name, level=level)
            document.add_paragraph(text)
    document.save(str(path))


def _two_columns(document: Any) -> None:
    """Set the document's text in two columns."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    columns = OxmlElement("w:cols")
    columns.set(qn("w:num"), "2")
    columns.set(qn("w:space"), "360")
    document.sections[0]._sectPr.append(columns)


def _sidebar(document: Any, title: str, text: str) -> None:
    """A boxed sidebar: a one-cell table holding a bold title and a paragraph."""
    table = document.add_table(rows=1, cols=1)
    table.style = document.styles["Table Grid"]
    cell = table.rows[0].cells[0]
    cell.paragraphs[0].add_run(title).bold = True
    cell.add_paragraph(text)


#: the first round's looks; the second's add a contents page, tables, page numbers and more
LOOKS = ("legal", "numbered", "report", "word2010", "word2013")
ROUND_2 = ("corporate", "handbook", "policy")
#: the third round's: a technical book's chapters, front and back matter; a rule book's two columns,
#: epigraphs and sidebars
ROUND_3 = ("redbook", "rulebook")
#: the fourth round's: annual reports on Form 10-K
FILING_LOOKS = ("filing-arial", "filing-tabbed", "filing-times")
_COVER = (
    ("UNITED STATES", True),
    ("SECURITIES AND EXCHANGE COMMISSION", True),
    ("Washington, D.C. 20549", False),
    ("FORM 10-K", True),
    ("\u2612 ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True),
    ("For the fiscal year ended September 30, 2023", False),
    ("OR", False),
    ("\u2610 TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", True),
    ("Indicate by check mark if the registrant is a well-known seasoned issuer. Yes \u2612 No \u2610", False),
    ("Indicate by check mark whether the registrant is a shell company. Yes \u2610 No \u2612", False),
)
_EPIGRAPHS = (
    ("Measure twice, and cut once.", "\u2014Carpenters' saying."),
    ("Old stones remember what young hands forget.", "\u2014Dwarven saying."),
    ("Every map is wrong somewhere.", "\u2014A surveyor's notebook."),
)
_FRONT = (
    (1, "Notices", "This information was developed for products and services offered in many countries."),
    (2, "Trademarks", "The names used in this document may be trademarks of their owners."),
    (1, "Preface", "This book explains the subject for readers who build and run systems."),
    (2, "Authors", "This book was produced by a team of specialists from around the world."),
    (2, "Comments welcome", "Your comments are important to us; send them to the address below."),
)
_BACK = (
    (1, "Related publications", "The publications listed here are suitable for a more detailed discussion."),
    (2, "Online resources", "These websites are also relevant as further information sources."),
)


def documents() -> list[tuple[str, str, Callable[[], list[Block]], str, str]]:
    """Every (name, title, blocks, look, set), in name order within each round.

    Each round is split by name order before any output was looked at: the
    first, third, fifth ... document is development data, the others held out.
    """
    out = []
    rounds = (
        (SOURCES, LOOKS, ""),
        (SOURCES, ROUND_2, " (round 2)"),
        (SOURCES, ROUND_3, " (round 3)"),
        (FILINGS, FILING_LOOKS, " (round 4)"),
    )
    for sources, looks, label in rounds:
        docs = sorted((f"{s}-{lk}", title, blocks, lk) for s, title, blocks in sources for lk in looks)
        for k, (name, title, blocks, lk) in enumerate(docs):
            out.append((name, title, blocks, lk, ("development" if k % 2 == 0 else "held-out") + label))
    return out


def _convert(source: Path, folder: Path) -> Path | None:
    pdf = source.with_suffix(".pdf")
    pdf.unlink(missing_ok=True)
    command = ["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(folder), str(source)]
    subprocess.run(command, capture_output=True, check=False, timeout=300)
    return pdf if pdf.is_file() else None


def build(folder: Path) -> list[tuple[str, str, Path | None]]:
    """Write every document and convert it with LibreOffice: ``(name, set, PDF or None)``.

    A look with a contents page is written twice: with placeholder page
    numbers, then with the pages its bookmarks give (the contents page holds
    as many lines either way, so no page moves).
    """
    out: list[tuple[str, str, Path | None]] = []
    for name, title, blocks, lk, which in documents():
        source = folder / f"{name}.docx"
        items = blocks()
        contents = None
        if lk in ROUND_2 or lk == "redbook" or lk in FILING_LOOKS:
            listed = heading_texts(items, lk)
            if lk == "redbook":  # (a book's contents lists its front and back matter too)
                listed = [*((lv, name) for lv, name, _ in _FRONT), *listed, *((lv, n) for lv, n, _ in _BACK)]
            contents = [(level, text, 0) for level, text in listed if level <= 2]
            write_docx(source, title, items, lk, contents)
            first = _convert(source, folder)
            if first is not None:
                pages = {" ".join(text.split()): page for _, text, page in he.outline_truth(first)}
                contents = [(lv, text, pages.get(" ".join(text.split()), 0)) for lv, text, _ in contents]
        write_docx(source, title, items, lk, contents)
        out.append((name, which, _convert(source, folder)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="folder to keep the documents in")
    args = parser.parse_args(argv)
    try:
        import docx  # noqa: F401
    except ImportError:
        raise SystemExit("python-docx is not installed: pip install python-docx") from None
    if shutil.which("soffice") is None:
        raise SystemExit("LibreOffice is not installed (Debian: apt-get install libreoffice-writer-nogui)")
    folder = args.keep or Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    by_set: dict[str, list[he.Row]] = {}
    print("| document | set | truth | found | matched | F1 (depth) | recall | level agreement |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, which, pdf in build(folder):
        if pdf is None:
            print(f"| {name} | {which} | not converted | | | | | |")
            continue
        r = he.evaluate(pdf)
        by_set.setdefault(which, []).append(r)
        print(he.generated_row(name, which, r))
    he.print_set_means(by_set, "documents")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
