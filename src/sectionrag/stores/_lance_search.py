"""The search side of :class:`~sectionrag.stores.LanceDBStore` (private).

Queries (vector, full-text), the settings of the approximate (ANN) vector
index, and index upkeep after writes. LanceDB searches rows added after an
index was built by brute force and merges them in, so results are always
complete; upkeep only keeps that unindexed tail short.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from sectionrag.errors import ConfigError, StoreError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MIN_TRAIN_ROWS",
    "SCALAR_INDEXED",
    "AnnConfig",
    "IndexState",
    "ann_due",
    "build_vector_index",
    "ensure_fts",
    "ensure_scalar_indexes",
    "index_state",
    "text_rows",
    "upkeep",
    "vector_rows",
]

logger = logging.getLogger("sectionrag.stores.lancedb")

AnnIndexType = Literal["IVF_SQ", "IVF_PQ", "IVF_HNSW_SQ"]
_ANN_TYPES = ("IVF_SQ", "IVF_PQ", "IVF_HNSW_SQ")
#: fewest rows an IVF index can be trained on (LanceDB needs enough vectors per partition)
MIN_TRAIN_ROWS = 256


def _positive(name: str, value: Any, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        extra = " or None" if optional else ""
        raise ConfigError(f"AnnConfig.{name} must be a positive int{extra}, got {value!r}")


@dataclass(frozen=True, slots=True)
class AnnConfig:
    """When :class:`~sectionrag.stores.LanceDBStore` builds an ANN vector index, and how it is searched.

    Below ``threshold`` rows, vector search is exact (brute force, fast enough
    there). At ``threshold`` rows a write builds the index, and
    :meth:`~sectionrag.stores.LanceDBStore.optimize` builds it too. The
    defaults give recall@10 >= 0.95 against exact search on
    ``benchmarks/bench_search.py`` (see ``docs/benchmarks.md``).

    Attributes:
        threshold: Rows at which a write builds the index; ``None``: only ``optimize()`` does.
        index_type: ``"IVF_SQ"`` (8-bit scalar quantization: quick to build,
            accurate), ``"IVF_PQ"`` (smaller, much slower to train) or
            ``"IVF_HNSW_SQ"`` (a graph per partition; slow to build).
        num_partitions: IVF partitions; ``None``: about one per 4,096 rows.
        num_sub_vectors: IVF_PQ sub-vectors; ``None``: LanceDB's default (``dimension / 16``).
        nprobes: IVF partitions searched; a filtered search goes on to more
            partitions when these leave fewer than ``k`` hits.
        refine_factor: Re-rank ``refine_factor * k`` candidates by their exact
            distance (``None``: rank by the quantized distance).
        ef: IVF_HNSW_SQ: candidates kept while walking the graph.
    """

    threshold: int | None = 20_000
    index_type: AnnIndexType = "IVF_SQ"
    num_partitions: int | None = None
    num_sub_vectors: int | None = None
    nprobes: int = 20
    refine_factor: int | None = 5
    ef: int = 100

    def __post_init__(self) -> None:
        if self.index_type not in _ANN_TYPES:
            raise ConfigError(
                f"unknown ANN index type {self.index_type!r}; choose one of: {', '.join(_ANN_TYPES)}"
            )
        _positive("threshold", self.threshold, optional=True)
        _positive("num_partitions", self.num_partitions, optional=True)
        _positive("num_sub_vectors", self.num_sub_vectors, optional=True)
        _positive("nprobes", self.nprobes)
        _positive("refine_factor", self.refine_factor, optional=True)
        _positive("ef", self.ef)

    def partitions_for(self, rows: int) -> int:
        """Return the IVF partitions to train for ``rows`` rows."""
        if self.num_partitions is not None:
            return self.num_partitions
        return max(1, min(rows // MIN_TRAIN_ROWS, round(rows / 4096)))


@dataclass(frozen=True, slots=True)
class IndexState:
    """What indexes a collection has and how many rows each still lacks.

    Attributes:
        rows: Rows in the collection.
        vector_index: The ANN index type (``"IvfSq"``, ``"IvfPq"`` ...), ``None`` without one.
        vector_unindexed: Rows the ANN index lacks (searched by brute force).
        fts: Whether the text (``fulltext``, or ``text`` in collections before it) has its full-text index.
        fts_unindexed: Rows a full-text index lacks (most of any of them).
    """

    rows: int
    vector_index: str | None
    vector_unindexed: int
    fts: bool
    fts_unindexed: int


def index_state(table: Any) -> IndexState:
    """Read the index state of ``table`` (its row count, vector index type, unindexed rows)."""
    rows = int(table.count_rows())
    vector: str | None = None
    vector_unindexed = 0
    fts = False
    fts_unindexed = 0
    for idx in table.list_indices():
        columns = list(idx.columns)
        stats = table.index_stats(idx.name)
        unindexed = int(stats.num_unindexed_rows) if stats is not None else 0
        if columns == ["vector"]:
            vector, vector_unindexed = str(idx.index_type), unindexed
        elif idx.index_type == "FTS":
            fts_unindexed = max(fts_unindexed, unindexed)
            fts = fts or columns in (["text"], ["fulltext"])
    return IndexState(rows, vector, vector_unindexed, fts, fts_unindexed)


def build_vector_index(table: Any, ann: AnnConfig, rows: int) -> None:
    """(Re)build the ANN index of ``table`` with cosine distance, as ``ann`` says."""
    from lancedb.index import HnswSq, IvfPq, IvfSq

    partitions = ann.partitions_for(rows)
    config: Any
    if ann.index_type == "IVF_HNSW_SQ":
        config = HnswSq(distance_type="cosine", num_partitions=partitions)
    elif ann.index_type == "IVF_PQ":
        config = IvfPq(distance_type="cosine", num_partitions=partitions, num_sub_vectors=ann.num_sub_vectors)
    else:
        config = IvfSq(distance_type="cosine", num_partitions=partitions)
    logger.info("building %s index over %d rows", ann.index_type, rows)
    table.create_index("vector", config=config, replace=True)


def vector_rows(
    table: Any,
    q: npt.NDArray[np.float32],
    limit: int,
    sql: str | None,
    columns: list[str],
    ann: AnnConfig,
    *,
    exact: bool,
) -> list[dict[str, Any]]:
    """Return the ``limit`` rows nearest to ``q`` by cosine distance, nearest first (``_distance``)."""
    query = table.search(q, vector_column_name="vector").distance_type("cosine")
    if exact:
        query = query.bypass_vector_index()
    else:  # ignored by LanceDB when the table has no vector index
        query = query.ef(max(ann.ef, limit))
        # with a filter, go on past nprobes partitions while fewer than `limit` rows match
        query = query.minimum_nprobes(ann.nprobes).maximum_nprobes(0) if sql else query.nprobes(ann.nprobes)
        if ann.refine_factor is not None:
            query = query.refine_factor(ann.refine_factor)
    if sql:
        query = query.where(sql, prefilter=True)
    rows: list[dict[str, Any]] = query.select([*columns, "_distance"]).limit(limit).to_arrow().to_pylist()
    rows.sort(key=lambda r: r["_distance"])
    return rows


def text_rows(
    table: Any,
    text: str,
    limit: int,
    sql: str | None,
    columns: list[str],
    *,
    fts_columns: Sequence[str] = ("text",),
    boosts: Sequence[float] | None = None,
) -> list[dict[str, Any]]:
    """Return up to ``limit`` rows matching ``text`` by BM25, best first (``_score``).

    With several ``fts_columns`` (each full-text indexed; LanceDB's
    ``MultiMatchQuery``) a row's score is its best BM25 score in any of them,
    each times the column's ``boosts`` entry.

    The query is a plain match query (terms OR-ed), never parsed as query
    syntax, so quotes, colons, ``AND``/``OR``/``NOT`` and brackets are words
    like any other; a query with no indexable term returns nothing.
    """
    from lancedb import query as lance_query

    if not text.strip():
        return []
    match_query: Any = lance_query.MatchQuery  # its stub marks optional fields as required
    if len(fts_columns) > 1:
        multi_match: Any = lance_query.MultiMatchQuery
        weights = list(boosts) if boosts is not None else None
        query = table.search(multi_match(text, list(fts_columns), boosts=weights), query_type="fts")
    else:
        query = table.search(match_query(text, fts_columns[0]), query_type="fts")
    if sql:
        query = query.where(sql, prefilter=True)
    rows: list[dict[str, Any]] = query.select([*columns, "_score"]).limit(limit).to_arrow().to_pylist()
    rows.sort(key=lambda r: -r["_score"])
    return rows


# -- index upkeep ----------------------------------------------------------------------

#: unindexed rows (full-text or vector) past which a write folds them into the indexes
UPKEEP_ROWS = 10_000
#: columns with a B-tree index (scoped search, per-document delete)
SCALAR_INDEXED = ("doc_id", "source")


def ensure_fts(table: Any, fts_columns: Sequence[str], collection: str) -> None:
    """Build the full-text index of each of ``fts_columns`` that lacks one."""
    indexed = {tuple(i.columns) for i in table.list_indices() if i.index_type == "FTS"}
    missing = [c for c in fts_columns if (c,) not in indexed]
    if not missing:
        return
    from lancedb.index import FTS

    try:
        for column in missing:
            table.create_index(column, config=FTS(), replace=True)
    except Exception as e:
        raise StoreError(f"cannot build the full-text index of {collection!r}: {e}") from e


def ensure_scalar_indexes(table: Any, collection: str) -> None:
    """Index ``doc_id`` and ``source`` (B-trees), so scoped searches and deletes skip other rows."""
    indexed = {tuple(i.columns) for i in table.list_indices()}
    from lancedb.index import BTree

    for column in SCALAR_INDEXED:
        if (column,) not in indexed:
            try:
                table.create_index(column, config=BTree(), replace=True)
            except Exception as e:
                raise StoreError(f"cannot index column {column!r} of {collection!r}: {e}") from e


def ann_due(state: IndexState, ann: AnnConfig, *, force: bool | None) -> bool:
    """Whether the ANN index should be (re)built now (``force``: True always, False never)."""
    if force is False or state.rows < MIN_TRAIN_ROWS:
        return False
    if state.vector_index is not None:
        return state.vector_unindexed > state.rows // 2  # trained on too small a part: retrain
    return force is True or (ann.threshold is not None and state.rows >= ann.threshold)


def upkeep(table: Any, ann: AnnConfig, collection: str) -> None:
    """Index upkeep after a write: build the ANN index at the threshold, fold in long unindexed tails.

    Failures are logged, never raised: the write itself has succeeded and
    searches stay correct without the upkeep.
    """
    try:
        state = index_state(table)
        if ann.threshold is not None and ann_due(state, ann, force=None):
            build_vector_index(table, ann, state.rows)
        elif max(state.vector_unindexed, state.fts_unindexed) >= UPKEEP_ROWS:
            table.optimize()
    except Exception as e:  # pragma: no cover - depends on LanceDB failing
        logger.warning("index upkeep of %r failed (searches stay correct): %s", collection, e)
