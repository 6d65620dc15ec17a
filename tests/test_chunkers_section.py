"""The section strategy: sections never mixed, the seed's fallback, contextual headers."""

from __future__ import annotations

from typing import Any

import pytest

import sectionrag
from sectionrag import ConfigError, Document, Section
from sectionrag.chunkers.paragraph import ParagraphChunker
from sectionrag.eval.metrics import chunk_stats
from sectionrag.parsers.markdown import MarkdownParser
from sectionrag.testing import HashEmbedder
from sectionrag.tokenizers import WordTokenizer

MD = """Preface line.

# Report

## Revenue

Total revenue for the year was $4.2 billion. Growth came from cloud services.
The company expects more growth.

## Risks

Competition is intense. Supply chains are fragile. Currency moves hurt margins.

# Appendix

Definitions follow. Terms are as in the filing.
"""


def markdown_doc(text: str = MD) -> Document:
    """Sections as the Markdown parser lays them out (heading line included)."""
    import re

    heads = [
        (m.start(), len(m.group(1)), m.group(2).strip()) for m in re.finditer(r"^(#+) (.*)$", text, re.M)
    ]
    sections = []
    stack: list[str] = []
    for i, (start, level, title) in enumerate(heads):
        stack = [*stack[: level - 1], title]
        end = next((s for s, lv, _ in heads[i + 1 :] if lv <= level), len(text))
        sections.append(Section(title, level, tuple(stack), start, end))
    return Document.create(text, source="report.md", sections=sections)


def sim() -> Any:
    return HashEmbedder(dimension=64)


def test_sections_are_never_mixed() -> None:
    doc = markdown_doc()
    chunks = sectionrag.chunker("section", size=512, embedder=sim()).chunk(doc)
    assert chunk_stats(doc, chunks).mixed_chunks == 0
    paths = [c.section_path for c in chunks]
    assert paths == [(), ("Report", "Revenue"), ("Report", "Risks"), ("Appendix",)]
    # the lone "# Report" heading travels with its first subsection
    assert chunks[1].text.startswith("# Report\n\n## Revenue")


class WholeTextSees(ParagraphChunker):
    """An inner strategy that only finds boundaries when it sees the whole text (like semantic minima)."""

    def split(
        self, document: Document, measure: Any, start: int, end: int, budget: int
    ) -> list[tuple[int, int]]:
        if start == 0 and end == len(document.text):
            return super().split(document, measure, start, end, budget)
        return [(start, end)]


def test_whole_text_fallback_when_sections_give_too_few_chunks() -> None:
    text = (
        "Intro.\n\n# All\n\nRefunds within 7 days.\n\nShipping takes 3 days.\n\nLogin needs a verified email."
    )
    start = text.index("# All")
    doc = Document.create(text, sections=[Section("All", 1, ("All",), start, len(text))])
    per_section = sectionrag.chunker("section", inner=WholeTextSees(), min_chunks=0).chunk(doc)
    assert len(per_section) == 2
    chunks = sectionrag.chunker("section", inner=WholeTextSees()).chunk(doc)
    assert [c.text for c in chunks] == [
        "Intro.",
        "# All\n\nRefunds within 7 days.",
        "Shipping takes 3 days.",
        "Login needs a verified email.",
    ]
    assert [c.section_path for c in chunks] == [(), ("All",), ("All",), ("All",)]


def test_fallback_still_cuts_at_section_starts() -> None:
    text = "# A\nalpha one. alpha two.\n# B\nbeta one. beta two."
    b = text.index("# B")
    doc = Document.create(
        text, sections=[Section("A", 1, ("A",), 0, b), Section("B", 1, ("B",), b, len(text))]
    )
    chunks = sectionrag.chunker("section", inner="recursive", size=100).chunk(doc)
    assert [c.section_path for c in chunks] == [("A",), ("B",)]
    off = sectionrag.chunker("section", inner="recursive", size=100, min_chunks=0).chunk(doc)
    assert [c.text for c in off] == [c.text for c in chunks]


def test_contextual_header_is_embedded_and_counted() -> None:
    doc = markdown_doc()
    size = 12
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=size, contextual_header=True, document_title=False
    ).chunk(doc)
    tok = WordTokenizer()
    for c in chunks:
        if c.section_path:
            assert c.context == " > ".join(c.section_path)
            assert c.embed_text == f"{c.context}\n{c.text}"
        assert c.token_count == tok.count_tokens(c.embed_text) <= size
        assert doc.text[c.start : c.end] == c.text


def test_document_title_leads_the_header() -> None:
    text = "# Revenue\n\nSales grew by a third.\n\n# Costs\n\nCosts fell.\n"
    doc = MarkdownParser().parse_text(text, source="reports/2023_Q3_ACME-10q.md")
    chunks = sectionrag.chunker("section", inner="sentence", size=50, min_chunks=0).chunk(doc)
    assert [c.context for c in chunks] == ["2023 Q3 ACME 10q > Revenue", "2023 Q3 ACME 10q > Costs"]
    assert all(c.embed_text == f"{c.context}\n{c.text}" for c in chunks)
    plain = sectionrag.chunker("section", inner="sentence", size=50, min_chunks=0, document_title=False)
    assert [c.context for c in plain.chunk(doc)] == ["Revenue", "Costs"]
    memory = MarkdownParser().parse_text(text)  # source "<memory>": no name to add
    assert [
        c.context for c in sectionrag.chunker("section", min_chunks=0, inner="sentence").chunk(memory)
    ] == [
        "Revenue",
        "Costs",
    ]
    flat = Document.create("One sentence here. Another one there.", source="notes/call_log.txt")
    assert {c.context for c in sectionrag.chunker("section", inner="sentence", size=5).chunk(flat)} == {
        "call log"
    }
    with pytest.raises(TypeError, match="document_title must be a bool"):
        sectionrag.chunker("section", document_title="yes")


def test_a_header_that_would_crowd_out_the_text_is_dropped() -> None:
    title = "A very long section title that goes on and on"
    text = f"{title}\nShort body here."
    doc = Document.create(text, sections=[Section(title, 1, (title,), 0, len(text))])
    chunks = sectionrag.chunker("section", inner="sentence", size=8, contextual_header=True).chunk(doc)
    assert all(c.context == "" and c.token_count <= 8 for c in chunks)


def test_inner_instance_and_parameters() -> None:
    doc = markdown_doc()
    inner = ParagraphChunker(size=64, pack=True)
    chunks = sectionrag.chunker("section", size=64, inner=inner).chunk(doc)
    assert chunk_stats(doc, chunks).mixed_chunks == 0
    with pytest.raises(ConfigError, match="cannot be applied"):
        sectionrag.chunker("section", inner=inner, pack=True)
    with pytest.raises(ConfigError, match="invalid parameters for inner"):
        sectionrag.chunker("section", inner="paragraph", threshold=0.3)
    with pytest.raises(TypeError):  # a wrong type is a TypeError, as from the class itself
        sectionrag.chunker("section", inner=object())


def test_windowed_inner_strategies_keep_sections_apart() -> None:
    doc = markdown_doc()
    for inner, extra in (("fixed", {}), ("overlap", {"overlap": 2})):
        chunks = sectionrag.chunker("section", size=10, inner=inner, **extra).chunk(doc)
        assert chunk_stats(doc, chunks).mixed_chunks == 0, inner
        assert all(c.token_count <= 10 for c in chunks)


def test_pages_and_paths_come_from_the_document() -> None:
    from sectionrag import PageSpan

    doc = markdown_doc()
    mid = MD.index("## Risks")
    paged = Document.create(
        doc.text, sections=doc.sections, pages=[PageSpan(1, 0, mid), PageSpan(2, mid, len(doc.text))]
    )
    chunks = sectionrag.chunker("section", inner="paragraph").chunk(paged)
    risks = [c for c in chunks if c.section_path[-1:] == ("Risks",)]
    assert risks and all(c.page_start == c.page_end == 2 for c in risks)
    assert chunks[0].page_start == 1
