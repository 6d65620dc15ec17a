"""Retrieval experiment: chunking strategy x search mode on benchmarks/eval_data.

Indexes the four evaluation documents once per chunking strategy with the
``minilm`` preset (offline, packaged), then runs every query of
``queries.jsonl`` in ``vector``, ``text`` and ``hybrid`` mode and reports
recall@k, MRR@k, nDCG@k and span IoU. ``section`` is run as the library
defaults it, with its contextual header switched on, and with any chunk
context stripped before embedding, to compare contextual with plain
embeddings (a variant identical to one already run is not run again).

A second table fuses the vector and text rankings (top 50 of each) on the
client with weighted reciprocal rank fusion at a few settings, to show how
the hybrid result depends on the text weight and the RRF constant.

    python benchmarks/run_retrieval_eval.py                 # print and update docs/evaluation.md
    python benchmarks/run_retrieval_eval.py --no-write --json results.json
    python benchmarks/run_retrieval_eval.py --strategies fixed,section --modes hybrid

The results table goes between the ``<!-- results:start -->`` and
``<!-- results:end -->`` markers of docs/evaluation.md; the prose around it
is left alone.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "eval_data"
DOC = ROOT / "docs" / "evaluation.md"
START, END = "<!-- results:start -->", "<!-- results:end -->"

#: (label, strategy name, chunker parameters, strip chunk context before embedding)
VARIANTS: list[tuple[str, str, dict[str, Any], bool]] = [
    ("fixed 512", "fixed", {"size": 512}, False),
    ("recursive", "recursive", {}, False),
    ("semantic", "semantic", {}, False),
    ("section", "section", {}, False),
    ("section + context", "section", {"contextual_header": True}, False),
    ("section, no context", "section", {}, True),
]
#: client-side fusion settings for the sensitivity table: (text weight, RRF k)
FUSIONS = ((1.0, 60), (1.0, 10), (0.5, 60), (0.5, 10))
POOL = 50
MODES = ("vector", "text", "hybrid")


class PlainChunks:
    """Wrap a chunker and drop each chunk's ``context``, so only the chunk text is embedded."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def chunk(self, document: Any) -> list[Any]:
        return [dataclasses.replace(c, context="") for c in self.inner.chunk(document)]


def documents() -> list[Path]:
    return sorted(p for p in DATA.iterdir() if p.suffix in (".md", ".txt") and p.name != "README.md")


def query_labels(field: str) -> dict[str, str]:
    """Map query id to a descriptive field of queries.jsonl (``doc_type`` or ``kind``)."""
    out = {}
    for line in (DATA / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["id"]] = row.get(field, "?")
    return out


def make_store(kind: str, db: Path, collection: str) -> Any:
    from sectionrag.stores import InMemoryStore, LanceDBStore

    if kind == "memory":
        return InMemoryStore(collection=collection)
    return LanceDBStore(db, collection=collection)


def run(args: argparse.Namespace) -> dict[str, Any]:
    import sectionrag
    from sectionrag.embedders import get_embedder
    from sectionrag.eval.retrieval import embed_queries, evaluate, load_queries
    from sectionrag.pipeline import Pipeline

    wanted = {s.strip() for s in args.strategies.split(",")} if args.strategies else None
    modes = [m.strip() for m in args.modes.split(",")]
    queries = load_queries(DATA / "queries.jsonl")
    kinds = query_labels("doc_type")
    query_kinds = query_labels("kind")
    embedder = get_embedder(args.embedder)
    files = documents()
    t0 = time.perf_counter()
    vectors = embed_queries(embedder, [q.query for q in queries])  # once, for every variant and mode
    print(f"embedded {len(queries)} queries in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    rows: list[dict[str, Any]] = []
    fusion_rows: list[dict[str, Any]] = []
    skipped: list[str] = []
    aliases: list[str] = []
    done: dict[tuple[str, bool], str] = {}
    with tempfile.TemporaryDirectory(prefix="sectionrag-eval-") as tmp:
        for n, (label, strategy, params, plain) in enumerate(VARIANTS):
            if wanted is not None and strategy not in wanted and label not in wanted:
                continue
            try:
                chunker: Any = sectionrag.chunker(strategy, tokenizer=embedder, **params)
            except (ImportError, sectionrag.SectionRagError) as e:
                skipped.append(f"{label}: {e}")
                print(f"skip {label}: {e}", file=sys.stderr)
                continue
            key = (repr(chunker), plain)
            if key in done:
                print(f"skip {label}: same chunker as {done[key]}", file=sys.stderr)
                aliases.append(f"{label}: same configuration as {done[key]} ({key[0]})")
                continue
            done[key] = label
            if plain:
                chunker = PlainChunks(chunker)
            store = make_store(args.store, Path(tmp), f"v{n}")
            pipe = Pipeline(chunker=chunker, embedder=embedder, store=store)
            t0 = time.perf_counter()
            try:
                report = pipe.ingest(files)
            except Exception as e:  # a strategy still in progress must not stop the others
                skipped.append(f"{label}: {type(e).__name__}: {e}")
                print(f"skip {label}: {type(e).__name__}: {e}", file=sys.stderr)
                continue
            index_s = time.perf_counter() - t0
            if report.failed:
                raise SystemExit(f"{label}: indexing failed: {report.failed}")
            print(f"{label}: {report.chunks} chunks in {index_s:.1f} s", file=sys.stderr)
            for mode in modes:
                ev = evaluate(pipe, queries, k=args.k, mode=mode, query_vectors=vectors)  # type: ignore[arg-type]
                by_kind: dict[str, list[float]] = defaultdict(list)
                by_query_kind: dict[str, list[float]] = defaultdict(list)
                for r in ev.results:
                    by_kind[kinds.get(r.query.id or "", "?")].append(r.metrics.recall)
                    by_query_kind[query_kinds.get(r.query.id or "", "?")].append(r.metrics.recall)
                row = {
                    "variant": label,
                    "strategy": strategy,
                    "context": not plain,
                    "chunks": report.chunks,
                    "mode": mode,
                    "index_seconds": round(index_s, 2),
                    **{ev.metric_key(name): value for name, value in ev.metrics.items()},
                    "recall_by_kind": {kind: sum(v) / len(v) for kind, v in sorted(by_kind.items())},
                    "recall_by_query_kind": {
                        kind: sum(v) / len(v) for kind, v in sorted(by_query_kind.items())
                    },
                    "seconds": ev.seconds,
                }
                rows.append(row)
                print(
                    f"  {mode:<6} recall@{args.k} {row[f'recall@{args.k}']:.3f}  "
                    f"mrr@{args.k} {row[f'mrr@{args.k}']:.3f}  iou {row[f'span_iou@{args.k}']:.3f}",
                    file=sys.stderr,
                )
            if not args.no_fusion:
                fusion_rows += fusion_table_rows(label, store, queries, vectors, args.k)
    return {
        "k": args.k,
        "embedder": embedder.name,
        "store": args.store,
        "queries": len(queries),
        "documents": [p.name for p in files],
        "rows": rows,
        "fusion": fusion_rows,
        "skipped": skipped,
        "aliases": aliases,
        "python": platform.python_version(),
    }


def fuse(rankings: list[tuple[float, list[Any]]], rrf_k: int) -> list[Any]:
    """Weighted reciprocal rank fusion: ``score = sum(weight / (rrf_k + rank))``."""
    scores: dict[str, float] = {}
    by_id: dict[str, Any] = {}
    for weight, ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + weight / (rrf_k + rank)
            by_id.setdefault(hit.chunk_id, hit)
    return [by_id[cid] for cid, _ in sorted(scores.items(), key=lambda kv: -kv[1])]


def fusion_table_rows(
    label: str, store: Any, queries: list[Any], vectors: Any, k: int
) -> list[dict[str, Any]]:
    """Score client-side fusions of the store's vector and text rankings."""
    from sectionrag.eval.retrieval import Retrieved, score_query

    vec = [store.search(query_vector=vectors[i], k=POOL, mode="vector") for i in range(len(queries))]
    txt = [store.search(query_text=q.query, k=POOL, mode="text") for q in queries]
    out = []
    for weight, rrf_k in FUSIONS:
        metrics = []
        for q, v, t in zip(queries, vec, txt, strict=True):
            fused = [Retrieved.from_result(h) for h in fuse([(1.0, v), (weight, t)], rrf_k)]
            metrics.append(score_query(q.references, fused, k))
        n = len(metrics)
        out.append(
            {
                "variant": label,
                "text_weight": weight,
                "rrf_k": rrf_k,
                f"recall@{k}": sum(m.recall for m in metrics) / n,
                f"mrr@{k}": sum(m.mrr for m in metrics) / n,
            }
        )
    return out


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(result: dict[str, Any]) -> str:
    k = result["k"]
    lines = [
        f"| chunking | chunks | mode | recall@{k} | MRR@{k} | span IoU@{k} | hit@{k} | nDCG@{k} |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        lines.append(
            f"| {row['variant']} | {row['chunks']} | {row['mode']} | {fmt(row[f'recall@{k}'])} | "
            f"{fmt(row[f'mrr@{k}'])} | {fmt(row[f'span_iou@{k}'])} | {fmt(row[f'hit@{k}'])} | "
            f"{fmt(row[f'ndcg@{k}'])} |"
        )
    for key, title in (("recall_by_kind", "kind of document"), ("recall_by_query_kind", "kind of query")):
        kinds = sorted({kind for row in result["rows"] for kind in row[key]})
        lines += [
            "",
            f"recall@{k} by {title}:",
            "",
            "| chunking | mode | " + " | ".join(kinds) + " |",
            "|---|---|" + "---:|" * len(kinds),
        ]
        for row in result["rows"]:
            cells = " | ".join(fmt(row[key].get(kind)) for kind in kinds)
            lines.append(f"| {row['variant']} | {row['mode']} | {cells} |")
    if result["fusion"]:
        settings = [(f["text_weight"], f["rrf_k"]) for f in result["fusion"]]
        settings = list(dict.fromkeys(settings))
        lines += [
            "",
            f"Hybrid fusion sensitivity (client-side weighted RRF of the top {POOL} vector and top {POOL} "
            f"text results; vector weight 1), recall@{k} / MRR@{k}:",
            "",
            "| chunking | " + " | ".join(f"text weight {w:g}, k={c}" for w, c in settings) + " |",
            "|---|" + "---:|" * len(settings),
        ]
        by_variant: dict[str, dict[tuple[float, int], dict[str, Any]]] = defaultdict(dict)
        for f in result["fusion"]:
            by_variant[f["variant"]][(f["text_weight"], f["rrf_k"])] = f
        for variant, cells in by_variant.items():
            shown = " | ".join(
                f"{fmt(cells[s][f'recall@{k}'])} / {fmt(cells[s][f'mrr@{k}'])}" if s in cells else "-"
                for s in settings
            )
            lines.append(f"| {variant} | {shown} |")
    lines += [
        "",
        f"{result['queries']} queries over {len(result['documents'])} documents; embedder "
        f"`{result['embedder']}`; store `{result['store']}`; "
        f"generated by `python benchmarks/run_retrieval_eval.py` on {time.strftime('%Y-%m-%d')}.",
    ]
    if result["aliases"]:
        lines += ["", "Not run again:", ""]
        lines += [f"- {s}" for s in result["aliases"]]
    if result["skipped"]:
        lines += ["", "Not run (not available when the table was made):", ""]
        lines += [f"- {s}" for s in result["skipped"]]
    return "\n".join(lines)


def write_doc(text: str) -> None:
    block = f"{START}\n{text}\n{END}"
    if DOC.exists():
        current = DOC.read_text(encoding="utf-8")
        if START in current and END in current:
            head, rest = current.split(START, 1)
            _, tail = rest.split(END, 1)
            DOC.write_text(head + block + tail, encoding="utf-8")
            return
        DOC.write_text(current.rstrip() + "\n\n## Results\n\n" + block + "\n", encoding="utf-8")
        return
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("# Retrieval evaluation\n\n## Results\n\n" + block + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--embedder", default="minilm", help="embedder (default: %(default)s)")
    p.add_argument("--store", choices=("lancedb", "memory"), default="lancedb")
    p.add_argument("-k", type=int, default=5, help="results per query (default: %(default)s)")
    p.add_argument("--strategies", default=None, help="comma-separated strategies or labels (default: all)")
    p.add_argument("--modes", default=",".join(MODES), help="comma-separated modes (default: %(default)s)")
    p.add_argument("--json", default=None, metavar="FILE", help="also write every row as JSON to FILE")
    p.add_argument("--no-write", action="store_true", help="do not update docs/evaluation.md")
    p.add_argument("--no-fusion", action="store_true", help="skip the fusion sensitivity table")
    args = p.parse_args(argv)
    result = run(args)
    text = table(result)
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if not args.no_write:
        write_doc(text)
        print(f"updated {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
