"""Enrichment columns of a LanceDB collection (private).

Beside ``text`` and the ``metadata`` JSON, a collection keeps:

- ``enrichment`` (string): a chunk's summary, questions and keywords, with its
  own full-text index; text and hybrid search match the query against
  ``text`` and ``enrichment`` together: a chunk scores the better of its
  BM25 in ``text`` and :data:`ENRICHMENT_BOOST` (0.5) times its BM25 in
  ``enrichment``. The short enrichment field scores high, so at full weight
  extractive summaries and key phrases (words the chunk already has) took
  over the ranking and cost text-mode recall@5 2.6 points on the evaluation
  set; at 0.5 they change no top-5 result there, while words only the
  enrichment has (an LLM's paraphrases and questions) still find the chunk.
- one list column per key of :data:`sectionrag.enrichment_fields.LIST_FIELDS`
  (``dates``, ``years``, ``fiscal_periods``, ``amounts``, ``percentages``,
  ``entities``, ``keywords``, ``categories``), for structured ``where`` filters.

Collections created before these columns existed still work: their rows get
no such values, full-text search reads ``text`` only, and a filter on a list
field raises :class:`~sectionrag.errors.FilterError`.

Full-text search reads the text through ``fulltext`` (schema version 2): the
chunk's document title, a newline, then its text (:attr:`Chunk.search_text
<sectionrag.types.Chunk.search_text>`), so that words naming the document
(``Apple``, ``Roosevelt``) count in BM25 beside the chunk's own; ``text`` stays
the span itself. Collections of schema version 1 have no ``fulltext``: they
open, search and take writes as before, matching ``text`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sectionrag.enrichment_fields import LIST_FIELDS, enrichment_text, list_values
from sectionrag.errors import FilterError
from sectionrag.stores._filters import Condition
from sectionrag.types import Chunk

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "ENRICHMENT_BOOST",
    "ENRICHMENT_COLUMN",
    "FULLTEXT_COLUMN",
    "check_list_columns",
    "enrichment_fields",
    "enrichment_values",
    "fts_boosts",
    "fts_columns",
]

#: the full-text indexed column holding summary, questions and keywords
ENRICHMENT_COLUMN = "enrichment"
#: the full-text indexed column holding a chunk's document title and text (schema version 2)
FULLTEXT_COLUMN = "fulltext"
#: weight of a match in ``enrichment`` against one in ``text`` (1.0): the chunk's own words
#: decide the order, words said about it (a paraphrase, a question) still find it
ENRICHMENT_BOOST = 0.5


def enrichment_fields() -> list[pa.Field]:
    """Return the schema fields of the enrichment columns."""
    import pyarrow as pa

    types = {"strlist": pa.string(), "intlist": pa.int64(), "numlist": pa.float64()}
    fields = [pa.field(ENRICHMENT_COLUMN, pa.string(), nullable=False)]
    fields += [pa.field(name, pa.list_(types[kind]), nullable=False) for name, kind in LIST_FIELDS.items()]
    return fields


def enrichment_values(chunks: Sequence[Chunk]) -> dict[str, list[Any]]:
    """Return the enrichment columns' values for ``chunks`` (from their metadata)."""
    out: dict[str, list[Any]] = {ENRICHMENT_COLUMN: [enrichment_text(c.metadata) for c in chunks]}
    lists = [list_values(c.metadata) for c in chunks]
    for name in LIST_FIELDS:
        out[name] = [values[name] for values in lists]
    return out


def fts_columns(schema: pa.Schema) -> list[str]:
    """Return the columns full-text search reads.

    ``fulltext`` (title and text) or, in collections made before it, ``text``;
    then ``enrichment`` when the table has it.
    """
    first = FULLTEXT_COLUMN if FULLTEXT_COLUMN in schema.names else "text"
    return [first, ENRICHMENT_COLUMN] if ENRICHMENT_COLUMN in schema.names else [first]


def fts_boosts(columns: Sequence[str]) -> list[float]:
    """Return the weight of each full-text column (the text 1.0, ``enrichment`` :data:`ENRICHMENT_BOOST`)."""
    return [ENRICHMENT_BOOST if c == ENRICHMENT_COLUMN else 1.0 for c in columns]


def check_list_columns(conditions: Sequence[Condition], schema: pa.Schema, collection: str) -> None:
    """Raise FilterError when a condition names a list column the collection lacks."""
    missing = sorted({c.field for c in conditions if c.field in LIST_FIELDS and c.field not in schema.names})
    if missing:
        raise FilterError(
            f"collection {collection!r} was created before enrichment columns existed, so it cannot "
            f"filter on {', '.join(missing)}; index into a new collection (--collection NAME) to get them"
        )
