"""``sectionrag compare FILE --query Q``: chunking strategies side by side on one document."""

from __future__ import annotations

import argparse
from typing import Any

from sectionrag.cli._common import emit_json, resolve_embedder

__all__ = ["register", "run"]


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``compare`` command."""
    p = subparsers.add_parser(
        "compare",
        parents=[common],
        help="compare chunking strategies on one file by retrieval score",
        description="Chunk FILE with each strategy, embed chunks and queries with one model, and "
        "print per strategy the number of chunks, the best cosine score and the winning chunk. "
        "A strategy may carry parameters: name:key=value:key=value "
        "(e.g. overlap:unit=chars:size=100:overlap=30).",
    )
    p.add_argument("file", metavar="FILE", help="the file to chunk")
    p.add_argument("--query", "-q", action="append", required=True, help="a query (repeatable)")
    p.add_argument(
        "--strategies",
        default=None,
        help="comma-separated strategy specs (default: all seven strategies)",
    )
    p.add_argument("--embedder", default=None, help="model for chunks and queries (default bge-m3)")
    p.add_argument(
        "--similarity",
        default=None,
        help="similarity model for semantic/section: 'static' (default) or an embedder name",
    )
    p.add_argument("--plot", default=None, metavar="PNG", help="save a bar chart of best scores")
    p.add_argument("--show-chunks", action="store_true", help="include chunk texts (JSON) or the winners")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the comparison and print it."""
    from sectionrag.errors import ConfigError
    from sectionrag.eval.compare import DEFAULT_STRATEGIES, compare, plot
    from sectionrag.parsers import parse_file

    specs = (
        DEFAULT_STRATEGIES
        if args.strategies is None
        else tuple(s.strip() for s in args.strategies.split(",") if s.strip())
    )
    if not specs:
        raise ConfigError("--strategies is empty; name at least one strategy")
    doc = parse_file(args.file)
    embedder = resolve_embedder(args.embedder)
    similarity = None
    if args.similarity is not None and args.similarity != "static":
        similarity = embedder if args.similarity == args.embedder else resolve_embedder(args.similarity)
    result = compare(doc, args.query, specs, embedder=embedder, similarity=similarity)
    if args.plot:
        plot(result, args.plot)
    if args.json:
        emit_json(result.to_dict(chunk_texts=args.show_chunks))
        return 0
    width = max(len("strategy"), *(len(r.strategy) for r in result.rows))
    for qi, query in enumerate(result.queries):
        print(f"query: {query}   (embedder: {result.embedder})")
        print(f"  {'strategy':<{width}}  chunks  best     chunk  scores")
        for row in result.rows:
            q = row.queries[qi]
            best = "-" if q.best_score is None else f"{q.best_score:.4f}"
            idx = "-" if q.best_chunk_index is None else str(q.best_chunk_index)
            scores = " ".join(f"{s:.4f}" for s in q.scores[:12]) + (" …" if len(q.scores) > 12 else "")
            print(f"  {row.strategy:<{width}}  {len(row.chunks):>6}  {best:<7}  {idx:>5}  {scores}")
            if args.show_chunks and q.best_chunk_index is not None:
                text = " ".join(row.chunks[q.best_chunk_index].text.split())
                print(f"  {'':<{width}}  winner: {text[:100]}")
    if args.plot:
        print(f"chart saved to {args.plot}")
    return 0
