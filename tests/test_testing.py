from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sectionrag.errors import EnrichmentError
from sectionrag.protocols import LLM, Embedder, VectorStore
from sectionrag.testing import (
    FakeLLM,
    HashEmbedder,
    InMemoryStore,
    StoreConformance,
    check_store_conformance,
)
from sectionrag.tokenizers import WordTokenizer
from sectionrag.types import SearchResult

words = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


def test_hash_embedder_implements_the_protocol() -> None:
    emb = HashEmbedder()
    assert isinstance(emb, Embedder)
    assert (emb.name, emb.dimension, emb.max_tokens) == ("hash", 256, 512)
    vecs = emb.embed_documents(["Refund policy", "Shipping policy"])
    assert vecs.shape == (2, 256) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0)
    q = emb.embed_query("refund")
    assert q.shape == (256,) and q.dtype == np.float32


def test_hash_embedder_is_deterministic_across_instances() -> None:
    a = HashEmbedder(dimension=64).embed_documents(["Orders ship in 3 days."])
    b = HashEmbedder(dimension=64).embed_documents(["Orders ship in 3 days."])
    assert np.array_equal(a, b)
    code = (
        "from sectionrag.testing import HashEmbedder;"
        "print(HashEmbedder(dimension=64).embed_query('Orders ship in 3 days.').tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert np.allclose(np.array(eval(out.stdout)), a[0])  # no per-process hash seed


def test_hash_embedder_ranks_by_word_overlap() -> None:
    emb = HashEmbedder()
    docs = [
        "Refund Policy: Customers can return products within 7 days with receipt.",
        "Shipping Policy: Orders are shipped within 3 business days.",
        "Account Setup: Users must verify email before login.",
        "Cancellation Policy: Orders can be cancelled before shipping.",
    ]
    scores = emb.embed_documents(docs) @ emb.embed_query("Can I return a product with a receipt?")
    assert int(np.argmax(scores)) == 0
    # trigrams give related forms partial credit
    related = emb.embed_query("products") @ emb.embed_query("product")
    unrelated = emb.embed_query("products") @ emb.embed_query("login")
    assert related > unrelated + 0.15


def test_empty_and_punctuation_texts_are_safe() -> None:
    emb = HashEmbedder(dimension=32)
    vecs = emb.embed_documents(["", "   ", "?!", "word"])
    assert np.isfinite(vecs).all()
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0)
    assert np.array_equal(vecs[0], vecs[1])  # both empty
    assert not np.array_equal(vecs[0], vecs[2])


@settings(max_examples=100, deadline=None)
@given(st.lists(words, min_size=1, max_size=8), st.lists(words, min_size=1, max_size=8))
def test_vectors_are_unit_and_not_constant(a: list[str], b: list[str]) -> None:
    emb = HashEmbedder(dimension=128)
    va, vb = emb.embed_documents([" ".join(a), " ".join(b)])
    assert abs(float(np.linalg.norm(va)) - 1.0) < 1e-5
    assert float(va @ va) == pytest.approx(1.0, abs=1e-5)
    if {w.lower() for w in a} != {w.lower() for w in b}:
        assert not np.allclose(va, vb)


@settings(max_examples=100, deadline=None)
@given(st.lists(words, min_size=2, max_size=6, unique=True))
def test_sharing_more_words_scores_higher(vocab: list[str]) -> None:
    from sectionrag.testing import _bucket

    features = set()
    for w in vocab:  # the word and its character trigrams, as HashEmbedder hashes them
        padded = f"#{w.lower()}#"
        features |= {"w:" + w.lower()} | {"g:" + padded[j : j + 3] for j in range(len(padded) - 2)}
    # two features hashed to one bucket (with opposite signs) can cancel: the property needs none
    assume(len({_bucket(f, 1024)[0] for f in features}) == len(features))
    emb = HashEmbedder(dimension=1024)
    query = " ".join(vocab)
    more = " ".join(vocab[:-1])
    fewer = " ".join(vocab[:1])
    q = emb.embed_query(query)
    assert q @ emb.embed_query(more) >= q @ emb.embed_query(fewer) - 1e-6


def test_counters_and_tokens() -> None:
    emb = HashEmbedder()
    emb.embed_documents(["a", "b", "c"])
    emb.embed_query("d")
    assert (emb.calls, emb.texts_embedded) == (2, 4)
    text = "Refunds: 7 days."
    assert emb.count_tokens(text) == WordTokenizer().count_tokens(text) == 5
    assert emb.token_offsets(text) == WordTokenizer().token_offsets(text)
    assert emb.count_tokens_batch([text, ""]) == [5, 0]
    with pytest.raises(TypeError):
        emb.embed_documents("one string")  # type: ignore[arg-type]


def test_fake_llm_scripts_and_records() -> None:
    llm = FakeLLM("always")
    assert isinstance(llm, LLM)
    assert llm.complete("p1", max_tokens=10) == "always"
    assert llm.prompts == ["p1"] and llm.max_tokens == [10] and llm.calls == 1

    seq = FakeLLM(["one", "two"])
    assert [seq.complete("a", max_tokens=5), seq.complete("b", max_tokens=5)] == ["one", "two"]
    with pytest.raises(EnrichmentError, match="ran out"):
        seq.complete("c", max_tokens=5)

    echo = FakeLLM(lambda prompt: prompt.upper())
    assert echo.complete("summarise", max_tokens=3) == "SUMMARISE"


def test_testing_imports_neither_torch_nor_pytest() -> None:
    code = (
        "import sys, sectionrag.testing;"
        "heavy = ('torch', 'sentence_transformers', 'lancedb', 'pytest');"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_check_store_conformance_passes_a_good_store() -> None:
    ran = check_store_conformance(InMemoryStore)
    assert len(ran) >= 15 and all(name.startswith("test_") for name in ran)
    assert isinstance(InMemoryStore(), VectorStore)


class _LeakyStore(InMemoryStore):
    """Ignores filters: exactly what the suite must catch."""

    def search(self, query_vector=None, query_text=None, k=5, where=None, mode="vector"):  # type: ignore[no-untyped-def]
        if isinstance(where, dict):
            where = None
        return super().search(query_vector, query_text, k, where, mode)


class _UnsortedStore(InMemoryStore):
    def search(self, *args, **kwargs) -> list[SearchResult]:  # type: ignore[no-untyped-def]
        return list(reversed(super().search(*args, **kwargs)))


@pytest.mark.parametrize("store", [_LeakyStore, _UnsortedStore])
def test_check_store_conformance_catches_a_broken_store(store: type[InMemoryStore]) -> None:
    with pytest.raises(AssertionError, match="store conformance check test_"):
        check_store_conformance(store)


def test_store_conformance_needs_make_store() -> None:
    with pytest.raises(NotImplementedError):
        StoreConformance().make_store()


def test_hash_embedder_embeds_queries_in_one_batch() -> None:
    emb = HashEmbedder()
    queries = ["refund policy", "shipping", ""]
    batch = emb.embed_queries(queries)
    assert emb.calls == 1 and batch.shape == (3, emb.dimension)
    assert np.allclose(batch, np.stack([HashEmbedder().embed_query(q) for q in queries]))
    with pytest.raises(TypeError):
        emb.embed_queries("one string")  # type: ignore[arg-type]


def test_query_batches_fall_back_to_one_query_at_a_time() -> None:
    from sectionrag.eval.retrieval import embed_queries

    class OneAtATime:  # a user's embedder without embed_queries
        name, dimension, max_tokens = "one", 8, 512

        def __init__(self) -> None:
            self.inner = HashEmbedder(dimension=8)

        def embed_documents(self, texts: list[str]) -> np.ndarray:
            return self.inner.embed_documents(texts)

        def embed_query(self, text: str) -> np.ndarray:
            return self.inner.embed_query(text)

        def count_tokens(self, text: str) -> int:
            return self.inner.count_tokens(text)

    plain = OneAtATime()
    assert isinstance(plain, Embedder)
    out = embed_queries(plain, ["a b", "c"], batch_size=1)
    assert np.allclose(out, HashEmbedder(dimension=8).embed_queries(["a b", "c"]))
