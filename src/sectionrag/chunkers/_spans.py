"""Token budgets over one document text, and the hard-cap splitter (private).

:class:`Measure` tokenizes a document once (in blocks, in parallel where the
tokenizer allows) and then answers "how many tokens in ``text[a:b]``" with two
binary searches. Chunkers plan with these estimates; the final chunks are
counted exactly once (in batches) and any chunk over the cap is split again
at the least harmful point by :meth:`Measure.split_to_fit`.

Every path here is linear in the text, whatever it looks like: text is
tokenized in bounded batches, a span that cannot fit the cap is never counted
whole, and the splitter only ever looks at a window of about the cap (a
quarter more) ahead of its position.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, pairwise
from typing import Any

from sectionrag.errors import ChunkingError

__all__ = ["Measure", "Span", "trim"]

Span = tuple[int, int]

_BLOCK = 1 << 12  # characters per tokenization block (small blocks tokenize fastest)
_MAX_BLOCK = 1 << 16  # a block with no whitespace this long is cut anyway (a "seam")
_BATCH_CHARS = 1 << 20  # characters handed to the tokenizer per call, which bounds its memory
_WS_RUN = re.compile(r"\s+")
_NON_WS = re.compile(r"\S")
_ASCII_WS = " \t\n\r"  # separators every whitespace-splitting tokenizer agrees on
_PUNCT = frozenset(".,;:!?\"'()[]")  # split from letters by Bert-style and whitespace pre-tokenizers
_CUT_KINDS = ("sentence end", "clause", "word boundary", "token boundary", "character")
_LOCAL = 256  # characters before the reach of a cut searched first for a clause or word boundary
_LINE_REACH = 64  # characters of context before a cut (a longer line is no heading)


def trim(text: str, start: int, end: int) -> Span:
    """Shrink ``[start, end)`` so that it neither starts nor ends with whitespace."""
    if start < end and text[start].isspace():
        m = _NON_WS.search(text, start, end)
        if m is None:
            return end, end
        start = m.start()
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _blocks(text: str) -> tuple[list[Span], list[int]]:
    """Cut ``text`` into blocks of about ``_BLOCK`` characters, each cut inside whitespace.

    Returns the blocks and the seams: offsets where a block had to be cut
    outside whitespace (no whitespace for ``_MAX_BLOCK`` characters).
    """
    out: list[Span] = []
    seams: list[int] = []
    start, n = 0, len(text)
    while start < n:
        cut = start + _BLOCK
        if cut >= n:
            out.append((start, n))
            break
        stop = min(n, start + _MAX_BLOCK)
        m = _WS_RUN.search(text, cut, stop)
        if m is None:
            out.append((start, stop))
            if stop < n:
                seams.append(stop)
            start = stop
            continue
        out.append((start, m.start()))
        start = m.end()
    return out, seams


def _batches(sizes: Sequence[int], limit: int = _BATCH_CHARS) -> Iterable[tuple[int, int]]:
    """Group consecutive items into ``[i, j)`` ranges of about ``limit`` characters."""
    i, n = 0, len(sizes)
    while i < n:
        j, total = i, 0
        while j < n and (j == i or total + sizes[j] <= limit):
            total += sizes[j]
            j += 1
        yield i, j
        i = j


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
        self._starts: array[int] | None = None
        self._ends: array[int] = array("q")
        self._seams: list[int] = []
        self._cache: dict[Span, int] = {}
        self.forced: set[int] = set()
        self.has_offsets = callable(getattr(counter, "token_offsets", None))
        self.additive = getattr(counter, "whitespace_additive", False) is True
        self._header_cost: dict[str, int] = {}
        self._by_start: dict[int, list[tuple[_Counted, int]]] = {}

    # -- estimates -----------------------------------------------------------------
    def _index(self) -> tuple[array[int], array[int]]:
        if self._starts is None:
            text = self.text
            blocks, self._seams = _blocks(text)
            batch: Callable[[Sequence[str]], list[list[tuple[int, int]]]] | None = getattr(
                self.counter, "token_offsets_batch", None
            )
            code = "i" if len(text) < 2**31 else "q"  # 4 bytes an offset where they fit
            starts: array[int] = array(code)
            ends: array[int] = array(code)
            for i, j in _batches([b - a for a, b in blocks]):
                pieces = [text[a:b] for a, b in blocks[i:j]]
                if callable(batch):
                    results = batch(pieces)
                else:
                    results = [self.counter.token_offsets(p) for p in pieces]
                for (a, _), offsets in zip(blocks[i:j], results, strict=False):
                    starts.extend([a + s for s, _ in offsets])
                    ends.extend([a + e for _, e in offsets])
            self._starts, self._ends = starts, ends
        return self._starts, self._ends

    def token_starts(self) -> Sequence[int]:
        """Start offsets of the document's tokens (tokenizing the text on first use)."""
        return self._index()[0]

    def token_ends(self) -> Sequence[int]:
        """End offsets of the document's tokens."""
        return self._index()[1]

    def seam_free(self, start: int, end: int) -> bool:
        """Tell whether no forced block cut (a seam) lies in ``[start, end]``.

        The one tokenization may differ from tokenizing a span that crosses a
        seam; only seam-free spans are counted from it.
        """
        self._index()
        seams = self._seams
        i = bisect.bisect_left(seams, start)
        return i >= len(seams) or seams[i] > end

    def beyond_window(self, start: int, end: int, limit: int) -> bool:
        """Tell whether ``text[start:end]`` is surely over ``limit`` tokens (longer than the cut window)."""
        if self.has_offsets and self._starts is None and end - start <= _MAX_BLOCK:
            return False  # short: counting it is cheap, and needs no tokenization of the whole text
        return self._window_end(start, end, limit) < end

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
        text = self.text
        if self.additive and self._starts is None and all(b - a <= _MAX_BLOCK for a, b in spans):
            counts = self.count_many([text[a:b] for a, b in spans])
            self._remember(spans, counts)
            return counts
        if self.has_offsets:
            return [self.estimate(a, b) for a, b in spans]
        missing = [s for s in spans if s not in self._cache and s[1] > s[0]]
        if missing:
            counts = self.count_many([text[a:b] for a, b in missing])
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
        """Exact token counts of many texts (in batches of about 1 MB where the tokenizer can)."""
        batch = getattr(self.counter, "count_tokens_batch", None)
        if not callable(batch) or len(texts) <= 1:
            return [self.count(t) for t in texts]
        out: list[int] = []
        for i, j in _batches([len(t) for t in texts]):
            out.extend(int(n) for n in batch(list(texts[i:j])))
        return out

    def count_spans(self, spans: Sequence[Span], header: str = "") -> list[int]:
        """Exact tokens of the embedded text of each span (under ``header``).

        For a tokenizer whose counts add up across whitespace, a span cut at
        whitespace that no document token straddles is counted from the one
        tokenization; the others are counted in one batch.
        """
        text = self.text
        out = [-1] * len(spans)
        head = self.header_tokens(header) if header and self.additive else 0
        todo: list[int] = []
        for i, (a, b) in enumerate(spans):
            if self.additive:
                n = self._sum_counts(a, b)
                if (
                    n is None
                    and self.has_offsets
                    and self.clean_cut(a)
                    and self.clean_cut(b)
                    and self.seam_free(a, b)
                ):
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

    def header_tokens(self, header: str) -> int:
        """Exact tokens of ``header`` and the newline after it (counted once per header)."""
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
        """Exact tokens of the embedded text of ``text[start:end]`` under ``header``.

        Taken from the one tokenization when that is exact (a tokenizer whose
        counts add up, clean cuts, no seam), otherwise counted.
        """
        if (
            self.additive
            and self._starts is not None
            and self.clean_cut(start)
            and self.clean_cut(end)
            and self.seam_free(start, end)
        ):
            return self.estimate(start, end) + (self.header_tokens(header) if header else 0)
        body = self.text[start:end]
        return self.count(f"{header}\n{body}" if header else body)

    # -- the hard cap ----------------------------------------------------------------
    def split_to_fit(self, start: int, end: int, limit: int, header: str = "") -> list[tuple[int, int, int]]:
        """Split ``text[start:end]`` into pieces of at most ``limit`` exact tokens.

        Cuts are chosen, in order of preference, at a sentence end, after clause
        punctuation, between words, between tokens, and only as a last resort
        between characters; always the latest such cut that fits. Every cut that
        is not a sentence end is recorded in :attr:`forced`. Each cut looks only
        at a window of about ``1.25 * limit`` tokens ahead, so the work is linear
        in the length of the span.

        Returns:
            ``(start, end, tokens)`` for each piece.

        Raises:
            ChunkingError: a single character (with ``header``) exceeds ``limit``.
        """
        text = self.text
        out: list[tuple[int, int, int]] = []
        a, b = trim(text, start, end)
        while a < b:
            hi = self._window_end(a, b, limit, wide=False)
            if hi >= b:  # the rest may fit: count it (never a span longer than the window)
                n = self.exact(a, b, header)
                if n <= limit:
                    out.append((a, b, n))
                    break
            cut, n_cut, kind = self._best_cut(a, b, hi, limit, header)
            pa, pb = trim(text, a, cut)
            out.append((pa, pb, n_cut if (pa, pb) == (a, cut) else self.exact(pa, pb, header)))
            a, b = trim(text, cut, b)
            if kind > 0:
                self.forced.update((pb, a))
        return out

    def _window_end(self, a: int, b: int, limit: int, *, wide: bool = True) -> int:
        """Return a position after which no cut can fit (a generous bound that keeps counting cheap).

        The wide window spans ``2 * limit + 16`` document tokens (a piece that long
        surely exceeds ``limit``); the narrow one, where cuts are searched,
        ``limit + limit // 4 + 16``. Without token offsets: 64 characters a token.
        """
        if self.has_offsets:
            _, ends = self._index()
            reach = 2 * limit + 16 if wide else limit + limit // 4 + 16
            i = bisect.bisect_right(ends, a) + reach
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
            return [p for p in (m.start() for m in _WS_RUN.finditer(text, a, b)) if p > a]
        if kind == 3:
            offsets = getattr(self.counter, "token_offsets", None)
            if not callable(offsets):
                return []
            return sorted({a + s for s, _ in offsets(text[a:b]) if 0 < s < b - a})
        return list(range(a + 1, b))

    def _reach(self, a: int, hi: int, limit: int, header: str) -> int:
        """Return the latest cut at which ``text[a:cut]`` fits by the estimates (``hi`` without offsets)."""
        if not self.has_offsets:
            return hi
        starts, ends = self._index()
        k = bisect.bisect_right(ends, a) + limit - (self.header_tokens(header) if header else 0)
        return hi if k >= len(starts) else max(a + 1, min(hi, starts[k]))

    def _best_cut(self, a: int, b: int, hi: int, limit: int, header: str) -> tuple[int, int, int]:
        """Return ``(cut, tokens, kind)`` for the best cut of ``text[a:b]`` (see :meth:`split_to_fit`).

        Where ``a`` lies inside a paragraph (after an earlier cut), sentences are
        read from the line before it, so that the window's first line is not taken
        for a paragraph's first (a heading) and cut after.
        """
        context = _paragraph_context(self.text, a)
        reach = self._reach(a, hi, limit, header)
        for kind in range(len(_CUT_KINDS)):
            found = None
            if kind in (1, 2) and reach - a > _LOCAL:
                # the latest clause or word boundary lies just before ``reach``: look there first
                lo = max(a, reach - _LOCAL)
                near = [c for c in self._candidates(kind, lo, reach) if a < c < b]
                if near:
                    found = self._fit(a, near, limit, header)
            if found is None:
                stop = hi if kind >= 3 else min(hi, reach + _LOCAL)  # (sentences need their context)
                last = b if kind >= 3 else min(b, reach + 1)
                cands = [c for c in self._candidates(kind, context if kind == 0 else a, stop) if a < c < last]
                found = self._fit(a, cands, limit, header)
            if found is not None and kind == 2:
                found = self._back_to_line_break(a, found, header)
            if found is not None:
                return found[0], found[1], kind
        raise ChunkingError(
            f"cannot fit text at offset {a} into {limit} tokens: a single character"
            + (" with its contextual header" if header else "")
            + " exceeds the limit; raise `size` or drop the header"
        )

    def _back_to_line_break(self, a: int, found: tuple[int, int], header: str) -> tuple[int, int]:
        """Move a cut between words back to a line break shortly before it, if there is one.

        A line of code or of a list is not cut in two where the line before it can
        end the piece: the break is looked for in the last quarter of the piece
        (at most ``_LOCAL`` characters).
        """
        text = self.text
        cut, n = found
        end = _WS_RUN.match(text, cut)
        if end is not None and "\n" in end.group():
            return found  # already at a line break
        br = text.rfind("\n", max(a + 1, cut - min(_LOCAL, (cut - a) // 4)), cut)
        if br < 0:
            return found
        start = trim(text, a, br)[1]
        if start <= a:
            return found
        m = self.exact(a, start, header)
        return (start, m) if m <= n else found

    def _fit(self, a: int, cands: list[int], limit: int, header: str) -> tuple[int, int] | None:
        """Return ``(c, tokens)`` for the latest candidate cut ``c`` whose piece ``text[a:c]`` fits.

        With token offsets the estimates (two bisections each) find the cut and
        one exact count confirms it; only when the estimate was too low are
        earlier candidates counted exactly.
        """

        def cost(c: int) -> int:
            return self.exact(a, c, header)

        if not cands:
            return None
        if not self.has_offsets:
            return _largest_fitting(cands, cost, limit)
        head = self.header_tokens(header) if header else 0
        lo, hi = 0, len(cands)
        while lo < hi:  # the estimate of text[a:c] grows with c
            mid = (lo + hi) // 2
            if self.estimate(a, cands[mid]) + head <= limit:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            return _largest_fitting(cands, cost, limit)  # one exact count when nothing fits
        c = cands[lo - 1]
        n = cost(c)
        if n <= limit:
            return c, n
        return _largest_fitting(cands[: lo - 1], cost, limit)


def _paragraph_context(text: str, a: int) -> int:
    """Return where sentences around ``a`` are read from, so that ``a`` is not taken for a paragraph's start.

    ``a`` itself where it begins a paragraph (a blank line before it); the start
    of ``a``'s line where that line begins one; else a point in the line before,
    at most ``_LINE_REACH`` characters before its end. A line longer than that is
    no heading, so a context that starts inside one is enough, and the work per
    cut stays bounded.
    """
    line = text.rfind("\n", max(0, a - _LINE_REACH), a) + 1
    if line == 0:
        return max(0, a - _LINE_REACH)  # the text's start, or inside a long line
    reach = max(0, line - 1 - _LINE_REACH)
    before = max(text.rfind("\n", reach, line - 1) + 1, reach)
    if not text[before : line - 1].strip():
        return line  # a blank line before: a paragraph begins at ``a``'s line
    return before


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
