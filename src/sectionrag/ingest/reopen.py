"""Reading a collection's recorded settings and building its stages again (private).

Ingestion records, with every source, a description of the stages that
made its chunks and vectors (:func:`~sectionrag.ingest.fingerprint.pipeline_config`).
:func:`recorded_settings` reads the latest one back; :func:`restore_embedder`
and :func:`restore_stage` build the embedder, chunker, enricher and parser it
describes, through the registry, so that a pipeline reopened on the collection
(:meth:`sectionrag.Pipeline.open`) searches with the same model and indexes
new files the way the old ones were.

A stage is built from its description by the class it names (a class of the
``sectionrag`` package, or the target of a registered name) and the recorded
constructor arguments it accepts. A stage that cannot be built here (an LLM
enricher needs its client and key, which are never recorded) is replaced by
an :class:`Unrestored` stand-in: it describes itself as the recorded stage, so
unchanged sources stay unchanged, and it raises :class:`ConfigError` with the
way out when it would have to work.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sectionrag import registry
from sectionrag.errors import (
    ConfigError,
    EmbedderMismatchError,
    EmbeddingError,
    MissingDependencyError,
    ModelNotAvailableError,
)
from sectionrag.ingest.fingerprint import read_recorded_config, recorded_chunker
from sectionrag.protocols import Embedder, VectorStore
from sectionrag.types import Chunk, Document

__all__ = [
    "RecordedSettings",
    "Unrestored",
    "recorded_settings",
    "restore_embedder",
    "restore_stage",
    "same_model",
]

Role = Literal["parser", "chunker", "enricher"]

#: keys of an embedder description that are not constructor arguments
_EMBEDDER_KEYS = frozenset({"type", "name", "dimension"})
#: the package whose classes a description may name directly (other classes must be registered)
_PACKAGE = "sectionrag."
#: how a secret setting is recorded (see sectionrag._describe)
_SECRET = "<set>"


@dataclass(frozen=True, slots=True)
class RecordedSettings:
    """What a collection records about how it was built.

    Attributes:
        collection: The collection's name.
        embedder: The embedder name the collection records (its schema).
        dimension: The vector length it records.
        config: The pipeline configuration most of its sources were indexed with
            (``parser``, ``chunker``, ``enricher``, ``embedder`` descriptions), or
            ``None`` when the store keeps no records or none was written yet.
        chunks: Chunks in the collection.
    """

    collection: str
    embedder: str
    dimension: int
    config: Mapping[str, Any] | None
    chunks: int


def recorded_settings(store: VectorStore) -> RecordedSettings | None:
    """Return the settings ``store``'s collection was built with, or ``None`` if it does not exist.

    The configuration is the one most of its sources were indexed with (see
    :func:`~sectionrag.ingest.fingerprint.read_recorded_config`); a store that
    keeps no records (only the :class:`~sectionrag.protocols.VectorStore`
    methods) gives the embedder's name and dimension only.
    """
    info = store.info()
    if info is None:
        return None
    config = read_recorded_config(store)
    return RecordedSettings(info.name, info.embedder, info.dimension, config, info.chunks)


def same_model(a: str, b: str) -> bool:
    """Whether two recorded embedder names name one model (whatever backend runs it: ``m@onnx``, ``m``)."""
    from sectionrag.embedders._backends import split_name

    return a == b or split_name(a)[0] == split_name(b)[0]


# -- building things again from their descriptions ---------------------------------


def _type_name(target: Any) -> str:
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        return f"{module}.{attr}"
    return f"{getattr(target, '__module__', '')}.{getattr(target, '__qualname__', '')}"


def _factory(type_name: str, kinds: Sequence[str]) -> Callable[..., Any]:
    """Return the class a description names: in the sectionrag package, or a registered target.

    Raises:
        ConfigError: the class is neither (nothing else is imported on a record's word).
    """
    if type_name.startswith(_PACKAGE):
        module, _, attr = type_name.rpartition(".")
        try:
            found = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            found = None
        if callable(found):
            return found  # type: ignore[no-any-return]
    for kind in kinds:
        for name in registry.names(kind):
            entry = registry.find(kind, name, plugins=False)
            if entry is not None and not entry.params and _type_name(entry.target) == type_name:
                return entry.load()
    raise ConfigError(f"{type_name} is not a sectionrag class or the target of a registered name")


def _parameters(factory: Callable[..., Any]) -> tuple[set[str], bool]:
    """Return the keyword parameters ``factory`` takes and whether it takes ``**kwargs``."""
    try:
        params = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return set(), False
    named = {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    return named, any(p.kind is p.VAR_KEYWORD for p in params)


def _same_embedder(description: Mapping[str, Any], recorded: Mapping[str, Any]) -> bool:
    """Whether a nested description describes the pipeline's embedder (as recorded)."""
    if not recorded or description.get("type") != recorded.get("type"):
        return False
    keys = set(description) - _EMBEDDER_KEYS
    return all(description.get(k) == recorded.get(k) for k in keys) and (
        description.get("name", recorded.get("name")) == recorded.get("name")
    )


def _argument(key: str, value: Any, embedder: Embedder, recorded_embedder: Mapping[str, Any]) -> Any:
    """Turn a recorded value back into a constructor argument."""
    if value == _SECRET:
        raise ConfigError(f"the setting {key!r} is a secret, which collections never record")
    if isinstance(value, Mapping) and "type" in value:
        if _same_embedder(value, recorded_embedder):
            return embedder  # the embedder (say, a chunker's tokenizer): the very same object
        return _build(value, embedder, recorded_embedder, kinds=registry.KINDS)
    if key == "embedder" and isinstance(value, str):  # an embedder recorded by its name
        if value == embedder.name:
            return embedder
        from sectionrag.embedders import get_embedder

        return get_embedder(value)
    return value


def _build(
    description: Mapping[str, Any],
    embedder: Embedder,
    recorded_embedder: Mapping[str, Any],
    *,
    kinds: Sequence[str],
) -> Any:
    """Build the object ``description`` describes (its class called with the recorded arguments)."""
    type_name = description.get("type")
    if not isinstance(type_name, str):
        raise ConfigError("the description names no class")
    factory = _factory(type_name, kinds)
    named, var_keyword = _parameters(factory)
    kwargs: dict[str, Any] = {}
    for key, value in description.items():
        if key == "type":
            continue
        # a key the constructor does not take, or a class attribute that describes the class
        # (a chunker's ``strategy``), is no argument
        if key not in named and (not var_keyword or getattr(factory, key, _MISSING) == value):
            continue
        kwargs[key] = _argument(key, value, embedder, recorded_embedder)
    try:
        return factory(**kwargs)
    except TypeError as e:
        raise ConfigError(f"{type_name} does not accept the recorded settings: {e}") from e


_MISSING = object()


class Unrestored:
    """Stands in for a recorded stage that cannot be built again here.

    It describes itself exactly as the recorded stage (so sources indexed
    with it stay unchanged and are not indexed again), and raises
    :class:`~sectionrag.errors.ConfigError` saying what to pass instead when
    it would have to parse, chunk or enrich.

    Args:
        role: ``parser``, ``chunker`` or ``enricher``.
        description: The recorded description.
        reason: Why it could not be built.
    """

    def __init__(self, role: Role, description: Mapping[str, Any], reason: str) -> None:
        self.role: Role = role
        self.description = dict(description)
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unrestored({self.role!r}, {self.description.get('type')!r})"

    def config(self) -> dict[str, Any]:
        """Return the recorded description (its ``type`` included)."""
        return dict(self.description)

    def _refuse(self) -> ConfigError:
        what = self.description.get("type", "?")
        return ConfigError(
            f"this collection's {self.role} ({what}) cannot be built again here ({self.reason}); "
            f"pass {self.role}=... to Pipeline.open (on the command line, the {self.role}'s options) "
            "to index into it; searching needs no " + self.role
        )

    def parse(self, source: Any, *, name: str | None = None) -> Document:
        """Refuse: the recorded parser is not available."""
        raise self._refuse()

    def chunk(self, document: Document) -> list[Chunk]:
        """Refuse: the recorded chunker is not available."""
        raise self._refuse()

    def enrich(self, chunks: Sequence[Chunk], document: Document) -> list[Chunk]:
        """Refuse: the recorded enricher is not available."""
        raise self._refuse()


def restore_stage(
    role: Role,
    description: Any,
    embedder: Embedder,
    recorded_embedder: Mapping[str, Any] | None = None,
) -> Any:
    """Build the ``role`` stage a collection records, or an :class:`Unrestored` stand-in.

    Args:
        role: ``parser``, ``chunker`` or ``enricher``.
        description: The recorded description (``None``: no enricher; ``"auto"``:
            the automatic parser).
        embedder: The pipeline's embedder, given wherever the record names it
            (a chunker's tokenizer, a semantic chunker's similarity model).
        recorded_embedder: The recorded description of that embedder.
    """
    if description is None:
        return None
    if role == "parser" and description == "auto":
        from sectionrag.parsers import AutoParser

        return AutoParser()
    if not isinstance(description, Mapping):
        return Unrestored(role, {"type": str(description)}, "the record is not a description")
    if role == "chunker":  # a registered strategy, built so that it describes itself exactly as recorded
        exact = recorded_chunker({"chunker": dict(description)}, embedder)
        if exact is not None:
            return exact
    try:
        return _build(description, embedder, recorded_embedder or {}, kinds=(role,))
    except (ConfigError, MissingDependencyError, EmbeddingError) as e:
        return Unrestored(role, description, " ".join(str(e).split()))


def _embedder_factory(name: str) -> tuple[Callable[..., Any], Mapping[str, Any], bool]:
    """Return what :func:`~sectionrag.embedders.get_embedder` builds ``name`` with.

    Returns ``(factory, bound parameters, whether the name is passed as the model)``.
    """
    entry = registry.find("embedder", name, plugins="/" not in name and "\\" not in name)
    if entry is not None:
        return entry.load(), entry.params, False
    from sectionrag.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder, {}, True


def restore_embedder(
    settings: RecordedSettings, *, backend: str | None = None, check: bool = True
) -> Embedder:
    """Build the embedder a collection records, by its name, with its recorded options.

    The options (``normalize`` ...) are the recorded description's keys that
    the embedder's constructor accepts; the backend is the one the name
    records (``model@openvino``), unless ``backend`` names another.

    Args:
        settings: What :func:`recorded_settings` read.
        backend: Run the recorded model on this backend (``torch``, ``onnx``,
            ``onnx-int8``, ``openvino``) instead of the recorded one.
        check: Also make sure the model can be loaded here and gives vectors of
            the recorded length (for a packaged or cached model this reads its
            configuration only; weights are loaded on the first embedding).

    Raises:
        ModelNotAvailableError: the embedder cannot be built or loaded here (its
            ``model`` attribute names it).
        ConfigError: an unknown ``backend``.
        EmbedderMismatchError: it gives vectors of another length than recorded.
    """
    from sectionrag.embedders import get_embedder

    name = settings.embedder
    recorded = dict((settings.config or {}).get("embedder") or {})
    if backend is not None:  # an unknown backend is the caller's mistake, not a missing model
        from sectionrag.embedders._backends import parse_spec

        parse_spec(backend)
    try:
        factory, bound, name_is_model = _embedder_factory(name)
        named, var_keyword = _parameters(factory)
        options = {
            k: v
            for k, v in recorded.items()
            if k not in _EMBEDDER_KEYS
            and k not in bound
            and not (name_is_model and k == "model")
            and (k in named or var_keyword)
            and v != _SECRET
        }
        if backend is not None:
            options["backend"] = backend
        embedder = get_embedder(name, **options)
        dimension = embedder.dimension if check else settings.dimension
    except (ModelNotAvailableError, MissingDependencyError, EmbeddingError, ConfigError) as e:
        raise ModelNotAvailableError(
            f"collection {settings.collection!r} was built with the embedder {name!r}, which cannot be "
            f"loaded here: {' '.join(str(e).split())} (pass embedder=... to use it with a model you have, "
            "or register the embedder under its name)",
            model=name,
        ) from e
    if dimension != settings.dimension:
        raise EmbedderMismatchError(
            f"collection {settings.collection!r} records {settings.dimension}-dimensional vectors of "
            f"{name!r}, but that embedder gives {dimension} dimensions here"
        )
    return embedder
