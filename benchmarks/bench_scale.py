"""Ingest throughput on one machine: local ingest against Ray ingest with 1 and 2 embedding actors.

In one run, on one folder of generated documents (the corpus of
``bench_ingest.py``: Markdown and PDF, built deterministically into a cache
directory, never into git), this script measures:

* ``local``: ``Pipeline.ingest`` in this process (the default executor);
* ``ray-1`` and ``ray-2``: ``Pipeline.ingest(executor=RayExecutor(...))`` on a
  local Ray started by this script with ``--cpus`` CPUs (default 2), parsing
  and chunking as Ray tasks, embedding in 1 or 2 actors (each loads its own
  copy of the model; that load is part of the run, as on a cluster);
* the **overhead of Ray** on a small folder (``--small`` documents): the same
  ingest locally and on the already started Ray, and the start of Ray itself.

Every run writes a fresh LanceDB collection with the same chunker
(``section`` over ``recursive``, 256 MiniLM tokens) and the packaged
``minilm`` model with its default backend. The table gives pages/s and
chunks/s per configuration, and the per-page and per-chunk costs that
docs/scaling.md turns into an estimate for a large archive (CPU seconds a
page for reading, parsing and chunking; seconds a chunk for embedding; both
from the local run, where each stage is timed apart).

Usage: python benchmarks/bench_scale.py [--docs N] [--small N] [--cpus N] [--cache DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ingest import CHUNK_TOKENS, MD_PAGE_CHARS, build_corpus


def _pipe(emb: Any, db: Path) -> Any:
    import sectionrag
    from sectionrag import Pipeline
    from sectionrag.stores import LanceDBStore

    chunker = sectionrag.chunker("section", inner="recursive", size=CHUNK_TOKENS, tokenizer=emb)
    return Pipeline(chunker=chunker, embedder=emb, store=LanceDBStore(db))


def _ingest(emb: Any, corpus: Path, work: Path, name: str, executor: Any = None) -> dict[str, Any]:
    db = work / name
    shutil.rmtree(db, ignore_errors=True)
    options = {} if executor is None else {"executor": executor}
    t = time.perf_counter()
    report = _pipe(emb, db).ingest([corpus], **options)
    wall = time.perf_counter() - t
    assert report.ok, report.failed
    again = _pipe(emb, db).ingest([corpus], **options)
    assert again.embedded == 0 and len(again.unchanged) == len(report.added)
    return {"name": name, "wall": wall, "report": report, "rerun": again.seconds["total"]}


def _small_corpus(corpus: Path, into: Path, n: int) -> Path:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    for path in sorted(p for p in corpus.iterdir() if p.suffix == ".md")[:n]:
        shutil.copy(path, into / path.name)
    return into


def _row(run: dict[str, Any], pages: int, base: float | None) -> str:
    r = run["report"]
    s = r.seconds
    parse = s.get("scan", 0) + s.get("parse", 0) + s.get("chunk", 0) + s.get("enrich", 0)
    speed = "" if base is None else f"{base / run['wall']:.2f}x"
    return (
        f"| {run['name']} | {len(r.added)} | {pages} | {r.chunks} | {run['wall']:.1f} "
        f"| {pages / run['wall']:.2f} | {r.chunks / run['wall']:.1f} | {speed} "
        f"| {parse:.1f} | {s.get('embed', 0):.1f} | {run['rerun']:.2f} |"
    )


def main() -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=fmt)
    parser.add_argument("--docs", type=int, default=18, help="documents in the folder (default 18)")
    parser.add_argument("--small", type=int, default=3, help="documents in the small folder (default 3)")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray (default 2)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sectionrag-bench-scale")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("SECTIONRAG_CACHE_DIR", str(args.cache / "models"))  # exports, for every worker
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a private local Ray, on the loopback interface

    import ray

    from sectionrag.embedders import get_embedder
    from sectionrag.ingest.ray_executor import RayExecutor

    corpus = args.cache / f"corpus-{args.docs}"
    counts = build_corpus(corpus, args.docs)
    pages = counts["markdown"] + counts["pdf"]
    work = args.cache / "work"
    small = _small_corpus(corpus, args.cache / "small", args.small)
    small_pages = max(1, round(sum(p.stat().st_size for p in small.iterdir()) / MD_PAGE_CHARS))
    print(f"corpus: {args.docs} documents, {pages} pages ({counts['pdf']} PDF) in {corpus}", file=sys.stderr)

    t = time.perf_counter()
    emb = get_embedder("minilm")
    emb.embed_query("warm up")  # the export (first use only) and the load, outside the timed runs
    load = time.perf_counter() - t

    t = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    ray_start = time.perf_counter() - t
    ray.data.DataContext.get_current().enable_progress_bars = False

    def executor(actors: int) -> RayExecutor:
        # the actors and the parsing tasks share the CPUs: half a CPU each, so none waits for a slot
        return RayExecutor(embed_actors=actors, cpus_per_actor=0.5, parse_cpus=0.5)

    runs = []
    for name, ex in (("local", None), ("ray-1", executor(1)), ("ray-2", executor(2))):
        print(f"{name} ...", file=sys.stderr)
        runs.append(_ingest(emb, corpus, work, name, ex))
        print(f"{name}: {runs[-1]['wall']:.1f} s", file=sys.stderr)
    small_local = _ingest(emb, small, work, "small-local")
    small_ray = _ingest(emb, small, work, "small-ray-1", executor(1))
    ray.shutdown()

    base = runs[0]["wall"]
    print(
        f"folder: {args.docs} documents, {pages} pages ({counts['pdf']} PDF pages; Markdown counted at "
        f"{MD_PAGE_CHARS} characters a page); local Ray with {args.cpus} CPUs; model load "
        f"{load:.1f} s in this process (an export on first use included; outside the local run, "
        "inside each Ray run, once per actor). Stage times are summed over Ray's workers and actors.\n"
    )
    print(
        "| run | docs | pages | chunks | wall (s) | pages/s | chunks/s | vs local "
        "| read+parse+chunk (s, summed) | embed (s, summed) | re-run (s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, run in enumerate(runs):
        print(_row(run, pages, None if i == 0 else base))
    print(_row(small_local, small_pages, None))
    print(_row(small_ray, small_pages, small_local["wall"]))

    local = runs[0]["report"]
    s = local.seconds
    prepare = s.get("scan", 0) + s.get("parse", 0) + s.get("chunk", 0) + s.get("enrich", 0)
    write = s.get("store", 0) + s.get("cache", 0) + s.get("records", 0)
    print("\nper-unit costs of the local run (one process):")
    print(f"- chunks per page: {local.chunks / pages:.2f}")
    print(f"- read + parse + chunk: {prepare / pages * 1000:.1f} ms a page")
    embed_ms = s.get("embed", 0) / local.chunks * 1000
    print(f"- embed ({emb.name}, {emb.threads} threads): {embed_ms:.1f} ms a chunk")
    print(f"- write (LanceDB, local disk): {write / local.chunks * 1000:.2f} ms a chunk")
    print(
        f"\nRay's overhead: start {ray_start:.1f} s (once per driver); on {args.small} small documents "
        f"{small_ray['wall'] - small_local['wall']:.1f} s more than local "
        f"({small_ray['wall']:.1f} s against {small_local['wall']:.1f} s; actor start and model load "
        "included)"
    )
    load_avg = os.getloadavg()
    print(f"(load average while measured: {load_avg[0]:.1f}, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
