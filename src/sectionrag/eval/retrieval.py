"""Retrieval evaluation: queries with reference spans, metrics, and a runner.

A query names the passages that answer it (``references``: a source and a
character span, or a page). The runner searches a collection for every query
and scores the ranked results against the references:

- **recall@k**: share of the query's references overlapped by at least one of
  the top ``k`` results.
- **hit@k**: 1 if any of the top ``k`` results overlaps any reference.
- **MRR@k**: reciprocal rank of the first result that overlaps a reference.
- **nDCG@k**: binary relevance; a result is relevant when it overlaps a
  reference passage that no higher-ranked result overlapped (overlapping or
  touching references of one source count as one passage), so repeated or
  overlapping chunks of the same passage do not count twice. The ideal
  ranking puts one relevant result per passage first (cut at ``k``); a single
  chunk that spans two separate passages earns one gain.
- **span recall / precision / IoU** (as in Chroma's chunking study), over
  characters and per query: the retrieved spans and the reference spans are
  each merged per document (so overlapping chunks are not counted twice);
  recall = relevant characters retrieved / relevant characters, precision =
  relevant characters retrieved / characters retrieved, IoU = characters in both /
  characters in either. Page references have no character span
  and are left out of these; a query with only page references has none.

A reference's ``source`` matches a result whose ``source`` is the same
string, ends with it as a path (so a file name matches the indexed path),
or whose ``doc_id`` equals it. A page reference matches a result whose pages
include that page.

Everything here except :func:`evaluate` is a pure function of its inputs,
so the JSON of a report is enough to recompute every number.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from sectionrag.defaults import DEFAULT_BATCH_SIZE, DEFAULT_K, DEFAULT_SEARCH_MODE
from sectionrag.errors import ConfigError
from sectionrag.eval.queries import EvalQuery, Reference, load_queries, parse_query
from sectionrag.pipeline import Pipeline, check_search_options, search_store
from sectionrag.protocols import Embedder, SearchMode, VectorStore, Where

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from sectionrag.types import SearchResult

__all__ = [
    "METRIC_NAMES",
    "EvalQuery",
    "EvalReport",
    "QueryMetrics",
    "QueryResult",
    "Reference",
    "Retrieved",
    "embed_queries",
    "evaluate",
    "load_queries",
    "parse_query",
    "score_query",
    "source_matches",
]

#: per-query metrics, in the order reports list them
METRIC_NAMES = ("recall", "hit", "mrr", "ndcg", "span_recall", "span_precision", "span_iou")


@dataclass(frozen=True, slots=True)
class Retrieved:
    """The part of a search result that the metrics need (and the report records)."""

    source: str
    doc_id: str
    start: int
    end: int
    score: float
    page_start: int | None = None
    page_end: int | None = None

    @classmethod
    def from_result(cls, result: SearchResult) -> Retrieved:
        """Take the citation fields of a :class:`~sectionrag.types.SearchResult`."""
        return cls(
            source=result.source,
            doc_id=result.doc_id,
            start=result.start,
            end=result.end,
            score=float(result.score),
            page_start=result.page_start,
            page_end=result.page_end,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape of a retrieved result in ``eval --json``."""
        return {
            "source": self.source,
            "doc_id": self.doc_id,
            "start": self.start,
            "end": self.end,
            "score": self.score,
            "page_start": self.page_start,
            "page_end": self.page_end,
        }


@dataclass(frozen=True, slots=True)
class QueryMetrics:
    """The metrics of one query; span metrics are ``None`` without character references."""

    recall: float
    hit: float
    mrr: float
    ndcg: float
    span_recall: float | None
    span_precision: float | None
    span_iou: float | None

    def as_dict(self) -> dict[str, float | None]:
        """Return the metrics by name (see :data:`METRIC_NAMES`)."""
        return {name: getattr(self, name) for name in METRIC_NAMES}


@dataclass(frozen=True, slots=True)
class QueryResult:
    """One evaluated query: what was retrieved and how it scored."""

    query: EvalQuery
    retrieved: tuple[Retrieved, ...]
    metrics: QueryMetrics


@dataclass(slots=True)
class EvalReport:
    """The outcome of :func:`evaluate`: per-query results and their averages.

    Attributes:
        k: Results scored per query.
        mode: Search mode used.
        results: One :class:`QueryResult` per query, in input order.
        seconds: Time spent embedding queries (``embed``) and searching (``search``).
    """

    k: int
    mode: str
    results: list[QueryResult] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def metrics(self) -> dict[str, float | None]:
        """Mean of each metric over the queries (span metrics over queries that have them)."""
        return _aggregate([r.metrics for r in self.results])

    def metric_key(self, name: str) -> str:
        """Return the report key of metric ``name`` (``recall`` -> ``recall@5``)."""
        return f"{name}@{self.k}"

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape of ``sectionrag eval --json``.

        ``metrics`` holds the averages keyed ``<name>@<k>`` plus ``queries``
        (how many); each entry of ``queries`` holds the query, its references,
        the retrieved results (``source``, ``doc_id``, ``start``, ``end``,
        ``score``, pages) and its own metrics.
        """
        metrics: dict[str, Any] = {self.metric_key(n): v for n, v in self.metrics.items()}
        metrics["queries"] = len(self.results)
        queries = []
        for r in self.results:
            entry: dict[str, Any] = {}
            if r.query.id is not None:
                entry["id"] = r.query.id
            entry["query"] = r.query.query
            entry["references"] = [ref.to_dict() for ref in r.query.references]
            entry["retrieved"] = [x.to_dict() for x in r.retrieved]
            entry.update({self.metric_key(n): v for n, v in r.metrics.as_dict().items()})
            queries.append(entry)
        return {
            "k": self.k,
            "mode": self.mode,
            "metrics": metrics,
            "seconds": {name: round(s, 4) for name, s in self.seconds.items()},
            "queries": queries,
        }


# -- metrics ------------------------------------------------------------------------


def source_matches(reference_source: str, source: str, doc_id: str = "") -> bool:
    """Return True if a reference's ``source`` names this result's document.

    It matches the source as indexed, a trailing part of it as a path (a file
    name matches ``docs/report.md``), or the document id.
    """
    if reference_source in (source, doc_id):
        return True
    ref_parts = PurePosixPath(reference_source.replace("\\", "/")).parts
    src_parts = PurePosixPath(source.replace("\\", "/")).parts
    return 0 < len(ref_parts) <= len(src_parts) and src_parts[-len(ref_parts) :] == ref_parts


def _overlaps(ref: Reference, r: Retrieved) -> bool:
    if not source_matches(ref.source, r.source, r.doc_id):
        return False
    if ref.has_span:
        assert ref.start is not None and ref.end is not None
        return r.start < ref.end and ref.start < r.end
    if r.page_start is None:
        return False
    last = r.page_end if r.page_end is not None else r.page_start
    return r.page_start <= (ref.page or 0) <= last


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge half-open intervals into a sorted list of disjoint ones (empty ones dropped)."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _length(spans: Sequence[tuple[int, int]]) -> int:
    return sum(end - start for start, end in spans)


def _intersection(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> int:
    """Total length of the intersection of two merged interval lists."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def _passages(references: Sequence[Reference]) -> list[list[int]]:
    """Group reference indices into passages: overlapping or touching spans of one source form one."""
    groups: list[list[int]] = []
    spans: dict[str, list[tuple[int, int, int]]] = {}
    pages: dict[tuple[str, int], list[int]] = {}
    for i, ref in enumerate(references):
        if ref.has_span:
            assert ref.start is not None and ref.end is not None
            spans.setdefault(ref.source, []).append((ref.start, ref.end, i))
        else:
            pages.setdefault((ref.source, ref.page or 0), []).append(i)
    for items in spans.values():
        items.sort()
        current: list[int] = []
        reach = -1
        for start, end, i in items:
            if current and start <= reach:
                current.append(i)
                reach = max(reach, end)
            else:
                if current:
                    groups.append(current)
                current, reach = [i], end
        groups.append(current)
    groups.extend(pages.values())
    return groups


def _span_metrics(
    references: Sequence[Reference], retrieved: Sequence[Retrieved]
) -> tuple[float | None, float | None, float | None]:
    span_refs = [r for r in references if r.has_span]
    if not span_refs:
        return None, None, None
    # Key each retrieved result by the reference source it matches, so that a
    # reference given as a file name meets the results indexed under a path.
    relevant: dict[str, list[tuple[int, int]]] = {}
    for ref in span_refs:
        assert ref.start is not None and ref.end is not None
        relevant.setdefault(ref.source, []).append((ref.start, ref.end))
    got: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for r in retrieved:
        key = next((("ref", s) for s in relevant if source_matches(s, r.source, r.doc_id)), ("doc", r.doc_id))
        got.setdefault(key, []).append((r.start, r.end))
    rel_total = hit_total = got_total = 0
    for source, spans in relevant.items():
        merged = _merge(spans)
        rel_total += _length(merged)
        hit_total += _intersection(merged, _merge(got.get(("ref", source), [])))
    for spans in got.values():
        got_total += _length(_merge(spans))
    union = rel_total + got_total - hit_total
    recall = hit_total / rel_total if rel_total else 0.0
    precision = hit_total / got_total if got_total else 0.0
    iou = hit_total / union if union else 0.0
    return recall, precision, iou


def score_query(references: Sequence[Reference], retrieved: Sequence[Retrieved], k: int) -> QueryMetrics:
    """Score the top ``k`` of ``retrieved`` (best first) against ``references``.

    Pure: the same inputs always give the same metrics, each in ``[0, 1]``.

    Raises:
        ConfigError: ``k`` is below 1 or there are no references.
    """
    if k < 1:
        raise ConfigError(f"k must be at least 1, got {k}")
    if not references:
        raise ConfigError("a query needs at least one reference to be scored")
    top = list(retrieved[:k])
    hits = [[_overlaps(ref, r) for ref in references] for r in top]

    covered = [any(row[j] for row in hits) for j in range(len(references))]
    recall = sum(covered) / len(references)
    first = next((rank for rank, row in enumerate(hits, start=1) if any(row)), None)
    hit = 1.0 if first is not None else 0.0
    mrr = 1.0 / first if first is not None else 0.0

    passages = _passages(references)
    seen: set[int] = set()
    dcg = 0.0
    for rank, row in enumerate(hits, start=1):
        new = {g for g, members in enumerate(passages) if g not in seen and any(row[m] for m in members)}
        if new:
            dcg += 1.0 / math.log2(rank + 1)
            seen |= new
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, len(passages)) + 1))
    ndcg = dcg / ideal if ideal else 0.0

    span_recall, span_precision, span_iou = _span_metrics(references, top)
    return QueryMetrics(
        recall=recall,
        hit=hit,
        mrr=mrr,
        ndcg=min(ndcg, 1.0),
        span_recall=span_recall,
        span_precision=span_precision,
        span_iou=span_iou,
    )


def _aggregate(metrics: Sequence[QueryMetrics]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name in METRIC_NAMES:
        values = [v for m in metrics if (v := getattr(m, name)) is not None]
        out[name] = sum(values) / len(values) if values else None
    return out


# -- the runner -----------------------------------------------------------------------


def embed_queries(
    embedder: Embedder, texts: Sequence[str], *, batch_size: int = DEFAULT_BATCH_SIZE
) -> npt.NDArray[np.float32]:
    """Embed query texts with the embedder's query encoding, in batches.

    Uses the embedder's batch method ``embed_queries(texts)`` when it has one
    (sectionrag's embedders do; it applies the model's query prompt, as
    ``embed_query`` does); otherwise falls back to ``embed_query`` once per
    text. Either way the model is loaded once, by the embedder instance: a
    fallback costs one forward pass per query, never a model load.
    ``embed_documents`` is never used, since models such as BGE and E5 encode
    queries differently from passages.
    """
    import numpy as np

    if batch_size < 1:
        raise ConfigError(f"batch_size must be >= 1, got {batch_size}")
    batch = getattr(embedder, "embed_queries", None)
    parts: list[npt.NDArray[np.float32]] = []
    for i in range(0, len(texts), batch_size):
        chunk = list(texts[i : i + batch_size])
        if callable(batch):
            parts.append(np.asarray(batch(chunk), dtype=np.float32).reshape(len(chunk), -1))
        else:
            parts.append(np.stack([np.asarray(embedder.embed_query(t), dtype=np.float32) for t in chunk]))
    if not parts:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    return np.concatenate(parts, axis=0)


def evaluate(
    target: Pipeline | VectorStore,
    queries: Sequence[EvalQuery] | str | Path,
    *,
    embedder: Embedder | None = None,
    k: int = DEFAULT_K,
    mode: SearchMode = DEFAULT_SEARCH_MODE,
    where: Where | None = None,
    fusion: str | None = None,
    weights: tuple[float, float] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    query_vectors: npt.NDArray[np.float32] | None = None,
) -> EvalReport:
    """Search a collection for every query (as :meth:`Pipeline.search` does) and score the results.

    Args:
        target: A :class:`~sectionrag.pipeline.Pipeline` (its store and embedder
            are used) or a :class:`~sectionrag.protocols.VectorStore`.
        queries: Queries, or the path of a JSONL file (see :func:`load_queries`).
        embedder: The collection's embedder; required with a bare store unless
            ``mode="text"``; overrides the pipeline's embedder if given.
        k: Results retrieved and scored per query.
        mode: ``vector``, ``text`` or ``hybrid``.
        where: A filter passed to every search (structured mapping or raw expression).
        fusion: Hybrid fusion, ``linear``, ``zscore`` or ``rrf`` (default: the store's).
        weights: Hybrid ``(vector, text)`` weights (default: the store's).
        batch_size: Queries embedded per call.
        query_vectors: Query vectors computed beforehand (row ``i`` for query ``i``),
            e.g. with :func:`embed_queries`, to evaluate several collections or
            modes without embedding the queries again; ``embedder`` is then not needed.

    Raises:
        ConfigError: bad ``k``/``mode``/fusion options, no embedder where one is needed,
            or a bad queries file.
    """
    check_search_options(k, mode, fusion, weights)
    store: VectorStore
    if isinstance(target, Pipeline):
        store = target.store
        embedder = embedder or target.embedder
    elif isinstance(target, VectorStore):
        store = target
    else:
        raise TypeError(f"target must be a sectionrag.Pipeline or VectorStore, got {type(target).__name__}")
    items = load_queries(queries) if isinstance(queries, (str, Path)) else list(queries)
    for q in items:
        if not isinstance(q, EvalQuery):
            raise TypeError(f"queries must be EvalQuery objects, got {type(q).__name__}")

    report = EvalReport(k=k, mode=mode)
    t0 = time.perf_counter()
    vectors = None
    if mode != "text" and query_vectors is not None:
        vectors = query_vectors
        if getattr(vectors, "ndim", 0) != 2 or vectors.shape[0] != len(items):
            raise ConfigError(
                f"query_vectors must have one row per query: expected ({len(items)}, dimension), "
                f"got {getattr(vectors, 'shape', None)}"
            )
    elif mode != "text" and embedder is not None:
        vectors = embed_queries(embedder, [q.query for q in items], batch_size=batch_size)
    t1 = time.perf_counter()
    for i, q in enumerate(items):
        hits = search_store(
            store,
            q.query,
            embedder=embedder,
            k=k,
            where=where,
            mode=mode,
            fusion=fusion,
            weights=weights,
            query_vector=vectors[i] if vectors is not None else None,
        )
        retrieved = tuple(Retrieved.from_result(h) for h in hits)
        report.results.append(QueryResult(q, retrieved, score_query(q.references, retrieved, k)))
    t2 = time.perf_counter()
    report.seconds = {"embed": t1 - t0, "search": t2 - t1}
    return report
