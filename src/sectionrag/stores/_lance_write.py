"""The write side of :class:`~sectionrag.stores.LanceDBStore`: rows, records, embedding cache (private).

Tables kept next to a collection ``C`` in the same database (names starting
with ``_`` can never be collection names, and ``collections()`` hides them):

- ``_sectionrag_records.C``: one row per indexed source
  (:class:`~sectionrag.protocols.SourceRecord`), keyed by ``source``.
- ``_sectionrag_embeddings.<hash>``: the embedding cache of one embedder
  (shared by every collection of the database): ``key`` (sha256 of the
  embedded text, 32 hex digits) and ``vector``; the embedder's name is in the
  schema metadata.

Lock file: ``_sectionrag_ingest.C.lock`` in the database directory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sectionrag.protocols import SourceRecord
from sectionrag.stores._common import dump_metadata
from sectionrag.stores._filters import sql_string
from sectionrag.stores._lance_enrich import FULLTEXT_COLUMN, enrichment_values
from sectionrag.types import Chunk

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

__all__ = [
    "INTERNAL_PREFIX",
    "arrow_to_records",
    "cache_schema",
    "cache_table_name",
    "chunk_rows",
    "in_list",
    "lock_file_name",
    "records_schema",
    "records_table_name",
    "records_to_arrow",
]

#: tables whose names start with this are sectionrag's own, never collections
INTERNAL_PREFIX = "_"
_META_CACHE_EMBEDDER = b"sectionrag.cache_embedder"
#: rows per SQL ``IN (...)`` list when looking keys up
LOOKUP_SLICE = 2000


def records_table_name(collection: str) -> str:
    """Name of the records table of ``collection``."""
    return f"_sectionrag_records.{collection}"


def lock_file_name(collection: str) -> str:
    """Name of the lock file of ``collection`` (in the database directory)."""
    return f"_sectionrag_ingest.{collection}.lock"


def cache_table_name(embedder: str, dimension: int) -> str:
    """Name of the embedding-cache table of one embedder (any name: it is hashed)."""
    digest = hashlib.sha256(f"{embedder}\x00{dimension}".encode()).hexdigest()[:20]
    return f"_sectionrag_embeddings.{digest}"


def in_list(column: str, values: Sequence[str]) -> str:
    """Return the SQL predicate ``"column" IN (...)`` with every value quoted safely."""
    return f'"{column}" IN ({", ".join(sql_string(v) for v in values)})'


def records_schema() -> pa.Schema:
    """Return the schema of a records table."""
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("source", pa.string(), nullable=False),
            pa.field("doc_id", pa.string(), nullable=False),
            pa.field("content_hash", pa.string(), nullable=False),
            pa.field("size", pa.int64(), nullable=False),
            pa.field("mtime_ns", pa.int64(), nullable=False),
            pa.field("checked_ns", pa.int64(), nullable=False),
            pa.field("config", pa.string(), nullable=False),
            pa.field("config_json", pa.string(), nullable=False),
            pa.field("chunks", pa.int64(), nullable=False),
        ],
        metadata={b"sectionrag.table": b"records", b"sectionrag.schema": b"1"},
    )


def records_to_arrow(records: Sequence[SourceRecord]) -> pa.Table:
    """Turn records into rows of :func:`records_schema`."""
    import pyarrow as pa

    names = records_schema().names
    return pa.table({n: [getattr(r, n) for r in records] for n in names}, schema=records_schema())


def arrow_to_records(table: pa.Table) -> list[SourceRecord]:
    """Turn rows of a records table back into records."""
    return [SourceRecord(**row) for row in table.to_pylist()]


def cache_schema(embedder: str, dimension: int) -> pa.Schema:
    """Return the schema of the embedding cache of ``embedder``."""
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("key", pa.string(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
        ],
        metadata={_META_CACHE_EMBEDDER: embedder.encode("utf-8"), b"sectionrag.table": b"embeddings"},
    )


def vectors_column(arr: npt.NDArray[np.float32], dimension: int) -> pa.FixedSizeListArray:
    """Return ``arr`` (n, dimension) as an arrow fixed-size-list column."""
    import numpy as np
    import pyarrow as pa

    flat = np.ascontiguousarray(arr, dtype=np.float32).ravel()
    return pa.FixedSizeListArray.from_arrays(pa.array(flat, type=pa.float32()), dimension)


def chunk_rows(chunks: Sequence[Chunk], arr: npt.NDArray[np.float32], schema: pa.Schema) -> pa.Table:
    """Turn chunks and their vectors into rows of a collection's schema."""
    import pyarrow as pa

    dimension = schema.field("vector").type.list_size
    return pa.table(
        {
            "id": [c.id for c in chunks],
            "doc_id": [c.doc_id for c in chunks],
            "source": [c.source for c in chunks],
            "index": [c.index for c in chunks],
            "text": [c.text for c in chunks],
            "context": [c.context for c in chunks],
            "start": [c.start for c in chunks],
            "end": [c.end for c in chunks],
            "token_count": [c.token_count for c in chunks],
            "section_path": [list(c.section_path) for c in chunks],
            "page_start": [c.page_start for c in chunks],
            "page_end": [c.page_end for c in chunks],
            "metadata": [dump_metadata(c.metadata) for c in chunks],
            FULLTEXT_COLUMN: [c.search_text for c in chunks],  # ignored by schema 1 collections
            **enrichment_values(chunks),  # ignored by collections made before these columns
            "vector": vectors_column(arr, dimension),
        },
        schema=schema,
    )


def read_cached(table: Any, keys: Sequence[str]) -> dict[str, Any]:
    """Look ``keys`` up in a cache table; return ``{key: vector}`` for those found."""
    import numpy as np

    found: dict[str, Any] = {}
    unique = sorted(set(keys))
    for i in range(0, len(unique), LOOKUP_SLICE):
        part = unique[i : i + LOOKUP_SLICE]
        rows = table.search().where(in_list("key", part)).select(["key", "vector"]).limit(None).to_arrow()
        if rows.num_rows == 0:
            continue
        dim = rows.schema.field("vector").type.list_size
        flat = rows.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        matrix = np.asarray(flat, dtype=np.float32).reshape(rows.num_rows, dim)
        for key, vec in zip(rows.column("key").to_pylist(), matrix, strict=True):
            found[key] = vec
    return found
