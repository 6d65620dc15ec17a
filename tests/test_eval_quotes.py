"""Evidence quotes resolve to spans; Chroma-style span scores; the real-document retrieval set is valid."""

# ruff: noqa: RUF001

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sectionrag
from sectionrag.errors import ConfigError
from sectionrag.eval.quotes import QuoteNotFoundError, normalize, resolve_quote, resolve_references
from sectionrag.eval.retrieval import Reference, Retrieved, parse_query, score_query
from sectionrag.eval.spans import chroma_scores

SET = Path(__file__).resolve().parent.parent / "benchmarks" / "retrieval_set"

TEXT = (
    "Net sales:\n\nProducts | $ | 60,584 $ | 63,355\nServices | 21,213 | 19,604\n\n"
    "The Company’s “gross margin” — up.\n"
)


def test_normalize_maps_every_character_back() -> None:
    norm, offsets = normalize("  A\u2019b --  c\n\n|d ")
    assert norm == "a'b - c d"
    assert len(offsets) == len(norm) + 1
    assert offsets[0] == 2 and offsets[-1] == len("  A\u2019b --  c\n\n|d ")


def test_quotes_match_across_whitespace_quotes_dashes_and_cells() -> None:
    start, end = resolve_quote(TEXT, "Services 21,213 | 19,604")
    assert TEXT[start:end] == "Services | 21,213 | 19,604"
    start, end = resolve_quote(TEXT, 'the company\'s "gross margin" - up.')
    assert TEXT[start:end] == "The Company’s “gross margin” — up."


def test_a_long_quote_gives_its_first_and_last_words() -> None:
    start, end = resolve_quote(TEXT, "Products [...] 19,604")
    assert TEXT[start:end] == "Products | $ | 60,584 $ | 63,355\nServices | 21,213 | 19,604"
    with pytest.raises(QuoteNotFoundError, match="last part"):
        resolve_quote(TEXT, "Services [...] Products")


def test_missing_or_repeated_quotes_fail_loudly() -> None:
    with pytest.raises(QuoteNotFoundError, match="not found"):
        resolve_quote(TEXT, "operating income", source="10q.md")
    text = "Total | 5\nTotal | 5\n"
    with pytest.raises(QuoteNotFoundError, match="occurs 2 times"):
        resolve_quote(text, "Total | 5")
    assert resolve_quote(text, "Total | 5", occurrence=1) == (10, 19)
    with pytest.raises(QuoteNotFoundError, match="occurrence 2 does not exist"):
        resolve_quote(text, "Total | 5", occurrence=2)
    with pytest.raises(QuoteNotFoundError, match="empty"):
        resolve_quote(text, "   ")
    assert issubclass(QuoteNotFoundError, ConfigError)


def test_resolve_references_turns_quotes_into_spans_and_keeps_the_rest() -> None:
    rows = [
        {
            "id": "q1",
            "query": "services sales",
            "references": [{"source": "a.md", "quote": "Services | 21,213"}],
        },
        {"id": "q2", "query": "page", "references": [{"source": "b.pdf", "page": 3}]},
    ]
    out = resolve_references(rows, {"a.md": TEXT})
    assert rows[0]["references"][0] == {
        "source": "a.md",
        "quote": "Services | 21,213",
    }  # not changed in place
    ref = out[0]["references"][0]
    assert TEXT[ref["start"] : ref["end"]] == "Services | 21,213"
    assert parse_query(out[1]).references == (Reference("b.pdf", page=3),)
    with pytest.raises(ConfigError, match="no text for source"):
        resolve_references([{"id": "x", "references": [{"source": "c.md", "quote": "a"}]}], {"a.md": TEXT})
    with pytest.raises(QuoteNotFoundError, match="'q9'"):
        resolve_references(
            [{"id": "q9", "references": [{"source": "a.md", "quote": "absent"}]}], {"a.md": TEXT}
        )


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=300), st.data())
def test_a_quote_taken_from_the_text_resolves_to_an_equivalent_span(text: str, data: st.DataObject) -> None:
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a + 1, len(text)))
    quote = text[a:b]
    needle = normalize(quote)[0]
    if not needle or normalize(text)[0].count(needle) != 1:
        return
    start, end = resolve_quote(text, quote)
    assert normalize(text[start:end])[0] == needle


def ret(source: str, start: int, end: int) -> Retrieved:
    return Retrieved(source=source, doc_id="id-" + source, start=start, end=end, score=1.0)


def test_chroma_scores_count_overlapping_chunks_in_full() -> None:
    refs = [Reference("a.md", 100, 200)]
    disjoint = [ret("a.md", 50, 150), ret("a.md", 150, 250)]
    assert chroma_scores(refs, disjoint) == pytest.approx((1.0, 100 / 200, 100 / 200))
    merged = score_query(refs, disjoint, 5)
    assert (merged.span_precision, merged.span_iou) == pytest.approx((0.5, 0.5))  # same when disjoint
    overlapping = [ret("a.md", 50, 150), ret("a.md", 100, 200)]
    recall, precision, iou = chroma_scores(refs, overlapping)
    assert recall == pytest.approx(1.0)
    assert precision == pytest.approx(100 / 200) and iou == pytest.approx(100 / 200)  # 200 chars counted
    assert score_query(refs, overlapping, 5).span_iou == pytest.approx(100 / 150)  # merged: 150 chars


def test_chroma_scores_count_misses_and_other_documents() -> None:
    refs = [Reference("a.md", 0, 100)]
    assert chroma_scores(refs, [ret("b.md", 0, 100)]) == (0.0, 0.0, 0.0)
    recall, precision, iou = chroma_scores(refs, [ret("a.md", 50, 150), ret("b.md", 0, 50)])
    assert recall == pytest.approx(0.5)
    assert precision == pytest.approx(50 / 150)
    assert iou == pytest.approx(50 / (150 + 50))
    assert chroma_scores([Reference("a.md", page=2)], [ret("a.md", 0, 10)]) == (0.0, 0.0, 0.0)


def test_the_retrieval_set_is_valid() -> None:
    rows = [json.loads(line) for line in (SET / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 400
    corpora = {r["corpus"] for r in rows}
    assert len(corpora) >= 6
    assert {r["split"] for r in rows} == {"dev", "test"}
    assert len({r["id"] for r in rows}) == len(rows)
    assert sum("table" in r["needs"] for r in rows) >= 20
    assert sum("several passages" in r["needs"] for r in rows) >= 20
    for corpus in corpora:  # each kind of text is split about evenly
        split = [r["split"] for r in rows if r["corpus"] == corpus]
        assert abs(split.count("dev") - split.count("test")) <= 1
    sources = sorted({ref["source"] for r in rows for ref in r["references"]})
    texts = {s: sectionrag.parse(SET / "docs" / s).text for s in sources}
    resolved = resolve_references(rows, texts)  # every quote occurs exactly once (or names its occurrence)
    for row in resolved:
        query = parse_query(row)
        assert all(ref.has_span for ref in query.references)
