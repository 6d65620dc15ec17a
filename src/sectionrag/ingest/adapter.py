"""Ingesting into a store that has only the :class:`~sectionrag.protocols.VectorStore` methods (private).

Such a store keeps no records, so each source's record is derived from
``documents()`` (doc id and chunk count, no content hash): a source is
re-parsed on every run and skipped when its document id is unchanged, as
before records existed. Replacement is delete-then-add (not atomic), there
is no embedding cache and no lock across processes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sectionrag.errors import IngestError
from sectionrag.protocols import IncrementalStore, SourceRecord, VectorStore
from sectionrag.types import Chunk

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["ProtocolStoreAdapter", "incremental"]

_LOCKS: dict[int, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def incremental(store: VectorStore) -> IncrementalStore:
    """Return ``store`` itself if it implements IncrementalStore, else an adapter over it."""
    if isinstance(store, IncrementalStore):
        return store
    return ProtocolStoreAdapter(store)


class ProtocolStoreAdapter:
    """An :class:`~sectionrag.protocols.IncrementalStore` over a plain VectorStore."""

    def __init__(self, store: VectorStore) -> None:
        self.store = store

    @contextmanager
    def write_lock(self, timeout: float = 0.0) -> Iterator[None]:
        """Serialise ingests into the same store object within this process."""
        with _LOCKS_GUARD:
            lock = _LOCKS.setdefault(id(self.store), threading.Lock())
        acquired = lock.acquire(timeout=timeout) if timeout > 0 else lock.acquire(blocking=False)
        if not acquired:
            raise IngestError(
                f"another ingest is writing to {type(self.store).__name__}; wait for it to finish, "
                "or pass a longer lock_timeout"
            )
        try:
            yield
        finally:
            lock.release()

    def read_records(self) -> list[SourceRecord]:
        """Derive a record (no content hash, no configuration) for each source the store holds."""
        records: dict[str, SourceRecord] = {}
        for info in self.store.documents():
            if info.source in records:  # two documents under one source: force a re-index
                records[info.source] = SourceRecord(info.source, "", "", -1, -1, 0, "", "", -1)
                continue
            records[info.source] = SourceRecord(info.source, info.doc_id, "", -1, -1, 0, "", "", info.chunks)
        return list(records.values())

    def write_records(self, records: Sequence[SourceRecord], *, delete: Sequence[str] = ()) -> None:
        """Nothing to do: this store keeps no records."""

    def replace_sources(
        self, sources: Sequence[str], chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Delete the documents of ``sources``, then add ``chunks`` (not atomic)."""
        wanted = set(sources)
        for info in self.store.documents():
            if info.source in wanted:
                self.store.delete(info.doc_id)
        if chunks:
            self.store.add(chunks, vectors)

    def cached_vectors(self, embedder: str, dimension: int, keys: Sequence[str]) -> dict[str, Any]:
        """No cache: nothing is ever found."""
        return {}

    def cache_vectors(
        self, embedder: str, dimension: int, keys: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """No cache: vectors are not kept."""
