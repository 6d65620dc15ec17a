"""``sectionrag eval``: output, JSON shape, and errors (store and embedder faked)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import sectionrag.cli.eval as eval_cli
from sectionrag.cli import main
from test_eval_retrieval import CountingEmbedder, line_span, tiny_index


@pytest.fixture
def fake_db(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Route ``open_collection`` to an in-memory index of DOC_TEXT."""
    emb = CountingEmbedder()
    store = tiny_index(emb)
    seen: dict[str, Any] = {"store": store, "embedder": emb, "opened": []}

    def open_collection(args: Any, *, check: bool = True) -> Any:
        seen["opened"].append((args.db, args.collection))
        return SimpleNamespace(store=store, embedder=emb)

    monkeypatch.setattr(eval_cli, "open_collection", open_collection)
    return seen


def write_queries(tmp_path: Path, lines: list[Any]) -> Path:
    p = tmp_path / "queries.jsonl"
    p.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8"
    )
    return p


def good_queries(tmp_path: Path) -> Path:
    cats = {"source": "facts.txt", "start": line_span(0)[0], "end": line_span(0)[1]}
    rivers = {"source": "facts.txt", "start": line_span(3)[0], "end": line_span(3)[1]}
    return write_queries(
        tmp_path,
        [
            {"id": "cats", "query": "why do cats purr", "references": [cats]},
            {"id": "rivers", "query": "rivers sediment sea", "references": [rivers]},
            {
                "id": "nothing",
                "query": "quantum chromodynamics",
                "references": [{"source": "other.md", "page": 4}],
            },
        ],
    )


def test_json_output_has_metrics_and_per_query_results(
    tmp_path: Path, fake_db: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["eval", str(good_queries(tmp_path)), "--db", "somewhere", "--collection", "c1", "-k", "2", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert fake_db["opened"] == [("somewhere", "c1")]
    assert out["k"] == 2 and out["mode"] == "hybrid" and out["collection"] == "c1"
    assert out["metrics"]["queries"] == 3
    assert out["metrics"]["hit@2"] == pytest.approx(2 / 3)
    assert [q["id"] for q in out["queries"]] == ["cats", "rivers", "nothing"]
    first = out["queries"][0]
    assert first["retrieved"][0]["source"] == "corpus/facts.txt"
    assert {"source", "doc_id", "start", "end", "score"} <= set(first["retrieved"][0])
    assert out["queries"][2]["span_iou@2"] is None
    # one batch of queries (the hybrid search's re-ranking also embeds sentence windows, as documents)
    assert [c for c in fake_db["embedder"].calls if c != "documents"][-1] == "queries"


def test_human_output_is_a_table_listing_misses(
    tmp_path: Path, fake_db: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", str(good_queries(tmp_path)), "--db", "d", "--mode", "text", "-k", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "3 queries, k=1, mode=text" in out
    assert "recall@1" in out and "MRR@1" in out and "span IoU@1" in out
    assert "1 of 3 queries had no reference in the top 1." in out
    assert "[nothing] quantum chromodynamics" in out


def test_where_is_passed_to_every_search(tmp_path: Path, fake_db: dict[str, Any]) -> None:
    assert main(["eval", str(good_queries(tmp_path)), "--db", "d", "--where", "doc_id = 'x'", "--json"]) == 0
    assert [s["where"] for s in fake_db["store"].searches] == ["doc_id = 'x'"] * 3


def test_malformed_line_is_a_usage_error_naming_the_line(
    tmp_path: Path, fake_db: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_queries(
        tmp_path,
        [
            {"query": "ok", "references": [{"source": "a", "page": 1}]},
            '{"query": "q", "references": [{"source": "a"}]}',
        ],
    )
    code = main(["eval", str(path), "--db", "d"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{path}:2: references[0]:" in err
    assert "'start' and 'end'" in err
    assert len(err.strip().splitlines()) == 1


def test_bad_json_line(tmp_path: Path, fake_db: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    path = write_queries(tmp_path, ['{"query": "q", "references": [}'])
    assert main(["eval", str(path), "--db", "d"]) == 2
    assert ":1: invalid JSON" in capsys.readouterr().err


def test_missing_collection_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no database "nowhere" there
    code = main(["eval", str(good_queries(tmp_path)), "--db", "nowhere"])
    err = capsys.readouterr().err
    assert code == 1
    assert "collection 'default' does not exist in nowhere" in err


def test_k_must_be_positive(
    tmp_path: Path, fake_db: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", str(good_queries(tmp_path)), "--db", "d", "-k", "0"]) == 2
    assert "-k must be at least 1" in capsys.readouterr().err
