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


def _jargon() -> list[Block]:
    return markdown_blocks(DOCS / "encyclopedia" / "jargon_file_entries.md", 1)


def _persuasion() -> list[Block]:
    return chapter_blocks(DOCS / "book" / "persuasion_ch01-12.txt")


def _sed() -> list[Block]:
    return texinfo_blocks(DOCS / "manual" / "gnu_sed_manual_ch3-4.txt")


def _sqlite() -> list[Block]:
    return markdown_blocks(DOCS / "manual" / "sqlite_manual.md")


#: (name, title, blocks)
SOURCES: tuple[tuple[str, str, Callable[[], list[Block]]], ...] = (
    ("jargon", "Selected Entries of the Jargon File", _jargon),
    ("persuasion", "Persuasion, Chapters 1 to 12", _persuasion),
    ("sed", "GNU sed: Scripts and Commands", _sed),
    ("sqlite", "SQLite: Transactions, Logging and Types", _sqlite),
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
    if name in ("word2013", "numbered"):
        _font(styles["Normal"], "Calibri", 11, None, None)
        for level, size in ((1, 16), (2, 13), (3, 12), (4, 11)):
            _font(styles[f"Heading {level}"], "Calibri Light", size, False, level == 4)
    elif name == "report":
        _font(styles["Normal"], "Arial", 10, None, None)
        for level, size, italic in ((1, 14, False), (2, 12, False), (3, 11, True), (4, 10, True)):
            _font(styles[f"Heading {level}"], "Arial", size, True, italic)
        styles["Heading 1"].font.all_caps = True
    elif name == "legal":
        _font(styles["Normal"], "Times New Roman", 12, None, None)
        for level, bold, italic in ((1, True, False), (2, True, False), (3, False, True), (4, False, True)):
            _font(styles[f"Heading {level}"], "Times New Roman", 12, bold, italic)
        styles["Heading 1"].font.all_caps = True
        styles["Heading 1"].paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    colour = None if name == "legal" else styles["Heading 1"].font.color.rgb
    for level in range(1, 5):
        styles[f"Heading {level}"].font.color.rgb = colour


def write_docx(path: Path, title: str, blocks: list[Block], style: str) -> None:
    """Write one document: a title page, then the blocks, with the title as running head."""
    import docx
    from docx.enum.text import WD_BREAK

    document = docx.Document()
    look(document, style)
    document.sections[0].header.paragraphs[0].text = title
    document.add_paragraph(title, style="Title")
    document.add_paragraph("A document for testing heading detection", style="Subtitle")
    document.add_paragraph("Prepared by the sectionrag project").add_run().add_break(WD_BREAK.PAGE)
    numbers = [0] * 6
    for kind, level, text in blocks:
        if kind == "h":
            level = min(level, 4)
            if style == "numbered":  # (the source's own numbers give way to the document's)
                numbers[level - 1] += 1
                numbers[level:] = [0] * (len(numbers) - level)
                own = re.sub(r"^\d+(?:\.\d+)*\.?\s+", "", text)
                text = ".".join(str(n) for n in numbers[:level]) + " " + own
            document.add_heading(text, level=level)
        elif kind == "li":
            document.add_paragraph(text, style="List Bullet")
        elif kind == "code":
            para = document.add_paragraph()
            run = para.add_run(text)
            run.font.name = "Courier New"
        else:
            document.add_paragraph(text)
    document.save(str(path))


LOOKS = ("legal", "numbered", "report", "word2010", "word2013")


def documents() -> list[tuple[str, str, Callable[[], list[Block]], str]]:
    """Every (name, title, blocks, look), in name order."""
    out = [(f"{s}-{lk}", title, blocks, lk) for s, title, blocks in SOURCES for lk in LOOKS]
    return sorted(out, key=lambda d: d[0])


def set_of(index: int) -> str:
    return "development" if index % 2 == 0 else "held-out"


def build(folder: Path) -> list[tuple[str, Path | None]]:
    """Write every document and convert it with LibreOffice: ``(name, PDF or None)``."""
    out: list[tuple[str, Path | None]] = []
    for name, title, blocks, lk in documents():
        source = folder / f"{name}.docx"
        write_docx(source, title, blocks(), lk)
        pdf = source.with_suffix(".pdf")
        pdf.unlink(missing_ok=True)
        command = ["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(folder), str(source)]
        subprocess.run(command, capture_output=True, check=False, timeout=300)
        out.append((name, pdf if pdf.is_file() else None))
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
    for k, (name, pdf) in enumerate(build(folder)):
        if pdf is None:
            print(f"| {name} | {set_of(k)} | not converted | | | | | |")
            continue
        r = he.evaluate(pdf)
        by_set.setdefault(set_of(k), []).append(r)
        print(
            f"| {name} | {set_of(k)} | {r.truth} | {r.found} | {r.matched} | {r.f1_in_depth:.2f} | "
            f"{r.recall:.2f} | {r.level_agreement:.2f} |"
        )
    print()
    print("| set | documents | mean F1 (depth) | worst F1 (depth) | mean recall | mean level agreement |")
    print("|---|---:|---:|---:|---:|---:|")
    for which, rows in by_set.items():
        n = len(rows)
        f1 = sum(r.f1_in_depth for r in rows) / n
        worst = min(r.f1_in_depth for r in rows)
        recall = sum(r.recall for r in rows) / n
        agree = sum(r.level_agreement for r in rows) / n
        print(f"| {which} | {n} | {f1:.3f} | {worst:.3f} | {recall:.3f} | {agree:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
