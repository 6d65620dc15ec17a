"""``sectionrag search``: query a collection; it remembers its embedder."""

from __future__ import annotations

import argparse
from typing import Any

from sectionrag.cli._common import embedder_for_store, emit_json, format_results, open_store

__all__ = ["register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``search`` command."""
    p = sub.add_parser("search", parents=[common], help="search an index")
    p.add_argument("query", help="the question or keywords")
    p.add_argument("--db", required=True, help="database directory")
    p.add_argument("--collection", default="default", help="collection name (default: %(default)s)")
    p.add_argument("-k", type=int, default=5, help="number of results (default: %(default)s)")
    p.add_argument("--mode", choices=("vector", "text", "hybrid"), default="vector")
    p.add_argument(
        "--fusion", choices=("rrf", "linear"), default=None, help="hybrid fusion (default: linear)"
    )
    p.add_argument(
        "--weights",
        default=None,
        metavar="V,T",
        help="hybrid weights of the vector and text rankings (default: 1,0.5)",
    )
    p.add_argument(
        "--source", action="append", default=[], metavar="NAME", help="only this document (repeatable)"
    )
    p.add_argument(
        "--section", default=None, metavar="TEXT", help="only chunks under a section with this title"
    )
    p.add_argument("--where", default=None, metavar="EXPR", help="raw filter expression (experts)")
    p.add_argument("--embedder", default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--backend",
        default=None,
        choices=("torch", "onnx", "onnx-int8", "openvino"),
        help="embed the query with this runtime (default: the one the collection was indexed with)",
    )
    p.set_defaults(handler=run)


def resolve_sources(names: list[str], store: Any) -> list[str]:
    """Map each ``--source`` to the sources as indexed: an exact source or a file name.

    Raises:
        ConfigError: a name matches no indexed document (the message lists some that exist).
    """
    from pathlib import PurePath

    from sectionrag.errors import ConfigError

    indexed = sorted({d.source for d in store.documents()})
    out: list[str] = []
    for name in names:
        matches = [s for s in indexed if s == name or PurePath(s).name == name]
        if not matches:
            shown = ", ".join(PurePath(s).name for s in indexed[:10]) or "none"
            raise ConfigError(f"--source {name!r} matches no indexed document; indexed: {shown}")
        out.extend(matches)
    return out


def build_where(args: argparse.Namespace, store: Any) -> Any:
    """Combine ``--source``/``--section``/``--where`` into one filter for the store."""
    from sectionrag.errors import ConfigError

    structured: dict[str, Any] = {}
    if args.source:
        structured["source"] = resolve_sources(list(args.source), store)
    if args.section:
        structured["section"] = args.section
    if args.where and structured:
        raise ConfigError("--where cannot be combined with --source/--section; put everything in --where")
    return args.where or structured or None


def parse_weights(text: str | None) -> tuple[float, float] | None:
    """Parse ``--weights V,T`` into a pair of floats (``None`` when not given)."""
    from sectionrag.errors import ConfigError

    if text is None:
        return None
    try:
        vector, text_weight = (float(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"--weights takes two numbers such as 0.7,0.3, got {text!r}") from None
    return vector, text_weight


def run(args: argparse.Namespace) -> int:
    """Search and print ranked results."""
    from sectionrag.errors import CollectionNotFoundError, ConfigError, StoreError

    if args.k < 1:
        raise ConfigError(f"-k must be at least 1, got {args.k}")
    weights = parse_weights(args.weights)
    if (args.fusion or weights) and args.mode != "hybrid":
        raise ConfigError("--fusion and --weights apply to --mode hybrid only")
    store = open_store(args.db, args.collection)
    info = store.info()
    if info is None:
        raise CollectionNotFoundError(
            f"collection {args.collection!r} does not exist in {args.db}; index documents first "
            f"with `sectionrag index PATH --db {args.db}`"
        )
    if info.chunks == 0:
        raise StoreError(
            f"collection {args.collection!r} in {args.db} is empty; index documents into it with "
            f"`sectionrag index PATH --db {args.db} --collection {args.collection}`"
        )
    where = build_where(args, store)
    vector = None
    if args.mode != "text":
        embedder = embedder_for_store(store, args.embedder, backend=args.backend)
        vector = embedder.embed_query(args.query)
    options: dict[str, Any] = {}
    if args.fusion:
        options["fusion"] = args.fusion
    if weights:
        options["weights"] = weights
    results = store.search(
        query_vector=vector, query_text=args.query, k=args.k, where=where, mode=args.mode, **options
    )
    if args.json:
        emit_json({"results": [r.to_dict() for r in results]})
    else:
        print(format_results(results))
    return 0
