"""sectionrag: section-aware, meaning-preserving chunks and the search to go with them.

Quick start::

    import sectionrag
    doc = sectionrag.parse("report.md")
    chunks = sectionrag.chunker("section").chunk(doc)

A plug-in adds a stage with one call, then uses it by name here, in a
:class:`Pipeline` and on the command line::

    sectionrag.register("chunker", "by-line", "my_package.chunking:LineChunker")

Heavy dependencies (torch, sentence-transformers, lancedb, pdfplumber) are
imported on first use, never by ``import sectionrag``.
"""

from __future__ import annotations

from importlib import import_module
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sectionrag._version import __version__
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
    TokenizerDefault,
    VectorStore,
)
from sectionrag.registry import register
from sectionrag.types import Chunk, Document, PageSpan, SearchResult, Section

if TYPE_CHECKING:
    from sectionrag.pipeline import IngestReport, Pipeline


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
    "TokenizerDefault",
    "UnsupportedFileTypeError",
    "VectorStore",
    "__version__",
    "chunker",
    "parse",
    "register",
]

_LAZY = {"Pipeline": "sectionrag.pipeline", "IngestReport": "sectionrag.pipeline"}


def parse(path: str | Path, **options: Any) -> Document:
    """Parse a file into a :class:`Document` with the parser its type calls for.

    Options go to the parsers that accept them (see
    :class:`~sectionrag.parsers.AutoParser`): ``password`` (str, encrypted
    PDFs), ``use_outline``, ``remove_headers`` and ``tables`` (bool, PDFs),
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
    """Build a chunking strategy by its registered name.

    Built in: ``fixed``, ``overlap``, ``paragraph``, ``sentence``,
    ``recursive``, ``semantic``, ``section``; plug-ins add their own with
    :func:`register`.

    Raises:
        TypeError: ``name`` is not a string, or a parameter is not of a usable type
            (a tokenizer without ``count_tokens``).
        ConfigError: unknown name, a parameter the strategy does not take, or an
            invalid value (``size=2.5``, ``size=0``).
    """
    from sectionrag import registry

    if not isinstance(name, str):
        raise TypeError(f"chunker() expects a strategy name (str), not {type(name).__name__}")
    instance: Chunker = registry.create("chunker", name, **params)
    return instance


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sectionrag' has no attribute {name!r}")
