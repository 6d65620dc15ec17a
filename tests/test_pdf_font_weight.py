"""A face whose name calls it regular is not bold, whatever weight pdfium estimates for it.

pdfium estimates a font's weight from its descriptor's stem width (/StemV);
some producers write a stem width that makes a regular face read 700 or
more (CMR10, LMMono10-Regular, Utopia-Regular in TeX's output). Read as
bold, every line of the text became a bold line, and short lines of the
text set apart (a closing remark, a signature) headed sections. The regular
text faces of Chinese and Japanese (``SimSun``, ``FangSong``, ``KaiTi``,
``MingLiU``, ``MS-Mincho``) count as named regular; the sans ``SimHei``, which
sets their headings, does not. So does a name whose style names the slant
alone (``Arial-ItalicMT``: pdfium reads a weight of 645 for a filing's).
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from _pdfgen import Line, Page, body_lines, write_pdf
from _section_checks import check_sections
from sectionrag.parsers._pdfium import extract_page_lines
from sectionrag.parsers.pdf import PdfParser

HEAVY_STEM = 151  # pdfium reads a weight of 744 from it


def _in_face(lines: list[Line], face: str) -> list[Line]:
    for ln in lines:
        ln.face = face
        ln.stem = HEAVY_STEM
    return lines


def _report(path: Path, face: str) -> Path:
    pages = []
    for k, (title, remark) in enumerate(
        [("1 Introduction", "With thanks to the reviewers"), ("2 Results", "See the appendix for the data")]
    ):
        lines = [Line(title, y=740, size=14.3, bold=True, face="Utopia-Bold")]
        body, y = body_lines(10, k, 710)
        lines += _in_face(body, face)
        lines += _in_face([Line(remark, y=y - 16)], face)
        more, _ = body_lines(10, k + 3, y - 44)
        lines += _in_face(more, face)
        pages.append(Page(lines))
    return write_pdf(path, pages)


# (and the regular text faces of Chinese and Japanese: SimSun, the body face of Chinese documents)
@pytest.mark.parametrize(
    "face",
    [
        "Utopia-Regular", "LMRoman10-Regular", "TimesNewRomanPSMT", "CMR10", "SimSun", "MS-Mincho",
        # (a style naming the slant alone: the family's regular italic, a word processor's footnotes)
        "Arial-ItalicMT", "Helvetica-Oblique", "Calibri,Italic",
    ],
)  # fmt: skip
def test_regular_face_with_a_heavy_stem_reads_regular(tmp_path: Path, face: str):
    pdf = pdfium.PdfDocument(str(_report(tmp_path / "report.pdf", face)))
    try:
        lines = extract_page_lines(pdf[0], 0)
    finally:
        pdf.close()
    assert lines[0].bold  # "1 Introduction", in a face named bold
    assert not any(ln.bold for ln in lines[1:])


def test_short_lines_of_a_heavy_regular_text_head_nothing(tmp_path: Path):
    doc = PdfParser(use_outline=False).parse(_report(tmp_path / "report.pdf", "Utopia-Regular"))
    check_sections(doc)
    assert [s.title for s in doc.sections] == ["1 Introduction", "2 Results"]
    assert "With thanks to the reviewers" in doc.text


def test_a_face_its_name_leaves_open_keeps_the_weight(tmp_path: Path):
    # no word of weight in "Utopia": the descriptor's weight is all there is to go by
    pdf = pdfium.PdfDocument(str(_report(tmp_path / "report.pdf", "Utopia")))
    try:
        lines = extract_page_lines(pdf[0], 0)
    finally:
        pdf.close()
    assert all(ln.bold for ln in lines[1:])
