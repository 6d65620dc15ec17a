"""Sentence-window re-ranking of the best hybrid results (private).

A chunk's vector stands for all of its text at once, so a chunk whose answer
is one or two sentences among many others (a line of dialogue in a novel's
chapter, a figure in a paragraph of a filing) can rank just below the top
``k``. :func:`sentence_rerank` looks inside the best :data:`POOL` results: it
embeds every window of :data:`WINDOW` consecutive sentences of each result's
text, takes each result's best cosine with the query, min-max normalises those
over the pool and adds :data:`WEIGHT` times that to the result's score. The
results' spans and texts are unchanged; only their order (and scores) change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sectionrag._sentences import split_sentences
from sectionrag.protocols import Embedder
from sectionrag.types import SearchResult

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["POOL", "WEIGHT", "WINDOW", "sentence_rerank", "sentence_windows"]

#: results re-ranked (the rest keep their places after them)
POOL = 10
#: consecutive sentences per window
WINDOW = 2
#: weight of a result's best window (min-max normalised over the pool) added to its score
WEIGHT = 0.3


def sentence_windows(text: str, window: int = WINDOW) -> list[str]:
    """Return every run of ``window`` consecutive sentences of ``text`` (the whole text if shorter).

    >>> sentence_windows("One here. Two here. Three here.")
    ['One here. Two here.', 'Two here. Three here.']
    """
    spans = split_sentences(text).spans
    if len(spans) <= window:
        return [text.strip()] if text.strip() else []
    return [text[spans[i][0] : spans[i + window - 1][1]] for i in range(len(spans) - window + 1)]


def _unit(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    import numpy as np

    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    unit: npt.NDArray[np.float32] = np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
    return unit


def sentence_rerank(
    results: Sequence[SearchResult],
    query_vector: npt.NDArray[np.float32],
    embedder: Embedder,
    k: int,
    *,
    pool: int = POOL,
    window: int = WINDOW,
    weight: float = WEIGHT,
) -> list[SearchResult]:
    """Re-rank the best ``pool`` of ``results`` by their best sentence window; return the top ``k``.

    Each of those results scores ``score + weight * w``, where ``w`` is its
    best window's cosine with ``query_vector``, min-max normalised over the
    pool (all 1 when they are equal). Ranks are numbered again from 1.
    """
    import numpy as np

    head, tail = list(results[:pool]), list(results[pool:])
    if len(head) < 2:
        return [dataclasses.replace(r, rank=i) for i, r in enumerate([*head, *tail][:k], start=1)]
    windows = [sentence_windows(r.text, window) or [r.text] for r in head]
    flat = [w for ws in windows for w in ws]
    vectors = _unit(np.asarray(embedder.embed_documents(flat), dtype=np.float32))
    cosines = vectors @ _unit(np.asarray(query_vector, dtype=np.float32).reshape(-1))
    best, at = [], 0
    for ws in windows:
        best.append(float(cosines[at : at + len(ws)].max()))
        at += len(ws)
    lo, hi = min(best), max(best)
    norm = [(b - lo) / (hi - lo) if hi > lo else 1.0 for b in best]
    scored = sorted(
        ((r.score + weight * n, i) for i, (r, n) in enumerate(zip(head, norm, strict=True))),
        key=lambda si: (-si[0], si[1]),
    )
    ranked = [dataclasses.replace(head[i], score=s) for s, i in scored] + tail
    return [dataclasses.replace(r, rank=n) for n, r in enumerate(ranked[:k], start=1)]
