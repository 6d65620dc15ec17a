"""``semantic``: cut where the topic shifts, measured by sentence-window similarity.

The behaviour of chonkie's ``SemanticChunker``: every
sentence ``k`` is compared (cosine) with the window of the ``window``
sentences before it; the similarity curve is smoothed (Savitzky-Golay) and
its local minima that fall at or below the ``threshold`` percentile of all
minima, at least ``min_sentences`` apart, become boundaries (chonkie_core's
Rust routines do this part). Groups over the size are re-packed by whole
sentences; a sentence over the cap alone is split at the least harmful point.
``method="threshold"`` instead cuts wherever the similarity falls below
``threshold`` as an absolute cosine.

What differs from chonkie, measurably (see ``docs/benchmarks.md``):

- sentences come from the offset-recording splitter (no cut at "U.S.",
  "Inc.", "4.2", list markers, short quotations), with chonkie's rule of
  merging sentences shorter than ``min_chars``;
- with a static model (:class:`~sectionrag.embedders.static.StaticEmbedder`)
  every sentence is tokenized and summed once and a window's embedding is the
  sum of its sentences' sums (exactly what embedding the window text gives, up
  to the model's truncation), where chonkie embeds every sentence twice;
- any :class:`~sectionrag.protocols.Embedder` is accepted (then sentences and
  windows are embedded in one ``embed_documents`` call);
- spans are exact and the token cap is hard.
"""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING, Any, Literal

from sectionrag import registry
from sectionrag._checks import check_number
from sectionrag._sentences import split_sentences
from sectionrag.chunkers._base import BaseChunker, check_int
from sectionrag.chunkers._spans import Measure, Span
from sectionrag.chunkers.sentence import pack_ranges
from sectionrag.defaults import DEFAULT_SIMILARITY, DEFAULT_SIZE
from sectionrag.errors import ConfigError, MissingDependencyError
from sectionrag.types import Document

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["SemanticChunker", "merge_short"]

logger = logging.getLogger(__name__)

Method = Literal["minima", "threshold"]
_METHODS = ("minima", "threshold")


def merge_short(text: str, spans: list[Span], min_chars: int, end: int) -> list[Span]:
    """Merge sentences shorter than ``min_chars`` into their neighbours (chonkie's rule).

    A sentence's length counts the whitespace after it (up to the next
    sentence, or ``end``), as chonkie's delimiter splitting does. Short
    sentences join the group being built; a new group starts at a long sentence
    once the current group is long enough.
    """
    if min_chars <= 1 or not spans:
        return spans
    out: list[Span] = []
    cur_a, cur_b = spans[0]
    cur_len = (spans[1][0] if len(spans) > 1 else end) - cur_a
    for k in range(1, len(spans)):
        a, b = spans[k]
        length = (spans[k + 1][0] if k + 1 < len(spans) else end) - a
        if length >= min_chars and cur_len >= min_chars:
            out.append((cur_a, cur_b))
            cur_a, cur_b, cur_len = a, b, length
        else:
            cur_b = b
            cur_len += length
    out.append((cur_a, cur_b))
    return out


class SemanticChunker(BaseChunker):
    """Topic-shift chunking over sentences, with a hard token cap.

    Args:
        size: Maximum tokens per chunk (default :data:`~sectionrag.defaults.DEFAULT_SIZE`).
        tokenizer: Counts tokens for the size (default :class:`~sectionrag.tokenizers.WordTokenizer`).
        embedder: The similarity model: any :class:`~sectionrag.protocols.Embedder`;
            default the registered embedder :data:`~sectionrag.defaults.DEFAULT_SIMILARITY`
            (a static model distilled from the packaged MiniLM), loaded on first use.
        threshold: ``"minima"``: percentile (0-1) of the similarity minima kept as
            boundaries; ``"threshold"``: the cosine below which a boundary goes (default 0.5).
        min_sentences: Minimum sentences between two boundaries (default 2).
        window: Sentences in the window each sentence is compared with (default 3).
        method: ``"minima"`` (chonkie's peak detection, default) or ``"threshold"``.
        min_chars: Sentences shorter than this are merged with a neighbour (default 24).
        filter_window: Savitzky-Golay window (odd, default 5).
        filter_polyorder: Savitzky-Golay polynomial order (default 3).
        filter_tolerance: Tolerance for a minimum's first derivative (default 0.2).
    """

    strategy = "semantic"

    def __init__(
        self,
        *,
        size: int = DEFAULT_SIZE,
        tokenizer: Any = None,
        embedder: Any = None,
        threshold: float = 0.5,
        min_sentences: int = 2,
        window: int = 3,
        method: Method = "minima",
        min_chars: int = 24,
        filter_window: int = 5,
        filter_polyorder: int = 3,
        filter_tolerance: float = 0.2,
    ) -> None:
        super().__init__(size=size, tokenizer=tokenizer)
        if method not in _METHODS:
            raise ConfigError(f"unknown method {method!r}; choose one of: {', '.join(_METHODS)}")
        self.method: Method = method
        threshold = check_number("threshold", threshold)
        if method == "minima" and not 0 < threshold < 1:
            raise ConfigError(
                f"threshold must be a percentile in (0, 1) for method='minima', got {threshold}"
            )
        if method == "threshold" and not -1 <= threshold <= 1:
            raise ConfigError(
                f"threshold must be a cosine between -1 and 1 for method='threshold', got {threshold}"
            )
        self.threshold = float(threshold)
        self.min_sentences = check_int("min_sentences", min_sentences, minimum=1)
        self.window = check_int("window", window, minimum=1)
        self.min_chars = check_int("min_chars", min_chars, minimum=0)
        self.filter_window = check_int("filter_window", filter_window, minimum=3)
        if self.filter_window % 2 == 0:
            raise ConfigError(f"filter_window must be odd, got {filter_window}")
        self.filter_polyorder = check_int("filter_polyorder", filter_polyorder, minimum=0)
        if self.filter_polyorder >= self.filter_window:
            raise ConfigError(
                f"filter_polyorder ({filter_polyorder}) must be smaller than filter_window ({filter_window})"
            )
        filter_tolerance = check_number("filter_tolerance", filter_tolerance)
        if not 0 < filter_tolerance < 1:
            raise ConfigError(f"filter_tolerance must be between 0 and 1, got {filter_tolerance}")
        self.filter_tolerance = float(filter_tolerance)
        if embedder is not None and not callable(getattr(embedder, "embed_documents", None)):
            raise TypeError(
                f"embedder must be an Embedder (with embed_documents), not {type(embedder).__name__}"
            )
        self._embedder = embedder

    def __repr__(self) -> str:
        return (
            f"SemanticChunker(size={self.size}, method={self.method!r}, threshold={self.threshold}, "
            f"min_sentences={self.min_sentences}, window={self.window})"
        )

    @property
    def embedder(self) -> Any:
        """The similarity model (the default static model is loaded here, once)."""
        if self._embedder is None:
            self._embedder = registry.create("embedder", DEFAULT_SIMILARITY)
        return self._embedder

    def split(self, document: Document, measure: Measure, start: int, end: int, budget: int) -> list[Span]:
        """Semantic groups of the sentences of ``text[start:end]``, re-packed to fit ``budget``."""
        text = document.text
        spans = split_sentences(text, start, end, cuts=document.boundaries()).spans
        spans = merge_short(text, spans, self.min_chars, end)
        if not spans:
            return []
        costs = measure.estimate_spans(spans)
        out: list[Span] = []
        for i, j in self.groups(text, spans):
            if sum(costs[i:j]) <= budget:
                out.append((spans[i][0], spans[j - 1][1]))
                continue
            for a, b in pack_ranges(costs[i:j], budget):
                out.append((spans[i + a][0], spans[i + b - 1][1]))
        return out

    def groups(self, text: str, spans: list[Span]) -> list[tuple[int, int]]:
        """Sentence index ranges ``[i, j)`` between semantic boundaries."""
        n = len(spans)
        if n <= 1:
            return [(0, n)] if n else []
        if self.method == "minima":
            if n <= self.window:
                return [(0, n)]
            cuts = self._minima_cuts(self.similarities(text, spans))
        else:
            cuts = self._threshold_cuts(self.similarities(text, spans))
        edges = [0, *cuts, n]
        return [(a, b) for a, b in itertools.pairwise(edges) if b > a]

    def similarities(self, text: str, spans: list[Span]) -> npt.NDArray[np.float64]:
        """Cosine of each sentence with the window before it.

        For ``method="minima"`` entry ``k`` compares sentence ``k + window`` with
        sentences ``k .. k + window - 1`` (chonkie's layout); for
        ``"threshold"`` entry ``k`` compares sentence ``k + 1`` with the (up to)
        ``window`` sentences before it.
        """
        import numpy as np

        n, w = len(spans), self.window
        targets = list(range(w, n)) if self.method == "minima" else list(range(1, n))
        firsts = [max(0, k - w) for k in targets]
        model = self.embedder
        token_sums = getattr(model, "token_sums", None)
        if callable(token_sums):
            sums, _ = token_sums([text[a:b] for a, b in spans])
            acc = np.zeros((n + 1, sums.shape[1]), dtype=np.float64)
            np.cumsum(sums, axis=0, dtype=np.float64, out=acc[1:])
            tgt = np.asarray(targets)
            win = acc[tgt] - acc[np.asarray(firsts)]
            sent = sums[tgt].astype(np.float64)
        else:
            sentence_texts = [text[spans[k][0] : spans[k][1]] for k in targets]
            window_texts = [
                text[spans[f][0] : spans[k - 1][1]] for f, k in zip(firsts, targets, strict=False)
            ]
            vectors = np.asarray(model.embed_documents(sentence_texts + window_texts), dtype=np.float64)
            sent, win = vectors[: len(targets)], vectors[len(targets) :]
        num = (win * sent).sum(axis=1)
        den = np.linalg.norm(win, axis=1) * np.linalg.norm(sent, axis=1)
        sims: npt.NDArray[np.float64] = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
        return sims

    def _minima_cuts(self, sims: npt.NDArray[np.float64]) -> list[int]:
        if len(sims) < self.filter_window:
            return []
        try:
            import chonkie_core
        except ImportError as e:  # pragma: no cover - chonkie is a dependency
            raise MissingDependencyError("semantic chunking needs chonkie-core: pip install chonkie") from e
        import numpy as np

        idx, vals = chonkie_core.find_local_minima_interpolated(
            np.ascontiguousarray(sims, dtype=np.float64),
            window_size=self.filter_window,
            poly_order=self.filter_polyorder,
            tolerance=self.filter_tolerance,
        )
        if len(idx) == 0:
            return []
        kept, _ = chonkie_core.filter_split_indices(idx, vals, self.threshold, self.min_sentences)
        n = len(sims) + self.window
        return sorted({int(i) + self.window for i in kept if 0 < int(i) + self.window < n})

    def _threshold_cuts(self, sims: npt.NDArray[np.float64]) -> list[int]:
        n = len(sims) + 1
        cuts: list[int] = []
        last = 0
        for k in range(1, n):
            if (
                sims[k - 1] < self.threshold
                and k - last >= self.min_sentences
                and n - k >= self.min_sentences
            ):
                cuts.append(k)
                last = k
        return cuts
