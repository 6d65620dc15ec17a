r"""An in-memory vector store (numpy): for tests, notebooks and small corpora.

Scores, by mode:

- ``vector``: cosine similarity of the query vector and the chunk vector
  (both normalised here), in ``[-1, 1]``.
- ``text``: Okapi BM25 (``k1=1.5``, ``b=0.75``) of the query's words over
  the chunk's document title and text (:attr:`~sectionrag.types.Chunk.search_text`)
  plus its enrichment text (summary, questions, keywords; see
  :func:`~sectionrag.enrichment_fields.enrichment_text`), lower-cased ``\w+``
  tokens, no stemming; only chunks sharing a word with the query are returned.
- ``hybrid``: the vector and text rankings (their best 50 fused first, deeper
  candidates that a larger ``k`` fetches after them: see ``fuse_candidates``)
  fused with weights ``(w_vector, w_text)``, ``(1, 1)`` by default: by
  default (``fusion="linear"``) the weighted sum of each ranking's scores
  min-max normalised over its candidates (best possible ``w_vector +
  w_text``), with ``fusion="zscore"`` standardised instead, or with
  ``fusion="rrf"`` reciprocal rank fusion ``sum(w / (60 + rank))`` (see
  :mod:`sectionrag.stores.lancedb`).
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_number
from sectionrag.defaults import (
    DEFAULT_COLLECTION,
    DEFAULT_FUSION,
    DEFAULT_K,
    DEFAULT_WEIGHTS,
)
from sectionrag.enrichment_fields import enrichment_text, list_values
from sectionrag.errors import CollectionNotFoundError, ConfigError, FilterError, IngestError, StoreError
from sectionrag.protocols import CollectionInfo, DocumentInfo, SearchMode, SourceRecord, Where
from sectionrag.stores._common import (
    HYBRID_CANDIDATES,
    check_add,
    check_collection_name,
    check_embedder_record,
    check_fusion,
    check_record_args,
    check_search,
    fuse_candidates,
)
from sectionrag.stores._filters import matches, parse_where
from sectionrag.types import Chunk, SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["InMemoryStore"]

_WORD = re.compile(r"\w+", re.UNICODE)
_BM25_K1 = 1.5
_BM25_B = 0.75


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@dataclass(slots=True)
class _Row:
    chunk: Chunk
    vector: npt.NDArray[np.float32]  # unit length (or zero)
    terms: Counter[str]
    length: int

    def fields(self) -> Mapping[str, Any]:
        c = self.chunk
        return {
            "id": c.id,
            "doc_id": c.doc_id,
            "source": c.source,
            "index": c.index,
            "start": c.start,
            "end": c.end,
            "token_count": c.token_count,
            "page_start": c.page_start,
            "page_end": c.page_end,
            "section_path": c.section_path,
            **list_values(c.metadata),
        }


class InMemoryStore:
    """A :class:`~sectionrag.protocols.VectorStore` held in memory; one collection per instance.

    ``add`` replaces chunks whose id is already stored. Structured ``where``
    filters follow :mod:`sectionrag.stores._filters`; raw string filters need
    :class:`~sectionrag.stores.LanceDBStore`.

    Args:
        collection: Name reported by :meth:`info`.
        fusion: Default hybrid fusion, ``"linear"`` (default), ``"zscore"`` or ``"rrf"``.
        weights: Default ``(vector, text)`` weights of hybrid fusion (``(1, 1)``).
    """

    def __init__(
        self,
        collection: str = DEFAULT_COLLECTION,
        *,
        fusion: str = DEFAULT_FUSION,
        weights: tuple[float, float] = DEFAULT_WEIGHTS,
    ) -> None:
        self.collection = check_collection_name(collection)
        self.fusion, self.weights = check_fusion(fusion, weights)
        self._record: tuple[str, int] | None = None
        self._rows: dict[str, _Row] = {}
        self._records: dict[str, SourceRecord] = {}
        self._cache: dict[tuple[str, int], dict[str, npt.NDArray[np.float32]]] = {}
        self._writer = threading.Lock()

    # -- collection -------------------------------------------------------
    def ensure_collection(self, embedder: str, dimension: int) -> None:
        """Record ``embedder``/``dimension`` on first call; afterwards check they match.

        Raises:
            EmbedderMismatchError: the collection records another embedder or dimension.
        """
        check_record_args(embedder, dimension)
        if self._record is None:
            self._record = (embedder, dimension)
        else:
            check_embedder_record(self.collection, self._record, embedder, dimension)

    def info(self) -> CollectionInfo | None:
        """Return the collection's record, or ``None`` before :meth:`ensure_collection`."""
        if self._record is None:
            return None
        return CollectionInfo(self.collection, self._record[0], self._record[1], len(self._rows))

    def collections(self) -> list[str]:
        """Return ``[collection]`` once it exists, else ``[]``."""
        return [self.collection] if self._record is not None else []

    def drop(self) -> bool:
        """Forget the collection and its chunks; return whether it existed."""
        existed = self._record is not None
        self._record = None
        self._rows = {}
        self._records = {}
        return existed

    def _require(self) -> tuple[str, int]:
        if self._record is None:
            raise CollectionNotFoundError(
                f"collection {self.collection!r} does not exist yet (existing collections: none); "
                "index documents first (ensure_collection, then add)"
            )
        return self._record

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
            StoreError: one vector per chunk was not given, or values are not finite.
        """
        record = self._require()
        arr = check_add(chunks, vectors, collection=self.collection, recorded=record, embedder=embedder)
        rows = dict(self._rows)
        rows.update(_rows(chunks, arr))
        self._rows = rows  # one reference swap: a concurrent reader sees all or nothing

    def delete(self, doc_id: str) -> int:
        """Delete every chunk of ``doc_id``; return how many were deleted."""
        if not isinstance(doc_id, str):
            raise TypeError(f"doc_id must be str, not {type(doc_id).__name__}")
        rows = {cid: row for cid, row in self._rows.items() if row.chunk.doc_id != doc_id}
        n = len(self._rows) - len(rows)
        self._rows = rows
        return n

    # -- ingestion (see sectionrag.protocols.IncrementalStore) --------------
    @contextmanager
    def write_lock(self, timeout: float = 0.0) -> Iterator[None]:
        """Hold this store's single-writer lock (within the process).

        Raises:
            IngestError: another thread holds it after ``timeout`` seconds.
        """
        timeout = min(check_number("timeout", timeout, minimum=0), threading.TIMEOUT_MAX)
        writer = self._writer
        acquired = writer.acquire(timeout=timeout) if timeout > 0 else writer.acquire(blocking=False)
        if not acquired:
            raise IngestError(
                f"another ingest is writing to in-memory collection {self.collection!r}; "
                "wait for it to finish, or pass a longer lock_timeout"
            )
        try:
            yield
        finally:
            self._writer.release()

    def read_records(self) -> list[SourceRecord]:
        """Return the record of every indexed source, sorted by source."""
        return [self._records[k] for k in sorted(self._records)]

    def write_records(self, records: Sequence[SourceRecord], *, delete: Sequence[str] = ()) -> None:
        """Upsert ``records`` by source and remove the records of ``delete``."""
        updated = {k: v for k, v in self._records.items() if k not in set(delete)}
        updated.update((r.source, r) for r in records)
        self._records = updated

    def replace_sources(
        self, sources: Sequence[str], chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Make ``chunks`` the only chunks of ``sources`` (one swap: readers see all old or all new).

        Raises:
            StoreError: a chunk's source is not among ``sources``, or vectors do not fit.
        """
        record = self._require()
        arr = check_add(chunks, vectors, collection=self.collection, recorded=record, embedder=None)
        wanted = set(sources)
        stray = next((c.source for c in chunks if c.source not in wanted), None)
        if stray is not None:
            raise StoreError(f"chunk of source {stray!r} given to replace_sources for other sources")
        rows = {cid: row for cid, row in self._rows.items() if row.chunk.source not in wanted}
        rows.update(_rows(chunks, arr))
        self._rows = rows

    def cached_vectors(self, embedder: str, dimension: int, keys: Sequence[str]) -> dict[str, Any]:
        """Return ``{key: vector}`` for the ``keys`` cached for ``embedder``."""
        cache = self._cache.get((embedder, dimension), {})
        return {k: cache[k] for k in keys if k in cache}

    def cache_vectors(
        self, embedder: str, dimension: int, keys: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Remember ``vectors`` of ``embedder`` under ``keys``."""
        import numpy as np

        cache = self._cache.setdefault((embedder, dimension), {})
        for key, vec in zip(keys, np.asarray(vectors, dtype=np.float32), strict=True):
            cache[key] = vec.copy()

    # -- reading ----------------------------------------------------------
    def documents(self) -> list[DocumentInfo]:
        """List the documents held, sorted by source then doc id."""
        counts: Counter[tuple[str, str]] = Counter()
        for row in self._rows.values():
            counts[(row.chunk.source, row.chunk.doc_id)] += 1
        return [DocumentInfo(doc_id, source, n) for (source, doc_id), n in sorted(counts.items())]

    def chunks(self, doc_id: str | None = None) -> list[Chunk]:
        """Return the stored chunks (of one document if ``doc_id`` is given) in insertion order."""
        return [r.chunk for r in self._rows.values() if doc_id is None or r.chunk.doc_id == doc_id]

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
    ) -> list[SearchResult]:
        """Return the ``k`` best hits, best first (scores are described in the module docstring).

        ``fusion`` and ``weights`` override the store's hybrid defaults for this call.

        Raises:
            CollectionNotFoundError: the collection does not exist.
            ConfigError: bad ``k`` or ``mode``, or the query the mode needs is missing.
            EmbedderMismatchError: the query vector has the wrong dimension.
            FilterError: the filter is invalid, or a raw string (not supported here).
        """
        record = self._require()
        q = check_search(query_vector, query_text, k, mode, collection=self.collection, recorded=record)
        how, ws = check_fusion(fusion or self.fusion, self.weights if weights is None else weights)
        if isinstance(where, str):
            raise FilterError(
                "InMemoryStore does not run raw string filters; pass a mapping such as "
                "{'source': 'a.pdf'} (raw SQL filters need LanceDBStore)"
            )
        conditions = parse_where(where)
        rows = [r for r in self._rows.values() if matches(conditions, r.fields())]
        if mode == "vector":
            assert q is not None
            ranked = self._vector_ranking(rows, q)
        elif mode == "text":
            assert query_text is not None
            ranked = self._text_ranking(rows, query_text)
        elif mode == "hybrid":
            assert q is not None and query_text is not None
            pool = max(k, HYBRID_CANDIDATES)
            by_vec = [(r.chunk.id, s) for r, s in self._vector_ranking(rows, q)[:pool]]
            by_text = [(r.chunk.id, s) for r, s in self._text_ranking(rows, query_text)[:pool]]
            ranked = [(self._rows[cid], score) for cid, score in fuse_candidates(by_vec, by_text, how, ws)]
        else:  # pragma: no cover - check_search rejects other modes
            raise ConfigError(f"unknown search mode {mode!r}")
        return [_result(rank, row.chunk, score) for rank, (row, score) in enumerate(ranked[:k], start=1)]

    @staticmethod
    def _vector_ranking(rows: list[_Row], q: npt.NDArray[np.float32]) -> list[tuple[_Row, float]]:
        import numpy as np

        if not rows:
            return []
        norm = float(np.linalg.norm(q))
        unit = q / norm if norm > 0 else q
        scores = np.stack([r.vector for r in rows]) @ unit
        order = np.argsort(-scores, kind="stable")
        return [(rows[i], float(scores[i])) for i in order]

    def _text_ranking(self, rows: list[_Row], query: str) -> list[tuple[_Row, float]]:
        terms = set(_words(query))
        if not terms or not rows:
            return []
        # corpus statistics over the whole collection, as a full-text index would keep them
        everything = list(self._rows.values())
        n = len(everything)
        avg_len = sum(r.length for r in everything) / n or 1.0
        df = {t: sum(1 for r in everything if t in r.terms) for t in terms}
        idf = {t: math.log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
        scored: list[tuple[_Row, float]] = []
        for row in rows:
            score = 0.0
            for t in terms:
                tf = row.terms.get(t, 0)
                if tf:
                    denom = tf + _BM25_K1 * (1 - _BM25_B + _BM25_B * row.length / avg_len)
                    score += idf[t] * tf * (_BM25_K1 + 1) / denom
            if score > 0:
                scored.append((row, score))
        scored.sort(key=lambda rs: -rs[1])
        return scored


def _rows(chunks: Sequence[Chunk], arr: npt.NDArray[np.float32]) -> dict[str, _Row]:
    import numpy as np

    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    unit = np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
    out: dict[str, _Row] = {}
    for chunk, vec in zip(chunks, unit, strict=True):
        extra = enrichment_text(chunk.metadata)
        words = _words(f"{chunk.search_text}\n{extra}" if extra else chunk.search_text)
        out[chunk.id] = _Row(chunk, vec.copy(), Counter(words), len(words))
    return out


def _result(rank: int, chunk: Chunk, score: float) -> SearchResult:
    return SearchResult(
        rank=rank,
        score=score,
        text=chunk.text,
        doc_id=chunk.doc_id,
        source=chunk.source,
        section_path=tuple(chunk.section_path),
        page_start=chunk.page_start,
        page_end=chunk.page_end,
        start=chunk.start,
        end=chunk.end,
        chunk_id=chunk.id,
        chunk_index=chunk.index,
        metadata=MappingProxyType(dict(chunk.metadata)),
    )
