"""Describing a pipeline's configuration, so a changed one is noticed (private).

:func:`describe` turns a stage (parser, chunker, enricher, embedder) into
JSON-ready data: an object's own ``config()`` when it has one (every built-in
chunker does), else its public attributes. :func:`pipeline_config` puts the
stages together; its :func:`fingerprint` is recorded with every indexed
source, and :func:`config_changes` says in words what differs.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "config_changes",
    "describe",
    "describe_call",
    "embedder_key",
    "fingerprint",
    "pipeline_config",
]

#: how deep nested objects are described
_MAX_DEPTH = 4
#: attributes that change how fast a stage runs, never what it produces
_VOLATILE = frozenset({"batch_size", "device", "show_progress", "progress", "verbose", "workers"})
#: settings never written into a record (only whether they are set)
_SECRETS = frozenset({"password", "passwd", "secret", "api_key", "apikey", "token", "auth", "credentials"})


def _is_secret(key: str) -> bool:
    k = key.lower()
    return k in _SECRETS or k.endswith(("_password", "_secret", "_token", "_api_key"))


def _value(key: str, value: Any, depth: int) -> Any:
    if _is_secret(key):
        return None if value is None else "<set>"
    return describe(value, depth)


def _type_name(obj: Any) -> str:
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def describe(obj: Any, depth: int = 0) -> Any:
    """Return JSON-ready data that changes when ``obj``'s configuration changes.

    Scalars are returned as they are. An object is described by its type plus
    its own ``config()`` (a mapping) when it has one; else, when it has a
    ``name`` (a model, a tokenizer), by that name; else by its public
    attributes (private ones, speed settings such as ``batch_size`` or
    ``device``, and anything too deep are left out). Secrets (``password``,
    ``api_key`` ...) are recorded only as set or not.
    """
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if depth >= _MAX_DEPTH:
        return _type_name(obj)
    if isinstance(obj, Mapping):
        pairs = sorted(((str(k), v) for k, v in obj.items()), key=lambda kv: kv[0])
        return {k: _value(k, v, depth + 1) for k, v in pairs}
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = sorted(obj, key=repr) if isinstance(obj, (set, frozenset)) else obj
        return [describe(v, depth + 1) for v in items]
    if isinstance(obj, type):
        return f"{obj.__module__}.{obj.__qualname__}"
    out: dict[str, Any] = {"type": _type_name(obj)}
    config = getattr(obj, "config", None)
    if callable(config):
        try:
            value = config()
        except Exception:  # a broken config() must not stop ingestion; fall back below
            value = None
        if isinstance(value, Mapping):
            out.update(describe(value, depth + 1))
            return out
    name = getattr(obj, "name", None)
    if isinstance(name, str):  # a model or tokenizer: its name says which (its counters must not count)
        out["name"] = name
        return out
    for key, value in sorted(getattr(obj, "__dict__", {}).items()):
        if key.startswith("_") or key in _VOLATILE or callable(value):
            continue
        out[key] = _value(key, value, depth + 1)
    return out


def describe_call(obj: Any, params: Mapping[str, Any]) -> dict[str, Any]:
    """Describe ``obj`` by the keyword arguments it was built with, defaults filled in.

    This is what a ``config()`` method can return: it names what the user
    chose (``embedder=None`` stays ``None`` even after a default model was
    loaded lazily), so it is stable across runs.
    """
    values: dict[str, Any] = {}
    try:
        parameters = list(inspect.signature(type(obj).__init__).parameters.values())[1:]
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        parameters = []
    named = set()
    for p in parameters:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        named.add(p.name)
        if p.name in params:
            values[p.name] = params[p.name]
        elif p.default is not p.empty:
            values[p.name] = p.default
    values.update((k, v) for k, v in params.items() if k not in named)  # **kwargs passed through
    return {k: _value(k, v, 1) for k, v in sorted(values.items())}


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
        "parser": "auto" if parser is None else describe(parser),
        "chunker": describe(chunker),
        "enricher": None if enricher is None else describe(enricher),
        "embedder": describe_embedder(embedder),
    }


def canonical_json(data: Any) -> str:
    """Serialise ``data`` deterministically (sorted keys, no spaces)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


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
