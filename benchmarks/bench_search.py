"""Search latency and ANN recall of LanceDBStore, beside a numpy brute-force reference.

A synthetic collection (deterministic text and 384-dim vectors with topic
structure, like sentence embeddings) is built at each size; then, per mode,
queries are timed through ``LanceDBStore.search`` (query embedding excluded:
vectors are given) and the p50/p95 latency is reported, first with exact
vector search, then after ``optimize(ann=True)`` built the ANN index. Recall@10
of each vector search is measured against numpy's exact top 10 over the same
vectors. The latency of embedding one query with the ``minilm`` preset is
reported on its own line.

    python benchmarks/bench_search.py                       # 10k and 100k; updates docs/benchmarks.md
    python benchmarks/bench_search.py --sizes 10000 --no-write
    python benchmarks/bench_search.py --sweep               # also try other nprobes/refine settings

The table goes between ``<!-- search:start -->`` and ``<!-- search:end -->``
in the "Search" section of docs/benchmarks.md; nothing else there is touched.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- search:start -->", "<!-- search:end -->"
DIM = 384
K = 10
CHUNKS_PER_DOC = 50
#: weight of a chunk's own topic mix and of its noise, beside its document's subject (weight 1)
OWN, NOISE = 0.8, 0.8

_SYLLABLES = [a + b for a in "bdfgklmnprstvz" for b in ("a", "e", "i", "o", "u", "ar", "en", "is", "on")]


def _word(i: int) -> str:
    """A pronounceable pseudo-word, distinct for each ``i`` (no stop words, no stemming collisions)."""
    n = len(_SYLLABLES)
    parts = [_SYLLABLES[i % n], _SYLLABLES[(i // n) % n], _SYLLABLES[(i // (n * n)) % n]]
    return "".join(parts) + "x"


def synthetic(n: int, m: int, seed: int = 0) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """Return ``n`` chunk texts with their unit vectors (n, 384), and ``m`` query texts with vectors.

    256 random topic directions; each document has a "subject" mixing 3 of
    them with random weights, and each chunk is ``subject + 0.8 * its own mix
    of 3 topics + 0.8 * noise``, normalised, so documents overlap and the
    vectors fill a continuous space rather than neat clusters. A query is a
    fresh draw from a random chunk's subject: its nearest chunks have cosine
    about 0.61 (1st), 0.55 (10th) and 0.44 (100th), against about 0 for
    unrelated ones, much as with sentence embeddings, so the exact top 10 are
    close calls. A chunk's text has 12 words from its subject's topics and 28
    common words; a query's text has 4 subject words.
    """
    rng = np.random.default_rng(seed)
    n_topics, common, per_topic = 256, 4000, 24
    topics = rng.standard_normal((n_topics, DIM)).astype(np.float32)
    topics /= np.linalg.norm(topics, axis=1, keepdims=True)
    n_subjects = max(n // CHUNKS_PER_DOC, 8)
    mix = rng.integers(0, n_topics, (n_subjects, 3))
    weights = rng.dirichlet(np.ones(3), n_subjects).astype(np.float32)
    centers = np.einsum("sk,skd->sd", weights, topics[mix])
    centers /= np.linalg.norm(centers, axis=1, keepdims=True)

    def draw(subject: np.ndarray) -> np.ndarray:
        own = np.einsum(
            "sk,skd->sd",
            rng.dirichlet(np.ones(3), len(subject)).astype(np.float32),
            topics[rng.integers(0, n_topics, (len(subject), 3))],
        )
        noise = rng.standard_normal((len(subject), DIM), dtype=np.float32) / np.float32(np.sqrt(DIM))
        v = centers[subject] + OWN * own + NOISE * noise
        return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)

    def subject_words(subject: np.ndarray, count: int) -> np.ndarray:
        cut = np.cumsum(weights[subject], axis=1)[:, None, :2]  # pick a topic by its weight
        which = (rng.random((len(subject), count))[:, :, None] > cut).sum(axis=2)
        topic = mix[subject[:, None], which]
        return common + topic * per_topic + rng.integers(0, per_topic, (len(subject), count))

    vocab = np.array([_word(i) for i in range(common + n_topics * per_topic)])
    subject = rng.integers(0, n_subjects, n)
    vecs = draw(subject)
    ids = np.concatenate([subject_words(subject, 12), rng.integers(0, common, (n, 28))], axis=1)
    ids = rng.permuted(ids, axis=1)
    texts = [" ".join(row) + "." for row in vocab[ids].tolist()]
    qsubject = subject[rng.integers(0, n, m)]
    qvecs = draw(qsubject)
    qtexts = [" ".join(row) for row in vocab[subject_words(qsubject, 4)].tolist()]
    return texts, vecs, qtexts, qvecs


def build(db: Path, texts: list[str], vecs: np.ndarray) -> Any:
    from sectionrag.stores import AnnConfig, LanceDBStore
    from sectionrag.types import Document

    store = LanceDBStore(db, collection=f"bench{len(texts)}", ann=AnnConfig(threshold=None))
    store.ensure_collection("synthetic-384", DIM)
    batch = 20_000
    for lo in range(0, len(texts), batch):
        chunks = []
        for i in range(lo, min(lo + batch, len(texts))):
            doc = Document(
                id=f"doc{i // CHUNKS_PER_DOC:06d}",
                source=f"docs/doc{i // CHUNKS_PER_DOC:06d}.md",
                text=texts[i],
            )
            chunks.append(doc.make_chunk(i % CHUNKS_PER_DOC, 0, len(texts[i]), token_count=41))
        store.add(chunks, vecs[lo : lo + len(chunks)])
    store.optimize(ann=False)  # fold every row into the full-text index; no ANN yet
    return store


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def timed(fn: Any, args: list[Any], warmup: int = 3) -> tuple[list[float], list[Any]]:
    for a in args[:warmup]:
        fn(a)
    times, outs = [], []
    for a in args:
        t0 = time.perf_counter()
        outs.append(fn(a))
        times.append((time.perf_counter() - t0) * 1000)
    return times, outs


def recall(found: list[list[int]], truth: np.ndarray) -> float:
    return float(np.mean([len(set(f) & set(t.tolist())) / K for f, t in zip(found, truth, strict=True)]))


def row_ids(hits: list[Any]) -> list[int]:
    return [int(h.doc_id[3:]) * CHUNKS_PER_DOC + h.chunk_index for h in hits]


def bench_size(n: int, m: int, tmp: Path, sweep: bool) -> list[dict[str, Any]]:
    t0 = time.perf_counter()
    texts, vecs, qtexts, qv = synthetic(n, m)
    gen_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    store = build(tmp / f"db{n}", texts, vecs)
    build_s = time.perf_counter() - t0
    print(
        f"{n:,} chunks: generated in {gen_s:.1f} s, stored and text-indexed in {build_s:.1f} s",
        file=sys.stderr,
    )
    rows: list[dict[str, Any]] = []

    def add(search: str, index: str, times: list[float], rec: float | None = None) -> None:
        rows.append(
            {
                "chunks": n,
                "search": search,
                "index": index,
                "p50": statistics.median(times),
                "p95": pct(times, 95),
                "recall": rec,
            }
        )
        r = "" if rec is None else f"  recall@{K} {rec:.3f}"
        print(
            f"  {search:<24} {index:<16} p50 {rows[-1]['p50']:7.2f} ms  p95 {rows[-1]['p95']:7.2f} ms{r}",
            file=sys.stderr,
        )

    # numpy brute force: the reference top 10
    def brute(q: np.ndarray) -> np.ndarray:
        s = vecs @ q
        top = np.argpartition(-s, K)[:K]
        return top[np.argsort(-s[top])]

    times, outs = timed(brute, list(qv))
    truth = np.stack(outs)
    add("vector", "numpy brute force", times, 1.0)

    idx = list(range(m))
    scope = [{"doc_id": f"doc{(i * 7919) % (n // CHUNKS_PER_DOC):06d}"} for i in idx]

    def run_all(label: str, exact: bool) -> None:
        times, outs = timed(lambda i: store.search(qv[i], k=K, exact=exact), idx)
        add("vector", label, times, recall([row_ids(h) for h in outs], truth))
        times, _ = timed(lambda i: store.search(qv[i], k=K, where=scope[i], exact=exact), idx)
        add("vector, one document", label, times)
        times, _ = timed(lambda i: store.search(qv[i], qtexts[i], k=K, mode="hybrid", exact=exact), idx)
        add("hybrid (linear 1:0.5)", label, times)

    times, _ = timed(lambda i: store.search(query_text=qtexts[i], k=K, mode="text"), idx)
    add("text (BM25)", "FTS", times)
    run_all("exact", True)
    t0 = time.perf_counter()
    state = store.optimize(ann=True)
    ann_s = time.perf_counter() - t0
    cfg = store.ann
    label = f"{state.vector_index}"
    print(f"  ANN index {label} built in {ann_s:.1f} s", file=sys.stderr)
    run_all(label, False)
    settings = (
        f"{cfg.partitions_for(n)} partitions; searched with nprobes={cfg.nprobes}, "
        f"refine_factor={cfg.refine_factor} (the AnnConfig defaults)"
    )
    rows.append({"chunks": n, "ann_build_s": ann_s, "index": label, "config": settings})
    if sweep:
        import dataclasses

        for nprobes, refine in ((4, None), (8, None), (8, 5), (12, 5), (20, None), (20, 10), (40, 5)):
            store.ann = dataclasses.replace(cfg, nprobes=nprobes, refine_factor=refine)
            times, outs = timed(lambda i: store.search(qv[i], k=K), idx)
            add(
                f"vector nprobes={nprobes} refine={refine}",
                label,
                times,
                recall([row_ids(h) for h in outs], truth),
            )
        store.ann = cfg
    return rows


def embed_latency(m: int) -> dict[str, tuple[float, float]] | None:
    """Time ``embed_query`` with ``minilm``: with torch's default threads, then with one thread."""
    try:
        import torch

        from sectionrag.embedders import get_embedder

        emb = get_embedder("minilm")
        emb.embed_query("warm up the model")
    except Exception as e:  # the benchmark still runs without the model
        print(f"query embedding not measured: {e}", file=sys.stderr)
        return None
    texts = [f"what does section {i} say about refunds and shipping times?" for i in range(m)]
    out = {}
    threads = torch.get_num_threads()
    for n_threads in sorted({threads, 1}, reverse=True):
        torch.set_num_threads(n_threads)
        times, _ = timed(emb.embed_query, texts)
        out[f"{n_threads} torch thread{'s' if n_threads > 1 else ''}"] = (
            statistics.median(times),
            pct(times, 95),
        )
    torch.set_num_threads(threads)
    return out


def table(rows: list[dict[str, Any]], embed: dict[str, tuple[float, float]] | None, m: int) -> str:
    lines = [
        f"| chunks | search | index | p50 ms | p95 ms | recall@{K} vs exact |",
        "|---:|---|---|---:|---:|---:|",
    ]
    builds = []
    for r in rows:
        if "ann_build_s" in r:
            builds.append(
                f"- {r['chunks']:,} chunks: {r['index']} built in {r['ann_build_s']:.0f} s with {r['config']}"
            )
            continue
        rec = "" if r["recall"] is None else f"{r['recall']:.3f}"
        lines.append(
            f"| {r['chunks']:,} | {r['search']} | {r['index']} | {r['p50']:.2f} | {r['p95']:.2f} | {rec} |"
        )
    lines += ["", "ANN index builds:", "", *builds, ""]
    if embed is not None:
        measured = "; ".join(
            f"{label}: p50 {p50:.1f} ms, p95 {p95:.1f} ms" for label, (p50, p95) in embed.items()
        )
        lines.append(f"Query embedding (`minilm`, one query; not included above): {measured}.")
        lines.append("")
    lines.append(
        f"{m} queries per row, k={K}; synthetic {DIM}-dim vectors with topic structure and pseudo-word text "
        f"({CHUNKS_PER_DOC} chunks per document); {os.cpu_count()} CPU cores, "
        f"Python {platform.python_version()}; "
        f"`python benchmarks/bench_search.py` on {time.strftime('%Y-%m-%d')}."
    )
    return "\n".join(lines)


def write_doc(text: str) -> None:
    block = f"{START}\n{text}\n{END}"
    current = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    if START in current and END in current:
        head, rest = current.split(START, 1)
        _, tail = rest.split(END, 1)
        DOC.write_text(head + block + tail, encoding="utf-8")
        return
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(current.rstrip() + "\n\n## Search\n\n" + block + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--sizes", default="10000,100000", help="comma-separated chunk counts (default: %(default)s)"
    )
    p.add_argument("--queries", type=int, default=100, help="queries per row (default: %(default)s)")
    p.add_argument("--sweep", action="store_true", help="also measure other nprobes/refine_factor settings")
    p.add_argument("--no-embed", action="store_true", help="skip the query-embedding measurement")
    p.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = p.parse_args(argv)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sectionrag-bench-") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            rows += bench_size(n, args.queries, Path(tmp), args.sweep)
    embed = None if args.no_embed else embed_latency(args.queries)
    text = table(rows, embed, args.queries)
    print(text)
    print(f"total {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if not args.no_write:
        write_doc(text)
        print(f"updated {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
