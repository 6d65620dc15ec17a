# ruff: noqa: RUF002, RUF003
# (Arabic-Indic digits and the minus sign are what these tests are about)
"""Persian, Arabic and Hebrew headings: chapter labels and section numbers read as their writers meant.

A Persian thesis numbers its sections in Arabic-Indic digits joined by a dash
or a stop, the chapter on the right ("۲-۳", chapter 2, section 3), under a
chapter label ("فصل دوم", "Chapter Two") set over the chapter's title. The
producers store the number's pieces in the order they were set ("−۲ ۳") or
reversed as a whole ("۳.۲"); the parser reads them back from where they stand
and from the document's own sequence of numbers.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sectionrag.parsers._pdf_layout import assign_rows
from sectionrag.parsers._pdf_rtl import orient_rtl_numbers
from sectionrag.parsers._pdfium import PdfLine, _rtl_number_first
from sectionrag.parsers.headings import classify, normalize_for_match
from sectionrag.parsers.pdf import PdfParser

_FA = "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9"  # Persian digits
_AR = "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"  # Arabic-Indic digits
_INTRODUCTION = "\u0645\u0642\u062f\u0645\u0647"  # مقدمه
_CHAPTER_TWO = "\u0641\u0635\u0644 \u062f\u0648\u0645"  # فصل دوم
# a line of Persian prose ("the software of typesetting scientific texts is a language ...")
_PROSE = (
    "\u0646\u0631\u0645 \u0627\u0641\u0632\u0627\u0631 \u062d\u0631\u0648\u0641 \u0686\u06cc\u0646\u06cc "
    "\u0645\u062a\u0648\u0646 \u0639\u0644\u0645\u06cc \u0627\u0633\u062a \u06a9\u0647 \u0628\u0627 "
    "\u062a\u0648\u062c\u0647 \u0628\u0647 \u0642\u0627\u0628\u0644\u06cc\u062a \u0647\u0627\u06cc "
    "\u0645\u062a\u0639\u062f\u062f \u0622\u0646"
)


def test_arabic_indic_numbers_joined_by_a_dash_are_section_numbers():
    style = classify(f"{_FA[2]}\u2212{_FA[3]} {_INTRODUCTION}")
    assert style is not None and (style.kind, style.depth, style.rest) == ("num", 2, _INTRODUCTION)
    assert style.label == f"{_FA[2]}.{_FA[3]}"  # (read as any section number is: parts joined by a stop)
    assert normalize_for_match(f"{_FA[2]}-{_FA[3]}-{_FA[1]} {_INTRODUCTION}") == _INTRODUCTION
    assert classify("1-2 weeks later") is None  # (Latin digits joined by a dash are no section number)


def test_persian_arabic_and_hebrew_chapter_labels():
    for label in (
        _CHAPTER_TWO,
        "\u0641\u0635\u0644 \u0627\u0648\u0644",  # فصل اول
        f"\u0641\u0635\u0644 {_FA[4]}",
        "\u0627\u0644\u0641\u0635\u0644 \u0627\u0644\u062b\u0627\u0646\u064a",  # الفصل الثاني
        "\u05e4\u05e8\u05e7 3",  # פרק 3
    ):
        style = classify(label)
        assert style is not None and (style.kind, style.rest) == ("chapter", ""), label
        assert normalize_for_match(f"{label} {_INTRODUCTION}") == _INTRODUCTION
    # "فصل بهار" is the season of spring, no chapter
    assert classify("\u0641\u0635\u0644 \u0628\u0647\u0627\u0631") is None


class _Boxes:
    """Character boxes of one line, by index: where each character stands."""

    def __init__(self, xs: list[float]) -> None:
        self.xs = xs

    def box(self, index: int) -> tuple[float, float, float, float] | None:
        x = self.xs[index]
        return (x, 0.0, x + 4.0, 10.0)


def test_a_number_stored_in_the_order_it_was_set_reads_right_to_left():
    # "−۲ ۳ مقدمه": the dash at 464, the chapter's 2 at 475 (rightmost), the section's 3 at 456
    text = f"\u2212{_FA[2]} {_FA[3]} {_INTRODUCTION}"
    xs = [464.0, 475.0, 463.0, 456.0, 434.0] + [430.0 - 6 * k for k in range(len(_INTRODUCTION))]
    assert _rtl_number_first(_Boxes(xs), text, 0) == f"{_FA[2]}\u2212{_FA[3]} {_INTRODUCTION}"
    # (or its stop first: ".١ ٢" for chapter 1, section 2)
    dotted = f".{_AR[1]} {_AR[2]} {_INTRODUCTION}"
    assert _rtl_number_first(_Boxes(xs), dotted, 0) == f"{_AR[1]}.{_AR[2]} {_INTRODUCTION}"
    # a number drawn twice over itself stays as it is; so does a well-formed one
    twice = f"2.1 2.1 {_INTRODUCTION}"
    assert _rtl_number_first(_Boxes([0.0] * len(twice)), twice, 0) == twice
    assert _rtl_number_first(_Boxes(xs), f"{_FA[2]}.{_FA[3]} {_INTRODUCTION}", 0).startswith(
        f"{_FA[2]}.{_FA[3]}"
    )


def _line(text: str, top: float, size: float = 12.0, bold: bool = False, page: int = 0) -> PdfLine:
    right = 494.0  # (right to left: lines end flush right)
    return PdfLine(text, right - 6 * len(text), right, top, top + size, size, bold, False, "Nazli", page)


def _sections(numbers: list[str]) -> list[PdfLine]:
    return [_line(f"{n} {_INTRODUCTION}", 100 + 60 * k, 15.8, True) for k, n in enumerate(numbers)]


def test_reversed_numbers_are_turned_where_the_document_stores_them_so():
    lines = _sections(
        [f"{_AR[1]}.{_AR[1]}", f"{_AR[2]}.{_AR[1]}", f"{_AR[3]}.{_AR[1]}", f"{_AR[1]}.{_AR[2]}"]
    )
    orient_rtl_numbers([lines])
    assert [ln.text.split()[0] for ln in lines] == [
        f"{_AR[1]}.{_AR[1]}",
        f"{_AR[1]}.{_AR[2]}",
        f"{_AR[1]}.{_AR[3]}",
        f"{_AR[2]}.{_AR[1]}",
    ]


def test_numbers_read_the_right_way_and_latin_lines_stay():
    right = [f"{_FA[1]}-{_FA[1]}", f"{_FA[1]}-{_FA[2]}", f"{_FA[1]}-{_FA[3]}", f"{_FA[2]}-{_FA[1]}"]
    lines = _sections(right)
    latin = [_line(text, 400, 14.0, True) for text in ("1.1 Overview", "2.1 Setup", "3.1 Usage")]
    orient_rtl_numbers([lines + latin])
    assert [ln.text.split()[0] for ln in lines] == right
    assert [ln.text for ln in latin] == ["1.1 Overview", "2.1 Setup", "3.1 Usage"]


@given(st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9)), min_size=2, max_size=8))
def test_property_turning_keeps_each_lines_characters(numbers: list[tuple[int, int]]):
    lines = _sections([f"{_AR[a]}.{_AR[b]}" for a, b in numbers])
    before = [sorted(ln.text) for ln in lines]
    orient_rtl_numbers([lines])
    assert [sorted(ln.text) for ln in lines] == before


def test_a_persian_thesis_nests_its_sections_under_its_chapters():
    """Chapter labels over their titles, sections numbered chapter-first once turned round."""
    titles = ["\u0631\u0627\u0647\u0646\u0645\u0627", "\u0646\u062a\u0627\u06cc\u062c"]  # راهنما، نتایج
    labels = ["\u0641\u0635\u0644 \u0627\u0648\u0644", _CHAPTER_TWO]
    pages: list[list[PdfLine]] = []
    for chapter in range(2):
        lines = [
            _line(labels[chapter], 186, 22.7, True, chapter),
            _line(titles[chapter], 232, 27.3, True, chapter),
        ]
        top = 300.0
        for section in range(1, 3):
            # stored reversed: section first ("۲.۱" for chapter 1, section 2)
            lines.append(
                _line(f"{_AR[section]}.{_AR[chapter + 1]} {_INTRODUCTION}", top, 15.8, True, chapter)
            )
            top += 30
            for _ in range(6):
                lines.append(_line(_PROSE, top, 12.0, False, chapter))
                top += 22
            top += 20
        assign_rows(lines)
        pages.append(lines)
    doc = PdfParser(use_outline=False)._build(pages, [], "thesis.pdf", {})
    found = [(s.level, s.title) for s in doc.sections]
    assert found == [
        (1, f"{labels[0]} {titles[0]}"),
        (2, f"{_AR[1]}.{_AR[1]} {_INTRODUCTION}"),
        (2, f"{_AR[1]}.{_AR[2]} {_INTRODUCTION}"),
        (1, f"{labels[1]} {titles[1]}"),
        (2, f"{_AR[2]}.{_AR[1]} {_INTRODUCTION}"),
        (2, f"{_AR[2]}.{_AR[2]} {_INTRODUCTION}"),
    ]


def test_a_persian_zero_width_non_joiner_parts_a_word_as_the_page_shows_it():
    from sectionrag.parsers._pdf_layout import clean_text

    # "حروف‌چینی" (typesetting): its two pieces shown apart, read with a space, as the page's text has it
    assert clean_text("\u062d\u0631\u0648\u0641\u200c\u0686\u06cc\u0646\u06cc") == (
        "\u062d\u0631\u0648\u0641 \u0686\u06cc\u0646\u06cc"
    )
    # (in Devanagari it only shapes a conjunct: it goes, and the word stays whole)
    assert clean_text("\u0915\u094d\u200c\u0937") == "\u0915\u094d\u0937"
