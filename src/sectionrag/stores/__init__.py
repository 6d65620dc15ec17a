"""Vector stores: :class:`LanceDBStore` (the default, embedded) and :class:`InMemoryStore`.

Both implement :class:`~sectionrag.protocols.VectorStore`. Common contract:

- A collection records the embedder name and dimension on the first
  ``ensure_collection`` and refuses other vectors with
  :class:`~sectionrag.errors.EmbedderMismatchError`.
- ``add`` replaces chunks with the same id; it validates before writing.
- ``search`` scores are "higher is better": cosine similarity for
  ``mode="vector"``, BM25 for ``"text"``, reciprocal rank fusion (k=60) for
  ``"hybrid"``.
- Structured ``where`` filters (a mapping; see :data:`FILTER_FIELDS`)::

      {"source": "a.pdf"}                      # equality
      {"source": ["a.pdf", "O'Brien.pdf"]}     # any of (IN)
      {"page_start": (">=", 3), "index": ("<", 10)}
      {"page_start": None}                     # chunks without pages
      {"section": "Refunds"}                   # any element of section_path

  LanceDBStore also accepts a raw SQL predicate string.
"""

from __future__ import annotations

from sectionrag.stores._filters import FIELDS as FILTER_FIELDS
from sectionrag.stores.lancedb import LanceDBStore
from sectionrag.stores.memory import InMemoryStore

__all__ = ["FILTER_FIELDS", "InMemoryStore", "LanceDBStore"]
