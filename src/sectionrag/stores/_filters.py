"""Structured ``where`` filters: validated once, then compiled to SQL or a Python predicate.

A structured filter is a mapping from a field to a condition; all conditions
must hold (AND). Fields and the values they accept:

- ``id``, ``doc_id``, ``source`` (strings): a ``str`` (equality) or a list,
  tuple or set of ``str`` (any of them, SQL ``IN``).
- ``index``, ``start``, ``end``, ``token_count``, ``page_start``, ``page_end``
  (integers): an ``int`` (equality), a list or set of ``int`` (``IN``), or an
  ``(op, number)`` tuple with ``op`` one of ``==``, ``!=``, ``<``, ``<=``,
  ``>``, ``>=``. ``page_start``/``page_end`` are ``None`` for documents
  without pages: ``None`` or ``("==", None)`` matches those, ``("!=", None)``
  the others; a comparison never matches a missing page.
- ``section``: a ``str`` that equals any element of the chunk's
  ``section_path``, or a list of ``str`` (any element equals any of them).

An empty list matches nothing. Strings are compiled to SQL literals by
doubling single quotes, so no value can change the shape of the query.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sectionrag.errors import FilterError

__all__ = ["FIELDS", "Condition", "compile_sql", "matches", "parse_where", "sql_string"]

FieldKind = Literal["str", "int", "optint", "section"]

#: filterable field -> kind of value it holds
FIELDS: dict[str, FieldKind] = {
    "id": "str",
    "doc_id": "str",
    "source": "str",
    "index": "int",
    "start": "int",
    "end": "int",
    "token_count": "int",
    "page_start": "optint",
    "page_end": "optint",
    "section": "section",
}

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
_PY_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: bool(a == b),
    "!=": lambda a, b: bool(a != b),
    "<": lambda a, b: bool(a < b),
    "<=": lambda a, b: bool(a <= b),
    ">": lambda a, b: bool(a > b),
    ">=": lambda a, b: bool(a >= b),
}
_SQL_OPS = {"==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


@dataclass(frozen=True, slots=True)
class Condition:
    """One validated condition.

    ``op`` is a comparison (``==`` ... ``>=``), ``in`` (value is a tuple),
    ``is_null``/``not_null`` (value unused) or ``has_any`` (``section``; value
    is a tuple of titles).
    """

    field: str
    op: str
    value: Any


def sql_string(value: str) -> str:
    """Quote ``value`` as a SQL string literal (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def _fail(field: str, value: Any, expected: str) -> FilterError:
    return FilterError(f"filter on {field!r}: expected {expected}, got {value!r} ({type(value).__name__})")


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def _str_items(field: str, values: Any) -> tuple[str, ...]:
    items = tuple(sorted(values)) if isinstance(values, (set, frozenset)) else tuple(values)
    for item in items:
        if not isinstance(item, str):
            raise _fail(field, item, "strings in the list")
    return items


def _parse_one(field: str, value: Any) -> Condition:
    kind = FIELDS.get(field)
    if kind is None:
        choices = ", ".join(sorted(FIELDS))
        raise FilterError(
            f"unknown filter field {field!r}; filterable fields are: {choices} "
            "(use a raw SQL string with LanceDBStore for anything else)"
        )
    if kind in ("str", "section"):
        if isinstance(value, str):
            if kind == "str":
                return Condition(field, "==", value)
            return Condition(field, "has_any", (value,))
        if isinstance(value, (list, tuple, set, frozenset)):
            return Condition(field, "in" if kind == "str" else "has_any", _str_items(field, value))
        raise _fail(field, value, "a string or a list of strings")
    # numeric fields
    if value is None:
        if kind != "optint":
            raise _fail(field, value, "an int, a list of ints or an (op, number) tuple")
        return Condition(field, "is_null", None)
    if _is_number(value):
        return Condition(field, "==", value)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        op, operand = value
        if op not in _COMPARISONS:
            raise FilterError(
                f"filter on {field!r}: unknown operator {op!r}; use one of: {', '.join(_COMPARISONS)}"
            )
        if operand is None:
            if kind != "optint" or op not in ("==", "!="):
                raise _fail(field, value, "a finite number (None only with == or != on page fields)")
            return Condition(field, "is_null" if op == "==" else "not_null", None)
        if not _is_number(operand):
            raise _fail(field, operand, "a finite number")
        return Condition(field, op, operand)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = tuple(sorted(value)) if isinstance(value, (set, frozenset)) else tuple(value)
        for item in items:
            if not _is_number(item):
                raise _fail(field, item, "numbers in the list")
        return Condition(field, "in", items)
    raise _fail(field, value, "an int, a list of ints or an (op, number) tuple")


def parse_where(where: Mapping[str, Any] | None) -> list[Condition]:
    """Validate a structured filter and return its conditions.

    Raises:
        FilterError: unknown field, wrong value type or unknown operator.
        TypeError: ``where`` is neither ``None`` nor a mapping.
    """
    if where is None:
        return []
    if not isinstance(where, Mapping):
        raise TypeError(f"where must be a mapping or a str, not {type(where).__name__}")
    conditions: list[Condition] = []
    for field, value in where.items():
        if not isinstance(field, str):
            raise FilterError(f"filter field names must be strings, got {field!r}")
        conditions.append(_parse_one(field, value))
    return conditions


def _sql_literal(value: Any) -> str:
    if isinstance(value, str):
        return sql_string(value)
    if isinstance(value, int):
        return str(int(value))
    return repr(float(value))


def _sql_one(c: Condition) -> str:
    if c.field == "section":
        if not c.value:
            return "false"
        items = ", ".join(sql_string(v) for v in c.value)
        return f'array_has_any("section_path", [{items}])'
    column = f'"{c.field}"'
    if c.op == "is_null":
        return f"{column} IS NULL"
    if c.op == "not_null":
        return f"{column} IS NOT NULL"
    if c.op == "in":
        if not c.value:
            return "false"
        return f"{column} IN ({', '.join(_sql_literal(v) for v in c.value)})"
    return f"{column} {_SQL_OPS[c.op]} {_sql_literal(c.value)}"


def compile_sql(conditions: Sequence[Condition]) -> str | None:
    """Return a SQL predicate for LanceDB (``None`` when there is nothing to filter)."""
    if not conditions:
        return None
    return " AND ".join(f"({_sql_one(c)})" for c in conditions)


def _row_value(row: Mapping[str, Any], field: str) -> Any:
    return row["section_path"] if field == "section" else row[field]


def matches(conditions: Sequence[Condition], row: Mapping[str, Any]) -> bool:
    """Return whether ``row`` (field name -> value) satisfies every condition, with SQL null rules."""
    for c in conditions:
        value = _row_value(row, c.field)
        if c.op == "has_any":
            if not any(part in c.value for part in value):
                return False
        elif c.op == "is_null":
            if value is not None:
                return False
        elif c.op == "not_null":
            if value is None:
                return False
        elif value is None:
            return False
        elif c.op == "in":
            if value not in c.value:
                return False
        elif not _PY_OPS[c.op](value, c.value):
            return False
    return True
