"""Validation and ranking shared by the stores (private)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sectionrag._checks import check_int
from sectionrag.defaults import FUSIONS
from sectionrag.errors import ConfigError, EmbedderMismatchError, StoreError
from sectionrag.types import Chunk

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "FUSIONS",
    "MODES",
    "RRF_K",
    "check_add",
    "check_fusion",
    "check_search",
    "dump_metadata",
    "fuse",
    "fuse_candidates",
    "load_metadata",
    "rrf",
    "zscore",
]

MODES = ("vector", "text", "hybrid")
#: the ``k`` constant of reciprocal rank fusion
RRF_K = 60
#: each ranking fused by hybrid search is cut to this many hits (or ``k`` if larger)
HYBRID_CANDIDATES = 50

_COLLECTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")

K = TypeVar("K", bound=Hashable)


def check_collection_name(name: str) -> str:
    """Return ``name`` if it is a valid collection name, else raise ConfigError."""
    if not isinstance(name, str) or not _COLLECTION_NAME.match(name) or name.endswith(".lance"):
        raise ConfigError(
            f"invalid collection name {name!r}: use letters, digits, '_', '-' and '.', "
            "starting with a letter or digit (at most 128 characters)"
        )
    return name


def check_embedder_record(collection: str, recorded: tuple[str, int], embedder: str, dimension: int) -> None:
    """Raise EmbedderMismatchError unless ``(embedder, dimension)`` is what the collection records."""
    rec_name, rec_dim = recorded
    if (embedder, dimension) != (rec_name, rec_dim):
        raise EmbedderMismatchError(
            f"collection {collection!r} was built with embedder {rec_name!r} ({rec_dim} dims), "
            f"not {embedder!r} ({dimension} dims); search it with {rec_name!r}, "
            "or index into a new collection (--collection NAME), or drop this one and re-index"
        )


def check_add(
    chunks: Sequence[Chunk],
    vectors: Any,
    *,
    collection: str,
    recorded: tuple[str, int],
    embedder: str | None,
) -> npt.NDArray[np.float32]:
    """Validate an ``add`` call before anything is written; return the vectors as float32 (n, dim).

    Raises:
        EmbedderMismatchError: wrong dimension, or ``embedder`` differs from the record.
        StoreError: lengths differ, non-finite values, or duplicate chunk ids.
        TypeError: an item of ``chunks`` is not a Chunk.
    """
    import numpy as np

    rec_name, rec_dim = recorded
    if embedder is not None:
        check_embedder_record(collection, recorded, embedder, rec_dim)
    for chunk in chunks:
        if not isinstance(chunk, Chunk):
            raise TypeError(f"chunks must be Chunk objects, got {type(chunk).__name__}")
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1 and arr.size == 0:
        arr = arr.reshape(0, rec_dim)
    if arr.ndim != 2:
        raise StoreError(f"vectors must be a 2-D array (n, dim), got shape {arr.shape}")
    if arr.shape[1] != rec_dim:
        raise EmbedderMismatchError(
            f"collection {collection!r} holds {rec_dim}-dim vectors from {rec_name!r}; "
            f"got {arr.shape[1]}-dim vectors. Embed with {rec_name!r} or use another collection"
        )
    if arr.shape[0] != len(chunks):
        raise StoreError(f"got {len(chunks)} chunks but {arr.shape[0]} vectors; pass one vector per chunk")
    if not np.isfinite(arr).all():
        raise StoreError("vectors contain NaN or infinite values; nothing was added")
    ids = [c.id for c in chunks]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise StoreError(f"chunk id {dup!r} appears twice in one add; chunk ids must be unique")
    return arr


def check_search(
    query_vector: Any,
    query_text: str | None,
    k: int,
    mode: str,
    *,
    collection: str,
    recorded: tuple[str, int],
) -> npt.NDArray[np.float32] | None:
    """Validate search arguments; return the query vector as float32 (dim,) or ``None``."""
    import numpy as np

    if mode not in MODES:
        raise ConfigError(f"unknown search mode {mode!r}; choose one of: {', '.join(MODES)}")
    check_int("k", k, minimum=1)
    if mode in ("vector", "hybrid") and query_vector is None:
        raise ConfigError(f"search mode {mode!r} needs query_vector (embed the query with embed_query)")
    if mode in ("text", "hybrid") and query_text is None:
        raise ConfigError(f"search mode {mode!r} needs query_text")
    if query_text is not None and not isinstance(query_text, str):
        raise TypeError(f"query_text must be str, not {type(query_text).__name__}")
    if query_vector is None or mode == "text":
        return None
    try:
        q = np.asarray(query_vector, dtype=np.float32)
    except (TypeError, ValueError):
        raise TypeError(
            f"query_vector must be an array of numbers (from embed_query), not {type(query_vector).__name__}"
        ) from None
    if q.ndim == 2 and q.shape[0] == 1:
        q = q[0]
    rec_name, rec_dim = recorded
    if q.ndim != 1 or q.shape[0] != rec_dim:
        raise EmbedderMismatchError(
            f"collection {collection!r} holds {rec_dim}-dim vectors from {rec_name!r}; "
            f"got a query vector of shape {q.shape}. Embed the query with {rec_name!r}"
        )
    if not np.isfinite(q).all():
        raise ConfigError("query_vector contains NaN or infinite values")
    return q


def rrf(
    rankings: Sequence[Sequence[K]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[K, float]]:
    """Fuse rankings by reciprocal rank: ``score = sum(w / (k + rank))`` with 1-based ranks.

    ``weights`` holds one weight per ranking (default 1 each). Returns
    ``(key, score)`` best first; ties keep first-seen order.
    """
    ws = [1.0] * len(rankings) if weights is None else list(weights)
    scores: dict[K, float] = {}
    for ranking, w in zip(rankings, ws, strict=True):
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def _min_max(scored: Sequence[tuple[K, float]]) -> dict[K, float]:
    if not scored:
        return {}
    values = [s for _, s in scored]
    lo, hi = min(values), max(values)
    if hi - lo <= 1e-12:
        return {key: 1.0 for key, _ in scored}
    return {key: (s - lo) / (hi - lo) for key, s in scored}


def linear(rankings: Sequence[Sequence[tuple[K, float]]], weights: Sequence[float]) -> list[tuple[K, float]]:
    """Fuse scored rankings by a weighted sum of min-max normalised scores.

    Each ranking's scores are rescaled to ``[0, 1]`` over its own candidates
    (best 1, worst 0; a single candidate or all-equal scores give 1); a key
    missing from a ranking gets 0 there. Returns ``(key, score)`` best first;
    ties keep first-seen order.
    """
    fused: dict[K, float] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        for key, value in _min_max(ranking).items():
            fused[key] = fused.get(key, 0.0) + w * value
        for key, _ in ranking:
            fused.setdefault(key, 0.0)
    return sorted(fused.items(), key=lambda kv: -kv[1])


def _z_scores(scored: Sequence[tuple[K, float]]) -> dict[K, float]:
    if not scored:
        return {}
    values = [s for _, s in scored]
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    if sd <= 1e-12:
        return {key: 1.0 for key, _ in scored}
    return {key: (s - mean) / sd for key, s in scored}


def zscore(rankings: Sequence[Sequence[tuple[K, float]]], weights: Sequence[float]) -> list[tuple[K, float]]:
    """Fuse scored rankings by a weighted sum of z-scores.

    Each ranking's scores are standardised over its own candidates (minus
    their mean, over their standard deviation; a single candidate or
    all-equal scores give 1); a key missing from a ranking gets 0 there, the
    ranking's mean. Returns ``(key, score)`` best first; ties keep first-seen
    order.
    """
    fused: dict[K, float] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        for key, value in _z_scores(ranking).items():
            fused[key] = fused.get(key, 0.0) + w * value
    return sorted(fused.items(), key=lambda kv: -kv[1])


def check_fusion(fusion: Any, weights: Any) -> tuple[str, tuple[float, float]]:
    """Validate a hybrid fusion method and its ``(vector, text)`` weights; return them normalised.

    Raises:
        ConfigError: unknown fusion, or weights that are not two finite numbers >= 0 (not both 0).
    """
    if fusion not in FUSIONS:
        raise ConfigError(f"unknown fusion {fusion!r}; choose one of: {', '.join(FUSIONS)}")
    try:
        w_vec, w_text = (float(w) for w in weights)
    except (TypeError, ValueError):
        raise ConfigError(
            f"weights must be a (vector, text) pair of numbers such as (0.5, 0.5), got {weights!r}"
        ) from None
    if any(isinstance(w, bool) for w in weights) or not all(
        math.isfinite(w) and w >= 0 for w in (w_vec, w_text)
    ):
        raise ConfigError(f"weights must be finite numbers >= 0, got {weights!r}")
    if w_vec == 0 and w_text == 0:
        raise ConfigError("weights cannot both be 0; use (1, 0) for vector-only or (0, 1) for text-only")
    return str(fusion), (w_vec, w_text)


def fuse(
    vector: Sequence[tuple[K, float]],
    text: Sequence[tuple[K, float]],
    fusion: str,
    weights: tuple[float, float],
) -> list[tuple[K, float]]:
    """Fuse a vector and a text ranking (``(key, score)`` best first) as ``fusion`` says."""
    if fusion == "linear":
        return linear([vector, text], weights)
    if fusion == "zscore":
        return zscore([vector, text], weights)
    return rrf([[key for key, _ in vector], [key for key, _ in text]], weights=weights)


def fuse_candidates(
    vector: Sequence[tuple[K, float]],
    text: Sequence[tuple[K, float]],
    fusion: str,
    weights: tuple[float, float],
) -> list[tuple[K, float]]:
    """Fuse hybrid search's two candidate rankings so that the head does not depend on ``k``.

    The best :data:`HYBRID_CANDIDATES` of each ranking are fused first, as for
    any small ``k``; candidates further down (fetched when ``k`` asks for more)
    follow, in the order of the fusion of the whole rankings, their scores
    capped so that no result scores above one before it. Without this a larger
    ``k`` would normalise over a wider pool and reorder the best results.
    """
    head = fuse(vector[:HYBRID_CANDIDATES], text[:HYBRID_CANDIDATES], fusion, weights)
    if len(vector) <= HYBRID_CANDIDATES and len(text) <= HYBRID_CANDIDATES:
        return head
    seen = {key for key, _ in head}
    out = list(head)
    last = head[-1][1] if head else math.inf
    for key, score in fuse(vector, text, fusion, weights):
        if key not in seen:
            last = min(score, last)
            out.append((key, last))
    return out


def dump_metadata(metadata: Mapping[str, Any]) -> str:
    """Serialise chunk metadata as JSON (values JSON cannot hold are stored as strings)."""
    return json.dumps(dict(metadata), ensure_ascii=False, sort_keys=True, default=str)


def load_metadata(text: str | None) -> dict[str, Any]:
    """Parse stored metadata JSON (empty or missing gives ``{}``)."""
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {"value": value}


def finite(x: float) -> float:
    """Return ``x``, or 0.0 when it is NaN (a zero vector has no cosine)."""
    return x if math.isfinite(x) else 0.0


def check_record_args(embedder: str, dimension: int) -> None:
    """Raise ConfigError unless ``embedder`` is a non-empty str and ``dimension`` a positive int."""
    if not isinstance(embedder, str) or not embedder:
        raise ConfigError(f"embedder must be a non-empty str, got {embedder!r}")
    check_int("dimension", dimension, minimum=1)
