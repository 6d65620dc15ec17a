from __future__ import annotations

from pathlib import Path

import pytest

import sectionrag
from sectionrag import Document, Pipeline
from sectionrag.errors import ConfigError
from sectionrag.testing import HashEmbedder, InMemoryStore

POLICY = (
    "# Refund Policy\n\nCustomers can return products within 30 days with a receipt.\n\n"
    "# Shipping Policy\n\nOrders are shipped within 3 business days.\n"
)
REPORT = (
    "# Results\n\nTotal revenue for fiscal 2025 was $4.2 billion, up 12% on the prior year.\n\n"
    "# Risks\n\nAn outage at our cloud provider could interrupt service to customers.\n"
)


def _pipe(embedder: HashEmbedder | None = None, store: InMemoryStore | None = None) -> Pipeline:
    return Pipeline(
        chunker=sectionrag.chunker("paragraph", size=64),
        embedder=embedder or HashEmbedder(),
        store=store or InMemoryStore(),
    )


def _write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.md").write_text(POLICY, encoding="utf-8")
    (folder / "report.md").write_text(REPORT, encoding="utf-8")


def test_ingest_then_search_finds_the_right_section(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    pipe = _pipe()
    report = pipe.ingest([tmp_path / "docs"])
    assert len(report.added) == 2 and report.ok and report.chunks >= 4
    hits = pipe.search("return products receipt", k=2)
    assert hits[0].source.endswith("policy.md")
    assert hits[0].section_path == ("Refund Policy",)
    assert hits[0].rank == 1 and hits[0].score >= hits[1].score
    doc = sectionrag.parse(tmp_path / "docs" / "policy.md")
    assert doc.text[hits[0].start : hits[0].end] == hits[0].text


def test_reingest_unchanged_embeds_nothing_and_edits_replace(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    emb = HashEmbedder()
    store = InMemoryStore()
    pipe = _pipe(emb, store)
    pipe.ingest([tmp_path / "docs"])
    embedded = emb.texts_embedded
    again = pipe.ingest([tmp_path / "docs"])
    assert len(again.unchanged) == 2 and not again.added and emb.texts_embedded == embedded

    (tmp_path / "docs" / "report.md").write_text(REPORT.replace("$4.2 billion", "$5.0 billion"), "utf-8")
    edited = pipe.ingest([tmp_path / "docs"])
    assert [Path(s).name for s in edited.updated] == ["report.md"] and len(edited.unchanged) == 1
    texts = " ".join(c.text for c in store.chunks())
    assert "$5.0 billion" in texts and "$4.2 billion" not in texts
    assert len(store.documents()) == 2


def test_sync_deletes_documents_whose_file_is_gone(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    store = InMemoryStore()
    pipe = _pipe(store=store)
    pipe.ingest([tmp_path / "docs"])
    (tmp_path / "docs" / "report.md").unlink()
    report = pipe.ingest([tmp_path / "docs"], sync=True)
    assert [Path(s).name for s in report.deleted] == ["report.md"]
    assert [Path(d.source).name for d in store.documents()] == ["policy.md"]


def test_bad_files_are_reported_and_the_rest_is_indexed(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    (tmp_path / "docs" / "empty.md").write_text("", encoding="utf-8")
    (tmp_path / "docs" / "broken.pdf").write_bytes(b"%PDF-1.7\nnot really a pdf")
    pipe = _pipe()
    report = pipe.ingest([tmp_path / "docs"])
    failed = {Path(f.source).name for f in report.failed}
    assert failed == {"empty.md", "broken.pdf"}
    assert all(f.error for f in report.failed)
    assert len(report.added) == 2 and not report.ok
    assert report.to_dict()["failed"][0].keys() == {"source", "error"}


def test_include_exclude_globs(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    report = _pipe().ingest([tmp_path / "docs"], include=["*.md"], exclude=["report*"])
    assert [Path(s).name for s in report.added] == ["policy.md"]


def test_documents_can_be_ingested_directly() -> None:
    pipe = _pipe()
    from sectionrag.parsers.markdown import MarkdownParser

    doc = MarkdownParser().parse(POLICY.encode(), name="inline")
    plain = Document.create("Just one line of text about invoices.", source="plain")
    report = pipe.ingest([doc, plain])
    assert report.added == ["inline", "plain"]
    assert pipe.search("shipped business days", k=1)[0].section_path == ("Shipping Policy",)


def test_wrong_stage_types_and_bad_arguments() -> None:
    with pytest.raises(TypeError, match="embedder must implement"):
        Pipeline(chunker=sectionrag.chunker("paragraph"), embedder=object(), store=InMemoryStore())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="no such file"):
        _pipe().ingest(["/definitely/not/here"])
    with pytest.raises(ConfigError, match="search mode"):
        _pipe().search("x", mode="fuzzy")  # type: ignore[arg-type]


def test_search_fuses_vector_and_text_by_default(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    store = InMemoryStore()
    pipe = _pipe(store=store)
    pipe.ingest([tmp_path / "docs"])
    query = "return products receipt"
    vector = pipe.embedder.embed_query(query)
    default = pipe.search(query, k=3)
    hybrid = store.search(vector, query, k=3, mode="hybrid")
    assert [(h.chunk_id, h.score) for h in default] == [(h.chunk_id, h.score) for h in hybrid]
    assert [h.chunk_id for h in pipe.search(query, k=3, mode="vector")] == [
        h.chunk_id for h in store.search(vector, k=3)
    ]
