"""Bookmarks that lost their accents, or were cut short, still find their headings.

A PDF's outline is often written in its one-byte text encoding, which has no
Vietnamese ``ơ`` or ``ờ``: LaTeX's hyperref writes ``Lời mở đầu`` as ``Loi mo
dau`` and ``Định dạng`` as ``Ðinh dang``. Titles are compared with their
Latin, Greek and Cyrillic accents dropped, so such a bookmark is placed at its
heading, and heading_eval scores a detected ``Lời mở đầu`` against it. A
bookmark shortened with an ellipsis (``Theorem and ...``) names its heading's
first words; one without an exercise's label (``Titelei`` for ``Aufgabe 5.1:
Titelei``) names the rest of it, and so does one whose Chinese or Japanese section
label is spaced otherwise or left out (``第1节 简介`` for ``第 1 节 简介``).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from _pdfgen import Bookmark, Line, Page, body_lines, write_pdf
from _section_checks import check_sections
from sectionrag.parsers._pdf_outline import titles_match
from sectionrag.parsers.headings import normalize_for_match
from sectionrag.parsers.pdf import PdfParser
from sectionrag.types import Document


def test_titles_compare_without_their_accents():
    assert normalize_for_match("Lời mở đầu") == normalize_for_match("Loi mo dau") == "loi mo dau"
    assert normalize_for_match("Định dạng việc xuống hàng") == normalize_for_match(
        "Ðinh dang viec xuong hàng"
    )
    assert normalize_for_match("Chương 2 Soạn thảo văn bản") == "soan thao van ban"  # the label goes too
    assert normalize_for_match("Résumé des opérations") == "resume des operations"
    assert normalize_for_match("Глава 3 Введение") == normalize_for_match("Введение")


def test_other_scripts_keep_their_marks():
    # (the vowel signs of Devanagari and the points of Hebrew are letters of the word, not accents)
    assert normalize_for_match("परिचय") == "परिचय"
    assert normalize_for_match("第 II 部 概要") == "概要"


_ACCENTED = "aeiouyAEIOUYàáâãäåèéêëìíîïòóôõöùúûüýÿăắằẳẵặơớờởỡợưứừửữựđĐÀÉÔƠƯ"


@given(st.text(alphabet=_ACCENTED + " ", min_size=1, max_size=30))
def test_property_a_title_matches_itself_written_without_accents(title: str):
    plain = "".join(
        "d" if c in "đĐ" else unicodedata.normalize("NFD", c)[0] for c in title
    )  # what a one-byte outline keeps of it, at worst
    assert normalize_for_match(title) == normalize_for_match(plain)


def _french_report(path: Path) -> list[str]:
    """Three pages, each under an accented heading; the bookmarks name them without accents."""
    headings = ["Résumé des opérations", "Données financières", "Procédés et modèles"]
    pages = []
    for k, heading in enumerate(headings):
        lines = [Line(heading, y=740, size=16, bold=True)]
        # (each page's paragraphs open with the heading's words, so only the heading line itself
        # tells where its section starts)
        lines.append(Line(f"{heading} : suite du chapitre précédent.", y=700))
        lines += body_lines(28, k, 680)[0]
        pages.append(Page(lines))
    plain = ["Resume des operations", "Donnees financieres", "Procedes et modeles"]
    write_pdf(path, pages, outline=[Bookmark(t, k, 760) for k, t in enumerate(plain)])
    return headings


def test_bookmarks_without_accents_start_at_their_accented_headings(tmp_path: Path):
    pdf = tmp_path / "rapport.pdf"
    headings = _french_report(pdf)
    doc = PdfParser().parse(pdf)
    assert doc.metadata["sections_from"] == "outline"
    check_sections(doc)
    assert [s.title for s in doc.sections] == [
        "Resume des operations",
        "Donnees financieres",
        "Procedes et modeles",
    ]
    for section, heading in zip(doc.sections, headings, strict=True):
        assert doc.text[section.start :].startswith(heading + "\n")


def test_a_bookmark_cut_short_names_its_headings_first_words():
    assert titles_match("theorem and", "theorem and theorem like environments", cut=True)
    assert not titles_match("theorem and", "theorem and theorem like environments")
    assert not titles_match("theo", "theorems", cut=True)  # (whole words only)
    assert not titles_match("the", "the end", cut=True)  # (four letters at least)


def _two_headings_bookmarked(
    pdf: Path, headings: list[str], bookmarks: list[str], cjk: bool = False
) -> Document:
    """Parse a page of two headings, each over its text, whose bookmarks point at the page's top.

    With ``cjk`` the headings are set in a Japanese CID font.
    """
    face = {"face": "GothicBBB-Medium", "cjk": True} if cjk else {}
    lines = [Line(headings[0], y=700, size=14, bold=True, **face)]
    lines += body_lines(20, 1, 680)[0]
    lines.append(Line(headings[1], y=420, size=14, bold=True, **face))
    lines += body_lines(20, 2, 400)[0]
    write_pdf(pdf, [Page(lines)], outline=[Bookmark(title, 0, 792) for title in bookmarks])
    doc = PdfParser().parse(pdf)
    check_sections(doc)
    for section, heading in zip(doc.sections, headings, strict=True):
        assert doc.text[section.start :].startswith(heading + "\n")
    return doc


def test_bookmarks_cut_short_start_at_their_headings(tmp_path: Path):
    """Two headings on a page, bookmarks naming their first words."""
    headings = ["7. Theorem and theorem like environments", "8. Enumerated and itemized lists"]
    _two_headings_bookmarked(tmp_path / "guide.pdf", headings, ["Theorem and ...", "Enumerated ..."])


def test_exercise_labels_compare_with_their_titles():
    assert normalize_for_match("Aufgabe 5.1: Titelei") == normalize_for_match("Titelei") == "titelei"
    assert normalize_for_match("2.2 Problem 0: Einstein's Problem") == normalize_for_match(
        "Problem 0: Einstein's Problem"
    )
    assert normalize_for_match("Übung 3 Schleifen") == "schleifen"
    assert normalize_for_match("Exercise 1") == "exercise 1"  # (a label alone keeps it)
    assert normalize_for_match("Tasks and problems") == "tasks and problems"


def test_bookmarks_without_the_exercise_label_start_at_their_headings(tmp_path: Path):
    """A sheet prints "Aufgabe 5.1: Titelei"; its bookmark says "Titelei"."""
    headings = ["Aufgabe 5.1: Titelei", "Aufgabe 5.2: Farbgebung"]
    doc = _two_headings_bookmarked(tmp_path / "blatt.pdf", headings, ["Titelei", "Farbgebung"])
    assert [s.title for s in doc.sections] == ["Titelei", "Farbgebung"]


def test_chinese_and_japanese_section_labels_compare_however_spaced():
    assert normalize_for_match("第 1 节 模板介绍") == normalize_for_match("第1节 模板介绍") == "模板介绍"
    assert normalize_for_match("付録 A 索引スタイルの例") == normalize_for_match("索引スタイルの例")
    assert normalize_for_match("第3条 定義") == "定義"
    assert normalize_for_match("第 1 节") == "第 1 节"  # (a label alone keeps it)


def test_bookmarks_spacing_a_section_label_otherwise_start_at_their_headings(tmp_path: Path):
    """A manual prints "第 1 节 简介" (spaces around the number); its bookmark says "第1节 简介"."""
    headings = ["第 1 节 简介", "第 2 节 安装"]
    doc = _two_headings_bookmarked(tmp_path / "manual.pdf", headings, ["第1节 简介", "第2节 安装"], cjk=True)
    assert [s.title for s in doc.sections] == ["第1节 简介", "第2节 安装"]
