"""Evaluation queries: a question and the passages that answer it, and the JSONL file that holds them.

Each line of a queries file::

    {"query": "...", "references": [{"source": "report.pdf", "start": 120, "end": 480}]}

A reference gives a source and a character span of its text, or a page
(``"page": 3``) instead of the span; ``"id"`` is optional.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sectionrag.errors import ConfigError

__all__ = ["EvalQuery", "Reference", "load_queries", "parse_query"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Reference:
    """A passage that answers a query: ``source`` plus a character span or a page.

    Attributes:
        source: The document's source as indexed, its file name, or its doc id.
        start: Offset of the passage in the document's text (with ``end``).
        end: End offset (exclusive).
        page: A 1-based page number, standing instead of ``start``/``end``.
    """

    source: str
    start: int | None = None
    end: int | None = None
    page: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or not self.source:
            raise ConfigError("a reference needs a non-empty 'source' string")
        has_span = self.start is not None or self.end is not None
        if has_span:
            if not (_is_int(self.start) and _is_int(self.end)):
                raise ConfigError("a reference needs both 'start' and 'end' as integers")
            assert self.start is not None and self.end is not None
            if not 0 <= self.start < self.end:
                raise ConfigError(
                    f"reference span must satisfy 0 <= start < end, got [{self.start}, {self.end})"
                )
            if self.page is not None:
                raise ConfigError("a reference has either 'start'/'end' or 'page', not both")
        elif self.page is None:
            raise ConfigError("a reference needs 'start' and 'end' (character offsets) or 'page'")
        elif not _is_int(self.page) or self.page < 1:
            raise ConfigError(f"reference 'page' must be an integer >= 1, got {self.page!r}")

    @property
    def has_span(self) -> bool:
        """True for a character-span reference, False for a page reference."""
        return self.start is not None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape used in query files and reports."""
        if self.has_span:
            return {"source": self.source, "start": self.start, "end": self.end}
        return {"source": self.source, "page": self.page}


@dataclass(frozen=True, slots=True)
class EvalQuery:
    """A query and the references that answer it."""

    query: str
    references: tuple[Reference, ...]
    id: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.query, str) or not self.query.strip():
            raise ConfigError("'query' must be a non-empty string")
        if not self.references:
            raise ConfigError("'references' must list at least one reference")


def parse_query(obj: Any) -> EvalQuery:
    """Build an :class:`EvalQuery` from one decoded JSON object.

    Raises:
        ConfigError: a field is missing or has the wrong type; the message says which.
    """
    if not isinstance(obj, Mapping):
        raise ConfigError(f"expected a JSON object, got {type(obj).__name__}")
    if "query" not in obj:
        raise ConfigError("missing 'query'")
    query = obj["query"]
    if not isinstance(query, str):
        raise ConfigError(f"'query' must be a string, got {type(query).__name__}")
    refs_raw = obj.get("references")
    if refs_raw is None:
        raise ConfigError(
            'missing \'references\' (a list of {"source", "start", "end"} or {"source", "page"})'
        )
    if not isinstance(refs_raw, list):
        raise ConfigError(f"'references' must be a list, got {type(refs_raw).__name__}")
    refs = []
    for i, ref in enumerate(refs_raw):
        if not isinstance(ref, Mapping):
            raise ConfigError(f"references[{i}] must be an object, got {type(ref).__name__}")
        try:
            refs.append(
                Reference(
                    source=ref.get("source", ""),
                    start=ref.get("start"),
                    end=ref.get("end"),
                    page=ref.get("page"),
                )
            )
        except ConfigError as e:
            raise ConfigError(f"references[{i}]: {e}") from None
    qid = obj.get("id")
    return EvalQuery(query=query, references=tuple(refs), id=None if qid is None else str(qid))


def load_queries(path: str | Path) -> list[EvalQuery]:
    """Read a JSONL file of queries (blank lines are skipped).

    Each line: ``{"query": ..., "references": [{"source": ..., "start": ..., "end": ...}]}``
    (``"page": N`` may stand instead of ``start``/``end``; ``id`` is optional).

    Raises:
        ConfigError: the file is missing, empty, or a line is malformed (the
            message names the line and what is wrong).
    """
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such queries file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read queries file ({e})") from e
    queries: list[EvalQuery] = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ConfigError(f"{p}:{lineno}: invalid JSON ({e.msg} at column {e.colno})") from None
        try:
            queries.append(parse_query(obj))
        except ConfigError as e:
            raise ConfigError(f"{p}:{lineno}: {e}") from None
    if not queries:
        raise ConfigError(f"{p}: no queries found; expected one JSON object per line")
    return queries
