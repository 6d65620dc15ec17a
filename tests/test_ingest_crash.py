"""Crash safety: SIGKILL an ingest at random moments, 20 times; the database must stay whole.

After every kill the database must open, every document in it must be
exactly one version of that document (all its chunks old or all new, never
a mix, never half), and a re-run must complete and leave the collection
mirroring the files, after which another run embeds nothing.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

import sectionrag
from _ingest_crash_child import NAMES, VARIANTS, make_pipeline, variant
from sectionrag.stores import LanceDBStore

KILLS = 20
HERE = Path(__file__).parent


def _expected(tmp: Path) -> dict[str, dict[int, list[str]]]:
    """Chunk texts of every variant of every document, as the pipeline makes them."""
    pipe: Any = make_pipeline(tmp / "unused-db")
    out: dict[str, dict[int, list[str]]] = {}
    for name in NAMES:
        for v in range(VARIANTS):
            path = tmp / "variants" / str(v) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(variant(name, v), encoding="utf-8")
            out.setdefault(name, {})[v] = [c.text for c in pipe.chunker.chunk(sectionrag.parse(path))]
    return out


def _held(db: Path) -> dict[str, list[tuple[int, str, str]]]:
    store = LanceDBStore(db)
    table = store._open()
    if table is None:
        return {}
    rows = table.search().select(["source", "doc_id", "index", "text"]).limit(None).to_arrow().to_pylist()
    out: dict[str, list[tuple[int, str, str]]] = {}
    for r in rows:
        out.setdefault(Path(r["source"]).name, []).append((r["index"], r["doc_id"], r["text"]))
    return {k: sorted(v) for k, v in out.items()}


def _check_whole(db: Path, expected: dict[str, dict[int, list[str]]]) -> dict[str, int]:
    """Assert every held document is exactly one variant; return which one each is."""
    found: dict[str, int] = {}
    for name, rows in _held(db).items():
        doc_ids = {doc_id for _, doc_id, _ in rows}
        texts = [text for _, _, text in rows]
        assert len(doc_ids) == 1, f"{name}: chunks of {len(doc_ids)} documents mixed: {rows}"
        assert [i for i, _, _ in rows] == list(range(len(rows))), f"{name}: chunk indexes {rows}"
        matches = [v for v, want in expected[name].items() if texts == want]
        assert matches, f"{name}: chunks match no version (half-written?): {texts}"
        found[name] = matches[0]
    return found


def _read_line(stream: IO[str], log: Path) -> str:
    line = stream.readline()
    assert line, f"helper process died: {log.read_text(errors='replace')[-3000:]}"
    return line.strip()


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_a_whole_database(tmp_path: Path) -> None:
    docs, db = tmp_path / "docs", tmp_path / "db"
    docs.mkdir()
    expected = _expected(tmp_path)
    log = tmp_path / "helper.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    with log.open("w") as err:
        helper = subprocess.Popen(
            [sys.executable, str(HERE / "_ingest_crash_child.py"), str(docs), str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
        )
    assert helper.stdin is not None and helper.stdout is not None
    rng = random.Random(20240607)
    mixed_rounds = 0
    try:
        assert _read_line(helper.stdout, log) == "ready"
        for round_ in range(KILLS):
            helper.stdin.write(f"run {rng.randrange(1 << 30)}\n")
            helper.stdin.flush()
            pid = int(_read_line(helper.stdout, log).split()[1])
            time.sleep(rng.uniform(0.05, 1.5))
            os.kill(pid, signal.SIGKILL)
            status = int(_read_line(helper.stdout, log).split()[1])
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
                f"round {round_}: the ingest loop ended before the kill: {log.read_text()[-3000:]}"
            )

            # the database opens, answers a search, and every document in it is whole (one version)
            versions = _check_whole(db, expected)
            if versions:
                from sectionrag.testing import HashEmbedder

                hits = LanceDBStore(db).search(HashEmbedder(dimension=32).embed_query("version part"), k=3)
                assert hits and all(Path(h.source).name in versions for h in hits)
            current = {p.name: p.read_text(encoding="utf-8") for p in docs.glob("*.md")}
            fresh = [variant(n, v) == current.get(n) for n, v in versions.items()]
            if any(fresh) and not all(fresh):
                mixed_rounds += 1  # killed between two commit groups: some documents updated, some not

            # a re-run completes the work (the kill released the lock) ...
            pipe: Any = make_pipeline(db)
            report = pipe.ingest([docs], sync=True)
            assert report.ok, report.failed
            after = _check_whole(db, expected)
            assert {n: variant(n, v) for n, v in after.items()} == current
            # ... and leaves records that agree, so one more run embeds nothing
            emb = pipe.embedder
            calls = emb.calls
            again = pipe.ingest([docs], sync=True)
            assert len(again.unchanged) == len(current) and emb.calls == calls
            assert not (again.added or again.updated or again.deleted)
    finally:
        helper.stdin.close()
        helper.wait(timeout=60)
    print(f"{KILLS} kills; {mixed_rounds} left some documents updated and others not yet")
