"""Structured ``where`` filters: validated once, then compiled to SQL or a Python predicate.

A structured filter is a mapping from a field to a condition; all conditions
must hold (AND). Fields and the values they accept:

- ``id``, ``doc_id`` (strings): a ``str`` (equality) or a list, tuple or
  set of ``str`` (any of them, SQL ``IN``).
- ``source`` (string): like ``doc_id``, but a value also matches a source
  that ends with it as a path: ``"a.pdf"`` matches ``"a.pdf"``,
  ``"docs/a.pdf"`` and ``"C:/docs/a.pdf"`` or a Windows path ending in
  ``a.pdf`` after a backslash (the file name), and
  ``"docs/a.pdf"`` matches ``"/home/me/docs/a.pdf"``; never ``"data.pdf"``.
- ``index``, ``start``, ``end``, ``token_count``, ``page_start``, ``page_end``
  (integers): an ``int`` (equality), a list or set of ``int`` (``IN``), or an
  ``(op, number)`` tuple with ``op`` one of ``==``, ``!=``, ``<``, ``<=``,
  ``>``, ``>=``. ``page_start``/``page_end`` are ``None`` for documents
  without pages: ``None`` or ``("==", None)`` matches those, ``("!=", None)``
  the others; a comparison never matches a missing page.
- ``section``: a ``str`` that equals any element of the chunk's
  ``section_path``, or a list of ``str`` (any element equals any of them).
- enrichment lists (see :mod:`sectionrag.enrichment_fields`): ``dates``,
  ``fiscal_periods``, ``entities``, ``keywords``, ``categories`` (strings,
  matched exactly), ``years`` (ints), ``amounts``, ``percentages`` (numbers).
  A value means "the list holds it" (``{"years": 2025}``,
  ``{"fiscal_periods": "FY2025"}``); a list means "holds any of them";
  ``("all", [...])`` "holds all of them"; ``("!=", x)`` "does not hold x";
  ``(op, number)`` with ``<``, ``<=``, ``>``, ``>=`` "holds a number that
  compares so" (``{"amounts": (">=", 1e9)}``); ``None`` "is empty" and
  ``("!=", None)`` "is not empty".

An empty list matches nothing. Strings are compiled to SQL literals by
doubling single quotes, so no value can change the shape of the query.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sectionrag.enrichment_fields import LIST_FIELDS
from sectionrag.errors import FilterError

__all__ = [
    "FIELDS",
    "Condition",
    "compile_sql",
    "matches",
    "parse_where",
    "resolve_sources",
    "source_matches",
    "sql_string",
]

FieldKind = Literal["str", "int", "optint", "section", "strlist", "intlist", "numlist"]

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
    **LIST_FIELDS,
}
#: kinds of the enrichment list columns
_LIST_KINDS = ("strlist", "intlist", "numlist")

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
#: characters that separate the parts of a source path
_SEPARATORS = ("/", "\\")


@dataclass(frozen=True, slots=True)
class Condition:
    """One validated condition.

    ``op`` is a comparison (``==`` ... ``>=``), ``in`` (value is a tuple),
    ``is_null``/``not_null`` (value unused), ``has_any`` (``section``; value
    is a tuple of titles) or, on list fields, ``list_has``, ``list_not_has``,
    ``list_any``, ``list_all`` (value is a tuple), ``list_cmp`` (value is
    ``(op, number)``), ``list_empty`` and ``list_nonempty``.
    """

    field: str
    op: str
    value: Any


def source_matches(source: str, wanted: str) -> bool:
    """Return whether ``source`` is ``wanted`` or ends with it as a path (after a slash or backslash)."""
    if source == wanted:
        return True
    return bool(wanted) and any(source.endswith(sep + wanted) for sep in _SEPARATORS)


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


def _list_item(field: str, kind: str, value: Any) -> Any:
    if kind == "strlist" and isinstance(value, str):
        return value
    if kind == "intlist" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == "numlist" and _is_number(value):
        return value
    expected = {"strlist": "a string", "intlist": "an int", "numlist": "a finite number"}[kind]
    raise _fail(field, value, expected)


def _parse_list(field: str, kind: str, value: Any) -> Condition:
    """Parse a condition on an enrichment list column (see the module docstring)."""
    if value is None:
        return Condition(field, "list_empty", None)
    ops = (*_COMPARISONS, "all", "any")
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and value[0] in ops:
        op, operand = value
        if op in ("all", "any"):
            if not isinstance(operand, (list, tuple, set, frozenset)):
                raise _fail(field, operand, f"a list after {op!r}")
            items = sorted(operand) if isinstance(operand, (set, frozenset)) else list(operand)
            return Condition(field, f"list_{op}", tuple(_list_item(field, kind, v) for v in items))
        if operand is None and op in ("==", "!="):
            return Condition(field, "list_empty" if op == "==" else "list_nonempty", None)
        item = _list_item(field, kind, operand)
        if op == "==":
            return Condition(field, "list_has", item)
        if op == "!=":
            return Condition(field, "list_not_has", item)
        if kind == "strlist":
            raise FilterError(
                f"filter on {field!r}: {op!r} compares numbers; use a string, a list or ('all', [...])"
            )
        return Condition(field, "list_cmp", (op, item))
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        return Condition(field, "list_any", tuple(_list_item(field, kind, v) for v in items))
    return Condition(field, "list_has", _list_item(field, kind, value))


def _parse_one(field: str, value: Any) -> Condition:
    kind = FIELDS.get(field)
    if kind is None:
        choices = ", ".join(sorted(FIELDS))
        raise FilterError(
            f"unknown filter field {field!r}; filterable fields are: {choices} "
            "(use a raw SQL string with LanceDBStore for anything else)"
        )
    if kind in _LIST_KINDS:
        return _parse_list(field, kind, value)
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


def _sql_source(values: Sequence[str]) -> str:
    if not values:
        return "false"
    exact = (
        f'"source" = {sql_string(values[0])}'
        if len(values) == 1
        else f'"source" IN ({", ".join(sql_string(v) for v in values)})'
    )
    suffixes = [f'ends_with("source", {sql_string(sep + v)})' for v in values if v for sep in _SEPARATORS]
    return " OR ".join([exact, *suffixes])


def _sql_list(c: Condition) -> str:
    column = f'"{c.field}"'

    def lit(v: Any) -> str:
        return repr(float(v)) if FIELDS[c.field] == "numlist" else _sql_literal(v)

    if c.op == "list_empty":
        return f"cardinality({column}) = 0"
    if c.op == "list_nonempty":
        return f"cardinality({column}) > 0"
    if c.op == "list_has":
        return f"array_has({column}, {lit(c.value)})"
    if c.op == "list_not_has":
        return f"NOT array_has({column}, {lit(c.value)})"
    if c.op == "list_cmp":
        op, number = c.value
        extreme = "array_max" if op in (">", ">=") else "array_min"
        return f"{extreme}({column}) {_SQL_OPS[op]} {lit(number)}"
    if not c.value:  # any of nothing: false; all of nothing: true
        return "false" if c.op == "list_any" else "true"
    items = ", ".join(lit(v) for v in c.value)
    return f"{'array_has_any' if c.op == 'list_any' else 'array_has_all'}({column}, [{items}])"


def _sql_one(c: Condition, source_paths: bool = True) -> str:
    if c.op.startswith("list_"):
        return _sql_list(c)
    if c.field == "source" and source_paths:
        return _sql_source(c.value if c.op == "in" else (c.value,))
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


def compile_sql(conditions: Sequence[Condition], *, source_paths: bool = True) -> str | None:
    """Return a SQL predicate for LanceDB (``None`` when there is nothing to filter).

    With ``source_paths=False`` a ``source`` condition matches the source
    exactly (for values already resolved to indexed sources).
    """
    if not conditions:
        return None
    return " AND ".join(f"({_sql_one(c, source_paths)})" for c in conditions)


def resolve_sources(conditions: Sequence[Condition], indexed: Sequence[str]) -> list[Condition]:
    """Replace each ``source`` condition by the exact ``indexed`` sources it matches.

    The result, compiled with ``compile_sql(..., source_paths=False)``, selects
    the same rows as the original conditions over a collection holding exactly
    the ``indexed`` sources, and lets an index on ``source`` serve it.
    """
    out: list[Condition] = []
    for c in conditions:
        if c.field == "source":
            wanted = c.value if c.op == "in" else (c.value,)
            exact = tuple(s for s in indexed if any(source_matches(s, w) for w in wanted))
            c = Condition("source", "in", exact)
        out.append(c)
    return out


def _row_value(row: Mapping[str, Any], field: str) -> Any:
    return row["section_path"] if field == "section" else row[field]


def _list_matches(c: Condition, values: Sequence[Any]) -> bool:
    if c.op == "list_empty":
        return not values
    if c.op == "list_nonempty":
        return bool(values)
    if c.op == "list_has":
        return c.value in values
    if c.op == "list_not_has":
        return c.value not in values
    if c.op == "list_cmp":
        op, number = c.value
        return any(_PY_OPS[op](v, number) for v in values)
    if c.op == "list_any":
        return any(v in values for v in c.value)
    return all(v in values for v in c.value)


def matches(conditions: Sequence[Condition], row: Mapping[str, Any]) -> bool:
    """Return whether ``row`` (field name -> value) satisfies every condition, with SQL null rules."""
    for c in conditions:
        value = _row_value(row, c.field)
        if c.op.startswith("list_"):
            if not _list_matches(c, value or ()):
                return False
        elif c.op == "has_any":
            if not any(part in c.value for part in value):
                return False
        elif c.field == "source":
            wanted = c.value if c.op == "in" else (c.value,)
            if not any(source_matches(value, w) for w in wanted):
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
