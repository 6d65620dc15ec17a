"""The roles of a pipeline, as ``typing.Protocol``s.

A user's class plugs in by having these methods; nothing needs to be
inherited. Every protocol is ``runtime_checkable`` so ``isinstance`` gives a
quick sanity check (it checks method names only, not signatures). The
protocols come from ``typing_extensions``, whose ``isinstance`` looks members
up without running them (as Python 3.12 does): checking an embedder never
evaluates a property such as ``max_tokens``, which could load a model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union

from typing_extensions import Protocol, runtime_checkable

from sectionrag.defaults import DEFAULT_K
from sectionrag.types import Chunk, Document, SearchResult

if TYPE_CHECKING:  # numpy is imported lazily so that `import sectionrag` stays fast
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "LLM",
    "Chunker",
    "CollectionInfo",
    "DocumentInfo",
    "Embedder",
    "Enricher",
    "IncrementalStore",
    "Parser",
    "SearchMode",
    "SourceRecord",
    "TokenCounter",
    "TokenizerDefault",
    "VectorStore",
    "Where",
]

SearchMode = Literal["vector", "text", "hybrid"]
#: A filter: a structured mapping (compiled safely by the store) or a raw expression string.
Where = Union[Mapping[str, Any], str]  # noqa: UP007 - evaluated at runtime on 3.10


@runtime_checkable
class Parser(Protocol):
    """Turns a file (or bytes) into a :class:`~sectionrag.types.Document`."""

    def parse(self, source: str | Path | bytes, *, name: str | None = None) -> Document:
        """Parse ``source``; ``name`` overrides the recorded source name."""
        ...


@runtime_checkable
class TokenCounter(Protocol):
    """Anything that counts tokens the way a model will (an :class:`Embedder` is one)."""

    def count_tokens(self, text: str) -> int:
        """Return the number of tokens in ``text`` (no special tokens, no truncation)."""
        ...


@runtime_checkable
class TokenizerDefault(Protocol):
    """A stage that counts tokens and takes a default counter; a pipeline gives it its embedder.

    The built-in chunkers are such stages: one built without ``tokenizer=``
    counts words alone, and counts with the embedder's tokenizer once a
    :class:`~sectionrag.pipeline.Pipeline` wires it to that embedder.
    """

    def with_default_tokenizer(self, tokenizer: TokenCounter) -> Any:
        """Return the stage counting with ``tokenizer``, or itself when it was built with its own."""
        ...


@runtime_checkable
class Chunker(Protocol):
    """Splits a document into chunks whose spans satisfy ``text[start:end] == chunk.text``."""

    def chunk(self, document: Document) -> list[Chunk]:
        """Return the chunks of ``document`` in document order."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors."""

    @property
    def name(self) -> str:
        """A stable identifier of the model (recorded by stores)."""
        ...

    @property
    def dimension(self) -> int:
        """Length of each vector."""
        ...

    @property
    def max_tokens(self) -> int:
        """The longest input (in tokens) the model reads without truncating."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed passages; returns shape ``(len(texts), dimension)``."""
        ...

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """Embed one query; returns shape ``(dimension,)``."""
        ...

    def count_tokens(self, text: str) -> int:
        """Count tokens with the model's own tokenizer (no truncation)."""
        ...


@dataclass(frozen=True, slots=True)
class CollectionInfo:
    """What a collection records about itself."""

    name: str
    embedder: str
    dimension: int
    chunks: int


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """One document held by a collection."""

    doc_id: str
    source: str
    chunks: int


@runtime_checkable
class VectorStore(Protocol):
    """Stores chunks with their vectors and searches them.

    A collection records the embedder's name and dimension the first time
    :meth:`ensure_collection` is called and refuses vectors from another model.
    """

    def ensure_collection(self, embedder: str, dimension: int) -> None:
        """Create the collection for this embedder, or check that it matches."""
        ...

    def info(self) -> CollectionInfo | None:
        """Return the collection's record, or ``None`` if it does not exist."""
        ...

    def add(self, chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]) -> None:
        """Add chunks with one vector per chunk (row ``i`` belongs to ``chunks[i]``)."""
        ...

    def delete(self, doc_id: str) -> int:
        """Delete every chunk of ``doc_id``; return how many were deleted."""
        ...

    def search(
        self,
        query_vector: npt.NDArray[np.float32] | None = None,
        query_text: str | None = None,
        k: int = DEFAULT_K,
        where: Where | None = None,
        mode: SearchMode = "vector",  # a store is asked for what it is given; pipelines pick the mode
    ) -> list[SearchResult]:
        """Return the ``k`` best hits, best first."""
        ...

    def documents(self) -> list[DocumentInfo]:
        """List the documents held, in a stable order."""
        ...


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """What a collection remembers about one indexed source (see :class:`IncrementalStore`).

    Attributes:
        source: The source as indexed (a path or a document's name); the key.
        doc_id: The id of the document its chunks belong to.
        content_hash: sha256 (hex) of the file's bytes, or of a Document's content.
        size: File size in bytes (``-1`` for a Document given in memory).
        mtime_ns: File modification time in ns (``-1`` for a Document).
        checked_ns: When the content was hashed (ns since the epoch).
        config: Fingerprint of the pipeline configuration that produced the chunks.
        config_json: That configuration, as JSON (to say what changed).
        chunks: How many chunks the source has in the collection.
    """

    source: str
    doc_id: str
    content_hash: str
    size: int
    mtime_ns: int
    checked_ns: int
    config: str
    config_json: str
    chunks: int


@runtime_checkable
class IncrementalStore(Protocol):
    """A store that ingestion can keep exactly in sync: optional, on top of :class:`VectorStore`.

    :class:`~sectionrag.pipeline.Pipeline` uses these methods when a store has
    them (both built-in stores do); a store with only the VectorStore methods
    still works, with a plain delete-then-add and no record between runs.
    """

    def write_lock(self, timeout: float = 0.0) -> AbstractContextManager[None]:
        """Hold the collection's single-writer lock; raise IngestError if busy after ``timeout`` s."""
        ...

    def read_records(self) -> list[SourceRecord]:
        """Return the record of every indexed source."""
        ...

    def write_records(self, records: Sequence[SourceRecord], *, delete: Sequence[str] = ()) -> None:
        """Upsert ``records`` (by source) and remove the records of ``delete``, in one commit."""
        ...

    def replace_sources(
        self, sources: Sequence[str], chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Make ``chunks`` the only chunks of ``sources``, atomically (readers see all old or all new)."""
        ...

    def cached_vectors(self, embedder: str, dimension: int, keys: Sequence[str]) -> dict[str, Any]:
        """Return the cached vectors of ``embedder`` for those of ``keys`` (text hashes) it holds."""
        ...

    def cache_vectors(
        self, embedder: str, dimension: int, keys: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Remember ``vectors`` of ``embedder`` under ``keys`` (row ``i`` for ``keys[i]``)."""
        ...


@runtime_checkable
class Enricher(Protocol):
    """Adds fields (``summary``, ``questions``, ``entities``, ``dates`` ...) under chunk metadata."""

    def enrich(self, chunks: Sequence[Chunk], document: Document) -> list[Chunk]:
        """Return the chunks with enrichment merged into their metadata."""
        ...


@runtime_checkable
class LLM(Protocol):
    """A text-completion model."""

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """Return the model's completion of ``prompt``."""
        ...
