"""Importing lancedb without running the body of a package only its REST client uses (private).

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
from collections.abc import Iterator
from typing import Any

from sectionrag._hidden_imports import modules_hidden

__all__ = [
    "DEFERRED_PACKAGES",
    "defer_package_body",
    "hide_pandas",
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
    module = importlib.util.module_from_spec(spec)
    lock = threading.RLock()

    def __getattr__(attr: str) -> Any:
        with lock:
            if module.__dict__.get("__getattr__") is hook:
                del module.__dict__["__getattr__"]
                loader.exec_module(module)
        try:
            return module.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    hook = __getattr__
    module.__dict__["__getattr__"] = hook
    sys.modules[name] = module
    return True


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
