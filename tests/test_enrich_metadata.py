"""Regex metadata: dates, fiscal periods, money, percentages, names; and the stored field helpers."""

from __future__ import annotations

import pytest

from sectionrag.enrich import enrichment_text, extract_metadata, list_values


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("Signed on March 31, 2025.", ["2025-03-31"]),
        ("Signed on 31 March 2025.", ["2025-03-31"]),
        ("Signed on the 1st of Feb 2024.", ["2024-02-01"]),
        ("Timestamp 2025-04-01 in the log.", ["2025-04-01"]),
        ("Due 03/15/2024 or 15/03/2024.", ["2024-03-15"]),
        ("Issued in March 2024 and Sept. 3, 2021.", ["2024-03", "2021-09-03"]),
        ("In May 2025 we may 2025 nothing.", ["2025-05"]),
        ("Version 2019.1 and 2,025 items and 13/45/2024.", []),
    ],
)
def test_dates(text: str, dates: list[str]) -> None:
    assert extract_metadata(text)["dates"] == dates


@pytest.mark.parametrize(
    ("text", "periods", "years"),
    [
        ("Total revenue for the fiscal year ended December 31, 2025 grew.", ["FY2025"], [2025]),
        ("Fiscal 2025 was strong.", ["FY2025"], [2025]),
        ("In fiscal years 2023 and 2024 margins fell.", ["FY2023", "FY2024"], [2023, 2024]),
        ("FY2024, FY 23 and FY'25.", ["FY2024", "FY2023", "FY2025"], [2023, 2024, 2025]),
        ("Sales in Q3 2024 and 4Q23.", ["Q3 2024", "Q4 2023"], [2023, 2024]),
        ("Q1 FY25 bookings.", ["Q1 FY2025", "FY2025"], [2025]),
        ("The third quarter of fiscal 2024 was weak.", ["Q3 FY2024", "FY2024"], [2024]),
        ("In the first half of 2024 and H2 2023.", ["H1 2024", "H2 2023"], [2023, 2024]),
        ("The plan runs through 2031.", [], [2031]),
    ],
)
def test_fiscal_periods_and_years(text: str, periods: list[str], years: list[int]) -> None:
    md = extract_metadata(text)
    assert md["fiscal_periods"] == periods
    assert md["years"] == years


def test_bare_years_are_not_other_numbers() -> None:
    assert extract_metadata("We had 2,025 stores, $2025 in cash, build 2019.1 and 1999 pages.")["years"] == [
        1999
    ]


def test_amounts() -> None:
    text = (
        "Revenue was $4.2 billion, US$600 million in notes, €3.5m in Europe, £120k, ¥500, A$5, "
        "EUR 10 million, USD 3bn and 12 million dollars; $2.35 per share."
    )
    amounts = extract_metadata(text)["amounts"]
    assert [(a["text"], a["value"], a["currency"]) for a in amounts] == [
        ("$4.2 billion", 4.2e9, "USD"),
        ("US$600 million", 6e8, "USD"),
        ("€3.5m", 3.5e6, "EUR"),
        ("£120k", 1.2e5, "GBP"),
        ("¥500", 500.0, "JPY"),
        ("A$5", 5.0, "AUD"),
        ("EUR 10 million", 1e7, "EUR"),
        ("USD 3bn", 3e9, "USD"),
        ("12 million dollars", 1.2e7, "USD"),
        ("$2.35", 2.35, "USD"),
    ]


def test_percentages() -> None:
    md = extract_metadata("Up 12%, margin 74.5 percent, 3 per cent inflation, down \u22122.5%, version 1.5.")
    assert md["percentages"] == [12.0, 74.5, 3.0, -2.5]


def test_organizations_and_people() -> None:
    text = (
        "Northwind Analytics, Inc. hired Harbor & Vale LLP. A complaint was filed in the Superior Court "
        "of California. Dr. Jane Smith joined from the University of Chicago. Our chief executive officer "
        "is Dana Whitfield. Marcus Oyelaran, our CFO, spoke. Mr. Speaker, President Obama's plan."
    )
    md = extract_metadata(text)
    assert md["organizations"] == [
        "Northwind Analytics, Inc.",
        "Harbor & Vale LLP",
        "Superior Court of California",
        "University of Chicago",
    ]
    assert md["people"] == ["Jane Smith", "Obama", "Dana Whitfield", "Marcus Oyelaran"]
    assert md["entities"] == md["organizations"] + md["people"]


def test_headings_are_not_organizations() -> None:
    assert extract_metadata("## Products and Services\nWe sell. The Board met.")["organizations"] == []


def test_empty_and_types() -> None:
    md = extract_metadata("")
    assert all(v == [] for v in md.values())
    with pytest.raises(TypeError):
        extract_metadata(None)  # type: ignore[arg-type]


def test_enrichment_text_and_list_values() -> None:
    meta = {
        "summary": " Revenue grew. ",
        "questions": ["What grew?", 3, ""],
        "keywords": ["revenue"],
        "years": [2025, "2024", True],
        "amounts": [{"text": "$1", "value": 1.0, "currency": "USD"}, {"value": float("nan")}, 2],
        "entities": "not a list",
        "percentages": [12, 3.5],
    }
    assert enrichment_text(meta) == "Revenue grew.\nWhat grew?\nrevenue"
    values = list_values(meta)
    assert values["years"] == [2025]
    assert values["amounts"] == [1.0, 2.0]
    assert values["entities"] == [] and values["dates"] == []
    assert values["percentages"] == [12.0, 3.5]
    assert enrichment_text({}) == ""
