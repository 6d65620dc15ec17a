# ruff: noqa: E501  (ODF XML styles and table data are kept one element per line)
"""Make tests/data/pdf/annual-report-libreoffice.pdf: a fictional 10-K made by LibreOffice.

The report (text in ``report_text.py``, figures below; company, people and
numbers all invented) is written as a Flat ODT document with real Heading 1-4
paragraph styles, a table-of-contents index (levels 1-2, dotted leaders, page
numbers), justified hyphenated body text, financial tables, a two-column
glossary, a boxed note, bold-italic risk-factor captions, a cover page without
header and a running header / page-number footer on the other pages.
LibreOffice Writer converts it to PDF with bookmarks (one per heading).

The TOC's page numbers are filled in by a second conversion: the first one
uses placeholders and its bookmarks give the page of every heading.

Needs ``soffice`` (Debian: libreoffice-writer-nogui, hyphen-en-us for
hyphenation) and pypdfium2. Usage::

    python benchmarks/make_report_pdf.py [--out PATH] [--keep-fodt]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report_text import BODY, COMPANY

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "pdf" / "annual-report-libreoffice.pdf"
TOC_LEVELS = 2

# --------------------------------------------------------------------------- figures (in thousands)


def fmt(v: float | int | None, dollar: bool = False, dec: int = 0) -> str:
    if v is None:
        return ""
    if v == 0:
        return "\u2014"
    s = f"{abs(v):,.{dec}f}"
    if dollar:
        s = "$ " + s
    return f"({s})" if v < 0 else s


def pct(v: float) -> str:
    return f"{v:.1f}%"


YEARS = ("2025", "2024", "2023")

OPS = {
    "Products": (912_408, 846_215, 781_930),
    "Services": (372_196, 331_842, 298_604),
    "Cost of products": (561_127, 529_781, 497_305),
    "Cost of services": (198_432, 180_455, 166_017),
    "Research and development": (98_416, 91_207, 84_662),
    "Selling, general and administrative": (247_389, 229_514, 212_870),
    "Restructuring": (6_204, 11_938, 0),
    "Interest expense": (-28_417, -31_962, -27_105),
    "Other income, net": (4_381, 2_116, 1_447),
    "Provision for income taxes": (33_525, 23_170, 21_155),
    "Basic shares": (48_212, 47_905, 47_630),
    "Diluted shares": (48_967, 48_520, 48_101),
}


def _sum(*rows: tuple[int, ...], sign: tuple[int, ...] | None = None) -> tuple[int, ...]:
    sign = sign or (1,) * len(rows)
    return tuple(sum(s * r[i] for s, r in zip(sign, rows, strict=True)) for i in range(len(rows[0])))


REV = _sum(OPS["Products"], OPS["Services"])
COST = _sum(OPS["Cost of products"], OPS["Cost of services"])
GROSS = _sum(REV, COST, sign=(1, -1))
OPEX = _sum(OPS["Research and development"], OPS["Selling, general and administrative"], OPS["Restructuring"])
OPINC = _sum(GROSS, OPEX, sign=(1, -1))
PRETAX = _sum(OPINC, OPS["Interest expense"], OPS["Other income, net"])
NET = _sum(PRETAX, OPS["Provision for income taxes"], sign=(1, -1))


def operations_table() -> dict:
    rows: list[tuple[str, list[str]]] = [("sub", ["Revenue:", "", "", ""])]
    for k in ("Products", "Services"):
        rows.append(("indent", [k] + [fmt(v) for v in OPS[k]]))
    rows.append(("total", ["Total revenue"] + [fmt(v) for v in REV]))
    rows.append(("sub", ["Cost of revenue:", "", "", ""]))
    for k in ("Cost of products", "Cost of services"):
        rows.append(("indent", [k] + [fmt(v) for v in OPS[k]]))
    rows.append(("total", ["Total cost of revenue"] + [fmt(v) for v in COST]))
    rows.append(("total", ["Gross profit"] + [fmt(v) for v in GROSS]))
    rows.append(("sub", ["Operating expenses:", "", "", ""]))
    for k in ("Research and development", "Selling, general and administrative", "Restructuring"):
        rows.append(("indent", [k] + [fmt(v) for v in OPS[k]]))
    rows.append(("total", ["Total operating expenses"] + [fmt(v) for v in OPEX]))
    rows.append(("total", ["Operating income"] + [fmt(v) for v in OPINC]))
    for k in ("Interest expense", "Other income, net"):
        rows.append(("row", [k] + [fmt(v) for v in OPS[k]]))
    rows.append(("total", ["Income before income taxes"] + [fmt(v) for v in PRETAX]))
    rows.append(("row", ["Provision for income taxes"] + [fmt(v) for v in OPS["Provision for income taxes"]]))
    rows.append(("grand", ["Net income"] + [fmt(v, True) for v in NET]))
    rows.append(("sub", ["Earnings per share:", "", "", ""]))
    rows.append(
        ("indent", ["Basic"] + [fmt(n / s, True, 2) for n, s in zip(NET, OPS["Basic shares"], strict=True)])
    )
    rows.append(
        (
            "indent",
            ["Diluted"] + [fmt(n / s, True, 2) for n, s in zip(NET, OPS["Diluted shares"], strict=True)],
        )
    )
    rows.append(("sub", ["Weighted-average shares outstanding:", "", "", ""]))
    rows.append(("indent", ["Basic"] + [fmt(v) for v in OPS["Basic shares"]]))
    rows.append(("indent", ["Diluted"] + [fmt(v) for v in OPS["Diluted shares"]]))
    return {
        "widths": [3.2, 1.1, 1.1, 1.1],
        "head": [["", "Year ended December 31,", None, None], ["", *list(YEARS)]],
        "rows": rows,
    }


def results_table() -> dict:
    def line(label: str, vals: tuple[int, ...], kind: str = "row") -> tuple[str, list[str]]:
        a, b = vals[0], vals[1]
        ch = (a - b) / abs(b) * 100 if b else 0.0
        return (
            kind,
            [
                label,
                fmt(a),
                pct(a / REV[0] * 100),
                fmt(b),
                pct(b / REV[1] * 100),
                (f"{ch:+.1f}%" if b else "n/m"),
            ],
        )

    rows = [
        line("Product revenue", OPS["Products"]),
        line("Service revenue", OPS["Services"]),
        line("Total revenue", REV, "total"),
        line("Gross profit", GROSS),
        line("Research and development", OPS["Research and development"]),
        line("Selling, general and administrative", OPS["Selling, general and administrative"]),
        line("Restructuring", OPS["Restructuring"]),
        line("Operating income", OPINC, "total"),
        line("Interest expense", OPS["Interest expense"]),
        line("Other income, net", OPS["Other income, net"]),
        line("Provision for income taxes", OPS["Provision for income taxes"]),
        line("Net income", NET, "grand"),
    ]
    return {
        "widths": [2.3, 0.85, 0.7, 0.85, 0.7, 0.8],
        "head": [["(dollars in thousands)", "2025", "% of revenue", "2024", "% of revenue", "Change"]],
        "rows": rows,
        "font": "small",
    }


SEG_REV = {
    "Municipal Systems": (548_210, 496_568),
    "Industrial Solutions": (364_198, 349_647),
    "Services and Analytics": (372_196, 331_842),
}
SEG_MARGIN = {
    "Municipal Systems": (15.1, 13.0),
    "Industrial Solutions": (11.9, 12.2),
    "Services and Analytics": (24.9, 23.8),
}
AMORT = (9_600, 9_812)


def segments_table() -> dict:
    rows = [("sub", ["Revenue", "", "", ""])]
    for k, v in SEG_REV.items():
        rows.append(("indent", [k, fmt(v[0]), fmt(v[1]), f"{(v[0] - v[1]) / v[1] * 100:+.1f}%"]))
    rows.append(
        ("total", ["Total revenue", fmt(REV[0]), fmt(REV[1]), f"{(REV[0] - REV[1]) / REV[1] * 100:+.1f}%"])
    )
    rows.append(("sub", ["Segment operating income", "", "", ""]))
    seg_oi = {k: tuple(round(SEG_REV[k][i] * SEG_MARGIN[k][i] / 100) for i in range(2)) for k in SEG_REV}
    for k, v in seg_oi.items():
        rows.append(("indent", [k, fmt(v[0]), fmt(v[1]), f"{(v[0] - v[1]) / v[1] * 100:+.1f}%"]))
    total = tuple(sum(v[i] for v in seg_oi.values()) for i in range(2))
    rows.append(("total", ["Total segment operating income", fmt(total[0]), fmt(total[1]), ""]))
    restr = OPS["Restructuring"][:2]
    corporate = tuple(total[i] - restr[i] - AMORT[i] - OPINC[i] for i in range(2))
    rows.append(("indent", ["Corporate costs", fmt(-corporate[0]), fmt(-corporate[1]), ""]))
    rows.append(("indent", ["Restructuring", fmt(-restr[0]), fmt(-restr[1]), ""]))
    rows.append(("indent", ["Amortisation of acquired intangibles", fmt(-AMORT[0]), fmt(-AMORT[1]), ""]))
    rows.append(("grand", ["Operating income", fmt(OPINC[0], True), fmt(OPINC[1], True), ""]))
    return {
        "widths": [3.2, 1.1, 1.1, 1.1],
        "head": [["(in thousands)", "2025", "2024", "Change"]],
        "rows": rows,
    }


CF = {
    "ops": [
        ("Net income", NET),
        ("Depreciation and amortisation", (47_800, 46_412, 44_930)),
        ("Stock-based compensation", (17_406, 15_882, 14_205)),
        ("Deferred income taxes", (-2_604, 1_118, -877)),
        ("Non-cash restructuring charges", (1_312, 4_870, 0)),
        ("Accounts receivable", (-13_313, -21_540, -9_880)),
        ("Contract assets", (5_873, -12_406, -6_115)),
        ("Inventories", (-13_700, -8_221, -14_036)),
        ("Accounts payable", (9_357, 4_903, 7_114)),
        ("Contract liabilities", (12_409, 6_731, -3_302)),
    ],
    "ops_total": (168_912, 121_400, 98_655),
    "inv": [
        ("Purchases of property, plant and equipment", (-49_318, -41_076, -38_540)),
        ("Proceeds from sale of Erie facility", (2_914, 0, 0)),
        ("Other investing activities", (-1_200, -812, -455)),
    ],
    "fin": [
        ("Repayment of term loan", (-60_000, -20_000, -20_000)),
        ("Dividends paid", (-57_854, -55_570, -50_488)),
        ("Repurchases of common stock", (-27_888, -18_207, 0)),
        ("Proceeds from employee stock plans", (6_116, 4_980, 3_870)),
        ("Taxes paid on vesting of equity awards", (-2_893, -2_520, -2_104)),
    ],
    "fx": (1_245, -1_020, 640),
    "cash_2025_begin": None,
}
CASH_END_2024 = 146_820


def cashflows() -> tuple[dict, int]:
    rows = [("sub", ["Operating activities", "", "", ""])]
    for label, v in CF["ops"][:5]:
        rows.append(("indent", [label] + [fmt(x) for x in v]))
    rows.append(("sub2", ["Changes in operating assets and liabilities:", "", "", ""]))
    for label, v in CF["ops"][5:]:
        rows.append(("indent2", [label] + [fmt(x) for x in v]))
    other = tuple(CF["ops_total"][i] - sum(v[i] for _, v in CF["ops"]) for i in range(3))
    rows.append(("indent2", ["Other assets and liabilities, net"] + [fmt(x) for x in other]))
    rows.append(("total", ["Net cash provided by operating activities"] + [fmt(x) for x in CF["ops_total"]]))
    rows.append(("sub", ["Investing activities", "", "", ""]))
    for label, v in CF["inv"]:
        rows.append(("indent", [label] + [fmt(x) for x in v]))
    inv = tuple(sum(v[i] for _, v in CF["inv"]) for i in range(3))
    rows.append(("total", ["Net cash used in investing activities"] + [fmt(x) for x in inv]))
    rows.append(("sub", ["Financing activities", "", "", ""]))
    for label, v in CF["fin"]:
        rows.append(("indent", [label] + [fmt(x) for x in v]))
    fin = tuple(sum(v[i] for _, v in CF["fin"]) for i in range(3))
    rows.append(("total", ["Net cash used in financing activities"] + [fmt(x) for x in fin]))
    rows.append(("row", ["Effect of exchange rates on cash"] + [fmt(x) for x in CF["fx"]]))
    change = tuple(CF["ops_total"][i] + inv[i] + fin[i] + CF["fx"][i] for i in range(3))
    rows.append(("total", ["Net change in cash and cash equivalents"] + [fmt(x) for x in change]))
    begin_2025 = CASH_END_2024
    begin_2024 = begin_2025 - change[1]
    begin_2023 = begin_2024 - change[2]
    begins = (begin_2025, begin_2024, begin_2023)
    rows.append(("row", ["Cash and cash equivalents, beginning of year"] + [fmt(x) for x in begins]))
    ends = tuple(begins[i] + change[i] for i in range(3))
    rows.append(("grand", ["Cash and cash equivalents, end of year"] + [fmt(x, True) for x in ends]))
    return {
        "widths": [3.5, 1.0, 1.0, 1.0],
        "head": [["", "Year ended December 31,", None, None], ["", *list(YEARS)]],
        "rows": rows,
        "font": "small",
    }, ends[0]


def balance_table() -> dict:
    _, cash = cashflows()
    ca = [
        ("Cash and cash equivalents", (cash, CASH_END_2024)),
        ("Accounts receivable, net", (241_716, 228_403)),
        ("Contract assets", (88_245, 94_118)),
        ("Inventories", (166_600, 152_900)),
        ("Prepaid expenses and other current assets", (31_487, 29_062)),
    ]
    nca = [
        ("Property, plant and equipment, net", (318_406, 309_017)),
        ("Operating lease right-of-use assets", (42_318, 45_902)),
        ("Goodwill", (402_551, 399_874)),
        ("Intangible assets, net", (78_214, 87_806)),
        ("Deferred tax assets", (12_904, 10_233)),
        ("Other assets", (24_118, 22_761)),
    ]
    cl = [
        ("Accounts payable", (118_742, 109_385)),
        ("Contract liabilities", (97_316, 84_907)),
        ("Accrued compensation and benefits", (61_209, 52_118)),
        ("Current portion of long-term debt", (20_000, 20_000)),
        ("Other current liabilities", (58_447, 61_990)),
    ]
    ncl = [
        ("Long-term debt, net of current portion", (488_885, 548_210)),
        ("Operating lease liabilities", (36_904, 40_655)),
        ("Deferred tax liabilities", (21_330, 22_018)),
    ]
    eq = [
        ("Preferred stock, $0.01 par value; 5,000 shares authorised; none issued", (0, 0)),
        ("Common stock, $0.01 par value; 150,000 shares authorised", (EQUITY["cs"][2], EQUITY["cs"][1])),
        ("Additional paid-in capital", (EQUITY["apic"][2], EQUITY["apic"][1])),
        ("Retained earnings", (EQUITY["re"][2], EQUITY["re"][1])),
        ("Accumulated other comprehensive loss", (EQUITY["aoci"][2], EQUITY["aoci"][1])),
        ("Treasury stock, at cost", (EQUITY["ts"][2], EQUITY["ts"][1])),
    ]

    def tot(items: list) -> tuple[int, int]:
        return tuple(sum(v[i] for _, v in items) for i in range(2))  # type: ignore[return-value]

    assets = _sum(tot(ca), tot(nca))
    equity = tot(eq)
    other_lt = tuple(assets[i] - equity[i] - tot(cl)[i] - tot(ncl)[i] for i in range(2))
    assert all(20_000 < x < 80_000 for x in other_lt), other_lt
    ncl.append(("Other long-term liabilities", other_lt))
    rows = [("sub", ["Assets", "", ""]), ("sub2", ["Current assets:", "", ""])]
    rows += [("indent", [k, fmt(v[0], i == 0), fmt(v[1], i == 0)]) for i, (k, v) in enumerate(ca)]
    rows.append(("total", ["Total current assets", fmt(tot(ca)[0]), fmt(tot(ca)[1])]))
    rows += [("row", [k, fmt(v[0]), fmt(v[1])]) for k, v in nca]
    rows.append(("grand", ["Total assets", fmt(assets[0], True), fmt(assets[1], True)]))
    rows += [
        ("sub", ["Liabilities and Stockholders' Equity", "", ""]),
        ("sub2", ["Current liabilities:", "", ""]),
    ]
    rows += [("indent", [k, fmt(v[0], i == 0), fmt(v[1], i == 0)]) for i, (k, v) in enumerate(cl)]
    rows.append(("total", ["Total current liabilities", fmt(tot(cl)[0]), fmt(tot(cl)[1])]))
    rows += [("row", [k, fmt(v[0]), fmt(v[1])]) for k, v in ncl]
    liab = _sum(tot(cl), tot(ncl))
    rows.append(("total", ["Total liabilities", fmt(liab[0]), fmt(liab[1])]))
    rows.append(("row", ["Commitments and contingencies (Note 11)", "", ""]))
    rows.append(("sub2", ["Stockholders' equity:", "", ""]))
    rows += [("indent", [k, fmt(v[0]), fmt(v[1])]) for k, v in eq]
    rows.append(("total", ["Total stockholders' equity", fmt(equity[0]), fmt(equity[1])]))
    le = _sum(liab, equity)
    assert le == assets
    rows.append(("grand", ["Total liabilities and stockholders' equity", fmt(le[0], True), fmt(le[1], True)]))
    return {
        "widths": [4.3, 1.1, 1.1],
        "head": [["", "December 31,", None], ["", "2025", "2024"]],
        "rows": rows,
    }


TABLES_STATIC = {
    "properties": {
        "widths": [1.6, 2.3, 1.3, 0.7, 0.6],
        "head": [["Location", "Principal use", "Segment", "Square feet", "Owned or leased"]],
        "rows": [
            ("row", ["Columbus, Ohio", "Corporate headquarters", "Corporate", "86,000", "Leased"]),
            ("row", ["Dayton, Ohio", "Membrane production, assembly, R&D", "All", "412,000", "Owned"]),
            ("row", ["Reno, Nevada", "Assembly of treatment trains", "Municipal", "168,000", "Owned"]),
            ("row", ["Monterrey, Mexico", "Assembly of treatment trains", "Industrial", "141,000", "Leased"]),
            (
                "row",
                ["Tilburg, the Netherlands", "Membrane production, laboratory", "All", "122,000", "Owned"],
            ),
            ("row", ["Mississauga, Ontario", "Service centre and warehouse", "Services", "38,000", "Leased"]),
            ("row", ["Various (14 locations)", "Regional service centres", "Services", "96,000", "Leased"]),
        ],
        "align": "llllr",
        "font": "small",
    },
    "repurchases": {
        "widths": [1.7, 1.2, 1.1, 1.3, 1.2],
        "head": [
            [
                "Period",
                "Total shares purchased",
                "Average price paid per share",
                "Shares purchased under the programme",
                "Value that may yet be purchased ($ thousands)",
            ]
        ],
        "rows": [
            ("row", ["October 1 \u2013 31, 2025", "52,400", "$61.84", "52,400", "110,372"]),
            ("row", ["November 1 \u2013 30, 2025", "61,750", "$63.12", "61,750", "106,474"]),
            ("row", ["December 1 \u2013 31, 2025", "38,900", "$66.05", "38,900", "103,905"]),
            ("total", ["Total", "153,050", "$63.39", "153,050", ""]),
        ],
        "font": "small",
    },
    "metrics": {
        "widths": [3.9, 1.3, 1.3],
        "head": [["", "2025", "2024"]],
        "rows": [
            ("row", ["Orders ($ millions)", "1,341.2", "1,196.8"]),
            ("row", ["Backlog at year end ($ millions)", "918.5", "861.9"]),
            ("row", ["Book-to-bill ratio", "1.04", "1.02"]),
            ("row", ["Installed treatment trains", "2,912", "2,768"]),
            ("row", ["Share of installed trains under service agreements", "41%", "36%"]),
            ("row", ["Treatment trains connected to ClearLedger", "1,187", "904"]),
            ("row", ["ClearLedger annual recurring revenue ($ millions)", "38.6", "29.4"]),
            ("row", ["Net revenue retention, ClearLedger", "118%", "114%"]),
        ],
    },
    "obligations": {
        "widths": [2.0, 0.9, 0.9, 0.9, 0.9, 0.9],
        "head": [
            [
                "(in thousands)",
                "Total",
                "Less than 1 year",
                "1 \u2013 3 years",
                "3 \u2013 5 years",
                "More than 5 years",
            ]
        ],
        "rows": [],
        "font": "small",
    },
    "officers": {
        "widths": [2.2, 0.6, 3.7],
        "head": [["Name", "Age", "Position"]],
        "rows": [
            ("row", ["Dana R. Whitcombe", "54", "President and Chief Executive Officer; Director"]),
            ("row", ["Marcus O. Ellery", "49", "Executive Vice President and Chief Financial Officer"]),
            ("row", ["Ines Carvalho-Brandt", "51", "Executive Vice President and Chief Operating Officer"]),
            ("row", ["Tobias H. Lindqvist", "46", "Senior Vice President, Services and Analytics"]),
            ("row", ["Renee A. Okafor", "58", "Senior Vice President, General Counsel and Secretary"]),
            ("row", ["Samuel J. Pruitt", "44", "Vice President, Chief Accounting Officer and Controller"]),
        ],
        "align": "lcl",
    },
    "fees": {
        "widths": [3.9, 1.3, 1.3],
        "head": [["", "2025", "2024"]],
        "rows": [
            ("row", ["Audit fees", "$ 2,418,000", "$ 2,265,000"]),
            ("row", ["Audit-related fees", "184,000", "162,000"]),
            ("row", ["Tax fees", "96,000", "121,000"]),
            ("row", ["All other fees", "\u2014", "\u2014"]),
            ("grand", ["Total", "$ 2,698,000", "$ 2,548,000"]),
        ],
    },
    "exhibits": {
        "widths": [0.9, 5.6],
        "head": [["Exhibit", "Description"]],
        "rows": [
            (
                "row",
                [
                    "3.1",
                    "Amended and Restated Certificate of Incorporation of Tallis Ridge Water Systems, Inc.",
                ],
            ),
            ("row", ["3.2", "Amended and Restated Bylaws of Tallis Ridge Water Systems, Inc."]),
            (
                "row",
                ["4.1", "Indenture for the 5.25% Senior Notes due 2031, between the Company and the trustee"],
            ),
            ("row", ["4.2", "Description of the registrant's securities"]),
            ("row", ["10.1", "Second Amended and Restated Credit Agreement, dated as of June 14, 2024"]),
            ("row", ["10.2*", "2021 Equity Incentive Plan, as amended"]),
            ("row", ["10.3*", "Form of Performance Share Unit Award Agreement"]),
            ("row", ["10.4*", "Executive Severance Plan"]),
            ("row", ["21.1", "Subsidiaries of the registrant"]),
            (
                "row",
                ["23.1", "Consent of Hollins and Marrow LLP, independent registered public accounting firm"],
            ),
            ("row", ["31.1", "Certification of the Chief Executive Officer pursuant to Rule 13a-14(a)"]),
            ("row", ["31.2", "Certification of the Chief Financial Officer pursuant to Rule 13a-14(a)"]),
            ("row", ["32.1", "Certifications pursuant to 18 U.S.C. Section 1350"]),
            ("row", ["97.1", "Policy relating to recovery of erroneously awarded compensation"]),
            ("row", ["101", "Inline XBRL documents"]),
            ("row", ["", "* Management contract or compensatory plan or arrangement."]),
        ],
        "align": "ll",
        "font": "small",
    },
    "signatures": {
        "widths": [2.4, 2.9, 1.2],
        "head": [["Signature", "Title", "Date"]],
        "rows": [
            (
                "row",
                [
                    "/s/ Dana R. Whitcombe",
                    "President, Chief Executive Officer and Director",
                    "February 20, 2026",
                ],
            ),
            ("row", ["/s/ Marcus O. Ellery", "Chief Financial Officer", "February 20, 2026"]),
            ("row", ["/s/ Samuel J. Pruitt", "Chief Accounting Officer", "February 20, 2026"]),
            ("row", ["/s/ Gregory T. Halloran", "Chair of the Board", "February 20, 2026"]),
            ("row", ["/s/ Margit Sorensen-Hale", "Director", "February 20, 2026"]),
            ("row", ["/s/ Alvin K. Desrosiers", "Director", "February 20, 2026"]),
            ("row", ["/s/ Lorna P. Abernathy", "Director", "February 20, 2026"]),
        ],
        "align": "lll",
    },
}


def obligations_rows() -> list:
    items = [
        ("Long-term debt (principal)", (20_000, 40_000, 102_000, 350_000)),
        ("Interest on long-term debt", (26_310, 50_880, 45_120, 27_563)),
        ("Operating leases", LEASES_BY_PERIOD),
        ("Purchase obligations", (118_210, 8_240, 0, 0)),
    ]
    rows = [("row", [k, fmt(sum(v))] + [fmt(x) for x in v]) for k, v in items]
    cols = [sum(v[i] for _, v in items) for i in range(4)]
    rows.append(("grand", ["Total", fmt(sum(cols), True)] + [fmt(x, True) for x in cols]))
    return rows


# ---- statements and notes added for length: equity roll-forward, OCI, notes

OCI = {
    "Foreign currency translation adjustments": (6_318, -4_210, 2_975),
    "Unrealised gains (losses) on interest-rate swaps, net of tax": (-776, 1_092, -1_408),
}
OCI_TOTAL = tuple(sum(v[i] for v in OCI.values()) for i in range(3))
STOCK_COMP = (17_406, 15_882, 14_205)
PLAN_PROCEEDS = tuple(CF["fin"][3][1][i] + CF["fin"][4][1][i] for i in range(3))
DIVIDENDS = tuple(-CF["fin"][1][1][i] for i in range(3))
REPURCHASES = tuple(-CF["fin"][2][1][i] for i in range(3))
SHARES = {"issued": (664, 412), "repurchased": (440, 298)}


def _equity() -> dict[str, list[int]]:
    # balances at end of 2023, 2024, 2025, rolled forward from the 2024 year end
    end_2024 = {"shares": 47_916, "cs": 509, "apic": 130_137, "re": 498_301, "aoci": -19_804, "ts": -68_530}
    eq = {k: [0, v, 0] for k, v in end_2024.items()}
    eq["shares"][0] = end_2024["shares"] - SHARES["issued"][1] + SHARES["repurchased"][1]
    eq["shares"][2] = end_2024["shares"] + SHARES["issued"][0] - SHARES["repurchased"][0]
    eq["cs"][0], eq["cs"][2] = 506, 512
    eq["apic"][0] = end_2024["apic"] - STOCK_COMP[1] - PLAN_PROCEEDS[1] - 3
    eq["apic"][2] = end_2024["apic"] + STOCK_COMP[0] + PLAN_PROCEEDS[0] - 3
    eq["re"][0] = end_2024["re"] - NET[1] + DIVIDENDS[1]
    eq["re"][2] = end_2024["re"] + NET[0] - DIVIDENDS[0]
    eq["aoci"][0] = end_2024["aoci"] - OCI_TOTAL[1]
    eq["aoci"][2] = end_2024["aoci"] + OCI_TOTAL[0]
    eq["ts"][0] = end_2024["ts"] + REPURCHASES[1]
    eq["ts"][2] = end_2024["ts"] - REPURCHASES[0]
    return eq


EQUITY = _equity()
LEASE_MATURITIES = [
    ("2026", 9_812),
    ("2027", 9_105),
    ("2028", 8_301),
    ("2029", 6_422),
    ("2030", 5_696),
    ("Thereafter", 13_534),
]
LEASES_BY_PERIOD = (
    LEASE_MATURITIES[0][1],
    LEASE_MATURITIES[1][1] + LEASE_MATURITIES[2][1],
    LEASE_MATURITIES[3][1] + LEASE_MATURITIES[4][1],
    LEASE_MATURITIES[5][1],
)


def comprehensive_table() -> dict:
    rows = [
        ("row", ["Net income"] + [fmt(v, True) for v in NET]),
        ("sub2", ["Other comprehensive income (loss):", "", "", ""]),
    ]
    rows += [("indent", [k] + [fmt(x) for x in v]) for k, v in OCI.items()]
    rows.append(("total", ["Other comprehensive income (loss)"] + [fmt(x) for x in OCI_TOTAL]))
    rows.append(("grand", ["Comprehensive income"] + [fmt(NET[i] + OCI_TOTAL[i], True) for i in range(3)]))
    return {
        "widths": [3.5, 1.0, 1.0, 1.0],
        "head": [["", "Year ended December 31,", None, None], ["", *list(YEARS)]],
        "rows": rows,
    }


def equity_table() -> dict:
    e = EQUITY
    keys = ("shares", "cs", "apic", "re", "aoci", "ts")

    def bal(label: str, i: int) -> tuple[str, list[str]]:
        total = sum(e[k][i] for k in keys[1:])
        return ("total", [label] + [fmt(e[k][i]) for k in keys] + [fmt(total)])

    def act(label: str, vals: dict[str, int]) -> tuple[str, list[str]]:
        cells = [fmt(vals[k]) if k in vals else "" for k in keys]
        return ("indent", [label, *cells, fmt(sum(v for k, v in vals.items() if k != "shares"))])

    rows = [bal("Balance at December 31, 2023", 0)]
    for y, i in (("2024", 1), ("2025", 0)):
        rows += [
            act("Net income", {"re": NET[i]}),
            act("Other comprehensive income (loss)", {"aoci": OCI_TOTAL[i]}),
            act("Dividends declared", {"re": -DIVIDENDS[i]}),
            act("Stock-based compensation", {"apic": STOCK_COMP[i]}),
            act(
                "Shares issued under employee plans, net",
                {"shares": SHARES["issued"][i], "cs": 3, "apic": PLAN_PROCEEDS[i] - 3},
            ),
            act("Repurchases of common stock", {"shares": -SHARES["repurchased"][i], "ts": -REPURCHASES[i]}),
            bal(f"Balance at December 31, {y}", 1 if y == "2024" else 2),
        ]
    return {
        "widths": [2.05, 0.6, 0.5, 0.75, 0.75, 0.7, 0.7, 0.75],
        "head": [
            [
                "",
                "Shares",
                "Common stock",
                "Additional paid-in capital",
                "Retained earnings",
                "AOCI",
                "Treasury stock",
                "Total equity",
            ]
        ],
        "rows": rows,
        "font": "small",
    }


def quarterly_table() -> dict:
    q = {
        "Revenue": (289_412, 318_905, 327_770, 348_517),
        "Gross profit": (115_020, 129_884, 135_412, 144_729),
        "Net income": (22_108, 28_391, 30_446, 34_530),
    }
    assert (
        sum(q["Revenue"]) == REV[0] and sum(q["Gross profit"]) == GROSS[0] and sum(q["Net income"]) == NET[0]
    )
    rows = [("row", [k] + [fmt(x) for x in v] + [fmt(sum(v))]) for k, v in q.items()]
    rows.append(
        (
            "row",
            ["Gross margin"]
            + [pct(g / r * 100) for g, r in zip(q["Gross profit"], q["Revenue"], strict=True)]
            + [pct(GROSS[0] / REV[0] * 100)],
        )
    )
    rows.append(("row", ["Diluted earnings per share", "$0.45", "$0.58", "$0.62", "$0.71", "$2.36"]))
    return {
        "widths": [2.1, 0.88, 0.88, 0.88, 0.88, 0.88],
        "head": [
            [
                "(in thousands, except per share data)",
                "First quarter",
                "Second quarter",
                "Third quarter",
                "Fourth quarter",
                "Fiscal year",
            ]
        ],
        "rows": rows,
        "font": "small",
    }


def nongaap_table() -> dict:
    restr = OPS["Restructuring"][:2]
    adj = tuple(OPINC[i] + restr[i] + AMORT[i] for i in range(2))
    rows = [
        ("row", ["Operating income (GAAP)", fmt(OPINC[0], True), fmt(OPINC[1], True)]),
        ("indent", ["Restructuring charges", fmt(restr[0]), fmt(restr[1])]),
        ("indent", ["Amortisation of acquired intangible assets", fmt(AMORT[0]), fmt(AMORT[1])]),
        ("grand", ["Adjusted operating income (non-GAAP)", fmt(adj[0], True), fmt(adj[1], True)]),
        ("row", ["Adjusted operating margin", pct(adj[0] / REV[0] * 100), pct(adj[1] / REV[1] * 100)]),
    ]
    return {"widths": [3.9, 1.3, 1.3], "head": [["(in thousands)", "2025", "2024"]], "rows": rows}


def disaggregation_table() -> dict:
    geo = {
        "United States": (924_915, 853_913),
        "Canada": (115_614, 107_203),
        "Europe": (205_537, 182_431),
        "Other": (38_538, 34_510),
    }
    timing = {
        "Products transferred at a point in time": (514_177, 489_940),
        "Products transferred over time": (398_231, 356_275),
        "Services transferred over time": OPS["Services"][:2],
    }
    for d in (geo, timing):
        assert tuple(sum(v[i] for v in d.values()) for i in range(2)) == REV[:2]
    rows = [("sub", ["By geographic market", "", ""])]
    rows += [("indent", [k, fmt(v[0]), fmt(v[1])]) for k, v in geo.items()]
    rows += [("sub", ["By timing of transfer", "", ""])]
    rows += [("indent", [k, fmt(v[0]), fmt(v[1])]) for k, v in timing.items()]
    rows.append(("grand", ["Total revenue", fmt(REV[0], True), fmt(REV[1], True)]))
    return {"widths": [3.9, 1.3, 1.3], "head": [["(in thousands)", "2025", "2024"]], "rows": rows}


def leases_table() -> dict:
    total = sum(v for _, v in LEASE_MATURITIES)
    interest = 7_526
    rows = [("row", [k, fmt(v)]) for k, v in LEASE_MATURITIES]
    rows.append(("total", ["Total lease payments", fmt(total)]))
    rows.append(("row", ["Less imputed interest", fmt(-interest)]))
    rows.append(("grand", ["Present value of operating lease liabilities", fmt(total - interest, True)]))
    return {
        "widths": [4.0, 1.3],
        "head": [["Year ending December 31 (in thousands)", "Amount"]],
        "rows": rows,
    }


def warranty_table() -> dict:
    begin, accr, settle, other = (24_318, 22_905), (11_206, 10_540), (-9_874, -9_318), (212, 191)
    rows = [
        ("row", ["Balance at beginning of year", fmt(begin[0]), fmt(begin[1])]),
        ("row", ["Accruals for warranties issued", fmt(accr[0]), fmt(accr[1])]),
        ("row", ["Settlements made", fmt(settle[0]), fmt(settle[1])]),
        ("row", ["Foreign currency translation and other", fmt(other[0]), fmt(other[1])]),
        (
            "grand",
            ["Balance at end of year"]
            + [fmt(begin[i] + accr[i] + settle[i] + other[i], True) for i in range(2)],
        ),
    ]
    assert begin[0] == begin[1] + accr[1] + settle[1] + other[1]
    return {"widths": [3.9, 1.3, 1.3], "head": [["(in thousands)", "2025", "2024"]], "rows": rows}


PERFORMANCE = {
    "widths": [2.3, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7],
    "head": [["", "2020", "2021", "2022", "2023", "2024", "2025"]],
    "rows": [
        ("row", ["Tallis Ridge Water Systems, Inc.", "$100", "$118", "$104", "$121", "$139", "$168"]),
        ("row", ["Broad market index", "$100", "$126", "$103", "$130", "$152", "$171"]),
        ("row", ["Water technology peer group", "$100", "$121", "$98", "$112", "$129", "$146"]),
    ],
    "font": "small",
}


def tables() -> dict[str, dict]:
    t = dict(TABLES_STATIC)
    t["obligations"] = dict(t["obligations"], rows=obligations_rows())
    t["operations"] = operations_table()
    t["results"] = results_table()
    t["segments"] = segments_table()
    t["cashflows"] = cashflows()[0]
    t["balance"] = balance_table()
    t["comprehensive"] = comprehensive_table()
    t["equity"] = equity_table()
    t["quarterly"] = quarterly_table()
    t["nongaap"] = nongaap_table()
    t["disaggregation"] = disaggregation_table()
    t["leases"] = leases_table()
    t["warranty"] = warranty_table()
    t["performance"] = PERFORMANCE
    return t


# --------------------------------------------------------------------------- ODF


STYLES = """
<office:font-face-decls>
 <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" style:font-family-generic="roman" style:font-pitch="variable"/>
 <style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'" style:font-family-generic="swiss" style:font-pitch="variable"/>
 <style:font-face style:name="DejaVu Sans" svg:font-family="'DejaVu Sans'" style:font-family-generic="swiss" style:font-pitch="variable"/>
</office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph">
  <style:paragraph-properties fo:orphans="2" fo:widows="2" fo:hyphenation-ladder-count="no-limit" style:writing-mode="page"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="10.5pt" fo:language="en" fo:country="US" fo:hyphenate="false" fo:hyphenation-remain-char-count="2" fo:hyphenation-push-char-count="2"/>
 </style:default-style>
 <style:default-style style:family="table"/>
 <style:style style:name="Standard" style:family="paragraph" style:class="text"/>
 <style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard" style:class="text">
  <style:paragraph-properties fo:margin-top="0in" fo:margin-bottom="0.075in" fo:line-height="117%" fo:text-align="justify" loext:contextual-spacing="false"/>
  <style:text-properties fo:hyphenate="true" fo:hyphenation-remain-char-count="2" fo:hyphenation-push-char-count="3" loext:hyphenation-no-caps="true"/>
 </style:style>
 <style:style style:name="Risk_20_Caption" style:display-name="Risk Caption" style:family="paragraph" style:parent-style-name="Text_20_body" style:next-style-name="Text_20_body" style:class="text">
  <style:paragraph-properties fo:margin-top="0.06in" fo:margin-bottom="0.05in" fo:keep-with-next="always"/>
  <style:text-properties fo:font-weight="bold" fo:font-style="italic" fo:hyphenate="false"/>
 </style:style>
 <style:style style:name="Note_20_Box" style:display-name="Note Box" style:family="paragraph" style:parent-style-name="Text_20_body" style:class="text">
  <style:paragraph-properties fo:margin-left="0.25in" fo:margin-right="0.25in" fo:margin-top="0.08in" fo:margin-bottom="0.12in" fo:background-color="#e8eef4" fo:padding="0.08in" fo:border="0.6pt solid #4a6a8a">
   <style:background-image/>
  </style:paragraph-properties>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="9pt"/>
 </style:style>
 <style:style style:name="Subtitle_20_Centered" style:display-name="Subtitle Centered" style:family="paragraph" style:parent-style-name="Standard" style:class="text">
  <style:paragraph-properties fo:text-align="center" fo:margin-top="0in" fo:margin-bottom="0.08in" fo:keep-with-next="always"/>
  <style:text-properties fo:font-size="9pt" fo:font-style="italic"/>
 </style:style>
 <style:style style:name="List_20_Bullet" style:display-name="List Bullet" style:family="paragraph" style:parent-style-name="Text_20_body" style:list-style-name="LBullet" style:class="list"/>
 <style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard" style:next-style-name="Text_20_body" style:class="text">
  <style:paragraph-properties fo:margin-top="0.16in" fo:margin-bottom="0.07in" fo:keep-with-next="always"/>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="14pt" fo:hyphenate="false"/>
 </style:style>
 <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="1" style:class="text">
  <style:paragraph-properties fo:margin-top="0in" fo:margin-bottom="0.16in" fo:text-align="center" fo:break-before="page"/>
  <style:text-properties fo:font-size="15pt" fo:font-weight="bold" fo:text-transform="uppercase"/>
 </style:style>
 <style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="2" style:class="text">
  <style:paragraph-properties fo:margin-top="0.2in" fo:margin-bottom="0.08in" fo:text-align="start"/>
  <style:text-properties fo:font-size="12pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="Heading_20_3" style:display-name="Heading 3" style:family="paragraph" style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="3" style:class="text">
  <style:paragraph-properties fo:margin-top="0.12in" fo:margin-bottom="0.05in"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="10.5pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="Heading_20_4" style:display-name="Heading 4" style:family="paragraph" style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="4" style:class="text">
  <style:paragraph-properties fo:margin-top="0.08in" fo:margin-bottom="0.04in"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="10.5pt" fo:font-style="italic" fo:text-decoration="none" style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"/>
 </style:style>
 <style:style style:name="Contents_20_Heading" style:display-name="Contents Heading" style:family="paragraph" style:parent-style-name="Heading" style:class="index">
  <style:paragraph-properties fo:margin-top="0in" fo:margin-bottom="0.2in" fo:text-align="center" text:number-lines="false" text:line-number="0"/>
  <style:text-properties fo:font-size="15pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="Index" style:family="paragraph" style:parent-style-name="Standard" style:class="index"/>
 <style:style style:name="Contents_20_1" style:display-name="Contents 1" style:family="paragraph" style:parent-style-name="Index" style:class="index">
  <style:paragraph-properties fo:margin-left="0in" fo:margin-right="0in" fo:margin-top="0.12in" fo:margin-bottom="0.03in" fo:keep-with-next="always">
   <style:tab-stops><style:tab-stop style:position="6.5in" style:type="right" style:leader-style="dotted" style:leader-text="."/></style:tab-stops>
  </style:paragraph-properties>
  <style:text-properties fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="Contents_20_2" style:display-name="Contents 2" style:family="paragraph" style:parent-style-name="Index" style:class="index">
  <style:paragraph-properties fo:margin-left="0.2in" fo:margin-right="0.35in" fo:text-indent="0in" fo:margin-top="0in" fo:margin-bottom="0.04in">
   <style:tab-stops><style:tab-stop style:position="6.3in" style:type="right" style:leader-style="dotted" style:leader-text="."/></style:tab-stops>
  </style:paragraph-properties>
 </style:style>
 <style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
  <style:paragraph-properties fo:padding-bottom="0.03in" fo:border-bottom="0.5pt solid #000000">
   <style:tab-stops><style:tab-stop style:position="3.25in" style:type="center"/><style:tab-stop style:position="6.5in" style:type="right"/></style:tab-stops>
  </style:paragraph-properties>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="8.5pt" fo:color="#404040"/>
 </style:style>
 <style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
  <style:paragraph-properties>
   <style:tab-stops><style:tab-stop style:position="3.25in" style:type="center"/><style:tab-stop style:position="6.5in" style:type="right"/></style:tab-stops>
  </style:paragraph-properties>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="8.5pt"/>
 </style:style>
 <style:style style:name="Table_20_Contents" style:display-name="Table Contents" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
  <style:paragraph-properties fo:margin-top="0in" fo:margin-bottom="0in" fo:line-height="105%"/>
  <style:text-properties fo:font-size="9.5pt"/>
 </style:style>
 <style:style style:name="Table_20_Heading" style:display-name="Table Heading" style:family="paragraph" style:parent-style-name="Table_20_Contents" style:class="extra">
  <style:paragraph-properties fo:text-align="center"/>
  <style:text-properties fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="Cover" style:family="paragraph" style:parent-style-name="Standard" style:class="text">
  <style:paragraph-properties fo:text-align="center" fo:margin-top="0in" fo:margin-bottom="0.06in"/>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="9.5pt"/>
 </style:style>
 <style:style style:name="Index_20_Link" style:display-name="Index Link" style:family="text"/>
 <text:outline-style style:name="Outline">
  {outline_levels}
 </text:outline-style>
 <text:list-style style:name="LBullet">
  <text:list-level-style-bullet text:level="1" text:bullet-char="\u2022">
   <style:list-level-properties text:list-level-position-and-space-mode="label-alignment">
    <style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="0.45in" fo:text-indent="-0.2in" fo:margin-left="0.45in"/>
   </style:list-level-properties>
  </text:list-level-style-bullet>
 </text:list-style>
</office:styles>
"""

OUTLINE_LEVEL = (
    '<text:outline-level-style text:level="{n}" style:num-format="">'
    '<style:list-level-properties text:list-level-position-and-space-mode="label-alignment">'
    '<style:list-level-label-alignment text:label-followed-by="listtab"/>'
    "</style:list-level-properties></text:outline-level-style>"
)

AUTO_STYLES = """
<office:automatic-styles>
 <style:style style:name="PCoverFirst" style:family="paragraph" style:parent-style-name="Cover" style:master-page-name="First_20_Page">
  <style:paragraph-properties style:page-number="auto"/>
 </style:style>
 <style:style style:name="PCoverBig" style:family="paragraph" style:parent-style-name="Cover">
  <style:paragraph-properties fo:margin-top="0.1in" fo:margin-bottom="0.04in"/>
  <style:text-properties fo:font-size="20pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="PCoverName" style:family="paragraph" style:parent-style-name="Cover">
  <style:paragraph-properties fo:margin-top="0.12in" fo:margin-bottom="0in"/>
  <style:text-properties fo:font-size="16pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="PCoverSmall" style:family="paragraph" style:parent-style-name="Cover">
  <style:text-properties fo:font-size="7.5pt" fo:font-style="italic"/>
 </style:style>
 <style:style style:name="PCoverLeft" style:family="paragraph" style:parent-style-name="Cover">
  <style:paragraph-properties fo:text-align="justify" fo:margin-top="0.04in"/>
  <style:text-properties fo:font-size="8.5pt"/>
 </style:style>
 <style:style style:name="PCoverNote" style:family="paragraph" style:parent-style-name="Cover">
  <style:paragraph-properties fo:margin-top="0.25in" fo:break-after="page"/>
  <style:text-properties fo:font-size="7.5pt" fo:font-style="italic" fo:color="#555555"/>
 </style:style>
 <style:style style:name="PNum" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:text-align="end"/>
 </style:style>
 <style:style style:name="PNumB" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:text-align="end"/>
  <style:text-properties fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="PCell" style:family="paragraph" style:parent-style-name="Table_20_Contents"/>
 <style:style style:name="PCellC" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:text-align="center"/>
 </style:style>
 <style:style style:name="PCellB" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:text-properties fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="PCellI1" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:margin-left="0.15in"/>
 </style:style>
 <style:style style:name="PCellI2" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:margin-left="0.3in"/>
 </style:style>
 <style:style style:name="PCellBI" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:margin-left="0.15in"/>
  <style:text-properties fo:font-style="italic"/>
 </style:style>
 <style:style style:name="PHead" style:family="paragraph" style:parent-style-name="Table_20_Heading">
  <style:text-properties fo:font-size="8.5pt"/>
 </style:style>
 <style:style style:name="PSmall" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:text-properties fo:font-size="8.5pt"/>
 </style:style>
 <style:style style:name="PSmallNum" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:text-align="end"/>
  <style:text-properties fo:font-size="8.5pt"/>
 </style:style>
 <style:style style:name="PSmallNumB" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:paragraph-properties fo:text-align="end"/>
  <style:text-properties fo:font-size="8.5pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="PSmallB" style:family="paragraph" style:parent-style-name="Table_20_Contents">
  <style:text-properties fo:font-size="8.5pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="PAfterTable" style:family="paragraph" style:parent-style-name="Text_20_body">
  <style:paragraph-properties fo:margin-top="0.1in"/>
 </style:style>
 <style:style style:name="TBold" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
 <style:style style:name="CPlain" style:family="table-cell">
  <style:table-cell-properties fo:padding-left="0.04in" fo:padding-right="0.04in" fo:padding-top="0.015in" fo:padding-bottom="0.015in" fo:border="none" style:vertical-align="bottom"/>
 </style:style>
 <style:style style:name="CShade" style:family="table-cell">
  <style:table-cell-properties fo:padding-left="0.04in" fo:padding-right="0.04in" fo:padding-top="0.015in" fo:padding-bottom="0.015in" fo:border="none" fo:background-color="#f0f0f0" style:vertical-align="bottom"/>
 </style:style>
 <style:style style:name="CHead" style:family="table-cell">
  <style:table-cell-properties fo:padding="0.03in" fo:border-top="none" fo:border-left="none" fo:border-right="none" fo:border-bottom="0.75pt solid #000000" style:vertical-align="bottom"/>
 </style:style>
 <style:style style:name="CHeadTop" style:family="table-cell">
  <style:table-cell-properties fo:padding="0.03in" fo:border="none" style:vertical-align="bottom"/>
 </style:style>
 <style:style style:name="CTotal" style:family="table-cell">
  <style:table-cell-properties fo:padding-left="0.04in" fo:padding-right="0.04in" fo:padding-top="0.02in" fo:padding-bottom="0.02in" fo:border-top="0.5pt solid #000000" fo:border-bottom="none" fo:border-left="none" fo:border-right="none"/>
 </style:style>
 <style:style style:name="CGrand" style:family="table-cell">
  <style:table-cell-properties fo:padding-left="0.04in" fo:padding-right="0.04in" fo:padding-top="0.02in" fo:padding-bottom="0.02in" fo:border-top="0.5pt solid #000000" style:border-line-width-bottom="0.01in 0.01in 0.01in" fo:border-bottom="1.5pt double #000000" fo:border-left="none" fo:border-right="none"/>
 </style:style>
 <style:style style:name="CLabelTotal" style:family="table-cell">
  <style:table-cell-properties fo:padding-left="0.04in" fo:padding-right="0.04in" fo:padding-top="0.02in" fo:padding-bottom="0.02in" fo:border="none"/>
 </style:style>
 <style:style style:name="SectCols" style:family="section">
  <style:section-properties text:dont-balance-text-columns="false" style:editable="false">
   <style:columns fo:column-count="2" fo:column-gap="0.3in">
    <style:column style:rel-width="32767*" fo:start-indent="0in" fo:end-indent="0.15in"/>
    <style:column style:rel-width="32768*" fo:start-indent="0.15in" fo:end-indent="0in"/>
    <style:column-sep style:width="0.5pt" style:color="#808080" style:height="100%" style:vertical-align="top"/>
   </style:columns>
  </style:section-properties>
 </style:style>
 <style:style style:name="SectToc" style:family="section">
  <style:section-properties style:editable="false"><style:columns fo:column-count="1" fo:column-gap="0in"/></style:section-properties>
 </style:style>
 {table_styles}
 <style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="8.5in" fo:page-height="11in" style:print-orientation="portrait" fo:margin-top="0.5in" fo:margin-bottom="0.5in" fo:margin-left="1in" fo:margin-right="1in" style:writing-mode="lr-tb"/>
  <style:header-style><style:header-footer-properties fo:min-height="0.25in" fo:margin-bottom="0.22in"/></style:header-style>
  <style:footer-style><style:header-footer-properties fo:min-height="0.25in" fo:margin-top="0.2in"/></style:footer-style>
 </style:page-layout>
 <style:page-layout style:name="pm2">
  <style:page-layout-properties fo:page-width="8.5in" fo:page-height="11in" style:print-orientation="portrait" fo:margin-top="0.7in" fo:margin-bottom="0.7in" fo:margin-left="1in" fo:margin-right="1in" style:writing-mode="lr-tb"/>
 </style:page-layout>
</office:automatic-styles>
<office:master-styles>
 <style:master-page style:name="Standard" style:page-layout-name="pm1">
  <style:header><text:p text:style-name="Header">{company}<text:tab/><text:tab/>Annual Report 2025 \u2014 Form 10-K</text:p></style:header>
  <style:footer><text:p text:style-name="Footer"><text:tab/><text:page-number text:select-page="current">1</text:page-number><text:tab/></text:p></style:footer>
 </style:master-page>
 <style:master-page style:name="First_20_Page" style:display-name="First Page" style:page-layout-name="pm2" style:next-style-name="Standard"/>
</office:master-styles>
"""

DOC_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink"
 xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta>
 <dc:title>{company} \u2014 Annual Report on Form 10-K for the fiscal year ended December 31, 2025</dc:title>
 <dc:subject>Fictional annual report (test document)</dc:subject>
 <meta:initial-creator>sectionrag test data</meta:initial-creator>
</office:meta>
"""


class Writer:
    def __init__(self, tables: dict[str, dict]) -> None:
        self.tables = tables
        self.table_styles: list[str] = []
        self.n_tables = 0
        self.headings: list[tuple[int, str]] = []

    # inline ------------------------------------------------------------------
    @staticmethod
    def inline(text: str) -> str:
        parts = text.split("**")
        out = []
        for i, part in enumerate(parts):
            part = escape(part)
            out.append(f'<text:span text:style-name="TBold">{part}</text:span>' if i % 2 else part)
        return "".join(out)

    # tables ------------------------------------------------------------------
    def table(self, key: str) -> str:
        spec = self.tables[key]
        self.n_tables += 1
        name = f"Table{self.n_tables}"
        widths = spec["widths"]
        total = sum(widths)
        self.table_styles.append(
            f'<style:style style:name="{name}" style:family="table"><style:table-properties '
            f'style:width="{total:.2f}in" table:align="center" fo:margin-top="0.04in" fo:margin-bottom="0.1in" '
            f'style:may-break-between-rows="true"/></style:style>'
        )
        cols = []
        for i, w in enumerate(widths):
            cname = f"{name}.C{i}"
            self.table_styles.append(
                f'<style:style style:name="{cname}" style:family="table-column">'
                f'<style:table-column-properties style:column-width="{w:.2f}in"/></style:style>'
            )
            cols.append(f'<table:table-column table:style-name="{cname}"/>')
        small = spec.get("font") == "small"
        align = spec.get("align") or ("l" + "r" * (len(widths) - 1))
        out = [
            f'<table:table table:name="{name}" table:style-name="{name}">',
            *cols,
            "<table:table-header-rows>",
        ]
        heads = spec["head"]
        for hi, hrow in enumerate(heads):
            out.append("<table:table-row>")
            i = 0
            while i < len(hrow):
                cell = hrow[i]
                span = 1
                while i + span < len(hrow) and hrow[i + span] is None:
                    span += 1
                cstyle = "CHead" if (hi == len(heads) - 1 or span > 1) and cell else "CHeadTop"
                attr = f' table:number-columns-spanned="{span}"' if span > 1 else ""
                out.append(
                    f'<table:table-cell table:style-name="{cstyle}" office:value-type="string"{attr}>'
                    f'<text:p text:style-name="PHead">{escape(cell or "")}</text:p></table:table-cell>'
                )
                out.extend("<table:covered-table-cell/>" for _ in range(span - 1))
                i += span
            out.append("</table:table-row>")
        out.append("</table:table-header-rows>")
        for ri, (kind, cells) in enumerate(spec["rows"]):
            out.append("<table:table-row>")
            for ci, cell in enumerate(cells):
                right = align[ci] == "r"
                centre = align[ci] == "c"
                bold = kind in ("total", "grand", "sub")
                if ci == 0:
                    cstyle = "CLabelTotal" if kind in ("total", "grand") else "CPlain"
                    pstyle = {
                        "indent": "PCellI1",
                        "indent2": "PCellI2",
                        "sub": "PCellB",
                        "sub2": "PCellBI",
                        "total": "PCellB",
                        "grand": "PCellB",
                    }.get(kind, "PCell")
                    if small and pstyle in ("PCell", "PCellB"):
                        pstyle = "PSmallB" if bold else "PSmall"
                else:
                    cstyle = {"total": "CTotal", "grand": "CGrand"}.get(kind, "CPlain")
                    if right:
                        pstyle = (
                            ("PSmallNumB" if bold else "PSmallNum")
                            if small
                            else ("PNumB" if bold else "PNum")
                        )
                    elif centre:
                        pstyle = "PCellC"
                    else:
                        pstyle = "PSmall" if small else "PCell"
                if cstyle == "CPlain" and ri % 2 == 1 and key not in ("exhibits", "signatures"):
                    cstyle = "CShade"
                out.append(
                    f'<table:table-cell table:style-name="{cstyle}" office:value-type="string">'
                    f'<text:p text:style-name="{pstyle}">{escape(cell)}</text:p></table:table-cell>'
                )
            out.append("</table:table-row>")
        out.append("</table:table>")
        return "\n".join(out)

    # body ----------------------------------------------------------------------
    def body(self, markup: str) -> str:
        out: list[str] = []
        blocks = [b.strip() for b in re.split(r"\n\s*\n", markup) if b.strip()]
        in_list = False
        after_table = False
        for block in blocks:
            text = " ".join(line.strip() for line in block.splitlines())
            if in_list and not text.startswith("* "):
                out.append("</text:list>")
                in_list = False
            m = re.match(r"^(#{1,4}) (.*)$", text)
            if m:
                level = len(m.group(1))
                title = m.group(2)
                self.headings.append((level, title))
                out.append(
                    f'<text:h text:style-name="Heading_20_{level}" text:outline-level="{level}">{escape(title)}</text:h>'
                )
            elif text.startswith("!! "):
                out.append(f'<text:p text:style-name="Risk_20_Caption">{self.inline(text[3:])}</text:p>')
            elif text.startswith("* "):
                if not in_list:
                    out.append('<text:list text:style-name="LBullet">')
                    in_list = True
                out.append(
                    f'<text:list-item><text:p text:style-name="List_20_Bullet">{self.inline(text[2:])}</text:p></text:list-item>'
                )
            elif text.startswith("> "):
                out.append(f'<text:p text:style-name="Note_20_Box">{self.inline(text[2:])}</text:p>')
            elif text.startswith("~ "):
                out.append(f'<text:p text:style-name="Subtitle_20_Centered">{escape(text[2:])}</text:p>')
            elif text.startswith("[table:"):
                out.append(self.table(text[7:-1]))
                after_table = True
                continue
            elif text == "[cols2]":
                out.append('<text:section text:style-name="SectCols" text:name="Glossary">')
            elif text == "[/cols2]":
                out.append("</text:section>")
            else:
                style = "PAfterTable" if after_table else "Text_20_body"
                out.append(f'<text:p text:style-name="{style}">{self.inline(text)}</text:p>')
            after_table = False
        if in_list:
            out.append("</text:list>")
        return "\n".join(out)


COVER = [
    ("PCoverFirst", "UNITED STATES"),
    ("Cover", "SECURITIES AND EXCHANGE COMMISSION"),
    ("Cover", "Washington, D.C. 20549"),
    ("PCoverBig", "FORM 10-K"),
    ("Cover", "\u2612 ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"),
    ("Cover", "For the fiscal year ended December 31, 2025"),
    ("Cover", "or"),
    (
        "Cover",
        "\u2610 TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
    ),
    ("Cover", "Commission file number 001-99999"),
    ("PCoverName", "TALLIS RIDGE WATER SYSTEMS, INC."),
    ("PCoverSmall", "(Exact name of registrant as specified in its charter)"),
    ("Cover", "Delaware \u2003\u2003\u2003\u2003\u2003\u2003 99-9999999"),
    ("PCoverSmall", "(State of incorporation) \u2003\u2003\u2003\u2003 (I.R.S. Employer Identification No.)"),
    ("Cover", "2200 Meridian Parkway, Suite 400, Columbus, Ohio 43215"),
    ("PCoverSmall", "(Address of principal executive offices, including zip code)"),
    ("Cover", "(614) 555-0147"),
    ("PCoverSmall", "(Registrant's telephone number, including area code)"),
    ("Cover", "Securities registered pursuant to Section 12(b) of the Act:"),
    ("Cover", "Common Stock, $0.01 par value \u2014 TRWS \u2014 The Nasdaq Stock Market LLC"),
    (
        "PCoverLeft",
        "Indicate by check mark if the registrant is a well-known seasoned issuer, as defined in Rule 405 of the Securities Act. Yes \u2612 No \u2610",
    ),
    (
        "PCoverLeft",
        "Indicate by check mark whether the registrant (1) has filed all reports required to be filed by Section 13 or 15(d) of the Securities Exchange Act of 1934 during the preceding 12 months and (2) has been subject to such filing requirements for the past 90 days. Yes \u2612 No \u2610",
    ),
    (
        "PCoverLeft",
        "Indicate by check mark whether the registrant is a large accelerated filer, an accelerated filer, a non-accelerated filer, a smaller reporting company or an emerging growth company. Large accelerated filer \u2612 Accelerated filer \u2610 Non-accelerated filer \u2610 Smaller reporting company \u2610 Emerging growth company \u2610",
    ),
    (
        "PCoverLeft",
        "Indicate by check mark whether the registrant is a shell company (as defined in Rule 12b-2 of the Act). Yes \u2610 No \u2612",
    ),
    (
        "PCoverLeft",
        "The aggregate market value of the voting stock held by non-affiliates of the registrant, based on the closing price of the common stock on June 30, 2025, was approximately $2.71 billion. As of February 13, 2026, 48,146,309 shares of the registrant's common stock were outstanding.",
    ),
    ("Cover", "DOCUMENTS INCORPORATED BY REFERENCE"),
    (
        "PCoverLeft",
        "Portions of the registrant's definitive proxy statement for its 2026 annual meeting of stockholders are incorporated by reference into Part III of this report.",
    ),
    (
        "PCoverNote",
        "Fictional document made for software testing. Tallis Ridge Water Systems, Inc., its people, places and figures are invented; any resemblance to a real company is coincidental.",
    ),
]


def toc_xml(headings: list[tuple[int, str]], pages: dict[str, int] | None) -> str:
    tmpl = []
    for lvl in range(1, TOC_LEVELS + 1):
        tmpl.append(
            f'<text:table-of-content-entry-template text:outline-level="{lvl}" text:style-name="Contents_20_{lvl}">'
            '<text:index-entry-link-start text:style-name="Index_20_Link"/><text:index-entry-chapter/>'
            '<text:index-entry-text/><text:index-entry-tab-stop style:type="right" style:leader-char="."/>'
            "<text:index-entry-page-number/><text:index-entry-link-end/></text:table-of-content-entry-template>"
        )
    body = []
    for lvl, title in headings:
        if lvl > TOC_LEVELS:
            continue
        page = str(pages.get(title, "00")) if pages else "00"
        body.append(
            f'<text:p text:style-name="Contents_20_{lvl}"><text:a xlink:type="simple" '
            f'xlink:href="#{escape(title, {chr(34): "&quot;"})}|outline" text:style-name="Index_20_Link" '
            f'text:visited-style-name="Index_20_Link">{escape(title)}<text:tab/>{page}</text:a></text:p>'
        )
    return (
        '<text:table-of-content text:style-name="SectToc" text:protected="true" text:name="Table of Contents1">'
        f'<text:table-of-content-source text:outline-level="{TOC_LEVELS}">'
        '<text:index-title-template text:style-name="Contents_20_Heading">Table of Contents</text:index-title-template>'
        + "".join(tmpl)
        + "</text:table-of-content-source><text:index-body>"
        '<text:index-title text:style-name="SectToc" text:name="Table of Contents1_Head">'
        '<text:p text:style-name="Contents_20_Heading">Table of Contents</text:p></text:index-title>'
        + "".join(body)
        + "</text:index-body></text:table-of-content>"
    )


def build_fodt(pages: dict[str, int] | None) -> str:
    w = Writer(tables())
    body = w.body(BODY)
    cover = "\n".join(f'<text:p text:style-name="{s}">{escape(t)}</text:p>' for s, t in COVER)
    outline = "".join(OUTLINE_LEVEL.format(n=n) for n in range(1, 11))
    styles = STYLES.replace("{outline_levels}", outline)
    auto = AUTO_STYLES.replace("{table_styles}", "\n".join(w.table_styles)).replace(
        "{company}", escape(COMPANY)
    )
    return (
        DOC_HEAD.replace("{company}", escape(COMPANY))
        + styles
        + auto
        + "<office:body><office:text>\n"
        + cover
        + "\n"
        + toc_xml(w.headings, pages)
        + "\n"
        + body
        + "\n</office:text></office:body></office:document>\n"
    )


def convert(fodt: Path, outdir: Path, profile: Path) -> Path:
    opts = {
        "ExportBookmarks": {"type": "boolean", "value": "true"},
        "UseTaggedPDF": {"type": "boolean", "value": "false"},
    }
    cmd = [
        shutil.which("soffice") or "soffice",
        f"-env:UserInstallation=file://{profile}",
        "--headless",
        "--convert-to",
        "pdf:writer_pdf_Export:" + json.dumps(opts, separators=(",", ":")),
        "--outdir",
        str(outdir),
        str(fodt),
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return outdir / (fodt.stem + ".pdf")


def heading_pages(pdf_path: Path) -> dict[str, int]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        out: dict[str, int] = {}
        for bm in pdf.get_toc(max_depth=12):
            dest = bm.get_dest()
            if dest is not None and dest.get_index() is not None:
                out.setdefault(bm.get_title(), dest.get_index() + 1)
        return out
    finally:
        pdf.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--keep-fodt", action="store_true", help="also write the .fodt source next to the PDF")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        fodt = t / "annual-report-libreoffice.fodt"
        fodt.write_text(build_fodt(None), encoding="utf-8")
        pages = heading_pages(convert(fodt, t, t / "profile"))
        fodt.write_text(build_fodt(pages), encoding="utf-8")
        pdf = convert(fodt, t, t / "profile")
        again = heading_pages(pdf)
        if again != pages:
            print("warning: headings moved between passes; TOC page numbers may be off", file=sys.stderr)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pdf, args.out)
        if args.keep_fodt:
            shutil.copyfile(fodt, args.out.with_suffix(".fodt"))
    print(f"{args.out}: {len(pages)} bookmarks, last heading on page {max(pages.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
