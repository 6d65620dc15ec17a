"""Helpers shared by the CLI commands: output, embedder resolution, progress."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

__all__ = ["add_password_options", "emit_json", "password_from", "progress_enabled", "resolve_embedder"]


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout."""
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def progress_enabled() -> bool:
    """Show progress bars only when stderr is a terminal."""
    return sys.stderr.isatty()


def resolve_embedder(name: str | None, *, default: str = "bge-m3") -> Any:
    """Return the embedder for a preset name, model id or local path (lazy import)."""
    from sectionrag.embedders import get_embedder

    return get_embedder(name or default)


def open_store(db: str, collection: str) -> Any:
    """Open the LanceDB collection ``collection`` in the database directory ``db``."""
    from sectionrag.stores import LanceDBStore

    return LanceDBStore(db, collection=collection)


def embedder_for_store(store: Any, requested: str | None, *, default: str = "bge-m3") -> Any:
    """Pick the embedder for a collection: the requested one, else the one it records.

    A collection that already exists remembers its embedder, so a user need not
    repeat ``--embedder``; a different one is refused later by the store.
    """
    info = store.info()
    if requested is None and info is not None:
        return resolve_embedder(info.embedder)
    return resolve_embedder(requested, default=default)


def format_results(results: list[Any], *, width: int = 100) -> str:
    """Render search results as a readable block of text."""
    if not results:
        return "no results"
    lines = []
    for r in results:
        path = " > ".join(r.section_path) or "(no section)"
        pages = ""
        if r.page_start is not None:
            pages = f" p.{r.page_start}" if r.page_start == r.page_end else f" pp.{r.page_start}-{r.page_end}"
        lines.append(f"{r.rank:>2}. {r.score:.4f}  {r.source}{pages}  [{r.start}:{r.end}]")
        lines.append(f"    § {path}")
        snippet = " ".join(r.text.split())
        if len(snippet) > width:
            snippet = snippet[: width - 1].rstrip() + "…"
        lines.append(f"    {snippet}")
    return "\n".join(lines)


def add_password_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--password`` and ``--password-env VAR`` (for encrypted PDFs) to a command."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--password",
        default=None,
        metavar="TEXT",
        help="password of encrypted PDFs (visible to other users in the process list: prefer --password-env)",
    )
    group.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="read the password of encrypted PDFs from the environment variable VAR",
    )


def password_from(args: argparse.Namespace) -> str | None:
    """Return the PDF password given by ``--password`` or ``--password-env`` (``None`` if neither).

    Raises:
        ConfigError: ``--password-env`` names a variable that is not set.
    """
    from sectionrag.errors import ConfigError

    if getattr(args, "password", None) is not None:
        return str(args.password)
    var = getattr(args, "password_env", None)
    if var is None:
        return None
    value = os.environ.get(var)
    if value is None:
        raise ConfigError(f"--password-env: the environment variable {var} is not set")
    return value
