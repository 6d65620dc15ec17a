"""Argument checks shared across the package (private)."""

from __future__ import annotations

from typing import Any

from sectionrag.errors import ConfigError

__all__ = ["check_int", "check_number"]


def check_int(name: str, value: Any, *, minimum: int) -> int:
    """Return ``value`` if it is an int (not a bool) of at least ``minimum``, else raise ConfigError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be an integer, not {type(value).__name__} ({value!r})")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


def check_number(name: str, value: Any) -> float:
    """Return ``value`` as a float if it is a number (int or float, not a bool), else raise ConfigError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{name} must be a number, not {type(value).__name__} ({value!r})")
    return float(value)
