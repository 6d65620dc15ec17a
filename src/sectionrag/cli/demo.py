"""``sectionrag demo``: index the bundled sample documents offline and answer sample queries."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from sectionrag.cli._common import format_results
from sectionrag.defaults import DEFAULT_STRATEGY

__all__ = ["DEMO_QUERIES", "demo_data_dir", "register"]

#: the questions the demo asks of its sample documents
DEMO_QUERIES = (
    "Can I return a product?",
    "How fast are orders shipped?",
    "What was total revenue in fiscal 2025?",
    "What risks come from the convertible notes?",
    "Who is the chief financial officer?",
)


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``demo`` command."""
    p = sub.add_parser("demo", parents=[common], help="index the sample documents and run sample queries")
    p.add_argument("--db", default=None, help="database directory (default: a temporary directory)")
    p.add_argument("--embedder", default="minilm", help="embedder (default: %(default)s, works offline)")
    p.add_argument("--strategy", default=DEFAULT_STRATEGY, help="chunking strategy (default: %(default)s)")
    p.add_argument("-k", type=int, default=3, help="results per query (default: %(default)s)")
    p.add_argument("--query", action="append", default=[], help="ask this instead of the sample queries")
    p.set_defaults(handler=run)


def demo_data_dir() -> Path:
    """Return the folder of bundled sample documents (in the wheel, or in a source checkout)."""
    packaged = Path(__file__).resolve().parent.parent / "_demo_data"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / "examples" / "data"
    if checkout.is_dir():
        return checkout
    from sectionrag.errors import ConfigError

    raise ConfigError("sample documents not found; reinstall sectionrag or run from a source checkout")


def run(args: argparse.Namespace) -> int:
    """Index the sample documents, then print ranked, section-cited answers."""
    import json

    from sectionrag.pipeline import Pipeline

    queries = args.query or list(DEMO_QUERIES)
    with tempfile.TemporaryDirectory(prefix="sectionrag-demo-") as tmp:
        db = args.db or tmp
        pipe = Pipeline.default(db, embedder=args.embedder, strategy=args.strategy)
        data = demo_data_dir()
        report = pipe.ingest([data], progress=False)
        n_docs = len(report.added) + len(report.updated) + len(report.unchanged)
        summary = (
            f"Indexed {n_docs} documents from {data} "
            f"into {report.chunks} chunks with {pipe.embedder.name} ({args.strategy} chunking)."
        )
        answers = {q: pipe.search(q, k=args.k) for q in queries}
    if args.json:
        payload = {
            "index": report.to_dict(),
            "queries": [{"query": q, "results": [r.to_dict() for r in rs]} for q, rs in answers.items()],
        }
        print(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0 if report.ok else 1
    print(summary)
    for q, rs in answers.items():
        print(f"\nQ: {q}")
        print(format_results(rs))
    return 0 if report.ok else 1
