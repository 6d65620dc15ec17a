"""End-to-end CLI tests: index -> search with the packaged MiniLM, errors and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sectionrag.cli import main
from sectionrag.embedders import SentenceTransformerEmbedder

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "data"
RESULT_FIELDS = {
    "rank",
    "score",
    "text",
    "doc_id",
    "source",
    "section_path",
    "page_start",
    "page_end",
    "start",
    "end",
}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def indexed_db(tmp_path_factory: pytest.TempPathFactory, minilm: SentenceTransformerEmbedder) -> Path:
    db = tmp_path_factory.mktemp("db")
    code = main(["index", str(EXAMPLES), "--db", str(db), "--embedder", "minilm", "--json"])
    assert code == 0
    return db


@pytest.mark.model
def test_index_json_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str], minilm: Any) -> None:
    code, out, _ = _run(
        capsys, "index", str(EXAMPLES), "--db", str(tmp_path), "--embedder", "minilm", "--json"
    )
    report = json.loads(out)
    assert code == 0
    assert set(report) == {"added", "updated", "unchanged", "deleted", "failed", "warnings", "chunks"}
    assert report["added"] == 2 and report["failed"] == [] and report["chunks"] > 10
    # the second run skips both documents
    code, out, _ = _run(capsys, "index", str(EXAMPLES), "--db", str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["unchanged"] == 2


@pytest.mark.model
def test_search_remembers_embedder_and_returns_design_fields(
    indexed_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        capsys, "search", "Can I return a product?", "--db", str(indexed_db), "-k", "3", "--json"
    )
    assert code == 0
    results = json.loads(out)["results"]
    assert len(results) == 3
    assert all(set(r) == RESULT_FIELDS for r in results)
    top = results[0]
    assert top["rank"] == 1 and "Refund Policy" in top["section_path"]
    source_text = Path(top["source"]).read_text(encoding="utf-8")
    assert source_text[top["start"] : top["end"]] == top["text"]
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)


@pytest.mark.model
def test_search_rerank_reorders_by_sentence_windows(
    indexed_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sectionrag import Pipeline

    query = "Can I return a product?"
    code, out, _ = _run(capsys, "search", query, "--db", str(indexed_db), "-k", "3", "--json")
    assert code == 0
    plain = [(r["start"], r["end"], round(r["score"], 6)) for r in json.loads(out)["results"]]
    code, out, _ = _run(capsys, "search", query, "--db", str(indexed_db), "-k", "3", "--json", "--rerank")
    assert code == 0
    ranked = [(r["start"], r["end"], round(r["score"], 6)) for r in json.loads(out)["results"]]
    pipe = Pipeline.open(indexed_db)
    assert plain == [(h.start, h.end, round(h.score, 6)) for h in pipe.search(query, k=3)]
    assert ranked == [(h.start, h.end, round(h.score, 6)) for h in pipe.search(query, k=3, rerank=True)]
    assert max(r[2] for r in ranked) > max(r[2] for r in plain)  # the best window of the 10 gains 0.3


@pytest.mark.model
def test_search_fills_a_budget_of_characters(indexed_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sectionrag import Pipeline

    query = "Can I return a product?"
    code, out, _ = _run(capsys, "search", query, "--db", str(indexed_db), "--max-chars", "1200", "--json")
    assert code == 0
    results = json.loads(out)["results"]
    assert results and sum(len(r["text"]) for r in results) <= 1200
    pipe = Pipeline.open(indexed_db)
    expected = pipe.search(query, max_chars=1200)
    assert [(r["start"], r["end"]) for r in results] == [(h.start, h.end) for h in expected]
    assert len(expected) < len(pipe.search(query, k=50)) and len(expected) != 5  # the budget decides
    code, out, _ = _run(capsys, "search", query, "--db", str(indexed_db), "--max-chars", "100000", "-k", "2")
    assert code == 0 and out.count("§") == 2


@pytest.mark.parametrize("value", ["0", "-3"])
def test_a_budget_below_one_character_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    code, _, err = _run(capsys, "search", "refund", "--db", str(tmp_path), "--max-chars", value)
    assert code != 0 and "--max-chars must be at least 1" in err and "Traceback" not in err


@pytest.mark.model
def test_search_scoped_to_a_source(indexed_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "search", "revenue", "--db", str(indexed_db), "--source",
        "harbor_outfitters_customer_policies.md", "--json",
    )  # fmt: skip
    assert code == 0
    sources = {Path(r["source"]).name for r in json.loads(out)["results"]}
    assert sources == {"harbor_outfitters_customer_policies.md"}


@pytest.mark.model
def test_human_output_cites_sections(indexed_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "search", "chief financial officer", "--db", str(indexed_db), "-k", "1")
    assert code == 0 and "§" in out and "Item 10" in out


def test_missing_collection_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "search", "anything", "--db", str(tmp_path), "--collection", "nope")
    assert code == 1
    assert "nope" in err and "does not exist" in err and "Traceback" not in err


def test_unsupported_file_type_fails_the_run_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "data.xyz"
    bad.write_bytes(b"\x00\x01\x02binary")
    from sectionrag.testing import HashEmbedder  # noqa: F401 - index uses a real embedder below

    code, _, err = _run(capsys, "parse", str(bad))
    assert code == 1 and "data.xyz" in err and len(err.strip().splitlines()) == 1


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["search"])
    assert exc.value.code == 2
    assert main([]) == 2
    capsys.readouterr()


def _cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    env.update(extra)
    return env


@pytest.mark.parametrize("offline", [True, False], ids=["HF_HUB_OFFLINE=1", "hub-unreachable"])
def test_default_bge_m3_fails_fast_naming_model_and_preset(tmp_path: Path, offline: bool) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("# Title\n\nSome text to index.\n", encoding="utf-8")
    env = _cli_env(HF_HOME=str(tmp_path / "hf"), **({"HF_HUB_OFFLINE": "1"} if offline else {}))
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "sectionrag", "index", str(doc), "--db", str(tmp_path / "db")],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    assert proc.returncode == 1, proc.stderr
    assert "BAAI/bge-m3" in proc.stderr and "minilm" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert elapsed < 10, f"took {elapsed:.1f}s"


@pytest.mark.model
def test_demo_prints_ranked_section_cited_results(capsys: pytest.CaptureFixture[str], minilm: Any) -> None:
    code, out, _ = _run(capsys, "demo", "-k", "2")
    assert code == 0
    assert out.count("Q: ") == 5 and "§ " in out
    refund = out.split("Q: Can I return a product?")[1].split("Q: ")[0]
    assert "Refund Policy" in refund.splitlines()[2]


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path) -> None:
    """``sectionrag parse BIG --json | head -c 100``: no traceback, no error line."""
    big = tmp_path / "big.md"
    big.write_text(
        "".join(f"# Part {i}\n\nSome text of part {i}.\n\n" for i in range(20_000)), encoding="utf-8"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sectionrag", "parse", str(big), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert len(proc.stdout.read(100)) == 100
    proc.stdout.close()  # the reader goes away, as `head` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err and "Broken pipe" not in err, err
