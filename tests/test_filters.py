"""Filters with hostile and odd values, in every string field, on both stores, in every mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sectionrag.errors import FilterError
from sectionrag.stores import InMemoryStore, LanceDBStore
from sectionrag.stores._filters import compile_sql, parse_where, resolve_sources, source_matches
from sectionrag.testing import HashEmbedder
from sectionrag.types import Chunk, Document, Section

#: each value is used as a source, a doc id and a section title
HOSTILE = [
    "O'Brien.pdf",
    "x' OR '1'='1",
    "') OR true --",
    "'; DROP TABLE default; --",
    "a\\b.md",
    "\\' OR 1=1 --",
    "trailing\\",
    '"double" quotes.md',
    "100% _wild_ [card].md",
    "résumé naïve.txt",
    "日本語の文書.md",
    "emoji 🙂.md",
    "new\nline.md",
    "tab\tbed.md",
    "NULL",
    "",
]
MODES = ("vector", "text", "hybrid")


def corpus() -> list[Chunk]:
    """One chunk per hostile value (it is the chunk's source, doc id and section) plus a bystander."""
    chunks = []
    for i, value in enumerate([*HOSTILE, "plain.md"]):
        text = f"Shared words about refunds and receipts, document {i}."
        doc = Document.create(
            text,
            source=value,
            id=value or "<empty>",
            sections=[Section(value, 1, (value,), 0, len(text))],
        )
        chunks.append(doc.make_chunk(0, 0, len(text), token_count=9))
    return chunks


@pytest.fixture(params=["memory", "lancedb"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    emb = HashEmbedder(dimension=32)
    s: Any = InMemoryStore() if request.param == "memory" else LanceDBStore(tmp_path_factory.mktemp("db"))
    s.ensure_collection(emb.name, emb.dimension)
    chunks = corpus()
    s.add(chunks, emb.embed_documents([c.text for c in chunks]))
    return s


def search(store: Any, where: Any, mode: str) -> set[str]:
    emb = HashEmbedder(dimension=32)
    hits = store.search(
        emb.embed_query("refunds receipts"), "refunds receipts", k=100, where=where, mode=mode
    )
    return {h.doc_id for h in hits}


@pytest.mark.parametrize("mode", MODES)
def test_hostile_values_match_literally_in_every_field_and_mode(store: Any, mode: str) -> None:
    everything = search(store, None, mode)
    assert len(everything) == len(HOSTILE) + 1
    for value in HOSTILE:
        own = value or "<empty>"
        assert search(store, {"doc_id": own}, mode) == {own}, value
        assert search(store, {"section": value}, mode) == {own}, value
        assert search(store, {"source": value}, mode) == {own}, value
        assert search(store, {"source": [value, "nothing.pdf"]}, mode) == {own}, value
        assert search(store, {"doc_id": own, "section": value, "source": value}, mode) == {own}, value
        # a near miss matches nothing, and never widens the search
        assert search(store, {"doc_id": own + "'"}, mode) == set(), value
        assert search(store, {"section": value + " OR 1=1"}, mode) == set(), value


@pytest.mark.parametrize("mode", MODES)
def test_injection_shaped_values_select_nothing(store: Any, mode: str) -> None:
    for value in ("y' OR '1'='1", "' OR ''='", "plain.md' --", "plain.md') OR ('1'='1", "%", "_", "*"):
        for field in ("doc_id", "source", "section"):
            assert search(store, {field: value}, mode) == set(), (field, value)
            assert search(store, {field: [value, value + "'"]}, mode) == set(), (field, value)


@pytest.mark.parametrize("where", [{"page_start": "3' OR 1=1"}, {"index": ["1"]}, {"section": 1}])
def test_wrong_types_are_refused_not_coerced(store: Any, where: dict[str, Any]) -> None:
    with pytest.raises(FilterError):
        search(store, where, "vector")


def test_source_matches_a_path_suffix_only_at_separators() -> None:
    assert source_matches("a.pdf", "a.pdf")
    assert source_matches("docs/a.pdf", "a.pdf") and source_matches("C:\\docs\\a.pdf", "a.pdf")
    assert source_matches("/home/me/docs/a.pdf", "docs/a.pdf")
    assert not source_matches("data.pdf", "a.pdf") and not source_matches("a.pdf", "docs/a.pdf")
    assert not source_matches("docs/a.pdf", "") and source_matches("", "")


def test_source_filters_by_file_name_or_path_on_both_stores(tmp_path: Path) -> None:
    emb = HashEmbedder(dimension=16)
    sources = [
        "reports/2024/annual.pdf",
        "reports/2025/annual.pdf",
        "annual.pdf",
        "C:\\x\\annual.pdf",
        "reports/biannual.pdf",
        "notes/O'Brien's annual.pdf",
    ]
    for store in (InMemoryStore(), LanceDBStore(tmp_path / "db")):
        store.ensure_collection(emb.name, emb.dimension)
        chunks = [
            Document.create(f"text {i}", source=s).make_chunk(0, 0, 6, token_count=2)
            for i, s in enumerate(sources)
        ]
        store.add(chunks, emb.embed_documents([c.text for c in chunks]))

        def found(where: Any, st: Any = store) -> set[str]:
            return {h.source for h in st.search(emb.embed_query("text"), k=50, where=where)}

        assert found({"source": "annual.pdf"}) == set(sources[:4])
        assert found({"source": "2024/annual.pdf"}) == {sources[0]}
        assert found({"source": "reports/2025/annual.pdf"}) == {sources[1]}
        assert found({"source": "O'Brien's annual.pdf"}) == {sources[5]}
        assert found({"source": ["biannual.pdf", "2025/annual.pdf"]}) == {sources[1], sources[4]}
        assert found({"source": "nual.pdf"}) == set()


def test_resolved_sources_compile_to_exact_names() -> None:
    conditions = resolve_sources(parse_where({"source": "a.md", "index": 1}), ["x/a.md", "b.md", "a.md"])
    assert (
        compile_sql(conditions, source_paths=False)
        == "(\"source\" IN ('x/a.md', 'a.md')) AND (\"index\" = 1)"
    )
    nothing = resolve_sources(parse_where({"source": "zzz"}), ["a.md"])
    assert compile_sql(nothing, source_paths=False) == "(false)"


def test_lancedb_source_filter_sees_sources_added_later(tmp_path: Path) -> None:
    emb = HashEmbedder(dimension=16)
    store = LanceDBStore(tmp_path / "db")
    store.ensure_collection(emb.name, emb.dimension)
    for i, source in enumerate(["a/x.md", "b/x.md"]):
        chunk = Document.create(f"text {i}", source=source).make_chunk(0, 0, 6, token_count=2)
        store.add([chunk], emb.embed_documents([chunk.text]))
        hits = store.search(emb.embed_query("text"), k=5, where={"source": "x.md"})
        assert len(hits) == i + 1  # the cached list of sources follows the table's version


def test_path_matching_sql_agrees_with_python_on_lancedb(tmp_path: Path) -> None:
    """The SQL form of a source filter (ends_with) selects what source_matches selects."""
    emb = HashEmbedder(dimension=16)
    store = LanceDBStore(tmp_path / "db")
    store.ensure_collection(emb.name, emb.dimension)
    sources = [*HOSTILE, "dir/O'Brien.pdf", "C:\\dir\\a\\b.md", "x/x' OR '1'='1", "d/résumé naïve.txt"]
    chunks = [
        Document.create(f"text {i}", source=s, id=f"d{i}").make_chunk(0, 0, len(f"text {i}"), token_count=2)
        for i, s in enumerate(sources)
    ]
    store.add(chunks, emb.embed_documents([c.text for c in chunks]))
    q = emb.embed_query("text")
    for value in [*HOSTILE, "b.md", "a\\b.md", "dir/O'Brien.pdf"]:
        raw = compile_sql(parse_where({"source": value}))
        assert raw is not None
        got = {h.source for h in store.search(q, k=100, where=raw)}
        assert got == {s for s in sources if source_matches(s, value)}, value
        assert got == {h.source for h in store.search(q, k=100, where={"source": value})}, value
