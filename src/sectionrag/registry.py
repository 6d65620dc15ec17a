"""The one registry of stage names: parsers, chunkers, embedders, stores and enrichers.

A name maps to a *target*: a class or factory, or its import path as a
string (``"package.module:Class"``) imported on first use, so registering
costs nothing and ``import sectionrag`` stays light. The command line, the
top-level helpers (:func:`sectionrag.chunker`, :func:`sectionrag.parse`) and
:class:`~sectionrag.pipeline.Pipeline` all build stages from here, so a
plug-in is one call::

    import sectionrag

    sectionrag.register("chunker", "by-line", "my_package.chunking:LineChunker")
    sectionrag.register("parser", "docx", "my_package.docx:DocxParser", extensions=[".docx"])
    sectionrag.register("embedder", "my-model", "my_package.models:MyEmbedder")

How each kind is built:

- ``chunker``: ``target(**params)``; the built-in strategies take ``size`` and
  ``tokenizer``, and a pipeline gives a chunker built without a tokenizer the
  embedder's (see :class:`~sectionrag.protocols.TokenizerDefault`).
- ``parser``: ``target(**options)``; ``extensions`` (``".docx"``) make
  :class:`~sectionrag.parsers.AutoParser` and directory ingestion pick it for
  those files; options are those its constructor accepts.
- ``embedder``: ``target(**options)``; a name that is not registered is taken
  as a sentence-transformers model id or a local model path. A collection
  records its embedder's ``name``, and searching it builds the embedder again
  from that name: an embedder whose ``name`` is its registered name is found
  again.
- ``store``: ``target(path, collection=name, **options)`` (``--db PATH``).
- ``enricher``: ``target(**options)``.

Plug-ins for the command line. A package declares an entry point in the
group ``sectionrag.plugins`` (a module whose import calls :func:`register`,
or a function that does), or a user lists modules in the
``SECTIONRAG_PLUGINS`` environment variable (comma-separated). Both are
loaded the first time a name or a file extension is not found (or by
:func:`load_plugins`); built-in names never read them.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any, Literal, get_args

from sectionrag.errors import ConfigError

__all__ = [
    "KINDS",
    "PLUGIN_ENV",
    "PLUGIN_GROUP",
    "Entry",
    "Kind",
    "create",
    "entry",
    "find",
    "load_plugins",
    "lookup",
    "names",
    "parser_extensions",
    "parser_for_extension",
    "register",
    "unregister",
]

Kind = Literal["parser", "chunker", "embedder", "store", "enricher"]
#: the kinds of stage a name can stand for
KINDS: tuple[Kind, ...] = get_args(Kind)
#: entry-point group whose entries are loaded as plug-ins
PLUGIN_GROUP = "sectionrag.plugins"
#: environment variable listing plug-in modules (comma-separated)
PLUGIN_ENV = "SECTIONRAG_PLUGINS"

_LABELS = {
    "parser": "parser",
    "chunker": "chunking strategy",
    "embedder": "embedder",
    "store": "store",
    "enricher": "enricher",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One registered name.

    Attributes:
        kind: ``parser``, ``chunker``, ``embedder``, ``store`` or ``enricher``.
        name: The name users pass (``--strategy NAME``, ``sectionrag.chunker(NAME)``).
        target: The class or factory, or its import path ``"module:attr"``.
        params: Keyword arguments bound to the target (a preset of a more general class).
        extensions: File extensions (lower case, with the dot) a parser handles.
    """

    kind: Kind
    name: str
    target: str | Callable[..., Any]
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    extensions: tuple[str, ...] = ()

    def load(self) -> Callable[..., Any]:
        """Return the target, importing it first when it is given as ``"module:attr"``.

        Raises:
            ConfigError: the import path is malformed or cannot be imported.
        """
        if not isinstance(self.target, str):
            return self.target
        module_name, _, attr = self.target.partition(":")
        try:
            loaded: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as e:
            raise ConfigError(
                f"{_LABELS[self.kind]} {self.name!r} is registered as {self.target!r}, "
                f"which cannot be imported: {e}"
            ) from e
        return loaded


_ENTRIES: dict[str, dict[str, Entry]] = {kind: {} for kind in KINDS}
_LOCK = threading.RLock()
_LOADED_PLUGINS: set[str] = set()
_ENTRY_POINTS = "<entry points>"


def _check_kind(kind: str) -> Kind:
    if kind not in _ENTRIES:
        raise ConfigError(f"unknown kind of stage {kind!r}; choose one of: {', '.join(KINDS)}")
    return kind  # type: ignore[return-value]


def _check_target(target: Any) -> None:
    if isinstance(target, str):
        module_name, colon, attr = target.partition(":")
        if not (module_name and colon and attr):
            raise ConfigError(f"a target given as a string must read 'package.module:attr', not {target!r}")
    elif not callable(target):
        raise TypeError(f"target must be a class, a factory or 'module:attr', not {type(target).__name__}")


def register(
    kind: str,
    name: str,
    target: str | Callable[..., Any],
    *,
    extensions: Iterable[str] = (),
    params: Mapping[str, Any] | None = None,
    replace: bool = False,
) -> None:
    """Make ``name`` build a stage of ``kind`` with ``target``.

    Args:
        kind: ``parser``, ``chunker``, ``embedder``, ``store`` or ``enricher``.
        name: The name to use (``sectionrag chunk --strategy NAME``, ``sectionrag.chunker(NAME)``).
        target: A class or factory, or its import path ``"package.module:attr"``
            (imported on first use).
        extensions: For a parser, the file extensions it handles (``".docx"``).
        params: Keyword arguments bound to the target (caller's arguments win).
        replace: Replace an existing registration of ``name`` (otherwise that is an error).

    Raises:
        ConfigError: unknown kind, empty name, malformed target, or ``name`` taken.
    """
    checked = _check_kind(kind)
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise ConfigError(f"a {_LABELS[checked]} name must be a non-empty string without surrounding spaces")
    _check_target(target)
    exts = tuple(_extension(e) for e in extensions)
    if exts and checked != "parser":
        raise ConfigError("only a parser takes extensions")
    new = Entry(checked, name, target, MappingProxyType(dict(params or {})), exts)
    with _LOCK:
        old = _ENTRIES[checked].get(name)
        if old is not None and not replace and old != new:
            raise ConfigError(
                f"{_LABELS[checked]} {name!r} is already registered (as {old.target!r}); "
                "pass replace=True to replace it"
            )
        _ENTRIES[checked][name] = new


def unregister(kind: str, name: str) -> None:
    """Remove the registration of ``name`` (nothing happens if there is none)."""
    with _LOCK:
        _ENTRIES[_check_kind(kind)].pop(name, None)


def _extension(ext: str) -> str:
    if not isinstance(ext, str) or not ext.strip(". "):
        raise ConfigError(f"a file extension must be a string such as '.docx', not {ext!r}")
    ext = ext.strip().lower()
    return ext if ext.startswith(".") else f".{ext}"


def find(kind: str, name: str, *, plugins: bool = True) -> Entry | None:
    """Return the entry of ``name``, or ``None``.

    When ``name`` is not registered and ``plugins`` is true, the plug-ins not
    loaded yet are loaded first (reading the entry points costs a fraction
    of a second, once per process).
    """
    checked = _check_kind(kind)
    found = _ENTRIES[checked].get(name)
    if found is None and plugins and load_plugins():
        found = _ENTRIES[checked].get(name)
    return found


def entry(kind: str, name: str) -> Entry:
    """Return the entry of ``name``.

    Raises:
        ConfigError: ``name`` is not registered (the message lists the names that are).
    """
    found = find(kind, name)
    if found is None:
        raise ConfigError(f"unknown {_LABELS[_check_kind(kind)]} {name!r}; choose one of: {_choices(kind)}")
    return found


def lookup(kind: str, name: str) -> Callable[..., Any]:
    """Return the class or factory registered as ``name`` (imported on first use).

    Raises:
        ConfigError: ``name`` is not registered or its target cannot be imported.
    """
    return entry(kind, name).load()


def create(kind: str, name: str, /, *args: Any, **params: Any) -> Any:
    """Build the stage registered as ``name``: ``target(*args, **{**bound params, **params})``.

    Raises:
        ConfigError: unknown name, or parameters the target does not accept.
        TypeError: a parameter of the wrong type, as the target itself reports it.
    """
    found = entry(kind, name)
    factory = found.load()
    merged = {**found.params, **params}
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a callable without a readable signature: let it decide
        signature = None
    if signature is not None:
        try:
            signature.bind(*args, **merged)
        except TypeError as e:
            given = ", ".join(sorted(params)) or "none"
            raise ConfigError(
                f"invalid parameters for {_LABELS[found.kind]} {name!r} (options given: {given}): {e}"
            ) from e
    # the target's own checks (a wrong type raises TypeError, a bad value ConfigError) pass through
    return factory(*args, **merged)


def names(kind: str) -> list[str]:
    """Return the registered names of ``kind``, sorted (plug-ins loaded first)."""
    checked = _check_kind(kind)
    load_plugins()
    with _LOCK:
        return sorted(_ENTRIES[checked])


def _choices(kind: str) -> str:
    return ", ".join(names(kind)) or "none"


def parser_extensions() -> dict[str, str]:
    """Return ``{extension: parser name}`` over the registered parsers (plug-ins loaded first)."""
    load_plugins()
    return _extensions()


def parser_for_extension(extension: str) -> str | None:
    """Return the parser registered for ``extension`` (``".md"``), loading the plug-ins only on a miss."""
    ext = extension.lower()
    found = _extensions().get(ext)
    if found is None and load_plugins():
        found = _extensions().get(ext)
    return found


def _extensions() -> dict[str, str]:
    with _LOCK:
        parsers = list(_ENTRIES["parser"].values())
    return {ext: e.name for e in parsers for ext in e.extensions}


# -- plug-ins ----------------------------------------------------------------------


def _plugin_modules() -> list[str]:
    raw = os.environ.get(PLUGIN_ENV, "")
    return [m.strip() for m in raw.replace(os.pathsep, ",").split(",") if m.strip()]


def _run_plugin(label: str, load: Callable[[], Any]) -> None:
    try:
        loaded = load()
        if callable(loaded) and not isinstance(loaded, ModuleType):
            loaded()
    except Exception as e:
        raise ConfigError(f"sectionrag plug-in {label} failed to load: {type(e).__name__}: {e}") from e


def load_plugins() -> list[str]:
    """Load the plug-ins not loaded yet; return their labels.

    Plug-ins are the modules listed in ``$SECTIONRAG_PLUGINS`` (comma-separated)
    and the entry points of the group ``sectionrag.plugins``. An entry point
    may name a module (importing it registers its stages) or a function
    (called with no arguments). Each is loaded once per process.

    Raises:
        ConfigError: a plug-in cannot be imported or fails while registering.
    """
    todo: list[tuple[str, Callable[[], Any]]] = []
    for module in _plugin_modules():
        label = f"{module!r} (from ${PLUGIN_ENV})"
        todo.append((label, functools.partial(importlib.import_module, module)))
    if _ENTRY_POINTS not in _LOADED_PLUGINS:
        from importlib.metadata import entry_points

        _LOADED_PLUGINS.add(_ENTRY_POINTS)
        for ep in entry_points(group=PLUGIN_GROUP):
            todo.append((f"{ep.name!r} (entry point {ep.value!r})", ep.load))
    done: list[str] = []
    for label, load in todo:
        with _LOCK:
            if label in _LOADED_PLUGINS:
                continue
            _LOADED_PLUGINS.add(label)
        _run_plugin(label, load)
        done.append(label)
    return done


# -- the built-in stages --------------------------------------------------------------

for _name, _target in (
    ("fixed", "sectionrag.chunkers.fixed:FixedChunker"),
    ("overlap", "sectionrag.chunkers.overlap:OverlapChunker"),
    ("paragraph", "sectionrag.chunkers.paragraph:ParagraphChunker"),
    ("sentence", "sectionrag.chunkers.sentence:SentenceChunker"),
    ("recursive", "sectionrag.chunkers.recursive:RecursiveChunker"),
    ("semantic", "sectionrag.chunkers.semantic:SemanticChunker"),
    ("section", "sectionrag.chunkers.section:SectionChunker"),
):
    register("chunker", _name, _target)

register("parser", "text", "sectionrag.parsers.text:TextParser", extensions=(".txt", ".text"))
register(
    "parser",
    "markdown",
    "sectionrag.parsers.markdown:MarkdownParser",
    extensions=(".md", ".markdown", ".mdown", ".mkd"),
)
register("parser", "rst", "sectionrag.parsers.rst:RstParser", extensions=(".rst", ".rest"))
register("parser", "html", "sectionrag.parsers.html:HtmlParser", extensions=(".html", ".htm", ".xhtml"))
register("parser", "pdf", "sectionrag.parsers.pdf:PdfParser", extensions=(".pdf",))

_ST = "sectionrag.embedders.sentence_transformers:SentenceTransformerEmbedder"
register("embedder", "bge-m3", _ST, params={"model": "bge-m3"})
register("embedder", "minilm", _ST, params={"model": "minilm"})
register("embedder", "static", "sectionrag.embedders.static:get_static_embedder")

register("store", "lancedb", "sectionrag.stores.lancedb:LanceDBStore")

register("enricher", "extractive", "sectionrag.enrich.extractive:ExtractiveEnricher")
register("enricher", "llm", "sectionrag.enrich.llm:LLMEnricher")
