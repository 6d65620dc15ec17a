"""``overlap``: fixed windows that share ``overlap`` units with the previous one.

With ``unit="chars", size=100, overlap=30`` it gives the textbook
overlapping character windows: a window starts every 70 characters while
the start is inside the text, and each is stripped (the span excludes the
stripped whitespace).
"""

from __future__ import annotations

from typing import Any

from sectionrag.chunkers._base import Planned, check_int
from sectionrag.chunkers._spans import Measure
from sectionrag.chunkers._windows import Unit, char_windows, drop_contained, token_windows
from sectionrag.chunkers.fixed import FixedChunker
from sectionrag.defaults import DEFAULT_SIZE
from sectionrag.errors import ConfigError

__all__ = ["OverlapChunker"]


class OverlapChunker(FixedChunker):
    """Windows of ``size`` units starting every ``size - overlap`` units.

    Args:
        size: Window length in ``unit``s (default :data:`~sectionrag.defaults.DEFAULT_SIZE`).
        overlap: Units shared by consecutive windows, less than ``size`` (default
            ``size // 8``: 64 for 512).
        unit: ``"tokens"`` (default) or ``"chars"``.
        tokenizer: Counts tokens (default :class:`~sectionrag.tokenizers.WordTokenizer`).
    """

    strategy = "overlap"

    def __init__(
        self,
        *,
        size: int = DEFAULT_SIZE,
        overlap: int | None = None,
        unit: Unit = "tokens",
        tokenizer: Any = None,
    ) -> None:
        super().__init__(size=size, unit=unit, tokenizer=tokenizer)
        self.overlap = self.size // 8 if overlap is None else check_int("overlap", overlap, minimum=0)
        if self.overlap >= self.size:
            raise ConfigError(f"overlap ({self.overlap}) must be smaller than size ({self.size})")
        if self.unit == "tokens" and self.overlap >= self.limit:
            raise ConfigError(
                f"overlap ({self.overlap}) must be smaller than the tokenizer's max_tokens ({self.limit})"
            )

    def __repr__(self) -> str:
        return f"OverlapChunker(size={self.size}, overlap={self.overlap}, unit={self.unit!r})"

    def plan(self, measure: Measure, start: int, end: int, budget: int) -> list[Planned]:
        """Overlapping windows over ``text[start:end]``."""
        if self.unit == "chars":
            windows = char_windows(start, end, self.size, self.size - self.overlap)
            return drop_contained(measure.text, windows)
        return token_windows(measure, start, end, self.size, self.overlap, budget)
