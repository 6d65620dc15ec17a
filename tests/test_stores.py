from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sectionrag.errors import (
    CollectionNotFoundError,
    ConfigError,
    EmbedderMismatchError,
    FilterError,
    StoreError,
)
from sectionrag.stores import InMemoryStore, LanceDBStore
from sectionrag.stores._filters import compile_sql, matches, parse_where, source_matches
from sectionrag.testing import HashEmbedder, StoreConformance
from sectionrag.types import Chunk, Document


class TestInMemoryStoreConformance(StoreConformance):
    def make_store(self) -> InMemoryStore:
        return InMemoryStore()


class TestLanceDBStoreConformance(StoreConformance):
    @pytest.fixture(autouse=True)
    def _tmp(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.n = 0

    def make_store(self) -> LanceDBStore:
        self.n += 1
        return LanceDBStore(self.tmp_path / f"db{self.n}", collection="c")


# -- filters ----------------------------------------------------------------


def test_structured_filters_compile_to_quoted_sql() -> None:
    sql = compile_sql(
        parse_where(
            {
                "source": "O'Brien.pdf",
                "doc_id": ["a", "b'c"],
                "page_start": (">=", 3),
                "page_end": None,
                "section": ["Refunds", "x') OR true --"],
                "index": [1, 2],
            }
        )
    )
    assert sql == (
        "(\"source\" = 'O''Brien.pdf' OR ends_with(\"source\", '/O''Brien.pdf') "
        "OR ends_with(\"source\", '\\O''Brien.pdf')) "
        "AND (\"doc_id\" IN ('a', 'b''c')) AND (\"page_start\" >= 3) "
        "AND (\"page_end\" IS NULL) AND (array_has_any(\"section_path\", ['Refunds', 'x'') OR true --'])) "
        'AND ("index" IN (1, 2))'
    )
    assert compile_sql(parse_where({})) is None
    assert compile_sql(parse_where({"source": []})) == "(false)"
    exact = compile_sql(parse_where({"source": ["a.md", "b'.md"]}), source_paths=False)
    assert exact == "(\"source\" IN ('a.md', 'b''.md'))"


def test_python_predicates_follow_sql_null_rules() -> None:
    row = {"page_start": None, "section_path": ("A", "B"), "source": "s", "index": 2}
    assert not matches(parse_where({"page_start": ("<", 5)}), row)
    assert not matches(parse_where({"page_start": ("!=", 5)}), row)
    assert matches(parse_where({"page_start": None}), row)
    assert matches(parse_where({"section": "B", "index": ("<=", 2)}), row)
    assert not matches(parse_where({"section": []}), row)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ({"colour": "red"}, "filterable fields are"),
        ({"page_start": ("~", 1)}, "unknown operator"),
        ({"page_start": ("<", None)}, "finite number"),
        ({"index": None}, "an int"),
        ({"index": float("nan")}, "an int"),
        ({"source": ("==", 3)}, "strings"),
    ],
)
def test_bad_structured_filters_say_what_is_wrong(where: dict[str, object], message: str) -> None:
    with pytest.raises(FilterError, match=message):
        parse_where(where)


# -- LanceDB specifics -------------------------------------------------------


def _doc_chunks(text: str, source: str, **meta: object) -> list[Chunk]:
    doc = Document.create(text, source=source, metadata=meta)
    return [doc.make_chunk(0, 0, len(text), token_count=len(text.split()))]


def _filled(path: Path, collection: str = "default") -> tuple[LanceDBStore, HashEmbedder]:
    emb = HashEmbedder(dimension=32)
    store = LanceDBStore(path, collection=collection)
    store.ensure_collection(emb.name, emb.dimension)
    chunks = _doc_chunks("Refunds within 7 days with a receipt.", "a.md") + _doc_chunks(
        "Orders ship in 3 business days.", "b.md"
    )
    store.add(chunks, emb.embed_documents([c.text for c in chunks]))
    return store, emb


def test_lancedb_schema_records_the_embedder(tmp_path: Path) -> None:
    import lancedb

    _filled(tmp_path / "db")

    table = lancedb.connect(str(tmp_path / "db")).open_table("default")
    schema = table.schema
    assert schema.field("vector").type == pa.list_(pa.float32(), 32)
    assert schema.field("section_path").type == pa.list_(pa.string())
    assert schema.field("page_start").nullable and schema.field("metadata").type == pa.string()
    assert schema.metadata[b"sectionrag.embedder"] == b"hash"
    assert schema.metadata[b"sectionrag.dimension"] == b"32"
    # a second store on the same directory sees the same collection
    again = LanceDBStore(tmp_path / "db")
    info = again.info()
    assert info is not None and (info.embedder, info.dimension, info.chunks) == ("hash", 32, 2)


def test_lancedb_missing_collection_lists_existing_ones(tmp_path: Path) -> None:
    _filled(tmp_path / "db", "policies")
    _filled(tmp_path / "db", "manuals")
    store = LanceDBStore(tmp_path / "db", collection="papers")
    with pytest.raises(CollectionNotFoundError, match="manuals, policies"):
        store.search(np.ones(32, dtype=np.float32))
    assert store.collections() == ["manuals", "policies"]
    assert store.info() is None and store.documents() == [] and store.delete("x") == 0


def test_lancedb_reading_a_missing_directory_creates_nothing(tmp_path: Path) -> None:
    store = LanceDBStore(tmp_path / "nowhere")
    assert store.collections() == [] and store.info() is None and not store.drop()
    with pytest.raises(CollectionNotFoundError, match="existing collections: none"):
        store.search(query_text="x", mode="text")
    assert not (tmp_path / "nowhere").exists()


def test_lancedb_drop(tmp_path: Path) -> None:
    store, _ = _filled(tmp_path / "db")
    assert store.drop() and store.collections() == [] and not store.drop()


def test_lancedb_add_refuses_another_embedder_and_keeps_data(tmp_path: Path) -> None:
    store, emb = _filled(tmp_path / "db")
    new = _doc_chunks("New text.", "c.md")
    with pytest.raises(EmbedderMismatchError, match="built with embedder 'hash'"):
        store.add(new, emb.embed_documents(["New text."]), embedder="minilm")
    assert store.info().chunks == 2  # type: ignore[union-attr]
    store.add(new, emb.embed_documents(["New text."]), embedder="hash")
    assert store.info().chunks == 3  # type: ignore[union-attr]


def test_lancedb_add_before_ensure_collection(tmp_path: Path) -> None:
    store = LanceDBStore(tmp_path / "db")
    with pytest.raises(CollectionNotFoundError):
        store.add(_doc_chunks("x", "x.md"), np.ones((1, 4), dtype=np.float32))


def test_lancedb_raw_where_for_experts(tmp_path: Path) -> None:
    store, emb = _filled(tmp_path / "db")
    q = emb.embed_query("orders")
    hits = store.search(q, k=5, where="source LIKE 'b%' AND token_count > 2")
    assert [h.source for h in hits] == ["b.md"]
    with pytest.raises(FilterError, match="rejected the filter"):
        store.search(q, k=5, where="no_such_column = 1")


def test_in_memory_store_refuses_raw_where() -> None:
    store = InMemoryStore()
    store.ensure_collection("hash", 8)
    with pytest.raises(FilterError, match="mapping"):
        store.search(np.ones(8, dtype=np.float32), where="source = 'a'")


def test_invalid_collection_names(tmp_path: Path) -> None:
    for name in ("", "a b", "../up", "x.lance"):
        with pytest.raises(ConfigError, match="collection name"):
            LanceDBStore(tmp_path, collection=name)


def test_foreign_table_is_reported(tmp_path: Path) -> None:
    import lancedb

    lancedb.connect(str(tmp_path)).create_table("default", schema=pa.schema([pa.field("x", pa.int64())]))
    with pytest.raises(StoreError, match="not created by sectionrag"):
        LanceDBStore(tmp_path).info()


@pytest.mark.parametrize("store_kind", ["memory", "lancedb"])
def test_metadata_round_trips_and_upsert_updates(tmp_path: Path, store_kind: str) -> None:
    emb = HashEmbedder(dimension=16)
    store = InMemoryStore() if store_kind == "memory" else LanceDBStore(tmp_path)
    store.ensure_collection(emb.name, emb.dimension)
    chunk = _doc_chunks("Refund text.", "a.md", year=2024, tags=["x", "y"], when=date(2024, 5, 1))[0]
    store.add([chunk], emb.embed_documents(["something else entirely"]))
    store.add([chunk], emb.embed_documents([chunk.text]))  # same id: replaces the vector
    hits = store.search(emb.embed_query(chunk.text), k=5)
    assert len(hits) == 1 and hits[0].score == pytest.approx(1.0, abs=1e-5)
    meta = dict(hits[0].metadata)
    assert meta["year"] == 2024 and meta["tags"] == ["x", "y"]
    # non-JSON values come back as strings in LanceDB, unchanged in memory
    assert str(meta["when"]) == "2024-05-01"


def test_in_memory_text_and_vector_modes_differ() -> None:
    emb = HashEmbedder(dimension=64)
    store = InMemoryStore()
    store.ensure_collection(emb.name, emb.dimension)
    texts = [
        "The receipt is required for every refund request.",
        "Refund requests: receipt receipt receipt.",
        "Shipping takes three days.",
    ]
    chunks = [c for i, t in enumerate(texts) for c in _doc_chunks(t, f"{i}.md")]
    store.add(chunks, emb.embed_documents(texts))
    text_hits = store.search(query_text="receipt", mode="text", k=5)
    assert [h.source for h in text_hits] == ["1.md", "0.md"]  # higher term frequency wins; no 2.md
    hybrid = store.search(emb.embed_query("receipt"), "receipt", mode="hybrid", k=5, fusion="rrf")
    assert {h.source for h in hybrid} == {"0.md", "1.md", "2.md"}
    assert hybrid[0].score == pytest.approx(1 / 61 + 1 / 61)  # first in both, default weights (1, 1)


def test_any_source_string_filters_exactly(tmp_path: Path) -> None:
    store, emb = _filled(tmp_path / "prop")
    q = emb.embed_query("x")
    stored: dict[str, set[str]] = {"a.md": set(), "b.md": set()}
    for hit in store.search(q, k=10):
        stored[hit.source].add(hit.chunk_id)

    def expected(source: str) -> set[str]:  # the source itself, or any source ending in /source
        return {cid for s, ids in stored.items() if source_matches(s, source) for cid in ids}

    @settings(max_examples=40, deadline=None)
    @given(source=st.text(min_size=1, max_size=30))
    def check(source: str) -> None:
        before = store.search(q, k=500, where={"source": source})
        assert {h.chunk_id for h in before} == expected(source)
        chunk = _doc_chunks(f"text for {source}", source)[0]
        store.add([chunk], emb.embed_documents([chunk.text]))
        stored.setdefault(source, set()).add(chunk.id)
        hits = store.search(q, k=500, where={"source": source})
        assert {h.chunk_id for h in hits} == expected(source)
        assert all(source_matches(h.source, source) for h in hits)
        assert store.search(q, k=500, where={"section": source}) == []

    check()


@pytest.mark.parametrize("kind", ["memory", "lancedb"])
@pytest.mark.parametrize("fusion", ["linear", "zscore", "rrf"])
def test_hybrid_best_results_do_not_change_when_k_asks_for_more(
    tmp_path: Path, kind: str, fusion: str
) -> None:
    # with more than HYBRID_CANDIDATES chunks matching both ways, a larger k fetches deeper
    # candidates; they follow the results a small k gives, in the same order, scores not rising
    emb = HashEmbedder(dimension=32)
    store = InMemoryStore() if kind == "memory" else LanceDBStore(tmp_path / "db", collection="c")
    store.ensure_collection(emb.name, emb.dimension)
    words = ["refund", "receipt", "shipping", "invoice", "order", "return", "policy", "days"]
    texts = [
        " ".join(words[(i * j + i) % len(words)] for j in range(1 + i % 7)) + f" item{i}" for i in range(300)
    ]
    chunks = [c for i, t in enumerate(texts) for c in _doc_chunks(t, f"{i}.md")]
    store.add(chunks, emb.embed_documents(texts))
    q = "refund receipt policy"

    def ids(k: int) -> list[tuple[str, float]]:
        hits = store.search(emb.embed_query(q), q, mode="hybrid", k=k, fusion=fusion)
        return [(h.chunk_id, h.score) for h in hits]

    small, large = ids(10), ids(200)
    assert len(large) > 100  # the deeper candidates were fused too
    assert [c for c, _ in large[:10]] == [c for c, _ in small]
    assert [s for _, s in large[:10]] == pytest.approx([s for _, s in small])
    assert all(a >= b for (_, a), (_, b) in itertools.pairwise(large))
