"""Ingest holds a bounded amount of work at once: groups of chunks, batches of texts."""

from __future__ import annotations

from typing import Any

import pytest

import sectionrag
from sectionrag import Document, Pipeline
from sectionrag.ingest import runner
from sectionrag.testing import HashEmbedder, InMemoryStore


class Recording(InMemoryStore):
    """Records how many chunks each atomic write carries."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[int] = []

    def replace_sources(self, sources: Any, chunks: Any, vectors: Any) -> None:
        self.groups.append(len(chunks))
        super().replace_sources(sources, chunks, vectors)


class Batches(HashEmbedder):
    """Records the size of each embed_documents call."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def embed_documents(self, texts: Any) -> Any:
        self.sizes.append(len(texts))
        return super().embed_documents(texts)


@pytest.mark.parametrize("parse_ahead", [False, True])
def test_chunks_are_embedded_and_written_in_bounded_groups(parse_ahead: bool) -> None:
    texts = ["\n\n".join(f"Paragraph {p} of document {d}, unique." for p in range(30)) for d in range(60)]
    docs = [Document.create(text, source=f"d{d}") for d, text in enumerate(texts)]
    store, emb = Recording(), Batches()
    chunker = sectionrag.chunker("paragraph", size=16, tokenizer=emb)
    per_doc = max(len(chunker.chunk(d)) for d in docs)
    pipe = Pipeline(chunker=chunker, embedder=emb, store=store, batch_size=32)
    report = pipe.ingest(docs, parse_ahead=parse_ahead)
    assert report.ok and report.chunks == sum(store.groups) and len(store.groups) > 2
    assert max(store.groups) < runner._FLUSH_MIN + per_doc  # a group closes once it has 512 chunks
    assert max(emb.sizes) <= 32
