"""``sentence``: whole sentences packed up to the token budget.

Sentences come from the offset-recording splitter in ``_sentences`` (it does
not split at "4.2 billion", "U.S.", "Inc.", "e.g.", "Fig. 3", "No. 5", list
markers or inside short quotations). A sentence longer than the cap on its own
is the only place a chunk boundary falls inside a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sectionrag._sentences import split_sentences
from sectionrag.chunkers._base import BaseChunker, check_int
from sectionrag.chunkers._spans import Measure, Span
from sectionrag.defaults import DEFAULT_SIZE
from sectionrag.errors import ConfigError
from sectionrag.types import Document

__all__ = ["SentenceChunker", "pack_ranges"]


def pack_ranges(
    costs: Sequence[int],
    budget: int,
    *,
    max_items: int | None = None,
    min_items: int = 1,
) -> list[tuple[int, int]]:
    """Greedily group consecutive items into ``[i, j)`` ranges whose cost sum fits ``budget``.

    An item over ``budget`` on its own gets a range of its own. With
    ``min_items``, a short last range borrows items from the one before it
    while both still fit and the one before keeps at least ``min_items``.
    """
    out: list[tuple[int, int]] = []
    i = 0
    total = 0
    for k, c in enumerate(costs):
        if k > i and (total + c > budget or (max_items is not None and k - i >= max_items)):
            out.append((i, k))
            i, total = k, 0
        total += c
    if len(costs) > i:
        out.append((i, len(costs)))
    if min_items > 1 and len(out) >= 2:
        (pi, pj), (li, lj) = out[-2], out[-1]
        last = sum(costs[li:lj])
        while lj - li < min_items and pj - pi > min_items and last + costs[pj - 1] <= budget:
            if max_items is not None and lj - li >= max_items:
                break
            pj -= 1
            li -= 1
            last += costs[li]
        out[-2], out[-1] = (pi, pj), (li, lj)
    return out


class SentenceChunker(BaseChunker):
    """Whole sentences packed greedily up to ``size`` tokens.

    Args:
        size: Maximum tokens per chunk (default :data:`~sectionrag.defaults.DEFAULT_SIZE`).
        tokenizer: Counts tokens (default :class:`~sectionrag.tokenizers.WordTokenizer`).
        min_sentences: A last chunk shorter than this borrows sentences from the
            one before it when both still fit (default 1: off).
        max_sentences: At most this many sentences per chunk (default: no limit;
            ``1`` gives one sentence, or one heading line, per chunk).
    """

    strategy = "sentence"

    def __init__(
        self,
        *,
        size: int = DEFAULT_SIZE,
        tokenizer: Any = None,
        min_sentences: int = 1,
        max_sentences: int | None = None,
    ) -> None:
        super().__init__(size=size, tokenizer=tokenizer)
        self.min_sentences = check_int("min_sentences", min_sentences, minimum=1)
        self.max_sentences = (
            None if max_sentences is None else check_int("max_sentences", max_sentences, minimum=1)
        )
        if self.max_sentences is not None and self.max_sentences < self.min_sentences:
            raise ConfigError(
                f"max_sentences ({self.max_sentences}) must be at least min_sentences ({self.min_sentences})"
            )

    def __repr__(self) -> str:
        return (
            f"SentenceChunker(size={self.size}, min_sentences={self.min_sentences}, "
            f"max_sentences={self.max_sentences})"
        )

    def split(self, document: Document, measure: Measure, start: int, end: int, budget: int) -> list[Span]:
        """Pack the sentences of ``text[start:end]``."""
        sents = split_sentences(document.text, start, end, cuts=document.boundaries())
        spans = sents.spans
        costs = measure.estimate_spans(spans)
        groups = pack_ranges(costs, budget, max_items=self.max_sentences, min_items=self.min_sentences)
        return [(spans[i][0], spans[j - 1][1]) for i, j in groups]
