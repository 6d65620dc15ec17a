"""The tenth retrieval round's lever (benchmarks/period_label_lever.py): the cover's period in the label."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import period_label_lever as lever

from sectionrag.chunkers import section
from sectionrag.chunkers.section import SectionChunker

COVER = "FORM 10-Q\n\nFor the Quarterly Period Ended SEPTEMBER 30, 2023\n\nApple Inc.\n\n(Exact name)\n"


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("For the quarterly period ended July 1, 2023", "quarterly period ended July 1, 2023"),
        ("FOR THE FISCAL YEAR ENDED DECEMBER 31, 2022", "fiscal year ended December 31, 2022"),
        ("for the three months ended Sept. 30 2023", "three months ended Sept. 30 2023"),
        ("For the quarter ended on the last day", ""),
        ("Results of the year ended badly", ""),
    ],
)
def test_the_period_is_the_phrase_the_cover_prints(line: str, found: str) -> None:
    assert lever.period(f"FORM 10-Q\n\n{line}\n") == found


def test_the_period_joins_the_issuer_in_the_label_and_only_the_opening_counts() -> None:
    assert lever.label_with_period("2023_Q3_AAPL.md", COVER) == (
        "2023 Q3 AAPL (Apple Inc., quarterly period ended September 30, 2023)"
    )
    assert lever.label_with_period("notes.md", "x" * 5000 + COVER) == "notes"


def test_the_fulltext_variant_keeps_the_period_out_of_the_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(section, "document_label", section.document_label)
    monkeypatch.setattr(SectionChunker, "header_for", SectionChunker.header_for)
    lever.patch("fulltext")
    title = "2023 Q3 AAPL (Apple Inc., quarterly period ended July 1, 2023)"
    assert SectionChunker().header_for(("Item 2",), title) == "2023 Q3 AAPL (Apple Inc.) > Item 2"
    assert SectionChunker().header_for(("Item 2",), "notes (quarter ended July 1, 2023)") == "notes > Item 2"
