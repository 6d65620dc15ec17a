"""ExtractiveEnricher: offline summaries, key phrases and metadata."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import sectionrag
from sectionrag.enrich import ExtractiveEnricher
from sectionrag.errors import ConfigError
from sectionrag.pipeline import Pipeline
from sectionrag.protocols import Enricher
from sectionrag.testing import HashEmbedder, InMemoryStore
from sectionrag.tokenizers import WordTokenizer
from sectionrag.types import Chunk, Document

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "examples" / "data" / "northwind_annual_report_2025.md"

PASSAGE = (
    "Liquidity\n"
    "At December 31, 2025 we held cash and marketable securities of $1.9 billion. "
    "Cash provided by operating activities was $780 million in fiscal 2025. "
    "We repurchased $250 million of common stock during the year under the program authorised by the "
    "board in February 2025. We believe existing cash and cash from operations will be sufficient to "
    "meet our cash needs for at least the next 12 months."
)


def one_chunk(text: str = PASSAGE, **meta: object) -> tuple[Document, Chunk]:
    doc = Document.create(text, source="report.md", metadata=meta)
    return doc, doc.make_chunk(0, 0, len(text), token_count=WordTokenizer().count_tokens(text))


def section_chunks() -> tuple[Document, list[Chunk]]:
    doc = sectionrag.parse(REPORT)
    return doc, sectionrag.chunker("section", tokenizer=HashEmbedder()).chunk(doc)


def test_one_chunk_fields() -> None:
    doc, chunk = one_chunk(company="Northwind")
    out = ExtractiveEnricher().enrich([chunk], doc)
    assert isinstance(ExtractiveEnricher(), Enricher)
    md = out[0].metadata
    assert md["summary"] in " ".join(PASSAGE.split())  # a sentence of the chunk, never invented
    assert md["summary"].endswith(".") and "Liquidity" not in md["summary"]  # headings are not candidates
    assert len(md["keywords"]) == 5 and all(k.lower() in PASSAGE.lower() for k in md["keywords"])
    assert md["fiscal_periods"] == ["FY2025"]
    assert md["dates"] == ["2025-12-31", "2025-02"]
    assert [a["value"] for a in md["amounts"]] == [1.9e9, 7.8e8, 2.5e8]
    assert md["enriched_by"] == "extractive/1"
    assert md["company"] == "Northwind"  # document metadata kept
    assert out[0].text == chunk.text and out[0].id == chunk.id and out[0].context == chunk.context


def test_deterministic_and_summaries_are_sentences_of_their_chunk() -> None:
    doc, chunks = section_chunks()
    first = ExtractiveEnricher(summary_sentences=2).enrich(chunks, doc)
    second = ExtractiveEnricher(summary_sentences=2).enrich(chunks, doc)
    assert [dict(c.metadata) for c in first] == [dict(c.metadata) for c in second]
    for c in first:
        flat = " ".join(c.text.split())
        summary = c.metadata["summary"]
        for part in summary.rstrip("\u2026").split(". "):
            assert part.rstrip(".") in flat
        assert len(summary) <= 300
        assert c.text == doc.text[c.start : c.end]
    assert any(c.metadata["entities"] for c in first)
    revenue = [c for c in first if "$4.2 billion" in c.text]
    assert revenue and revenue[0].metadata["fiscal_periods"] == ["FY2025"]


def test_fields_min_tokens_and_embed_summary() -> None:
    doc, chunk = one_chunk()
    only = ExtractiveEnricher(fields=("metadata",)).enrich([chunk], doc)[0].metadata
    assert "summary" not in only and "keywords" not in only and only["years"] == [2025]
    skipped = ExtractiveEnricher(min_tokens=10_000).enrich([chunk], doc)[0].metadata
    assert "summary" not in skipped and skipped["amounts"]
    embedded = ExtractiveEnricher(embed_summary=True).enrich([chunk], doc)[0]
    assert embedded.embed_text == embedded.metadata["summary"] + "\n" + chunk.text
    assert embedded.token_count == chunk.token_count + WordTokenizer().count_tokens(
        embedded.metadata["summary"]
    )
    recounted = ExtractiveEnricher(embed_summary=True, tokenizer=WordTokenizer()).enrich([chunk], doc)[0]
    assert recounted.token_count == WordTokenizer().count_tokens(recounted.embed_text)


def test_embedding_centrality() -> None:
    doc, chunks = section_chunks()
    emb = HashEmbedder()
    out = ExtractiveEnricher(embedder=emb).enrich(chunks, doc)
    assert emb.calls == 1  # one batch for the document
    assert all(c.metadata["summary"] == "" or c.metadata["summary"].rstrip("\u2026") for c in out)


def test_long_sentence_is_clipped_at_a_word() -> None:
    text = "This sentence " + "goes on and on " * 40 + "and ends."
    doc, chunk = one_chunk(text)
    summary = ExtractiveEnricher(max_summary_chars=80).enrich([chunk], doc)[0].metadata["summary"]
    assert (
        summary.endswith("\u2026") and len(summary) <= 80 and " ".join(text.split()).startswith(summary[:-1])
    )


def test_chunk_without_sentences() -> None:
    doc, chunk = one_chunk("| a | b |\n|---|---|\n| 1 | 2 |")
    md = ExtractiveEnricher().enrich([chunk], doc)[0].metadata
    assert md["summary"] == ""
    assert ExtractiveEnricher().enrich([], doc) == []


def test_bad_arguments() -> None:
    with pytest.raises(ConfigError, match="questions"):
        ExtractiveEnricher(fields=("questions",))
    with pytest.raises(ConfigError):
        ExtractiveEnricher(fields="summary")
    with pytest.raises(ConfigError, match="summary_sentences"):
        ExtractiveEnricher(summary_sentences=0)
    with pytest.raises(TypeError):
        ExtractiveEnricher().enrich(["x"], None)  # type: ignore[list-item]


def test_pipeline_with_extractive_enricher() -> None:
    doc, _ = section_chunks()
    store = InMemoryStore()
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", tokenizer=HashEmbedder()),
        embedder=HashEmbedder(),
        store=store,
        enricher=ExtractiveEnricher(),
    )
    report = pipe.ingest([REPORT])
    assert report.ok and report.seconds["enrich"] >= 0
    assert all(c.metadata["enriched_by"] == "extractive/1" for c in store.chunks())
    hit = pipe.search("total revenue fiscal 2025", k=1)[0]
    assert "summary" in hit.metadata and "fiscal_periods" in hit.metadata
    assert doc.id == store.chunks()[0].doc_id


def test_import_is_light() -> None:
    code = (
        "import sys, sectionrag.enrich; "
        "print(','.join(m for m in ('numpy', 'torch', 'lancedb', 'anthropic') if m in sys.modules))"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
