"""A LanceDB vector store: embedded, in a local directory or on object storage, one table per collection.

The database is a local directory or a URI on object storage (``s3://``,
``gs://``, ``az://``), opened with ``storage_options`` (credentials, endpoint,
region: the keys LanceDB takes) or the usual environment variables
(``AWS_ACCESS_KEY_ID``, ``GOOGLE_APPLICATION_CREDENTIALS``,
``AZURE_STORAGE_ACCOUNT_NAME`` ...). Storage options are never shown, logged,
pickled into error messages or written into the collection.

Schema (explicit, pyarrow): ``id``, ``doc_id``, ``source``, ``index``,
``text``, ``context``, ``start``, ``end``, ``token_count``, ``section_path``
(list<string>), ``page_start``/``page_end`` (nullable int64), ``metadata``
(JSON string), ``fulltext`` (the chunk's document title, a newline and its
text: what full-text search reads; schema version 2), the enrichment columns
(``enrichment``: summary, questions and keywords as text, full-text
indexed; list columns ``dates``, ``years``, ``fiscal_periods``, ``amounts``,
``percentages``, ``entities``, ``keywords``, ``categories`` for filters;
see :mod:`sectionrag.stores._lance_enrich`) and ``vector`` (fixed_size_list<float32>[dimension]).

The embedder's name and dimension are recorded in the table's schema
metadata (see :mod:`sectionrag.stores._lance_schema`), so a collection is
self-describing: no side table.

Scores, by mode (higher is better):

- ``vector``: cosine similarity, ``1 - cosine distance``, in ``[-1, 1]``.
  Exact (brute force) below :attr:`AnnConfig.threshold` rows, approximate
  through an ANN index above it (``exact=True`` bypasses the index).
- ``text``: BM25 from LanceDB's native full-text indexes on ``fulltext``
  and ``enrichment``, the better of ``bm25(fulltext)`` and ``0.5 *
  bm25(enrichment)`` (English stemming, stop words, ASCII folding); only
  chunks sharing a term are returned. Collections made before ``fulltext``
  (schema version 1) match ``text`` instead: they open and search as they
  always did, without the document titles. The query is matched as plain words (never parsed as query
  syntax). Rows written after the index was built are searched too.
- ``hybrid``: the vector and text rankings (their best 50 fused first, deeper
  candidates that a larger ``k`` fetches after them: see ``fuse_candidates``)
  fused with weights ``(w_vector, w_text)``, ``(1, 1)`` by default.
  ``fusion="linear"`` (default): ``w_vector * v + w_text * t`` where ``v``
  and ``t`` are the cosine and BM25 scores min-max normalised to ``[0, 1]``
  over each ranking's candidates (0 when a ranking misses the chunk), so the
  best possible score is ``w_vector + w_text`` (2). ``fusion="zscore"``: the
  same sum over scores standardised over each ranking's candidates (minus
  their mean, over their standard deviation; 0 when a ranking misses the
  chunk). ``fusion="rrf"``: reciprocal rank fusion ``w_vector / (60 +
  rank_vector) + w_text / (60 + rank_text)``, a ranking that misses a chunk
  adds nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_number, check_path
from sectionrag.defaults import (
    DEFAULT_COLLECTION,
    DEFAULT_FUSION,
    DEFAULT_K,
    DEFAULT_WEIGHTS,
)
from sectionrag.errors import ConfigError, FilterError, StoreError
from sectionrag.protocols import CollectionInfo, DocumentInfo, SearchMode, SourceRecord, Where
from sectionrag.stores._common import (
    HYBRID_CANDIDATES,
    check_add,
    check_collection_name,
    check_embedder_record,
    check_fusion,
    check_record_args,
    check_search,
    finite,
    fuse_candidates,
)
from sectionrag.stores._filters import compile_sql, parse_where, resolve_sources, sql_string
from sectionrag.stores._lance_enrich import check_list_columns, fts_boosts, fts_columns
from sectionrag.stores._lance_schema import (
    COLUMNS,
    SCHEMA_VERSION,
    chunk_schema,
    row_result,
)
from sectionrag.stores._lance_search import (
    AnnConfig,
    IndexState,
    ann_due,
    build_vector_index,
    ensure_fts,
    ensure_scalar_indexes,
    index_state,
    text_rows,
    upkeep,
    vector_rows,
)
from sectionrag.stores._lance_tables import (
    REMOTE_SCHEMES,
    LanceTables,
    check_storage_options,
    is_remote,
    redact,
    shown_uri,
)
from sectionrag.stores._lance_write import (
    INTERNAL_PREFIX,
    arrow_to_records,
    cache_schema,
    cache_table_name,
    chunk_rows,
    in_list,
    lock_file_name,
    read_cached,
    records_schema,
    records_table_name,
    records_to_arrow,
    vectors_column,
)
from sectionrag.stores._lease import DEFAULT_LEASE_SECONDS
from sectionrag.types import Chunk, SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "REMOTE_SCHEMES",
    "SCHEMA_VERSION",
    "AnnConfig",
    "IndexState",
    "LanceDBStore",
    "chunk_schema",
    "is_remote",
]


class LanceDBStore(LanceTables):
    """A :class:`~sectionrag.protocols.VectorStore` backed by embedded LanceDB.

    Nothing is created until :meth:`ensure_collection`; reading a database
    that does not exist reports no collections. ``add`` replaces chunks whose
    id is already stored (merge on ``id``) and validates everything before it
    writes, so a refused add loses nothing.

    Several stores (collections) can share one database. The store pickles
    (without its connection), so worker processes can read the embedding cache.

    Args:
        path: Directory of the database (created on first write), or a URI on object
            storage: ``s3://bucket/prefix``, ``gs://bucket/prefix``, ``az://container/prefix``.
        collection: Table name (letters, digits, ``_``, ``-``, ``.``).
        storage_options: Options of the object store, as LanceDB takes them
            (``aws_access_key_id``, ``aws_endpoint``, ``aws_region``, ``allow_http``,
            ``google_service_account``, ``azure_storage_account_name`` ...); without
            them the usual environment variables are read. Never shown or recorded.
        lock_ttl: On object storage, seconds the single-writer lease lives without
            renewal: a writer killed holding it blocks others this long at most.
        ann: When to build the ANN vector index and how to search it.
        fusion: Default hybrid fusion, ``"linear"`` (default), ``"zscore"`` or ``"rrf"``.
        weights: Default ``(vector, text)`` weights of hybrid fusion (``(1, 1)``).
    """

    def __init__(
        self,
        path: str | Path,
        collection: str = DEFAULT_COLLECTION,
        *,
        storage_options: Mapping[str, str] | None = None,
        lock_ttl: float = DEFAULT_LEASE_SECONDS,
        ann: AnnConfig | None = None,
        fusion: str = DEFAULT_FUSION,
        weights: tuple[float, float] = DEFAULT_WEIGHTS,
    ) -> None:
        check_path("path", path)
        #: whether the database lives on object storage
        self.remote = is_remote(path)
        #: the local directory of the database (``None`` on object storage)
        self.path: Path | None = None if self.remote else Path(path).expanduser()
        #: the database as LanceDB opens it: a directory or a URI
        self.uri = str(path).rstrip("/") if self.remote else str(self.path)
        self._storage_options = check_storage_options(storage_options)
        self.lock_ttl = check_number("lock_ttl", lock_ttl, minimum=0.1)
        self.collection = check_collection_name(collection)
        self._db: Any = None
        self._lease: Any = None
        if ann is not None and not isinstance(ann, AnnConfig):
            raise TypeError(f"ann must be an AnnConfig, not {type(ann).__name__}")
        self.ann = ann or AnnConfig()
        self.fusion, self.weights = check_fusion(fusion, weights)
        self._fts_checked = False
        self._sources_cache: tuple[int, list[str]] | None = None

    def __repr__(self) -> str:
        return f"LanceDBStore({self.where!r}, collection={self.collection!r})"

    @property
    def where(self) -> str:
        """The database as shown in messages: its directory or URI (never a credential)."""
        return shown_uri(self.uri)

    def __getstate__(self) -> dict[str, Any]:
        # for worker processes: the connection, caches and the lease stay here
        state = {k: getattr(self, k) for k in self.__dict__}
        state.update(_db=None, _lease=None, _sources_cache=None, _fts_checked=False)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def collections(self) -> list[str]:
        """Return the names of the collections in this database, sorted."""
        db = self._connect(create=False)
        if db is None:
            return []
        names: list[str] = []
        token: str | None = None
        while True:
            response = db.list_tables(page_token=token)
            names.extend(n for n in response.tables if not n.startswith(INTERNAL_PREFIX))
            token = response.page_token
            if not token:
                break
        return sorted(names)

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
                raise StoreError(
                    f"cannot create collection {self.collection!r} in {self.where}: {redact(e, self)}"
                ) from e
            ensure_fts(table, fts_columns(table.schema), self.collection)
            ensure_scalar_indexes(table, self.collection)
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
        if self._open_internal(records_table_name(self.collection)) is not None:
            db.drop_table(records_table_name(self.collection))
        return True

    def _indexed_sources(self, table: Any) -> list[str]:
        """Return the distinct sources of the collection (cached per table version)."""
        version = table.version
        if self._sources_cache is None or self._sources_cache[0] != version:
            column = table.search().select(["source"]).limit(None).to_arrow().column("source")
            self._sources_cache = (version, sorted(set(column.to_pylist())))
        return self._sources_cache[1]

    # -- indexes ----------------------------------------------------------
    def index_state(self) -> IndexState | None:
        """Return the collection's indexes and their unindexed rows, or ``None`` if it does not exist."""
        table = self._open()
        return None if table is None else index_state(table)

    def optimize(self, *, ann: bool | None = None) -> IndexState:
        """Compact the collection, bring its indexes up to date and build the ANN index when due.

        New rows are merged into the full-text and vector indexes (searches
        stay correct without this: LanceDB scans rows an index lacks, only
        slower). The ANN index is trained again when it covers less than half
        of the rows.

        Args:
            ann: ``True`` builds the ANN index whatever the row count (it needs
                at least 256 rows), ``False`` never builds one, ``None`` builds it
                from :attr:`AnnConfig.threshold` rows on.

        Returns:
            The index state afterwards.

        Raises:
            CollectionNotFoundError: the collection does not exist.
            StoreError: LanceDB failed.
        """
        table, _ = self._require()
        ensure_fts(table, fts_columns(table.schema), self.collection)
        ensure_scalar_indexes(table, self.collection)
        try:
            table.optimize()
            state = index_state(table)
            if ann_due(state, self.ann, force=ann):
                build_vector_index(table, self.ann, state.rows)
                state = index_state(table)
        except Exception as e:
            raise StoreError(f"LanceDB failed to optimize {self.collection!r}: {redact(e, self)}") from e
        return state

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
        table, record = self._require()
        arr = check_add(chunks, vectors, collection=self.collection, recorded=record, embedder=embedder)
        if not chunks:
            return
        data = chunk_rows(chunks, arr, table.schema)
        try:
            (table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(data))
        except Exception as e:
            raise StoreError(
                f"LanceDB failed to add {len(chunks)} chunks to {self.collection!r}: {redact(e, self)}"
            ) from e
        upkeep(table, self.ann, self.collection)

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
                raise StoreError(f"LanceDB failed to delete document {doc_id!r}: {redact(e, self)}") from e
        return n

    # -- ingestion: atomic replacement, records, embedding cache, lock ----
    def write_lock(self, timeout: float = 0.0) -> AbstractContextManager[None]:
        """Hold the collection's single-writer lock for the ``with`` block.

        In a directory it is a file lock, released by the kernel even if the
        process is killed. On object storage it is a lease object written with
        conditional requests and renewed while held; one whose holder was killed
        is taken over after ``lock_ttl`` seconds (see :mod:`sectionrag.stores._lease`).

        Raises:
            IngestError: another process (or thread) holds it after ``timeout`` seconds.
            MissingDependencyError: on object storage, without ``obstore`` (``sectionrag[cloud]``).
        """
        what = f"collection {self.collection!r} in {self.where}"
        if self.remote:
            return self._remote_lock(what, timeout)
        from sectionrag.stores._lock import file_lock

        self._check_directory()
        assert self.path is not None
        return file_lock(self.path / lock_file_name(self.collection), what=what, timeout=timeout)

    def read_records(self) -> list[SourceRecord]:
        """Return the record of every source indexed into this collection (``[]`` if none)."""
        table = self._open_internal(records_table_name(self.collection))
        if table is None:
            return []
        return arrow_to_records(table.search().limit(None).to_arrow())

    def write_records(self, records: Sequence[SourceRecord], *, delete: Sequence[str] = ()) -> None:
        """Upsert ``records`` by source and remove the records of ``delete``, in one commit."""
        if not records and not delete:
            return
        self._check_lease()
        table = self._internal_table(records_table_name(self.collection), records_schema())
        try:
            if records:
                merge = table.merge_insert("source").when_matched_update_all().when_not_matched_insert_all()
                if delete:
                    merge = merge.when_not_matched_by_source_delete(in_list("source", list(delete)))
                merge.execute(records_to_arrow(records))
            else:
                table.delete(in_list("source", list(delete)))
        except Exception as e:
            raise StoreError(
                f"LanceDB failed to write ingestion records of {self.collection!r}: {redact(e, self)}"
            ) from e

    def replace_sources(
        self, sources: Sequence[str], chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Make ``chunks`` the only chunks of ``sources``, in one commit (one table version).

        A ``merge_insert`` on ``id`` inserts the new chunks, updates identical
        ones and deletes every other chunk of those sources together, so a
        reader (or a process killed meanwhile) sees each source's chunks all
        old or all new, never half. With no chunks the sources are deleted.

        Raises:
            StoreError: a chunk's source is not among ``sources``, or the write failed.
        """
        table, record = self._require()
        arr = check_add(chunks, vectors, collection=self.collection, recorded=record, embedder=None)
        wanted = set(sources)
        stray = next((c.source for c in chunks if c.source not in wanted), None)
        if stray is not None:
            raise StoreError(f"chunk of source {stray!r} given to replace_sources for other sources")
        if not sources:
            return
        self._check_lease()
        scope = in_list("source", sorted(wanted))
        try:
            if not chunks:
                table.delete(scope)
                return
            (
                table.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .when_not_matched_by_source_delete(scope)
                .execute(chunk_rows(chunks, arr, table.schema))
            )
        except Exception as e:
            raise StoreError(
                f"LanceDB failed to replace the chunks of {len(wanted)} source(s) in {self.collection!r}: "
                f"{redact(e, self)}"
            ) from e
        upkeep(table, self.ann, self.collection)

    def cached_vectors(self, embedder: str, dimension: int, keys: Sequence[str]) -> dict[str, Any]:
        """Return ``{key: vector}`` for the ``keys`` (text hashes) cached for ``embedder``."""
        table = self._open_internal(cache_table_name(embedder, dimension))
        if table is None or not keys:
            return {}
        try:
            return read_cached(table, keys)
        except Exception as e:
            raise StoreError(
                f"cannot read the embedding cache of {embedder!r} in {self.where}: {redact(e, self)}"
            ) from e

    def cache_vectors(
        self, embedder: str, dimension: int, keys: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Append ``vectors`` to the embedding cache of ``embedder`` under ``keys`` (one commit)."""
        import pyarrow as pa

        if not keys:
            return
        self._check_lease()
        schema = cache_schema(embedder, dimension)
        table = self._internal_table(cache_table_name(embedder, dimension), schema)
        data = pa.table({"key": list(keys), "vector": vectors_column(vectors, dimension)}, schema=schema)
        try:
            table.add(data)
        except Exception as e:
            raise StoreError(
                f"cannot write the embedding cache of {embedder!r} in {self.where}: {redact(e, self)}"
            ) from e

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
        k: int = DEFAULT_K,
        where: Where | None = None,
        mode: SearchMode = "vector",  # a store is asked for what it is given; pipelines pick the mode
        *,
        fusion: str | None = None,
        weights: tuple[float, float] | None = None,
        exact: bool = False,
    ) -> list[SearchResult]:
        """Return the ``k`` best hits, best first (scores are described in the module docstring).

        Args:
            query_vector: The embedded query (``vector`` and ``hybrid``).
            query_text: The query's words (``text`` and ``hybrid``).
            k: How many hits.
            where: A structured mapping (see :mod:`sectionrag.stores._filters`)
                or, for experts, a raw LanceDB SQL predicate string used as is.
            mode: ``vector``, ``text`` or ``hybrid``.
            fusion: Hybrid fusion for this call (``linear``, ``zscore`` or ``rrf``; default: the store's).
            weights: ``(vector, text)`` hybrid weights for this call (default: the store's).
            exact: Search vectors by brute force even when an ANN index exists.

        Raises:
            CollectionNotFoundError: the collection does not exist (the message lists those that do).
            ConfigError: bad ``k``, ``mode``, ``fusion`` or ``weights``, or the query the mode
                needs is missing.
            EmbedderMismatchError: the query vector has the wrong dimension.
            FilterError: the filter is invalid or LanceDB rejected a raw filter.
        """
        table, record = self._require()
        q = check_search(query_vector, query_text, k, mode, collection=self.collection, recorded=record)
        how, ws = check_fusion(fusion or self.fusion, self.weights if weights is None else weights)
        raw = isinstance(where, str)
        if isinstance(where, str):
            sql: str | None = where.strip() or None
        else:
            conditions = parse_where(where)
            check_list_columns(conditions, table.schema, self.collection)
            if any(c.field == "source" for c in conditions):  # exact names let the source index serve
                conditions = resolve_sources(conditions, self._indexed_sources(table))
            sql = compile_sql(conditions, source_paths=False)
        try:
            if mode == "vector":
                assert q is not None
                scored = self._vector_scored(table, q, k, sql, exact)
            elif mode == "text":
                assert query_text is not None
                scored = self._text_scored(table, query_text, k, sql)
            elif mode == "hybrid":
                assert q is not None and query_text is not None
                pool = max(k, HYBRID_CANDIDATES)
                by_vec = self._vector_scored(table, q, pool, sql, exact)
                by_text = self._text_scored(table, query_text, pool, sql)
                by_id = {r["id"]: r for r, _ in by_text}
                by_id.update((r["id"], r) for r, _ in by_vec)
                fused = fuse_candidates(
                    [(r["id"], score) for r, score in by_vec],
                    [(r["id"], score) for r, score in by_text],
                    how,
                    ws,
                )
                scored = [(by_id[cid], score) for cid, score in fused]
            else:  # pragma: no cover - check_search rejects other modes
                raise ConfigError(f"unknown search mode {mode!r}")
        except (ConfigError, StoreError):
            raise
        except Exception as e:
            if raw:
                raise FilterError(f"LanceDB rejected the filter {where!r}: {redact(e, self)}") from e
            raise StoreError(f"LanceDB search in {self.collection!r} failed: {redact(e, self)}") from e
        return [row_result(rank, row, score) for rank, (row, score) in enumerate(scored[:k], start=1)]

    def _vector_scored(
        self, table: Any, q: npt.NDArray[np.float32], limit: int, sql: str | None, exact: bool
    ) -> list[tuple[dict[str, Any], float]]:
        rows = vector_rows(table, q, limit, sql, COLUMNS, self.ann, exact=exact)
        return [(r, finite(1.0 - float(r["_distance"]))) for r in rows]

    def _text_scored(
        self, table: Any, text: str, limit: int, sql: str | None
    ) -> list[tuple[dict[str, Any], float]]:
        if not self._fts_checked:  # collections made before the index existed get it here, once
            ensure_fts(table, fts_columns(table.schema), self.collection)
            self._fts_checked = True
        columns = fts_columns(table.schema)
        rows = text_rows(table, text, limit, sql, COLUMNS, fts_columns=columns, boosts=fts_boosts(columns))
        return [(r, float(r["_score"])) for r in rows]
