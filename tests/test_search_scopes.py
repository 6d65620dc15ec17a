"""Scopes: many documents in one collection, search within one or some; collections side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sectionrag.cli import main
from sectionrag.errors import CollectionNotFoundError, EmbedderMismatchError
from sectionrag.stores import InMemoryStore, LanceDBStore
from sectionrag.testing import HashEmbedder
from sectionrag.types import Chunk, Document, Section

EMB = HashEmbedder(dimension=32)
TOPICS = ["refund policy", "shipping times", "account security", "warehouse safety", "gift cards"]


def documents(n: int = 20) -> list[list[Chunk]]:
    """``n`` documents of 5 chunks, each chunk about one of TOPICS, in sections named after them."""
    docs = []
    for d in range(n):
        parts = [f"Document {d} on {topic}: the {topic} rules of team {d}." for topic in TOPICS]
        text = "\n".join(parts)
        sections, chunks_spans, pos = [], [], 0
        for topic, part in zip(TOPICS, parts, strict=True):
            sections.append(Section(topic.title(), 1, (topic.title(),), pos, pos + len(part) + 1))
            chunks_spans.append((pos, pos + len(part)))
            pos += len(part) + 1
        doc = Document.create(text, source=f"teams/team{d:02d}/handbook.md", sections=sections)
        docs.append([doc.make_chunk(i, a, b, token_count=10) for i, (a, b) in enumerate(chunks_spans)])
    return docs


@pytest.fixture(params=["memory", "lancedb"])
def filled(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Any, list[list[Chunk]]]:
    store: Any = InMemoryStore() if request.param == "memory" else LanceDBStore(tmp_path / "db")
    store.ensure_collection(EMB.name, EMB.dimension)
    docs = documents()
    for chunks in docs:
        store.add(chunks, EMB.embed_documents([c.text for c in chunks]))
    return store, docs


@pytest.mark.parametrize("mode", ["vector", "text", "hybrid"])
def test_scope_to_one_document(filled: tuple[Any, list[list[Chunk]]], mode: str) -> None:
    store, docs = filled
    assert len(store.documents()) == 20
    q = EMB.embed_query("gift cards rules")
    for d in (0, 7, 19):
        doc_id = docs[d][0].doc_id
        hits = store.search(q, "gift cards", k=10, mode=mode, where={"doc_id": doc_id})
        assert hits and {h.doc_id for h in hits} == {doc_id}
        assert hits[0].chunk_id == docs[d][4].id  # the gift-card chunk of that very document
        by_path = store.search(q, "gift cards", k=10, mode=mode, where={"source": f"team{d:02d}/handbook.md"})
        assert [h.chunk_id for h in by_path] == [h.chunk_id for h in hits]


@pytest.mark.parametrize("mode", ["vector", "text", "hybrid"])
def test_scope_to_a_set_of_documents_and_a_section(filled: tuple[Any, list[list[Chunk]]], mode: str) -> None:
    store, docs = filled
    wanted = {docs[d][0].doc_id for d in (2, 3, 11)}
    q = EMB.embed_query("shipping times")
    hits = store.search(q, "shipping times", k=50, mode=mode, where={"doc_id": sorted(wanted)})
    assert {h.doc_id for h in hits} == wanted
    hits = store.search(
        q, "shipping times", k=50, mode=mode, where={"doc_id": sorted(wanted), "section": "Shipping Times"}
    )
    assert {h.chunk_id for h in hits} == {docs[d][1].id for d in (2, 3, 11)}
    # every handbook has the same file name: the name alone selects them all
    assert len(store.search(q, "shipping", k=200, mode=mode, where={"source": "handbook.md"})) >= 20


def test_unscoped_search_spans_documents(filled: tuple[Any, list[list[Chunk]]]) -> None:
    store, _ = filled
    hits = store.search(EMB.embed_query("warehouse safety rules"), k=20)
    assert len({h.doc_id for h in hits}) > 1


def test_collections_in_one_database_are_separate(tmp_path: Path) -> None:
    docs = documents(4)
    a = LanceDBStore(tmp_path / "db", collection="a")
    b = LanceDBStore(tmp_path / "db", collection="b")
    a.ensure_collection(EMB.name, EMB.dimension)
    other = HashEmbedder(dimension=48, name="hash48")
    b.ensure_collection(other.name, other.dimension)  # each collection records its own embedder
    for chunks in docs[:2]:
        a.add(chunks, EMB.embed_documents([c.text for c in chunks]))
    for chunks in docs[2:]:
        b.add(chunks, other.embed_documents([c.text for c in chunks]))
    assert a.collections() == b.collections() == ["a", "b"]
    in_a = {h.doc_id for h in a.search(EMB.embed_query("refund"), "refund", k=50, mode="hybrid")}
    in_b = {h.doc_id for h in b.search(other.embed_query("refund"), "refund", k=50, mode="hybrid")}
    assert in_a == {docs[0][0].doc_id, docs[1][0].doc_id}
    assert in_b == {docs[2][0].doc_id, docs[3][0].doc_id}
    assert a.search(query_text="refund", k=50, mode="text", where={"doc_id": docs[2][0].doc_id}) == []
    with pytest.raises(EmbedderMismatchError):
        b.search(EMB.embed_query("refund"), k=3)
    assert a.drop()
    assert b.collections() == ["b"] and len(b.search(query_text="refund", k=50, mode="text")) == 2


def test_missing_and_empty_collections(tmp_path: Path) -> None:
    LanceDBStore(tmp_path / "db", collection="full").ensure_collection(EMB.name, EMB.dimension)
    missing = LanceDBStore(tmp_path / "db", collection="nope")
    for mode in ("vector", "text", "hybrid"):
        with pytest.raises(
            CollectionNotFoundError, match=r"'nope' does not exist.*existing collections: full"
        ):
            missing.search(EMB.embed_query("q"), "q", k=3, mode=mode)  # type: ignore[arg-type]
    with pytest.raises(CollectionNotFoundError, match="does not exist yet"):
        InMemoryStore().search(query_text="q", mode="text")
    empty = LanceDBStore(tmp_path / "db", collection="full")
    assert empty.search(EMB.embed_query("q"), "q", k=3, mode="hybrid") == []  # exists, holds nothing


def test_cli_reports_missing_and_empty_collections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "db")
    LanceDBStore(db, collection="empty").ensure_collection(EMB.name, EMB.dimension)
    assert main(["search", "refund", "--db", db, "--collection", "gone", "--mode", "text"]) == 1
    assert "'gone' does not exist" in capsys.readouterr().err
    assert main(["search", "refund", "--db", db, "--collection", "empty", "--mode", "text"]) == 1
    err = capsys.readouterr().err
    assert "'empty'" in err and "is empty" in err and "sectionrag index" in err and len(err.splitlines()) == 1


def test_cli_text_search_with_sources_and_fusion_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "db")
    store = LanceDBStore(db)
    store.ensure_collection(EMB.name, EMB.dimension)
    docs = documents(3)
    for chunks in docs:
        store.add(chunks, EMB.embed_documents([c.text for c in chunks]))
    code = main(
        [
            "search",
            "gift cards",
            "--db",
            db,
            "--mode",
            "text",
            "--json",
            "--source",
            "teams/team01/handbook.md",
            "--section",
            "Gift Cards",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and [r["doc_id"] for r in out["results"]] == [docs[1][0].doc_id]
    assert main(["search", "x", "--db", db, "--mode", "text", "--weights", "1,0"]) == 2
    assert "hybrid only" in capsys.readouterr().err
    assert main(["search", "x", "--db", db, "--mode", "hybrid", "--weights", "abc"]) == 2
    assert "two numbers" in capsys.readouterr().err
