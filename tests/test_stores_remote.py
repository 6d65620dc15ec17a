"""Collections on object storage: a real S3-compatible server (moto) on the loopback interface.

What a local collection does, a collection in a bucket must do too: records,
embedding cache, atomic replacement, search; one writer at a time (a lease
object written with conditional requests); and no secret ever shown or stored.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag import Pipeline
from sectionrag.errors import ConfigError, IngestError
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder

pytest.importorskip("obstore", reason='needs pip install "sectionrag[cloud]"')

SECRET = "testing-secret"  # the secret access key of conftest's S3Server

TEXTS = {
    "alpha.md": (
        "# Alpha\n\n## Revenue\n\nRevenue grew by ten percent in the year.\n\n## Risks\n\nCurrency risk.\n"
    ),
    "beta.md": "# Beta\n\n## Products\n\nThe company sells widgets and gadgets.\n",
    "gamma.txt": "Gamma notes. The board met twice. Dividends were raised.\n",
}


def _folder(root: Path, texts: dict[str, str] = TEXTS) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _pipe(store: Any, emb: Any = None) -> Pipeline:
    return Pipeline(
        chunker=sectionrag.chunker("recursive", size=8), embedder=emb or HashEmbedder(), store=store
    )


def _store(s3: Any, bucket: str, **kw: Any) -> LanceDBStore:
    return LanceDBStore(f"s3://{bucket}/db", storage_options=s3.options, **kw)


def _rows(store: LanceDBStore) -> list[dict[str, Any]]:
    table = store._open()
    assert table is not None
    return sorted(table.to_arrow().drop_columns(["vector"]).to_pylist(), key=lambda r: r["id"])


def test_uri_detection() -> None:
    from sectionrag.stores.lancedb import is_remote

    assert is_remote("s3://b/x") and is_remote("gs://b") and is_remote("az://c/p")
    assert not is_remote("./db") and not is_remote(Path("s3:/b")) and not is_remote("file:///tmp/x")
    with pytest.raises(ConfigError, match="unsupported database URI scheme 'http'"):
        LanceDBStore("http://example.com/db")
    store = LanceDBStore("s3://AKIA:hunter2@bucket/db")
    assert "hunter2" not in repr(store) and store.path is None and store.remote


def test_ingest_search_and_reingest_on_s3(tmp_path: Path, s3_server: Any) -> None:
    bucket = s3_server.bucket()
    docs = _folder(tmp_path / "docs")
    emb = HashEmbedder()
    report = _pipe(_store(s3_server, bucket), emb).ingest([docs])
    assert report.ok and len(report.added) == 3 and report.chunks > 3
    # the same content as a local collection
    local = LanceDBStore(tmp_path / "local")
    _pipe(local, HashEmbedder()).ingest([docs])
    assert _rows(_store(s3_server, bucket)) == _rows(local)
    hits = _pipe(_store(s3_server, bucket), emb).search("widgets and gadgets", k=1, mode="vector")
    assert hits and hits[0].source.endswith("beta.md")

    # records and the embedding cache live in the bucket: a fresh process state embeds nothing
    before = emb.texts_embedded
    again = _pipe(_store(s3_server, bucket), emb).ingest([docs])
    assert len(again.unchanged) == 3 and again.embedded == 0 and emb.texts_embedded == before
    rechunked = Pipeline(
        chunker=sectionrag.chunker("recursive", size=8), embedder=emb, store=_store(s3_server, bucket)
    ).ingest([docs], verify=True)
    assert rechunked.embedded == 0

    # an edit replaces that document alone; a sync deletes a removed one
    (docs / "beta.md").write_text("# Beta\n\n## Products\n\nNow it sells only widgets.\n", encoding="utf-8")
    (docs / "gamma.txt").unlink()
    synced = _pipe(_store(s3_server, bucket), emb).ingest([docs], sync=True)
    assert [Path(s).name for s in synced.updated] == ["beta.md"]
    assert [Path(s).name for s in synced.deleted] == ["gamma.txt"]
    sources = {Path(d.source).name for d in _store(s3_server, bucket).documents()}
    assert sources == {"alpha.md", "beta.md"}
    keys = s3_server.objects(bucket)
    assert any(k.startswith("db/_sectionrag_records.default.lance/") for k in keys)
    assert any(k.startswith("db/_sectionrag_embeddings.") for k in keys)
    assert "db/_sectionrag_ingest.default.lock" in keys


def test_secrets_are_never_shown_logged_or_stored(
    tmp_path: Path, s3_server: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    bucket = s3_server.bucket()
    docs = _folder(tmp_path / "docs")
    caplog.set_level(logging.DEBUG)
    store = _store(s3_server, bucket)
    _pipe(store).ingest([docs])
    assert SECRET not in repr(store) and SECRET not in store.where
    for key, data in s3_server.objects(bucket).items():
        assert SECRET.encode() not in data, key
    assert SECRET not in caplog.text
    # an error names the database, never its options
    broken = LanceDBStore(
        f"s3://{bucket}-missing/db",
        storage_options={**s3_server.options, "aws_endpoint": "http://127.0.0.1:9"},
    )
    with pytest.raises(Exception) as info:
        _pipe(broken).ingest([docs])
    assert SECRET not in str(info.value)
    out = capsys.readouterr()
    assert SECRET not in out.out + out.err

    from sectionrag.cli import main

    options = [f"--storage-option={k}={v}" for k, v in s3_server.options.items()]
    args = ["--db", f"s3://{bucket}/db", "--collection", "cli", *options]
    assert main(["index", str(docs), *args, "--embedder", "tests-hash", "--json"]) == 0
    assert main(["search", "widgets", *args, "--json", "--mode", "text"]) == 0
    out = capsys.readouterr()
    assert "beta.md" in out.out
    assert SECRET not in out.out + out.err


@pytest.fixture(autouse=True)
def _hash_embedder_name(clean_registry: None) -> None:
    """Register the fake embedder under a name the command line can take."""
    sectionrag.register("embedder", "tests-hash", HashEmbedder, params={"name": "tests-hash"})


def test_secrets_from_the_environment_never_reach_the_command_line(
    tmp_path: Path, s3_server: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--storage-option-env KEY=VAR`` reads the value from VAR, so it is not in the process list."""
    from sectionrag.cli import main

    bucket = s3_server.bucket()
    docs = _folder(tmp_path / "docs")
    plain = {k: v for k, v in s3_server.options.items() if k != "aws_secret_access_key"}
    assert len(plain) < len(s3_server.options)  # the secret is the one option left to the environment
    monkeypatch.setenv("SRAG_TEST_S3_SECRET", SECRET)
    args = [
        "--db",
        f"s3://{bucket}/db",
        *[f"--storage-option={k}={v}" for k, v in plain.items()],
        "--storage-option-env",
        "aws_secret_access_key=SRAG_TEST_S3_SECRET",
    ]
    assert SECRET not in " ".join(args)
    assert main(["index", str(docs), *args, "--embedder", "tests-hash", "--json"]) == 0
    assert main(["search", "widgets", *args, "--json", "--mode", "text"]) == 0
    out = capsys.readouterr()
    assert "beta.md" in out.out
    assert SECRET not in out.out + out.err
    # the value the store is given is the environment's (moto accepts any secret, so check the mapping)
    from sectionrag.cli import build_parser
    from sectionrag.cli._common import storage_options

    parsed = build_parser().parse_args(["search", "widgets", *args])
    assert storage_options(parsed) == {**plain, "aws_secret_access_key": SECRET}


def test_storage_option_env_names_a_missing_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sectionrag.cli import main

    monkeypatch.delenv("SRAG_TEST_UNSET", raising=False)
    code = main(
        ["search", "x", "--db", "s3://b/db", "--storage-option-env", "aws_secret_access_key=SRAG_TEST_UNSET"]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "SRAG_TEST_UNSET" in err and "not set" in err
    assert main(["search", "x", "--db", "s3://b/db", "--storage-option-env", "no-equals-sign"]) == 2
    assert "KEY=VAR" in capsys.readouterr().err


def test_storage_option_flag_needs_key_value(capsys: pytest.CaptureFixture[str]) -> None:
    from sectionrag.cli import main

    code = main(["search", "x", "--db", "s3://b/db", "--storage-option", "aws_secret_access_key"])
    assert code == 2
    err = capsys.readouterr().err
    assert "KEY=VALUE" in err


def test_second_writer_is_refused_then_waits(tmp_path: Path, s3_server: Any) -> None:
    bucket = s3_server.bucket()
    store = _store(s3_server, bucket)
    other = _store(s3_server, bucket)
    with (
        store.write_lock(),
        pytest.raises(IngestError, match=r"another ingest is writing to collection 'default'.*pid"),
        other.write_lock(),
    ):
        pass
    started = time.monotonic()
    with other.write_lock(timeout=5):  # released: taken at once, not after the lease's time to live
        assert time.monotonic() - started < 2
    # a waiter gets the lease as soon as the holder lets it go
    holder = threading.Thread(target=lambda: _hold(store, 1.5))
    holder.start()
    time.sleep(0.5)
    with other.write_lock(timeout=30):
        pass
    holder.join()


def _hold(store: LanceDBStore, seconds: float) -> None:
    with store.write_lock():
        time.sleep(seconds)


def test_a_killed_writers_lease_is_taken_over(tmp_path: Path, s3_server: Any) -> None:
    bucket = s3_server.bucket()
    code = textwrap.dedent(
        f"""
        import json, sys, time
        from sectionrag.stores import LanceDBStore
        store = LanceDBStore("s3://{bucket}/db", storage_options=json.loads(sys.argv[1]), lock_ttl=1.0)
        with store.write_lock():
            print("held", flush=True)
            time.sleep(600)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(sectionrag.__file__).parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, json.dumps(s3_server.options)],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        store = _store(s3_server, bucket, lock_ttl=1.0)
        with (
            pytest.raises(IngestError, match="another ingest"),  # alive and renewing: refused
            store.write_lock(timeout=2.5),
        ):
            pass
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        started = time.monotonic()
        with store.write_lock(timeout=20):  # not renewed any more: stale after about one ttl
            taken = time.monotonic() - started
        assert taken < 10
    finally:
        proc.kill()
        proc.wait()


def test_concurrent_ingests_into_one_remote_collection_lose_nothing(tmp_path: Path, s3_server: Any) -> None:
    """Two ingests at once into one collection in a bucket: one waits for the other; both land whole."""
    bucket = s3_server.bucket()
    first = _folder(tmp_path / "first", {f"a{i}.md": f"# A{i}\n\nalpha text number {i}.\n" for i in range(6)})
    second = _folder(
        tmp_path / "second", {f"b{i}.md": f"# B{i}\n\nbeta text number {i}.\n" for i in range(6)}
    )
    reports: dict[str, Any] = {}
    errors: list[BaseException] = []

    def ingest(folder: Path) -> None:
        try:
            reports[folder.name] = _pipe(_store(s3_server, bucket)).ingest([folder], lock_timeout=120)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=ingest, args=(f,)) for f in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(r.ok and len(r.added) == 6 for r in reports.values())
    store = _store(s3_server, bucket)
    docs = store.documents()
    assert len(docs) == 12 and len({d.source for d in docs}) == 12
    assert {r.source for r in store.read_records()} == {d.source for d in docs}
    ids = [r["id"] for r in _rows(store)]
    assert len(ids) == len(set(ids))  # no chunk twice
