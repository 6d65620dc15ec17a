"""Chunking strategies: one module per strategy, all with exact spans and a hard token cap.

Build one by name with :func:`sectionrag.chunker` (the names are kept in
:mod:`sectionrag.registry`) or import the class. Every chunk satisfies
``document.text[c.start:c.end] == c.text``, never starts or ends with
whitespace, and its ``token_count`` (the tokens of ``c.embed_text``) never
exceeds ``min(size, tokenizer.max_tokens)``. A new strategy subclasses
:class:`BaseChunker` (or just has ``chunk(document)``) and is registered with
:func:`sectionrag.register`.
"""

from __future__ import annotations

from sectionrag.chunkers._base import BaseChunker
from sectionrag.chunkers.fixed import FixedChunker
from sectionrag.chunkers.overlap import OverlapChunker
from sectionrag.chunkers.paragraph import ParagraphChunker
from sectionrag.chunkers.recursive import RecursiveChunker
from sectionrag.chunkers.section import SectionChunker
from sectionrag.chunkers.semantic import SemanticChunker
from sectionrag.chunkers.sentence import SentenceChunker

__all__ = [
    "BaseChunker",
    "FixedChunker",
    "OverlapChunker",
    "ParagraphChunker",
    "RecursiveChunker",
    "SectionChunker",
    "SemanticChunker",
    "SentenceChunker",
]
