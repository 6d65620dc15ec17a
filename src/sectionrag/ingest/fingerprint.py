"""A pipeline's configuration, so that a changed one is noticed (private).

:func:`pipeline_config` describes the stages that decide a source's chunks
and vectors (with :func:`sectionrag._describe.describe`); its
:func:`fingerprint` is recorded with every indexed source, and
:func:`config_changes` says in words what differs. :func:`recorded_config`
reads back the configuration a collection was built with, and
:func:`recorded_chunker` builds its chunker again (what the command line uses
when no chunking option is given).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from sectionrag import registry
from sectionrag._describe import canonical_json, describe
from sectionrag.parsers import AutoParser
from sectionrag.protocols import SourceRecord, TokenizerDefault, VectorStore

__all__ = [
    "chunker_settings",
    "config_changes",
    "embedder_key",
    "fingerprint",
    "pipeline_config",
    "read_recorded_config",
    "recorded_chunker",
    "recorded_config",
]


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
    """``"auto"`` for the default AutoParser (as recorded before parsers had a class for it).

    An AutoParser given only secrets (a PDF password) is still the default: secrets
    open files but never change what they parse into.
    """
    if parser is None:
        return "auto"
    described = describe(parser)
    if isinstance(parser, AutoParser) and isinstance(described, dict) and not described.get("options"):
        return "auto"
    return described


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


# -- reading a collection's configuration back --------------------------------------------------


def recorded_config(records: Iterable[SourceRecord]) -> dict[str, Any] | None:
    """Return the configuration most ``records`` were indexed with (the latest on a tie), or ``None``.

    ``None`` when no record holds a readable configuration (an empty
    collection, or a store that keeps no records).
    """
    counts: dict[str, tuple[int, int]] = {}  # config_json -> (sources, latest check)
    for rec in records:
        if rec.config_json:
            n, latest = counts.get(rec.config_json, (0, 0))
            counts[rec.config_json] = (n + 1, max(latest, rec.checked_ns))
    if not counts:
        return None
    try:
        value = json.loads(max(counts, key=lambda k: counts[k]))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def read_recorded_config(store: VectorStore) -> dict[str, Any] | None:
    """Return the configuration ``store``'s collection was built with (see :func:`recorded_config`).

    A store without records (only the VectorStore methods) gives ``None``.
    """
    read = getattr(store, "read_records", None)
    return recorded_config(read()) if callable(read) else None


def _is_object(value: Any) -> bool:
    """Whether a recorded value describes an object (which cannot be built again from its description)."""
    if isinstance(value, dict):
        return "type" in value or any(_is_object(v) for v in value.values())
    if isinstance(value, list):
        return any(_is_object(v) for v in value)
    return False


def chunker_settings(config: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    """Return the registered strategy name and parameters of a recorded chunker, or ``None``.

    ``None`` when the configuration records no built-in-style chunker (one
    whose ``config()`` names its ``strategy``), the strategy is not
    registered, or a parameter is an object (it cannot be built from its
    description). The tokenizer is left out: a pipeline gives its embedder's.
    """
    chunker = None if config is None else config.get("chunker")
    if not isinstance(chunker, dict):
        return None
    strategy = chunker.get("strategy")
    if not isinstance(strategy, str) or registry.find("chunker", strategy) is None:
        return None
    params = {k: v for k, v in chunker.items() if k not in ("type", "strategy", "tokenizer")}
    if any(_is_object(v) for v in params.values()):
        return None
    return strategy, params


def recorded_chunker(config: Mapping[str, Any] | None, embedder: Any) -> Any | None:
    """Build the chunker a configuration records, or return ``None`` if it cannot be built exactly.

    The chunker is built from :func:`chunker_settings`; it is returned only if,
    counting tokens with ``embedder`` (as a pipeline wires it), it describes
    itself exactly as recorded, so indexing with it changes nothing.
    """
    settings = chunker_settings(config)
    if config is None or settings is None:
        return None
    strategy, params = settings
    try:
        chunker = registry.create("chunker", strategy, **params)
        wired = chunker.with_default_tokenizer(embedder) if isinstance(chunker, TokenizerDefault) else chunker
        same = canonical_json(describe(wired)) == canonical_json(config["chunker"])
    except Exception:  # a recorded value the strategy no longer takes: not the same chunker
        return None
    return chunker if same else None
