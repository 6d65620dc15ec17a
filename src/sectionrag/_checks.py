"""Argument checks shared across the package (private).

Each check names the argument it rejects. Conventions: a value of the wrong
kind where a number is expected (``2.5`` for a count, ``"x"`` for seconds)
is a :class:`~sectionrag.errors.ConfigError`, like an out-of-range number;
any other wrong type (a str where a flag or a list is expected) is a
``TypeError``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

from sectionrag.errors import ConfigError

__all__ = [
    "check_bool",
    "check_int",
    "check_number",
    "check_optional_bool",
    "check_path",
    "check_str",
    "check_strings",
    "check_where",
]


def check_int(name: str, value: Any, *, minimum: int) -> int:
    """Return ``value`` if it is an int (not a bool) of at least ``minimum``, else raise ConfigError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be an integer, not {type(value).__name__} ({value!r})")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


def check_number(name: str, value: Any, *, minimum: float | None = None) -> float:
    """Return ``value`` as a float if it is a number (int or float, not bool or NaN); else ConfigError.

    ``minimum``, when given, is the smallest value accepted (infinity is accepted above it).
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{name} must be a number, not {type(value).__name__} ({value!r})")
    number = float(value)
    if math.isnan(number):
        raise ConfigError(f"{name} must be a number, not NaN")
    if minimum is not None and number < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g}, got {value!r}")
    return number


def check_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a bool, else raise TypeError (``"false"`` is not a flag: it is truthy)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__} ({value!r})")
    return value


def check_optional_bool(name: str, value: Any) -> bool | None:
    """Return ``value`` if it is a bool or ``None``, else raise TypeError."""
    return None if value is None else check_bool(name, value)


def check_str(name: str, value: Any, *, empty: bool = False) -> str:
    """Return ``value`` if it is a str (non-blank unless ``empty``), else raise TypeError or ConfigError."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__} ({value!r})")
    if not empty and not value.strip():
        raise ConfigError(f"{name} must not be empty")
    return value


def check_strings(name: str, value: Any) -> tuple[str, ...]:
    """Return a sequence of strings as a tuple; a single str counts as one item.

    Raises:
        TypeError: ``value`` is not a str nor a sequence of str.
    """
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Sequence) and not isinstance(value, (set, frozenset)):
        raise TypeError(f"{name} must be a list of str, not {type(value).__name__} ({value!r})")
    items = tuple(value)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold str items, not {type(item).__name__} ({item!r})")
    return items


def check_path(name: str, value: Any) -> str | os.PathLike[str]:
    """Return ``value`` if it is a path (a non-empty str or an ``os.PathLike``); else raise TypeError."""
    if isinstance(value, os.PathLike):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a path (str or os.PathLike), not {type(value).__name__} ({value!r})")
    if not value:
        raise ConfigError(f"{name} must not be empty")
    return value


def check_where(name: str, value: Any) -> Any:
    """Return a filter (``None``, a mapping or a str) unchanged, else raise TypeError."""
    if value is not None and not isinstance(value, (Mapping, str)):
        raise TypeError(
            f"{name} must be a mapping such as {{'source': 'a.pdf'}} or a str expression, "
            f"not {type(value).__name__} ({value!r})"
        )
    return value
