"""``sectionrag index``: the JSON shape of DESIGN.md, incremental runs, exit codes, the lock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sectionrag
from sectionrag.cli import main
from sectionrag.stores import LanceDBStore
from sectionrag.testing import HashEmbedder

KEYS = {"added", "updated", "unchanged", "deleted", "failed", "warnings", "chunks"}


@pytest.fixture(autouse=True)
def hash_embedder(monkeypatch: pytest.MonkeyPatch, clean_registry: None) -> HashEmbedder:
    """New collections get a HashEmbedder; existing ones find it again by its recorded name."""
    emb = HashEmbedder()
    monkeypatch.setattr("sectionrag.cli.index.resolve_embedder", lambda requested, **_: emb)
    sectionrag.register("embedder", emb.name, lambda: emb, replace=True)
    return emb


def _docs(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "a.md").write_text("# A\n\nApples grow on trees.\n\nPears do too.\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n\nBicycles have two wheels.\n", encoding="utf-8")
    (root / "c.txt").write_text("Cats sleep a lot.\n", encoding="utf-8")
    return root


def _index(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["index", *args, "--strategy", "paragraph"])
    out, err = capsys.readouterr()
    return code, out, err


def test_sync_json_reports_each_kind_of_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, db = _docs(tmp_path / "docs"), str(tmp_path / "db")
    code, out, _ = _index(capsys, str(docs), "--db", db, "--sync", "--json")
    first = json.loads(out)
    assert code == 0 and set(first) == KEYS
    assert (first["added"], first["updated"], first["unchanged"], first["deleted"]) == (3, 0, 0, 0)
    assert first["failed"] == [] and first["chunks"] >= 4

    code, out, _ = _index(capsys, str(docs), "--db", db, "--sync", "--json")
    empty: dict[str, Any] = {"failed": [], "warnings": []}
    assert code == 0 and json.loads(out) == {**dict.fromkeys(KEYS, 0), "unchanged": 3, **empty}

    (docs / "a.md").write_text("# A\n\nApples grow on trees.\n\nPlums do too.\n", encoding="utf-8")
    (docs / "c.txt").unlink()
    code, out, _ = _index(capsys, str(docs), "--db", db, "--sync", "--json")
    assert json.loads(out) == {
        "added": 0,
        "updated": 1,
        "unchanged": 1,
        "deleted": 1,
        "failed": [],
        "warnings": [],
        "chunks": 2,
    }
    assert sorted(Path(d.source).name for d in LanceDBStore(db).documents()) == ["a.md", "b.md"]


def test_a_failure_exits_1_with_a_summary_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, db = _docs(tmp_path / "docs"), str(tmp_path / "db")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    code, out, err = _index(capsys, str(docs), "--db", db, "--json")
    report = json.loads(out)
    assert code == 1 and report["added"] == 3
    assert [Path(f["source"]).name for f in report["failed"]] == ["broken.pdf"] and report["failed"][0][
        "error"
    ]
    assert "1 source(s) failed" in err and "3 added" in err

    code, out, err = _index(capsys, str(docs), "--db", db)
    assert code == 1
    assert "failed: " in err and "broken.pdf" in err
    assert (
        out.startswith("0 added, 0 updated, 3 unchanged, 0 deleted, 1 failed") and len(out.splitlines()) == 1
    )


def test_a_new_chunk_size_is_announced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, db = _docs(tmp_path / "docs"), str(tmp_path / "db")
    assert _index(capsys, str(docs), "--db", db, "--size", "64")[0] == 0
    code, out, err = _index(capsys, str(docs), "--db", db, "--size", "32")
    assert code == 2 and "chunker.size: 64 -> 32" in err and "--rechunk" in err  # refused: nothing written
    code, out, err = _index(capsys, str(docs), "--db", db, "--size", "32", "--rechunk")
    assert code == 0 and "3 updated" in out and "re-indexed for a new configuration" in out
    assert "configuration changed (chunker.size: 64 -> 32): re-indexed 3 source(s)" in err


def test_a_busy_collection_fails_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs, db = _docs(tmp_path / "docs"), tmp_path / "db"
    with LanceDBStore(db).write_lock():
        code, out, err = _index(capsys, str(docs), "--db", str(db), "--json")
        assert code == 1 and out == ""
        assert "another ingest is writing to collection 'default'" in err and "--wait" in err
        code, _, err = _index(capsys, str(docs), "--db", str(db), "--wait", "0.2")
        assert code == 1 and "after waiting 0.2 s" in err
    assert _index(capsys, str(docs), "--db", str(db))[0] == 0
