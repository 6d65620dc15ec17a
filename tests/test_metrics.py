"""Chunk quality metrics: fragments, broken words, section mixing, sizes, coverage."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

import sectionrag
from sectionrag import Document, Section
from sectionrag.eval.metrics import SizeStats, chunk_stats
from sectionrag.tokenizers import WordTokenizer
from sectionrag.types import FINE

TEXT = "Alpha one two. Beta three four. Gamma five six."


def chunks_at(doc: Document, *cuts: int) -> list[sectionrag.Chunk]:
    edges = [0, *cuts, len(doc.text)]
    out = []
    for i, (a, b) in enumerate(itertools.pairwise(edges)):
        while doc.text[a].isspace():
            a += 1
        while doc.text[b - 1].isspace():
            b -= 1
        out.append(doc.make_chunk(i, a, b, token_count=WordTokenizer().count_tokens(doc.text[a:b])))
    return out


def test_boundaries_at_sentence_ends_are_not_fragments() -> None:
    doc = Document.create(TEXT)
    stats = chunk_stats(doc, chunks_at(doc, TEXT.index("Beta"), TEXT.index("Gamma")))
    assert stats.chunks == 3 and stats.boundaries == 4
    assert stats.boundaries_in_sentence == 0 and stats.fragment_rate == 0.0
    assert stats.fragmented_chunks == 0 and stats.broken_words == 0
    assert stats.uncovered_chars == 0 and stats.overlap_chars == 0


def test_cuts_inside_sentences_and_words() -> None:
    doc = Document.create(TEXT)
    inside_word = TEXT.index("three") + 2
    inside_sentence = TEXT.index("five")
    stats = chunk_stats(doc, chunks_at(doc, inside_word, inside_sentence))
    assert stats.boundaries_in_sentence == 4 and stats.fragment_rate == 1.0
    assert stats.fragmented_chunks == 3 and stats.fragmented_chunk_rate == 1.0
    assert stats.broken_words == 2 and stats.broken_word_rate == 0.5


def test_cuts_forced_by_an_overlong_sentence_are_excused() -> None:
    doc = Document.create(TEXT)
    stats = chunk_stats(doc, chunks_at(doc, TEXT.index("three")), tokenizer=WordTokenizer(), limit=3)
    assert stats.boundaries_in_sentence == 2 and stats.excused_in_sentence == 2
    strict = chunk_stats(doc, chunks_at(doc, TEXT.index("three")), tokenizer=WordTokenizer(), limit=10)
    assert strict.excused_in_sentence == 0


def test_section_mixing_and_carried_headings() -> None:
    text = "# A\n## A1\nalpha text.\n# B\nbeta text."
    a1, b = text.index("## A1"), text.index("# B")
    doc = Document.create(
        text,
        sections=[
            Section("A", 1, ("A",), 0, b),
            Section("A1", 2, ("A", "A1"), a1, b),
            Section("B", 1, ("B",), b, len(text)),
        ],
    )
    carried = chunks_at(doc, b)  # "# A\n## A1\nalpha text." carries A's heading: not mixed
    assert chunk_stats(doc, carried).mixed_chunks == 0
    whole = chunks_at(doc)
    stats = chunk_stats(doc, whole)
    assert stats.mixed_chunks == 1 and stats.section_mixing_rate == 1.0


def test_coverage_and_overlap() -> None:
    doc = Document.create(TEXT)
    a = doc.make_chunk(0, 0, 14, token_count=4)
    b = doc.make_chunk(1, 6, 31, token_count=7)
    stats = chunk_stats(doc, [a, b])
    assert stats.overlap_chars == 8
    assert stats.uncovered_chars == sum(1 for ch in TEXT[31:] if not ch.isspace())


def test_sizes_and_json() -> None:
    assert SizeStats.of([]) == SizeStats(0, 0, 0.0, 0.0, 0, 0)
    s = SizeStats.of(list(range(1, 101)))
    assert (s.min, s.max, s.median, s.p95, s.total) == (1, 100, 50.5, 95, 5050)
    doc = Document.create(TEXT)
    stats = chunk_stats(doc, sectionrag.chunker("sentence", size=4).chunk(doc))
    d = stats.to_dict()
    assert d["tokens"]["max"] <= 4 and d["chunks"] == 3 and d["fragment_rate"] == 0.0


def test_empty() -> None:
    stats = chunk_stats(Document.create(""), [])
    assert stats.chunks == 0 and stats.fragment_rate == 0.0 and stats.tokens.total == 0


@pytest.mark.parametrize("name", ["fixed", "overlap"])
def test_windows_fragment(name: str) -> None:
    doc = Document.create(TEXT * 20)
    stats = chunk_stats(doc, sectionrag.chunker(name, size=5).chunk(doc))
    assert stats.fragment_rate > 0.5


def test_fine_chunks_count_apart_from_coverage() -> None:
    doc = Document.create(TEXT)
    regular = chunks_at(doc, TEXT.index("Beta"), TEXT.index("Gamma"))
    inner = doc.make_chunk(
        len(regular), regular[1].start, regular[1].end - 1, token_count=3, metadata={FINE: True}
    )
    stats = chunk_stats(doc, [*regular, inner])
    assert stats.chunks == 4 and stats.fine_chunks == 1
    assert stats.uncovered_chars == 0 and stats.overlap_chars == 0
    plain = chunk_stats(doc, [*regular, dataclasses.replace(inner, metadata={})])
    assert plain.fine_chunks == 0 and plain.overlap_chars == regular[1].end - 1 - regular[1].start
