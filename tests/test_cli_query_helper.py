"""``sectionrag search``'s helper process: the hinted model embeds the query while lancedb is imported.

The helper is forked only from a process that has imported nothing that
starts threads of its own, which the test process is not (lancedb is
imported here): every run of the command goes through a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sectionrag
from sectionrag.cli import _query_helper, main
from sectionrag.testing import HashEmbedder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "data"
QUERY = "Can I return a product?"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the helper forks on Linux only")

#: a fresh ``sectionrag search`` process: registers the fake embedders, runs the command with
#: --debug, then says on stderr its exit code and whether a child process was left behind
_SEARCH = """
import os, sys
import sectionrag
from sectionrag.testing import HashEmbedder

class Noisy(HashEmbedder):
    def embed_query(self, text):
        print("NOISY on stdout")
        print("NOISY on stderr", file=sys.stderr)
        raise RuntimeError("NOISY failure")

sectionrag.register("embedder", "hash-48", lambda: HashEmbedder(48, name="hash-48"))
sectionrag.register("embedder", "hash-32", lambda: HashEmbedder(32, name="hash-32"))
sectionrag.register("embedder", "noisy-48", lambda: Noisy(48, name="noisy-48"))
if "--no-fork" in sys.argv:
    sys.argv.remove("--no-fork")
    del os.fork
from sectionrag.cli import main
try:
    rc = main(["search", *sys.argv[1:], "--json", "--debug", "-k", "3"])
except Exception as e:  # --debug raises what the command would print
    print("error:", e, file=sys.stderr)
    rc = 1
try:
    left = os.waitpid(-1, os.WNOHANG)
except ChildProcessError:
    left = "no child"
print("##", rc, left, file=sys.stderr)
"""


def run_search(db: Path, *args: str) -> tuple[int, list[Any], str, str]:
    """Run the command in a fresh process; return (exit code, results, stderr, what was left)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-c", _SEARCH, QUERY, "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("## "), out.stderr[-3000:]
    _, rc, left = last.split(" ", 2)
    results = json.loads(out.stdout)["results"] if int(rc) == 0 else []
    assert "NOISY" not in out.stdout  # the child's output never reaches the terminal
    return int(rc), [(r["source"], r["start"], r["end"], r["score"]) for r in results], out.stderr, left


def hint(db: Path, collection: str = "default") -> Path:
    return db / f"_sectionrag_embedder.{collection}.json"


@pytest.fixture
def db(tmp_path: Path, clean_registry: None, capsys: pytest.CaptureFixture[str]) -> Path:
    """A collection of the two examples embedded with ``hash-48``, and its hint."""
    sectionrag.register("embedder", "hash-48", lambda: HashEmbedder(48, name="hash-48"))
    docs = tmp_path / "docs"
    shutil.copytree(EXAMPLES, docs)
    out = tmp_path / "db"
    argv = ["index", str(docs), "--db", str(out), "--embedder", "hash-48", "--strategy", "paragraph"]
    assert main([*argv, "--json"]) == 0
    capsys.readouterr()
    assert json.loads(hint(out).read_text(encoding="utf-8"))["embedder"] == "hash-48"
    return out


def expected(db: Path, capsys: pytest.CaptureFixture[str], mode: str = "vector") -> list[Any]:
    """The results of the search in this process (no helper: lancedb is imported here)."""
    assert main(["search", QUERY, "--db", str(db), "--mode", mode, "--json", "-k", "3"]) == 0
    return [
        (r["source"], r["start"], r["end"], r["score"])
        for r in json.loads(capsys.readouterr().out)["results"]
    ]


def test_the_helper_embeds_the_query_and_is_reaped(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for mode in ("vector", "hybrid"):
        want = expected(db, capsys, mode)
        rc, got, stderr, left = run_search(db, "--mode", mode)
        assert (rc, left) == (0, "no child")
        assert "the query vector came from the helper process" in stderr
        assert got == want


def test_text_search_starts_no_helper(db: Path) -> None:
    rc, got, stderr, left = run_search(db, "--mode", "text")
    assert (rc, left) == (0, "no child") and got
    assert "query helper" not in stderr


@pytest.mark.parametrize("bad", ["another model", "a model that fails", "missing", "no fork"])
def test_without_a_usable_helper_the_recorded_embedder_answers(
    db: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    want = expected(db, capsys)
    good = json.loads(hint(db).read_text(encoding="utf-8"))
    extra: list[str] = []
    if bad == "missing":
        hint(db).unlink()
    elif bad == "no fork":
        extra = ["--no-fork"]
    else:
        name, dim = ("hash-32", 32) if bad == "another model" else ("noisy-48", 48)
        wrong = {**good, "embedder": name, "dimension": dim}
        wrong["description"] = {**good["description"], "name": name, "dimension": dim}
        hint(db).write_text(json.dumps(wrong), encoding="utf-8")
    rc, got, stderr, left = run_search(db, "--mode", "vector", *extra)
    assert (rc, left) == (0, "no child")
    assert got == want
    assert "the query vector came from the helper process" not in stderr
    assert "NOISY" not in stderr and "Traceback" not in stderr
    if bad == "another model":
        assert "another embedder than recorded" in stderr
    elif bad == "a model that fails":
        assert "the query helper failed (exit code 1)" in stderr
    else:
        assert "query helper process" not in stderr
    if bad == "no fork":  # the thread preload of the hinted model, as before the helper
        assert "preloading the hinted model in a thread" in stderr
    assert json.loads(hint(db).read_text(encoding="utf-8")) == good  # put right from the record


def test_a_failed_search_stops_and_reaps_the_helper(db: Path) -> None:
    """A hint for a collection that does not exist: the helper starts, the command fails, no child is left."""
    shutil.copy(hint(db), hint(db, "gone"))
    rc, _, stderr, left = run_search(db, "--collection", "gone")
    assert (rc, left) == (1, "no child")
    assert "query helper process" in stderr
    assert "collection 'gone' does not exist" in stderr


def test_the_answer_is_checked() -> None:
    vector = np.arange(4, dtype=np.float32)
    data = _query_helper._encode(vector, {"embedder": "x"})
    got, described = _query_helper._decode(data)
    assert described == {"embedder": "x"} and got.dtype == np.float32
    np.testing.assert_array_equal(got, vector)
    for broken in (data[:-1], data[:10], b"", data[:4] + b"{not json" + data[4:]):
        with pytest.raises((ValueError, KeyError, UnicodeDecodeError)):
            _query_helper._decode(broken)


def test_no_fork_once_threads_or_threaded_libraries_are_in() -> None:
    assert not _query_helper.can_fork()  # lancedb (and its event loop thread) are in this process
    code = (
        "import sys; from sectionrag.cli._query_helper import can_fork; a = can_fork(); "
        "import threading, time; t = threading.Thread(target=time.sleep, args=(0.5,)); t.start(); "
        "b = can_fork(); t.join(); import pyarrow; print(a, b, can_fork())"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["True", "False", "False"]
