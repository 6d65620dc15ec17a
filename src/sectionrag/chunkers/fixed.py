"""``fixed``: consecutive windows of N tokens (or N characters), the baseline.

Like tearing sheets off a roll of paper towels, it cuts wherever the count
runs out, inside sentences and (in tokens of a subword tokenizer) inside
words. It is here to measure the others against.
"""

from __future__ import annotations

from typing import Any

from sectionrag.chunkers._base import BaseChunker, Planned, assemble, model_max_tokens, unlimited
from sectionrag.chunkers._spans import Measure, Span
from sectionrag.chunkers._windows import Unit, char_windows, check_unit, token_windows
from sectionrag.defaults import DEFAULT_SIZE
from sectionrag.types import Chunk, Document

__all__ = ["FixedChunker"]


class FixedChunker(BaseChunker):
    """Windows of ``size`` tokens of the tokenizer (or ``size`` characters), end to end.

    Args:
        size: Window length in ``unit``s (default :data:`~sectionrag.defaults.DEFAULT_SIZE`).
        unit: ``"tokens"`` (default) or ``"chars"`` (plain ``text[i:i+size]`` slices).
        tokenizer: Counts tokens (default :class:`~sectionrag.tokenizers.WordTokenizer`).

    Chunks never start or end with whitespace (each window is trimmed), and a
    window never exceeds the tokenizer's ``max_tokens``.
    """

    strategy = "fixed"

    def __init__(self, *, size: int = DEFAULT_SIZE, unit: Unit = "tokens", tokenizer: Any = None) -> None:
        super().__init__(size=size, tokenizer=tokenizer)
        self.unit: Unit = check_unit(unit)

    @property
    def limit(self) -> int:
        """The token cap: ``min(size, max_tokens)`` in tokens; ``max_tokens`` (if any) in characters."""
        if self.unit == "chars":
            cap = model_max_tokens(self.tokenizer)
            return unlimited() if cap is None else cap
        return super().limit

    def __repr__(self) -> str:
        return f"FixedChunker(size={self.size}, unit={self.unit!r})"

    def chunk(self, document: Document) -> list[Chunk]:
        """Split ``document`` into consecutive windows."""
        if not isinstance(document, Document):
            raise TypeError(f"chunk() expects a Document, not {type(document).__name__}")
        measure = Measure(document.text, self.tokenizer)
        planned = self.plan(measure, document.body_start, len(document.text), self.limit)
        return assemble(document, measure, planned, self.limit)

    def plan(self, measure: Measure, start: int, end: int, budget: int) -> list[Planned]:
        """Windows over ``text[start:end]`` (token windows come counted)."""
        if self.unit == "chars":
            return char_windows(start, end, self.size, self.size)
        return token_windows(measure, start, end, self.size, 0, budget)

    def split(self, document: Document, measure: Measure, start: int, end: int, budget: int) -> list[Span]:
        """Windows over ``text[start:end]`` as spans."""
        return [(a, b) for a, b, _, _ in self.plan(measure, start, end, budget)]
