"""Helpers shared by the CLI commands: output, embedder resolution, progress."""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["emit_json", "progress_enabled", "resolve_embedder"]


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout."""
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def progress_enabled() -> bool:
    """Show progress bars only when stderr is a terminal."""
    return sys.stderr.isatty()


def resolve_embedder(name: str | None, *, default: str = "bge-m3", backend: str | None = None) -> Any:
    """Return the embedder for a preset name, model id or local path (lazy import).

    ``backend`` (``torch``, ``onnx``, ``onnx-int8``, ``openvino``) wins over a name's ``@backend``.
    """
    from sectionrag.embedders import get_embedder

    if backend is None:
        return get_embedder(name or default)
    return get_embedder(name or default, backend=backend)


def open_store(db: str, collection: str) -> Any:
    """Open the LanceDB collection ``collection`` in the database directory ``db``."""
    from sectionrag.stores import LanceDBStore

    return LanceDBStore(db, collection=collection)


def embedder_for_store(
    store: Any, requested: str | None, *, default: str = "bge-m3", backend: str | None = None
) -> Any:
    """Pick the embedder for a collection: the requested one, else the one it records.

    A collection that already exists remembers its embedder, backend included,
    so a user need not repeat ``--embedder``; a different one (another model
    or backend) is refused later by the store when vectors are written.
    """
    info = store.info()
    if requested is None and info is not None:
        return resolve_embedder(info.embedder, backend=backend)
    return resolve_embedder(requested, default=default, backend=backend)


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
