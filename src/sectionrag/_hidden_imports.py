"""Importing a package while some of its optional modules look uninstalled (private)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["modules_hidden"]


class _Refuse:
    """A meta path finder that says ``names`` (and their submodules) are not installed."""

    def __init__(self, names: tuple[str, ...], why: str) -> None:
        self.names = names
        self.why = why

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if any(name == n or name.startswith(n + ".") for n in self.names):
            raise ModuleNotFoundError(f"No module named {name!r} ({self.why})", name=name)


@contextlib.contextmanager
def modules_hidden(*names: str, why: str) -> Iterator[None]:
    """Make importing any of ``names`` fail inside the block, as for a missing package.

    For packages whose own import carries on without an optional module
    (``try: import x except ImportError``); ``why`` goes into the error.
    Modules already imported are not affected.
    """
    finder = _Refuse(names, why)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
