"""A LanceDB vector store: embedded, in a local directory, one table per collection.

Schema (explicit, pyarrow): ``id``, ``doc_id``, ``source``, ``index``,
``text``, ``context``, ``start``, ``end``, ``token_count``, ``section_path``
(list<string>), ``page_start``/``page_end`` (nullable int64), ``metadata``
(JSON string) and ``vector`` (fixed_size_list<float32>[dimension]).

The embedder's name and dimension are recorded in the table's schema
metadata (keys ``sectionrag.embedder``, ``sectionrag.dimension``,
``sectionrag.schema``), so a collection is self-describing: no side table.

Scores, by mode:

- ``vector``: cosine similarity, ``1 - cosine distance`` (exact search).
- ``text``: BM25 from LanceDB's native full-text index on ``text``
  (English stemming and stop words); only chunks sharing a term are returned.
- ``hybrid``: reciprocal rank fusion of the vector and text rankings (each
  cut to ``max(k, 50)``), ``sum(1 / (60 + rank))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from sectionrag.errors import (
    CollectionNotFoundError,
    ConfigError,
    FilterError,
    MissingDependencyError,
    StoreError,
)
from sectionrag.protocols import CollectionInfo, DocumentInfo, SearchMode, Where
from sectionrag.stores._common import (
    HYBRID_CANDIDATES,
    check_add,
    check_collection_name,
    check_embedder_record,
    check_record_args,
    check_search,
    dump_metadata,
    finite,
    load_metadata,
    rrf,
)
from sectionrag.stores._filters import compile_sql, parse_where, sql_string
from sectionrag.types import Chunk, SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pyarrow as pa

__all__ = ["SCHEMA_VERSION", "LanceDBStore", "chunk_schema"]

SCHEMA_VERSION = "1"
_META_EMBEDDER = b"sectionrag.embedder"
_META_DIMENSION = b"sectionrag.dimension"
_META_SCHEMA = b"sectionrag.schema"
#: columns returned by searches (everything but the vector)
_COLUMNS = [
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


def _import_lancedb() -> Any:
    try:
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
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
        ],
        metadata={
            _META_EMBEDDER: embedder.encode("utf-8"),
            _META_DIMENSION: str(dimension).encode("ascii"),
            _META_SCHEMA: SCHEMA_VERSION.encode("ascii"),
        },
    )


class LanceDBStore:
    """A :class:`~sectionrag.protocols.VectorStore` backed by embedded LanceDB.

    Nothing is created until :meth:`ensure_collection`; reading a database
    that does not exist reports no collections. ``add`` replaces chunks whose
    id is already stored (merge on ``id``) and validates everything before it
    writes, so a refused add loses nothing.

    Args:
        path: Directory of the database (created on first write).
        collection: Table name (letters, digits, ``_``, ``-``, ``.``).
    """

    def __init__(self, path: str | Path, collection: str = "default") -> None:
        self.path = Path(path).expanduser()
        self.collection = check_collection_name(collection)
        self._db: Any = None

    def __repr__(self) -> str:
        return f"LanceDBStore({str(self.path)!r}, collection={self.collection!r})"

    # -- connection -------------------------------------------------------
    def _connect(self, *, create: bool) -> Any:
        if self._db is None:
            if not create and not self.path.is_dir():
                return None
            lancedb = _import_lancedb()
            try:
                # read_consistency_interval=0: always see other writers' latest version
                self._db = lancedb.connect(str(self.path), read_consistency_interval=timedelta(0))
            except Exception as e:
                raise StoreError(f"cannot open LanceDB database at {self.path}: {e}") from e
        return self._db

    def collections(self) -> list[str]:
        """Return the names of the collections in this database, sorted."""
        db = self._connect(create=False)
        if db is None:
            return []
        names: list[str] = []
        token: str | None = None
        while True:
            response = db.list_tables(page_token=token)
            names.extend(response.tables)
            token = response.page_token
            if not token:
                break
        return sorted(names)

    def _open(self) -> Any:
        db = self._connect(create=False)
        if db is None or self.collection not in self.collections():
            return None
        return db.open_table(self.collection)

    def _require(self) -> tuple[Any, tuple[str, int]]:
        table = self._open()
        if table is None:
            existing = ", ".join(self.collections()) or "none"
            raise CollectionNotFoundError(
                f"collection {self.collection!r} does not exist in {self.path} "
                f"(existing collections: {existing}); index documents into it first "
                "or pick an existing one with --collection"
            )
        return table, self._read_record(table)

    def _read_record(self, table: Any) -> tuple[str, int]:
        meta = table.schema.metadata or {}
        try:
            return meta[_META_EMBEDDER].decode("utf-8"), int(meta[_META_DIMENSION])
        except (KeyError, ValueError) as e:
            raise StoreError(
                f"table {self.collection!r} in {self.path} was not created by sectionrag "
                "(no embedder recorded in its schema); use another collection name"
            ) from e

    # -- collection -------------------------------------------------------
    def ensure_collection(self, embedder: str, dimension: int) -> None:
        """Create the collection for ``embedder`` vectors of ``dimension``, or check that it matches.

        Raises:
            EmbedderMismatchError: the collection was built with another embedder or dimension.
        """
        check_record_args(embedder, dimension)
        table = self._open()
        if table is None:
            db = self._connect(create=True)
            try:
                table = db.create_table(
                    self.collection, schema=chunk_schema(embedder, dimension), exist_ok=True
                )
            except Exception as e:
                raise StoreError(f"cannot create collection {self.collection!r} in {self.path}: {e}") from e
            self._ensure_fts(table)
        check_embedder_record(self.collection, self._read_record(table), embedder, dimension)

    def info(self) -> CollectionInfo | None:
        """Return the collection's record and chunk count, or ``None`` if it does not exist."""
        table = self._open()
        if table is None:
            return None
        name, dim = self._read_record(table)
        return CollectionInfo(self.collection, name, dim, int(table.count_rows()))

    def drop(self) -> bool:
        """Delete the collection and its data; return whether it existed."""
        db = self._connect(create=False)
        if db is None or self.collection not in self.collections():
            return False
        db.drop_table(self.collection)
        return True

    def _ensure_fts(self, table: Any) -> None:
        if any(i.index_type == "FTS" and list(i.columns) == ["text"] for i in table.list_indices()):
            return
        from lancedb.index import FTS

        try:
            table.create_index("text", config=FTS(), replace=True)
        except Exception as e:
            raise StoreError(f"cannot build the full-text index of {self.collection!r}: {e}") from e

    # -- writing ----------------------------------------------------------
    def add(
        self,
        chunks: Sequence[Chunk],
        vectors: npt.NDArray[np.float32],
        *,
        embedder: str | None = None,
    ) -> None:
        """Add (or replace, by chunk id) chunks with one vector each; validates everything first.

        Args:
            chunks: The chunks to store.
            vectors: Shape ``(len(chunks), dimension)``.
            embedder: If given, must be the embedder the collection records.

        Raises:
            CollectionNotFoundError: :meth:`ensure_collection` was never called.
            EmbedderMismatchError: wrong dimension or embedder; nothing is written.
            StoreError: one vector per chunk was not given, values are not finite, or the write failed.
        """
        import pyarrow as pa

        table, record = self._require()
        arr = check_add(chunks, vectors, collection=self.collection, recorded=record, embedder=embedder)
        if not chunks:
            return
        schema = table.schema
        data = pa.table(
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
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(arr.ravel()), record[1]),
            },
            schema=schema,
        )
        try:
            (table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(data))
        except Exception as e:
            raise StoreError(f"LanceDB failed to add {len(chunks)} chunks to {self.collection!r}: {e}") from e

    def delete(self, doc_id: str) -> int:
        """Delete every chunk of ``doc_id``; return how many were deleted (0 if none or no collection)."""
        if not isinstance(doc_id, str):
            raise TypeError(f"doc_id must be str, not {type(doc_id).__name__}")
        table = self._open()
        if table is None:
            return 0
        predicate = f'"doc_id" = {sql_string(doc_id)}'
        n = int(table.count_rows(predicate))
        if n:
            try:
                table.delete(predicate)
            except Exception as e:
                raise StoreError(f"LanceDB failed to delete document {doc_id!r}: {e}") from e
        return n

    # -- reading ----------------------------------------------------------
    def documents(self) -> list[DocumentInfo]:
        """List the documents held, sorted by source then doc id (``[]`` if no collection)."""
        table = self._open()
        if table is None:
            return []
        rows = table.search().select(["doc_id", "source"]).limit(None).to_arrow()
        if rows.num_rows == 0:
            return []
        grouped = rows.group_by(["source", "doc_id"]).aggregate([("doc_id", "count")]).to_pylist()
        infos = [DocumentInfo(g["doc_id"], g["source"], int(g["doc_id_count"])) for g in grouped]
        return sorted(infos, key=lambda d: (d.source, d.doc_id))

    def search(
        self,
        query_vector: npt.NDArray[np.float32] | None = None,
        query_text: str | None = None,
        k: int = 5,
        where: Where | None = None,
        mode: SearchMode = "vector",
    ) -> list[SearchResult]:
        """Return the ``k`` best hits, best first (scores are described in the module docstring).

        ``where`` is a structured mapping (see :mod:`sectionrag.stores._filters`)
        or, for experts, a raw LanceDB SQL predicate string used as is.

        Raises:
            CollectionNotFoundError: the collection does not exist (the message lists those that do).
            ConfigError: bad ``k`` or ``mode``, or the query the mode needs is missing.
            EmbedderMismatchError: the query vector has the wrong dimension.
            FilterError: the filter is invalid or LanceDB rejected a raw filter.
        """
        table, record = self._require()
        q = check_search(query_vector, query_text, k, mode, collection=self.collection, recorded=record)
        raw = isinstance(where, str)
        if isinstance(where, str):
            sql: str | None = where.strip() or None
        else:
            sql = compile_sql(parse_where(where))
        try:
            if mode == "vector":
                assert q is not None
                rows = self._vector_rows(table, q, k, sql)
                scored = [(r, finite(1.0 - float(r["_distance"]))) for r in rows]
            elif mode == "text":
                assert query_text is not None
                scored = [(r, float(r["_score"])) for r in self._text_rows(table, query_text, k, sql)]
            elif mode == "hybrid":
                assert q is not None and query_text is not None
                pool = max(k, HYBRID_CANDIDATES)
                by_id = {}
                vec_ids: list[str] = []
                for r in self._vector_rows(table, q, pool, sql):
                    by_id[r["id"]] = r
                    vec_ids.append(r["id"])
                text_ids: list[str] = []
                for r in self._text_rows(table, query_text, pool, sql):
                    by_id.setdefault(r["id"], r)
                    text_ids.append(r["id"])
                scored = [(by_id[cid], score) for cid, score in rrf([vec_ids, text_ids])]
            else:  # pragma: no cover - check_search rejects other modes
                raise ConfigError(f"unknown search mode {mode!r}")
        except (ConfigError, StoreError):
            raise
        except Exception as e:
            if raw:
                raise FilterError(f"LanceDB rejected the filter {where!r}: {e}") from e
            raise StoreError(f"LanceDB search in {self.collection!r} failed: {e}") from e
        return [_result(rank, row, score) for rank, (row, score) in enumerate(scored[:k], start=1)]

    @staticmethod
    def _vector_rows(
        table: Any, q: npt.NDArray[np.float32], limit: int, sql: str | None
    ) -> list[dict[str, Any]]:
        query = table.search(q, vector_column_name="vector").distance_type("cosine")
        if sql:
            query = query.where(sql, prefilter=True)
        rows: list[dict[str, Any]] = (
            query.select([*_COLUMNS, "_distance"]).limit(limit).to_arrow().to_pylist()
        )
        rows.sort(key=lambda r: r["_distance"])
        return rows

    def _text_rows(self, table: Any, text: str, limit: int, sql: str | None) -> list[dict[str, Any]]:
        from lancedb import query as lance_query

        match_query: Any = lance_query.MatchQuery  # its stub marks optional fields as required
        if not text.strip():
            return []
        self._ensure_fts(table)
        query = table.search(match_query(text, "text"), query_type="fts")
        if sql:
            query = query.where(sql, prefilter=True)
        rows: list[dict[str, Any]] = query.select([*_COLUMNS, "_score"]).limit(limit).to_arrow().to_pylist()
        rows.sort(key=lambda r: -r["_score"])
        return rows


def _result(rank: int, row: dict[str, Any], score: float) -> SearchResult:
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
