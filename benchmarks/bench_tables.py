"""PdfParser(tables=True) (pdfplumber's ruled tables) against the default layout reading: rows and speed.

Documents:

- ``ruled-N``: PDFs of ruled tables with known contents (``tests/_tablegen.py``,
  seeds 101-105; seeds 1 and 3 were used while developing and are not reported);
- ``annual-report``: ``tests/data/pdf/annual-report-libreoffice.pdf``, whose
  tables (borderless, shaded rows) are known from ``make_report_pdf.tables()``;
- ``reportlab-guide``: ``tests/data/pdf/reportlab-userguide.pdf``, real ruled
  tables (and grid figures) without a ground truth: speed and text kept only.

Columns: ``rows exact`` counts true rows found as one line ``cell | cell | ...``
(empty cells included); ``rows (cells)`` counts rows whose non-empty cells
are one line in order; ``words kept`` is the share of the default reading's
words (as a multiset) that the other reading also has (1.0 = nothing lost).

Usage::

    python benchmarks/bench_tables.py [--seeds 101 102 103 104 105]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from _tablegen import row_line, tables_pdf  # noqa: E402
from sectionrag.parsers.pdf import PdfParser  # noqa: E402

DATA = ROOT / "tests" / "data" / "pdf"


def _norm(text: str) -> str:
    return " ".join(text.split())


def _rows_found(text: str, rows: list[list[str]]) -> tuple[int, int]:
    lines = [_norm(line) for line in text.split("\n")]
    as_sets = {line for line in lines}
    cells_lines = {tuple(p.strip() for p in line.split("|") if p.strip()) for line in lines}
    exact = sum(1 for r in rows if row_line(r) in as_sets)
    cells = sum(1 for r in rows if tuple(_norm(c) for c in r if c.strip()) in cells_lines)
    return exact, cells


def _words_kept(reference: str, text: str) -> float:
    ref = Counter(w for w in reference.split() if w != "|")
    got = Counter(w for w in text.split() if w != "|")
    return sum((ref & got).values()) / max(sum(ref.values()), 1)


def _time(parser: PdfParser, path: Path, repeat: int) -> tuple[float, str]:
    times = []
    text = ""
    for _ in range(repeat):
        started = time.perf_counter()
        text = parser.parse(path).text
        times.append(time.perf_counter() - started)
    return statistics.median(times), text


def _annual_report_rows() -> list[list[str]]:
    from make_report_pdf import tables

    rows = []
    for table in tables().values():
        for cells in [*table.get("head", []), *(cells for _, cells in table["rows"])]:
            cs = [c.strip() for c in cells if isinstance(c, str)]
            if sum(1 for c in cs if c) >= 2:
                rows.append(cs)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103, 104, 105])
    ap.add_argument("--repeat", type=int, default=3, help="parses per document and reader (median time)")
    args = ap.parse_args(argv)
    docs: list[tuple[str, Path, list[list[str]] | None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            path = Path(tmp) / f"ruled-{seed}.pdf"
            truth = tables_pdf(path, seed=seed)
            docs.append((f"ruled-{seed}", path, [r for t in truth for r in t]))
        docs.append(("annual-report", DATA / "annual-report-libreoffice.pdf", _annual_report_rows()))
        docs.append(("reportlab-guide", DATA / "reportlab-userguide.pdf", None))
        print(
            "| document | reader | seconds | x default | rows exact | rows (cells) | words kept |\n"
            "|---|---|---:|---:|---:|---:|---:|"
        )
        totals: dict[str, list[int]] = {"default": [0, 0, 0], "tables": [0, 0, 0]}
        for name, path, rows in docs:
            base_s, base = _time(PdfParser(), path, args.repeat)
            for label, parser in (("default", PdfParser()), ("tables=True", PdfParser(tables=True))):
                seconds, text = (base_s, base) if label == "default" else _time(parser, path, args.repeat)
                exact = cells = "-"
                if rows is not None:
                    e, c = _rows_found(text, rows)
                    exact, cells = f"{e}/{len(rows)}", f"{c}/{len(rows)}"
                    if name.startswith("ruled"):
                        key = "default" if label == "default" else "tables"
                        totals[key][0] += e
                        totals[key][1] += c
                        totals[key][2] += len(rows)
                print(
                    f"| {name} | {label} | {seconds:.2f} | {seconds / base_s:.1f} | {exact} | {cells} "
                    f"| {_words_kept(base, text):.3f} |"
                )
        for key, (e, c, n) in totals.items():
            print(f"\nruled tables, {key}: {e}/{n} rows exact ({e / n:.1%}), {c}/{n} by cells ({c / n:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
