"""The twelfth retrieval round's lever (benchmarks/context_vector_lever.py): vectors mixed with context."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import context_vector_lever as lever


def _chunks() -> list[SimpleNamespace]:
    """Three regular chunks of section A, one of section B, and a fine chunk over A's second and third."""

    def chunk(start: int, end: int, section: str, fine: bool = False) -> SimpleNamespace:
        return SimpleNamespace(doc_id="d", start=start, end=end, section_path=(section,), fine=fine)

    return [
        chunk(0, 6, "A"),
        chunk(7, 13, "A"),
        chunk(14, 22, "A"),
        chunk(23, 29, "B"),
        chunk(7, 22, "A", True),
    ]


def test_a_chunk_takes_the_mean_of_its_sections_other_regular_chunks() -> None:
    chunks = _chunks()
    vectors = np.eye(5, dtype=np.float32)
    mixed = lever.context_vectors(chunks, vectors, "section", 1.0)
    expected = vectors[0] + (vectors[1] + vectors[2]) / 2
    assert mixed[0] == pytest.approx(expected / np.linalg.norm(expected))
    assert mixed[3] == pytest.approx(vectors[3])  # alone in its section: unchanged
    # a fine chunk's context is the regular chunks of its section, never another fine chunk
    fine = vectors[4] + (vectors[0] + vectors[1] + vectors[2]) / 3
    assert mixed[4] == pytest.approx(fine / np.linalg.norm(fine))


def test_neighbours_are_the_regular_chunks_beside_the_span_and_those_overlapping_it() -> None:
    chunks = _chunks()
    section_a = [0, 1, 2]
    assert lever.neighbours(chunks, section_a, 1) == [0, 2]
    assert lever.neighbours(chunks, section_a, 0) == [1]
    assert lever.neighbours(chunks, section_a, 4) == [0, 1, 2]  # the fine chunk over chunks 1 and 2
