"""Marks TeX's old (OT1) fonts draw apart from their text: the underscore, and raised accents.

``\\_`` in LaTeX's OT1 encoding (and in Texinfo's text fonts) draws a short
rule on the baseline; the text layer reads a gap there, so ``flann_build_index``
came out as ``flann build index`` in the text, the headings and the index. The
parser reads such a rule back as the underscore it stands for, and leaves
alone the rules that only look like one: an underline, a strike-out, a blank
to fill in. An accent those fonts raise over a capital is a glyph of its own
that pdfium may read after the word; it is composed with the letter under it.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Page, write_pdf
from sectionrag.parsers.pdf import PdfParser

# Helvetica's advance widths (thousandths of an em) for the letters used below
_WIDTHS = {
    **dict.fromkeys("il", 222),
    **dict.fromkeys("fjt", 278),
    **dict.fromkeys("r", 333),
    "(": 333,
    ")": 333,
    "k": 500,
    "x": 500,
    **dict.fromkeys("abdeghnopqu", 556),
    "s": 500,
    "m": 833,
    "w": 722,
}


def _width(word: str, size: float) -> float:
    return sum(_WIDTHS.get(ch, 556) for ch in word) * size / 1000


def _words_with_rules(
    words: list[str], x: float, y: float, size: float, rule: tuple[float, float, float, float]
) -> bytes:
    """Draw ``words`` with no spaces; in each gap a rule ``(kern, width, lift, thickness)``.

    ``kern`` is the gap on either side of the rule, ``lift`` its bottom's
    height over the baseline (negative: below it), in points.
    """
    kern, width, lift, thick = rule
    ops = []
    for k, word in enumerate(words):
        ops.append(b"BT /F1 %.2f Tf %.2f %.2f Td (%s) Tj ET" % (size, x, y, word.encode()))
        x += _width(word, size)
        if k < len(words) - 1:
            ops.append(b"%.2f %.2f %.2f %.2f re f" % (x + kern, y + lift, width, thick))
            x += 2 * kern + width
    return b"\n".join(ops)


# (only PDFs that TeX made are read for such rules)
_BY_TEX = {"Producer": "pdfTeX-1.40.25"}


def _text_of(tmp: Path, *rows: bytes, info: dict[str, str] = _BY_TEX) -> str:
    path = write_pdf(tmp / "rules.pdf", [Page(raw=b"\n".join(rows))], info=info)
    return PdfParser(use_outline=False).parse(path).text


def test_a_rule_on_the_baseline_between_two_words_is_an_underscore(tmp_path: Path):
    # \_ in OT1: a kern of 0.06 em, a rule 0.3 em wide and 0.4 pt thick on the baseline
    row = _words_with_rules(["flann", "build", "index()"], 72, 700, 10, (0.6, 3.0, 0.0, 0.4))
    text = _text_of(tmp_path, row)
    assert "flann_build_index()" in text


def test_a_drawn_underscore_in_a_heading_is_in_its_title(tmp_path: Path):
    head = b"BT /F2 14 Tf 72 740 Td (3.2.1) Tj ET\n" + _words_with_rules(
        ["flann", "save", "index"], 110, 740, 14, (0.84, 4.2, -0.1, 0.6)
    )
    body = b"\n".join(
        b"BT /F1 10 Tf 72 %d Td (Saves the index to a file so that it can be loaded again later on.) Tj ET"
        % (712 - 14 * k)
        for k in range(12)
    )
    path = write_pdf(tmp_path / "heading.pdf", [Page(raw=head + b"\n" + body)], info=_BY_TEX)
    doc = PdfParser(use_outline=False).parse(path)
    assert [s.title for s in doc.sections] == ["3.2.1 flann_save_index"]


def test_underlines_strike_outs_and_blanks_in_gaps_stay_spaces(tmp_path: Path):
    # an underline (below the baseline) and a strike-out (through the letters' middle) drawn piece
    # by piece, one piece in each gap between words; a blank to fill in, far wider than an underscore
    underline = _words_with_rules(["text", "to", "be", "kept"], 72, 700, 10, (0.0, 3.0, -2.0, 0.4))
    strike = _words_with_rules(["words", "struck", "out"], 72, 680, 10, (0.0, 3.0, 2.2, 0.4))
    blank = _words_with_rules(["Name:", "Date"], 72, 660, 10, (1.0, 60.0, 0.0, 0.4))
    text = _text_of(tmp_path, underline, strike, blank)
    assert "_" not in text
    assert "text to be kept" in text and "words struck out" in text


def test_pdfs_not_made_by_tex_are_not_read_for_drawn_underscores(tmp_path: Path):
    # listing every object of a page costs a fifth of reading its text where each word is an object
    # (a filing made by a word processor): only TeX's encodings draw the underscore as a rule
    row = _words_with_rules(["flann", "build", "index()"], 72, 700, 10, (0.6, 3.0, 0.0, 0.4))
    assert "flann build index()" in _text_of(tmp_path, row, info={"Producer": "Microsoft Word"})


def test_an_accent_read_after_its_word_is_composed_with_the_letter_it_is_drawn_over(tmp_path: Path):
    # TeX's old fonts raise a spacing accent over a capital (or a letter) with a glyph of its own;
    # pdfium may read it after the word or at the line's end ("SUMARIO \u00b4", "Introducao\u02dc").
    # An accent over no letter ("\u02dc/bin", a home folder) stays as it is read.
    a_left = 72 + (667 + 722 + 833) * 14 / 1000  # Helvetica-Bold: S, U, M before the A
    acute_x = a_left + (722 - 333) * 14 / 2000  # centred over the A (the acute is 333 wide)
    o_left = 72 + _width("Introduca", 10)
    rows = (
        b"BT /F2 14 Tf 72 700 Td (SUMARIO) Tj ET",
        b"BT /F2 14 Tf %.2f 703 Td (\\264) Tj ET" % acute_x,
        b"BT /F1 10 Tf 72 670 Td (Introducao) Tj ET",
        # (the tilde's glyph starts 0.39 em right of its origin: its centre over the a)
        b"BT /F1 10 Tf %.2f 670 Td (\\230) Tj ET" % (o_left - _width("a", 10) - 2.3),
        b"BT /F1 10 Tf 72 650 Td (cd \\230/bin) Tj ET",
    )
    text = _text_of(tmp_path, *rows)
    assert "SUM\u00c1RIO" in text and "Introduc\u00e3o" in text
    assert "\u02dc/bin" in text and "\u00b4" not in text
