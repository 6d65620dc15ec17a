"""PdfParser(tables=True): ruled tables found by pdfplumber, written as ``cell | cell`` rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sectionrag
from _pdfgen import Line, Page, write_pdf
from _tablegen import row_line, tables_pdf
from sectionrag.cli import main
from sectionrag.errors import ConfigError
from sectionrag.parsers import AutoParser
from sectionrag.parsers.pdf import PdfParser

SRC = Path(__file__).resolve().parent.parent / "src"


def _lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.split("\n")}


def _words(text: str) -> list[str]:
    return sorted(w for w in text.split() if w != "|")


@pytest.fixture(scope="module")
def ruled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[list[str]]]]:
    path = tmp_path_factory.mktemp("tables") / "ruled.pdf"
    return path, tables_pdf(path, seed=7, tables=6)


def test_every_row_of_a_ruled_table_becomes_one_line(ruled: tuple[Path, list[list[list[str]]]]) -> None:
    path, truth = ruled
    rows = [row for table in truth for row in table]
    with_tables = PdfParser(tables=True).parse(path)
    default = PdfParser().parse(path)
    found = _lines(with_tables.text)
    assert all(row_line(row) in found for row in rows)
    assert sum(row_line(row) in _lines(default.text) for row in rows) < len(rows) // 2  # what it adds
    assert _words(with_tables.text) == _words(default.text)  # the same words, nothing lost or doubled
    assert [(p.number, p.start <= p.end) for p in with_tables.pages] == [
        (p.number, True) for p in default.pages
    ]


def test_empty_cells_keep_their_place(ruled: tuple[Path, list[list[list[str]]]]) -> None:
    path, truth = ruled
    with_gaps = [row for table in truth for row in table if "" in row]
    assert with_gaps, "the generator makes empty cells"
    found = _lines(PdfParser(tables=True).parse(path).text)
    for row in with_gaps:
        line = row_line(row)
        assert line in found and line.count("|") == len(row) - 1  # one separator per column gap


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=1000, max_value=10**6))
def test_any_generated_ruled_table_is_read_whole(tmp_path: Path, seed: int) -> None:
    path = tmp_path / f"t{seed}.pdf"
    truth = tables_pdf(path, seed=seed, tables=3)
    doc = PdfParser(tables=True).parse(path)
    found = _lines(doc.text)
    assert all(row_line(row) in found for table in truth for row in table)
    assert _words(doc.text) == _words(PdfParser().parse(path).text)


def test_a_grid_without_text_is_not_a_table(tmp_path: Path) -> None:
    grid = b"0.5 w\n" + b"\n".join(
        [b"%d 400 m %d 600 l S" % (x, x) for x in range(100, 501, 100)]
        + [b"100 %d m 500 %d l S" % (y, y) for y in range(400, 601, 50)]
    )
    page = Page([Line("A figure drawn as a grid, and a caption below it.", y=380)], raw=grid)
    path = write_pdf(tmp_path / "figure.pdf", [page])
    assert PdfParser(tables=True).parse(path).text == PdfParser().parse(path).text


def test_tables_reach_pdfs_only_through_the_auto_parser(
    ruled: tuple[Path, list[list[list[str]]]], tmp_path: Path
) -> None:
    path, truth = ruled
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nplain text\n", encoding="utf-8")
    auto = AutoParser(tables=True)
    assert row_line(truth[0][1]) in _lines(auto.parse(path.read_bytes(), name="ruled.pdf").text)
    assert auto.parse(note).sections[0].title == "Note"
    assert row_line(truth[0][1]) in _lines(sectionrag.parse(path, tables=True).text)
    with pytest.raises(ConfigError, match="accepted: drop_page_chrome"):
        sectionrag.parsers.get_parser("html", tables=True)


def test_cli_parse_and_chunk_take_tables(
    ruled: tuple[Path, list[list[list[str]]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, truth = ruled
    assert main(["chunk", str(path), "--tables", "--strategy", "paragraph", "--json"]) == 0
    chunks = json.loads(capsys.readouterr().out)["chunks"]
    assert any(row_line(truth[0][2]) in " ".join(c["text"].split()) for c in chunks)
    assert main(["parse", str(path), "--tables", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pages"] >= 1


def test_pdfplumber_is_imported_only_when_tables_are_asked_for(
    ruled: tuple[Path, list[list[list[str]]]],
) -> None:
    path, _ = ruled
    code = (
        "import sys\nfrom sectionrag.parsers.pdf import PdfParser\n"
        f"PdfParser().parse({str(path)!r})\nprint('pdfplumber' in sys.modules)\n"
        f"PdfParser(tables=True).parse({str(path)!r})\nprint('pdfplumber' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONPATH": str(SRC)}, check=True
    ).stdout.split()
    assert out == ["False", "True"]
