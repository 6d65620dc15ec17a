"""Full-text search matches a chunk's document title with its text; old collections keep working."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from sectionrag.chunkers.section import SectionChunker
from sectionrag.parsers.markdown import MarkdownParser
from sectionrag.stores import InMemoryStore, LanceDBStore
from sectionrag.stores._lance_schema import chunk_schema
from sectionrag.testing import HashEmbedder
from sectionrag.types import Chunk, Document

EMB = HashEmbedder(dimension=32)

FILING = "FORM 10-Q\n\nApple Inc.\n\n# Results\n\nNet sales rose in the quarter on services revenue.\n"
OTHER = "FORM 10-Q\n\nIntel Corporation\n\n# Results\n\nNet sales rose in the quarter on services revenue.\n"
NOTES = "# Notes\n\nThe committee met on Tuesday and approved the budget for the new wing.\n"


def _chunks() -> list[Chunk]:
    chunker = SectionChunker(size=64, min_chunks=1)
    out: list[Chunk] = []
    for text, source in ((FILING, "2023_Q3_report.md"), (OTHER, "2023_Q3_filing.md"), (NOTES, "minutes.md")):
        out += chunker.chunk(MarkdownParser().parse_text(text, source=source))
    return out


def _store(kind: str, tmp_path: Path) -> InMemoryStore | LanceDBStore:
    store: InMemoryStore | LanceDBStore = (
        InMemoryStore() if kind == "memory" else LanceDBStore(tmp_path / "db", collection="c")
    )
    store.ensure_collection(EMB.name, EMB.dimension)
    chunks = _chunks()
    store.add(chunks, EMB.embed_documents([c.embed_text for c in chunks]))
    return store


def test_section_chunks_carry_the_document_label_as_title() -> None:
    chunks = _chunks()
    assert {c.source: c.title for c in chunks} == {
        "2023_Q3_report.md": "2023 Q3 report (Apple Inc.)",
        "2023_Q3_filing.md": "2023 Q3 filing (Intel Corporation)",
        "minutes.md": "minutes",
    }
    c = next(c for c in chunks if c.section_path == ("Results",))
    assert c.search_text == f"{c.title}\n{c.text}"
    assert "Apple" not in c.text  # the span is unchanged: the title is not part of it
    untitled = SectionChunker(size=64, document_title=False).chunk(Document.create(FILING, source="x.md"))
    assert all(u.title == "" and u.search_text == u.text for u in untitled)


@pytest.mark.parametrize("kind", ["memory", "lancedb"])
def test_a_query_naming_the_document_finds_its_chunks(kind: str, tmp_path: Path) -> None:
    store = _store(kind, tmp_path)
    # the two filings' results sections have the same text: only the issuer tells them apart
    where = {"section": "Results"}
    hits = store.search(query_text="Apple net sales services", k=3, mode="text", where=where)
    assert [h.source for h in hits[:2]] == ["2023_Q3_report.md", "2023_Q3_filing.md"]
    assert hits[0].score > hits[1].score
    assert "Apple" not in hits[0].text  # displayed text and span are the chunk's own
    assert FILING[hits[0].start : hits[0].end] == hits[0].text
    hits = store.search(query_text="Intel net sales services", k=3, mode="text", where=where)
    assert hits[0].source == "2023_Q3_filing.md"
    # words only the title holds find the document's chunks; words nowhere find nothing
    assert {h.source for h in store.search(query_text="minutes", k=5, mode="text")} == {"minutes.md"}
    assert store.search(query_text="zebra", k=5, mode="text") == []
    hybrid = store.search(EMB.embed_query("Apple sales"), "Apple sales", k=3, mode="hybrid", where=where)
    assert hybrid[0].source == "2023_Q3_report.md"


def test_new_collections_record_schema_version_2_with_a_fulltext_column(tmp_path: Path) -> None:
    import lancedb

    _store("lancedb", tmp_path)
    table = lancedb.connect(str(tmp_path / "db")).open_table("c")
    assert table.schema.metadata[b"sectionrag.schema"] == b"2"
    rows = {r["source"]: r for r in table.to_arrow().drop_columns(["vector"]).to_pylist()}
    row = rows["2023_Q3_report.md"]
    assert row["fulltext"] == f"2023 Q3 report (Apple Inc.)\n{row['text']}"
    assert {tuple(i.columns) for i in table.list_indices() if i.index_type == "FTS"} == {
        ("fulltext",),
        ("enrichment",),
    }


def _schema_1(embedder: str, dimension: int) -> pa.Schema:
    """The layout of collections written before the ``fulltext`` column (schema version 1)."""
    new = chunk_schema(embedder, dimension)
    old = pa.schema([f for f in new if f.name != "fulltext"])
    return old.with_metadata({**new.metadata, b"sectionrag.schema": b"1"})


def test_a_schema_1_collection_opens_searches_and_takes_writes_as_before(tmp_path: Path) -> None:
    import lancedb

    from sectionrag.pipeline import Pipeline

    lancedb.connect(str(tmp_path / "db")).create_table("c", schema=_schema_1(EMB.name, EMB.dimension))
    store = LanceDBStore(tmp_path / "db", collection="c")
    store.ensure_collection(EMB.name, EMB.dimension)  # accepted: same embedder, older layout
    chunks = _chunks()
    store.add(chunks, EMB.embed_documents([c.embed_text for c in chunks]))
    table = lancedb.connect(str(tmp_path / "db")).open_table("c")
    assert "fulltext" not in table.schema.names  # a write does not change the layout
    assert table.schema.metadata[b"sectionrag.schema"] == b"1"
    info = store.info()
    assert info is not None and info.chunks == len(chunks)
    # full-text search reads `text` alone there: the chunks' own words match, the titles do not
    hits = store.search(query_text="committee budget", k=3, mode="text")
    assert hits and hits[0].source == "minutes.md"
    assert store.search(query_text="minutes", k=5, mode="text") == []
    state = store.index_state()
    assert state is not None and state.fts
    # hybrid search through the pipeline works as ever
    pipe = Pipeline(chunker=SectionChunker(size=64, min_chunks=1), embedder=EMB, store=store)
    assert pipe.search("committee budget", k=2)[0].source == "minutes.md"
