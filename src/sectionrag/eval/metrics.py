"""Chunk quality: fragments, broken words, section mixing and sizes.

Definitions (every figure is computed from offsets, never by searching text):

- A *boundary* is a chunk's start or end, except the first and last
  non-whitespace character of the document (they cut nothing).
- A boundary is *inside a sentence* when it falls strictly between the first
  and last character of a sentence found by sectionrag's sentence splitter.
  It is *excused* when that sentence alone (with the chunk's contextual
  header) has more tokens than ``limit``: the cap forced the cut.
  **Fragment rate** = boundaries inside a sentence / boundaries;
  **fragmented chunks** = chunks with a start or end inside a sentence /
  chunks.
- A boundary *breaks a word* when the characters on both sides are letters or digits.
- A chunk *mixes sections* when a section starts strictly inside it, unless
  everything before that start is heading lines (a chunk may carry its parent
  headings into a subsection). **Section-mixing rate** = such chunks / chunks.
- **Sizes**: token counts (``Chunk.token_count``) and characters.
- **Coverage** (``uncovered_chars``, ``overlap_chars``) is that of the regular
  chunks: fine chunks (``Chunk.fine``, counted in ``fine_chunks``) lie inside
  them by design.
"""

from __future__ import annotations

import bisect
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sectionrag.chunkers.section import only_headings as _only_headings
from sectionrag.types import Chunk, Document

__all__ = ["ChunkStats", "SizeStats", "chunk_stats"]


@dataclass(frozen=True, slots=True)
class SizeStats:
    """Distribution of one size measure over the chunks."""

    min: int
    max: int
    mean: float
    median: float
    p95: int
    total: int

    @classmethod
    def of(cls, values: Sequence[int]) -> SizeStats:
        """Summarise ``values`` (all zero when empty)."""
        if not values:
            return cls(0, 0, 0.0, 0.0, 0, 0)
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
        return cls(
            min=ordered[0],
            max=ordered[-1],
            mean=round(statistics.fmean(ordered), 2),
            median=float(statistics.median(ordered)),
            p95=p95,
            total=sum(ordered),
        )


@dataclass(frozen=True, slots=True)
class ChunkStats:
    """Quality figures of one chunking of one document (see the module docstring)."""

    chunks: int
    fine_chunks: int
    boundaries: int
    boundaries_in_sentence: int
    excused_in_sentence: int
    fragment_rate: float
    fragmented_chunks: int
    fragmented_chunk_rate: float
    broken_words: int
    broken_word_rate: float
    mixed_chunks: int
    section_mixing_rate: float
    forced_splits: int
    overlap_chars: int
    uncovered_chars: int
    tokens: SizeStats
    chars: SizeStats

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the ``"stats"`` object of ``sectionrag chunk --json --stats``)."""
        return asdict(self)


def chunk_stats(
    document: Document,
    chunks: Sequence[Chunk],
    *,
    tokenizer: Any = None,
    limit: int | None = None,
) -> ChunkStats:
    """Measure the quality of ``chunks`` of ``document``.

    Args:
        document: The chunked document.
        chunks: Its chunks, in document order. Fine chunks
            (:attr:`~sectionrag.types.Chunk.fine`) count in every figure but
            coverage and overlap, which are those of the regular chunks (fine
            chunks overlap them by design).
        tokenizer: Counts a sentence's tokens to excuse cuts inside sentences longer
            than ``limit`` (both needed for that).
        limit: The token cap the chunker worked under.
    """
    from sectionrag._sentences import split_sentences

    text = document.text
    first = next((i for i, ch in enumerate(text) if not ch.isspace()), len(text))
    last = len(text)
    while last > first and text[last - 1].isspace():
        last -= 1
    sentences = split_sentences(text, cuts=document.boundaries()).spans
    starts = [s for s, _ in sentences]
    cache: dict[int, int] = {}

    def inside(pos: int) -> int:
        """Index of the sentence ``pos`` falls strictly inside, or -1."""
        i = bisect.bisect_right(starts, pos) - 1
        if i >= 0 and sentences[i][0] < pos < sentences[i][1]:
            return i
        return -1

    header_cost: dict[str, int] = {"": 0}

    def excused(i: int, context: str) -> bool:
        """Tell whether sentence ``i`` alone (under the chunk's header) exceeds the cap."""
        if tokenizer is None or limit is None:
            return False
        if i not in cache:
            a, b = sentences[i]
            cache[i] = int(tokenizer.count_tokens(text[a:b]))
        if context not in header_cost:
            header_cost[context] = int(tokenizer.count_tokens(context + "\n"))
        return cache[i] + header_cost[context] > limit

    boundaries = in_sentence = excused_n = broken = fragmented = 0
    for c in chunks:
        frag = False
        for pos in (c.start, c.end):
            if pos <= first or pos >= last:
                continue
            boundaries += 1
            i = inside(pos)
            if i >= 0:
                in_sentence += 1
                frag = True
                if excused(i, c.context):
                    excused_n += 1
            if text[pos - 1].isalnum() and text[pos].isalnum():
                broken += 1
        fragmented += frag
    heads = {s.start for s in document.sections}
    cuts = document.boundaries()
    mixed = sum(1 for c in chunks if _mixes(document.text, c, heads, cuts))
    covered, overlap = _coverage(text, [c for c in chunks if not c.fine])
    nonspace = sum(1 for ch in text[document.body_start :] if not ch.isspace())
    n = len(chunks)
    return ChunkStats(
        chunks=n,
        fine_chunks=sum(1 for c in chunks if c.fine),
        boundaries=boundaries,
        boundaries_in_sentence=in_sentence,
        excused_in_sentence=excused_n,
        fragment_rate=_rate(in_sentence, boundaries),
        fragmented_chunks=fragmented,
        fragmented_chunk_rate=_rate(fragmented, n),
        broken_words=broken,
        broken_word_rate=_rate(broken, boundaries),
        mixed_chunks=mixed,
        section_mixing_rate=_rate(mixed, n),
        forced_splits=sum(1 for c in chunks if c.metadata.get("forced_split")),
        overlap_chars=overlap,
        uncovered_chars=nonspace - covered,
        tokens=SizeStats.of([c.token_count for c in chunks]),
        chars=SizeStats.of([c.end - c.start for c in chunks]),
    )


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _mixes(text: str, chunk: Chunk, heads: set[int], cuts: Sequence[int]) -> bool:
    """Whether ``chunk`` crosses a section boundary (``cuts``) with more than headings before it."""
    i = bisect.bisect_right(cuts, chunk.start)
    while i < len(cuts) and cuts[i] < chunk.end:
        if not _only_headings(text, chunk.start, cuts[i], heads):
            return True
        i += 1
    return False


def _coverage(text: str, chunks: Sequence[Chunk]) -> tuple[int, int]:
    """Non-whitespace characters covered by some chunk, and characters covered more than once."""
    spans = sorted((c.start, c.end) for c in chunks)
    covered = overlap = 0
    reach = 0
    for a, b in spans:
        if b <= reach:
            overlap += b - a
            continue
        if a < reach:
            overlap += reach - a
            a = reach
        covered += sum(1 for ch in text[a:b] if not ch.isspace())
        reach = b
    return covered, overlap
