"""The command line's sidecar files: the no-op manifest of ``index`` and the embedder hint of ``search``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sectionrag
from sectionrag.cli import _unchanged, main
from sectionrag.cli import index as index_cli
from sectionrag.pipeline import Pipeline
from sectionrag.stores import LanceDBStore
from sectionrag.stores._lock import file_lock
from sectionrag.testing import HashEmbedder

ROOT = Path(__file__).resolve().parent.parent
QUERY = "Can I return a product?"
#: the index command of these tests (paragraph chunks: no chunking model to prepare)
INDEX = ["index", "--embedder", "hash-48", "--strategy", "paragraph"]


class ThreadNotingEmbedder(HashEmbedder):
    """A fake embedder that notes the threads its queries were embedded on."""

    def __init__(self, dim: int, *, name: str) -> None:
        super().__init__(dim, name=name)
        self.query_threads: list[str] = []

    def embed_query(self, text: str) -> Any:
        self.query_threads.append(threading.current_thread().name)
        return super().embed_query(text)


@pytest.fixture
def hash48(clean_registry: None) -> ThreadNotingEmbedder:
    emb = ThreadNotingEmbedder(48, name="hash-48")
    sectionrag.register("embedder", "hash-48", lambda: emb)
    return emb


@pytest.fixture
def not_racy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test a moment ago count as settled (the real rule waits two seconds)."""
    monkeypatch.setattr(_unchanged, "RACY_NS", -1)


def run_index(capsys: pytest.CaptureFixture[str], docs: Path, db: Path, *extra: str) -> dict[str, Any]:
    code = main([*INDEX, str(docs), "--db", str(db), "--json", *extra])
    out = json.loads(capsys.readouterr().out)
    out["code"] = code
    return out


def no_ingest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any run that would open the collection fail the test."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the collection was opened")

    monkeypatch.setattr(index_cli, "open_collection", refuse)


def manifest(db: Path) -> Path:
    return db / "_sectionrag_unchanged.default.json"


def hint(db: Path) -> Path:
    return db / "_sectionrag_embedder.default.json"


# -- the no-op manifest of `sectionrag index` -------------------------------------------------------


def test_an_unchanged_folder_is_answered_from_the_manifest(
    tmp_path: Path,
    docs: Path,
    hash48: Any,
    not_racy: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    assert manifest(db).is_file()
    slow = run_index(capsys, docs, db)  # the full path agrees with what the manifest will say
    with monkeypatch.context() as m:
        no_ingest(m)
        fast = run_index(capsys, docs, db)
        assert fast == slow == {**slow, "unchanged": 2, "added": 0, "updated": 0, "chunks": 0, "code": 0}
        assert main([*INDEX, str(docs), "--db", str(db)]) == 0
        line = capsys.readouterr().out
        assert line.startswith("0 added, 0 updated, 2 unchanged, 0 deleted, 0 failed; 0 chunks written")
        assert "(hash-48 -> " in line


def _modify_keeping_size(path: Path, *, keep_mtime: bool = False) -> None:
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[10] = ord("X") if data[10] != ord("X") else ord("Y")
    path.write_bytes(bytes(data))
    if keep_mtime:  # then only the change time tells
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("modify", {"updated": 1, "unchanged": 1}),
        ("add", {"added": 1, "unchanged": 2}),
        ("delete", {"unchanged": 1}),
        ("write through the Python API", {"updated": 1, "unchanged": 1}),
        ("corrupt manifest", {"unchanged": 2}),
    ],
)
def test_any_change_runs_the_ingest(
    tmp_path: Path,
    docs: Path,
    hash48: Any,
    not_racy: None,
    capsys: pytest.CaptureFixture[str],
    change: str,
    expected: dict[str, int],
) -> None:
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    files = sorted(docs.iterdir())
    if change == "modify":
        _modify_keeping_size(files[0])
    elif change == "add":
        (docs / "new.md").write_text("# New\n\nA new document about refunds.\n", encoding="utf-8")
    elif change == "delete":
        files[0].unlink()
    elif change == "write through the Python API":  # another writer drops a document
        store = LanceDBStore(db)
        doc_id = store.documents()[0].doc_id
        assert store.delete(doc_id) > 0
    else:
        manifest(db).write_text("{not json", encoding="utf-8")
    out = run_index(capsys, docs, db)
    assert {k: out[k] for k in expected} == expected
    assert out["code"] == 0
    assert manifest(db).is_file()  # written again for the next run


def test_a_file_rewritten_with_its_old_mtime_takes_the_full_path(
    tmp_path: Path,
    docs: Path,
    hash48: Any,
    not_racy: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stricter than the ingest's own size and mtime check: the change time and inode count too."""
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    _modify_keeping_size(sorted(docs.iterdir())[0], keep_mtime=True)
    no_ingest(monkeypatch)
    with pytest.raises(AssertionError, match="the collection was opened"):
        main([*INDEX, str(docs), "--db", str(db)])


def test_other_options_verify_and_a_busy_lock_take_the_full_path(
    tmp_path: Path,
    docs: Path,
    hash48: Any,
    not_racy: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    calls: list[str] = []
    real = index_cli.open_collection

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append("open")
        return real(*args, **kwargs)

    monkeypatch.setattr(index_cli, "open_collection", spy)
    assert run_index(capsys, docs, db, "--verify")["unchanged"] == 2
    assert run_index(capsys, docs, db, "--size", "40", "--rechunk")["updated"] == 2
    assert len(calls) == 2
    with file_lock(db / "_sectionrag_ingest.default.lock", what="test"):
        code = main([*INDEX, str(docs), "--db", str(db)])
    assert code == 1 and "another ingest" in capsys.readouterr().err
    assert len(calls) == 3


def test_files_modified_a_moment_ago_leave_no_manifest(
    tmp_path: Path, docs: Path, hash48: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file changed within two seconds of the run could change again with the same times."""
    db = tmp_path / "db"
    (docs / "fresh.md").write_text("# Fresh\n\nJust written.\n", encoding="utf-8")
    assert run_index(capsys, docs, db)["added"] == 3
    assert not manifest(db).exists()


def test_a_failed_file_leaves_no_manifest(
    tmp_path: Path, docs: Path, hash48: Any, not_racy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db"
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a PDF")
    out = run_index(capsys, docs, db)
    assert out["code"] == 1 and out["failed"]
    assert not manifest(db).exists()
    assert run_index(capsys, docs, db)["failed"]  # reported again, not hidden by a manifest


def test_a_no_op_run_imports_neither_lancedb_nor_a_model(
    tmp_path: Path, docs: Path, hash48: Any, not_racy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    code = (
        "import sys; from sectionrag.cli import main; "
        f"rc = main([*{INDEX!r}, {str(docs)!r}, '--db', {str(db)!r}, '--json']); "
        "heavy = [m for m in ('lancedb', 'pyarrow', 'torch', 'openvino') if m in sys.modules]; "
        "print(rc, heavy, file=sys.stderr)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    recorded = json.loads(manifest(db).read_text(encoding="utf-8"))
    assert recorded["versions"] == _unchanged._versions(db, "default")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stderr.strip().splitlines()[-1] == "0 []", (recorded, out.stderr[-3000:])
    assert json.loads(out.stdout)["unchanged"] == 2


# -- the embedder hint of `sectionrag search` -------------------------------------------------------


def search(capsys: pytest.CaptureFixture[str], db: Path, mode: str = "vector") -> list[Any]:
    assert main(["search", QUERY, "--db", str(db), "--mode", mode, "--json", "-k", "3"]) == 0
    return [(r["source"], r["start"], r["end"]) for r in json.loads(capsys.readouterr().out)["results"]]


def test_the_hinted_model_is_loaded_in_a_thread(
    tmp_path: Path, docs: Path, hash48: ThreadNotingEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    recorded = json.loads(hint(db).read_text(encoding="utf-8"))
    assert recorded["embedder"] == "hash-48" and recorded["dimension"] == 48
    hash48.query_threads.clear()
    for mode in ("vector", "hybrid"):
        assert search(capsys, db, mode)
    assert hash48.query_threads.count("sectionrag-model-preload") == 2
    hash48.query_threads.clear()
    assert search(capsys, db, "text")
    assert hash48.query_threads == []  # text search loads no model, hinted or not


@pytest.mark.parametrize("bad", ["missing", "corrupt", "another model", "another format"])
def test_a_wrong_hint_never_changes_the_results(
    tmp_path: Path, docs: Path, hash48: ThreadNotingEmbedder, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    other = ThreadNotingEmbedder(32, name="hash-32")
    sectionrag.register("embedder", "hash-32", lambda: other)
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    good = hint(db).read_text(encoding="utf-8")
    expected = search(capsys, db)
    if bad == "missing":
        hint(db).unlink()
    elif bad == "corrupt":
        hint(db).write_text("\x00garbage", encoding="utf-8")
    elif bad == "another model":
        wrong = json.loads(good)
        wrong.update(embedder="hash-32", dimension=32)
        wrong["description"].update(name="hash-32", dimension=32)
        hint(db).write_text(json.dumps(wrong), encoding="utf-8")
    else:
        hint(db).write_text(json.dumps({**json.loads(good), "format": 99}), encoding="utf-8")
    hash48.query_threads.clear()
    assert search(capsys, db) == expected
    assert "MainThread" in hash48.query_threads  # the recorded embedder embedded the query
    if bad == "another model":
        assert other.query_threads == ["sectionrag-model-preload"]  # loaded for nothing, then ignored
    assert json.loads(hint(db).read_text(encoding="utf-8")) == json.loads(good)  # put right


def test_a_hint_naming_a_model_that_cannot_load_is_ignored(
    tmp_path: Path, docs: Path, hash48: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    expected = search(capsys, db)
    wrong = json.loads(hint(db).read_text(encoding="utf-8"))
    wrong.update(embedder="acme/no-such-model")
    wrong["description"].update(name="acme/no-such-model")
    hint(db).write_text(json.dumps(wrong), encoding="utf-8")
    assert search(capsys, db) == expected


def test_a_read_only_database_still_searches(
    tmp_path: Path,
    docs: Path,
    hash48: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sectionrag.cli import _sidecar

    db = tmp_path / "db"
    chunker = sectionrag.chunker("paragraph")
    assert Pipeline(embedder=hash48, store=LanceDBStore(db), chunker=chunker).ingest([docs]).ok
    assert not hint(db).exists()  # the Python API writes no sidecar

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError("read-only file system")

    monkeypatch.setattr(_sidecar.tempfile, "mkstemp", refuse)
    assert search(capsys, db)
    assert not hint(db).exists()
    monkeypatch.undo()
    assert search(capsys, db)
    assert json.loads(hint(db).read_text(encoding="utf-8"))["embedder"] == "hash-48"
    assert np.isfinite(hash48.embed_query("x")).all()


@pytest.mark.model
def test_cli_vector_search_loads_the_hinted_minilm_once(
    tmp_path: Path, docs: Path, minilm: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """In the helper process where the command may fork (Linux), else in the preload thread."""
    db = tmp_path / "db"
    chunker = sectionrag.chunker("paragraph")
    assert Pipeline(embedder=minilm, store=LanceDBStore(db), chunker=chunker).ingest([docs]).ok
    assert main(["search", QUERY, "--db", str(db), "--json"]) == 0  # writes the hint
    expected = json.loads(capsys.readouterr().out)["results"]
    assert hint(db).is_file()
    code = (
        "import os, sys, threading\n"
        "if sys.argv[1] == 'no fork':\n"
        "    del os.fork\n"
        "import sectionrag.embedders._models as m\n"
        "loads = []\n"
        "def spying(real):\n"
        "    def spy(*a, **k):\n"
        "        loads.append(threading.current_thread().name)\n"
        "        return real(*a, **k)\n"
        "    return spy\n"
        "m._load_exported, m._load_torch = spying(m._load_exported), spying(m._load_torch)\n"
        "from sectionrag.cli import main\n"
        f"rc = main(['search', {QUERY!r}, '--db', {str(db)!r}, '--json'])\n"
        "print(rc, loads, 'torch' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    torch = minilm.backend == "torch"
    forks = sys.platform.startswith("linux")
    for how in ("fork", "no fork"):
        out = subprocess.run(
            [sys.executable, "-c", code, how], capture_output=True, text=True, check=True, env=env
        )
        if how == "fork" and forks:  # the helper loaded the model: this process never did
            assert out.stderr.strip().splitlines()[-1] == "0 [] False"
        else:
            assert out.stderr.strip().splitlines()[-1] == f"0 ['sectionrag-model-preload'] {torch}"
        assert json.loads(out.stdout)["results"] == expected


def test_a_search_naming_its_embedder_leaves_the_hint_alone(
    tmp_path: Path, docs: Path, hash48: ThreadNotingEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--embedder``/``--backend`` may name another runtime than the recorded one: not worth a hint."""
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    hint(db).write_text("stale", encoding="utf-8")
    assert main(["search", QUERY, "--db", str(db), "--embedder", "hash-48", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"]
    assert hint(db).read_text(encoding="utf-8") == "stale"


def test_a_collection_dropped_and_built_again_takes_the_full_path(
    tmp_path: Path,
    docs: Path,
    hash48: ThreadNotingEmbedder,
    not_racy: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its version files have the old names again, but not the old times."""
    db = tmp_path / "db"
    assert run_index(capsys, docs, db)["added"] == 2
    first = sorted(docs.iterdir())[0]
    store = LanceDBStore(db)
    assert store.drop()
    rebuilt = Pipeline(embedder=hash48, store=store, chunker=sectionrag.chunker("paragraph"))
    assert rebuilt.ingest([first]).ok  # one document of two
    out = run_index(capsys, docs, db)
    assert (out["added"], out["unchanged"]) == (1, 1)
