"""The ANN vector index of LanceDBStore: when it is built, and that searches stay right with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sectionrag.errors import ConfigError
from sectionrag.stores import AnnConfig, LanceDBStore
from sectionrag.types import Chunk, Document

DIM = 32


def corpus(n: int, start: int = 0, seed: int = 0) -> tuple[list[Chunk], np.ndarray]:
    """``n`` one-chunk documents (10 chunks per source) with clustered unit vectors."""
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((8, DIM))
    vecs = centers[rng.integers(0, 8, n)] + 0.7 * rng.standard_normal((n, DIM))
    vecs = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
    chunks = []
    for i in range(start, start + n):
        text = f"chunk number {i} about topic {i % 8}"
        doc = Document.create(text, source=f"docs/part{i // 10}.md", id=f"d{i}")
        chunks.append(doc.make_chunk(0, 0, len(text), token_count=6))
    return chunks, vecs


def store_with(tmp_path: Path, n: int, ann: AnnConfig) -> tuple[LanceDBStore, list[Chunk], np.ndarray]:
    store = LanceDBStore(tmp_path / "db", ann=ann)
    store.ensure_collection("synthetic", DIM)
    chunks, vecs = corpus(n)
    store.add(chunks, vecs)
    return store, chunks, vecs


def test_ann_config_is_validated() -> None:
    with pytest.raises(ConfigError, match="IVF_SQ"):
        AnnConfig(index_type="HNSW")  # type: ignore[arg-type]
    for bad in ({"nprobes": 0}, {"threshold": -1}, {"refine_factor": 1.5}, {"ef": True}):
        with pytest.raises(ConfigError, match="positive int"):
            AnnConfig(**bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="AnnConfig"):
        LanceDBStore("x", ann={"threshold": 5})  # type: ignore[arg-type]
    assert AnnConfig().partitions_for(100_000) == 24 and AnnConfig().partitions_for(300) == 1


def test_no_index_below_the_threshold(tmp_path: Path) -> None:
    store, _, _ = store_with(tmp_path, 300, AnnConfig(threshold=1000))
    state = store.index_state()
    assert state is not None and state.vector_index is None and state.rows == 300
    state = store.optimize()
    assert state.vector_index is None  # optimize() follows the threshold too
    store.optimize(ann=False)
    assert store.index_state().vector_index is None  # type: ignore[union-attr]


def test_a_write_past_the_threshold_builds_the_index(tmp_path: Path) -> None:
    store, _, _ = store_with(tmp_path, 300, AnnConfig(threshold=500))
    assert store.index_state().vector_index is None  # type: ignore[union-attr]
    more, vecs = corpus(300, start=300, seed=1)
    store.add(more, vecs)
    state = store.index_state()
    assert state is not None and state.vector_index == "IvfSq" and state.vector_unindexed == 0


def test_threshold_none_leaves_it_to_optimize(tmp_path: Path) -> None:
    store, _, _ = store_with(tmp_path, 600, AnnConfig(threshold=None))
    assert store.index_state().vector_index is None  # type: ignore[union-attr]
    assert store.optimize().vector_index is None
    assert store.optimize(ann=True).vector_index == "IvfSq"


@pytest.mark.parametrize("index_type", ["IVF_SQ", "IVF_PQ", "IVF_HNSW_SQ"])
def test_ann_results_match_exact_search(tmp_path: Path, index_type: str) -> None:
    store, chunks, vecs = store_with(tmp_path, 600, AnnConfig(threshold=None, index_type=index_type))  # type: ignore[arg-type]
    state = store.optimize(ann=True)
    assert (
        state.vector_index is not None and state.vector_index.lower() == index_type.replace("_", "").lower()
    )
    rng = np.random.default_rng(5)
    queries = vecs[rng.integers(0, len(vecs), 20)] + 0.3 * rng.standard_normal((20, DIM)).astype(np.float32)
    found = 0
    for q in queries:
        exact = store.search(q, k=10, exact=True)
        approx = store.search(q, k=10)
        truth = np.argsort(-(vecs @ (q / np.linalg.norm(q))))[:10]
        assert [h.chunk_id for h in exact] == [chunks[i].id for i in truth]
        found += len({h.chunk_id for h in approx} & {h.chunk_id for h in exact})
        assert [h.score for h in approx] == sorted((h.score for h in approx), reverse=True)
    assert found / 200 >= 0.9


def test_rows_added_or_deleted_after_the_index_are_honoured(tmp_path: Path) -> None:
    store, chunks, vecs = store_with(tmp_path, 600, AnnConfig(threshold=None))
    store.optimize(ann=True)
    new, new_vecs = corpus(5, start=600, seed=9)
    store.add(new, new_vecs)
    state = store.index_state()
    assert state is not None and state.vector_unindexed == 5
    for chunk, vec in zip(new, new_vecs, strict=True):
        assert store.search(vec, k=1)[0].chunk_id == chunk.id  # found while unindexed
    store.delete(chunks[0].doc_id)
    assert store.search(vecs[0], k=1)[0].chunk_id != chunks[0].id
    state = store.optimize()
    assert state.vector_unindexed == 0 and state.rows == 604
    assert store.search(new_vecs[2], k=1)[0].chunk_id == new[2].id


def test_narrow_filters_still_fill_k_with_an_index(tmp_path: Path) -> None:
    store, chunks, vecs = store_with(tmp_path, 600, AnnConfig(threshold=None, nprobes=1, refine_factor=None))
    store.optimize(ann=True)
    q = -vecs[0]  # far from part0's chunks: they are not in the probed partition
    for where in ({"source": "part0.md"}, {"doc_id": [c.doc_id for c in chunks[:10]]}):
        hits = store.search(q, k=10, where=where)
        assert {h.chunk_id for h in hits} == {c.id for c in chunks[:10]}
    hits = store.search(q, "chunk topic", k=10, mode="hybrid", where={"source": "docs/part3.md"})
    assert {h.chunk_id for h in hits} == {c.id for c in chunks[30:40]}


def test_too_few_rows_for_an_index(tmp_path: Path) -> None:
    store, _, _ = store_with(tmp_path, 50, AnnConfig(threshold=None))
    assert store.optimize(ann=True).vector_index is None  # nothing to train on: exact search stays
