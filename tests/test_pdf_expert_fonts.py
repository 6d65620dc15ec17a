"""Old-style figures and small capitals of expert fonts read as digits and letters.

A Type 1 font with no Unicode map names its glyphs; an expert font's
``oneoldstyle`` and ``Asmall`` have no Unicode code point of their own, and
PDF readers give them the private-use ones Adobe assigned (U+F731, U+F761).
Headings numbered in old-style figures (``1.2 Overview``) then carried no
number and text such as ``version 0.01b`` could not be searched for.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from _pdfgen import Line, Page, body_lines, write_pdf
from _section_checks import check_sections
from sectionrag.parsers._pdf_layout import clean_text
from sectionrag.parsers.pdf import PdfParser


def _as_expert(text: str) -> str:
    """What a reader gives for ``text`` set in old-style figures and small capitals."""
    return "".join(
        chr(0xF730 + int(c)) if c.isdigit() else chr(0xF761 + ord(c) - ord("a")) if "a" <= c <= "z" else c
        for c in text
    )


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 .-", max_size=40))
def test_property_expert_glyphs_read_as_their_digits_and_letters(text: str):
    assert clean_text(_as_expert(text)) == clean_text(text)


def test_symbol_fonts_private_use_glyphs_stay():
    # (a Symbol font's bullet, U+F0B7, is a bullet to the list rules, not a letter)
    assert clean_text("\uf0b7 item") == "\uf0b7 item"
    assert clean_text("\uf7e9t\uf7e9") == "\u00e9t\u00e9"  # "Eacutesmall"


def test_headings_numbered_in_old_style_figures(tmp_path: Path):
    pdf = tmp_path / "manual.pdf"
    titles = ["1 Introduction", "1.1 Overview of the package", "2 Installation", "2.1 Driver versions"]
    pages = []
    for k in range(2):
        lines = [Line(titles[2 * k], y=740, size=14.3, bold=True, face="Iwona-Bold", expert=True)]
        body, y = body_lines(12, k, 710)
        lines += body
        lines.append(Line(titles[2 * k + 1], y=y - 14, size=12, bold=True, face="Iwona-Bold", expert=True))
        more, y = body_lines(12, k + 5, y - 40)
        lines += more
        lines.append(Line("This is version 0.01b of the package.", y=y - 6, face="Iwona", expert=True))
        pages.append(Page(lines))
    write_pdf(pdf, pages)
    doc = PdfParser(use_outline=False).parse(pdf)
    check_sections(doc)
    assert [s.title for s in doc.sections] == titles
    assert [s.level for s in doc.sections] == [1, 2, 1, 2]
    assert "version 0.01b" in doc.text
    assert not any("\uf700" <= ch <= "\uf7ff" for ch in doc.text)
