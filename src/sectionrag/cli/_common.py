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


def resolve_embedder(name: str | None, *, default: str = "bge-m3") -> Any:
    """Return the embedder for a preset name, model id or local path (lazy import)."""
    from sectionrag.embedders import get_embedder

    return get_embedder(name or default)
