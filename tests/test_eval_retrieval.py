"""Retrieval metrics, the query loader, the runner, and the bundled evaluation set."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sectionrag.errors import ConfigError
from sectionrag.eval.retrieval import (
    EvalQuery,
    EvalReport,
    Reference,
    Retrieved,
    embed_queries,
    evaluate,
    load_queries,
    parse_query,
    score_query,
    source_matches,
)
from sectionrag.protocols import CollectionInfo, DocumentInfo
from sectionrag.types import Chunk, SearchResult

EVAL_DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "eval_data"
SPAN_METRICS = ("span_recall", "span_precision", "span_iou")


def ret(source: str, start: int, end: int, score: float = 1.0, doc_id: str = "") -> Retrieved:
    return Retrieved(source=source, doc_id=doc_id or f"id-{source}", start=start, end=end, score=score)


def ref(source: str, start: int, end: int) -> Reference:
    return Reference(source=source, start=start, end=end)


# -- hand-computed cases ------------------------------------------------------------------


def test_perfect_single_reference() -> None:
    m = score_query([ref("a.md", 10, 20)], [ret("a.md", 10, 20)], k=5)
    assert m.as_dict() == {
        "recall": 1.0,
        "hit": 1.0,
        "mrr": 1.0,
        "ndcg": 1.0,
        "span_recall": 1.0,
        "span_precision": 1.0,
        "span_iou": 1.0,
    }


def test_second_rank_and_partial_span() -> None:
    refs = [ref("a.md", 100, 200)]
    got = [ret("b.md", 100, 200), ret("a.md", 150, 250)]
    m = score_query(refs, got, k=5)
    assert m.hit == 1.0 and m.recall == 1.0
    assert m.mrr == 0.5
    assert m.ndcg == pytest.approx(1 / math.log2(3))
    # relevant 100 chars, 50 of them retrieved; retrieved 200 chars (two documents)
    assert m.span_recall == pytest.approx(0.5)
    assert m.span_precision == pytest.approx(50 / 200)
    assert m.span_iou == pytest.approx(50 / 250)


def test_recall_counts_references_and_k_cuts() -> None:
    refs = [ref("a.md", 0, 10), ref("a.md", 100, 110)]
    got = [ret("a.md", 0, 50), ret("a.md", 90, 120)]
    assert score_query(refs, got, k=2).recall == 1.0
    assert score_query(refs, got, k=1).recall == 0.5
    assert score_query(refs, got, k=1).ndcg == 1.0  # the ideal ranking is cut at k too
    assert score_query(refs, got[1:], k=2).ndcg == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_touching_spans_do_not_overlap() -> None:
    m = score_query([ref("a.md", 10, 20)], [ret("a.md", 0, 10), ret("a.md", 20, 30)], k=5)
    assert m.hit == 0.0 and m.span_recall == 0.0 and m.span_iou == 0.0


def test_source_matching_by_file_name_path_suffix_and_doc_id() -> None:
    assert source_matches("report.md", "data/reports/report.md")
    assert source_matches("reports/report.md", "data/reports/report.md")
    assert source_matches("report.md", "C:\\docs\\report.md")
    assert source_matches("abc123", "x.md", "abc123")
    assert not source_matches("report.md", "data/old_report.md")
    assert not source_matches("a/report.md", "b/report.md")
    m = score_query([ref("report.md", 0, 10)], [ret("corpus/report.md", 0, 10)], k=1)
    assert m.span_iou == 1.0


def test_page_reference_matches_by_page_overlap() -> None:
    page_ref = Reference(source="r.pdf", page=3)
    on_page = Retrieved("docs/r.pdf", "d", 500, 900, 0.9, page_start=2, page_end=3)
    off_page = Retrieved("docs/r.pdf", "d", 0, 100, 0.8, page_start=1, page_end=1)
    no_pages = Retrieved("docs/r.pdf", "d", 0, 100, 0.7)
    m = score_query([page_ref], [off_page, no_pages, on_page], k=3)
    assert m.hit == 1.0 and m.mrr == pytest.approx(1 / 3)
    assert m.span_recall is None and m.span_precision is None and m.span_iou is None


def test_overlapping_references_form_one_passage_for_ndcg() -> None:
    refs = [ref("a.md", 0, 100), ref("a.md", 50, 150)]
    m = score_query(refs, [ret("a.md", 0, 150)], k=5)
    assert m.ndcg == 1.0 and m.recall == 1.0 and m.span_iou == 1.0


def test_k_and_references_must_be_valid() -> None:
    with pytest.raises(ConfigError, match="k must be"):
        score_query([ref("a", 0, 1)], [], k=0)
    with pytest.raises(ConfigError, match="at least one reference"):
        score_query([], [], k=1)
    m = score_query([ref("a", 0, 1)], [], k=3)
    assert m.as_dict() == dict.fromkeys(m.as_dict(), 0.0)


# -- properties ----------------------------------------------------------------------------

SOURCES = ("a.md", "b.md", "dir/c.txt")


@st.composite
def spans(draw: Any, limit: int = 400) -> tuple[str, int, int]:
    source = draw(st.sampled_from(SOURCES))
    start = draw(st.integers(0, limit - 1))
    end = draw(st.integers(start + 1, limit))
    return source, start, end


references_st = st.lists(spans(), min_size=1, max_size=5).map(lambda xs: [ref(*x) for x in xs])
retrieved_st = st.lists(spans(), max_size=8).map(
    lambda xs: [ret(s, a, b, score=1.0 - i / 10) for i, (s, a, b) in enumerate(xs)]
)


@settings(max_examples=300, deadline=None)
@given(references_st, retrieved_st, st.integers(1, 10))
def test_all_metrics_lie_in_unit_interval(refs: list[Reference], got: list[Retrieved], k: int) -> None:
    for name, value in score_query(refs, got, k).as_dict().items():
        assert value is not None, name
        assert 0.0 <= value <= 1.0 + 1e-12, (name, value)


@settings(max_examples=200, deadline=None)
@given(references_st)
def test_retrieving_exactly_the_reference_passages_scores_one(refs: list[Reference]) -> None:
    # one result per passage: the union of the references that overlap or touch
    got = []
    for source in sorted({r.source for r in refs}):
        for start, end in sorted((r.start or 0, r.end or 0) for r in refs if r.source == source):
            if got and got[-1].source == source and start <= got[-1].end:
                got[-1] = ret(source, got[-1].start, max(end, got[-1].end))
            else:
                got.append(ret(source, start, end))
    m = score_query(refs, got, k=len(got))
    assert m.recall == 1.0 and m.hit == 1.0 and m.mrr == 1.0
    assert m.span_recall == pytest.approx(1.0)
    assert m.span_precision == pytest.approx(1.0)
    assert m.span_iou == pytest.approx(1.0)
    assert m.ndcg == pytest.approx(1.0)


@settings(max_examples=200, deadline=None)
@given(references_st, retrieved_st, st.integers(1, 10))
def test_results_in_other_documents_score_zero(refs: list[Reference], got: list[Retrieved], k: int) -> None:
    elsewhere = [ret("elsewhere/zzz.md", r.start, r.end, doc_id="zzz") for r in got]
    m = score_query(refs, elsewhere, k)
    assert m.as_dict() == dict.fromkeys(m.as_dict(), 0.0)


@settings(max_examples=200, deadline=None)
@given(references_st, st.integers(1, 10))
def test_disjoint_spans_in_the_same_document_score_zero(refs: list[Reference], k: int) -> None:
    far = [ret(r.source, 1000 + i * 10, 1005 + i * 10) for i, r in enumerate(refs)]
    m = score_query(refs, far, k)
    assert m.recall == m.hit == m.mrr == m.ndcg == 0.0
    assert m.span_recall == m.span_precision == m.span_iou == 0.0


@settings(max_examples=200, deadline=None)
@given(references_st, retrieved_st, st.integers(1, 3))
def test_duplicates_do_not_inflate(refs: list[Reference], got: list[Retrieved], copies: int) -> None:
    repeated = got + [r for r in got for _ in range(copies)]
    k = max(len(repeated), 1)
    base = score_query(refs, got, k).as_dict()
    again = score_query(refs, repeated, k).as_dict()
    for name in base:
        assert again[name] == pytest.approx(base[name]), name


@settings(max_examples=200, deadline=None)
@given(references_st, retrieved_st)
def test_more_results_never_lower_recall(refs: list[Reference], got: list[Retrieved]) -> None:
    for k in range(1, len(got) + 1):
        assert score_query(refs, got, k).recall <= score_query(refs, got, k + 1).recall
        assert score_query(refs, got, k).span_recall <= score_query(refs, got, k + 1).span_recall  # type: ignore[operator]


# -- loading ---------------------------------------------------------------------------------


def write_lines(tmp_path: Path, lines: Sequence[str]) -> Path:
    p = tmp_path / "q.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_load_queries_reads_spans_pages_and_skips_blank_lines(tmp_path: Path) -> None:
    p = write_lines(
        tmp_path,
        [
            json.dumps({"id": "q1", "query": "a?", "references": [{"source": "a.md", "start": 0, "end": 5}]}),
            "",
            json.dumps({"query": "b?", "references": [{"source": "b.pdf", "page": 2}], "extra": 1}),
        ],
    )
    qs = load_queries(p)
    assert [q.id for q in qs] == ["q1", None]
    assert qs[0].references == (Reference("a.md", 0, 5),)
    assert qs[1].references == (Reference("b.pdf", page=2),)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"q\.jsonl:2: invalid JSON"),
        ("[1, 2]", r"q\.jsonl:2: expected a JSON object, got list"),
        ('{"references": []}', r"q\.jsonl:2: missing 'query'"),
        ('{"query": 3, "references": []}', r"q\.jsonl:2: 'query' must be a string"),
        (
            '{"query": "  ", "references": [{"source": "a", "page": 1}]}',
            r"q\.jsonl:2: 'query' must be a non-empty",
        ),
        ('{"query": "q"}', r"q\.jsonl:2: missing 'references'"),
        ('{"query": "q", "references": []}', r"q\.jsonl:2: 'references' must list at least one"),
        ('{"query": "q", "references": {"source": "a"}}', r"q\.jsonl:2: 'references' must be a list"),
        ('{"query": "q", "references": ["a.md"]}', r"q\.jsonl:2: references\[0\] must be an object"),
        (
            '{"query": "q", "references": [{"start": 0, "end": 3}]}',
            r"references\[0\]: a reference needs a non-empty 'source'",
        ),
        ('{"query": "q", "references": [{"source": "a", "start": 0}]}', r"both 'start' and 'end'"),
        ('{"query": "q", "references": [{"source": "a", "start": 5, "end": 5}]}', r"0 <= start < end"),
        ('{"query": "q", "references": [{"source": "a", "start": "0", "end": 5}]}', r"as integers"),
        ('{"query": "q", "references": [{"source": "a", "start": true, "end": 5}]}', r"as integers"),
        (
            '{"query": "q", "references": [{"source": "a"}]}',
            r"'start' and 'end' \(character offsets\) or 'page'",
        ),
        ('{"query": "q", "references": [{"source": "a", "page": 0}]}', r"'page' must be an integer >= 1"),
        ('{"query": "q", "references": [{"source": "a", "page": 1, "start": 0, "end": 2}]}', r"not both"),
    ],
)
def test_malformed_lines_name_the_line_and_the_problem(tmp_path: Path, line: str, message: str) -> None:
    good = json.dumps({"query": "ok", "references": [{"source": "a.md", "start": 0, "end": 1}]})
    p = write_lines(tmp_path, [good, line])
    with pytest.raises(ConfigError, match=message):
        load_queries(p)


def test_missing_and_empty_query_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such queries file"):
        load_queries(tmp_path / "nope.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no queries found"):
        load_queries(tmp_path / "empty.jsonl")


def test_parse_query_rejects_non_objects() -> None:
    with pytest.raises(ConfigError, match="expected a JSON object"):
        parse_query("query")


# -- the runner, with small fakes --------------------------------------------------------------


class CountingEmbedder:
    """Bag-of-words hashing embedder that counts how it is called."""

    name = "fake-bow"
    dimension = 64
    max_tokens = 512

    def __init__(self, *, batch: bool = True) -> None:
        self.loads = 1
        self.calls: list[str] = []
        if not batch:
            self.embed_queries = None  # type: ignore[assignment]

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dimension, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
        n = float(np.linalg.norm(v))
        return v / n if n else v

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append("documents")
        return np.stack([self._vec(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.calls.append("query")
        return self._vec(text)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append("queries")
        return np.stack([self._vec(t) for t in texts])

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class TinyStore:
    """Exact cosine / word-overlap search over a list of chunks (the VectorStore protocol)."""

    def __init__(self) -> None:
        self.chunks: list[Chunk] = []
        self.vectors = np.zeros((0, 64), dtype=np.float32)
        self.searches: list[dict[str, Any]] = []

    def ensure_collection(self, embedder: str, dimension: int) -> None:
        pass

    def info(self) -> CollectionInfo | None:
        return CollectionInfo("default", "fake-bow", 64, len(self.chunks))

    def add(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        self.chunks.extend(chunks)
        self.vectors = np.concatenate([self.vectors, vectors])

    def delete(self, doc_id: str) -> int:
        return 0

    def documents(self) -> list[DocumentInfo]:
        return []

    def search(
        self,
        query_vector: np.ndarray | None = None,
        query_text: str | None = None,
        k: int = 5,
        where: Any = None,
        mode: str = "vector",
    ) -> list[SearchResult]:
        self.searches.append({"mode": mode, "where": where, "vector": query_vector is not None})
        if mode == "text":
            words = set(re.findall(r"\w+", (query_text or "").lower()))
            scores = np.array(
                [len(words & set(re.findall(r"\w+", c.text.lower()))) for c in self.chunks], float
            )
        else:
            assert query_vector is not None
            scores = self.vectors @ query_vector
        order = np.argsort(-scores, kind="stable")[:k]
        return [
            SearchResult(
                rank=i + 1,
                score=float(scores[j]),
                text=self.chunks[j].text,
                doc_id=self.chunks[j].doc_id,
                source=self.chunks[j].source,
                section_path=(),
                page_start=None,
                page_end=None,
                start=self.chunks[j].start,
                end=self.chunks[j].end,
            )
            for i, j in enumerate(order)
        ]


DOC_TEXT = (
    "Cats purr when they are content.\n"
    "Rockets need fuel to reach orbit.\n"
    "Bread rises because yeast makes gas.\n"
    "Rivers carry sediment to the sea.\n"
)


def tiny_index(embedder: CountingEmbedder) -> TinyStore:
    from sectionrag.types import Document

    doc = Document.create(DOC_TEXT, source="corpus/facts.txt")
    store = TinyStore()
    chunks = []
    offset = 0
    for i, line in enumerate(DOC_TEXT.splitlines(keepends=True)):
        chunks.append(doc.make_chunk(i, offset, offset + len(line), token_count=len(line.split())))
        offset += len(line)
    store.add(chunks, embedder.embed_documents([c.text for c in chunks]))
    return store


def line_span(n: int) -> tuple[int, int]:
    lines = DOC_TEXT.splitlines(keepends=True)
    start = sum(len(x) for x in lines[:n])
    return start, start + len(lines[n]) - 1


QUERIES = [
    EvalQuery("why do cats purr", (Reference("facts.txt", *line_span(0)),), id="cats"),
    EvalQuery("what makes bread rise yeast", (Reference("facts.txt", *line_span(2)),), id="bread"),
    EvalQuery("rivers sediment sea", (Reference("facts.txt", *line_span(3)),), id="rivers"),
]


def test_evaluate_embeds_queries_once_in_a_batch_and_scores() -> None:
    emb = CountingEmbedder()
    store = tiny_index(emb)
    emb.calls.clear()
    report = evaluate(store, QUERIES, embedder=emb, k=2, where={"source": "corpus/facts.txt"})
    # queries in one batch; the default (hybrid) search also embeds each query's sentence windows
    assert [c for c in emb.calls if c != "documents"] == ["queries"]
    assert len(store.searches) == 3
    assert all(s["where"] == {"source": "corpus/facts.txt"} and s["vector"] for s in store.searches)
    assert report.metrics["hit"] == 1.0 and report.metrics["mrr"] == 1.0
    assert report.seconds.keys() == {"embed", "search"}


def test_evaluate_batches_large_query_sets_without_per_query_calls() -> None:
    emb = CountingEmbedder()
    store = tiny_index(emb)
    emb.calls.clear()
    many = QUERIES * 200
    report = evaluate(store, many, embedder=emb, k=1, batch_size=256)
    assert [c for c in emb.calls if c != "documents"] == ["queries"] * 3
    assert len(report.results) == 600 and emb.loads == 1


def test_embed_queries_falls_back_to_embed_query() -> None:
    emb = CountingEmbedder(batch=False)
    vectors = embed_queries(emb, ["a b", "c"], batch_size=8)
    assert vectors.shape == (2, 64) and vectors.dtype == np.float32
    assert emb.calls == ["query", "query"]
    assert embed_queries(emb, []).shape == (0, 64)


def test_precomputed_query_vectors_are_used_as_given() -> None:
    emb = CountingEmbedder()
    store = tiny_index(emb)
    vectors = embed_queries(emb, [q.query for q in QUERIES])
    emb.calls.clear()
    for mode in ("vector", "hybrid"):
        report = evaluate(store, QUERIES, query_vectors=vectors, k=1, mode=mode)  # type: ignore[arg-type]
        assert report.metrics["hit"] == 1.0
    assert emb.calls == []
    with pytest.raises(ConfigError, match="one row per query"):
        evaluate(store, QUERIES, query_vectors=vectors[:2], k=1)


def test_text_mode_needs_no_embedder_and_vector_mode_does() -> None:
    store = tiny_index(CountingEmbedder())
    report = evaluate(store, QUERIES, mode="text", k=1)
    assert report.metrics["recall"] == 1.0
    assert not any(s["vector"] for s in store.searches)
    with pytest.raises(ConfigError, match="needs the collection's embedder"):
        evaluate(store, QUERIES, mode="vector")


def test_evaluate_rejects_bad_arguments(tmp_path: Path) -> None:
    store = tiny_index(CountingEmbedder())
    with pytest.raises(ConfigError, match="k must be"):
        evaluate(store, QUERIES, mode="text", k=0)
    with pytest.raises(ConfigError, match="unknown search mode"):
        evaluate(store, QUERIES, mode="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Pipeline or VectorStore"):
        evaluate(object(), QUERIES, mode="text")  # type: ignore[arg-type]


def test_evaluate_accepts_a_pipeline_and_a_path(tmp_path: Path) -> None:
    from sectionrag.pipeline import Pipeline

    class LineChunker:
        def chunk(self, document: Any) -> list[Chunk]:
            return []

    emb = CountingEmbedder()
    store = tiny_index(emb)
    pipe = Pipeline(chunker=LineChunker(), embedder=emb, store=store)  # type: ignore[arg-type]
    path = tmp_path / "q.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"id": q.id, "query": q.query, "references": [r.to_dict() for r in q.references]})
            for q in QUERIES
        ),
        encoding="utf-8",
    )
    report = evaluate(pipe, path, k=1)
    assert report.metrics["hit"] == 1.0


def test_report_json_lets_anyone_recompute_the_metrics() -> None:
    emb = CountingEmbedder()
    report = evaluate(tiny_index(emb), QUERIES, embedder=emb, k=3)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["k"] == 3 and data["mode"] == "hybrid"  # the default mode
    assert set(data["metrics"]) == {
        "recall@3",
        "hit@3",
        "mrr@3",
        "ndcg@3",
        "span_recall@3",
        "span_precision@3",
        "span_iou@3",
        "queries",
    }
    assert data["metrics"]["queries"] == 3
    for entry in data["queries"]:
        assert {"id", "query", "references", "retrieved", "recall@3"} <= set(entry)
        for r in entry["retrieved"]:
            assert {"source", "doc_id", "start", "end", "score"} <= set(r)
        refs = [Reference(**x) for x in entry["references"]]
        got = [Retrieved(**x) for x in entry["retrieved"]]
        again = score_query(refs, got, data["k"]).as_dict()
        assert {f"{n}@3": v for n, v in again.items()} == {n: entry[n] for n in entry if n.endswith("@3")}
    means = {f"{n}@3": v for n, v in EvalReport(3, "vector", report.results).metrics.items()}
    assert means == {n: v for n, v in data["metrics"].items() if n != "queries"}


def test_span_metric_means_skip_page_only_queries() -> None:
    q_page = EvalQuery("p", (Reference("x.pdf", page=1),))
    q_span = EvalQuery("s", (Reference("facts.txt", *line_span(0)),))
    store = tiny_index(CountingEmbedder())
    report = evaluate(store, [q_page, q_span], mode="text", k=1)
    assert report.results[0].metrics.span_iou is None
    assert report.metrics["span_iou"] == report.results[1].metrics.span_iou


# -- the bundled evaluation set ------------------------------------------------------------------


def read_like_parser(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def test_bundled_evaluation_set_is_valid() -> None:
    rows = [
        json.loads(line) for line in (EVAL_DATA / "queries.jsonl").read_text("utf-8").splitlines() if line
    ]
    assert len(rows) >= 100
    texts: dict[str, str] = {}
    ids = set()
    for row in rows:
        q = parse_query(row)
        assert row["id"] not in ids
        ids.add(row["id"])
        for raw, reference in zip(row["references"], q.references, strict=True):
            source = reference.source
            if source not in texts:
                texts[source] = read_like_parser(EVAL_DATA / source)
            text = texts[source]
            assert reference.start is not None and reference.end is not None
            assert 0 <= reference.start < reference.end <= len(text), row["id"]
            span = text[reference.start : reference.end]
            assert span.strip(), row["id"]
            assert span == raw["answer"], row["id"]
            assert span == span.strip(), f"{row['id']}: span should not start or end with whitespace"
    kinds = {row["doc_type"] for row in rows}
    assert kinds == {"report", "manual", "transcript", "encyclopedia"}
    assert sum(len(t) for t in texts.values()) < 400_000


def test_bundled_files_parse_to_the_text_the_offsets_point_into() -> None:
    import sectionrag

    for path in sorted(EVAL_DATA.iterdir()):
        if path.suffix in (".md", ".txt") and path.name != "README.md":
            doc = sectionrag.parse(path)
            assert doc.text == read_like_parser(path), path.name


def test_end_to_end_on_the_bundled_set_with_fakes() -> None:
    """Index the evaluation set with a real chunker and the shipped fakes, then evaluate each mode."""
    testing = pytest.importorskip("sectionrag.testing")
    import sectionrag
    from sectionrag.pipeline import Pipeline

    emb = testing.HashEmbedder()
    pipe = Pipeline(
        chunker=sectionrag.chunker("recursive", size=200, tokenizer=emb),
        embedder=emb,
        store=testing.InMemoryStore(),
    )
    files = [EVAL_DATA / "transit_annual_report_2024.md", EVAL_DATA / "sqlite_manual.md"]
    assert pipe.ingest(files).ok
    names = {p.name for p in files}
    queries = [
        q for q in load_queries(EVAL_DATA / "queries.jsonl") if {r.source for r in q.references} <= names
    ]
    assert len(queries) == 70
    vectors = embed_queries(emb, [q.query for q in queries])
    calls = emb.calls
    for mode in ("vector", "text", "hybrid"):
        report = evaluate(pipe, queries, k=5, mode=mode, query_vectors=vectors)  # type: ignore[arg-type]
        m = report.metrics
        assert len(report.results) == len(queries)
        # word-overlap retrieval finds many answers: far above chance (about 5 in 600 chunks)
        assert m["hit"] is not None and m["hit"] > 0.3, (mode, m)
        for r in report.results:
            assert len(r.retrieved) <= 5
            assert all(x.source.endswith(tuple(p.name for p in files)) for x in r.retrieved)
    # precomputed vectors: no query embedded again; hybrid search embeds each query's sentence windows once
    assert emb.calls == calls + len(queries)
