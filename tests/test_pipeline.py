from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import sectionrag
from sectionrag import Document, Pipeline
from sectionrag._rerank import sentence_rerank
from sectionrag.errors import ConfigError
from sectionrag.pipeline import OVERLAP_FETCH, without_overlaps
from sectionrag.testing import HashEmbedder, InMemoryStore
from sectionrag.types import SearchResult

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


# -- wiring: the embedder's tokenizer ---------------------------------------------------


class WideEmbedder(HashEmbedder):
    """Counts every non-space character as a token, so its counts differ from words at once."""

    def count_tokens(self, text: str) -> int:
        return len(self.token_offsets(text))

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        return [self.count_tokens(t) for t in texts]

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        return [(i, i + 1) for i, ch in enumerate(text) if not ch.isspace()]


def test_a_plain_pipeline_counts_chunk_tokens_with_the_embedders_tokenizer() -> None:
    emb = WideEmbedder()
    given = sectionrag.chunker("paragraph", size=40)
    pipe = Pipeline(chunker=given, embedder=emb, store=InMemoryStore())
    assert pipe.chunker.tokenizer is emb  # type: ignore[attr-defined]
    assert type(given.tokenizer).__name__ == "WordTokenizer"  # type: ignore[attr-defined]  # not changed
    doc = Document.create(POLICY * 3, source="p.md")
    chunks = pipe.chunker.chunk(doc)
    assert all(c.token_count == emb.count_tokens(c.embed_text) <= 40 for c in chunks)
    assert len(chunks) > len(given.chunk(doc))  # characters fill 40 faster than words


def test_a_chunker_built_with_a_tokenizer_keeps_it() -> None:
    own = HashEmbedder()
    chunker = sectionrag.chunker("sentence", size=64, tokenizer=own)
    pipe = Pipeline(chunker=chunker, embedder=WideEmbedder(), store=InMemoryStore())
    assert pipe.chunker is chunker and chunker.tokenizer is own  # type: ignore[attr-defined]


def test_the_default_chunker_and_an_inner_chunker_get_the_embedders_tokenizer() -> None:
    emb = WideEmbedder()
    pipe = Pipeline(embedder=emb, store=InMemoryStore())
    assert pipe.chunker.config()["strategy"] == "section"  # type: ignore[attr-defined]
    assert pipe.chunker.tokenizer is emb and pipe.chunker.inner.tokenizer is emb  # type: ignore[attr-defined]
    inner = sectionrag.chunker("paragraph")
    section = Pipeline(
        chunker=sectionrag.chunker("section", inner=inner), embedder=emb, store=InMemoryStore()
    ).chunker
    assert section.inner.tokenizer is emb and section.inner is not inner  # type: ignore[attr-defined]


def test_the_enricher_counts_with_the_embedders_tokenizer_too() -> None:
    from sectionrag.enrich import ExtractiveEnricher

    emb = WideEmbedder()
    given = ExtractiveEnricher(embed_summary=True)
    pipe = Pipeline(
        chunker=sectionrag.chunker("paragraph"), embedder=emb, store=InMemoryStore(), enricher=given
    )
    assert pipe.enricher.tokenizer is emb and given.tokenizer is None  # type: ignore[union-attr]
    pipe.ingest([Document.create(REPORT, source="r.md")])
    hit = pipe.search("revenue", k=1, mode="text")[0]
    assert hit.metadata["summary"]


def test_the_fingerprint_records_the_bound_tokenizer(tmp_path: Path) -> None:
    _write(tmp_path / "docs")
    store = InMemoryStore()
    plain = Pipeline(chunker=sectionrag.chunker("paragraph"), embedder=HashEmbedder(), store=store)
    plain.ingest([tmp_path / "docs"])
    emb = HashEmbedder()
    explicit = Pipeline(chunker=sectionrag.chunker("paragraph", tokenizer=emb), embedder=emb, store=store)
    assert len(explicit.ingest([tmp_path / "docs"]).unchanged) == 2  # same configuration, nothing redone


# -- one search path ---------------------------------------------------------------------


class RecordingStore(InMemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[dict[str, object]] = []

    def search(self, *args: object, **kwargs: object):  # type: ignore[no-untyped-def,override]
        self.calls.append(kwargs)
        return super().search(*args, **kwargs)  # type: ignore[arg-type]


def test_search_passes_mode_fusion_weights_where_and_k_to_the_store() -> None:
    store = RecordingStore()
    pipe = Pipeline(chunker=sectionrag.chunker("paragraph"), embedder=HashEmbedder(), store=store)
    pipe.ingest([Document.create(POLICY, source="p.md")])
    hits = pipe.search("return", k=1, where={"source": "p.md"}, mode="hybrid", fusion="rrf", weights=(1, 2))
    assert len(hits) == 1
    call = store.calls[-1]
    assert call["fusion"] == "rrf" and call["weights"] == (1, 2) and call["k"] == 1 * OVERLAP_FETCH
    assert call["where"] == {"source": "p.md"} and call["mode"] == "hybrid"
    pipe.search("return", k=1, allow_overlap=True)
    assert store.calls[-1]["k"] == 1  # nothing to drop: exactly k
    # re-ranking by sentence windows (opt-in) asks the store for the best 10
    pipe.search("return", k=1, mode="hybrid", rerank=True)
    assert store.calls[-1]["k"] == 10 * OVERLAP_FETCH  # the best 10 that do not overlap
    pipe.search("return", k=1, mode="hybrid", rerank=True, allow_overlap=True)
    assert store.calls[-1]["k"] == 10
    pipe.search("return", mode="text")
    assert "fusion" not in store.calls[-1] and store.calls[-1]["query_vector"] is None
    with pytest.raises(ConfigError, match="hybrid only"):
        pipe.search("return", mode="vector", fusion="rrf")
    with pytest.raises(ConfigError, match="k must be at least 1"):
        pipe.search("return", k=0)


def test_a_query_vector_given_is_not_embedded_again() -> None:
    class Counting(HashEmbedder):
        queries = 0

        def embed_query(self, text: str):  # type: ignore[no-untyped-def]
            Counting.queries += 1
            return super().embed_query(text)

    emb = Counting()
    pipe = Pipeline(chunker=sectionrag.chunker("paragraph"), embedder=emb, store=InMemoryStore())
    pipe.ingest([Document.create(POLICY, source="p.md")])
    vector = emb.embed_query("return a product")
    assert pipe.search("return a product", query_vector=vector) == pipe.search("return a product")
    assert Counting.queries == 2


def test_stages_pickle_for_a_worker_process(tmp_path: Path) -> None:
    import pickle

    from sectionrag.ingest.stages import Stages
    from sectionrag.parsers import AutoParser
    from sectionrag.stores import LanceDBStore

    note = tmp_path / "n.md"
    note.write_text("# N\n\ntext\n", encoding="utf-8")
    store = LanceDBStore(tmp_path / "db")  # not connected yet
    stages = Pipeline(embedder=HashEmbedder(), store=store, parser=AutoParser(use_outline=False)).stages()
    stages.parser.parse(note)  # builds (and caches) the Markdown parser
    again = pickle.loads(pickle.dumps(stages))
    assert isinstance(again, Stages) and again.parser.options == {"use_outline": False}  # type: ignore[attr-defined]
    assert again.parser.parse(note).sections[0].title == "N"


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
    # with rerank=True the best 10 hybrid results are re-ranked by their sentence windows
    pool = store.search(vector, query, k=10, mode="hybrid")
    assert pipe.search(query, k=3, rerank=True) == sentence_rerank(pool, vector, pipe.embedder, 3)
    assert [h.chunk_id for h in pipe.search(query, k=3, mode="vector")] == [
        h.chunk_id for h in store.search(vector, k=3)
    ]


def _hit(rank: int, doc: str, start: int, end: int) -> SearchResult:
    return SearchResult(rank, 1.0 / rank, "x" * (end - start), doc, doc, (), None, None, start, end)


def test_without_overlaps_drops_a_result_inside_or_across_a_better_one() -> None:
    hits = [
        _hit(1, "a", 100, 200),
        _hit(2, "a", 150, 180),
        _hit(3, "b", 150, 180),
        _hit(4, "a", 190, 260),
        _hit(5, "a", 200, 300),
        _hit(6, "a", 0, 100),
    ]
    kept = without_overlaps(hits, 10)
    assert [(h.doc_id, h.start, h.rank) for h in kept] == [
        ("a", 100, 1),
        ("b", 150, 2),
        ("a", 200, 3),
        ("a", 0, 4),
    ]
    assert [h.score for h in kept] == [1.0, 1 / 3, 1 / 5, 1 / 6]  # scores kept, ranks renumbered
    assert len(without_overlaps(hits, 2)) == 2


def test_fine_chunks_answer_a_narrow_query_without_repeating_a_passage() -> None:
    """With fine chunks beside the regular ones, a search returns each passage once."""
    paras = [f"Paragraph {i} is about topic{i} and nothing else. " * 6 for i in range(12)]
    text = "# Report\n\n" + "\n\n".join(paras) + "\n"
    doc = Document.create(text, source="r.md")
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", size=256, fine=0.5, inner="sentence"),
        embedder=HashEmbedder(),
        store=InMemoryStore(),
    )
    pipe.ingest([doc])
    chunks = pipe.chunker.chunk(doc)
    assert any(c.fine for c in chunks) and any(not c.fine for c in chunks)
    for mode in ("vector", "text", "hybrid"):
        hits = pipe.search("topic7", k=5, mode=mode)
        spans = [(h.start, h.end) for h in hits]
        assert all(not (a < d and c < b) for i, (a, b) in enumerate(spans) for c, d in spans[i + 1 :]), mode
        assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    both = pipe.search("topic7", k=5, mode="text", allow_overlap=True)
    assert any(
        a < d and c < b
        for i, (a, b) in enumerate([(h.start, h.end) for h in both])
        for c, d in [(h.start, h.end) for h in both][i + 1 :]
    )
    with pytest.raises(TypeError, match="allow_overlap must be a bool"):
        pipe.search("topic7", allow_overlap="yes")  # type: ignore[arg-type]
