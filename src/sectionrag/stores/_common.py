"""Validation and ranking shared by the stores (private)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sectionrag.errors import ConfigError, EmbedderMismatchError, StoreError
from sectionrag.types import Chunk

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MODES",
    "RRF_K",
    "check_add",
    "check_search",
    "dump_metadata",
    "load_metadata",
    "rrf",
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
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ConfigError(f"k must be a positive int, got {k!r}")
    if mode in ("vector", "hybrid") and query_vector is None:
        raise ConfigError(f"search mode {mode!r} needs query_vector (embed the query with embed_query)")
    if mode in ("text", "hybrid") and query_text is None:
        raise ConfigError(f"search mode {mode!r} needs query_text")
    if query_text is not None and not isinstance(query_text, str):
        raise TypeError(f"query_text must be str, not {type(query_text).__name__}")
    if query_vector is None or mode == "text":
        return None
    q = np.asarray(query_vector, dtype=np.float32)
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


def rrf(rankings: Sequence[Sequence[K]], k: int = RRF_K) -> list[tuple[K, float]]:
    """Fuse rankings by reciprocal rank: ``score = sum(1 / (k + rank))`` with 1-based ranks.

    Returns ``(key, score)`` best first; ties keep first-seen order.
    """
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


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
    if isinstance(dimension, bool) or not isinstance(dimension, int) or dimension < 1:
        raise ConfigError(f"dimension must be a positive int, got {dimension!r}")
