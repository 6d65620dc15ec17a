"""Token budgets over one document text, and the hard-cap splitter (private).

:class:`Measure` tokenizes a document once (in blocks, in parallel where the
tokenizer allows) and then answers "how many tokens in ``text[a:b]``" with two
binary searches. Chunkers plan with these estimates; the final chunks are
counted exactly once (in one batch) and any chunk over the cap is split again
at the least harmful point by :meth:`Measure.split_to_fit`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise
from typing import Any

from sectionrag.errors import ChunkingError

__all__ = ["Measure", "Span", "trim"]

Span = tuple[int, int]

_BLOCK = 1 << 12  # characters per tokenization block (small blocks tokenize fastest)
_WS_RUN = re.compile(r"\s+")
_ASCII_WS = " \t\n\r"  # separators every whitespace-splitting tokenizer agrees on
_PUNCT = frozenset(".,;:!?\"'()[]")  # split from letters by Bert-style and whitespace pre-tokenizers
_CUT_KINDS = ("sentence end", "clause", "word boundary", "token boundary", "character")


def trim(text: str, start: int, end: int) -> Span:
    """Shrink ``[start, end)`` so that it neither starts nor ends with whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _blocks(text: str) -> list[Span]:
    """Cut ``text`` into blocks of about ``_BLOCK`` characters, each cut inside whitespace."""
    out: list[Span] = []
    start, n = 0, len(text)
    while start < n:
        cut = start + _BLOCK
        if cut >= n:
            out.append((start, n))
            break
        m = _WS_RUN.search(text, cut, min(n, cut + 4096))
        if m is None:
            m = _WS_RUN.search(text, cut)
        if m is None:
            out.append((start, n))
            break
        out.append((start, m.start()))
        start = m.end()
    return out


class Measure:
    """Token counts for spans of one text, by one tokenizer.

    Args:
        text: The document text every offset points into.
        counter: A :class:`~sectionrag.protocols.TokenCounter`; with ``token_offsets``
            (and ideally ``token_offsets_batch``) the text is tokenized only once.
    """

    def __init__(self, text: str, counter: Any) -> None:
        self.text = text
        self.counter = counter
        self._starts: list[int] | None = None
        self._ends: list[int] = []
        self._cache: dict[Span, int] = {}
        self.forced: set[int] = set()
        self.has_offsets = callable(getattr(counter, "token_offsets", None))
        self.additive = getattr(counter, "whitespace_additive", False) is True
        self._header_cost: dict[str, int] = {}
        self._by_start: dict[int, list[tuple[_Counted, int]]] = {}

    # -- estimates -----------------------------------------------------------------
    def _index(self) -> tuple[list[int], list[int]]:
        if self._starts is None:
            text = self.text
            blocks = _blocks(text)
            pieces = [text[a:b] for a, b in blocks]
            batch: Callable[[Sequence[str]], list[list[tuple[int, int]]]] | None = getattr(
                self.counter, "token_offsets_batch", None
            )
            results = batch(pieces) if callable(batch) else [self.counter.token_offsets(p) for p in pieces]
            starts: list[int] = []
            ends: list[int] = []
            for (a, _), offsets in zip(blocks, results, strict=False):
                starts.extend([a + s for s, _ in offsets])
                ends.extend([a + e for _, e in offsets])
            self._starts, self._ends = starts, ends
        return self._starts, self._ends

    def token_starts(self) -> list[int]:
        """Start offsets of the document's tokens (tokenizing the text on first use)."""
        return self._index()[0]

    def token_ends(self) -> list[int]:
        """End offsets of the document's tokens."""
        return self._index()[1]

    def estimate(self, start: int, end: int) -> int:
        """Tokens of ``text[start:end]``: from the one tokenization, or counted and cached."""
        if end <= start:
            return 0
        if self.has_offsets:
            starts, ends = self._index()
            return max(0, bisect.bisect_left(starts, end) - bisect.bisect_right(ends, start))
        key = (start, end)
        n = self._cache.get(key)
        if n is None:
            n = self._cache[key] = int(self.counter.count_tokens(self.text[start:end]))
        return n

    def estimate_spans(self, spans: Sequence[Span]) -> list[int]:
        """Token counts of consecutive, non-overlapping spans (sentences, blocks).

        A tokenizer whose counts add up across whitespace counts the spans
        exactly, in one batch, and remembers them: a chunk made of whole spans
        is then counted by adding theirs (see :meth:`count_spans`). Otherwise
        the counts come from the one tokenization of the document (or, without
        offsets, from one batch call).
        """
        if self.additive and self._starts is None:
            counts = self.count_many([self.text[a:b] for a, b in spans])
            self._remember(spans, counts)
            return counts
        if self.has_offsets:
            return [self.estimate(a, b) for a, b in spans]
        missing = [s for s in spans if s not in self._cache and s[1] > s[0]]
        if missing:
            counts = self.count_many([self.text[a:b] for a, b in missing])
            self._cache.update(zip(missing, counts, strict=False))
        return [self._cache.get(s, 0) for s in spans]

    def _remember(self, spans: Sequence[Span], counts: Sequence[int]) -> None:
        if not spans or any(b > a2 for (_, b), (a2, _) in pairwise(spans)):
            return  # only ordered, non-overlapping spans add up
        text = self.text
        bad = [0]
        for (_, b), (a2, _) in pairwise(spans):
            gap = text[b:a2]
            clean = bool(gap) and not gap.strip(_ASCII_WS)
            bad.append(bad[-1] + (0 if clean else 1))
        counted = _Counted([b for _, b in spans], [0, *accumulate(counts)], bad)
        for i, (a, _) in enumerate(spans):
            self._by_start.setdefault(a, []).append((counted, i))

    def _sum_counts(self, start: int, end: int) -> int | None:
        """Tokens of ``text[start:end]`` as the sum of remembered spans, when it is a run of them."""
        for counted, i in self._by_start.get(start, ()):
            j = bisect.bisect_left(counted.ends, end, i)
            if j < len(counted.ends) and counted.ends[j] == end and counted.bad[j] == counted.bad[i]:
                return counted.prefix[j + 1] - counted.prefix[i]
        return None

    # -- exact counts ----------------------------------------------------------------
    def count(self, text: str) -> int:
        """Exact token count of ``text``."""
        return int(self.counter.count_tokens(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """Exact token counts of many texts (batched where the tokenizer can)."""
        batch = getattr(self.counter, "count_tokens_batch", None)
        if callable(batch) and len(texts) > 1:
            return [int(n) for n in batch(list(texts))]
        return [self.count(t) for t in texts]

    def count_spans(self, spans: Sequence[Span], header: str = "") -> list[int]:
        """Exact tokens of the embedded text of each span (under ``header``).

        For a tokenizer whose counts add up across whitespace, a span cut at
        whitespace that no document token straddles is counted from the one
        tokenization; the others are counted in one batch.
        """
        text = self.text
        out = [-1] * len(spans)
        head = self._header_tokens(header) if header and self.additive else 0
        todo: list[int] = []
        for i, (a, b) in enumerate(spans):
            if self.additive:
                n = self._sum_counts(a, b)
                if n is None and self.has_offsets and self.clean_cut(a) and self.clean_cut(b):
                    n = self.estimate(a, b)
                if n is not None:
                    out[i] = n + head
                    continue
            todo.append(i)
        if todo:
            bodies = [text[spans[i][0] : spans[i][1]] for i in todo]
            texts = [f"{header}\n{t}" for t in bodies] if header else bodies
            for i, n in zip(todo, self.count_many(texts), strict=False):
                out[i] = n
        return out

    def _header_tokens(self, header: str) -> int:
        n = self._header_cost.get(header)
        if n is None:
            n = self._header_cost[header] = self.count(header + "\n")
        return n

    def clean_cut(self, pos: int) -> bool:
        """Tell whether token counts add up across ``pos``.

        True when no token straddles ``pos`` and it is the text's edge, next to
        ASCII whitespace, or between a letter or digit and common punctuation.
        """
        text = self.text
        if 0 < pos < len(text):
            left, right = text[pos - 1], text[pos]
            spaced = left in _ASCII_WS or right in _ASCII_WS
            punct = (left.isalnum() and right in _PUNCT) or (right.isalnum() and left in _PUNCT)
            if not (spaced or punct):
                return False
        starts, ends = self._index()
        j = bisect.bisect_right(ends, pos)
        return j >= len(starts) or starts[j] >= pos

    def exact(self, start: int, end: int, header: str = "") -> int:
        """Exact tokens of the embedded text of ``text[start:end]`` under ``header``."""
        body = self.text[start:end]
        return self.count(f"{header}\n{body}" if header else body)

    # -- the hard cap ----------------------------------------------------------------
    def split_to_fit(self, start: int, end: int, limit: int, header: str = "") -> list[tuple[int, int, int]]:
        """Split ``text[start:end]`` into pieces of at most ``limit`` exact tokens.

        Cuts are chosen, in order of preference, at a sentence end, after clause
        punctuation, between words, between tokens, and only as a last resort
        between characters; always the latest such cut that fits. Every cut that
        is not a sentence end is recorded in :attr:`forced`.

        Returns:
            ``(start, end, tokens)`` for each piece.

        Raises:
            ChunkingError: a single character (with ``header``) exceeds ``limit``.
        """
        text = self.text
        out: list[tuple[int, int, int]] = []
        a, b = trim(text, start, end)
        while a < b:
            n = self.exact(a, b, header)
            if n <= limit:
                out.append((a, b, n))
                break
            cut, n_cut, kind = self._best_cut(a, b, limit, header)
            pa, pb = trim(text, a, cut)
            out.append((pa, pb, n_cut if (pa, pb) == (a, cut) else self.exact(pa, pb, header)))
            a, b = trim(text, cut, b)
            if kind > 0:
                self.forced.update((pb, a))
        return out

    def _window_end(self, a: int, b: int, limit: int) -> int:
        """Return a position after which no cut can fit (a generous bound that keeps counting cheap)."""
        if self.has_offsets:
            _, ends = self._index()
            i = bisect.bisect_right(ends, a) + 2 * limit + 16
            return b if i >= len(ends) else min(b, ends[i])
        return min(b, a + 64 * limit + 256)

    def _candidates(self, kind: int, a: int, b: int) -> list[int]:
        text = self.text
        if kind == 0:
            from sectionrag._sentences import split_sentences

            spans = split_sentences(text, a, b).spans
            return [e for _, e in spans[:-1]]
        if kind == 1:
            from sectionrag._sentences import clause_cuts

            return clause_cuts(text, a, b)
        if kind == 2:
            return [m.start() for m in _WS_RUN.finditer(text, a, b) if m.start() > a]
        if kind == 3:
            offsets = getattr(self.counter, "token_offsets", None)
            if not callable(offsets):
                return []
            return sorted({a + s for s, _ in offsets(text[a:b]) if 0 < s < b - a})
        return list(range(a + 1, b))

    def _best_cut(self, a: int, b: int, limit: int, header: str) -> tuple[int, int, int]:
        hi = self._window_end(a, b, limit)
        for kind in range(len(_CUT_KINDS)):
            cands = [c for c in self._candidates(kind, a, hi) if a < c < b]
            found = _largest_fitting(cands, lambda c: self.exact(a, c, header), limit)
            if found is not None:
                return found[0], found[1], kind
        raise ChunkingError(
            f"cannot fit text at offset {a} into {limit} tokens: a single character"
            + (" with its contextual header" if header else "")
            + " exceeds the limit; raise `size` or drop the header"
        )


class _Counted:
    """Counted consecutive spans: their ends, prefix sums of counts, and unclean gaps so far."""

    __slots__ = ("bad", "ends", "prefix")

    def __init__(self, ends: list[int], prefix: list[int], bad: list[int]) -> None:
        self.ends = ends
        self.prefix = prefix
        self.bad = bad


def _largest_fitting(cands: list[int], cost: Callable[[int], int], limit: int) -> tuple[int, int] | None:
    """Return ``(c, cost(c))`` for the largest candidate that fits, by galloping then bisecting."""
    if not cands:
        return None
    first = cost(cands[0])
    if first > limit:
        return None
    lo, lo_cost = 0, first
    hi = len(cands)
    step = 1
    while lo + step < hi:
        j = lo + step
        cj = cost(cands[j])
        if cj <= limit:
            lo, lo_cost = j, cj
            step *= 2
        else:
            hi = j
            break
    while hi - lo > 1:
        mid = (lo + hi) // 2
        cm = cost(cands[mid])
        if cm <= limit:
            lo, lo_cost = mid, cm
        else:
            hi = mid
    return cands[lo], lo_cost
