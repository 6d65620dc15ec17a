"""Chunking strategies: one module per strategy, all with exact spans and a hard token cap.

Build one by name with :func:`sectionrag.chunker` (``fixed``, ``overlap``,
``paragraph``, ``sentence``, ``recursive``, ``semantic``, ``section``) or
import the class. Every chunk satisfies ``document.text[c.start:c.end] == c.text``,
never starts or ends with whitespace, and its ``token_count`` (the tokens of
``c.embed_text``) never exceeds ``min(size, tokenizer.max_tokens)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_WHERE = {
    "BaseChunker": "sectionrag.chunkers._base",
    "FixedChunker": "sectionrag.chunkers.fixed",
    "OverlapChunker": "sectionrag.chunkers.overlap",
    "ParagraphChunker": "sectionrag.chunkers.paragraph",
    "RecursiveChunker": "sectionrag.chunkers.recursive",
    "SectionChunker": "sectionrag.chunkers.section",
    "SemanticChunker": "sectionrag.chunkers.semantic",
    "SentenceChunker": "sectionrag.chunkers.sentence",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        from importlib import import_module

        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'sectionrag.chunkers' has no attribute {name!r}")
