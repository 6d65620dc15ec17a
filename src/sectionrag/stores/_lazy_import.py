"""Importing lancedb without running the bodies of packages only its REST clients use (private).

``import lancedb`` imports ``lance_namespace``, which imports model classes
from ``lance_namespace_urllib3_client``; the package's ``__init__`` also
builds every API class of the Lance REST namespace client (pydantic-validated
methods by the hundred). That body alone took about 1 s of CPU of the ~2 s
``import lancedb`` cost on the 2-core machine this was measured on, and a
local database never calls it.

:func:`defer_package_body` puts the package in ``sys.modules`` with its
``__path__`` set but its ``__init__`` not yet run, so its submodules (the
models) import as usual; the body runs the first time one of the package's
own names is looked up (``lance_namespace_urllib3_client.ApiClient``), so
code that does use the REST client works unchanged, only later. If anything
about the package is unexpected, nothing is deferred.

:func:`namespace_models_deferred` does the same for ``lance_namespace``
itself, whose ``__init__`` imports all 146 model modules of that client (a
pydantic class each, about 0.3 s of CPU) to re-export them: while lancedb is
imported, the few models lancedb takes by name are imported from their own
modules (the very classes the package re-exports; the models package's own
body, which imports them all, is deferred too), its ``connect`` is a
function calling the package's own, and its ``LanceNamespace``, which lancedb
only names in annotations, a class whose ``isinstance`` and ``issubclass``
answer as the real one. The package's body runs on the first other name, or
on any name once lancedb is imported, so every other user gets the real
package. If either package's ``__init__`` is not of the expected shape,
nothing is deferred.

:func:`pandas_hidden` is for short-lived processes that never hand pandas
objects to pyarrow or lancedb (the command line): importing ``pyarrow.dataset``
imports pandas (about 0.6 s of the rest, only to learn that it exists);
inside the block ``import pandas`` fails, so pyarrow and lancedb take it as
not installed. Afterwards it imports again, and pyarrow's conversions that
need it (``to_pandas``) import it then; only its checks of whether an object
is a DataFrame keep answering no, which is why a library process never hides it.

:func:`overrides_as_markers` is for Python before 3.12, where lancedb checks
every method it marks with the ``overrides`` package's ``@override`` when
its classes are created (about a fifth of the cost of ``import lancedb``); on
3.12 and later lancedb itself takes ``typing.override``, a marker that checks
nothing, and an empty ``EnforceOverrides``. Inside the block lancedb gets the
same: a stand-in ``overrides`` module with a marker ``override`` and an empty
``EnforceOverrides``; any other name of it loads the real package. Afterwards
``import overrides`` gives the real package again.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

from sectionrag._hidden_imports import modules_hidden

__all__ = [
    "DEFERRED_PACKAGES",
    "NAMESPACE_PACKAGES",
    "defer_package_body",
    "hide_pandas",
    "namespace_models_deferred",
    "overrides_as_markers",
    "pandas_hidden",
]

#: packages whose ``__init__`` body is run on first use of one of its names
DEFERRED_PACKAGES = ("lance_namespace_urllib3_client",)

#: set by the command line (:func:`hide_pandas`): import lancedb with pandas hidden
_HIDE_PANDAS = [False]


def hide_pandas(hide: bool = True) -> None:
    """Ask :func:`pandas_hidden` to hide pandas while lancedb is imported in this process."""
    _HIDE_PANDAS[0] = hide


@contextlib.contextmanager
def pandas_hidden() -> Iterator[None]:
    """Make ``import pandas`` fail inside the block, when :func:`hide_pandas` asked and pandas is not in."""
    if not _HIDE_PANDAS[0] or "pandas" in sys.modules:
        yield
        return
    with modules_hidden("pandas", why="hidden while lancedb is imported"):
        yield


def defer_package_body(name: str) -> bool:
    """Register package ``name`` with its ``__init__`` body deferred; return whether it was.

    Nothing happens (``False``) when the package is imported already, is not
    installed, or is not a plain package on disk.
    """
    if name in sys.modules:
        return False
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    loader = getattr(spec, "loader", None) if spec is not None else None
    if spec is None or loader is None or not spec.submodule_search_locations or spec.origin is None:
        return False
    _install_deferred(name, spec)
    return True


#: what an ``answer`` of :func:`_install_deferred` returns for a name it leaves to the real body
_NO_ANSWER = object()


def _install_deferred(
    name: str, spec: Any, answer: Callable[[str], Any] | None = None
) -> Callable[[], types.ModuleType]:
    """Put package ``name`` in ``sys.modules`` with its body not yet run; return the function that runs it.

    The body runs (once, under a lock) on the first name looked up on the
    package, unless ``answer(attr)`` gives that name's value first (anything
    but :data:`_NO_ANSWER`; asked only while the body has not run).
    """
    loader = spec.loader
    module = importlib.util.module_from_spec(spec)
    lock = threading.RLock()

    def load() -> types.ModuleType:
        with lock:
            if module.__dict__.get("__getattr__") is hook:
                del module.__dict__["__getattr__"]
                loader.exec_module(module)
        return module

    def __getattr__(attr: str) -> Any:
        if answer is not None and module.__dict__.get("__getattr__") is hook:
            value = answer(attr)
            if value is not _NO_ANSWER:
                return value
        load()
        try:
            return module.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    hook = __getattr__
    module.__dict__["__getattr__"] = hook
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:  # as the import system binds a submodule it loads
        setattr(sys.modules[parent], child, module)
    return load


def _marker_overrides() -> types.ModuleType:
    """Return a stand-in ``overrides`` module: what lancedb takes on Python 3.12+ (see above)."""
    module = types.ModuleType("overrides", "sectionrag's stand-in: override marks, EnforceOverrides is empty")

    class EnforceOverrides:
        """Checks nothing (lancedb's own choice where ``typing.override`` exists)."""

    def override(method: Any = None, **_: Any) -> Any:
        """Mark ``method`` as overriding (``__override__ = True``), as ``typing.override`` does."""
        if method is None:  # @override(check_signature=False)
            return override

        with contextlib.suppress(AttributeError, TypeError):
            method.__override__ = True
        return method

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # the import system asking whether it is a package (it is not)
            raise AttributeError(name)
        # another name: the real package, from now on for everyone
        if sys.modules.get("overrides") is module:
            del sys.modules["overrides"]
        return getattr(importlib.import_module("overrides"), name)

    module.EnforceOverrides = EnforceOverrides  # type: ignore[attr-defined]
    module.override = override  # type: ignore[attr-defined]
    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


@contextlib.contextmanager
def overrides_as_markers(version: tuple[int, ...] | None = None) -> Iterator[None]:
    """Give ``import overrides`` the stand-in inside the block (Python before 3.12, when not imported yet).

    ``version``: the Python version to act for (default: this one).
    """
    if (version or sys.version_info) >= (3, 12) or "overrides" in sys.modules:
        yield
        return
    try:
        installed = importlib.util.find_spec("overrides") is not None
    except (ImportError, ValueError):
        installed = False
    if not installed:  # nothing to stand in for: lancedb says itself what it misses
        yield
        return
    stand_in = _marker_overrides()
    sys.modules["overrides"] = stand_in
    try:
        yield
    finally:
        if sys.modules.get("overrides") is stand_in:
            del sys.modules["overrides"]


# -- lance_namespace's re-exported models ----------------------------------------------------------

#: ``(package, models package, names stood in for while lancedb is imported)``
NAMESPACE_PACKAGES = (
    "lance_namespace",
    "lance_namespace_urllib3_client.models",
    ("LanceNamespace", "connect"),
)


def _module_source(name: str) -> tuple[Any, str] | None:
    """Return ``(spec, source of __init__)`` of a plain package on disk, or ``None``."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations or not isinstance(spec.origin, str):
        return None
    if not spec.origin.endswith("__init__.py") or getattr(spec, "loader", None) is None:
        return None
    try:
        with open(spec.origin, encoding="utf-8") as f:
            return spec, f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _reexports(source: str, package: str) -> dict[str, str] | None:
    """Map each name ``package``'s ``__init__`` imports from one of its submodules to that submodule.

    ``None`` unless the body is only a docstring and ``from package.sub import Name`` lines.
    """
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if not (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module is not None
            and node.module.startswith(package + ".")
            and all(alias.name != "*" for alias in node.names)
        ):
            return None
        for alias in node.names:
            out[alias.asname or alias.name] = node.module
    return out


def _imported_from(source: str, module: str, defined: tuple[str, ...]) -> set[str] | None:
    """Return the names a package's ``__init__`` imports from ``module``, if it defines all of ``defined``."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names: set[str] = set()
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == module:
            names.update(alias.asname or alias.name for alias in node.names if alias.name != "*")
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name in defined:
            found.add(node.name)
    return names if found == set(defined) else None


def _stand_in_class(name: str, load: Any) -> type:
    """Return a class that answers ``isinstance``/``issubclass`` as the real ``name`` (``load()``'s)."""

    class StandIn(type):
        def __instancecheck__(cls, obj: Any) -> bool:
            return isinstance(obj, getattr(load(), name))

        def __subclasscheck__(cls, sub: type) -> bool:
            return issubclass(sub, getattr(load(), name))

    doc = f"Stands for {name} in what lancedb's import annotated (isinstance checks the real one)."
    return StandIn(name, (), {"__doc__": doc})


@contextlib.contextmanager
def namespace_models_deferred(
    package: str = NAMESPACE_PACKAGES[0],
    models: str = NAMESPACE_PACKAGES[1],
    stand_ins: tuple[str, ...] = NAMESPACE_PACKAGES[2],
) -> Iterator[bool]:
    """Inside the block, ``package``'s names are answered without running its body (see the module docstring).

    Yields whether the package was deferred: it is not when either package is
    imported already, is not a plain package on disk, or its ``__init__`` is
    not of the expected shape (``models``: only re-exports of its submodules;
    ``package``: defines each of ``stand_ins`` and imports names from ``models``).
    """
    found = None if package in sys.modules or models in sys.modules else _module_source(package)
    found_models = None if found is None else _module_source(models)
    if found is None or found_models is None:
        yield False
        return
    spec, source = found
    where = _reexports(found_models[1], models)
    wanted = _imported_from(source, models, stand_ins)
    if where is None or wanted is None or not wanted <= set(where) or set(stand_ins) & wanted:
        yield False
        return
    defer_package_body(models)  # its submodules import one by one; its body runs on the first name
    active = [True]
    answers: dict[str, Any] = {}

    def answer(attr: str) -> Any:
        if not active[0]:
            return _NO_ANSWER
        if attr in wanted:  # a model class: the real one, from its own submodule
            return getattr(importlib.import_module(where[attr]), attr)
        return answers.get(attr, _NO_ANSWER)

    load = _install_deferred(package, spec, answer)

    def connect(*args: Any, **kwargs: Any) -> Any:
        """Call the package's own ``connect`` (its body runs first)."""
        return load().connect(*args, **kwargs)

    if "connect" in stand_ins:
        answers["connect"] = connect
    for name in stand_ins:
        answers.setdefault(name, _stand_in_class(name, load))
    try:
        yield True
    finally:
        active[0] = False
