"""The twelfth retrieval round's lever: each chunk's vector mixed with its context's vectors.

A chunk is embedded alone (its contextual header aside), so a passage whose
meaning lies partly in the text around it (a novel's dialogue, a table row
under its statement, the second half of an argument) is found only by its own
words. This lever adds the context at no embedding cost: every stored vector
becomes ``normalise(v + weight * c)``, where ``c`` is the mean vector of the
chunk's context among the document's *regular* chunks (the query side and
full-text search unchanged):

- ``section``: the regular chunks of the chunk's section (same section path);
- ``neighbours``: the regular chunks just before and just after the chunk's
  span in its section (for a fine chunk, the regular chunks that overlap it
  count too).

The store's ``add`` is patched in this process only, then the retrieval
benchmark runs with the arguments that follow ``--``:

    python benchmarks/context_vector_lever.py section 0.3 -- --only "=sectionrag default" --modes default

Measured and not kept (docs/search.md, twelfth round).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lever import split_at_dashes


def context_vectors(chunks: Sequence[Any], vectors: np.ndarray, how: str, weight: float) -> np.ndarray:
    """Return ``vectors`` with each row mixed with its context's mean vector and normalised again."""
    regular: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(list)
    for i, c in enumerate(chunks):
        if not c.fine:
            regular[(c.doc_id, tuple(c.section_path))].append(i)
    for members in regular.values():
        members.sort(key=lambda i: chunks[i].start)
    out = np.array(vectors, dtype=np.float32, copy=True)
    for i, c in enumerate(chunks):
        members = regular.get((c.doc_id, tuple(c.section_path)), [])
        context = [j for j in members if j != i] if how == "section" else neighbours(chunks, members, i)
        if not context:
            continue
        mixed = vectors[i] + weight * np.mean(vectors[context], axis=0)
        norm = float(np.linalg.norm(mixed))
        if norm > 0:
            out[i] = mixed / norm
    return out


def neighbours(chunks: Sequence[Any], members: list[int], i: int) -> list[int]:
    """The regular chunks of ``members`` just before and after chunk ``i`` (and any that overlap it)."""
    c = chunks[i]
    before = [j for j in members if chunks[j].end <= c.start]
    after = [j for j in members if chunks[j].start >= c.end]
    inside = [j for j in members if j != i and chunks[j].start < c.end and c.start < chunks[j].end]
    return ([before[-1]] if before else []) + inside + ([after[0]] if after else [])


def patch(how: str, weight: float) -> None:
    """Make every ``LanceDBStore.add`` in this process store the mixed vectors."""
    from sectionrag.stores import LanceDBStore

    original = LanceDBStore.add

    def add(self: Any, chunks: Sequence[Any], vectors: Any, **kw: Any) -> None:
        original(self, chunks, context_vectors(chunks, np.asarray(vectors), how, weight), **kw)

    LanceDBStore.add = add  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    ours, rest = split_at_dashes(argv)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("how", choices=("section", "neighbours"))
    p.add_argument("weight", type=float)
    args = p.parse_args(ours)
    patch(args.how, args.weight)
    import bench_retrieval

    return bench_retrieval.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
