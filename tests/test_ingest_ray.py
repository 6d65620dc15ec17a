"""Distributed ingest on Ray Data into a collection on S3: the same collection as a local ingest.

One local Ray (2 CPUs, small object store) serves the whole session
(``conftest.ray_cluster``); the S3 server is moto's, on the loopback interface.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import Pipeline
from sectionrag.errors import ConfigError
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder

pytest.importorskip("ray", reason='needs pip install "sectionrag[ray]"')
pytest.importorskip("obstore", reason='needs pip install "sectionrag[cloud]"')

from sectionrag.ingest.ray_executor import RayExecutor

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data"


def _executor(**kw: Any) -> RayExecutor:
    # 2 CPUs shared by parsing tasks and the embedding actors
    return RayExecutor(**{"cpus_per_actor": 0.5, "parse_cpus": 0.5, **kw})


def _folder(root: Path) -> Path:
    root.mkdir(parents=True)
    for i in range(5):
        (root / f"report{i}.md").write_text(
            f"# Report {i}\n\n## Revenue\n\nRevenue in year {i} grew by {i + 3} percent, led by services. "
            "Margins held steady as costs fell.\n\n## Risks\n\nCurrency moves and supply chains. "
            f"Item {i} of the risk list names suppliers.\n\n## Outlook\n\nThe board expects growth.\n",
            encoding="utf-8",
        )
    (root / "notes.txt").write_text("Plain notes. The meeting was short. Nothing was decided.\n", "utf-8")
    (root / "page.html").write_text(
        "<html><body><h1>Policy</h1><p>Refunds within thirty days.</p><h2>Returns</h2>"
        "<p>Items must be unused.</p></body></html>",
        encoding="utf-8",
    )
    shutil.copy(root / "report1.md", root / "copy-of-report1.md")  # identical content: unique ids
    shutil.copy(DATA / "pdf" / "groff-automake.pdf", root / "manual.pdf")
    shutil.copy(DATA / "pdf" / "encrypted.pdf", root / "locked.pdf")  # fails, alone
    return root


def _pipe(store: Any, emb: Any) -> Pipeline:
    return Pipeline(
        chunker=sectionrag.chunker("section", inner="recursive", size=48), embedder=emb, store=store
    )


def _snapshot(store: LanceDBStore) -> tuple[list[dict[str, Any]], Any, list[dict[str, Any]]]:
    """Rows (without vectors) and vectors sorted by chunk id, and records without their check time."""
    import numpy as np

    table = store._open()
    assert table is not None
    arrow = table.to_arrow().sort_by("id")
    rows = arrow.drop_columns(["vector"]).to_pylist()
    vectors = np.stack(arrow.column("vector").to_numpy(zero_copy_only=False)).astype(np.float32)
    records = sorted(
        ({k: v for k, v in dataclasses.asdict(r).items() if k != "checked_ns"} for r in store.read_records()),
        key=lambda r: r["source"],
    )
    return rows, vectors, records


def _assert_same(a: LanceDBStore, b: LanceDBStore) -> None:
    import numpy as np

    rows_a, vec_a, rec_a = _snapshot(a)
    rows_b, vec_b, rec_b = _snapshot(b)
    assert [r["id"] for r in rows_a] == [r["id"] for r in rows_b]
    assert rows_a == rows_b  # texts, spans, sections, pages, metadata, sources
    assert vec_a.shape == vec_b.shape
    assert float(np.abs(vec_a - vec_b).max()) <= 1e-5
    assert rec_a == rec_b  # hashes, sizes, mtimes, configuration, chunk counts


@pytest.mark.model
def test_ray_ingest_into_s3_equals_local_ingest(
    tmp_path: Path, s3_server: Any, ray_cluster: str, minilm_torch: Any
) -> None:
    # torch, not the default OpenVINO: on CPUs with bf16 units OpenVINO computes in bf16 and a
    # text's vector moves by up to 1e-3 with the padding of its batch (locally as well), while
    # torch's stays within 3e-7; actors batch texts differently from a local run.
    minilm = minilm_torch
    docs = _folder(tmp_path / "docs")
    remote = LanceDBStore(f"s3://{s3_server.bucket()}/db", storage_options=s3_server.options)
    local = LanceDBStore(tmp_path / "local")

    distributed = _pipe(remote, minilm).ingest([docs], executor=_executor(embed_actors=2))
    single = _pipe(local, minilm).ingest([docs])
    assert distributed.to_dict() == single.to_dict()
    assert [Path(f.source).name for f in distributed.failed] == ["locked.pdf"]
    assert "encrypted" in distributed.failed[0].error
    assert distributed.embedded > 0 and distributed.chunks == single.chunks > 20
    _assert_same(remote, local)

    # nothing changed: nothing embedded (nor even sent to Ray)
    again = _pipe(remote, minilm).ingest([docs], executor=_executor())
    assert len(again.unchanged) == 9 and again.embedded == 0 and again.chunks == 0

    # an edit, a deletion and a new file, with sync: exactly the right chunks, as locally
    (docs / "report2.md").write_text(
        "# Report 2\n\n## Revenue\n\nRevenue fell this year.\n", encoding="utf-8"
    )
    (docs / "report3.md").unlink()
    (docs / "new.md").write_text("# New\n\n## Section\n\nA new filing about dividends.\n", encoding="utf-8")
    synced = _pipe(remote, minilm).ingest([docs], sync=True, executor=_executor())
    local_synced = _pipe(local, minilm).ingest([docs], sync=True)
    assert synced.to_dict() == local_synced.to_dict()
    assert [Path(s).name for s in synced.updated] == ["report2.md"]
    assert [Path(s).name for s in synced.deleted] == ["report3.md"]
    assert [Path(s).name for s in synced.added] == ["new.md"]
    assert synced.embedded <= 6  # only the new texts
    _assert_same(remote, local)
    assert remote.info() is not None and remote.info().chunks == local.info().chunks  # type: ignore[union-attr]


def test_a_killed_embedding_actor_is_restarted_and_nothing_is_lost_or_doubled(
    tmp_path: Path, s3_server: Any, ray_cluster: str
) -> None:
    from _ray_helpers import KillOnceEmbedder

    docs = _folder(tmp_path / "docs")
    marker = tmp_path / "actor-killed"
    remote = LanceDBStore(f"s3://{s3_server.bucket()}/db", storage_options=s3_server.options)
    report = _pipe(remote, KillOnceEmbedder(str(marker))).ingest([docs], executor=_executor(batch_size=8))
    assert marker.exists()  # an actor did die, SIGKILLed in the middle of a batch
    assert [Path(f.source).name for f in report.failed] == ["locked.pdf"]

    local = LanceDBStore(tmp_path / "local")
    _pipe(local, KillOnceEmbedder(str(marker))).ingest([docs])  # the marker is there: no kill
    _assert_same(remote, local)
    rows, _, _ = _snapshot(remote)
    assert len({r["id"] for r in rows}) == len(rows)


def test_a_killed_parsing_worker_is_retried(tmp_path: Path, ray_cluster: str) -> None:
    from _ray_helpers import KillOnceParser

    docs = _folder(tmp_path / "docs")
    marker = tmp_path / "parser-killed"
    emb = HashEmbedder()
    store = LanceDBStore(tmp_path / "db")
    pipe = Pipeline(
        parser=KillOnceParser("report3.md", str(marker)),
        chunker=sectionrag.chunker("recursive", size=32),
        embedder=emb,
        store=store,
    )
    report = pipe.ingest([docs], executor=_executor())
    assert marker.exists()
    assert [Path(f.source).name for f in report.failed] == ["locked.pdf"]
    assert len(report.added) == 9
    local = LanceDBStore(tmp_path / "local")
    Pipeline(chunker=sectionrag.chunker("recursive", size=32), embedder=emb, store=local).ingest([docs])
    _assert_same(store, local)


def test_documents_in_memory_and_options(tmp_path: Path, ray_cluster: str) -> None:
    doc = sectionrag.parse(_folder(tmp_path / "docs") / "report0.md")
    store = LanceDBStore(tmp_path / "db")
    report = _pipe(store, HashEmbedder()).ingest([doc], executor="ray")
    assert report.ok and len(report.added) == 1
    assert {d.source for d in store.documents()} == {doc.source}
    with pytest.raises(ConfigError, match="parse_ahead applies to the local executor only"):
        _pipe(store, HashEmbedder()).ingest([doc], executor="ray", parse_ahead=True)
    with pytest.raises(ConfigError, match="unknown executor 'dask'"):
        _pipe(store, HashEmbedder()).ingest([doc], executor="dask")


def test_plan_gpu_actors_only_for_an_embedder_that_runs_torch() -> None:
    class Cluster:
        def __init__(self, gpus: float) -> None:
            self.gpus = gpus

        def cluster_resources(self) -> dict[str, float]:
            return {"CPU": 16.0, "GPU": self.gpus}

    class Exported(HashEmbedder):
        backend = "openvino"

    class Torch(HashEmbedder):
        backend = "torch"

    assert RayExecutor().plan(Cluster(4), Torch()) == (4, 1.0)  # one actor per GPU
    assert RayExecutor().plan(Cluster(0), Torch()) == (1, 0.0)
    assert RayExecutor(embed_actors=3).plan(Cluster(4), Exported()) == (3, 0.0)  # CPU actors
    assert RayExecutor(gpus_per_actor=0.5).plan(Cluster(2), Torch()) == (4, 0.5)
    with pytest.raises(ConfigError, match="openvino backend, on CPUs only"):
        RayExecutor(gpus_per_actor=1).plan(Cluster(4), Exported())


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "sectionrag", *args]


def test_cli_joins_a_cluster_and_a_killed_driver_leaves_whole_documents(
    tmp_path: Path, s3_server: Any, ray_cluster: str
) -> None:
    """`index --ray --ray-address` in a second process, joining the session's Ray; killed, then run again."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(24):
        body = " ".join(f"Sentence {j} of document {i} about subject {i % 5}." for j in range(60))
        (docs / f"doc{i:02}.md").write_text(f"# Doc {i}\n\n## Body\n\n{body}\n", encoding="utf-8")
    bucket = s3_server.bucket()
    plugin = tmp_path / "plugin_hash.py"
    plugin.write_text(
        textwrap.dedent(
            """
            import sectionrag
            from _ray_helpers import SlowHashEmbedder

            sectionrag.register("embedder", "slow-hash", SlowHashEmbedder, params={"name": "slow-hash"})
            """
        ),
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "SECTIONRAG_PLUGINS": "plugin_hash",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
    }
    options = [f"--storage-option={k}={v}" for k, v in s3_server.options.items()]
    base = ["--db", f"s3://{bucket}/db", *options, "--embedder", "slow-hash", "--strategy", "recursive"]
    index = _cli("index", str(docs), *base, "--size", "16", "--ray", "--ray-address", ray_cluster, "--json")
    proc = subprocess.Popen(index, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    store = LanceDBStore(f"s3://{bucket}/db", storage_options=s3_server.options)
    deadline = time.monotonic() + 240
    while proc.poll() is None and time.monotonic() < deadline:  # kill it once a group is recorded
        if store.info() is not None and store.read_records():
            break
        time.sleep(0.2)
    killed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    # per document: all of its chunks or none, and a record only for a whole document
    from sectionrag.stores import InMemoryStore

    wired = Pipeline(
        chunker=sectionrag.chunker("recursive", size=16), embedder=HashEmbedder(), store=InMemoryStore()
    )
    expected = {str(p): len(wired.chunker.chunk(sectionrag.parse(p))) for p in sorted(docs.iterdir())}
    held = {d.source: d.chunks for d in store.documents()}
    assert all(n == expected[source] for source, n in held.items())
    assert all(r.chunks == held.get(r.source) for r in store.read_records())
    done = subprocess.run(
        [*index[:-1], "--wait", "60", "--json"], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["added"] + result["updated"] + result["unchanged"] == 24
    assert killed, "the first run ended before a group was recorded: nothing was tested"
    assert result["unchanged"] > 0 and result["added"] > 0  # it went on from the documents written
    assert len(store.documents()) == 24
    rows = store._open().to_arrow().column("id").to_pylist()  # type: ignore[union-attr]
    assert len(rows) == len(set(rows))
    assert s3_server.options["aws_secret_access_key"] not in done.stdout + done.stderr
