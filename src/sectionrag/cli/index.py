"""``sectionrag index``: parse, chunk, (enrich), embed and store files."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from sectionrag.cli._common import embedder_for_store, emit_json, open_store, progress_enabled

__all__ = ["register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``index`` command."""
    p = sub.add_parser("index", parents=[common], help="index files or directories into a database")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or directories to index")
    p.add_argument("--db", required=True, help="database directory (created if missing)")
    p.add_argument("--collection", default="default", help="collection name (default: %(default)s)")
    p.add_argument(
        "--embedder",
        default=None,
        help="bge-m3 (default for a new collection), minilm, a model id or a local path; "
        "an existing collection remembers its embedder",
    )
    p.add_argument("--strategy", default="section", help="chunking strategy (default: %(default)s)")
    p.add_argument("--size", type=int, default=None, help="maximum tokens per chunk")
    p.add_argument("--enrich", default="none", help="enrichment: none (default)")
    p.add_argument("--sync", action="store_true", help="delete indexed documents whose source is gone")
    p.add_argument("--include", action="append", default=[], metavar="GLOB", help="only files matching GLOB")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip files matching GLOB")
    p.set_defaults(handler=run)


def build_enricher(mode: str, args: argparse.Namespace) -> Any:
    """Return the enricher for ``--enrich MODE`` (``None`` for ``none``)."""
    from sectionrag.errors import ConfigError

    if mode == "none":
        return None
    raise ConfigError(f"unknown --enrich mode {mode!r}; choose one of: none")


def run(args: argparse.Namespace) -> int:
    """Index the given paths and print a report."""
    import sectionrag
    from sectionrag.pipeline import Pipeline

    started = time.perf_counter()
    store = open_store(args.db, args.collection)
    embedder = embedder_for_store(store, args.embedder)
    params: dict[str, Any] = {"tokenizer": embedder}
    if args.size is not None:
        params["size"] = args.size
    pipe = Pipeline(
        chunker=sectionrag.chunker(args.strategy, **params),
        embedder=embedder,
        store=store,
        enricher=build_enricher(args.enrich, args),
    )
    report = pipe.ingest(
        args.paths,
        sync=args.sync,
        include=args.include,
        exclude=args.exclude,
        progress=progress_enabled() and not args.json,
    )
    if args.json:
        emit_json(report.to_dict())
    else:
        for f in report.failed:
            print(f"failed: {f.source}: {f.error}", file=sys.stderr)
        print(
            f"{len(report.added)} added, {len(report.updated)} updated, {len(report.unchanged)} unchanged, "
            f"{len(report.deleted)} deleted, {len(report.failed)} failed; {report.chunks} chunks "
            f"in {time.perf_counter() - started:.1f} s ({embedder.name} -> {args.db}:{args.collection})"
        )
    return 0 if report.ok else 1
