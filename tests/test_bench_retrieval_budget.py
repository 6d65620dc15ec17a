"""The retrieval benchmark's character budget (benchmarks/bench_retrieval.py --budget)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_retrieval as bench

from sectionrag.eval.queries import Reference
from sectionrag.eval.retrieval import Retrieved, score_query


def _hit(start: int, end: int, doc: str = "a") -> Retrieved:
    return Retrieved(source=doc, doc_id=doc, start=start, end=end, score=1.0)


def test_the_budget_reads_results_best_first_and_cuts_the_last_one_at_it() -> None:
    ranking = [_hit(0, 400), _hit(1000, 1500), _hit(3000, 3300)]
    got = bench.within_budget(ranking, 700)
    assert [(r.start, r.end) for r in got] == [(0, 400), (1000, 1300)]
    assert sum(r.end - r.start for r in got) == 700
    assert bench.within_budget(ranking, 5000) == ranking


def test_a_result_that_overlaps_an_earlier_one_spends_the_budget_again() -> None:
    # overlapping windows (250 tokens with 125 of overlap) make their reader read text twice
    got = bench.within_budget([_hit(0, 500), _hit(250, 750), _hit(2000, 2400)], 1000)
    assert [(r.start, r.end) for r in got] == [(0, 500), (250, 750)]


def test_a_reference_past_the_budget_is_missed_and_one_inside_it_is_found() -> None:
    ranking = [_hit(0, 400), _hit(1000, 1500)]
    inside = Reference(source="a", start=1050, end=1100)
    past = Reference(source="a", start=1400, end=1450)
    got = bench.within_budget(ranking, 500)
    assert score_query([inside], got, len(got)).recall == 1.0
    assert score_query([past], got, len(got)).recall == 0.0


@pytest.mark.parametrize("value", ["2k", "0", "1000,-5"])
def test_a_budget_that_is_not_a_positive_whole_number_is_refused(value: str, capsys) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--budget", value, "--list"])
    assert "--budget" in capsys.readouterr().err


def test_whole_results_need_a_budget(capsys) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--whole", "--list"])
    assert "--whole applies to --budget" in capsys.readouterr().err


def test_whole_results_are_what_the_pipeline_returns_for_the_budget() -> None:
    # --whole scores the rankings with the function Pipeline.search(max_chars=N) applies
    from sectionrag.pipeline import within_chars
    from sectionrag.types import SearchResult

    def result(start: int, end: int) -> SearchResult:
        return SearchResult(
            chunk_id=f"c{start}", doc_id="a", source="a", text="x" * (end - start), score=1.0, rank=1,
            section_path=(), page_start=None, page_end=None, start=start, end=end,
        )  # fmt: skip

    ranking = [result(0, 400), result(1000, 1500), result(3000, 3100)]
    assert [(r.start, r.end) for r in within_chars(ranking, 950)] == [(0, 400), (1000, 1500)]
    assert [(r.start, r.end) for r in within_chars(ranking, 899)] == [(0, 400)]  # none is cut
    assert [(r.start, r.end) for r in within_chars(ranking, 10)] == [(0, 400)]  # the best one always
