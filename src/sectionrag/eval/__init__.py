"""Evaluation: chunk quality metrics, strategy comparison and retrieval metrics.

- :func:`chunk_stats` (:mod:`sectionrag.eval.metrics`): fragment rate, broken
  words, section mixing and size distribution of a chunking.
- :func:`compare` (:mod:`sectionrag.eval.compare`): chunk one document with
  several strategies and score every chunk against queries with one embedder.
- :func:`~sectionrag.eval.retrieval.evaluate` (:mod:`sectionrag.eval.retrieval`):
  search a collection for queries with reference passages (read by
  :mod:`sectionrag.eval.queries`) and report recall, MRR, nDCG and span metrics.

Nothing heavy is imported until a function is called.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sectionrag.eval.compare import CompareResult, StrategyRow, compare
    from sectionrag.eval.metrics import ChunkStats, SizeStats, chunk_stats

__all__ = ["ChunkStats", "CompareResult", "SizeStats", "StrategyRow", "chunk_stats", "compare"]

_WHERE = {
    "ChunkStats": "sectionrag.eval.metrics",
    "SizeStats": "sectionrag.eval.metrics",
    "chunk_stats": "sectionrag.eval.metrics",
    "CompareResult": "sectionrag.eval.compare",
    "StrategyRow": "sectionrag.eval.compare",
    "compare": "sectionrag.eval.compare",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'sectionrag.eval' has no attribute {name!r}")
