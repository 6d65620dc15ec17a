"""Headings of documents set in languages other than English, and the layouts they came with.

Each test builds a small PDF with the layout a real document uses (French, Spanish and
Portuguese manuals) and checks the sections a user gets from it, outline off.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line, body_lines
from test_pdf_headings import Flow, levels, parse, titles
from test_pdf_paper_layouts import _run


def _outdented(tmp_path: Path, label_beside_text: bool) -> list[str]:
    # a class manual: sections in 14 pt bold set out at x=86, sub-sections in 12 pt bold at x=100,
    # the text at x=142; "Usage" ends before the text's left edge
    f = Flow(x=142)
    f.heading("Compilation", 14, x=86).para(4)
    f.heading("Usage", 14, x=86)
    f.heading("Options of the class", 12, x=100).para(4)
    f.heading("Options of the package", 12, x=100).para(3)
    if label_beside_text:
        f.gap(8)
        f.lines.append(Line("NOTE", x=86, y=f.y, size=10, bold=True))
        lines, f.y = body_lines(3, 9, f.y, x=142)
        f.lines.extend(lines)
    f.heading("Examples", 14, x=86).para(4)
    return titles(parse(f.write(tmp_path / "outdented.pdf")))


def test_a_short_heading_set_out_left_of_the_text_on_a_row_of_its_own_is_a_heading(tmp_path: Path):
    assert _outdented(tmp_path, label_beside_text=False) == [
        "Compilation",
        "Usage",
        "Options of the class",
        "Options of the package",
        "Examples",
    ]


def test_a_label_in_the_margin_beside_a_line_of_text_is_still_no_heading(tmp_path: Path):
    got = _outdented(tmp_path, label_beside_text=True)
    assert "NOTE" not in got
    assert "Usage" in got


def _hanging_question(
    tmp_path: Path, chapter: str, number: str, first: str, second: str, after: str
) -> list[str]:
    """Titles of a FAQ page: ``number`` and ``first`` in bold on a row, ``second`` under its indent."""
    f = Flow().heading(chapter, 14).para(4)
    f.gap(10)
    row = _run([Line(number, size=12, bold=True), Line(first, size=12, bold=True)], 72, f.y, tmp_path)
    f.lines.extend(row)
    f.y -= 16
    f.lines.append(Line(second, x=row[1].x, y=f.y, size=12, bold=True))
    f.y -= 20
    f.para(6).heading(after, 12).para(6)
    return titles(parse(f.write(tmp_path / "faq.pdf")))


def test_a_numbered_question_goes_on_under_its_hanging_indent_past_twenty_words(tmp_path: Path):
    # a FAQ: "6.1. ¿Cómo puedo usar TeX en castellano? o ¿Qué es lo mínimo que hay que saber para"
    # (17 words) goes on under its hanging indent with "escribir en castellano con TeX/LaTeX?"
    got = _hanging_question(
        tmp_path,
        "6. Preguntas específicas",
        "6.1.",
        "¿Cómo puedo usar TeX en castellano? o ¿Qué es lo mínimo que hay que saber para",
        "escribir en castellano con TeX/LaTeX?",
        "6.2. ¿Dónde está la documentación?",
    )
    assert got == [
        "6. Preguntas específicas",
        "6.1. ¿Cómo puedo usar TeX en castellano? o ¿Qué es lo mínimo que hay que saber para escribir en "
        "castellano con TeX/LaTeX?",
        "6.2. ¿Dónde está la documentación?",
    ]


def test_numbered_warning_and_remark_boxes_are_no_sections(tmp_path: Path):
    # a manual's boxes: "Avertissement 1" and a dash, and "Remarque 2 : ..." in bold at the text's size,
    # numbered through the document; "Warning 3 - ..." in an English one, "Hinweis" alone in a German one
    f = Flow().heading("1 Compilation", 14).para(4)
    f.line("Avertissement 1 \u2013 LuaLaTeX et UTF-8 nécessaires", bold=True, after=16).para(3)
    f.para(3).heading("1.1 Options", 12).para(4)
    f.line("Remarque 2 : Structure non numérotée", bold=True, after=16).para(3)
    f.line("Warning 3 - Keys are read once", bold=True, after=16).para(3)
    f.line("Hinweis", bold=True, after=16).para(3)
    f.heading("1.2 Usage", 12).para(4)
    got = titles(parse(f.write(tmp_path / "boxes.pdf")))
    assert got == ["1 Compilation", "1.1 Options", "1.2 Usage"]


def test_boxes_numbered_within_their_chapter_or_not_numbered_are_no_sections(tmp_path: Path):
    # a class manual numbers its boxes within the chapter or appendix ("Avertissement 2.1 - ...",
    # "Remark 2.10: ...", "Remarque F.1 - ...") and sets some without a number ("Remarque - ..."), bold
    # at the text's size between paragraphs
    f = Flow().heading("2 Caractéristiques", 14).para(4)
    f.line(
        "Avertissement 2.1 \u2013 Caractéristiques à saisir avant la page de titre", bold=True, after=16
    ).para(3)
    f.heading("2.1 Titre", 12).para(4)
    f.line("Remarque \u2013 Section à passer en première lecture", bold=True, after=16).para(3)
    f.line("Remark 2.10: Keys are lowered", bold=True, after=16).para(3)
    f.line("Remarque F.1 \u2013 Une distribution à jour", bold=True, after=16).para(3)  # (in appendix F)
    f.heading("2.2 Auteur", 12).para(4)
    got = titles(parse(f.write(tmp_path / "chapter_boxes.pdf")))
    assert got == ["2 Caractéristiques", "2.1 Titre", "2.2 Auteur"]


def test_a_numbered_example_keeps_its_heading(tmp_path: Path):
    # "Example 1: changing the frame color" heads a section of a package manual: never a box
    f = Flow().heading("3 Examples", 14).para(4)
    f.heading("Example 1: changing the frame color", 12).para(4)
    f.heading("Example 2: changing the label", 12).para(4)
    got = titles(parse(f.write(tmp_path / "examples.pdf")))
    assert got == ["3 Examples", "Example 1: changing the frame color", "Example 2: changing the label"]


def test_chapter_labels_of_other_languages_are_joined_to_the_title_below(tmp_path: Path):
    # "Luku 1" (Finnish) and "Hoofdstuk 2" (Dutch) over the chapter's title, as "Chapitre 1" and
    # "Chapter 1" are set: one heading each, at the chapters' level
    f = Flow()
    for n, (label, title) in enumerate((("Luku", "Johdanto"), ("Hoofdstuk", "Inleiding")), 1):
        if n > 1:
            f.new_page()
        f.heading(f"{label} {n}", 20).heading(title, 25, before=20).para(4)
        for k in (1, 2):
            f.heading(f"{n}.{k} Osa {k}", 14).para(6)
    got = levels(parse(f.write(tmp_path / "luku.pdf")))
    assert got["Luku 1 Johdanto"] == got["Hoofdstuk 2 Inleiding"] == 1, got
    assert got["1.2 Osa 2"] == got["2.1 Osa 1"] == 2, got


def test_labels_in_cyrillic_polish_and_czech_read_as_chapters_and_appendices():
    from sectionrag.parsers.headings import classify, normalize_for_match

    for text, kind in (
        ("Глава 1", "chapter"),
        ("ГЛАВА 2 Установка", "chapter"),
        ("Rozdział 3 Wstęp", "chapter"),
        ("Kapitola 4", "chapter"),
        ("Приложение A", "appendix"),
        ("Příloha B Tabulky", "appendix"),
        ("Apéndice C", "appendix"),
        ("APÊNDICE A \u2013 Nullam elementum urna", "appendix"),  # (Portuguese)
    ):
        style = classify(text)
        assert style is not None and style.kind == kind, (text, style)
    # a bookmark without the Portuguese label names its heading
    assert normalize_for_match("APÊNDICE A \u2013 Quisque libero justo") == "quisque libero justo"


def test_a_numbered_question_holding_a_sentence_goes_on_under_its_hanging_indent(tmp_path: Path):
    # a FAQ's question whose first line ends a sentence: "3.1.3 Stable releases hold old versions
    # of programs." over "Just look at the kernel. Why?" under the number's hanging indent
    got = _hanging_question(
        tmp_path,
        "3 Releases",
        "3.1.3",
        "Stable releases hold old versions of programs.",
        "Just look at the kernel. Why?",
        "3.1.4 Where are the sources?",
    )
    assert got == [
        "3 Releases",
        "3.1.3 Stable releases hold old versions of programs. Just look at the kernel. Why?",
        "3.1.4 Where are the sources?",
    ]
