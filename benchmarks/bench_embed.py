"""Embedding backends side by side: throughput, query latency and retrieval quality, in one run.

For each backend of the ``minilm`` preset (``torch``, ``onnx``, ``onnx-int8``,
``openvino`` by default) a fresh process

1. loads the embedder (exports were made beforehand, timed apart: "first
   load", which is the export when the cache had none);
2. embeds the same chunks (default 2,000: real text from the evaluation
   documents and three Austen novels, split by ``recursive`` at 256 MiniLM
   tokens) with ``embed_documents`` in groups of 512, as ingestion does:
   chunks/s;
3. embeds every query of the evaluation set one at a time with
   ``embed_query``: p50 / p95 latency;
4. (first round only) indexes the set's documents with the default ``section``
   chunker into LanceDB and scores vector search: recall@5 and MRR@5.

Processes run in the order ABCD, then DCBA, ... (``--repeat``), so a change
in the load of a shared machine hits every backend alike; the table shows
each backend's fastest round and the ratio to torch's.

The evaluation set is a ``queries.jsonl`` (``--queries``, default
``benchmarks/eval_data/queries.jsonl``) whose references are spans, or
evidence quotes resolved by ``sectionrag.eval.quotes`` when that module is
there; its documents are the ``.md``/``.txt`` files of ``--docs`` (default:
the ``docs`` folder beside the queries file, else that folder itself).

    python benchmarks/bench_embed.py
    python benchmarks/bench_embed.py --backends torch,openvino --repeat 1 --chunks 500
    python benchmarks/bench_embed.py --queries path/to/retrieval_set/queries.jsonl --split test --no-speed
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUERIES = ROOT / "benchmarks" / "eval_data" / "queries.jsonl"
TEXT_SOURCES = [ROOT / "benchmarks" / "eval_data", ROOT / "tests" / "data" / "austen"]
BACKENDS = ("torch", "onnx", "onnx-int8", "openvino")
GROUP = 512  # texts per embed_documents call, as ingestion flushes
K = 5


# -- data ---------------------------------------------------------------------------------------


def chunk_texts(n: int) -> list[str]:
    """The first ``n`` chunks (256 MiniLM tokens at most) of the text sources, files in name order."""
    import sectionrag
    from sectionrag.embedders import get_embedder

    tokenizer = get_embedder("minilm", backend="torch")  # counts tokens only: no weights loaded
    chunker = sectionrag.chunker("recursive", size=256, tokenizer=tokenizer)
    files = sorted(p for folder in TEXT_SOURCES for p in folder.glob("*") if p.suffix in (".md", ".txt"))
    out: list[str] = []
    while len(out) < n:
        for path in files:
            out.extend(c.text for c in chunker.chunk(sectionrag.parse(path)))
            if len(out) >= n:
                break
    return out[:n]


def docs_folder(queries: Path, docs: Path | None) -> Path:
    if docs is not None:
        return docs
    beside = queries.parent / "docs"
    return beside if beside.is_dir() else queries.parent


def load_set(queries: Path, docs: Path, split: str | None) -> tuple[list[Any], list[Any]]:
    """Parse the set's documents (named by their path under ``docs``) and load its queries."""
    import sectionrag
    from sectionrag.eval.retrieval import parse_query

    documents = [
        sectionrag.parse(p, name=p.relative_to(docs).as_posix())
        for p in sorted(docs.rglob("*"))
        if p.suffix in (".md", ".txt") and p.name.lower() != "readme.md"
    ]
    rows = [json.loads(line) for line in queries.read_text(encoding="utf-8").splitlines() if line.strip()]
    if split:
        rows = [r for r in rows if r.get("split") == split]
    if any("quote" in ref for r in rows for ref in r.get("references") or []):
        try:
            from sectionrag.eval.quotes import resolve_references  # type: ignore[import-not-found]
        except ImportError as e:
            raise SystemExit(f"{queries} stores evidence quotes: needs sectionrag.eval.quotes ({e})") from e
        rows = resolve_references(rows, {d.source: d.text for d in documents})
    return documents, [parse_query(r) for r in rows]


# -- one backend (worker process) ----------------------------------------------------------------


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def prepare(backend: str, cache: Path) -> dict[str, Any]:
    """Load the backend once (making its export if there is none): export and load seconds."""
    from sectionrag.embedders import get_embedder

    t = time.perf_counter()
    emb = get_embedder("minilm", backend=backend, cache_dir=cache)
    emb.embed_query("warm up")
    return {"export_s": time.perf_counter() - t}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from sectionrag.embedders import get_embedder

    out: dict[str, Any] = {"backend": args.worker}
    texts = json.loads(Path(args.texts).read_text(encoding="utf-8"))
    t = time.perf_counter()
    emb = get_embedder("minilm", backend=args.worker, cache_dir=args.cache, threads=args.threads)
    emb.embed_documents(texts[:32])  # load and warm up
    out["load_s"] = time.perf_counter() - t
    out["threads"] = emb.threads
    out["precision"] = str(getattr(emb._model(), "precision", "f32"))  # type: ignore[attr-defined]
    if args.speed:
        t = time.perf_counter()
        vectors = [emb.embed_documents(texts[i : i + GROUP]) for i in range(0, len(texts), GROUP)]
        seconds = time.perf_counter() - t
        out["chunks"] = sum(len(v) for v in vectors)
        out["chunks_per_s"] = out["chunks"] / seconds
        np.save(Path(args.work) / f"{args.worker}.npy", np.concatenate(vectors))
        queries = json.loads(Path(args.query_texts).read_text(encoding="utf-8"))
        for q in queries[:5]:
            emb.embed_query(q)
        times = []
        for q in queries:
            t = time.perf_counter()
            emb.embed_query(q)
            times.append((time.perf_counter() - t) * 1000)
        out["query_p50_ms"] = statistics.median(times)
        out["query_p95_ms"] = float(np.percentile(times, 95))
    if args.quality:
        out.update(quality(emb, Path(args.queries), Path(args.docs), args.split, Path(args.work)))
    out["peak_rss_mib"] = rss_mib()
    return out


def quality(emb: Any, queries: Path, docs: Path, split: str | None, work: Path) -> dict[str, Any]:
    import sectionrag
    from sectionrag.eval.retrieval import evaluate
    from sectionrag.pipeline import Pipeline
    from sectionrag.stores import LanceDBStore

    documents, items = load_set(queries, docs, split)
    pipe = Pipeline(
        chunker=sectionrag.chunker("section", tokenizer=emb),
        embedder=emb,
        store=LanceDBStore(work / f"db-{emb.backend}", collection="eval"),
    )
    t = time.perf_counter()
    report = pipe.ingest(documents)
    index_s = time.perf_counter() - t
    ev = evaluate(pipe, items, k=K, mode="vector")
    hits = {r.query.id: [r.metrics.recall, r.metrics.mrr] for r in ev.results}  # per query, for splits
    return {
        "queries": len(items),
        "index_chunks": report.chunks,
        "index_s": index_s,
        "recall": ev.metrics["recall"],
        "mrr": ev.metrics["mrr"],
        "hits": hits,
    }


# -- orchestration -------------------------------------------------------------------------------


def run_worker(argv: list[str]) -> dict[str, Any] | None:
    proc = subprocess.run([sys.executable, __file__, *argv], capture_output=True, text=True, check=False)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if proc.returncode != 0 or line is None:
        print(f"worker {argv[:2]} failed (exit {proc.returncode})\n{proc.stderr[-3000:]}", file=sys.stderr)
        return None
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    return result


def table(rows: dict[str, list[dict[str, Any]]], exports: dict[str, float], work: Path) -> str:
    import numpy as np

    best = {b: max(rs, key=lambda r: r.get("chunks_per_s", 0.0)) for b, rs in rows.items() if rs}
    base = best.get("torch", {}).get("chunks_per_s")
    ref = work / "torch.npy"
    ref_vectors = np.load(ref) if ref.exists() else None
    recall_ref = next((r["recall"] for r in rows.get("torch", []) if "recall" in r), None)
    out = [
        f"| backend | precision | threads | chunks/s | vs torch | all rounds (chunks/s) | query p50 ms "
        f"| query p95 ms | min cosine vs torch | recall@{K} | MRR@{K} | recall@{K} vs torch "
        "| load s | first load s (export if none) | peak RSS MiB |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for backend, r in best.items():
        q = next((x for x in rows[backend] if "recall" in x), {})
        cos = ""
        vec = work / f"{backend}.npy"
        if ref_vectors is not None and vec.exists():
            cos = f"{float(np.min(np.sum(np.load(vec) * ref_vectors, axis=1))):.4f}"
        speed = r.get("chunks_per_s", 0.0)
        every = ", ".join(f"{x['chunks_per_s']:.1f}" for x in rows[backend] if "chunks_per_s" in x)
        delta = ""
        if q and recall_ref is not None:
            delta = f"{(q['recall'] - recall_ref) * 100:+.1f} pt"
        fast = (f"{speed:.1f} | " + (f"{speed / base:.2f}x" if base else "")) if speed else " | "
        p50 = f"{r['query_p50_ms']:.1f} | {r['query_p95_ms']:.1f}" if "query_p50_ms" in r else " | "
        out.append(
            f"| {backend} | {r['precision']} | {r['threads']} | {fast} | {every} | {p50} "
            f"| {cos} | {q.get('recall', float('nan')):.3f} "
            f"| {q.get('mrr', float('nan')):.3f} | {delta} | {r['load_s']:.1f} "
            f"| {exports.get(backend, 0):.0f} | {max(x['peak_rss_mib'] for x in rows[backend]):.0f} |"
        )
    return "\n".join(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backends", default=",".join(BACKENDS))
    p.add_argument("--chunks", type=int, default=2000)
    p.add_argument(
        "--queries", type=Path, default=DEFAULT_QUERIES, help="queries.jsonl of the evaluation set"
    )
    p.add_argument("--docs", type=Path, default=None, help="its documents (default: beside the queries)")
    p.add_argument("--split", default=None, help="only queries whose 'split' is this (e.g. test)")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--threads", type=int, default=None, help="threads per backend (default: the free CPUs)")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sectionrag-bench-embed")
    p.add_argument("--no-speed", dest="speed", action="store_false", help="retrieval quality only")
    p.add_argument("--no-quality", dest="quality", action="store_false", help="speed only")
    p.add_argument("--json", type=Path, default=None, help="also write every result here")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    for hidden in ("--texts", "--query-texts", "--work"):
        p.add_argument(hidden, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        result = prepare(args.worker, args.cache) if args.prepare else measure(args)
        print("RESULT " + json.dumps(result), flush=True)
        return

    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    docs = docs_folder(args.queries, args.docs)
    args.cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=args.cache))
    texts_file, query_file = work / "texts.json", work / "queries.json"
    t = time.perf_counter()
    texts = chunk_texts(args.chunks) if args.speed else []
    texts_file.write_text(json.dumps(texts), encoding="utf-8")
    _, items = load_set(args.queries, docs, args.split)
    query_file.write_text(json.dumps([q.query for q in items]), encoding="utf-8")
    print(f"{len(texts)} chunks, {len(items)} queries ({time.perf_counter() - t:.0f} s)", file=sys.stderr)

    exports: dict[str, float] = {}
    for backend in backends:  # exports (or a first load), timed apart
        r = run_worker(["--worker", backend, "--prepare", "--cache", str(args.cache)])
        if r is not None:
            exports[backend] = r["export_s"]
            print(f"{backend}: ready in {r['export_s']:.0f} s", file=sys.stderr)
    rows: dict[str, list[dict[str, Any]]] = {b: [] for b in backends if b in exports}
    common = ["--cache", str(args.cache), "--texts", str(texts_file), "--query-texts", str(query_file)]
    common += ["--work", str(work), "--queries", str(args.queries), "--docs", str(docs)]
    common += ["--split", args.split] if args.split else []
    common += ["--threads", str(args.threads)] if args.threads else []
    common += [] if args.speed else ["--no-speed"]
    load = [os.getloadavg()[0]]
    for round_ in range(args.repeat if args.speed else 1):
        for backend in list(rows) if round_ % 2 == 0 else list(rows)[::-1]:
            quality_flag = [] if (args.quality and round_ == 0) else ["--no-quality"]
            r = run_worker(["--worker", backend, *common, *quality_flag])
            load.append(os.getloadavg()[0])
            if r is None:
                continue
            rows[backend].append(r)
            speed = f"{r.get('chunks_per_s', 0):.1f} chunks/s, query p50 {r.get('query_p50_ms', 0):.1f} ms"
            extra = f", recall@{K} {r['recall']:.3f}" if "recall" in r else ""
            print(f"{backend}: {speed}{extra}", file=sys.stderr)
    print(table(rows, exports, work))
    shown = args.queries.relative_to(ROOT) if args.queries.is_relative_to(ROOT) else args.queries
    split = f", split {args.split}" if args.split else ""
    print(
        f"\n{len(texts)} chunks, {len(items)} queries ({shown}{split}); Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {min(load):.1f}-{max(load):.1f} while measured; "
        f"{time.strftime('%Y-%m-%d')}"
    )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "exports": exports}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
