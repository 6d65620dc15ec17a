"""The sectionrag error tree.

Every error raised on purpose by sectionrag derives from :class:`SectionRagError`::

    SectionRagError
    ├── ConfigError (ValueError)             bad parameter, unknown strategy/preset
    ├── MissingDependencyError (ImportError)  an optional package is not installed
    ├── ParseError                            a file could not be turned into a Document
    │   └── UnsupportedFileTypeError          no parser for this file type
    ├── ChunkingError                         a chunker could not honour its contract
    ├── EmbeddingError                        a model could not be loaded or run
    │   └── ModelNotAvailableError            weights not cached and hub unreachable
    ├── StoreError                            the vector store refused or failed
    │   ├── CollectionNotFoundError           search on a collection that does not exist
    │   ├── EmbedderMismatchError             vectors from another model/dimension
    │   └── FilterError                       a filter could not be compiled safely
    ├── EnrichmentError                       an enricher or LLM call failed
    └── IngestError                           ingestion could not proceed
"""

from __future__ import annotations

__all__ = [
    "ChunkingError",
    "CollectionNotFoundError",
    "ConfigError",
    "EmbedderMismatchError",
    "EmbeddingError",
    "EnrichmentError",
    "FilterError",
    "IngestError",
    "MissingDependencyError",
    "ModelNotAvailableError",
    "ParseError",
    "SectionRagError",
    "StoreError",
    "UnsupportedFileTypeError",
]


class SectionRagError(Exception):
    """Root of every error sectionrag raises on purpose."""


class ConfigError(SectionRagError, ValueError):
    """A parameter, strategy name or preset is invalid."""


class MissingDependencyError(SectionRagError, ImportError):
    """An optional dependency is needed for this feature but not installed."""


class ParseError(SectionRagError):
    """A source could not be parsed; the message names the file and the reason."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        super().__init__(message)
        self.source = source


class UnsupportedFileTypeError(ParseError):
    """No parser handles this file type."""


class ChunkingError(SectionRagError):
    """A chunker could not produce chunks that honour its contract."""


class EmbeddingError(SectionRagError):
    """An embedding model could not be loaded or failed to run."""


class ModelNotAvailableError(EmbeddingError):
    """Model weights are not available locally and cannot be downloaded, or the model cannot be built here.

    Attributes:
        model: The model's name (as a collection records it), when known.
    """

    def __init__(self, message: str, *, model: str | None = None) -> None:
        super().__init__(message)
        self.model = model


class StoreError(SectionRagError):
    """The vector store failed or refused an operation."""


class CollectionNotFoundError(StoreError):
    """The requested collection does not exist in the database."""


class EmbedderMismatchError(StoreError):
    """Vectors do not match the embedder (name or dimension) the collection records."""


class FilterError(StoreError, ValueError):
    """A search filter is malformed or refers to an unknown field."""


class EnrichmentError(SectionRagError):
    """An enricher or its LLM failed."""


class IngestError(SectionRagError):
    """Ingestion could not proceed (for example a concurrent writer holds the lock)."""
