"""CJK text in fonts a PDF names without embedding them: boxes from the PDF's metrics.

pdfium draws such text with a font of the machine's (and its glyph boxes are zero
high where the machine has none), so the reader measures those pages on the PDF's
own metrics: each character's origin and advance, its font's ascent and descent.
The boxes asserted here are those metrics; glyph boxes from any installed font
differ from them.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _pdfgen import CJK_ASCENT, CJK_ASCII_WIDTH, CJK_DESCENT, Line, Page, write_pdf
from sectionrag.parsers._pdfium import PdfLine, extract_page_lines
from sectionrag.parsers.pdf import PdfParser

_TEXT = "本章では、パッケージの保守に関する基本的な手順と方針について説明します。開発者は常に最新の情報を確認"


def _text(text: str, y: float, size: float, x: float = 72.0) -> Line:
    return Line(text, x=x, y=y, size=size, face="Ryumin-Light", cjk=True)


def _head(text: str, y: float, size: float) -> Line:
    return Line(text, y=y, size=size, face="GothicBBB-Medium", cjk=True)


def _body(y: float, seed: int) -> tuple[list[Line], float]:
    lines = []
    for k in range(3):
        lines.append(_text(_TEXT[seed + k : seed + k + 30], y, 10))
        y -= 15
    return lines, y - 8


def _chapter(number: int) -> Page:
    lines = [_head(f"第{number}章 開発者の責務", 740, 20)]
    y = 700.0
    for s in (1, 2):
        lines.append(_head(f"{number}.{s} パッケージの管理", y, 14))
        body, y = _body(y - 24, s)
        lines += body
        lines.append(_head(f"{number}.{s}.1 アップロードの手順", y, 12))
        body, y = _body(y - 20, s + 4)
        lines += body
    return Page(lines)


def _page_lines(path: Path, index: int = 0) -> list[PdfLine]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return extract_page_lines(doc[index], index)
    finally:
        doc.close()


def _width(text: str, size: float) -> float:
    return sum((CJK_ASCII_WIDTH if ord(c) < 128 else 1000) for c in text) * size / 1000


def test_a_line_in_a_cjk_font_that_is_not_embedded_is_boxed_by_the_fonts_metrics(tmp_path: Path):
    path = write_pdf(tmp_path / "ja.pdf", [_chapter(1)])
    drawn = _chapter(1).lines
    lines = _page_lines(path)
    assert [ln.text for ln in lines] == [ln.text for ln in drawn]
    for ln, source in zip(lines, drawn, strict=True):
        baseline = 792 - source.y
        assert abs(ln.top - (baseline - CJK_ASCENT * source.size / 1000)) < 0.01
        assert abs(ln.bottom - (baseline - CJK_DESCENT * source.size / 1000)) < 0.01
        assert abs(ln.x0 - source.x) < 0.01
        assert abs(ln.x1 - (source.x + _width(source.text, source.size))) < 0.01


def test_lines_in_such_fonts_keep_their_order_down_the_page_and_the_headings_their_levels(tmp_path: Path):
    path = write_pdf(tmp_path / "ja.pdf", [_chapter(1), _chapter(2)])
    tops = [ln.top for ln in _page_lines(path, 1)]
    assert tops == sorted(tops)
    doc = PdfParser(use_outline=False).parse(path)
    assert [(s.level, s.title) for s in doc.sections] == [
        (level, title)
        for n in (1, 2)
        for level, title in [
            (1, f"第{n}章 開発者の責務"),
            (2, f"{n}.1 パッケージの管理"),
            (3, f"{n}.1.1 アップロードの手順"),
            (2, f"{n}.2 パッケージの管理"),
            (3, f"{n}.2.1 アップロードの手順"),
        ]
    ]


def test_a_page_without_such_text_keeps_pdfiums_glyph_boxes(tmp_path: Path):
    path = write_pdf(tmp_path / "en.pdf", [Page([Line("Getting started", y=700, size=20, bold=True)])])
    (line,) = _page_lines(path)
    doc = pdfium.PdfDocument(str(path))
    try:
        textpage = doc[0].get_textpage()
        assert textpage.count_rects() == 1
        left, _, _, top = textpage.get_rect(0)
    finally:
        doc.close()
    assert (round(line.x0, 3), round(line.top, 3)) == (round(left, 3), round(792 - top, 3))
    assert abs(line.height - 20) > 1  # a glyph box (cap height to descender), not the em's ascent and descent


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(st.sampled_from(["開発", "者", "パッケージ", "2024", "Debian", "の", "手順"]), max_size=8),
    size=st.sampled_from([8.0, 9.5, 10.0, 12.0, 17.28]),
    x=st.floats(min_value=40, max_value=200),
    y=st.floats(min_value=100, max_value=700),
)
def test_property_a_borrowed_cjk_line_spans_its_baseline_and_starts_at_its_origin(
    tmp_path: Path, words: list[str], size: float, x: float, y: float
):
    text = "開発" + "".join(words)  # (a page with no CJK character keeps pdfium's boxes)
    path = write_pdf(tmp_path / "p.pdf", [Page([_text(text, y, size, x)])])
    lines = _page_lines(path)
    assert "".join(ln.text for ln in lines) == text
    baseline = 792 - y
    for ln in lines:
        assert ln.top < baseline < ln.bottom
        assert abs(ln.height - (CJK_ASCENT - CJK_DESCENT) * size / 1000) < 0.01
    assert abs(lines[0].x0 - x) < 0.01
    assert abs(lines[-1].x1 - (x + _width(text, size))) < 0.01


def _machine_draws_cjk(path: Path) -> bool:
    """pdfium's own glyph box of a 20 pt ideograph: flat (a baseline) where the machine has no CJK font."""
    doc = pdfium.PdfDocument(str(path))
    try:
        textpage = doc[0].get_textpage()
        _, bottom, _, top = textpage.get_charbox(textpage.get_text_range().index("開"))
        return top - bottom > 2  # a drawn 開 is about 18 pt high
    finally:
        doc.close()


def test_a_machine_with_no_glyphs_for_the_cjk_text_is_told_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    path = write_pdf(tmp_path / "ja.pdf", [_chapter(1)])
    with caplog.at_level(logging.WARNING, logger="sectionrag"):
        doc = PdfParser(use_outline=False).parse(path)
    warned = [r.getMessage() for r in caplog.records if "fonts-noto-cjk" in r.getMessage()]
    if _machine_draws_cjk(path):
        assert "fonts_without_glyphs" not in doc.metadata
        assert warned == []
    else:
        assert doc.metadata["fonts_without_glyphs"] == ["GothicBBB-Medium", "Ryumin-Light"]
        (message,) = warned
        assert "GothicBBB-Medium, Ryumin-Light" in message and str(path) in message


def test_cjk_text_in_an_embedded_font_or_latin_text_names_no_font(tmp_path: Path):
    path = write_pdf(tmp_path / "en.pdf", [Page([Line("Getting started", y=700, size=20, bold=True)])])
    assert "fonts_without_glyphs" not in PdfParser(use_outline=False).parse(path).metadata
