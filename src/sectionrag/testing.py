"""Fakes and a conformance suite for testing code built on sectionrag.

- :class:`HashEmbedder`: a deterministic, dependency-free embedder whose
  rankings follow word overlap (no model, no torch).
- :class:`FakeLLM`: canned or computed completions; records every prompt.
- :class:`InMemoryStore`: the numpy vector store (re-exported).
- :class:`StoreConformance` / :func:`check_store_conformance`: the behaviour
  every :class:`~sectionrag.protocols.VectorStore` must show.

Using the suite with pytest::

    from sectionrag.testing import StoreConformance

    class TestMyStore(StoreConformance):
        def make_store(self):
            return MyStore()           # a fresh, empty store each call

This module imports neither torch nor pytest.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sectionrag._checks import check_int
from sectionrag.errors import (
    CollectionNotFoundError,
    ConfigError,
    EmbedderMismatchError,
    EnrichmentError,
    FilterError,
    StoreError,
)
from sectionrag.protocols import VectorStore
from sectionrag.stores.memory import InMemoryStore
from sectionrag.tokenizers import WordTokenizer
from sectionrag.types import Chunk, Document, PageSpan, SearchResult, Section

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "FakeLLM",
    "HashEmbedder",
    "InMemoryStore",
    "StoreConformance",
    "check_store_conformance",
]

_WORDS = re.compile(r"\w+", re.UNICODE)
_EMPTY_FEATURE = "\x00empty"
#: L2 weight of a word's trigrams relative to the word itself (1.0)
_TRIGRAM_WEIGHT = 0.7


@functools.lru_cache(maxsize=65536)
def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    h = int.from_bytes(digest, "little")
    return h % dimension, 1.0 if (h >> 40) & 1 else -1.0


class HashEmbedder:
    """A deterministic fake embedder: hashed words plus character trigrams, L2-normalised.

    Texts sharing words get similar vectors, so rankings follow word overlap;
    shared trigrams give partial credit to related forms ("product",
    "products"). An empty text gets a fixed unit vector (never NaN).
    Implements the full :class:`~sectionrag.protocols.Embedder` protocol.

    Args:
        dimension: Length of each vector.
        name: The name recorded by stores.
        max_tokens: The value reported by :attr:`max_tokens`.

    Attributes:
        calls: Number of ``embed_documents``/``embed_query`` calls.
        texts_embedded: Number of texts embedded in total.
    """

    def __init__(self, dimension: int = 256, name: str = "hash", *, max_tokens: int = 512) -> None:
        check_int("dimension", dimension, minimum=2)
        self._dimension = dimension
        self._name = name
        self._max_tokens = max_tokens
        self._tokenizer = WordTokenizer()
        self.calls = 0
        self.texts_embedded = 0

    def __repr__(self) -> str:
        return f"HashEmbedder(dimension={self._dimension}, name={self._name!r})"

    @property
    def name(self) -> str:
        """The name recorded by stores."""
        return self._name

    @property
    def dimension(self) -> int:
        """Length of each vector."""
        return self._dimension

    @property
    def max_tokens(self) -> int:
        """Longest input in (word) tokens."""
        return self._max_tokens

    def _vector(self, text: str, out: npt.NDArray[np.float32]) -> None:
        words = _WORDS.findall(text.lower())
        if not words:
            words = [ch for ch in text if not ch.isspace()] or [_EMPTY_FEATURE]
        for word in words:
            i, sign = _bucket("w:" + word, self._dimension)
            out[i] += sign
            padded = f"#{word}#"
            grams = [padded[j : j + 3] for j in range(len(padded) - 2)]
            weight = _TRIGRAM_WEIGHT / math.sqrt(len(grams)) if grams else 0.0
            for gram in grams:
                i, sign = _bucket("g:" + gram, self._dimension)
                out[i] += sign * weight
        norm = math.sqrt(float((out * out).sum()))
        if norm > 0:
            out /= norm
        else:  # features cancelled out: fall back to the empty-text vector
            i, sign = _bucket("w:" + _EMPTY_FEATURE, self._dimension)
            out[i] = sign

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed passages; returns float32 of shape ``(len(texts), dimension)``."""
        import numpy as np

        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of str, not one str; use embed_query")
        texts = list(texts)
        for t in texts:
            if not isinstance(t, str):
                raise TypeError(f"texts must be str, got {type(t).__name__}")
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in zip(out, texts, strict=True):
            self._vector(text, row)
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """Embed one query (the same encoding as documents); returns shape ``(dimension,)``."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        vec: npt.NDArray[np.float32] = self.embed_documents([text])[0]
        return vec

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed queries in one call (the same encoding as :meth:`embed_query`)."""
        if isinstance(texts, str):
            raise TypeError("embed_queries takes a sequence of str, not one str; use embed_query")
        return self.embed_documents(texts)

    def count_tokens(self, text: str) -> int:
        """Count word and punctuation tokens."""
        return self._tokenizer.count_tokens(text)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """Count tokens of many texts."""
        return [self._tokenizer.count_tokens(t) for t in texts]

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        """Return the character spans of the word and punctuation tokens."""
        return self._tokenizer.token_offsets(text)


class FakeLLM:
    """An :class:`~sectionrag.protocols.LLM` that answers from a script.

    Args:
        responses: One string (always returned), a sequence (returned in order;
            running out raises :class:`~sectionrag.errors.EnrichmentError`), or a
            function ``prompt -> str``.

    Attributes:
        prompts: Every prompt received, in order.
        max_tokens: The ``max_tokens`` of every call, in order.
    """

    def __init__(self, responses: str | Sequence[str] | Callable[[str], str] = "") -> None:
        self._responses = responses
        self.prompts: list[str] = []
        self.max_tokens: list[int] = []

    @property
    def calls(self) -> int:
        """Number of completions requested."""
        return len(self.prompts)

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """Record the prompt and return the scripted completion."""
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be str, not {type(prompt).__name__}")
        n = len(self.prompts)
        self.prompts.append(prompt)
        self.max_tokens.append(max_tokens)
        r = self._responses
        if isinstance(r, str):
            return r
        if callable(r):
            return r(prompt)
        if n >= len(r):
            raise EnrichmentError(f"FakeLLM ran out of responses: {len(r)} scripted, call {n + 1} made")
        return r[n]


# ---------------------------------------------------------------------------
# store conformance


@contextmanager
def _raises(exc: type[BaseException], contains: str = "") -> Iterator[None]:
    try:
        yield
    except exc as e:
        if contains and contains not in str(e):
            raise AssertionError(f"{type(e).__name__} message {str(e)!r} lacks {contains!r}") from e
        return
    raise AssertionError(f"expected {exc.__name__} to be raised")


_HOSTILE = "x' OR '1'='1"
_REFUND = "Customers can return products within 7 days with a receipt."


def _corpus() -> list[Chunk]:
    """Five chunks from four documents, with sections, pages and awkward sources."""
    policies = "# Refunds\n" + _REFUND + "\n# Shipping\nOrders are shipped within 3 business days.\n"
    shipping = policies.index("# Shipping")
    doc1 = Document.create(
        policies,
        source="policies.md",
        sections=[
            Section("Refunds", 1, ("Refunds",), 0, shipping, 1, 1),
            Section("Shipping", 1, ("Shipping",), shipping, len(policies), 2, 2),
        ],
        pages=[PageSpan(1, 0, shipping), PageSpan(2, shipping, len(policies))],
    )
    account = "Account Setup\nUsers must verify their email address before the first login."
    doc2 = Document.create(
        account,
        source="O'Brien.pdf",
        sections=[Section("Account Setup", 1, ("Account Setup",), 0, len(account), 1, 1)],
        pages=[PageSpan(1, 0, len(account))],
        metadata={"author": "O'Brien", "year": 2024},
    )
    doc3 = Document.create("Cancellation: orders can be cancelled before shipping.", source=_HOSTILE)
    doc4 = Document.create("Warehouse staff restock the shelves every Monday morning.", source="notes.txt")
    tok = WordTokenizer()

    def chunk(doc: Document, index: int, start: int, end: int) -> Chunk:
        return doc.make_chunk(index, start, end, token_count=tok.count_tokens(doc.text[start:end]))

    return [
        chunk(doc1, 0, 0, shipping),
        chunk(doc1, 1, shipping, len(policies)),
        chunk(doc2, 0, 0, len(account)),
        chunk(doc3, 0, 0, len(doc3.text)),
        chunk(doc4, 0, 0, len(doc4.text)),
    ]


class StoreConformance:
    """Behaviour every :class:`~sectionrag.protocols.VectorStore` must show.

    Subclass it (named ``Test...`` for pytest to collect) and override
    :meth:`make_store` to return a fresh, empty store. Stores must support
    structured filters, ``mode="text"`` and ``mode="hybrid"``. Each ``test_``
    method is independent and uses plain ``assert``.
    """

    def make_store(self) -> VectorStore:
        """Return a new, empty store (override this)."""
        raise NotImplementedError("override make_store() to return a fresh, empty store")

    # -- helpers ----------------------------------------------------------
    embedder_dimension = 64

    def _embedder(self) -> HashEmbedder:
        return HashEmbedder(dimension=self.embedder_dimension)

    def _filled(self) -> tuple[VectorStore, HashEmbedder, list[Chunk]]:
        store = self.make_store()
        emb = self._embedder()
        chunks = _corpus()
        store.ensure_collection(emb.name, emb.dimension)
        store.add(chunks, emb.embed_documents([c.embed_text for c in chunks]))
        return store, emb, chunks

    @staticmethod
    def _all(store: VectorStore, emb: HashEmbedder, where: Any = None) -> list[SearchResult]:
        return store.search(emb.embed_query("anything at all"), k=100, where=where)

    @staticmethod
    def _count(store: VectorStore) -> int:
        info = store.info()
        assert info is not None, "info() returned None for an existing collection"
        return info.chunks

    # -- collection -------------------------------------------------------
    def test_search_before_ensure_collection_raises(self) -> None:
        """Searching a collection that was never created raises CollectionNotFoundError."""
        store = self.make_store()
        assert store.info() is None
        with _raises(CollectionNotFoundError):
            store.search(self._embedder().embed_query("q"), k=3)

    def test_info_records_embedder_and_count(self) -> None:
        """info() reports the embedder, dimension and chunk count; ensure_collection is idempotent."""
        store, emb, chunks = self._filled()
        info = store.info()
        assert info is not None
        assert (info.embedder, info.dimension, info.chunks) == (emb.name, emb.dimension, len(chunks))
        store.ensure_collection(emb.name, emb.dimension)  # idempotent
        assert self._count(store) == len(chunks)

    def test_empty_collection_search_returns_nothing(self) -> None:
        """An existing but empty collection returns no hits in every mode."""
        store = self.make_store()
        emb = self._embedder()
        store.ensure_collection(emb.name, emb.dimension)
        q = emb.embed_query("refund")
        assert store.search(q, k=5) == []
        assert store.search(query_text="refund", k=5, mode="text") == []
        assert store.search(q, "refund", k=5, mode="hybrid") == []
        assert store.documents() == []
        assert self._count(store) == 0

    def test_other_embedder_or_dimension_refused(self) -> None:
        """ensure_collection refuses another embedder name or dimension."""
        store, emb, chunks = self._filled()
        with _raises(EmbedderMismatchError, emb.name):
            store.ensure_collection("another-model", emb.dimension)
        with _raises(EmbedderMismatchError, str(emb.dimension)):
            store.ensure_collection(emb.name, emb.dimension + 1)
        assert self._count(store) == len(chunks)

    # -- writing ----------------------------------------------------------
    def test_mismatched_vectors_refused_nothing_lost(self) -> None:
        """Refused adds (wrong dimension, count, NaN) leave the stored data untouched."""
        import numpy as np

        store, emb, chunks = self._filled()
        before_docs = store.documents()
        before = [(r.chunk_id, r.score) for r in self._all(store, emb)]
        extra = Document.create("A brand new text about refunds.", source="new.txt")
        new = [extra.make_chunk(0, 0, len(extra.text), token_count=6)]
        wrong_dim = HashEmbedder(dimension=emb.dimension * 2).embed_documents([new[0].text])
        with _raises(EmbedderMismatchError):
            store.add(new, wrong_dim)
        with _raises(StoreError):  # two vectors for one chunk
            store.add(new, emb.embed_documents([new[0].text, "x"]))
        nan = np.full((1, emb.dimension), np.nan, dtype=np.float32)
        with _raises(StoreError):
            store.add(new, nan)
        assert self._count(store) == len(chunks)
        assert store.documents() == before_docs
        assert [(r.chunk_id, r.score) for r in self._all(store, emb)] == before

    def test_add_replaces_chunks_with_the_same_id(self) -> None:
        """Adding a chunk id again replaces it instead of duplicating it."""
        store, emb, chunks = self._filled()
        store.add(chunks, emb.embed_documents([c.embed_text for c in chunks]))
        assert self._count(store) == len(chunks)
        assert sum(d.chunks for d in store.documents()) == len(chunks)
        store.add([], emb.embed_documents([]))
        assert self._count(store) == len(chunks)

    def test_delete_by_doc(self) -> None:
        """delete(doc_id) removes exactly that document's chunks and returns their number."""
        store, emb, chunks = self._filled()
        doc_id = chunks[0].doc_id
        assert store.delete(doc_id) == 2
        assert self._count(store) == len(chunks) - 2
        assert all(r.doc_id != doc_id for r in self._all(store, emb))
        assert doc_id not in {d.doc_id for d in store.documents()}
        assert store.delete(doc_id) == 0
        assert store.delete(_HOSTILE) == 0
        assert self._count(store) == len(chunks) - 2

    def test_documents_lists_each_document_once(self) -> None:
        """documents() lists every document once with its chunk count, in a stable order."""
        store, _, chunks = self._filled()
        docs = store.documents()
        expected: dict[tuple[str, str], int] = {}
        for c in chunks:
            expected[(c.doc_id, c.source)] = expected.get((c.doc_id, c.source), 0) + 1
        assert {(d.doc_id, d.source): d.chunks for d in docs} == expected
        assert len(docs) == len(expected)
        assert docs == store.documents()  # stable order

    # -- vector search ----------------------------------------------------
    def test_vector_search_ranks_by_similarity(self) -> None:
        """Vector search puts the most similar chunk first; an identical text scores 1."""
        store, emb, chunks = self._filled()
        hits = store.search(emb.embed_query("return products with a receipt"), k=3)
        assert hits[0].chunk_id == chunks[0].id
        hits = store.search(emb.embed_query("verify email before login"), k=3)
        assert hits[0].source == "O'Brien.pdf"
        exact = store.search(emb.embed_query(chunks[4].embed_text), k=1)
        assert exact[0].chunk_id == chunks[4].id
        assert abs(exact[0].score - 1.0) < 1e-4, exact[0].score

    def test_scores_descend_and_ranks_count_from_one(self) -> None:
        """Scores never increase down the list and ranks are 1, 2, 3, ..."""
        store, emb, _ = self._filled()
        hits = store.search(emb.embed_query("orders shipped"), k=5)
        assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        assert all(-1.0001 <= s <= 1.0001 for s in scores)

    def test_k_larger_than_count_returns_all(self) -> None:
        """A k above the number of chunks returns every chunk once."""
        store, emb, chunks = self._filled()
        hits = store.search(emb.embed_query("orders"), k=1000)
        assert len(hits) == len(chunks)
        assert {h.chunk_id for h in hits} == {c.id for c in chunks}

    def test_results_carry_citation_fields(self) -> None:
        """Hits carry text, ids, source, section path, pages, span and metadata unchanged."""
        store, emb, chunks = self._filled()
        by_id = {h.chunk_id: h for h in self._all(store, emb)}
        for c in chunks:
            h = by_id[c.id]
            assert (h.text, h.doc_id, h.source) == (c.text, c.doc_id, c.source)
            assert (h.start, h.end, h.chunk_index) == (c.start, c.end, c.index)
            assert tuple(h.section_path) == c.section_path
            assert (h.page_start, h.page_end) == (c.page_start, c.page_end)
            assert dict(h.metadata) == dict(c.metadata)

    def test_bad_search_arguments(self) -> None:
        """Bad mode, k, missing query or wrong query dimension raise clear errors."""
        store, emb, _ = self._filled()
        q = emb.embed_query("q")
        with _raises(ConfigError, "vector"):
            store.search(q, k=3, mode="semantic")  # type: ignore[arg-type]
        with _raises(ConfigError):
            store.search(q, k=0)
        with _raises(ConfigError):
            store.search(None, k=3)
        with _raises(ConfigError):
            store.search(None, None, k=3, mode="text")
        with _raises(EmbedderMismatchError):
            store.search(HashEmbedder(dimension=emb.dimension + 1).embed_query("q"), k=3)

    # -- filters ----------------------------------------------------------
    def test_filter_by_doc_id_and_source(self) -> None:
        """Equality and list filters on doc_id and source select exactly the matching chunks."""
        store, emb, chunks = self._filled()
        hits = self._all(store, emb, {"doc_id": chunks[0].doc_id})
        assert {h.chunk_id for h in hits} == {chunks[0].id, chunks[1].id}
        hits = self._all(store, emb, {"source": "notes.txt"})
        assert [h.chunk_id for h in hits] == [chunks[4].id]
        hits = self._all(store, emb, {"source": ["notes.txt", "policies.md"]})
        assert {h.chunk_id for h in hits} == {chunks[0].id, chunks[1].id, chunks[4].id}
        assert self._all(store, emb, {"source": []}) == []
        assert self._all(store, emb, {"source": "missing.pdf"}) == []

    def test_filter_source_with_a_quote(self) -> None:
        """A source containing a quote (O'Brien.pdf) filters correctly."""
        store, emb, chunks = self._filled()
        hits = self._all(store, emb, {"source": "O'Brien.pdf"})
        assert [h.chunk_id for h in hits] == [chunks[2].id]
        hits = self._all(store, emb, {"source": ["O'Brien.pdf", "nobody's.txt"]})
        assert [h.chunk_id for h in hits] == [chunks[2].id]

    def test_hostile_filter_value_neither_errors_nor_widens(self) -> None:
        """SQL-looking values are matched literally: no error, no extra hits."""
        store, emb, chunks = self._filled()
        hits = self._all(store, emb, {"source": _HOSTILE})
        assert [h.chunk_id for h in hits] == [chunks[3].id]  # the one document with that very name
        assert self._all(store, emb, {"doc_id": _HOSTILE}) == []
        assert self._all(store, emb, {"source": "y' OR '1'='1"}) == []
        assert self._all(store, emb, {"section": "') OR true OR ('"}) == []
        assert self._all(store, emb, {"source": "notes.txt' --"}) == []

    def test_filter_numbers_pages_and_sections(self) -> None:
        """Numeric comparisons, page nulls and section filters select the right chunks."""
        store, emb, chunks = self._filled()

        def ids(where: Any) -> set[str]:
            return {h.chunk_id for h in self._all(store, emb, where)}

        assert ids({"page_start": (">=", 2)}) == {chunks[1].id}
        assert ids({"page_start": None}) == {chunks[3].id, chunks[4].id}
        assert ids({"page_end": ("!=", None)}) == {chunks[0].id, chunks[1].id, chunks[2].id}
        assert ids({"index": 1}) == {chunks[1].id}
        assert ids({"index": [1, 7]}) == {chunks[1].id}
        assert ids({"start": (">", 0)}) == {chunks[1].id}
        assert ids({"section": "Shipping"}) == {chunks[1].id}
        assert ids({"section": ["Refunds", "Account Setup"]}) == {chunks[0].id, chunks[2].id}
        assert ids({"source": "policies.md", "section": "Refunds"}) == {chunks[0].id}
        assert ids({}) == {c.id for c in chunks}

    def test_bad_filters_raise_filter_error(self) -> None:
        """Unknown fields and wrongly typed values raise FilterError."""
        store, emb, _ = self._filled()
        q = emb.embed_query("q")
        for where in (
            {"bogus": 1},
            {"page_start": "3"},
            {"page_start": ("~", 3)},
            {"index": True},
            {"source": 3},
            {"source": ["a", 3]},
            {"section": 1},
        ):
            with _raises(FilterError):
                store.search(q, k=3, where=where)

    # -- text and hybrid --------------------------------------------------
    def test_text_mode_finds_keyword(self) -> None:
        """Full-text search returns only chunks containing the query's terms."""
        store, _, chunks = self._filled()
        hits = store.search(query_text="receipt", k=5, mode="text")
        assert [h.chunk_id for h in hits] == [chunks[0].id]
        assert hits[0].score > 0
        assert store.search(query_text="receipt", k=5, mode="text", where={"source": "notes.txt"}) == []
        assert store.search(query_text="   ", k=5, mode="text") == []
        assert store.search(query_text="zyxwvut", k=5, mode="text") == []

    def test_hybrid_mode_fuses_rankings(self) -> None:
        """Hybrid search fuses the vector and text rankings (whatever the fusion method)."""
        store, emb, chunks = self._filled()
        hits = store.search(emb.embed_query(_REFUND), "receipt", k=3, mode="hybrid")
        assert hits[0].chunk_id == chunks[0].id  # first in both rankings
        assert len(hits) == 3  # the vector ranking fills in where the text matches one chunk
        assert all(h.score < hits[0].score for h in hits[1:]), [h.score for h in hits]
        assert [h.rank for h in hits] == [1, 2, 3]
        hits = store.search(emb.embed_query(_REFUND), "receipt", k=3, mode="hybrid", where={"doc_id": "none"})
        assert hits == []


def check_store_conformance(make_store: Callable[[], VectorStore]) -> list[str]:
    """Run every :class:`StoreConformance` check against stores from ``make_store``.

    Returns:
        The names of the checks that ran (all passed).

    Raises:
        AssertionError: the first check that failed, named in the message.
    """
    suite = StoreConformance()
    suite.make_store = make_store  # type: ignore[method-assign]
    ran: list[str] = []
    for name in sorted(n for n in dir(StoreConformance) if n.startswith("test_")):
        try:
            getattr(suite, name)()
        except AssertionError as e:
            raise AssertionError(f"store conformance check {name} failed: {e}") from e
        ran.append(name)
    return ran
