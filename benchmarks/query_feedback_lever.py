"""The thirteenth retrieval round's lever: the query's vector moved toward its first results (feedback).

Pseudo-relevance feedback on the vector side: the default search runs once,
and the query vector becomes ``normalise(q + weight * mean(v_1 .. v_m))``, the
mean of the stored vectors of its ``m`` best results; the default search then
runs again with that vector (full-text search unchanged). A question that
names one aspect of a passage can then reach passages like the one it found
first.

The store's ``add`` (to keep each chunk's vector) and the benchmark's default
search are patched in this process only, then the retrieval benchmark runs
with the arguments that follow ``--``:

    python benchmarks/query_feedback_lever.py 3 0.3 -- --only "=sectionrag default" --modes default

Measured and not kept (docs/search.md, thirteenth round).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lever import split_at_dashes


def moved_query(query: np.ndarray, found: Sequence[np.ndarray], weight: float) -> np.ndarray:
    """Return ``query`` plus ``weight`` times the mean of ``found``, normalised (``query`` if none)."""
    if not found:
        return query
    mixed = np.asarray(query, dtype=np.float32) + weight * np.mean(np.stack(found), axis=0)
    norm = float(np.linalg.norm(mixed))
    return mixed / norm if norm > 0 else query


def patch(m: int, weight: float) -> None:
    """Keep every added chunk's vector, and make the benchmark's default search search twice."""
    import bench_retrieval

    from sectionrag.stores import LanceDBStore

    stored: dict[str, np.ndarray] = {}
    add = LanceDBStore.add

    def keeping_add(self: Any, chunks: Sequence[Any], vectors: Any, **kw: Any) -> None:
        for chunk, vector in zip(chunks, np.asarray(vectors), strict=True):
            stored[chunk.id] = vector
        add(self, chunks, vectors, **kw)

    LanceDBStore.add = keeping_add  # type: ignore[method-assign]
    search = bench_retrieval.search_default

    def feedback_search(
        store: Any, embedder: Any, query: str, vector: Any, k: int, *args: Any, **kw: Any
    ) -> Any:
        first = search(store, embedder, query, vector, max(k, m), *args, **kw)
        found = [stored[h.chunk_id] for h in first[:m] if h.chunk_id in stored]
        return search(store, embedder, query, moved_query(vector, found, weight), k, *args, **kw)

    bench_retrieval.search_default = feedback_search


def main(argv: list[str] | None = None) -> int:
    ours, rest = split_at_dashes(argv)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("m", type=int, help="how many first results move the query")
    p.add_argument("weight", type=float)
    args = p.parse_args(ours)
    patch(args.m, args.weight)
    import bench_retrieval

    return bench_retrieval.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
