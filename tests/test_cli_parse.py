from __future__ import annotations

import json
from pathlib import Path

import pytest

from sectionrag.cli import main


@pytest.fixture
def md_file(tmp_path: Path) -> Path:
    p = tmp_path / "doc.md"
    p.write_text("# Top\n\nintro\n\n## Child\n\nbody\n\n# Next\n", encoding="utf-8")
    return p


def test_parse_json_shape(md_file: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["parse", str(md_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"source", "doc_id", "chars", "pages", "sections"}
    assert out["source"] == str(md_file)
    assert out["chars"] == len(md_file.read_text())
    assert out["sections"][1] == {
        "title": "Child",
        "level": 2,
        "path": ["Top", "Child"],
        "start": 14,
        "end": 30,
        "page_start": None,
        "page_end": None,
    }


def test_parse_outline_text(md_file: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["parse", str(md_file), "--no-outline"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{md_file}: ") and "3 sections" in out[0]
    assert out[1:] == ["Top", "  Child", "Next"]


def test_parse_errors_exit_1_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert main(["parse", str(empty)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "empty.txt" in err and "empty" in err
    bad = tmp_path / "x.docx"
    bad.write_bytes(b"PK\x03\x04")
    assert main(["parse", str(bad), "--json"]) == 1
    assert "supported types" in capsys.readouterr().err


def test_parse_usage_error_exit_2(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as e:
        main(["parse"])
    assert e.value.code == 2
