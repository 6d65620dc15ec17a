"""Property test of the PDF parser on random small documents written with ``_pdfgen``.

Documents of one to four pages mix heading lines (11 to 20 pt, bold or not,
numbered or not) and body lines of random words, at random positions. Whatever
the layout, parsing must not fail, pages must tile the text, sections must nest
properly and every written word must reach the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _pdfgen import WORDS, Line, Page, write_pdf
from _section_checks import check_sections
from sectionrag.errors import ParseError
from sectionrag.parsers.pdf import PdfParser

TITLE_WORDS = [
    "Overview",
    "Revenue",
    "Risk",
    "Factors",
    "Market",
    "Results",
    "Liquidity",
    "Outlook",
    "Note",
    "Summary",
    "and",
    "of",
]
NUMBERINGS = [
    "",
    "",
    "{a}",
    "{a}.{b}",
    "{a}.{b}.{c}",
    "Chapter {a}",
    "PART {r}",
    "Item {a}A.",
    "Appendix {L}",
]
ROMANS = ["I", "II", "III", "IV"]


def _width(text: str, size: float) -> float:
    """A generous estimate of the printed width (Helvetica averages about 0.55 em a character)."""
    return 0.62 * size * len(text)


@st.composite
def heading_texts(draw: st.DrawFn) -> str:
    numbering = draw(st.sampled_from(NUMBERINGS)).format(
        a=draw(st.integers(1, 12)),
        b=draw(st.integers(1, 9)),
        c=draw(st.integers(1, 9)),
        r=draw(st.sampled_from(ROMANS)),
        L=draw(st.sampled_from("ABCDEFGH")),
    )
    words = draw(st.lists(st.sampled_from(TITLE_WORDS), min_size=0 if numbering else 1, max_size=6))
    title = " ".join([numbering, *words]).strip()
    if draw(st.integers(0, 5)) == 0:
        title = title.upper()
    return title


@st.composite
def documents(draw: st.DrawFn) -> list[Page]:
    pages = []
    for _ in range(draw(st.integers(1, 4))):
        page = Page()
        y = draw(st.floats(620, 770))
        prev_size = 0.0
        for _ in range(draw(st.integers(0, 16))):
            if draw(st.integers(0, 2)) == 0:
                text = draw(heading_texts())
                size = float(draw(st.integers(11, 20)))
                bold = draw(st.booleans())
                italic = draw(st.integers(0, 4)) == 0
            else:
                text = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=14)))
                size, bold, italic = 10.0, False, draw(st.integers(0, 9)) == 0
            # lines never overlap: each baseline is at least one (larger) font size below the last
            y -= draw(st.floats(max(size, prev_size) + 2, max(size, prev_size) + 30))
            if y < 30:
                break
            x = draw(st.floats(36, max(36.0, 600 - _width(text, size))))
            page.lines.append(Line(text, x=x, y=y, size=size, bold=bold, italic=italic))
            prev_size = size
        pages.append(page)
    return pages


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pages=documents())
def test_random_documents_parse_into_consistent_pages_and_sections(tmp_path: Path, pages: list[Page]):
    path = write_pdf(tmp_path / "random.pdf", pages)
    written = [ln.text for page in pages for ln in page.lines]
    if not written:
        with pytest.raises(ParseError):
            PdfParser(use_outline=False).parse(path)
        return
    for parser in (PdfParser(use_outline=False), PdfParser(use_outline=False, remove_headers=False)):
        doc = parser.parse(path)
        text = doc.text
        # pages tile the text, one span per page
        assert [p.number for p in doc.pages] == list(range(1, len(pages) + 1))
        assert doc.pages[0].start == 0 and doc.pages[-1].end == len(text)
        for a, b in zip(doc.pages, doc.pages[1:], strict=False):
            assert a.end == b.start
        # sections nest, end where the next one of their level starts, and start a line
        check_sections(doc)
        for s in doc.sections:
            assert s.start == 0 or text[s.start - 1] == "\n", (s, text[s.start - 20 : s.start + 20])
            assert doc.pages[s.page_start - 1].start <= s.start < doc.pages[s.page_start - 1].end
    # with running headers kept (the last parse), every written line reaches the text whole
    for line in written:
        assert line in text, (line, text)
