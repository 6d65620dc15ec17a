"""``sectionrag search``: query a collection; it remembers its embedder.

Text-mode search loads no model and imports no torch: the collection is
reopened with :meth:`~sectionrag.Pipeline.open` without checking the model,
which is only loaded when the query must be embedded.
"""

from __future__ import annotations

import argparse
from typing import Any

from sectionrag.cli._common import (
    add_collection_options,
    add_search_options,
    emit_json,
    format_results,
    open_collection,
    parse_weights,
)

__all__ = ["register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``search`` command."""
    p = sub.add_parser("search", parents=[common], help="search an index")
    p.add_argument("query", help="the question or keywords")
    add_collection_options(p)
    add_search_options(p, k_help="number of results", budget=True)
    p.add_argument(
        "--source", action="append", default=[], metavar="NAME", help="only this document (repeatable)"
    )
    p.add_argument(
        "--section", default=None, metavar="TEXT", help="only chunks under a section with this title"
    )
    p.add_argument("--where", default=None, metavar="EXPR", help="raw filter expression (experts)")
    p.add_argument(
        "--rerank",
        action="store_true",
        help="hybrid: re-rank the best 10 by their best two-sentence window (loads the model; slower)",
    )
    p.add_argument(
        "--allow-overlap",
        action="store_true",
        help="keep results that overlap a better result of the same document (default: drop them)",
    )
    p.add_argument("--embedder", default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--backend",
        default=None,
        choices=("torch", "onnx", "onnx-int8", "openvino"),
        help="embed the query with this runtime (default: the one the collection was indexed with)",
    )
    p.set_defaults(handler=run)


def resolve_sources(names: list[str], store: Any) -> list[str]:
    """Map each ``--source`` to the sources as indexed.

    A name matches a source as recorded or displayed, a trailing part of its
    path (a file name), or the path it names from the working directory.

    Raises:
        ConfigError: a name matches no indexed document (the message lists some that exist).
    """
    from pathlib import PurePath

    from sectionrag.errors import ConfigError
    from sectionrag.ingest.sources import display_source, source_matches_name

    indexed = sorted({d.source for d in store.documents()})
    out: list[str] = []
    for name in names:
        matches = [s for s in indexed if source_matches_name(s, name)]
        if not matches:
            shown = ", ".join(PurePath(display_source(s)).name for s in indexed[:10]) or "none"
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


def run(args: argparse.Namespace) -> int:
    """Search and print ranked results."""
    from sectionrag._checks import check_int
    from sectionrag.defaults import DEFAULT_K
    from sectionrag.pipeline import check_query, check_search_options

    check_query(args.query, mode=args.mode)
    if args.k is not None:
        check_int("-k", args.k, minimum=1)
    if args.max_chars is not None:
        check_int("--max-chars", args.max_chars, minimum=1)
    weights = parse_weights(args.weights)
    check_search_options(DEFAULT_K if args.k is None else args.k, args.mode, args.fusion, weights)
    if args.mode == "text":
        _search(args, weights)
        return 0
    from sectionrag.cli._query_helper import QueryHelper
    from sectionrag.cli._sidecar import ModelPreload, write_embedder_hint

    # the hinted model embeds the query in a helper process (else loads in a thread) while
    # lancedb is imported; the recorded embedder decides whether its vector is used
    helper = QueryHelper.start(args) if args.embedder is None else None
    preload = ModelPreload.start(args) if helper is None else None
    try:
        pipe, dimension = _search(args, weights, helper)
    finally:
        if helper is not None:
            helper.close()
        if preload is not None:
            preload.join()
    if args.backend is None and args.embedder is None:  # the recorded embedder: hint it for next time
        write_embedder_hint(args, pipe.embedder, dimension)
    return 0


def _search(
    args: argparse.Namespace, weights: tuple[float, float] | None, helper: Any = None
) -> tuple[Any, int | None]:
    """Open the collection, search and print; return the pipeline and the recorded dimension.

    ``helper``: a :class:`~sectionrag.cli._query_helper.QueryHelper` embedding the query.
    """
    import dataclasses

    from sectionrag.errors import StoreError
    from sectionrag.ingest.sources import display_source

    # with a helper, the model is checked by the helper's vector, or below when it brings none
    pipe = open_collection(args, check=args.mode != "text" and helper is None)
    info = pipe.store.info()
    if info is not None and info.chunks == 0:
        raise StoreError(
            f"collection {args.collection!r} in {args.db} is empty; index documents into it with "
            f"`sectionrag index PATH --db {args.db} --collection {args.collection}`"
        )
    vector = None
    if helper is not None and info is not None:
        vector = helper.vector(pipe.embedder, info.dimension)
    if helper is not None and vector is None:  # no usable vector: the path without a helper
        pipe = open_collection(args, check=True)
    results = pipe.search(
        args.query,
        k=args.k,
        where=build_where(args, pipe.store),
        mode=args.mode,
        fusion=args.fusion,
        weights=weights,
        query_vector=vector,
        rerank=args.rerank,
        allow_overlap=args.allow_overlap,
        max_chars=args.max_chars,
    )
    results = [dataclasses.replace(r, source=display_source(r.source)) for r in results]
    if args.json:
        emit_json({"results": [r.to_dict() for r in results]})
    else:
        print(format_results(results))
    return pipe, None if info is None else info.dimension
