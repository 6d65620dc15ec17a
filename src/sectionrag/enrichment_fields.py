"""The enrichment fields: what enrichers write under ``Chunk.metadata`` and what stores index.

Every enricher in :mod:`sectionrag.enrich` writes the same keys, so stores,
filters and users see one schema whichever enricher ran:

=====================  ====================================================  ====================
key                    value                                                 indexed as
=====================  ====================================================  ====================
``summary``            1-2 sentences (``str``)                               full text
``questions``          questions the chunk answers (``list[str]``)           full text
``keywords``           key phrases (``list[str]``)                           full text, list column
``dates``              ISO dates ``YYYY-MM-DD`` or months ``YYYY-MM``        list column
``years``              calendar and fiscal years mentioned (``list[int]``)   list column
``fiscal_periods``     ``FY2025``, ``Q3 FY2024``, ``Q1 2025``, ``H1 2024``   list column
``amounts``            ``[{"text", "value", "currency"}]`` money amounts     list column (values)
``percentages``        percentages as numbers (``12.5`` for 12.5%)           list column
``organizations``      organisation names (``list[str]``)                    (inside ``entities``)
``people``             person names (``list[str]``)                          (inside ``entities``)
``entities``           organisations and people together (``list[str]``)     list column
``categories``         topics (``list[str]``; LLM only)                      list column
``key_facts``          short factual statements (``list[str]``; LLM only)    --
``enriched_by``        which enricher ran (``"extractive/1"``, ``"llm:M/p1"``)  --
``enrichment_error``   why enrichment failed for this chunk (``str``)        --
=====================  ====================================================  ====================

"List column" means a store keeps the values as a typed list column that a
structured ``where`` filter can test (see :mod:`sectionrag.stores`):
``{"years": 2025}`` matches chunks whose list holds 2025.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

__all__ = [
    "ENRICHMENT_KEYS",
    "LIST_FIELDS",
    "TEXT_FIELDS",
    "ListKind",
    "enrichment_text",
    "list_values",
]

ListKind = Literal["strlist", "intlist", "numlist"]

#: metadata keys whose text is indexed for full-text search beside the chunk text
TEXT_FIELDS = ("summary", "questions", "keywords")

#: metadata keys stored as filterable list columns -> kind of their elements
LIST_FIELDS: dict[str, ListKind] = {
    "dates": "strlist",
    "years": "intlist",
    "fiscal_periods": "strlist",
    "amounts": "numlist",
    "percentages": "numlist",
    "entities": "strlist",
    "keywords": "strlist",
    "categories": "strlist",
}

#: every key an enricher may write
ENRICHMENT_KEYS = (
    "summary",
    "questions",
    "keywords",
    "dates",
    "years",
    "fiscal_periods",
    "amounts",
    "percentages",
    "organizations",
    "people",
    "entities",
    "categories",
    "key_facts",
    "enriched_by",
    "enrichment_error",
)


def enrichment_text(metadata: Mapping[str, Any]) -> str:
    """Return the text a full-text index holds beside the chunk: summary, questions, keywords.

    Missing or wrongly typed values are skipped; the parts are joined by newlines.
    """
    parts: list[str] = []
    for key in TEXT_FIELDS:
        value = metadata.get(key)
        if isinstance(value, str):
            if value.strip():
                parts.append(value.strip())
        elif isinstance(value, (list, tuple)):
            parts.extend(v.strip() for v in value if isinstance(v, str) and v.strip())
    return "\n".join(parts)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, Mapping):  # an amount: {"text", "value", "currency"}
        value = value.get("value")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def list_values(metadata: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Return the typed list of each :data:`LIST_FIELDS` key (``[]`` when missing or malformed).

    ``amounts`` gives the amounts' numeric values; elements of the wrong type
    are dropped, so the result always fits the store's column types.
    """
    out: dict[str, list[Any]] = {}
    for key, kind in LIST_FIELDS.items():
        raw = metadata.get(key)
        items = list(raw) if isinstance(raw, (list, tuple)) else []
        if kind == "strlist":
            out[key] = [v for v in items if isinstance(v, str)]
        elif kind == "intlist":
            out[key] = [int(v) for v in items if isinstance(v, int) and not isinstance(v, bool)]
        else:
            out[key] = [n for n in (_number(v) for v in items) if n is not None]
    return out
