"""Vector stores: :class:`LanceDBStore` (the default, embedded) and :class:`InMemoryStore`.

Both implement :class:`~sectionrag.protocols.VectorStore`. Common contract:

- A collection records the embedder name and dimension on the first
  ``ensure_collection`` and refuses other vectors with
  :class:`~sectionrag.errors.EmbedderMismatchError`.
- ``add`` replaces chunks with the same id; it validates before writing.
- ``search`` scores are "higher is better": cosine similarity for
  ``mode="vector"``, BM25 for ``"text"``, and for ``"hybrid"`` by default
  ``w_vector * v + w_text * t`` over min-max normalised cosine ``v`` and
  BM25 ``t`` (weights ``(1, 1)``), over standardised ones with
  ``fusion="zscore"``, or reciprocal rank fusion ``w_vector / (60 +
  rank_vector) + w_text / (60 + rank_text)`` with ``fusion="rrf"``;
  ``fusion=`` and ``weights=`` per store or per call.
  Searching a collection that does not exist raises
  :class:`~sectionrag.errors.CollectionNotFoundError`; an empty one returns ``[]``.
- Structured ``where`` filters (a mapping; see :data:`FILTER_FIELDS`)::

      {"source": "a.pdf"}                      # the source, or a path ending in /a.pdf
      {"source": ["a.pdf", "O'Brien.pdf"]}     # any of them
      {"doc_id": [id1, id2]}                   # scope to some documents
      {"page_start": (">=", 3), "index": ("<", 10)}
      {"page_start": None}                     # chunks without pages
      {"section": "Refunds"}                   # any element of section_path

  LanceDBStore also accepts a raw SQL predicate string.
- LanceDBStore builds an ANN vector index past :attr:`AnnConfig.threshold`
  rows and on :meth:`LanceDBStore.optimize`; see :class:`AnnConfig`.
"""

from __future__ import annotations

from sectionrag.stores._filters import FIELDS as FILTER_FIELDS
from sectionrag.stores._lance_search import AnnConfig, IndexState
from sectionrag.stores.lancedb import LanceDBStore
from sectionrag.stores.memory import InMemoryStore

__all__ = ["FILTER_FIELDS", "AnnConfig", "InMemoryStore", "IndexState", "LanceDBStore"]
