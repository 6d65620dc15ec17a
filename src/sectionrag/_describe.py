"""Describing a stage's configuration as JSON-ready data (shared by the stages and ingestion).

:func:`describe` turns a stage (parser, chunker, enricher, embedder) into
data that changes when its configuration changes: the object's own
``config()`` when it has one, else its public attributes.
:func:`describe_call` is what a ``config()`` can return: the arguments the
object was built with. Ingestion records these descriptions with every
indexed source to notice a changed configuration.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["canonical_json", "describe", "describe_call"]

#: how deep nested objects are described
_MAX_DEPTH = 4
#: attributes that change how fast a stage runs, never what it produces
_VOLATILE = frozenset({"batch_size", "device", "show_progress", "progress", "verbose", "workers"})
#: settings never written into a record: they open a file or a service but do not change
#: what a stage produces, so setting or changing one never counts as a new configuration
_SECRETS = frozenset({"password", "passwd", "secret", "api_key", "apikey", "token", "auth", "credentials"})


def _is_secret(key: str) -> bool:
    k = key.lower()
    return k in _SECRETS or k.endswith(("_password", "_secret", "_token", "_api_key"))


def _described(items: Any, depth: int) -> dict[str, Any]:
    """Describe ``(key, value)`` pairs, leaving secrets out."""
    return {k: describe(v, depth) for k, v in items if not _is_secret(k)}


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
    ``api_key`` ...) are left out too.
    """
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if depth >= _MAX_DEPTH:
        return _type_name(obj)
    if isinstance(obj, Mapping):
        pairs = sorted(((str(k), v) for k, v in obj.items()), key=lambda kv: kv[0])
        return _described(pairs, depth + 1)
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
    public = (
        (key, value)
        for key, value in sorted(getattr(obj, "__dict__", {}).items())
        if not (key.startswith("_") or key in _VOLATILE or callable(value))
    )
    out.update(_described(public, depth + 1))
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
    return _described(sorted(values.items()), 1)


def canonical_json(data: Any) -> str:
    """Serialise ``data`` deterministically (sorted keys, no spaces)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
