"""Enrichment benchmark: ExtractiveEnricher throughput, and what it does to retrieval.

1. Throughput (chunks/s) of :class:`~sectionrag.enrich.ExtractiveEnricher` on
   the section-aware chunks (minilm tokenizer) of the evaluation set
   (``benchmarks/eval_data``) and of the sample 10-K (``examples/data``, a
   figure-dense text), with all fields and per part (metadata regexes only,
   summary and key phrases only); beside it, minilm embedding on the same CPU.
2. Retrieval: the evaluation set indexed (section chunks, ``minilm``, LanceDB)
   without enrichment and with extractive enrichment in several forms; every
   query in ``text``, ``hybrid`` and ``vector`` mode; recall@5 and MRR@5,
   overall and per query kind (natural questions vs search-box keywords).

    python benchmarks/bench_enrich.py                  # print, update docs/benchmarks.md
    python benchmarks/bench_enrich.py --no-write --json out.json
    python benchmarks/bench_enrich.py --skip-retrieval
    python benchmarks/bench_enrich.py --skip-throughput --llm-url http://localhost:8000/v1 --llm-model M

The tables go between ``<!-- enrichment:start -->`` and ``<!-- enrichment:end -->``
in docs/benchmarks.md (the "Enrichment" section); nothing else there is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
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
REPORT = ROOT / "examples" / "data" / "northwind_annual_report_2025.md"
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- enrichment:start -->", "<!-- enrichment:end -->"
MODES = ("text", "hybrid", "vector")

#: (label, ExtractiveEnricher keyword arguments or None for no enrichment)
VARIANTS: list[tuple[str, dict[str, Any] | None]] = [
    ("none", None),
    ("extractive", {}),
    ("extractive: summary only", {"fields": ("summary", "metadata")}),
    ("extractive: keywords only", {"fields": ("keywords", "metadata")}),
    ("extractive + summary embedded", {"embed_summary": True}),
]


def eval_files() -> list[Path]:
    return sorted(p for p in DATA.iterdir() if p.suffix in (".md", ".txt") and p.name != "README.md")


def query_kinds() -> dict[str, str]:
    out = {}
    for line in (DATA / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["id"]] = row.get("kind", "?")
    return out


def chunked(embedder: Any, files: list[Path]) -> list[tuple[Any, list[Any]]]:
    import sectionrag

    chunker = sectionrag.chunker("section", tokenizer=embedder)
    out = []
    for path in files:
        doc = sectionrag.parse(path)
        out.append((doc, chunker.chunk(doc)))
    return out


def rate(work: Any, n_chunks: int, min_seconds: float, repeats: int = 3) -> float:
    """Median chunks/s over ``repeats`` timed runs of ``work`` (each repeated to last ``min_seconds``)."""
    rates = []
    for _ in range(repeats):
        loops = 0
        started = time.perf_counter()
        while True:
            work()
            loops += 1
            elapsed = time.perf_counter() - started
            if elapsed >= min_seconds:
                break
        rates.append(n_chunks * loops / elapsed)
    return statistics.median(rates)


def throughput(embedder: Any, min_seconds: float) -> list[dict[str, Any]]:
    from sectionrag.enrich import ExtractiveEnricher, extract_metadata

    rows = []
    corpora = [
        ("evaluation set", chunked(embedder, eval_files())),
        ("sample 10-K", chunked(embedder, [REPORT])),
    ]
    for name, docs in corpora:
        n = sum(len(c) for _, c in docs)
        chars = sum(len(x.text) for _, c in docs for x in c)
        row: dict[str, Any] = {"corpus": name, "chunks": n, "mean_chars": round(chars / n)}
        for label, kwargs in (
            ("all", {}),
            ("summary+keywords", {"fields": ("summary", "keywords")}),
            ("metadata", {"fields": ("metadata",)}),
        ):
            enricher = ExtractiveEnricher(**kwargs)
            row[label] = rate(lambda e=enricher, docs=docs: [e.enrich(c, d) for d, c in docs], n, min_seconds)
        texts = [x.text for _, c in docs for x in c]
        row["extract_metadata()"] = rate(
            lambda texts=texts: [extract_metadata(t) for t in texts], n, min_seconds
        )
        texts = [x.embed_text for _, c in docs for x in c]
        started = time.perf_counter()
        embedder.embed_documents(texts)
        row["minilm embedding"] = n / (time.perf_counter() - started)
        rows.append(row)
        print(
            f"{name}: {n} chunks; "
            + ", ".join(f"{k} {v:.0f}/s" for k, v in row.items() if isinstance(v, float)),
            file=sys.stderr,
        )
    return rows


def retrieval(embedder: Any, k: int, variants: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    import sectionrag
    from sectionrag.enrich import ExtractiveEnricher
    from sectionrag.eval.retrieval import embed_queries, evaluate, load_queries
    from sectionrag.pipeline import Pipeline
    from sectionrag.stores import LanceDBStore

    queries = load_queries(DATA / "queries.jsonl")
    kinds = query_kinds()
    vectors = embed_queries(embedder, [q.query for q in queries])
    rows = []
    with tempfile.TemporaryDirectory(prefix="sectionrag-enrich-") as tmp:
        for n, (label, kwargs) in enumerate(variants):
            if kwargs is None or isinstance(kwargs, dict):
                enricher = None if kwargs is None else ExtractiveEnricher(tokenizer=embedder, **kwargs)
            else:
                enricher = kwargs
            pipe = Pipeline(
                chunker=sectionrag.chunker("section", tokenizer=embedder),
                embedder=embedder,
                store=LanceDBStore(Path(tmp), collection=f"v{n}"),
                enricher=enricher,
            )
            started = time.perf_counter()
            report = pipe.ingest(eval_files())
            if not report.ok:
                raise SystemExit(f"{label}: indexing failed: {report.failed}")
            seconds = time.perf_counter() - started
            print(f"{label}: {report.chunks} chunks in {seconds:.1f} s", file=sys.stderr)
            for mode in MODES:
                ev = evaluate(pipe, queries, k=k, mode=mode, query_vectors=vectors)  # type: ignore[arg-type]
                by_kind: dict[str, list[tuple[float, float]]] = defaultdict(list)
                for r in ev.results:
                    by_kind[kinds.get(r.query.id or "", "?")].append((r.metrics.recall, r.metrics.mrr))
                row = {
                    "variant": label,
                    "mode": mode,
                    "chunks": report.chunks,
                    "recall": ev.metrics["recall"],
                    "mrr": ev.metrics["mrr"],
                    "by_kind": {
                        kind: {
                            "recall": statistics.fmean(r for r, _ in v),
                            "mrr": statistics.fmean(m for _, m in v),
                        }
                        for kind, v in sorted(by_kind.items())
                    },
                    "hits": {r.query.id: r.metrics.hit for r in ev.results},
                }
                rows.append(row)
                print(
                    f"  {mode:<6} recall@{k} {row['recall']:.3f}  mrr@{k} {row['mrr']:.3f}", file=sys.stderr
                )
    return rows


def changed_queries(rows: list[dict[str, Any]], mode: str, variant: str) -> tuple[int, int]:
    """(queries newly hit, queries lost) by ``variant`` against ``none`` in ``mode``."""
    base = next(r for r in rows if r["variant"] == "none" and r["mode"] == mode)["hits"]
    other = next(r for r in rows if r["variant"] == variant and r["mode"] == mode)["hits"]
    gained = sum(1 for q, h in other.items() if h and not base.get(q))
    lost = sum(1 for q, h in other.items() if not h and base.get(q))
    return gained, lost


def tables(result: dict[str, Any]) -> str:
    k = result["k"]
    lines: list[str] = []
    if result.get("throughput"):
        lines += [
            "Throughput of `ExtractiveEnricher` (chunks/s, median of 3 timed runs; one process, one core):",
            "",
            "| corpus | chunks | mean chars | all fields | summary + keywords | metadata only | "
            "`extract_metadata()` | minilm embedding (same CPU) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in result["throughput"]:
            lines.append(
                f"| {r['corpus']} | {r['chunks']} | {r['mean_chars']} | {r['all']:,.0f} | "
                f"{r['summary+keywords']:,.0f} | {r['metadata']:,.0f} | {r['extract_metadata()']:,.0f} | "
                f"{r['minilm embedding']:,.0f} |"
            )
        lines.append("")
    if result.get("retrieval"):
        rows = result["retrieval"]
        lines += [
            f"Retrieval on the evaluation set ({result['queries']} queries, section chunks, `minilm`, "
            f'LanceDB), recall@{k} / MRR@{k}; "+/-" are queries with a hit in the top {k} gained / lost '
            "against `none`:",
            "",
            "| enrichment | " + " | ".join(f"{m} recall@{k} | {m} MRR@{k} | {m} +/-" for m in MODES) + " |",
            "|---|" + "---:|---:|---:|" * len(MODES),
        ]
        labels = list(dict.fromkeys(r["variant"] for r in rows))
        for variant in labels:
            cells = []
            for mode in MODES:
                r = next(x for x in rows if x["variant"] == variant and x["mode"] == mode)
                gained, lost = changed_queries(rows, mode, variant)
                delta = "" if variant == "none" else f"+{gained}/-{lost}"
                cells.append(f"{r['recall']:.3f} | {r['mrr']:.3f} | {delta}")
            lines.append(f"| {variant} | " + " | ".join(cells) + " |")
        kinds = sorted({kind for r in rows for kind in r["by_kind"]})
        lines += [
            "",
            f"recall@{k} by kind of query (text / hybrid):",
            "",
            "| enrichment | " + " | ".join(kinds) + " |",
            "|---|" + "---:|" * len(kinds),
        ]
        for variant in labels:
            cells = []
            for kind in kinds:
                parts = []
                for mode in ("text", "hybrid"):
                    r = next(x for x in rows if x["variant"] == variant and x["mode"] == mode)
                    parts.append(f"{r['by_kind'][kind]['recall']:.3f}")
                cells.append(" / ".join(parts))
            lines.append(f"| {variant} | " + " | ".join(cells) + " |")
        lines.append("")
    lines.append(
        f"Generated by `python benchmarks/bench_enrich.py` on {time.strftime('%Y-%m-%d')} "
        f"(Python {result['python']}, {result['cpus']} CPUs, shared machine: absolute speeds vary "
        "by about ±30 %)."
    )
    return "\n".join(lines)


def write_doc(text: str) -> None:
    block = f"{START}\n{text}\n{END}"
    current = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    if START in current and END in current:
        head, rest = current.split(START, 1)
        _, tail = rest.split(END, 1)
        DOC.write_text(head + block + tail, encoding="utf-8")
    else:
        DOC.write_text(current.rstrip() + "\n\n## Enrichment\n\n" + block + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--min-seconds", type=float, default=1.0, help="least time per throughput measurement")
    p.add_argument("--skip-throughput", action="store_true")
    p.add_argument("--skip-retrieval", action="store_true")
    p.add_argument("--llm-url", default=None, help="also run an LLMEnricher on this OpenAI-compatible server")
    p.add_argument("--llm-model", default=None, help="model for --llm-url")
    p.add_argument("--json", default=None, metavar="FILE")
    p.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = p.parse_args(argv)

    from sectionrag.embedders import get_embedder
    from sectionrag.eval.retrieval import load_queries

    embedder = get_embedder("minilm")
    embedder.embed_query("warm up")
    result: dict[str, Any] = {
        "k": args.k,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "queries": len(load_queries(DATA / "queries.jsonl")),
    }
    if not args.skip_throughput:
        result["throughput"] = throughput(embedder, args.min_seconds)
    if not args.skip_retrieval:
        variants: list[tuple[str, Any]] = list(VARIANTS)
        if args.llm_url:
            from sectionrag.enrich import LLMEnricher, OpenAICompatibleLLM

            llm = OpenAICompatibleLLM(args.llm_url, args.llm_model or "default")
            variants.append((f"llm ({llm.model})", LLMEnricher(llm, tokenizer=embedder)))
        result["retrieval"] = retrieval(embedder, args.k, variants)
    text = tables(result)
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if not args.no_write:
        write_doc(text)
        print(f"updated {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
