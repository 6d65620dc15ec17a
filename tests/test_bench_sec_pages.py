"""The evidence rule of benchmarks/bench_sec_pages.py: figures of an answer, pages that print them."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_sec_pages as sec


def test_figures_are_amounts_and_rates_not_years_or_small_counts() -> None:
    answer = (
        "In fiscal 2023 net sales were $82,959 million (up 2.5%), from 81,434 in 2022; 12 stores, 1.7 billion"
    )
    assert sec.figures(answer) == ["82,959", "2.5", "81,434", "1.7"]
    assert sec.figures("No, there were no acquisitions in 2023.") == []


def test_a_figure_is_printed_only_as_a_whole_number() -> None:
    assert sec.printed_on("Total | 82,959 | 80,000", "82,959")
    assert not sec.printed_on("Total | 182,959", "82,959")
    assert not sec.printed_on("Total | 82,959.5", "82,959")
    assert not sec.printed_on("rate 12.55 %", "12.5")
    assert sec.printed_on("rate (12.5)%", "12.5")


def test_a_figure_is_hit_when_a_result_covers_one_of_its_pages_in_that_filing() -> None:
    q = sec.Question("q", "Table", [("82,959", {("a.pdf", 4), ("a.pdf", 9)}), ("2.5", {("b.pdf", 2)})])

    def hit(source: str, first: int | None, last: int | None) -> SimpleNamespace:
        return SimpleNamespace(source=source, page_start=first, page_end=last)

    assert sec.score(q, [hit("a.pdf", 8, 10)]) == (1, 2)
    assert sec.score(q, [hit("a.pdf", 2, 2), hit("b.pdf", 2, None)]) == (1, 2)  # a one-page result
    assert sec.score(q, [hit("b.pdf", 4, 4), hit("a.pdf", None, None)]) == (0, 2)  # other filing; no pages
    assert sec.score(q, [hit("a.pdf", 4, 4), hit("b.pdf", 1, 3)]) == (2, 2)


def test_a_budget_below_one_character_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        sec.main(["--max-chars", "0"])
    assert "--max-chars must be at least 1" in capsys.readouterr().err
