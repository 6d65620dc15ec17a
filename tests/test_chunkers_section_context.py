"""What a section chunk's header says beyond its path: the document's issuer, a table's column headings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sectionrag
from _filing_rows import ROWS
from sectionrag import Document, Pipeline
from sectionrag.chunkers._context import document_label, issuer, table_heads
from sectionrag.parsers.markdown import MarkdownParser
from sectionrag.stores import InMemoryStore
from sectionrag.testing import HashEmbedder
from sectionrag.tokenizers import WordTokenizer

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-Q

{name}

(Exact name of registrant as specified in its charter)

"""


def filing(name: str = "Apple Inc.", rows: list[tuple[str, str, str]] = ROWS) -> str:
    body = "\n".join(f"{label} | {a} | {b}" for label, a, b in rows)
    return (
        COVER.format(name=name)
        + "# Statements of Operations\n\n(In millions)\n\nThree Months Ended\nJuly 1, | June 25,\n"
        "2023 | 2022\n\n" + body + "\n\n# Risk Factors\n\nCompetition is intense.\n"
    )


# -- the document label ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("Apple Inc.", "Apple Inc."),
        ("AMAZON.COM, INC.", "AMAZON.COM, INC."),
        ("INTEL CORPORATION", "INTEL CORPORATION"),
        ("## Harbor & Vale LLP", "Harbor & Vale LLP"),
        ("Siemens AG", "Siemens AG"),
        ("A sentence that merely ends with the word company", ""),  # more than eight words
        ("Washington, D.C. 20549", ""),
    ],
)
def test_issuer_is_an_organisation_on_a_line_of_its_own(name: str, found: str) -> None:
    assert issuer(COVER.format(name=name)) == found


def test_issuer_is_looked_for_in_the_opening_only() -> None:
    late = "Words. " * 1000 + "\nApple Inc.\n"
    assert issuer(late) == ""
    assert issuer("x\nApple Inc.\n", start=2) == "Apple Inc."


def test_document_label_adds_the_issuer_to_the_file_name() -> None:
    text = filing()
    assert document_label("filings/2023_Q3_AAPL.md", text) == "2023 Q3 AAPL (Apple Inc.)"
    assert document_label("filings/apple-10q.md", text) == "apple 10q"  # the name says it already
    assert document_label("<memory>", text) == "Apple Inc."
    assert document_label("notes/call_log.txt", "No issuer here.\n") == "call log"
    assert document_label("<memory>", "No issuer here.\n") == ""


def test_the_label_leads_every_header() -> None:
    doc = MarkdownParser().parse_text(filing(), source="2023_Q3_AAPL.md")
    chunks = sectionrag.chunker("section", inner="sentence", size=40, min_chunks=0).chunk(doc)
    assert chunks and all(c.context.startswith("2023 Q3 AAPL (Apple Inc.)") for c in chunks)
    off = sectionrag.chunker("section", inner="sentence", size=40, min_chunks=0, document_title=False)
    assert not any("Apple" in c.context for c in off.chunk(doc))


# -- table heads ----------------------------------------------------------------------------


def test_table_heads_find_column_headings_and_caption() -> None:
    text = filing()
    doc = MarkdownParser().parse_text(text)
    heads = table_heads(text, 0, len(text), frozenset(s.start for s in doc.sections))
    assert [h.head for h in heads] == ["Three Months Ended: July 1, | June 25, / 2023 | 2022"]
    (head,) = heads
    assert text[head.body :].startswith("Products | 60,584")
    assert text[: head.end].endswith("Net income | 19,881 | 19,442")


def test_markdown_tables_take_the_rows_above_the_rule() -> None:
    text = "Quarterly sales\n\n| Region | Q1 | Q2 |\n|---|---|---|\n| North | 10 | 12 |\n| South | 7 | 9 |\n"
    (head,) = table_heads(text, 0, len(text))
    assert head.head == "Quarterly sales: Region | Q1 | Q2"
    assert text[head.body :].startswith("| North")


@pytest.mark.parametrize(
    "text",
    [
        "Run it:\n\n$ seq 3 | sed 2q\n",  # a line of code with a pipe: no column headings
        "Total | 1,234 | 5,678\nNet | 1,000 | 2,000\n",  # figures from the first row on
    ],
)
def test_tables_without_column_headings_get_no_head(text: str) -> None:
    assert table_heads(text, 0, len(text)) == []


def test_a_chunk_starting_in_a_table_body_repeats_its_headings() -> None:
    doc = MarkdownParser().parse_text(filing(), source="2023_Q3_AAPL.md")
    size = 60
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=size, min_chunks=0, table_headers=True, sentence_context=0
    ).chunk(doc)
    in_body = [c for c in chunks if " | " in c.text and "June 25," not in c.text]
    assert len(in_body) >= 2  # the table is cut, so some chunks start inside its body
    tok = WordTokenizer()
    for c in chunks:
        assert doc.text[c.start : c.end] == c.text
        assert c.embed_text == f"{c.context}\n{c.text}"
        assert c.token_count == tok.count_tokens(c.embed_text) <= size
    for c in in_body:
        assert c.context.endswith(" > Three Months Ended: July 1, | June 25, / 2023 | 2022")
    holding_headings = [c for c in chunks if "July 1, | June 25," in c.text]
    assert holding_headings and all("July 1" not in c.context for c in holding_headings)
    plain = sectionrag.chunker("section", inner="sentence", size=size, min_chunks=0)  # off by default
    assert not any("Three Months" in c.context for c in plain.chunk(doc))
    assert [(c.start, c.end) for c in plain.chunk(doc)] != [(c.start, c.end) for c in chunks]  # room kept
    with pytest.raises(TypeError, match="table_headers must be a bool"):
        sectionrag.chunker("section", table_headers="yes")


def test_table_heads_in_a_document_without_sections() -> None:
    rows = "\n".join(f"Item {i} | {i},000 | {i},500" for i in range(1, 30))
    doc = Document.create(f"Sales by item\n\nItem | 2023 | 2022\n{rows}\n", source="sales.txt")
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=40, table_headers=True, sentence_context=0
    ).chunk(doc)
    assert len(chunks) >= 3
    assert chunks[0].context == "sales"
    assert all(c.context == "sales > Sales by item: Item | 2023 | 2022" for c in chunks[1:])
    assert all(doc.text[c.start : c.end] == c.text and c.token_count <= 40 for c in chunks)


def test_a_table_head_that_would_crowd_out_the_text_is_left_out() -> None:
    wide = " | ".join(f"Heading number {i}" for i in range(12))
    rows = "\n".join(f"Row {i} | {i},000 | {i},500" for i in range(1, 20))
    doc = Document.create(f"{wide}\n{rows}\n", source="wide.txt")
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=30, table_headers=True, sentence_context=0
    ).chunk(doc)
    assert all("Heading number" not in c.context and c.token_count <= 30 for c in chunks)


_cell = st.text(alphabet="abcdefgh ", min_size=1, max_size=8).map(str.strip).filter(bool)


@settings(max_examples=40, deadline=None)
@given(
    headings=st.lists(st.lists(_cell, min_size=2, max_size=4), min_size=1, max_size=3),
    rows=st.lists(st.tuples(_cell, st.integers(1000, 99999), st.integers(0, 99)), min_size=1, max_size=40),
    size=st.integers(12, 80),
    prose=st.booleans(),
)
def test_spans_stay_exact_with_table_heads(
    headings: list[list[str]], rows: list[tuple[str, int, int]], size: int, prose: bool
) -> None:
    head = "\n".join(" | ".join(h) for h in headings)
    body = "\n".join(f"{label} | {a:,} | {b}.5" for label, a, b in rows)
    text = ("Some words before it.\n\n" if prose else "") + f"# Table\n\n{head}\n{body}\n"
    doc = MarkdownParser().parse_text(text, source="t.md")
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=size, min_chunks=0, table_headers=True
    ).chunk(doc)
    tok = WordTokenizer()
    assert "".join(c.text for c in chunks).replace(" ", "").replace("\n", "") == text[
        doc.body_start :
    ].replace(" ", "").replace("\n", "")
    for c in chunks:
        assert doc.text[c.start : c.end] == c.text
        assert c.token_count == tok.count_tokens(c.embed_text) <= size


# -- rankings ------------------------------------------------------------------------------


def _pipeline(tmp_rows: list[tuple[str, str, str]], **params: object) -> Pipeline:
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", inner="sentence", size=40, min_chunks=0, **params),
        embedder=HashEmbedder(dimension=512),
        store=InMemoryStore(),
    )
    docs = [
        MarkdownParser().parse_text(filing(name, tmp_rows), source=f"q3_{i}.md")
        for i, name in enumerate(["Apple Inc.", "Globex Corporation", "Initech LLC"])
    ]
    pipe.ingest(docs)
    return pipe


@pytest.mark.parametrize("table_headers", [False, True])
def test_the_issuer_brings_the_right_filings_row_up(table_headers: bool) -> None:
    query = "Globex provision for income taxes"
    best = _pipeline(ROWS, table_headers=table_headers).search(query, k=1, mode="vector")[0]
    assert best.source == "q3_1.md"
    assert "Provision for income taxes" in best.text
    without = _pipeline(ROWS, document_title=False, table_headers=table_headers).search(
        query, k=3, mode="vector"
    )
    # the three filings print the same rows: without the issuer, nothing tells them apart
    assert len({h.text for h in without}) == 1
    assert len({round(h.score, 6) for h in without}) == 1
