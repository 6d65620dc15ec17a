"""The one registry of names used by the CLI and the top-level helpers.

Names map to import paths so that nothing heavy is imported until it is used.
"""

from __future__ import annotations

import importlib
from typing import Any

from sectionrag.errors import ConfigError

__all__ = ["CHUNKERS", "EMBEDDER_PRESETS", "load_class"]

#: strategy name -> "module:Class"
CHUNKERS: dict[str, str] = {
    "fixed": "sectionrag.chunkers.fixed:FixedChunker",
    "overlap": "sectionrag.chunkers.overlap:OverlapChunker",
    "paragraph": "sectionrag.chunkers.paragraph:ParagraphChunker",
    "sentence": "sectionrag.chunkers.sentence:SentenceChunker",
    "recursive": "sectionrag.chunkers.recursive:RecursiveChunker",
    "semantic": "sectionrag.chunkers.semantic:SemanticChunker",
    "section": "sectionrag.chunkers.section:SectionChunker",
}

#: embedder preset -> sentence-transformers model id (``minilm`` resolves to the packaged copy)
EMBEDDER_PRESETS: dict[str, str] = {
    "bge-m3": "BAAI/bge-m3",
    "minilm": "sentence-transformers/all-MiniLM-L6-v2",
}


def load_class(table: dict[str, str], name: str, kind: str) -> Any:
    """Import and return the class registered as ``name`` in ``table``."""
    try:
        target = table[name]
    except KeyError:
        choices = ", ".join(sorted(table))
        raise ConfigError(f"unknown {kind} {name!r}; choose one of: {choices}") from None
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)
