"""Heading rules met on journal and conference papers, checked on small generated PDFs.

Each test writes the layout a class sets (a short numbered heading, a run-in
numbered sub-heading, a title block with its abstract set smaller than the
text) and looks at ``doc.sections`` only.
"""

from __future__ import annotations

from pathlib import Path

from _pdfgen import Line, Page, body_lines, write_pdf
from test_pdf_headings import Flow, levels, parse, titles


def test_numbered_heading_of_short_words_is_no_glyph_sample(tmp_path: Path):
    # "7 How to help us": five short words (the number one of them) are a title, not a row of
    # glyphs such as "Aa Bb Cc Dd"; the next chapter, 8, then fits the sequence too
    f = Flow().heading("6 About your source file", 13).para(6)
    f.heading("7 How to help us", 13).para(3)
    f.heading("8 How to include bibliography", 13).para(5)
    f.line("Aa Bb Cc Dd", size=13, bold=True).para(3)  # a row of glyph samples set large stays text
    doc = parse(f.write(tmp_path / "short.pdf"))
    assert titles(doc) == ["6 About your source file", "7 How to help us", "8 How to include bibliography"]


def _sample_page(y: float, paragraphs: list[list[str]], heading: str) -> list[Line]:
    """A page of a sample document set at 12 pt, double spaced, under a bold capitals heading."""
    lines = [Line(heading, x=200, y=y, size=12, bold=True)]
    y -= 40
    for para in paragraphs:
        for text in para:
            lines.append(Line(text, x=90, y=y, size=12))
            y -= 24
        y -= 10
    return lines


def test_page_of_a_sample_set_larger_than_the_text_measures_its_lines_by_its_own_text(tmp_path: Path):
    # a 10 pt class guide shows a sample application set at 12 pt, double spaced: its paragraphs'
    # lines (a numbered paragraph's first line, a short last line) are that page's text, not
    # headings a size above the guide's text; its bold capitals headings stay headings
    f = Flow().heading("1 Writing the application", 14).para(8)
    f.heading("1.1 The title page", 12).para(6)
    # the sample's title page: short 12 pt lines (a light face that recurs)
    f.new_page()
    for k, name in enumerate(("Title: Widget Frame", "Inventors: First Inventor", "Another Inventor")):
        f.lines.append(Line(name, x=160, y=600 - 16 * k, size=12))
    long = "The present invention relates to widgets and in particular to frames that hold"
    more = "them in place while the glue sets under pressure over several hours of work"
    f.new_page()
    f.lines.extend(
        _sample_page(
            700,
            [
                ["[0001] Describe the field of the invention like this and go on", more, "held in place."],
                [f"[0002] {long}", more, long, "produce the same thing"],
                ["[0003] In other words the basic types of things the invention", more, "implemented in"],
            ],
            "FIELD OF THE INVENTION",
        )
    )
    f.new_page()
    f.lines.extend(
        _sample_page(
            700,
            [[f"[0004] {long}", more, long, "therebetween"], [f"[0005] {long}", more, "Euler equation"]],
            "BACKGROUND OF THE INVENTION",
        )
    )
    # the sample's paragraph ends on a page of its own: two long lines and a short one, which the
    # page goes on reading by the sample's text face
    f.new_page()
    f.lines.extend(
        Line(text, x=90, y=700 - 24 * k, size=12) for k, text in enumerate((long, more, "thereafter."))
    )
    f.new_page().heading("2 Claims", 14).para(8)
    doc = parse(f.write(tmp_path / "sample.pdf"))
    got = titles(doc)
    assert not [
        t for t in got if t.startswith("[") or t in ("produce the same thing", "therebetween", "thereafter.")
    ], got
    assert "FIELD OF THE INVENTION" in got and "BACKGROUND OF THE INVENTION" in got
    assert got[:2] == ["1 Writing the application", "1.1 The title page"] and got[-1] == "2 Claims"


def _widths(lines: list[Line], tmp_path: Path) -> list[float]:
    """Return each line's width as pdfium reads it (each set alone on a probe page)."""
    import pypdfium2 as pdfium

    from sectionrag.parsers._pdfium import extract_page_lines

    probe = [
        Line(ln.text, x=0, y=760 - 16 * k, size=ln.size, bold=ln.bold, italic=ln.italic, family=ln.family)
        for k, ln in enumerate(lines)
    ]
    tmp_path.mkdir(parents=True, exist_ok=True)
    pdf = pdfium.PdfDocument(str(write_pdf(tmp_path / "probe.pdf", [Page(probe)])))
    try:
        got = extract_page_lines(pdf[0], 0)
    finally:
        pdf.close()
    assert len(got) == len(lines), [ln.text for ln in got]
    return [ln.x1 - ln.x0 for ln in got]


def _centre(lines: list[Line], under: Line, tmp_path: Path) -> list[Line]:
    """Centre ``lines`` on the line ``under`` (a line of the text block)."""
    *widths, block = _widths([*lines, under], tmp_path)
    for ln, width in zip(lines, widths, strict=True):
        ln.x = under.x + (block - width) / 2
    return lines


def _run(
    parts: list[Line], x: float, y: float, tmp_path: Path, gaps: list[float] | None = None
) -> list[Line]:
    """Set ``parts`` one after another on one baseline (one line in mixed faces), a word space apart
    or ``gaps`` (in points) apart."""
    widths = _widths(parts, tmp_path)
    out = []
    for k, (part, width) in enumerate(zip(parts, widths, strict=True)):
        part.x, part.y = x, y
        out.append(part)
        x += width + (gaps[k] if gaps else 0.45 * part.size)
    return out


def test_authors_and_affiliations_centred_in_two_faces_are_the_title_block(tmp_path: Path):
    # a journal's title block: authors in 12 pt over their affiliations in body-size italics,
    # centred, then a long abstract set smaller than the text; the affiliations' face recurs
    # later (italic run-in sub-headings), yet the block's lines are no sections
    block = [Line("Guide to the Journal Class", y=720, size=18, italic=True)]
    y = 680.0
    for author, place in (
        ("Author One", "Federal Reserve Bank of Boston"),
        ("Author Two", "Division of Economics, Western University"),
        ("Author Three", "Department of Economics, Peterson University"),
    ):
        block += [Line(author, y=y, size=12), Line(place, y=y - 14, italic=True)]
        y -= 30
    abstract = "Abstract text set smaller than the body runs on over several lines of the page here"
    f = Flow(x=108, top=700)
    f.lines.extend(_centre(block, Line(abstract, x=108, size=9), tmp_path))
    # (a page of more than 30 lines: no cover page, though no line on it is at the body size)
    for k in range(26):
        f.lines.append(Line(abstract, x=108, y=y - 20 - 11 * k, size=9))
    f.new_page().heading("1. Using the class file", 10).para(12)
    f.gap(8).line("Coding for landscape tables", italic=True).para(10)
    f.gap(8).line("Coding for landscape figures", italic=True).para(10)
    f.heading("2. Mathematics", 10).para(12)
    doc = parse(f.write(tmp_path / "authors.pdf"))
    assert titles(doc) == [
        "1. Using the class file",
        "Coding for landscape tables",
        "Coding for landscape figures",
        "2. Mathematics",
    ]
    assert doc.metadata["title"] == "Guide to the Journal Class"


def test_numbered_run_in_head_in_italics_is_a_heading(tmp_path: Path):
    # amsart's sub-sections: "9.1." upright, the title in italics, its full stop upright, and the
    # paragraph going on upright on the same line; the head is a section, titled without the stop
    f = Flow().heading("9. Compound symbols", 12).para(5)
    text = "give multiple integral signs with the spacing between them nicely adjusted"
    for k, (number, title) in enumerate(
        (("9.1.", "Multiple integral signs"), ("9.2.", "Over and under arrows"))
    ):
        f.gap(8)
        parts = [Line(number), Line(title, italic=True), Line(". " + text)]
        f.lines.extend(_run(parts, 72, f.y, tmp_path / str(k)))
        f.y -= 12
        f.para(4)
    # the head a wide gap before its text, over a formula of two pieces (a row of two cells)
    f.gap(8)
    parts = [Line("9.4."), Line("Accents in math", italic=True), Line("."), Line("Double accents:")]
    f.lines.extend(_run(parts, 72, f.y, tmp_path / "g", gaps=[4.5, 0.5, 30, 0]))
    f.lines.extend([Line("H C", x=200, y=f.y - 16), Line("(12)", x=450, y=f.y - 16)])
    f.y -= 30
    f.para(4)
    # a bold numbered heading whose second part is set in bold italics is one heading, not a head
    # run into text (the text after a run-in head is upright, in the text's weight)
    f.gap(8)
    parts = [Line("9.3. Common pitfall:", bold=True), Line("non-atomic access", bold=True, italic=True)]
    f.lines.extend(_run(parts, 72, f.y, tmp_path / "e"))
    f.y -= 14
    f.para(4)
    f.heading("10. Fonts", 12).para(6)
    doc = parse(f.write(tmp_path / "runin.pdf"))
    assert titles(doc) == [
        "9. Compound symbols",
        "9.1. Multiple integral signs",
        "9.2. Over and under arrows",
        "9.4. Accents in math",
        "9.3. Common pitfall: non-atomic access",
        "10. Fonts",
    ]
    assert levels(doc)["9.2. Over and under arrows"] == 2
    # the paragraph's words stay in the text, in the head's section
    sec = next(s for s in doc.sections if s.title == "9.1. Multiple integral signs")
    assert "give multiple integral signs" in doc.text[sec.start : sec.end]


def test_letters_drawn_side_by_side_in_a_figure_are_no_label_and_title(tmp_path: Path):
    # a figure of two panels labelled with large letters "A" and "B" in one row: a letter beside a
    # letter is no numbering label beside its title ("A" | "Appendix information")
    f = Flow().heading("5. Floats", 13).para(6)
    f.lines.extend([Line("A", x=220, y=f.y - 40, size=44), Line("B", x=340, y=f.y - 36, size=54)])
    f.y -= 70
    f.line("(a) Image A", x=210).line("Figure 3: An example with sub-figures.", x=200).para(5)
    f.heading("6. Lists", 13).para(6)
    doc = parse(f.write(tmp_path / "letters.pdf"))
    assert titles(doc) == ["5. Floats", "6. Lists"]
    assert levels(doc)["6. Lists"] == 1


def test_large_words_over_a_caption_are_figure_art(tmp_path: Path):
    # a word drawn large inside a figure ("Image" in 43 pt), the figure's caption under it: not a
    # section, and no level above the numbered sections; a section that opens with a figure keeps
    # its heading (numbered, or no larger than the numbered headings)
    f = Flow().heading("5. Floats", 13).para(6)
    f.heading("5.1. Figures", 12).para(4)
    f.gap(40).line("Image", x=250, size=43).gap(60)
    f.line("Figure 1: Example image.", x=240).para(5)
    f.heading("Results", 12).gap(40).line("Figure 2: The results.", x=240).para(5)
    f.heading("6. Lists", 13).para(6)
    doc = parse(f.write(tmp_path / "art.pdf"))
    assert titles(doc) == ["5. Floats", "5.1. Figures", "Results", "6. Lists"]
    assert levels(doc)["6. Lists"] == 1


def test_headings_in_another_script_rank_with_the_face_they_are_set_in():
    # a paper's abstracts in many languages, one heading face whose fonts are scaled per script
    # (9.1 pt in Latin, 9.2 pt in Cyrillic, 9.8 pt in Devanagari) between numbered sections: one
    # level under "7. ABSTRACTS", not two levels by size
    from sectionrag.parsers._pdf_headings import Candidate, numbering_order
    from sectionrag.parsers._pdf_levels import rank_headings
    from sectionrag.parsers._pdfium import PdfLine

    heads = [
        ("1. INTRODUCTION", 9.07),
        ("7. ABSTRACTS", 9.07),
        ("\u0938\u093e\u0930\u093e\u0902\u0936", 9.76),  # Hindi
        ("RESUMEN", 9.07),
        ("\u0410\u041d\u041d\u041e\u0422\u0410\u0426\u0418\u042f", 9.17),  # Russian
        ("RESUMO", 9.07),
        ("\u09b8\u09be\u09b0\u09b8\u0982\u0995\u09cd\u09b7\u09c7\u09aa", 9.76),  # Bengali
        ("ZUSAMMENFASSUNG", 9.07),
        ("8. CHANGING THE LANGUAGE", 9.07),
        ("9. CONCLUSION", 9.07),
    ]
    candidates = []
    for k, (title, size) in enumerate(heads):
        line = PdfLine(title, 50, 200, 100 + 20 * k, 110 + 20 * k, size, True, False, "Termes-Bold", 1)
        order, numbered = numbering_order(title)
        candidates.append(Candidate([line], title, size, True, order, numbered, 1, k))
    offsets = {id(c.lines[0]): 100 * k for k, c in enumerate(candidates)}
    got = {h.title: h.rank for h in rank_headings(candidates, offsets)}
    top = got["7. ABSTRACTS"]
    assert got["1. INTRODUCTION"] == got["9. CONCLUSION"] == top
    assert len({got[t] for t, _ in heads[2:8]}) == 1, got  # one rank for every abstract
    assert got["RESUMEN"] > top


def test_authors_in_a_column_beside_the_abstract_are_the_title_block():
    # a journal's first page: the authors in a narrow left column (a name in 12.7 pt bold over
    # affiliation lines), the title and the abstract beside them on the right, the first numbered
    # section below both. Read row by row (the columns' lines at heights of their own), the second
    # name comes after the abstract's first lines; it is still part of the title block
    from sectionrag.parsers._pdf_headings import Candidate, numbering_order
    from sectionrag.parsers._pdf_title import split_title
    from sectionrag.parsers._pdfium import PdfLine

    def line(text: str, x: float, top: float, size: float = 10.0, bold: bool = False) -> PdfLine:
        return PdfLine(text, x, x + 5 * len(text), top, top + size, size, bold, False, "Termes", 0)

    abstract = "This paper is an example and a template for the class of journal papers"
    page = [
        line("Preprint Template for Journal Papers", 230, 40, 24, True),
        line("Author Name", 110, 77, 12.7, True),
        line("Department of Mechanical Engineering,", 70, 90, 8),
        line(abstract, 230, 115),
        line("City, Country", 70, 120, 8),
        line(abstract, 230, 125),
        line("John H. Smith", 100, 151, 12.7, True),
        line(abstract, 230, 154),
        line("Heat Transfer Laboratory,", 70, 166, 8),
        line(abstract, 230, 164),
        line("1 Introduction", 60, 291, 10, True),
        line(abstract, 60, 305),
    ]
    later = [line("3 Section headings", 60, 80, 10, True), line(abstract, 60, 95)]
    candidates = []
    for index, ln in [(0, page[0]), (1, page[1]), (6, page[6]), (10, page[10])]:
        order, numbered = numbering_order(ln.text)
        candidates.append(Candidate([ln], ln.text, ln.size, True, order, numbered, 0, index))
    order, numbered = numbering_order(later[0].text)
    candidates.append(Candidate([later[0]], later[0].text, 10.0, True, order, numbered, 1, 0))
    title = split_title(candidates, [page, later], 10.0)
    assert title == "Preprint Template for Journal Papers"
    assert [c.title for c in candidates] == ["1 Introduction", "3 Section headings"]


def test_a_chapter_numbered_in_words_matches_its_bare_title():
    # "Chapter One INTRODUCTION" on the page is the chapter a bookmark or a contents entry calls
    # "Introduction", as "Chapter 1 Introduction" is; a label alone keeps its words
    from sectionrag.parsers.headings import normalize_for_match

    assert normalize_for_match("Chapter One INTRODUCTION") == normalize_for_match("Introduction")
    assert normalize_for_match("PART TWO: The Rules") == "the rules"
    assert normalize_for_match("Chapter 3 Foo") == "foo"
    assert normalize_for_match("Part Two") == normalize_for_match("Part Two .") == "part two"


def test_run_in_head_numbered_with_a_parenthesis_ranks_below_its_faces_own_line_heads(tmp_path: Path):
    # IEEE's levels: "I. Introduction" over "A. Title" in italics at the text's size on a line of
    # its own, over "1) Title:" in the same italics run into its paragraph; the run-in head is a
    # section one level below the italic line, titled without its colon
    f = Flow().heading("I. Introduction", 12).para(6)
    f.heading("II. Method", 12).para(4)
    text = "the model is fitted by penalized least squares over the whole set of"
    for letter, sub in (("A.", "Model fitting"), ("B.", "Resampling")):
        f.gap(8).line(f"{letter} {sub}", italic=True).para(5)
        for k, head in enumerate(("Penalized least squares", "Mixed effects")):
            parts = [Line(f"{k + 1}) {head}:", italic=True), Line(text)]
            f.lines.extend(_run(parts, 82, f.y, tmp_path / f"{letter}{k}"))
            f.y -= 12
            f.para(4)
    f.heading("III. Results", 12).para(6)
    doc = parse(f.write(tmp_path / "ieee.pdf"))
    assert titles(doc) == [
        "I. Introduction",
        "II. Method",
        "A. Model fitting",
        "1) Penalized least squares",
        "2) Mixed effects",
        "B. Resampling",
        "1) Penalized least squares",
        "2) Mixed effects",
        "III. Results",
    ]
    got = levels(doc)
    assert [got[t] for t in ("II. Method", "A. Model fitting", "2) Mixed effects")] == [1, 2, 3]
    sec = next(s for s in doc.sections if s.title == "2) Mixed effects")
    assert doc.text[sec.start : sec.end].count("penalized least squares over") == 1


def test_revtex_numbered_italic_heads_a_size_below_the_text_restart_under_each_letter(tmp_path: Path):
    # REVTeX's levels: "I. INTRODUCTION" and "A. Title" bold, "1. Title" in italics, all a size
    # below the 10 pt text; the numbers restart under each lettered heading ("2." then "B." then
    # "1."), which is no break in a sequence. A listing's italic numbered line ("3 % comment")
    # without a full stop stays text.
    f = Flow().heading("I. INTRODUCTION", 9, x=150).para(6)
    f.heading("II. METHOD", 9, x=150).para(4)
    heads = {"A.": ("Penalized least squares", "Mixed effects"), "B.": ("Bootstrap", "Cross validation")}
    for letter, sub in (("A.", "Model fitting"), ("B.", "Resampling")):
        f.heading(f"{letter} {sub}", 9, x=150).para(5)
        for k, head in enumerate(heads[letter]):
            f.gap(10).line(f"{k + 1}. {head}", italic=True, size=9, x=180, after=20).para(4)
    f.gap(6).line("3 % the title page", italic=True, size=9).line("4 \\SetTitle{A title}", size=9)
    f.para(3).heading("III. RESULTS", 9, x=150).para(6)
    doc = parse(f.write(tmp_path / "revtex.pdf"))
    assert titles(doc) == [
        "I. INTRODUCTION",
        "II. METHOD",
        "A. Model fitting",
        "1. Penalized least squares",
        "2. Mixed effects",
        "B. Resampling",
        "1. Bootstrap",
        "2. Cross validation",
        "III. RESULTS",
    ]
    got = levels(doc)
    wanted = {"II. METHOD": 1, "B. Resampling": 2, "1. Bootstrap": 3, "2. Mixed effects": 3}
    assert {t: got[t] for t in wanted} == wanted


def test_title_in_small_capitals_does_not_run_on_into_the_text_below(tmp_path: Path):
    # amsart: "3. Applied Econometrics" centred in small capitals at the text's size, then the
    # section's first line in the text's lower case: two faces, so the title ends on its line
    f = Flow().para(6)
    names = ("Linear models for panel data", "Applied econometrics with R", "Mixture models for counts")
    for k, name in enumerate(names):
        f.gap(10).line(f"{k + 1}. {name} and its packages", face="LMRomanCaps10-Regular", x=180, after=16)
        f.line("The package aims at providing a recursive partitioning laboratory")
        f.para(6)
    doc = parse(f.write(tmp_path / "amsart.pdf"))
    assert titles(doc) == [f"{k + 1}. {name} and its packages" for k, name in enumerate(names)]


def test_parts_that_number_their_sections_from_one_again_stand_above_them(tmp_path: Path):
    # a manual of several parts, each an unnumbered title in 14 pt bold over sections numbered
    # from 1 in 13 pt bold: the second part's title is no heading inside section 3 of the first,
    # and its "1. Datatypes" is no break in the sequence
    f = Flow()
    for part, sections in (
        ("Write-Ahead Logging", ("Overview", "How it works", "Configuration")),
        ("Transactions", ("Read transactions", "Write transactions")),
        ("Datatypes", ("Storage classes", "Type affinity", "Comparison")),
    ):
        f.heading(part, 14).para(4)
        for k, name in enumerate(sections):
            f.heading(f"{k + 1}. {name}", 13).para(5)
    doc = parse(f.write(tmp_path / "parts.pdf"))
    got = levels(doc)
    assert len(got) == 11
    assert {t: got[t] for t in ("Transactions", "Datatypes", "1. Storage classes", "3. Comparison")} == {
        "Transactions": 1,
        "Datatypes": 1,
        "1. Storage classes": 2,
        "3. Comparison": 2,
    }


def test_parts_over_labelled_sections_that_number_from_one_again_stand_above_them(tmp_path: Path):
    # a rule book: each rule an unnumbered title in capitals at 16 pt ("RULE 2 THE BALL", a word the
    # numbering does not know) over "Section 1." to "Section 3." at 12 pt, numbered again from 1 in
    # every rule; every rule is a parent of its sections, the second like the first
    f = Flow()
    rules = ("RULE 1 THE FIELD", "RULE 2 THE BALL", "RULE 3 SCORING")
    for r, rule in enumerate(rules, start=1):
        if r > 1:
            f.new_page()
        f.heading(rule, 16).para(3)
        for k, name in enumerate(("General", "Markings", "Dimensions"), start=1):
            f.heading(f"Section {k}. {name} of rule {r}", 12).para(5)
    doc = parse(f.write(tmp_path / "rules.pdf"))
    got = levels(doc)
    assert {t: got[t] for t in rules} == dict.fromkeys(rules, 1)
    assert {t: n for t, n in got.items() if t.startswith("Section")} == {
        f"Section {k}. {name} of rule {r}": 2
        for r in (1, 2, 3)
        for k, name in enumerate(("General", "Markings", "Dimensions"), start=1)
    }


def _sections_with_articles(tmp_path: Path, section_size: float, article_size: float):
    """Two rules, each with two ``Section`` headings and two ``ARTICLE`` headings under each section."""
    f = Flow()
    for r in (1, 2):
        if r > 1:
            f.new_page()
        f.heading(f"RULE {r} {('THE FIELD', 'THE BALL')[r - 1]}", 16).para(3)
        for s in (1, 2):
            f.heading(f"Section {s}. {('Markings', 'Dimensions')[s - 1]} of rule {r}", section_size).para(4)
            for a in (1, 2):
                f.heading(f"ARTICLE {a}. Requirement {a} of section {r}.{s}", article_size, before=6).para(3)
    return parse(f.write(tmp_path / "rules.pdf"))


def test_articles_set_smaller_and_numbered_again_under_each_section_rank_below_it(tmp_path: Path):
    # a sports rule book nests the label words the other way from a contract: Rule > Section >
    # Article; the articles' smaller face and their numbers starting again under every section say so
    got = levels(_sections_with_articles(tmp_path, 12, 10))
    assert {n for t, n in got.items() if t.startswith("RULE")} == {1}
    assert {n for t, n in got.items() if t.startswith("Section")} == {2}
    assert {n for t, n in got.items() if t.startswith("ARTICLE")} == {3}


def test_a_contracts_articles_stay_above_its_sections(tmp_path: Path):
    # the usual order: each article set larger over its sections, numbered through the document
    f = Flow()
    for a, title in ((1, "DEFINITIONS"), (2, "TERM AND TERMINATION")):
        f.heading(f"ARTICLE {a}. {title}", 14).para(3)
        for s in (1, 2):
            f.heading(f"Section {a}.{s} Clause {s} of article {a}", 11).para(4)
    got = levels(parse(f.write(tmp_path / "contract.pdf")))
    assert {n for t, n in got.items() if t.startswith("ARTICLE")} == {1}
    assert {n for t, n in got.items() if t.startswith("Section")} == {2}


def test_numbered_heading_a_point_larger_in_the_text_face_with_space_only_above(tmp_path: Path):
    # Word's "Heading 3" after its styles are changed to the text's face: "1.1.1 Checkpointing" at
    # 11 pt over 10 pt text, its space before it and none after
    f = Flow().heading("1 Write-ahead logging", 16, bold=False).para(4)
    f.heading("1.1 Overview", 13, bold=False).para(5)
    for name in ("Checkpointing", "Concurrency"):
        f.gap(14).line(f"1.1.{1 + (name == 'Concurrency')} {name}", size=11, after=10).para(5)
    f.heading("1.2 Configuration", 13, bold=False).para(5)
    doc = parse(f.write(tmp_path / "word.pdf"))
    got = levels(doc)
    assert got == {
        "1 Write-ahead logging": 1,
        "1.1 Overview": 2,
        "1.1.1 Checkpointing": 3,
        "1.1.2 Concurrency": 3,
        "1.2 Configuration": 2,
    }


def test_chapter_label_over_a_table_caption_is_titled_by_itself(tmp_path: Path):
    # a chapter that opens with a table: "Chapter 4" in 18 pt bold, then the table's caption in
    # 9 pt bold right under it; the caption is no title of the chapter
    f = Flow()
    for n in (3, 4, 5):
        f.heading(f"Chapter {n}", 18).line("Table 1: Summary of results", size=9, bold=True).para(8)
    doc = parse(f.write(tmp_path / "chapters.pdf"))
    assert titles(doc) == ["Chapter 3", "Chapter 4", "Chapter 5"]


def test_unnumbered_capitals_in_a_face_of_two_orders_stand_with_the_capitals(tmp_path: Path):
    # ACM's conference format: "1 INTRODUCTION" and "2.1 Applied Econometrics" in one bold face,
    # the sub-sections outnumbering the sections; "ACKNOWLEDGMENTS" and "REFERENCES" after the last
    # section, in capitals, stand with the sections, not with the sub-sections
    f = Flow()
    for n, name in enumerate(("INTRODUCTION", "RELATED WORK", "METHOD"), start=1):
        f.heading(f"{n} {name}", 11).para(4)
        for k in (1, 2, 3):
            f.heading(f"{n}.{k} Part {k} of {name.lower()}", 11).para(4)
    f.heading("ACKNOWLEDGMENTS", 11).para(3).heading("REFERENCES", 11).para(3)
    doc = parse(f.write(tmp_path / "acm.pdf"))
    got = levels(doc)
    assert {t: got[t] for t in ("3 METHOD", "3.2 Part 2 of method", "ACKNOWLEDGMENTS", "REFERENCES")} == {
        "3 METHOD": 1,
        "3.2 Part 2 of method": 2,
        "ACKNOWLEDGMENTS": 1,
        "REFERENCES": 1,
    }


def _column(
    x: float, blocks: list[tuple[str, int | str]], seed: int, y: float = 720, before: float = 6
) -> list[Line]:
    """One column of a two-column page in 10 pt Times on a 12 pt leading: paragraphs of ``n`` lines
    (``("p", n)``) and headings centred in the column (``("h", title)``), ``before`` points more
    than the leading under the line above, 18 pt over the line below."""
    out: list[Line] = []
    for kind, arg in blocks:
        if kind == "h":
            y -= before
            out.append(Line(str(arg), x=x + 60, y=y, family="Times"))
            y -= 18
            continue
        lines, y = body_lines(int(arg), seed, y, x=x, width_words=6)
        seed += 1
        for ln in lines:
            ln.family = "Times"
        out += lines
    return out


def test_capitals_heading_at_the_foot_of_the_left_column_is_a_heading(tmp_path: Path):
    # IEEE's two columns: "ACKNOWLEDGMENT" in capitals at the text's size is the last line of the
    # left column and its text goes on at the top of the right one; the line after it in reading
    # order stands higher up the page, which tells nothing of the space under the heading
    left = _column(50, [("p", 20), ("h", "I. INTRODUCTION"), ("p", 30), ("h", "ACKNOWLEDGMENT")], 1)
    right = _column(312, [("p", 25), ("h", "REFERENCES"), ("p", 28)], 9)
    right[0].text = "we thank the staff of the lab for all of their help"
    pages = [Page([*left, *right, Line("1", x=300, y=40, size=9)])]
    doc = parse(write_pdf(tmp_path / "foot.pdf", pages))
    assert titles(doc) == ["I. INTRODUCTION", "ACKNOWLEDGMENT", "REFERENCES"]
    sec = next(s for s in doc.sections if s.title == "ACKNOWLEDGMENT")
    assert "we thank the staff" in doc.text[sec.start : sec.end]


def test_numbered_capitals_heading_a_little_apart_from_the_descenders_above_is_a_heading(tmp_path: Path):
    # IEEE's conference sections: "II. RELATED WORK" in capitals at the text's size, its baseline
    # 17 pt under the line above on a 12 pt leading; from that line's descenders ("functionality")
    # to the capitals' tops are 8 pt, little more than the leading less the capitals' short box
    blocks: list[tuple[str, int | str]] = [("h", "I. INTRODUCTION"), ("p", 12), ("h", "II. RELATED WORK")]
    left = _column(50, [*blocks, ("p", 12)], 1, before=5)
    left[12].text = "along with the implemented functionality"
    right = _column(312, [("p", 12), ("h", "III. METHOD"), ("p", 12)], 9, before=5)
    pages = [Page([*left, *right, Line("1", x=300, y=40, size=9)])]
    doc = parse(write_pdf(tmp_path / "ieee.pdf", pages))
    assert titles(doc) == ["I. INTRODUCTION", "II. RELATED WORK", "III. METHOD"]


def test_run_in_head_whose_title_opens_on_a_name_in_lower_case_is_a_heading(tmp_path: Path):
    # IEEE's "1) zoo Quick Reference:" and "2) party:" in italics run into their paragraphs: a
    # package's name opens the title in lower case, which makes no sentence of a numbered head
    f = Flow().heading("I. Introduction", 12).para(6)
    f.gap(8).line("A. Packages", italic=True).para(5)
    text = "the package gives examples of how to read data in various formats"
    for k, head in enumerate(("zoo Quick Reference", "party")):
        parts = [Line(f"{k + 1}) {head}:", italic=True), Line(text)]
        f.lines.extend(_run(parts, 82, f.y, tmp_path / str(k)))
        f.y -= 12
        f.para(4)
    f.heading("II. Results", 12).para(6)
    doc = parse(f.write(tmp_path / "ieee.pdf"))
    assert titles(doc) == [
        "I. Introduction",
        "A. Packages",
        "1) zoo Quick Reference",
        "2) party",
        "II. Results",
    ]
    assert levels(doc)["2) party"] == 3


def test_run_a_line_lower_back_at_the_left_edge_starts_a_line_of_its_own():
    # pdfium reads IEEE's "... can be defined." and the "REFERENCES" under it, back at the column's
    # left edge, as one line (its runs' boxes as read from a computer-society journal paper): the
    # heading is a line of its own; an accent over its letter (level with the letter's top) and a
    # figure's label set upright (taller than a line) are not
    from sectionrag.parsers._pdfium import _next_line

    defined, capital, rest = (
        (48.2, 250.2, 251.8, 257.3),
        (49.2, 278.2, 55.7, 286.2),
        (57.5, 279.7, 114.6, 286.4),
    )
    assert _next_line(defined, capital, 9.5)
    assert not _next_line(capital, rest, 11.0)
    assert not _next_line((168.5, 190.8, 171.3, 192.2), (168.8, 190.6, 484.7, 200.4), 10.0)
    assert not _next_line((78.2, 309.6, 501.2, 318.6), (255.2, 381.3, 265.5, 451.7), 10.0)
    # a word hyphenated over the break ("head-" over "ings", the hyphen read as U+0002) keeps the
    # two lines that pdfium joins one line, as it always was
    above, under = (60.0, 100.0, 290.0, 108.8), (60.0, 110.9, 290.0, 119.7)
    assert _next_line(above, under, 9.0, "fonts, and more. ")
    assert not _next_line(above, under, 9.0, "fonts, head\x02")


def test_numbered_heading_in_the_text_face_set_apart_above_and_below_is_a_heading(tmp_path: Path):
    # pracjourn's third level: "2.1.1 Penalized least squares versus" in the text's own face and
    # size, a blank line's space above it and below it, then its paragraph; its title does not
    # run on into that paragraph. A list of numbered entries in the text's face, each spaced from
    # the next (a filing's exhibits), stays text.
    f = Flow().heading("1 Introduction", 14).para(6)
    f.heading("2 Related Work", 14).para(4)
    f.heading("2.1 Mixed models", 12).para(4)
    for k, name in enumerate(("Penalized least squares versus", "Fitting Linear Mixed-Effects Models")):
        f.gap(12).line(f"2.1.{k + 1} {name}", after=20).para(5)
    f.new_page().heading("3 Exhibits", 14).para(3)
    for k, name in enumerate(
        (
            "Letter regarding unaudited interim financial information",
            "Certification of Chief Executive Officer Pursuant to Section 302",
            "Certification of Chief Financial Officer Pursuant to Section 302",
        )
    ):
        f.gap(6).line(f"3.{k + 1} {name}", after=18)
    f.para(4)
    doc = parse(f.write(tmp_path / "pracjourn.pdf"))
    assert titles(doc) == [
        "1 Introduction",
        "2 Related Work",
        "2.1 Mixed models",
        "2.1.1 Penalized least squares versus",
        "2.1.2 Fitting Linear Mixed-Effects Models",
        "3 Exhibits",
    ]
    assert levels(doc)["2.1.2 Fitting Linear Mixed-Effects Models"] == 3


def test_unnumbered_capitals_over_lower_case_in_one_bold_face_rank_above_it(tmp_path: Path):
    # a class without numbers that sets its sections in bold capitals and its sub-sections in the
    # same bold at the same size in lower case ("APPLIED ECONOMETRICS WITH R" over "Vegan"): the
    # capitals are the sections; names in capitals among the sub-sections ("CD-HIT-PARA") are not
    f = Flow()
    for section, subs in (
        ("APPLIED ECONOMETRICS WITH R", ("Predictor effects", "FlexMix version two")),
        ("EXTENDED MODEL FORMULAS", ("Vegan", "Reading data in zoo")),
        ("CONCLUSION", ()),
    ):
        f.heading(section, 12, x=180).para(4)
        for sub in subs:
            f.heading(sub, 12).para(4)
    doc = parse(f.write(tmp_path / "caps.pdf"))
    got = levels(doc)
    assert got == {
        "APPLIED ECONOMETRICS WITH R": 1,
        "Predictor effects": 2,
        "FlexMix version two": 2,
        "EXTENDED MODEL FORMULAS": 1,
        "Vegan": 2,
        "Reading data in zoo": 2,
        "CONCLUSION": 1,
    }


def test_names_in_capitals_among_lower_case_headings_keep_their_level(tmp_path: Path):
    # a user guide's program sections: "CD-HIT-PARA" and "CD-HIT-2D" in the bold face of
    # "Incremental clustering" are sections of one level, not a level above
    f = Flow()
    for title in ("CD-HIT-PARA", "Incremental clustering", "CD-HIT-2D", "Hierarchical clustering"):
        f.heading(title, 12).para(4)
    doc = parse(f.write(tmp_path / "names.pdf"))
    assert set(levels(doc).values()) == {1}


def test_a_name_in_capitals_among_sub_sections_of_a_two_case_face_keeps_its_level(tmp_path: Path):
    # a filing's discussion: "COVID-19" beside "Russia" under "RECENT DEVELOPMENTS", in one bold
    # face whose sections are words in capitals; the name is a sub-section like its neighbours
    f = Flow()
    for section, subs in (
        ("RECENT DEVELOPMENTS AND CHALLENGES", ("COVID-19", "Russia", "Market platform highlights")),
        ("CRITICAL ACCOUNTING ESTIMATES", ("Revenue by segment", "Inventories")),
    ):
        f.heading(section, 12, x=180).para(4)
        for sub in subs:
            f.heading(sub, 12).para(4)
    got = levels(parse(f.write(tmp_path / "names.pdf")))
    assert got["COVID-19"] == got["Russia"] == got["Inventories"] == 2
    assert got["RECENT DEVELOPMENTS AND CHALLENGES"] == got["CRITICAL ACCOUNTING ESTIMATES"] == 1


def test_appendices_in_the_sections_face_stand_beside_them_and_the_back_matter_too(tmp_path: Path):
    # "Appendix A: Proofs" in the bold of "3 Conclusions": the next section, not a parent of the
    # unnumbered "References" after it
    f = Flow()
    f.heading("Sorting Widgets at Scale", 18, before=0).para(8)
    for number, title in ((1, "Introduction"), (2, "Method"), (3, "Conclusions")):
        f.heading(f"{number} {title}", 11).para(8)
        f.heading(f"{number}.1 Details of {title.lower()}", 10).para(8)
    f.heading("Appendix A: Proofs", 11).para(8)
    f.heading("References", 11).para(8)
    f.heading("Appendix B: Tables", 11).para(8)
    doc = parse(f.write(tmp_path / "appendices-in-section-face.pdf"))
    got = levels(doc)
    top = got["1 Introduction"]
    assert got["Appendix A: Proofs"] == got["References"] == got["Appendix B: Tables"] == top, got
    assert got["3.1 Details of conclusions"] == top + 1


def test_appendix_sections_that_repeat_the_appendix_label_rank_below_it(tmp_path: Path):
    # "Appendix A.1 Migrating" under "Appendix A Changing versions", the contents-less way a LaTeX
    # manual may set them: sections of the appendix, and "References" after them beside it
    f = Flow()
    f.heading("Critical Editions", 20, before=0).para(8)
    for number in (1, 2):
        f.heading(f"{number} Chapter {number}", 14).para(8)
        f.heading(f"{number}.1 Section {number}", 12).para(8)
    f.heading("Appendix A Changing versions", 14).para(8)
    for k in (1, 2, 3):
        f.heading(f"Appendix A.{k} Migration to version {k}", 12).para(8)
    f.heading("References", 14).para(8)
    doc = parse(f.write(tmp_path / "appendix-sections.pdf"))
    got = levels(doc)
    top = got["1 Chapter 1"]
    assert got["Appendix A Changing versions"] == got["References"] == top, got
    assert got["Appendix A.1 Migration to version 1"] == got["Appendix A.3 Migration to version 3"] == top + 1


def test_unnumbered_heading_between_two_numbered_siblings_is_no_parent_of_the_second(tmp_path: Path):
    # a note headed in the chapters' face between "1.2" and "1.3": "1.3" continues "1.2" and stays
    # its sibling
    f = Flow()
    f.heading("1 Installing the class", 14, before=0).para(8)
    f.heading("1.1 Prerequisites", 12).para(8)
    f.heading("1.2 Installation", 12).para(8)
    f.heading("Notes for Overleaf users", 14).para(6)
    f.heading("1.3 Required files", 12).para(8)
    f.heading("2 Using the class", 14).para(8)
    f.heading("2.1 Class options", 12).para(8)
    f.heading("2.2 Class commands", 12).para(8)
    doc = parse(f.write(tmp_path / "between-siblings.pdf"))
    got = levels(doc)
    assert got["1.3 Required files"] == got["1.2 Installation"] == got["2.1 Class options"], got
    assert got["2 Using the class"] == got["1 Installing the class"]


# -- long titles that wrap (two-column papers) -----------------------------------------


def _paper(tmp_path: Path, name: str, heads: list[list[Line]]) -> list[tuple[int, str]]:
    """A page of sections whose headings are the given lines, each over two paragraphs."""
    f = Flow()
    f.para(4)
    for lines in heads:
        f.gap(14)
        for ln in lines:
            f.lines.append(
                Line(ln.text, x=ln.x, y=f.y, size=ln.size, bold=ln.bold, italic=ln.italic, family="Times")
            )
            f.y -= ln.size + 2
        f.gap(6).para(4).para(3)
    doc = parse(f.write(tmp_path / name))
    return [(s.level, s.title) for s in doc.sections]


def test_a_numbered_title_that_opens_on_a_name_in_lower_case_wraps_as_one_heading(tmp_path: Path) -> None:
    got = _paper(
        tmp_path,
        "lower.pdf",
        [
            [Line("1 Introduction to the Methods of the Study", size=14, bold=True)],
            [
                Line("2 strucchange and the Tests for Structural Change in", size=14, bold=True),
                Line("Linear Regression Models", x=90, size=14, bold=True),
            ],
            [Line("3 Results of the Study", size=14, bold=True)],
        ],
    )
    assert [t for _, t in got] == [
        "1 Introduction to the Methods of the Study",
        "2 strucchange and the Tests for Structural Change in Linear Regression Models",
        "3 Results of the Study",
    ]


def test_a_title_in_faked_small_capitals_goes_on_at_their_smaller_size(tmp_path: Path) -> None:
    # a face without small capitals sets them as its capitals a size smaller: a wrapped line that
    # holds no capital of the title's own reads 8 pt under a 10 pt line
    got = _paper(
        tmp_path,
        "smallcaps.pdf",
        [
            [Line("I. INTRODUCTION", x=250, size=10)],
            [
                Line("II. FITTING LINEAR MIXED-EFFECTS MODELS USING", x=150, size=10),
                Line("THE PACKAGE LME4 IN R", x=220, size=8),
            ],
            [Line("III. RESULTS", x=260, size=10)],
        ],
    )
    assert [t for _, t in got] == [
        "I. INTRODUCTION",
        "II. FITTING LINEAR MIXED-EFFECTS MODELS USING THE PACKAGE LME4 IN R",
        "III. RESULTS",
    ]


def test_a_lettered_italic_title_that_wraps_over_its_text_is_one_heading(tmp_path: Path) -> None:
    got = _paper(
        tmp_path,
        "italic.pdf",
        [
            [Line("I. INTRODUCTION", x=250, size=10)],
            [Line("A. Short Title of a Sub-section", size=10, italic=True)],
            [
                Line("B. Genetic Optimization Using Derivatives and Various Versatile", size=10, italic=True),
                Line("Variances of Sandwich Estimators", size=10, italic=True),
            ],
            [Line("II. RESULTS", x=260, size=10)],
        ],
    )
    assert got == [
        (1, "I. INTRODUCTION"),
        (2, "A. Short Title of a Sub-section"),
        (
            2,
            "B. Genetic Optimization Using Derivatives and Various Versatile "
            "Variances of Sandwich Estimators",
        ),
        (1, "II. RESULTS"),
    ]


def test_a_long_bold_title_that_wraps_over_its_text_is_one_heading(tmp_path: Path) -> None:
    # REVTeX's lettered sub-section in bold a size below the text, centred; a numbered one whose
    # first line holds more than ten words
    got = _paper(
        tmp_path,
        "bold.pdf",
        [
            [Line("I. INTRODUCTION", x=250, size=10)],
            [
                Line("A. Econometric Computing with HC and HAC", x=180, size=9, bold=True),
                Line("Covariance Matrix Estimators", x=230, size=9, bold=True),
            ],
            [
                Line(
                    "2.2. Vegan and zoo Quick Reference for Reading Data in zoo Applied", size=10, bold=True
                ),
                Line("Econometrics", x=100, size=10, bold=True),
            ],
        ],
    )
    assert [t for _, t in got] == [
        "I. INTRODUCTION",
        "A. Econometric Computing with HC and HAC Covariance Matrix Estimators",
        "2.2. Vegan and zoo Quick Reference for Reading Data in zoo Applied Econometrics",
    ]


def test_a_numbered_clause_set_in_bold_stays_text(tmp_path: Path) -> None:
    # a contract's clause in bold over its plain text is no title: it ends in a stop
    got = _paper(
        tmp_path,
        "clause.pdf",
        [
            [Line("1. Definitions", size=12, bold=True)],
            [
                Line(
                    "A. The Supplier shall deliver the goods to the address that the Buyer",
                    size=10,
                    bold=True,
                ),
                Line("names in writing, at its own cost and risk.", size=10, bold=True),
            ],
            [Line("2. Payment", size=12, bold=True)],
        ],
    )
    assert [t for _, t in got] == ["1. Definitions", "2. Payment"]


def test_a_labelled_title_that_breaks_after_a_comma_goes_on_and_key_words_are_no_section(
    tmp_path: Path,
) -> None:
    # IEEE's Word template: "Keywords—" run into the list in italics; a sub-section's title in
    # italics that breaks after a comma
    got = _paper(
        tmp_path,
        "keywords.pdf",
        [
            [Line("Keywords\u2014statistics, software, regression", size=10, italic=True)],
            [Line("I. INTRODUCTION", x=250, size=10)],
            [
                Line("A. Constant Partying: Trees, Parties, Models,", size=10, italic=True),
                Line("and Mobsters", size=10, italic=True),
            ],
            [Line("II. RESULTS", x=260, size=10)],
        ],
    )
    assert got == [
        (1, "I. INTRODUCTION"),
        (2, "A. Constant Partying: Trees, Parties, Models, and Mobsters"),
        (1, "II. RESULTS"),
    ]


def _justified(head: list[Line], words: list[str], right: float, tmp_path: Path) -> list[Line]:
    """Set ``head`` then as many of ``words`` (upright) as fit before ``right``, flush at both edges."""
    prefixes = [" ".join(words[: n + 1]) for n in range(len(words))]
    measured = _widths([*head, *(Line(p) for p in prefixes)], tmp_path / "fit")
    widths = measured[len(head) :]
    room = right - 72 - sum(measured[: len(head)]) - 4.5 * len(head)
    text = next(p for p, w in zip(reversed(prefixes), reversed(widths), strict=True) if w <= room)
    parts = [*head, Line(text)]
    widths = _widths(parts, tmp_path / "set")
    spare = right - 72 - sum(widths)
    return _run(parts, 72, 0, tmp_path, gaps=[spare / len(head)] * len(parts))


def test_a_run_in_head_that_wraps_goes_on_to_its_stop_on_the_next_line(tmp_path: Path) -> None:
    # amsart's run-in sub-section heads: a bold one too long for its line fills the line and ends on
    # the next one at its full stop, where its paragraph starts; one that ends on its line before a
    # paragraph's word broken by a hyphen is a head too. A short numbered heading on a line of its
    # own over a paragraph that opens with a bold word ("Note.") stays as it is.
    paragraph = "This introduction to the R package is a slightly modified version of the paper as it was"
    words = [*paragraph.split(), "published", "in", "the", "journal", "and", "it", "goes", "on"]
    f = Flow().heading("2. Applied Econometrics", 12).para(5)
    first = Line("2.2. Vegan and zoo Quick Reference for Reading Data in zoo Applied", bold=True)
    (width,) = _widths([first], tmp_path / "head")
    right = 72 + width
    for k, (head, tail) in enumerate(
        (
            (first, [Line("Econometrics.", bold=True)]),
            (
                Line("2.3. Computing Covariance Matrix Estimators", italic=True),
                [Line("Sandwiches.", italic=True)],
            ),
        )
    ):
        f.gap(8)
        if k == 1:
            (width,) = _widths([head], tmp_path / "italic")
            right = 72 + width
        head.x, head.y = 72, f.y
        f.lines.append(head)
        f.y -= 12
        for part in _justified(tail, words, right, tmp_path / f"wrap{k}"):
            part.y = f.y
            f.lines.append(part)
        f.y -= 12
        f.para(4)
    f.gap(8)
    f.lines.extend(
        _run([Line("2.4. Econometric Computing with HC.", bold=True), Line("Se-")], 72, f.y, tmp_path / "hy")
    )
    f.y -= 12
    f.line("riation, finding a suitable linear order for a set of objects, is a basic problem").para(3)
    f.gap(8).line("2.5. Short Title", bold=True)
    for part in _run(
        [Line("Note.", bold=True), Line("the next paragraph opens on a bold word")],
        72,
        f.y,
        tmp_path / "note",
    ):
        f.lines.append(part)
    f.y -= 12
    f.para(4)
    doc = parse(f.write(tmp_path / "wrapped-run-in.pdf"))
    assert titles(doc) == [
        "2. Applied Econometrics",
        "2.2. Vegan and zoo Quick Reference for Reading Data in zoo Applied Econometrics",
        "2.3. Computing Covariance Matrix Estimators Sandwiches",
        "2.4. Econometric Computing with HC",
        "2.5. Short Title",
    ]
    # the paragraph's words after the head stay in the text, in the head's section
    sec = next(s for s in doc.sections if s.title.startswith("2.2."))
    assert "This introduction to the R package" in doc.text[sec.start : sec.end]


def test_a_bold_title_that_wraps_with_no_label_is_one_heading_where_it_stands_apart(tmp_path: Path) -> None:
    # a conference class's unnumbered heads: a section in bold capitals centred over two lines, a
    # sub-section in bold that fills its line and ends on a shorter one, each set well apart from
    # the text above and below; two bold lines that run at the text's leading into their paragraph
    # stay text
    caps = ["ORDER-RESTRICTED SCORES TEST FOR THE EVALUATION", "OF RANKINGS"]
    sub = "Quick Reference for Reading Data in the zoo Package and Applied Models"
    opening = "This introduction to the R package Formula is a slightly modified version of the R"
    *w_caps, w_sub, w_open = _widths(
        [*(Line(t, bold=True) for t in (*caps, sub)), Line(opening)], tmp_path / "w"
    )
    assert w_open - 20 < w_sub <= w_open  # (the sub-section's first line fills the measure)
    centred = [(t, 72 + (w_open - w) / 2) for t, w in zip(caps, w_caps, strict=True)]
    notice = ["The figures below are unaudited and subject to change", "without notice by the company"]
    f = Flow().heading("INTRODUCTION", 10).para(5)
    for head, below in (
        (centred, 10),
        ([(sub, 72), ("Econometrics", 72)], 10),
        ([(t, 72) for t in notice], 0),
    ):
        f.gap(16)
        for text, x in head:
            f.lines.append(Line(text, x=x, y=f.y, bold=True))
            f.y -= 12
        f.gap(below).line(opening).para(4)
    doc = parse(f.write(tmp_path / "set-off.pdf"))
    assert titles(doc) == [
        "INTRODUCTION",
        "ORDER-RESTRICTED SCORES TEST FOR THE EVALUATION OF RANKINGS",
        "Quick Reference for Reading Data in the zoo Package and Applied Models Econometrics",
    ]


def _indented_column(
    x: float, blocks: list[tuple[str, int | str]], seed: int, y: float
) -> tuple[list[Line], float]:
    """A column in 8 pt Times: paragraphs of ``n`` lines of eight words whose first line is indented
    10 pt (``("p", n)``) and bold headings flush left (``("h", title)``); returns the lines and the
    next y."""
    out: list[Line] = []
    for kind, arg in blocks:
        if kind == "h":
            y -= 12
            out.append(Line(str(arg), x=x, y=y, size=8, family="Times", bold=True))
            y -= 24
            continue
        lines, y = body_lines(int(arg), seed, y, x=x, width_words=8)
        seed += 1
        lines[0].x += 10
        for ln in lines:
            ln.family, ln.size = "Times", 8
        out += lines
    return out, y


def test_a_figures_labels_level_with_the_right_columns_lines_keep_the_columns_apart(tmp_path: Path):
    # a journal's two columns, each paragraph's first line indented: at the top of the left column a
    # figure whose labels ("p2", "P2", "0") stand level with the right column's lines. The labels are
    # no table across the page, and a label is not joined to the right column's line beside it, so
    # the left column is read to its end (its "4." heading) before the right one (its "4.1")
    labels = [
        Line(t, x=x, y=y, size=7, family="Times")
        for t, x, y in (("p2", 87, 564), ("P2", 138, 564), ("1 0", 56, 552), ("7", 145, 552), ("0", 206, 528))
    ]
    left, _ = _indented_column(50, [("p", 9), ("h", "4. Proposed representation method"), ("p", 12)], 1, 480)
    short: list[tuple[str, int | str]] = [("p", 3)] * 3
    right, _ = _indented_column(310, [*short, ("h", "4.1. Method for interpolation"), *short, *short], 7, 720)
    pages = [Page([*labels, *left, *right, Line("5", x=300, y=40, size=9)])]
    doc = parse(write_pdf(tmp_path / "figure.pdf", pages))
    assert titles(doc) == ["4. Proposed representation method", "4.1. Method for interpolation"]
    assert levels(doc) == {"4. Proposed representation method": 1, "4.1. Method for interpolation": 2}


def test_a_run_in_head_without_a_stop_ends_where_a_quad_parts_it_from_its_text(tmp_path: Path):
    # Elsevier's run-in sub-sub-sections: "4.2.2.3. Fitness function and selection" in italics, no
    # stop, a quad, then the paragraph upright on the same line; the head is the section's title
    # and the paragraph's words stay in its text
    f = Flow().heading("4. Proposed method", 12).para(5)
    f.gap(8).line("4.2. Evolutionary search", italic=True).para(5)
    text = "Fitness function should accurately measure the quality of the chromosome"
    for k, head in enumerate(("Fitness function and selection", "Crossover and mutation")):
        f.gap(8)
        parts = [Line(f"4.2.{k + 1}. {head}", italic=True), Line(text)]
        f.lines.extend(_run(parts, 72, f.y, tmp_path / str(k), gaps=[10, 0]))
        f.y -= 12
        f.para(4)
    f.heading("5. Results", 12).para(6)
    doc = parse(f.write(tmp_path / "quad.pdf"))
    assert titles(doc) == [
        "4. Proposed method",
        "4.2. Evolutionary search",
        "4.2.1. Fitness function and selection",
        "4.2.2. Crossover and mutation",
        "5. Results",
    ]
    sec = next(s for s in doc.sections if s.title.startswith("4.2.1."))
    assert "Fitness function should accurately" in doc.text[sec.start : sec.end]


def test_a_heading_centred_in_the_left_column_beside_a_figures_labels_in_the_right_is_a_heading(
    tmp_path: Path,
):
    # IEEE's two columns: "II. RELATED WORK" centred in the left column stands level with the
    # labels of a figure in the right one ("Encoder", "Decoder", a "7"); the labels are in another
    # column, not cells of a table row that the heading would head
    left = _column(
        50, [("p", 20), ("h", "I. INTRODUCTION"), ("p", 18), ("h", "II. RELATED WORK"), ("p", 12)], 1
    )
    y = next(ln.y for ln in left if ln.text == "II. RELATED WORK")
    right = _column(312, [("p", 24)], 9)
    figure = [
        Line("Encoder", x=351, y=y + 2, size=8, family="Times"),
        Line("Decoder", x=440, y=y + 2, size=8, family="Times"),
        Line("7", x=507, y=y, size=6, family="Times"),
        Line("Fig. 1. Encoder and decoder.", x=390, y=y - 30, size=8, family="Times"),
    ]
    lower = _column(312, [("p", 14)], 12, y=y - 50)
    pages = [Page([*left, *right, *figure, *lower, Line("1", x=300, y=40, size=9)])]
    doc = parse(write_pdf(tmp_path / "ieee.pdf", pages))
    assert titles(doc) == ["I. INTRODUCTION", "II. RELATED WORK"]


def test_a_numbered_title_goes_on_under_its_hanging_indent_for_four_lines(tmp_path: Path):
    # acmart's sub-sections: "2.2 Various Variances" ends short (the next word, long and
    # hyphenated, does not fit) and the title goes on for three more lines where its first word
    # stands, under the number's hanging indent; the four lines are one title
    f = Flow().heading("2 Methods", 13).para(6)
    f.gap(10)
    first = _run(
        [Line("2.2", size=11, bold=True), Line("Various Variances", size=11, bold=True)], 72, f.y, tmp_path
    )
    f.lines.extend(first)
    indent = first[1].x
    for text in (
        "Object-Oriented Computation of",
        "Sandwich Estimators and Their Use in",
        "Econometric Computing",
    ):
        f.y -= 13
        f.lines.append(Line(text, x=indent, y=f.y, size=11, bold=True))
    f.y -= 20
    f.para(6).heading("2.3 Results", 11).para(6)
    doc = parse(f.write(tmp_path / "hanging.pdf"))
    assert titles(doc) == [
        "2 Methods",
        "2.2 Various Variances Object-Oriented Computation of Sandwich Estimators and Their Use in "
        "Econometric Computing",
        "2.3 Results",
    ]
