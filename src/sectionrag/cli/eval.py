"""``sectionrag eval``: retrieval metrics over queries with reference spans."""

from __future__ import annotations

import argparse
from typing import Any

from sectionrag.cli._common import (
    add_collection_options,
    add_search_options,
    emit_json,
    open_collection,
    parse_weights,
)

__all__ = ["format_report", "register"]

_LABELS = {
    "recall": "recall",
    "hit": "hit rate",
    "mrr": "MRR",
    "ndcg": "nDCG",
    "span_recall": "span recall",
    "span_precision": "span precision",
    "span_iou": "span IoU",
}


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``eval`` command."""
    p = sub.add_parser(
        "eval",
        parents=[common],
        help="measure retrieval against queries with reference spans",
        description="Search a collection for every query of a JSONL file and report recall@k, hit@k, "
        "MRR@k, nDCG@k and span recall/precision/IoU. Each line: "
        '{"query": ..., "references": [{"source": ..., "start": ..., "end": ...}]} '
        '("page": N may stand instead of start/end).',
    )
    p.add_argument("queries", metavar="QUERIES.jsonl", help="one JSON query per line")
    add_collection_options(p)
    add_search_options(p, k_help="results scored per query")
    p.add_argument(
        "--where", default=None, metavar="EXPR", help="raw filter expression applied to every search"
    )
    p.add_argument(
        "--show", type=int, default=10, metavar="N", help="list up to N missed queries (default: %(default)s)"
    )
    p.add_argument("--embedder", default=None, help=argparse.SUPPRESS)
    p.set_defaults(handler=run)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_report(report: Any, *, show: int = 10, width: int = 70) -> str:
    """Render an :class:`~sectionrag.eval.retrieval.EvalReport` as a readable table."""
    lines = [f"{len(report.results)} queries, k={report.k}, mode={report.mode}", ""]
    metrics = report.metrics
    label_w = max(len(f"{label}@{report.k}") for label in _LABELS.values())
    lines.append(f"{'metric':<{label_w}}  value")
    lines.append(f"{'-' * label_w}  -----")
    for name, label in _LABELS.items():
        lines.append(f"{label + '@' + str(report.k):<{label_w}}  {_fmt(metrics[name])}")
    missed = [r for r in report.results if r.metrics.hit == 0.0]
    lines.append("")
    lines.append(f"{len(missed)} of {len(report.results)} queries had no reference in the top {report.k}.")
    for r in missed[: max(show, 0)]:
        text = " ".join(r.query.query.split())
        if len(text) > width:
            text = text[: width - 1].rstrip() + "…"
        label = f"[{r.query.id}] " if r.query.id else ""
        lines.append(f"  - {label}{text}")
    if 0 <= show < len(missed):
        lines.append(f"  … and {len(missed) - show} more (use --json for every query)")
    seconds = report.seconds
    if seconds:
        lines.append("")
        lines.append(
            f"query embedding {seconds.get('embed', 0.0):.2f} s, search {seconds.get('search', 0.0):.2f} s"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Evaluate retrieval and print the metrics."""
    from sectionrag._checks import check_int
    from sectionrag.eval.retrieval import evaluate, load_queries
    from sectionrag.pipeline import check_search_options

    check_int("-k", args.k, minimum=1)
    weights = parse_weights(args.weights)
    check_search_options(args.k, args.mode, args.fusion, weights)
    queries = load_queries(args.queries)
    pipe = open_collection(args, check=args.mode != "text")
    store, embedder = pipe.store, (None if args.mode == "text" else pipe.embedder)
    report = evaluate(
        store,
        queries,
        embedder=embedder,
        k=args.k,
        mode=args.mode,
        where=args.where,
        fusion=args.fusion,
        weights=weights,
    )
    if args.json:
        payload = report.to_dict()
        payload["collection"] = args.collection
        emit_json(payload)
    else:
        print(format_report(report, show=args.show))
    return 0
