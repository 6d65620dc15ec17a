"""The table layout of :class:`~sectionrag.stores.LanceDBStore`: schema, recorded embedder, rows (private).

The embedder's name and dimension are recorded in the table's schema
metadata (keys ``sectionrag.embedder``, ``sectionrag.dimension``,
``sectionrag.schema``), so a collection is self-describing: no side table.
"""

from __future__ import annotations

import sys
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from sectionrag.errors import MissingDependencyError
from sectionrag.stores._common import load_metadata
from sectionrag.stores._lance_enrich import FULLTEXT_COLUMN, enrichment_fields
from sectionrag.stores._lazy_import import (
    DEFERRED_PACKAGES,
    defer_package_body,
    namespace_models_deferred,
    overrides_as_markers,
    pandas_hidden,
)
from sectionrag.types import SearchResult

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "COLUMNS",
    "META_DIMENSION",
    "META_EMBEDDER",
    "SCHEMA_VERSION",
    "chunk_schema",
    "import_lancedb",
    "row_result",
]

#: 2: the ``fulltext`` column (document title + text) is what full-text search reads;
#: collections of version 1 lack it and match ``text`` alone
SCHEMA_VERSION = "2"
META_EMBEDDER = b"sectionrag.embedder"
META_DIMENSION = b"sectionrag.dimension"
META_SCHEMA = b"sectionrag.schema"
#: columns returned by searches (everything but the vector)
COLUMNS = [
    "id",
    "doc_id",
    "source",
    "index",
    "text",
    "context",
    "start",
    "end",
    "token_count",
    "section_path",
    "page_start",
    "page_end",
    "metadata",
]


def import_lancedb() -> Any:
    """Import lancedb, or say how to install it.

    Its REST client's package body is deferred and, before Python 3.12, it gets
    ``overrides`` as markers (see :mod:`sectionrag.stores._lazy_import`).
    """
    if "lancedb" not in sys.modules:
        for package in DEFERRED_PACKAGES:
            defer_package_body(package)
    try:
        # pandas only where the command line asked (see sectionrag.stores._lazy_import)
        with pandas_hidden(), overrides_as_markers(), namespace_models_deferred():
            import lancedb
    except ImportError as e:  # pragma: no cover - lancedb is a core dependency
        raise MissingDependencyError(
            'LanceDBStore needs lancedb and pyarrow: pip install "lancedb>=0.20" pyarrow'
        ) from e
    return lancedb


def chunk_schema(embedder: str, dimension: int) -> pa.Schema:
    """Return the pyarrow schema of a collection for ``embedder`` vectors of ``dimension``."""
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("doc_id", pa.string(), nullable=False),
            pa.field("source", pa.string(), nullable=False),
            pa.field("index", pa.int64(), nullable=False),
            pa.field("text", pa.string(), nullable=False),
            pa.field("context", pa.string(), nullable=False),
            pa.field("start", pa.int64(), nullable=False),
            pa.field("end", pa.int64(), nullable=False),
            pa.field("token_count", pa.int64(), nullable=False),
            pa.field("section_path", pa.list_(pa.string()), nullable=False),
            pa.field("page_start", pa.int64(), nullable=True),
            pa.field("page_end", pa.int64(), nullable=True),
            pa.field("metadata", pa.string(), nullable=False),
            pa.field(FULLTEXT_COLUMN, pa.string(), nullable=False),
            *enrichment_fields(),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
        ],
        metadata={
            META_EMBEDDER: embedder.encode("utf-8"),
            META_DIMENSION: str(dimension).encode("ascii"),
            META_SCHEMA: SCHEMA_VERSION.encode("ascii"),
        },
    )


def row_result(rank: int, row: dict[str, Any], score: float) -> SearchResult:
    """Turn a row of :data:`COLUMNS` into a search result."""
    return SearchResult(
        rank=rank,
        score=score,
        text=row["text"],
        doc_id=row["doc_id"],
        source=row["source"],
        section_path=tuple(row["section_path"] or ()),
        page_start=row["page_start"],
        page_end=row["page_end"],
        start=row["start"],
        end=row["end"],
        chunk_id=row["id"],
        chunk_index=row["index"],
        metadata=MappingProxyType(load_metadata(row["metadata"])),
    )
