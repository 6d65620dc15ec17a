"""Seed 001 reproduced: the same document, query and model give the seed's scores to 4 decimals.

Exact scores are compared with the model run as the seed ran it (torch, f32); the
default CPU backend (OpenVINO, bf16 where the CPU has it) agrees to about 1e-4.

The seed's document is a triple-quoted string that starts with a newline (the
overlap windows only reproduce with it), with four policies separated by blank
lines; the query is "Can I return a product?" and the model all-MiniLM-L6-v2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sectionrag import Document
from sectionrag.eval.compare import compare

pytestmark = pytest.mark.model

SEED = Path(__file__).parent / "data" / "seed001_policies.txt"
QUERY = "Can I return a product?"


@pytest.fixture(scope="module")
def seed_doc() -> Document:
    return Document.create(SEED.read_text(encoding="utf-8"), source=SEED.name)


def rounded(values: list[float]) -> list[float]:
    return [round(v, 4) for v in values]


def test_paragraph_chunks_score_as_in_the_seed(minilm_torch: Any, seed_doc: Document) -> None:
    minilm = minilm_torch  # the seed ran the model through sentence-transformers (torch, f32)
    row = compare(seed_doc, [QUERY], ["paragraph"], embedder=minilm).rows[0]
    assert len(row.chunks) == 4
    assert rounded(row.queries[0].scores) == [0.6204, 0.1692, -0.0397, 0.2943]
    assert row.to_dict()["best_chunk_index"] == 0
    assert round(row.best_score or 0, 4) == 0.6204


def test_the_seeds_other_chunkings(minilm_torch: Any, seed_doc: Document) -> None:
    minilm = minilm_torch
    paragraph_tokens = [
        c.token_count for c in compare(seed_doc, [QUERY], ["paragraph"], embedder=minilm).rows[0].chunks
    ]
    three = sum(paragraph_tokens[:3])
    specs = [
        "sentence:max_sentences=1",  # Experiment B: one line per chunk
        f"paragraph:pack=true:size={three}",  # Experiment A: first three policies merged
        "overlap:unit=chars:size=100:overlap=30",  # Experiment C: the seed's overlap_chunk
    ]
    lines, merged, overlap = compare(seed_doc, [QUERY], specs, embedder=minilm).rows

    assert len(lines.chunks) == 8
    assert rounded(lines.queries[0].scores) == [
        0.4351,
        0.6159,
        0.2428,
        0.1821,
        -0.0352,
        0.0033,
        0.2601,
        0.3344,
    ]
    assert round(lines.best_score or 0, 4) == 0.6159 and lines.queries[0].best_chunk_index == 1

    assert [c.text.split("\n")[0] for c in merged.chunks] == ["Refund Policy:", "Cancellation Policy:"]
    assert round(merged.best_score or 0, 4) == 0.5186

    assert len(overlap.chunks) == 4
    assert round(overlap.best_score or 0, 4) == 0.5637


def test_multiple_queries_give_per_query_detail(minilm: Any, seed_doc: Document) -> None:
    result = compare(seed_doc, [QUERY, "How long does shipping take?"], ["paragraph"], embedder=minilm)
    row = result.to_dict()["rows"][0]
    assert row["best_chunk_index"] is None and row["scores"] is None
    assert [q["best_chunk_index"] for q in row["queries"]] == [0, 1]
    assert row["best_score"] == pytest.approx(sum(q["best_score"] for q in row["queries"]) / 2, abs=1e-6)
