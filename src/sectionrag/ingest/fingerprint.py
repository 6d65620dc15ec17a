"""A pipeline's configuration, so that a changed one is noticed (private).

:func:`pipeline_config` describes the stages that decide a source's chunks
and vectors (with :func:`sectionrag._describe.describe`); its
:func:`fingerprint` is recorded with every indexed source, and
:func:`config_changes` says in words what differs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from sectionrag._describe import canonical_json, describe
from sectionrag.parsers import AutoParser

__all__ = ["config_changes", "embedder_key", "fingerprint", "pipeline_config"]


def describe_embedder(embedder: Any) -> dict[str, Any]:
    """Describe an embedder: type, name, dimension and what its ``config()`` or attributes say."""
    out = describe(embedder)
    if not isinstance(out, dict):  # pragma: no cover - embedders are objects
        out = {"type": str(out)}
    out["name"] = str(embedder.name)
    out["dimension"] = int(embedder.dimension)
    return out


def pipeline_config(parser: Any, chunker: Any, enricher: Any, embedder: Any) -> dict[str, Any]:
    """Describe the stages that decide a source's chunks and vectors."""
    return {
        "parser": _describe_parser(parser),
        "chunker": describe(chunker),
        "enricher": None if enricher is None else describe(enricher),
        "embedder": describe_embedder(embedder),
    }


def _describe_parser(parser: Any) -> Any:
    """``"auto"`` for the default AutoParser (as recorded before parsers had a class for it)."""
    if parser is None or (isinstance(parser, AutoParser) and not parser.options):
        return "auto"
    return describe(parser)


def fingerprint(config: Any) -> str:
    """Return a short stable hash of a configuration."""
    return hashlib.sha256(canonical_json(config).encode("utf-8")).hexdigest()[:16]


def embedder_key(embedder: Any) -> str:
    """Identify an embedder for the embedding cache: its name plus a hash of its description."""
    return f"{embedder.name}#{fingerprint(describe_embedder(embedder))}"


def _flatten(data: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(data, dict) and data:
        for key, value in data.items():
            _flatten(value, f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix] = data


def config_changes(old_json: str, new: Mapping[str, Any], *, limit: int = 6) -> list[str]:
    """Say what differs between a recorded configuration (JSON) and ``new``.

    Returns lines such as ``"chunker.size: 64 -> 128"``; an unreadable old record
    gives ``["configuration not recorded"]``.
    """
    try:
        old = json.loads(old_json) if old_json else None
    except ValueError:
        old = None
    if not isinstance(old, dict):
        return ["configuration not recorded"]
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    _flatten(old, "", a)
    _flatten(json.loads(canonical_json(new)), "", b)
    lines = []
    for key in sorted(set(a) | set(b)):
        if a.get(key, "<unset>") != b.get(key, "<unset>"):
            before = json.dumps(a[key]) if key in a else "unset"
            after = json.dumps(b[key]) if key in b else "unset"
            lines.append(f"{key}: {before} -> {after}")
    if len(lines) > limit:
        lines = [*lines[:limit], f"... and {len(lines) - limit} more"]
    return lines
