"""``sectionrag mcp``: serve one collection to an AI assistant over MCP (stdio)."""

from __future__ import annotations

import argparse
from typing import Any

from sectionrag.cli._common import add_collection_options, storage_options
from sectionrag.defaults import DEFAULT_EMBEDDER

__all__ = ["register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``mcp`` command."""
    p = sub.add_parser(
        "mcp",
        parents=[common],
        help="serve a collection to an AI assistant over MCP (stdio)",
        description="Run an MCP server over stdio with the tools index, search, outline, read_section "
        "and list_documents on one collection (needs sectionrag[mcp]). The collection's model is "
        "loaded once, as the server starts. Point an MCP client (Claude Desktop, an IDE) at "
        "`sectionrag mcp --db DIR`; see docs/integrations.md.",
    )
    add_collection_options(p, db_help="database directory (created by the first index call if missing)")
    p.add_argument(
        "--embedder",
        default=None,
        help=f"embedder of a new collection (default: {DEFAULT_EMBEDDER}); an existing one keeps its own",
    )
    p.add_argument(
        "--backend",
        default=None,
        choices=("torch", "onnx", "onnx-int8", "openvino"),
        help="embedding runtime (default: the one the collection records; for a new one, the preset's)",
    )
    p.add_argument(
        "--no-preload",
        dest="preload",
        action="store_false",
        help="load the model on the first call that needs it instead of at start",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until the client disconnects."""
    from sectionrag.integrations.mcp import serve

    serve(
        args.db,
        args.collection,
        store=args.store,
        embedder=args.embedder,
        backend=args.backend,
        preload=args.preload,
        storage_options=storage_options(args) or None,
    )
    return 0
