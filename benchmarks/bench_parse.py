"""Parsing throughput: sectionrag's PDF parser beside pdfplumber and pypdfium2 plain text.

For each PDF, in one run: pages per second for

* ``sectionrag``: ``PdfParser().parse`` (reading order, furniture removal,
  sections included; the outline is used when present),
* ``sectionrag --no-outline``: the same with headings detected from the pages alone,
* ``pdfplumber``: ``page.extract_text()`` for every page,
* ``pypdfium2``: ``get_textpage().get_text_range()`` for every page (plain text only).

The test PDFs in ``tests/data/pdf`` and ``tests/data/sec`` are used, plus a
generated 600-page report.

Usage: python benchmarks/bench_parse.py [PDF ...] [--repeat N] [--skip-pdfplumber-over PAGES]
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _pdfgen import report, write_pdf  # noqa: E402
from sectionrag.parsers.pdf import PdfParser  # noqa: E402


def run_sectionrag(path: Path) -> int:
    return len(PdfParser().parse(path).pages)


def run_sectionrag_layout(path: Path) -> int:
    return len(PdfParser(use_outline=False).parse(path).pages)


def run_pdfplumber(path: Path) -> int:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        n = 0
        for page in pdf.pages:
            page.extract_text()
            page.close()
            n += 1
        return n


def run_pypdfium2(path: Path) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        n = len(pdf)
        for i in range(n):
            page = pdf[i]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
        return n
    finally:
        pdf.close()


def timed(fn: Callable[[Path], int], path: Path, repeat: int) -> float:
    best = float("inf")
    pages = 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        pages = fn(path)
        best = min(best, time.perf_counter() - start)
    return pages / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs (default 1)")
    parser.add_argument("--skip-pdfplumber-over", type=int, default=0, help="skip pdfplumber on longer files")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        files = list(args.pdfs)
        if not files:
            files = sorted((ROOT / "tests" / "data" / "pdf").glob("*.pdf"))
            files = [f for f in files if f.name != "encrypted.pdf"]
            files += sorted((ROOT / "tests" / "data" / "sec").glob("*.pdf"))
            pages, outline = report(600)
            files.append(write_pdf(Path(tmp) / "generated-report-600.pdf", pages, outline))
        print(
            "| file | pages | sectionrag (pages/s) | sectionrag --no-outline | pdfplumber extract_text | "
            "pypdfium2 text | vs pdfplumber | vs pypdfium2 |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        total = {"sr": 0.0, "plumber": 0.0, "pdfium": 0.0}
        total_pages = 0
        for path in files:
            n = run_pypdfium2(path)
            sr = timed(run_sectionrag, path, args.repeat)
            layout = timed(run_sectionrag_layout, path, args.repeat)
            pdfium_rate = timed(run_pypdfium2, path, args.repeat)
            skip = args.skip_pdfplumber_over and n > args.skip_pdfplumber_over
            plumber = float("nan") if skip else timed(run_pdfplumber, path, 1)
            if not skip:
                total["sr"] += n / sr
                total["plumber"] += n / plumber
                total["pdfium"] += n / pdfium_rate
                total_pages += n
            print(
                f"| {path.name} | {n} | {sr:.0f} | {layout:.0f} | {plumber:.1f} | {pdfium_rate:.0f} | "
                f"{sr / plumber:.1f}x | {sr / pdfium_rate:.2f}x |",
                flush=True,
            )
        if total_pages:
            sr_all = total_pages / total["sr"]
            plumber_all = total_pages / total["plumber"]
            pdfium_all = total_pages / total["pdfium"]
            print(
                f"| **all** | {total_pages} | {sr_all:.0f} | | {plumber_all:.1f} | {pdfium_all:.0f} | "
                f"{sr_all / plumber_all:.1f}x | {sr_all / pdfium_all:.2f}x |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
