"""Heading rules met on journal and conference papers, checked on small generated PDFs.

Each test writes the layout a class sets (a short numbered heading, a run-in
numbered sub-heading, a title block with its abstract set smaller than the
text) and looks at ``doc.sections`` only.
"""

from __future__ import annotations

from pathlib import Path

from test_pdf_headings import Flow, parse, titles


def test_numbered_heading_of_short_words_is_no_glyph_sample(tmp_path: Path):
    # "7 How to help us": five short words (the number one of them) are a title, not a row of
    # glyphs such as "Aa Bb Cc Dd"; the next chapter, 8, then fits the sequence too
    f = Flow().heading("6 About your source file", 13).para(6)
    f.heading("7 How to help us", 13).para(3)
    f.heading("8 How to include bibliography", 13).para(5)
    f.line("Aa Bb Cc Dd", size=13, bold=True).para(3)  # a row of glyph samples set large stays text
    doc = parse(f.write(tmp_path / "short.pdf"))
    assert titles(doc) == ["6 About your source file", "7 How to help us", "8 How to include bibliography"]
