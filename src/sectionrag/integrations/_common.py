"""What the framework adapters share: chunking a plain text, a chunk's and a hit's metadata (private)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath
from typing import Any, Literal

from sectionrag import registry
from sectionrag.defaults import DEFAULT_STRATEGY
from sectionrag.errors import ConfigError
from sectionrag.protocols import Chunker
from sectionrag.types import Chunk, Document, SearchResult

__all__ = [
    "STRUCTURES",
    "Structure",
    "build_chunker",
    "chunk_metadata",
    "chunk_text",
    "document_for_text",
    "result_metadata",
]

#: how a plain text's sections are found: Markdown headings, reStructuredText titles, plain-text
#: headings, one of them by guess, or none
Structure = Literal["auto", "markdown", "rst", "text", "none"]
STRUCTURES: tuple[Structure, ...] = ("auto", "markdown", "rst", "text", "none")

_MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")


def build_chunker(chunker: Chunker | str, params: Mapping[str, Any]) -> Chunker:
    """Return ``chunker``, or build the registered strategy it names with ``params``.

    A ``section`` chunker built here makes no fine chunks unless ``params`` asks
    (``fine=``): a framework's splitter returns one partition of the text.
    """
    if isinstance(chunker, str):
        name = chunker or DEFAULT_STRATEGY
        if name == "section":
            params = {"fine": 0, **params}
        built: Chunker = registry.create("chunker", name, **params)
        return built
    if params:
        raise ConfigError(f"options {sorted(params)} apply to a strategy name, not to a chunker instance")
    if not isinstance(chunker, Chunker):
        raise TypeError(f"chunker must implement sectionrag.Chunker or be a strategy name, not {chunker!r}")
    return chunker


def document_for_text(text: str, *, source: str = "<memory>", structure: Structure = "auto") -> Document:
    """Build a :class:`Document` whose ``text`` is exactly ``text``, with the sections its headings give.

    ``markdown`` finds ``#`` and underlined headings, ``rst`` reStructuredText
    titles, ``text`` the plain-text ones (numbered, all-caps, wiki markup),
    ``none`` no sections; ``auto`` takes reStructuredText for a ``.rst``
    source, Markdown for a ``.md`` source or a text with Markdown headings,
    plain text otherwise.
    """
    if structure not in STRUCTURES:
        raise ConfigError(f"unknown structure {structure!r}; choose one of: {', '.join(STRUCTURES)}")
    if structure == "none":
        return Document.create(text, source=source)
    from sectionrag.parsers.markdown import MarkdownParser, find_markdown_headings
    from sectionrag.parsers.text import TextParser

    if structure == "auto":
        suffix = PurePath(source).suffix.lower()
        markdown = suffix in _MARKDOWN_SUFFIXES or bool(find_markdown_headings(text))
        rst = bool(suffix) and registry.parser_for_extension(suffix) == "rst"
        structure = "rst" if rst else "markdown" if markdown else "text"
    if structure == "markdown":
        return MarkdownParser().parse_text(text, source=source)
    if structure == "rst":
        from sectionrag.parsers.rst import RstParser

        return RstParser().parse_text(text, source=source)
    return TextParser().parse_text(text, source=source)


def chunk_text(
    chunker: Chunker, text: str, *, source: str = "<memory>", structure: Structure = "auto"
) -> list[Chunk]:
    """Chunk a plain text; every chunk's ``start``/``end`` point into ``text`` itself.

    Fine chunks (:attr:`~sectionrag.types.Chunk.fine`) are left out, so the
    chunks are one partition of the text, numbered from 0: a framework's store
    and retriever do not drop overlapping results as sectionrag's search does.
    """
    if not text.strip():
        return []
    chunks = [
        c for c in chunker.chunk(document_for_text(text, source=source, structure=structure)) if not c.fine
    ]
    return [c.numbered(i) for i, c in enumerate(chunks)]


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """Return the metadata a framework's chunk carries: span, section path, pages, tokens, index."""
    return {
        "start_index": chunk.start,
        "end_index": chunk.end,
        "section_path": list(chunk.section_path),
        "section": " > ".join(chunk.section_path),
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "token_count": chunk.token_count,
        "chunk_index": chunk.index,
    }


def result_metadata(result: SearchResult) -> dict[str, Any]:
    """Return a hit's metadata for a framework document: the chunk's own, then the citation and score."""
    return {
        **dict(result.metadata),
        "source": result.source,
        "doc_id": result.doc_id,
        "chunk_id": result.chunk_id,
        "chunk_index": result.chunk_index,
        "section_path": list(result.section_path),
        "section": " > ".join(result.section_path),
        "page_start": result.page_start,
        "page_end": result.page_end,
        "start_index": result.start,
        "end_index": result.end,
        "score": result.score,
        "rank": result.rank,
    }
