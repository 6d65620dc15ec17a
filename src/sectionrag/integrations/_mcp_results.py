"""The MCP tools' results: pydantic models whose fields are described for the assistant."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = [
    "DocumentEntry",
    "DocumentList",
    "FailedFile",
    "Hit",
    "IndexResult",
    "IndexWarning",
    "Outline",
    "SearchResponse",
    "SectionNode",
    "SectionText",
]


class Hit(BaseModel):
    """One search result: the chunk's text and where it comes from."""

    rank: int = Field(description="1 for the best result")
    score: float = Field(description="higher is better (cosine for vector, BM25 for text, fused for hybrid)")
    text: str = Field(description="the chunk's text, exactly as in the document")
    source: str = Field(description="the indexed document (its path)")
    section_path: list[str] = Field(
        description="section titles from the top of the document down to the chunk"
    )
    page_start: int | None = Field(description="first page of the chunk (None for documents without pages)")
    page_end: int | None = Field(description="last page of the chunk")
    start: int = Field(description="character offset where the chunk starts in the document's text")
    end: int = Field(description="character offset where the chunk ends")
    doc_id: str = Field(description="id of the indexed document")
    enrichment: dict[str, Any] | None = Field(
        default=None, description="summary, questions, keywords, dates ... when the collection was enriched"
    )


class SearchResponse(BaseModel):
    """The results of one search, best first."""

    query: str
    mode: str = Field(description="the search mode used")
    results: list[Hit]


class FailedFile(BaseModel):
    """A file that could not be indexed."""

    source: str
    error: str


class IndexWarning(BaseModel):
    """A file that did not fail the call but needs a look (a document with no chunk, a skipped link)."""

    source: str
    message: str


class IndexResult(BaseModel):
    """What an index call did."""

    added: list[str] = Field(description="files indexed for the first time")
    updated: list[str] = Field(description="files whose content changed and were indexed again")
    unchanged: int = Field(description="files skipped because nothing changed")
    failed: list[FailedFile] = Field(description="files that could not be read or parsed")
    warnings: list[IndexWarning] = Field(
        default_factory=list, description="files indexed with no text to search, entries skipped unread"
    )
    chunks: int = Field(description="chunks written")
    seconds: float


class SectionNode(BaseModel):
    """A section of a document and the sections under it."""

    title: str
    level: int = Field(description="1 for top-level sections")
    path: list[str] = Field(description="titles from the top of the document down to this section")
    page_start: int | None
    page_end: int | None
    start: int = Field(description="character offset of the heading")
    end: int = Field(description="character offset where the section (subsections included) ends")
    children: list[SectionNode] = Field(default_factory=list)


SectionNode.model_rebuild()


class Outline(BaseModel):
    """A document's section tree."""

    source: str
    doc_id: str
    chars: int = Field(description="length of the document's text")
    pages: int = Field(description="number of pages (0 for documents without pages)")
    sections: list[SectionNode] = Field(description="top-level sections, each with its subsections")


class SectionText(BaseModel):
    """The full text of one section (its subsections included)."""

    source: str
    path: list[str]
    title: str
    page_start: int | None
    page_end: int | None
    start: int
    end: int
    text: str
    truncated: bool = Field(description="whether the text was cut at max_chars")


class DocumentEntry(BaseModel):
    """One indexed document."""

    source: str
    doc_id: str
    chunks: int


class DocumentList(BaseModel):
    """What the collection holds."""

    collection: str
    embedder: str | None = Field(description="the embedding model the collection was built with")
    chunks: int
    documents: list[DocumentEntry]
