"""The shape of section chunks: tables packed apart by rows, sentence overlap, lead-ins, fine chunks."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sectionrag
from _filing_rows import ROWS
from sectionrag import Document
from sectionrag._sentences import split_sentences
from sectionrag.chunkers._context import table_rows, table_runs
from sectionrag.defaults import DEFAULT_FINE, MIN_FINE_SIZE
from sectionrag.errors import ConfigError
from sectionrag.eval.metrics import chunk_stats
from sectionrag.parsers.markdown import MarkdownParser
from sectionrag.tokenizers import WordTokenizer

PROSE = (
    "Net sales rose in the quarter. Services grew faster than products did. "
    "The company expects the trend to continue. Costs were flat."
)


def filing(rows: list[tuple[str, str, str]] = ROWS) -> str:
    body = "\n".join(f"{label} | {a} | {b}" for label, a, b in rows)
    return (
        f"# Results\n\n{PROSE}\n\nThree Months Ended\nJuly 1, | June 25,\n2023 | 2022\n\n"
        f"Operating expenses:\n\n{body}\n\n{PROSE}\n\n# Risk Factors\n\nCompetition is intense.\n"
    )


def parse(text: str) -> Document:
    return MarkdownParser().parse_text(text, source="report.md")


# -- where the tables are -------------------------------------------------------------------


def test_table_runs_span_a_table_from_its_first_row_to_its_last() -> None:
    text = filing()
    ((a, b),) = table_runs(text, 0, len(text))
    assert text[a:b].startswith("July 1, | June 25,")
    assert text[a:b].endswith("Net income | 19,881 | 19,442")
    assert "Operating expenses:" in text[a:b]  # a label between rows belongs to the table


def test_a_single_line_with_a_bar_is_not_a_table() -> None:
    text = "Some prose.\n\nCalifornia | 94-2404110\n\nMore prose follows here.\n"
    assert table_runs(text, 0, len(text)) == []
    assert table_runs(text, 0, len(text), min_rows=1) != []


# -- table_size -----------------------------------------------------------------------------


def test_tables_are_packed_by_whole_rows_apart_from_the_prose() -> None:
    doc = parse(filing())
    tok = WordTokenizer()
    chunker = sectionrag.chunker(
        "section", inner="sentence", size=200, table_size=24, sentence_context=0, tokenizer=tok
    )
    chunks = chunker.chunk(doc)
    ((ta, tb),) = table_runs(doc.text, 0, len(doc.text))
    inside = [c for c in chunks if ta <= c.start < tb]
    assert len(inside) >= 3  # 24 tokens hold a few rows of the table, not all of it
    lines = doc.text[ta:tb].splitlines()
    for c in inside:
        assert c.end <= tb  # no table chunk runs on into the prose
        assert c.start == 0 or doc.text[c.start - 1] == "\n"  # whole lines only
        assert c.end == len(doc.text) or doc.text[c.end] == "\n"
        assert c.token_count <= 24 or len(c.text.splitlines()) == 1
        assert all(line in lines for line in c.text.splitlines())
    assert not any(c.start < ta < c.end or c.start < tb < c.end for c in chunks)  # prose never mixes in
    label = next(c for c in inside if "Operating expenses:" in c.text)
    assert "Products |" in label.text  # the label goes with the row after it


def test_without_table_size_the_chunks_do_not_change() -> None:
    doc = parse(filing())
    base = sectionrag.chunker("section", inner="sentence", size=200).chunk(doc)
    again = sectionrag.chunker("section", inner="sentence", size=200, table_size=None).chunk(doc)
    assert [(c.start, c.end) for c in base] == [(c.start, c.end) for c in again]


def test_table_size_leaves_prose_only_documents_alone() -> None:
    doc = parse("# A\n\n" + " ".join([PROSE] * 6) + "\n\n# B\n\n" + PROSE + "\n")
    base = sectionrag.chunker("section", inner="sentence", size=40).chunk(doc)
    tables = sectionrag.chunker("section", inner="sentence", size=40, table_size=16).chunk(doc)
    assert [(c.start, c.end) for c in base] == [(c.start, c.end) for c in tables]


def test_a_row_longer_than_the_table_size_gets_a_chunk_of_its_own() -> None:
    rows = [("A very long line label that goes on and on and on", "1,000", "2,000"), *ROWS[:2]]
    doc = parse(filing(rows))
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=200, table_size=8, sentence_context=0
    ).chunk(doc)
    (long,) = [c for c in chunks if "A very long line label" in c.text]
    row = "A very long line label that goes on and on and on | 1,000 | 2,000"
    assert long.text == f"Operating expenses:\n\n{row}"
    assert long.token_count > 8


@pytest.mark.parametrize("bad", [0, -3, 1.5, "64", True])
def test_table_size_is_validated(bad: Any) -> None:
    with pytest.raises(ConfigError, match="table_size"):
        sectionrag.chunker("section", table_size=bad)


# -- sentence_overlap -------------------------------------------------------------------------

STORY = " ".join(
    f"Sentence number {i} tells of the {w} and what came after it." for i, w in enumerate(["harbour"] * 30)
)


def test_overlap_repeats_whole_sentences_of_the_chunk_before() -> None:
    doc = parse(f"# Story\n\n{STORY}\n\n# Next\n\n{STORY}\n")
    base = sectionrag.chunker("section", inner="sentence", size=60).chunk(doc)
    over = sectionrag.chunker("section", inner="sentence", size=60, sentence_overlap=0.25).chunk(doc)
    assert [c.end for c in base] == [c.end for c in over]
    shared = [(p, c) for p, c in itertools.pairwise(over) if c.start < p.end]
    assert shared
    for p, c in shared:
        assert c.section_path == p.section_path  # never across a section start
        assert c.text.startswith("Sentence number")  # a whole sentence
        assert WordTokenizer().count_tokens(doc.text[c.start : p.end]) <= 15  # 0.25 of 60
        assert c.token_count <= 60


def test_overlap_is_validated() -> None:
    for bad in (-0.1, 0.6, "0.2", float("nan")):
        with pytest.raises(ConfigError, match="sentence_overlap"):
            sectionrag.chunker("section", sentence_overlap=bad)


# -- properties -----------------------------------------------------------------------------

_WORDS = st.sampled_from(["net", "sales", "rose", "Inc.", "U.S.", "4.2", "quarter", "the", "Mr.", "cost"])
_SENTENCE = st.builds(
    lambda words, end: " ".join(words).capitalize() + end,
    st.lists(_WORDS, min_size=1, max_size=12),
    st.sampled_from([".", "!", "?"]),
)
_ROW = st.builds(
    lambda label, cells: f"{label} | " + " | ".join(cells),
    st.sampled_from(["Products", "Services", "Total net sales", "Net income"]),
    st.lists(st.sampled_from(["1,234", "(56)", "7.8%", "$ 90", "—"]), min_size=1, max_size=4),
)
_BLOCK = st.one_of(
    st.lists(_SENTENCE, min_size=1, max_size=8).map(" ".join),
    st.lists(st.one_of(_ROW, st.just("Operating expenses:"), st.just("")), min_size=1, max_size=10).map(
        "\n".join
    ),
    st.sampled_from(["# Part", "## Item 2", "### Notes"]),
)


@st.composite
def reports(draw: st.DrawFn) -> Document:
    return parse("\n\n".join(draw(st.lists(_BLOCK, min_size=1, max_size=12))) + "\n")


def sentence_edges(doc: Document) -> tuple[set[int], set[int]]:
    """Sentence starts and ends of every section piece, and every line's edges (table rows are lines)."""
    starts, ends = set(), set()
    for a, b, _ in doc.segments():
        for sa, sb in split_sentences(doc.text, a, b, cuts=doc.boundaries()).spans:
            starts.add(sa)
            ends.add(sb)
    pos = 0
    for line in doc.text.splitlines(keepends=True):
        body = line.strip()
        if body:
            a = pos + line.index(body)
            starts.add(a)
            ends.add(a + len(body))
        pos += len(line)
    return starts, ends


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    doc=reports(),
    size=st.integers(12, 60),
    table_size=st.one_of(st.none(), st.integers(4, 40)),
    overlap=st.sampled_from([0.0, 0.15, 0.25, 0.5]),
    lead=st.sampled_from([0.0, 0.15, 0.5]),
)
def test_spans_round_trip_and_no_sentence_is_cut(
    doc: Document, size: int, table_size: int | None, overlap: float, lead: float
) -> None:
    tok = WordTokenizer()
    chunker = sectionrag.chunker(
        "section",
        inner="sentence",
        size=size,
        table_size=table_size,
        sentence_overlap=overlap,
        sentence_context=lead,
        tokenizer=tok,
    )
    chunks = chunker.chunk(doc)
    text = doc.text
    starts, ends = sentence_edges(doc)
    covered: set[int] = set()
    for i, c in enumerate(chunks):
        assert c.index == i
        assert text[c.start : c.end] == c.text and c.text.strip() == c.text and c.text
        assert c.token_count == tok.count_tokens(c.embed_text) <= size
        if not (c.metadata or {}).get("forced_split"):  # (a sentence over the cap must be cut)
            assert c.start in starts, (c.start, c.text)
            assert c.end in ends, (c.end, c.text)
        covered.update(range(c.start, c.end))
    assert all(ch.isspace() for i, ch in enumerate(text) if i not in covered and i >= doc.body_start)
    assert chunk_stats(doc, chunks).mixed_chunks == 0  # one section per chunk (headings carried down)
    if overlap == 0:
        assert all(p.end <= c.start for p, c in itertools.pairwise(chunks))
    if table_size is not None:
        for a, b in table_runs(text, 0, len(text)):
            assert not any(c.start < a < c.end or c.start < b < c.end for c in chunks)


# -- sentence_context -----------------------------------------------------------------------


def test_the_chunk_before_s_last_sentences_lead_the_header() -> None:
    doc = parse(f"# Story\n\n{STORY}\n\n# Next\n\n{STORY}\n")
    off = sectionrag.chunker("section", inner="sentence", size=60, sentence_context=0).chunk(doc)
    on = sectionrag.chunker("section", inner="sentence", size=60, sentence_context=0.25).chunk(doc)
    assert [(c.start, c.end, c.text) for c in off] == [
        (c.start, c.end, c.text) for c in on
    ]  # spans as they were
    led = 0
    for prev, before, c in zip(on, off[1:], on[1:], strict=False):
        if c.context == before.context:
            continue
        led += 1
        assert c.section_path == prev.section_path  # never from another section
        header, lead = c.context.split("\n", 1)
        assert header == before.context
        assert prev.text.endswith(lead) and lead.startswith("Sentence number")  # whole sentences
        assert WordTokenizer().count_tokens(lead) <= 15  # 0.25 of 60
        assert c.token_count == WordTokenizer().count_tokens(c.embed_text) <= 60
    assert led >= 2
    first = [c for c in on if c.text.startswith("# ")]
    assert all("\n" not in c.context for c in first)  # a section's first chunk has nothing before it


def test_sentence_context_is_on_by_default_and_needs_the_header() -> None:
    doc = parse(f"# Story\n\n{STORY}\n")
    default = sectionrag.chunker("section", inner="sentence", size=120).chunk(doc)
    assert any("\n" in c.context for c in default)
    bare = sectionrag.chunker("section", inner="sentence", size=120, contextual_header=False).chunk(doc)
    assert all(c.context == "" for c in bare)


def test_sentence_context_is_validated() -> None:
    for bad in (-0.1, 0.6, "0.2", None):
        with pytest.raises(ConfigError, match="sentence_context"):
            sectionrag.chunker("section", sentence_context=bad)


# -- fine chunks ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=reports(), size=st.integers(MIN_FINE_SIZE * 2, 320), fine=st.sampled_from([0.4, 0.5, 0.75]))
def test_fine_chunks_lie_beside_a_partition_and_cut_no_sentence(
    doc: Document, size: int, fine: float
) -> None:
    tok = WordTokenizer()
    chunker = sectionrag.chunker("section", inner="sentence", size=size, fine=fine, tokenizer=tok)
    chunks = chunker.chunk(doc)
    regular = [c for c in chunks if not c.fine]
    plain = sectionrag.chunker("section", inner="sentence", size=size, fine=0, tokenizer=tok).chunk(doc)
    assert [(c.start, c.end, c.context) for c in regular] == [(c.start, c.end, c.context) for c in plain]
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert len({c.id for c in chunks}) == len(chunks)
    assert [(c.start, c.fine, c.end) for c in chunks] == sorted((c.start, c.fine, c.end) for c in chunks)
    spans = {(c.start, c.end) for c in regular}
    starts, ends = sentence_edges(doc)
    small = int(fine * size)
    for c in chunks:
        if c.fine:
            assert (c.start, c.end) not in spans
            assert c.token_count == tok.count_tokens(c.embed_text) <= small
            assert doc.text[c.start : c.end] == c.text
            if not c.metadata.get("forced_split"):
                assert c.start in starts and c.end in ends
    assert chunk_stats(doc, chunks).mixed_chunks == 0  # fine chunks keep to one section too
    assert chunk_stats(doc, chunks).overlap_chars == 0  # coverage is the regular chunks'


def test_fine_chunks_are_made_at_a_fraction_of_the_size_and_can_be_turned_off() -> None:
    doc = parse(f"# Story\n\n{STORY}\n\n# Next\n\n{STORY}\n")
    on = sectionrag.chunker("section", inner="sentence", size=240, tokenizer=WordTokenizer()).chunk(doc)
    assert DEFAULT_FINE == 0.5 and any(c.fine for c in on)
    assert max(c.token_count for c in on if c.fine) <= 120
    assert all(isinstance(c.fine, bool) for c in on)
    off = sectionrag.chunker("section", inner="sentence", size=240, fine=0, tokenizer=WordTokenizer()).chunk(
        doc
    )
    assert not any(c.fine for c in off) and [c.text for c in off] == [c.text for c in on if not c.fine]
    # below the least fine size there are none
    small = sectionrag.chunker(
        "section", inner="sentence", size=MIN_FINE_SIZE * 2 - 2, tokenizer=WordTokenizer()
    )
    assert small.fine_chunker() is None and not any(c.fine for c in small.chunk(doc))


def test_fine_is_validated() -> None:
    for bad in (-0.1, 1, 1.5, "0.5", None):
        with pytest.raises(ConfigError, match="fine"):
            sectionrag.chunker("section", fine=bad)


# -- table rows -----------------------------------------------------------------------------


def test_table_rows_are_the_rows_of_figures_with_their_table_s_head() -> None:
    text = filing()
    rows = table_rows(text, 0, len(text))
    assert [text[r.start : r.end] for r in rows] == [f"{label} | {a} | {b}" for label, a, b in ROWS]
    assert {r.head for r in rows} == {"Three Months Ended: July 1, | June 25, / 2023 | 2022"}
    # column headings, label lines and one-line "tables" are not rows of figures
    assert table_rows("Prose.\n\nCalifornia | 95014\n\nMore prose.\n", 0, 40) == []


def test_table_rows_index_each_row_as_a_fine_chunk_that_names_its_columns() -> None:
    doc = parse(filing())
    plain = sectionrag.chunker("section", inner="sentence", size=200, tokenizer=WordTokenizer()).chunk(doc)
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=200, table_rows=True, tokenizer=WordTokenizer()
    ).chunk(doc)
    rows = [c for c in chunks if c.text in {f"{label} | {a} | {b}" for label, a, b in ROWS}]
    assert len(rows) == len(ROWS)
    for c in rows:
        assert c.fine and doc.text[c.start : c.end] == c.text
        assert c.context == "report > Results > Three Months Ended: July 1, | June 25, / 2023 | 2022"
        assert c.section_path == ("Results",) and c.token_count <= 200
    # the other chunks are those made without rows, in document order, ids unique
    assert [(c.start, c.end) for c in chunks if c not in rows] == [(c.start, c.end) for c in plain]
    assert [(c.start, c.fine, c.end) for c in chunks] == sorted((c.start, c.fine, c.end) for c in chunks)
    assert len({c.id for c in chunks}) == len(chunks)
    on, off = chunk_stats(doc, chunks), chunk_stats(doc, plain)
    assert (on.uncovered_chars, on.overlap_chars) == (off.uncovered_chars, off.overlap_chars)
    assert on.mixed_chunks == 0
    assert on.fine_chunks == off.fine_chunks + len(ROWS)


def test_a_row_whose_head_does_not_fit_keeps_the_section_header() -> None:
    doc = parse(filing())
    chunks = sectionrag.chunker(
        "section", inner="sentence", size=20, table_rows=True, tokenizer=WordTokenizer()
    ).chunk(doc)
    (row,) = [c for c in chunks if c.text == "Net income | 19,881 | 19,442"]
    assert row.context == "report > Results" and row.token_count <= 20


def test_table_rows_leave_prose_alone_and_are_validated() -> None:
    doc = parse(f"# Notes\n\n{PROSE}\n")
    tok = WordTokenizer()
    on = sectionrag.chunker("section", inner="sentence", size=60, table_rows=True, tokenizer=tok).chunk(doc)
    off = sectionrag.chunker("section", inner="sentence", size=60, tokenizer=tok).chunk(doc)
    assert on == off
    with pytest.raises(TypeError, match="table_rows"):
        sectionrag.chunker("section", table_rows="yes")
