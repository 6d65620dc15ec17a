"""sectionrag: section-aware, meaning-preserving chunks and the search to go with them.

Quick start::

    import sectionrag
    doc = sectionrag.parse("report.md")
    chunks = sectionrag.chunker("section").chunk(doc)

Heavy dependencies (torch, sentence-transformers, lancedb, pdfplumber) are
imported on first use, never by ``import sectionrag``.
"""

from __future__ import annotations

from importlib import import_module
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag.errors import (
    ChunkingError,
    CollectionNotFoundError,
    ConfigError,
    EmbedderMismatchError,
    EmbeddingError,
    EnrichmentError,
    FilterError,
    IngestError,
    MissingDependencyError,
    ModelNotAvailableError,
    ParseError,
    SectionRagError,
    StoreError,
    UnsupportedFileTypeError,
)
from sectionrag.protocols import (
    LLM,
    Chunker,
    CollectionInfo,
    DocumentInfo,
    Embedder,
    Enricher,
    Parser,
    TokenCounter,
    VectorStore,
)
from sectionrag.types import Chunk, Document, PageSpan, SearchResult, Section

if TYPE_CHECKING:
    from sectionrag.pipeline import IngestReport, Pipeline

__version__ = "0.1.0"

__all__ = [
    "LLM",
    "Chunk",
    "Chunker",
    "ChunkingError",
    "CollectionInfo",
    "CollectionNotFoundError",
    "ConfigError",
    "Document",
    "DocumentInfo",
    "Embedder",
    "EmbedderMismatchError",
    "EmbeddingError",
    "Enricher",
    "EnrichmentError",
    "FilterError",
    "IngestError",
    "IngestReport",
    "MissingDependencyError",
    "ModelNotAvailableError",
    "PageSpan",
    "ParseError",
    "Parser",
    "Pipeline",
    "SearchResult",
    "Section",
    "SectionRagError",
    "StoreError",
    "TokenCounter",
    "UnsupportedFileTypeError",
    "VectorStore",
    "__version__",
    "chunker",
    "parse",
]

_LAZY = {"Pipeline": "sectionrag.pipeline", "IngestReport": "sectionrag.pipeline"}


def parse(path: str | Path, **options: Any) -> Document:
    """Parse a file into a :class:`Document`, choosing the parser by file type.

    Options (each passed only to the parsers that take it): ``password`` (str,
    encrypted PDFs), ``use_outline`` and ``remove_headers`` (bool, PDFs),
    ``drop_page_chrome`` (bool, HTML).

    Raises:
        TypeError: ``path`` is not a path, or an option has the wrong type.
        ConfigError: an option no parser accepts.
        UnsupportedFileTypeError: no parser handles the file's type.
        ParseError: the file is missing, not a regular file, empty, corrupt or unreadable.
    """
    from sectionrag.parsers import parse_file

    if not isinstance(path, (str, PathLike)):
        raise TypeError(f"parse() expects a path (str or os.PathLike), not {type(path).__name__}")

    document: Document = parse_file(path, **options)
    return document


def chunker(name: str, **params: Any) -> Chunker:
    """Build a chunking strategy by name.

    Names: ``fixed``, ``overlap``, ``paragraph``, ``sentence``, ``recursive``,
    ``semantic``, ``section``.

    Raises:
        TypeError: ``name`` is not a string, or a parameter is not of a usable type
            (a tokenizer without ``count_tokens``).
        ConfigError: unknown name, a parameter the strategy does not take, or an
            invalid value (``size=2.5``, ``size=0``).
    """
    from inspect import signature

    from sectionrag.registry import CHUNKERS, load_class

    if not isinstance(name, str):
        raise TypeError(f"chunker() expects a strategy name (str), not {type(name).__name__}")
    cls = load_class(CHUNKERS, name, "chunking strategy")
    try:
        signature(cls).bind(**params)
    except TypeError as e:
        raise ConfigError(f"invalid parameters for chunking strategy {name!r}: {e}") from e
    instance: Chunker = cls(**params)
    return instance


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sectionrag' has no attribute {name!r}")
