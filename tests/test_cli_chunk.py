"""``sectionrag chunk`` and ``sectionrag compare`` on the command line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from sectionrag.cli import main

SEED = Path(__file__).parent / "data" / "seed001_policies.txt"

MD = """# Policies

## Refunds

Customers can return products within 7 days with receipt. Refunds go to the original card.

## Shipping

Orders are shipped within 3 business days. Tracking numbers arrive by email.
"""


@pytest.fixture
def md_file(tmp_path: Path) -> Path:
    path = tmp_path / "policies.md"
    path.write_text(MD, encoding="utf-8")
    return path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_chunk_json_shape(capsys: pytest.CaptureFixture[str], md_file: Path) -> None:
    out = run_json(capsys, "chunk", str(md_file), "--strategy", "section", "--param", "inner=paragraph")
    assert {"doc_id", "text_sha256", "strategy", "chunks"} <= set(out)
    assert out["strategy"] == "section"
    assert out["text_sha256"] == hashlib.sha256(MD.encode()).hexdigest()
    text = md_file.read_text(encoding="utf-8")
    for c in out["chunks"]:
        assert set(c) == {
            "index",
            "text",
            "start",
            "end",
            "token_count",
            "section_path",
            "page_start",
            "page_end",
            "fine",
        }
        assert text[c["start"] : c["end"]] == c["text"]
    assert [c["section_path"] for c in out["chunks"]] == [["Policies", "Refunds"], ["Policies", "Shipping"]]
    assert "stats" not in out


def test_chunk_stats(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "chunk", str(SEED), "--strategy", "fixed", "--unit", "chars", "--size", "80", "--stats"
    )
    stats = out["stats"]
    assert stats["chunks"] == len(out["chunks"]) == 4
    assert stats["fragment_rate"] > 0.5 and stats["broken_words"] >= 1
    assert set(stats["tokens"]) == {"min", "max", "mean", "median", "p95", "total"}


def test_chunk_marks_fine_chunks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "long.md"
    sentences = " ".join(f"Sentence {i} says one more thing about the depot." for i in range(120))
    path.write_text(f"# Depots\n\n{sentences}\n", encoding="utf-8")
    out = run_json(
        capsys, "chunk", str(path), "--strategy", "section", "--param", "inner=sentence", "--stats"
    )
    fine = [c for c in out["chunks"] if c["fine"]]
    assert fine and len(fine) < len(out["chunks"]) and out["stats"]["fine_chunks"] == len(fine)
    assert max(c["token_count"] for c in fine) <= 256 < max(c["token_count"] for c in out["chunks"])
    assert out["stats"]["overlap_chars"] == 0 and out["stats"]["uncovered_chars"] == 0
    assert main(["chunk", str(path), "--strategy", "section", "--param", "inner=sentence", "--stats"]) == 0
    human = capsys.readouterr().out
    assert f"{len(fine)} of them fine" in human and "] fine  §" in human and f"({len(fine)} fine)" in human
    off = run_json(
        capsys, "chunk", str(path), "--strategy", "section", "--param", "inner=sentence", "--param", "fine=0"
    )
    assert not any(c["fine"] for c in off["chunks"])


def test_chunk_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chunk", str(SEED), "--strategy", "paragraph", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "4 chunks" in out and "Refund Policy:" in out and "fragment rate" in out


def test_chunk_options_reach_the_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys,
        "chunk",
        str(SEED),
        "--strategy",
        "overlap",
        "--unit",
        "chars",
        "--size",
        "100",
        "--overlap",
        "30",
    )
    assert [c["start"] for c in out["chunks"]] == [1, 70, 140, 211]
    out = run_json(capsys, "chunk", str(SEED), "--strategy", "sentence", "--param", "max_sentences=1")
    assert len(out["chunks"]) == 8


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--strategy", "nope"], "choose one of"),
        (["--strategy", "paragraph", "--overlap", "3"], "invalid parameters"),
        (["--strategy", "paragraph", "--param", "pack"], "KEY=VALUE"),
        (["--strategy", "fixed", "--size", "0"], "size must be at least 1"),
    ],
)
def test_chunk_bad_usage_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(["chunk", str(SEED), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_chunk_missing_file_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["chunk", str(tmp_path / "missing.txt"), "--strategy", "paragraph"]) == 1
    assert "no such file" in capsys.readouterr().err


@pytest.mark.model
def test_chunk_with_a_model_tokenizer(capsys: pytest.CaptureFixture[str], md_file: Path) -> None:
    out = run_json(
        capsys, "chunk", str(md_file), "--strategy", "fixed", "--size", "8", "--embedder", "minilm"
    )
    assert all(c["token_count"] <= 8 for c in out["chunks"])


@pytest.mark.model
def test_compare_reproduces_the_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run_json(
        capsys,
        "compare",
        str(SEED),
        "--query",
        "Can I return a product?",
        "--embedder",
        "minilm@torch",  # the seed's scores are torch f32's, to 4 decimals
        "--strategies",
        "paragraph,sentence:max_sentences=1,overlap:unit=chars:size=100:overlap=30",
    )
    rows = {r["strategy"]: r for r in out["rows"]}
    assert [round(s, 4) for s in rows["paragraph"]["scores"]] == [0.6204, 0.1692, -0.0397, 0.2943]
    assert round(rows["sentence:max_sentences=1"]["best_score"], 4) == 0.6159
    assert round(rows["overlap:unit=chars:size=100:overlap=30"]["best_score"], 4) == 0.5637
    for r in out["rows"]:
        assert {"strategy", "chunks", "best_score", "best_chunk_index", "scores"} <= set(r)
    assert (
        main(
            [
                "compare",
                str(SEED),
                "-q",
                "Can I return a product?",
                "-q",
                "shipping time",
                "--embedder",
                "minilm",
                "--strategies",
                "paragraph",
                "--show-chunks",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "query: Can I return a product?" in text and "query: shipping time" in text and "winner:" in text
