"""Levers on the default search, measured on the default's own collection (eighth round).

The retrieval set (``benchmarks/retrieval_set``) is chunked as
``Pipeline.default(embedder="minilm")`` chunks it (regular and fine ``section``
chunks), embedded with ``minilm`` (vectors cached as in ``bench_retrieval.py``)
and stored in one LanceDB collection. Three kinds of rows, recall@5 / span IoU
(%) on both halves and per kind of text on the development half:

- **the ceiling**: the default search's overlap-free results at depth 5, 10,
  20 and 50: the share of references any re-ranking of the first stage could
  reach;
- **re-ranking the default's top 50** (overlap-free): maximal marginal
  relevance over the chunks' vectors (``mmr``), a penalty per better result of
  the same section, document or within 1,500 characters (diversity), and the
  same as a bonus (clustering);
- **fusion**: the store's hybrid search with other candidate pools, weights
  and fusions, overlaps dropped as ``Pipeline.search`` drops them;
- **routing** (fourteenth round): the same search scoped to the documents
  that hold the query's references (``where={"source": [...]}``), an upper
  bound on what any choice of documents before the search could add.

    python benchmarks/default_search_levers.py
    python benchmarks/default_search_levers.py --only ceiling,fusion
    python benchmarks/default_search_levers.py --only routing
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_retrieval as br

K = 5
POOL = 50
KINDS = ("abstracts", "book", "encyclopedia", "finance", "manual", "transcript")
Select = Callable[[list[Any]], list[Any]]


Scores = dict[tuple[str, str], list[float]]


def scored(items: Sequence[Any], results: Sequence[list[Any]], k: int = K) -> Scores:
    """(split, kind or "all") -> [mean recall@k, mean span IoU %]."""
    from sectionrag.eval.retrieval import Retrieved, score_query
    from sectionrag.eval.spans import chroma_scores

    acc: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for item, hits in zip(items, results, strict=True):
        got = [Retrieved.from_result(h) for h in hits[:k]]
        recall = score_query(item.query.references, got, k).recall
        iou = chroma_scores(item.query.references, got)[2]
        for key in ((item.split, "all"), (item.split, item.corpus)):
            acc[key].append((recall, iou))
    return {
        key: [float(np.mean([r for r, _ in v])), 100 * float(np.mean([i for _, i in v]))]
        for key, v in acc.items()
    }


def row(label: str, s: Scores) -> str:
    def cell(key: tuple[str, str]) -> str:
        return "{:.3f} / {:.2f}".format(*s[key]) if key in s else "-"

    kinds = " | ".join(cell(("dev", kind)) for kind in KINDS)
    return f"| {label} | {cell(('dev', 'all'))} | {cell(('test', 'all'))} | {kinds} |"


def _norm(pool: list[Any]) -> np.ndarray:
    s = np.array([h.score for h in pool], dtype=float)
    lo, hi = float(s.min()), float(s.max())
    return (s - lo) / (hi - lo) if hi > lo else np.ones_like(s)


def greedy(value: Callable[[list[Any], np.ndarray, int, list[int]], float]) -> Select:
    """Pick K results one by one, each time the candidate of the highest ``value``."""

    def select(pool: list[Any]) -> list[Any]:
        if not pool:
            return []
        s = _norm(pool)
        chosen: list[int] = []
        left = list(range(len(pool)))
        while left and len(chosen) < K:
            best = max(left, key=lambda i: value(pool, s, i, chosen))
            chosen.append(best)
            left.remove(best)
        return [pool[i] for i in chosen]

    return select


def mmr(lam: float, vectors: dict[str, np.ndarray]) -> Select:
    def value(pool: list[Any], s: np.ndarray, i: int, chosen: list[int]) -> float:
        v = vectors[pool[i].chunk_id]
        sim = max((float(v @ vectors[pool[j].chunk_id]) for j in chosen), default=0.0)
        return lam * float(s[i]) - (1 - lam) * sim

    return greedy(value)


def per_neighbour(delta: float, same: Callable[[Any, Any], bool]) -> Select:
    """Each better chosen result that is ``same`` as the candidate changes its score by ``-delta``."""

    def value(pool: list[Any], s: np.ndarray, i: int, chosen: list[int]) -> float:
        return float(s[i]) - delta * sum(1 for j in chosen if same(pool[i], pool[j]))

    return greedy(value)


def same_section(a: Any, b: Any) -> bool:
    return bool(a.doc_id == b.doc_id and a.section_path == b.section_path)


def same_document(a: Any, b: Any) -> bool:
    return bool(a.doc_id == b.doc_id)


def nearby(a: Any, b: Any, gap: int = 1500) -> bool:
    return bool(a.doc_id == b.doc_id and b.start - gap < a.end and a.start < b.end + gap)


def main(argv: list[str] | None = None) -> int:
    import sectionrag.stores.lancedb as lance_store
    from sectionrag.pipeline import OVERLAP_FETCH, without_overlaps
    from sectionrag.stores import LanceDBStore

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--only", default="ceiling,rerank,fusion,routing", help="row groups: ceiling, rerank, fusion, routing"
    )
    groups = set(p.parse_args(argv).only.split(","))
    docs, items = br.load_set()
    env = br.make_env()
    cfg = next(c for c in br.configs() if c.label == "sectionrag default")
    chunks = [c for d in docs.values() for c in cfg.make(d, env)]
    vectors = env.cache.embed([c.embed_text for c in chunks])
    qvecs = env.cache.embed([it.query.query for it in items], query=True)
    store = LanceDBStore(Path(tempfile.mkdtemp()), collection="default")
    store.ensure_collection(env.embedder.name, env.embedder.dimension)
    store.add(chunks, vectors)
    unit = {c.id: v / (np.linalg.norm(v) or 1.0) for c, v in zip(chunks, vectors, strict=True)}

    def search(
        pool: int = 50,
        k: int = K * OVERLAP_FETCH,
        keep: int = K,
        scope: Callable[[Any], dict[str, Any]] | None = None,
        **options: Any,
    ) -> list[list[Any]]:
        lance_store.HYBRID_CANDIDATES = pool  # the store's candidate pool per side
        out = []
        for it, qv in zip(items, qvecs, strict=True):
            where = {"where": scope(it)} if scope else {}
            hits = store.search(
                query_vector=qv, query_text=it.query.query, k=k, mode="hybrid", **where, **options
            )
            out.append(without_overlaps(hits, keep))
        lance_store.HYBRID_CANDIDATES = 50
        return out

    kinds = " | ".join(f"dev {k}" for k in KINDS)
    print(f"| lever | dev | test | {kinds} |")
    print("|---|" + "---:|" * (2 + len(KINDS)))
    default = search()
    print(row("the default search", scored(items, default)), flush=True)
    pools = search(k=POOL, keep=POOL)
    if "ceiling" in groups:
        for depth in (10, 20, 50):
            print(row(f"ceiling: overlap-free top {depth}", scored(items, pools, depth)), flush=True)
    if "rerank" in groups:
        selects: list[tuple[str, Select]] = [
            *[(f"MMR, lambda {lam}", mmr(lam, unit)) for lam in (0.9, 0.8, 0.7)],
            *[(f"same section -{d}", per_neighbour(d, same_section)) for d in (0.05, 0.1, 0.2)],
            *[(f"same document -{d}", per_neighbour(d, same_document)) for d in (0.1, 0.2)],
            *[(f"within 1,500 characters -{d}", per_neighbour(d, nearby)) for d in (0.1, 0.2)],
            *[(f"same section +{d}", per_neighbour(-d, same_section)) for d in (0.05, 0.1)],
            *[(f"within 1,500 characters +{d}", per_neighbour(-d, nearby)) for d in (0.05, 0.1)],
        ]
        for label, select in selects:
            print(row(label, scored(items, [select(pool) for pool in pools])), flush=True)
    if "fusion" in groups:
        variants: list[tuple[str, dict[str, Any]]] = [
            ("candidates 30 a side", {"pool": 30}),
            ("candidates 100 a side", {"pool": 100}),
            ("weights (1, 1.3)", {"weights": (1.0, 1.3)}),
            ("weights (1.3, 1)", {"weights": (1.3, 1.0)}),
            ("zscore fusion", {"fusion": "zscore"}),
            ("reciprocal rank fusion", {"fusion": "rrf"}),
        ]
        for label, options in variants:
            print(row(label, scored(items, search(**options))), flush=True)
    if "routing" in groups:

        def referenced(item: Any) -> dict[str, Any]:
            return {"source": sorted({ref.source for ref in item.query.references})}

        routed = scored(items, search(scope=referenced))
        print(row("routing: the referenced documents only (upper bound)", routed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
