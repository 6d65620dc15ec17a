r"""``recursive``: paragraph, then line, then sentence, then word separators.

The splitter users know from LangChain, with exact spans and token sizing: a
piece that fits the budget is kept whole; one that does not is cut at its
strongest separators (blank lines, then line breaks, then sentence ends) and
the parts are handled the same way, then consecutive small parts are merged
back up to the budget. Unlike a plain ``"\\n"`` separator, a line break inside a
sentence of hard-wrapped prose is not a separator here, so no cut falls inside
a sentence unless one sentence alone exceeds the cap (then it is cut between
words, at the least harmful point).
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from sectionrag._sentences import split_sentences
from sectionrag.chunkers._base import BaseChunker
from sectionrag.chunkers._spans import Measure, Span
from sectionrag.chunkers.sentence import pack_ranges
from sectionrag.defaults import DEFAULT_SIZE
from sectionrag.types import Document

__all__ = ["RecursiveChunker"]


class RecursiveChunker(BaseChunker):
    """Recursive splitting by paragraph, line, sentence and word, merged up to ``size`` tokens.

    Args:
        size: Maximum tokens per chunk (default :data:`~sectionrag.defaults.DEFAULT_SIZE`).
        tokenizer: Counts tokens (default :class:`~sectionrag.tokenizers.WordTokenizer`).
    """

    strategy = "recursive"

    def __init__(self, *, size: int = DEFAULT_SIZE, tokenizer: Any = None) -> None:
        super().__init__(size=size, tokenizer=tokenizer)

    def split(self, document: Document, measure: Measure, start: int, end: int, budget: int) -> list[Span]:
        """Recursively split ``text[start:end]``."""
        sents = split_sentences(document.text, start, end, cuts=document.boundaries())
        spans, breaks = sents.spans, sents.breaks
        prefix = [0, *accumulate(measure.estimate_spans(spans))]

        def cost(i: int, j: int) -> int:
            return prefix[j] - prefix[i]

        def merge(parts: list[tuple[int, int]]) -> list[tuple[int, int]]:
            groups = pack_ranges([cost(i, j) for i, j in parts], budget)
            return [(parts[a][0], parts[b - 1][1]) for a, b in groups]

        def rec(i: int, j: int) -> list[tuple[int, int]]:
            if j - i <= 1 or cost(i, j) <= budget:
                return [(i, j)]
            strongest = max(breaks[i : j - 1])
            parts: list[tuple[int, int]] = []
            p = i
            for k in range(i, j - 1):
                if breaks[k] == strongest:
                    parts.append((p, k + 1))
                    p = k + 1
            parts.append((p, j))
            out: list[tuple[int, int]] = []
            good: list[tuple[int, int]] = []
            for a, b in parts:
                if cost(a, b) <= budget:
                    good.append((a, b))
                else:
                    out.extend(merge(good))
                    good = []
                    out.extend(rec(a, b))
            out.extend(merge(good))
            return out

        if not spans:
            return []
        return [(spans[i][0], spans[j - 1][1]) for i, j in rec(0, len(spans))]
