"""Headings of HTML pages that mark none up: the retrieval set's 10-Q filings as EDGAR writes them.

Filings on EDGAR are HTML without ``h1``-``h6``: a heading is a ``<span>`` or
``<font>`` in bold, or a table row ``Item 2. | Management's Discussion ...``.
This script writes the eight 10-Q filings of ``benchmarks/retrieval_set``
(their real text, kept there as Markdown) as such pages, in three looks:

- ``spans``: every heading a bold ``<span>`` in a ``<div>``, at the text's size;
- ``table``: the same, with each ``Item N.`` heading as a two-cell table row;
- ``sizes``: ``<b>`` inside ``<font style="font-size">``, 14 pt, 12 pt, then the
  text's 10 pt by the heading's Markdown level.

In every look the statements' ``Total ...`` rows are bold, and so are the
column headings that start with ``Total`` (``Total Number of Shares
Purchased``), as filings set them. Each page is parsed with
``sectionrag.parse`` and its section titles are compared with the Markdown
file's headings (normalised titles; precision, recall, F1). Levels are not
scored: the Markdown files' levels come from the tool that converted the
filings, not from the filings.

    python benchmarks/html_filings.py           # one row per page, and the means
    python benchmarks/html_filings.py --keep D  # keep the pages in D
"""

from __future__ import annotations

import argparse
import html
import re
import statistics
import sys
import tempfile
from pathlib import Path

import sectionrag
from sectionrag.parsers.markdown import MarkdownParser

FILINGS = Path(__file__).resolve().parent / "retrieval_set" / "docs" / "finance"
LOOKS = ("spans", "table", "sizes")
_ATX = re.compile(r"(#{1,6})\s+(.*)")
_ITEM = re.compile(r"(Item\s+\d+[A-Z]?\.)\s*(.*)", re.IGNORECASE)
_SPAN = '<span style="font-family:Times New Roman;font-size:10pt;font-weight:{}">{}</span>'


def _row(line: str) -> str:
    weight = 700 if line.strip().lower().startswith("total") else 400
    cells = "".join(f"<td>{_SPAN.format(weight, html.escape(c.strip()))}</td>" for c in line.split("|"))
    return f"<tr>{cells}</tr>"


def _heading(title: str, level: int, look: str) -> str:
    item = _ITEM.match(title)
    if look == "table" and item:
        first, rest = (_SPAN.format(700, html.escape(t)) for t in item.groups())
        return f"<table><tr><td>{first}</td><td>{rest}</td></tr></table>"
    if look == "sizes":
        size = {1: 14, 2: 12}.get(level, 10)
        bold = f'<font style="font-size:{size}pt"><b>{html.escape(title)}</b></font>'
        return f'<p style="margin-top:12pt">{bold}</p>'
    return f'<div style="margin-top:12pt">{_SPAN.format(700, html.escape(title))}</div>'


def as_edgar_html(markdown: str, look: str) -> str:
    """Write a Markdown filing as an EDGAR-style HTML page in ``look`` (see the module docs)."""
    out = ["<html><body>"]
    para: list[str] = []
    rows: list[str] = []

    def flush() -> None:
        if para:
            out.append(f'<div style="margin-top:6pt">{_SPAN.format(400, html.escape(" ".join(para)))}</div>')
            para.clear()
        if rows:
            out.append("<table>" + "".join(_row(r) for r in rows) + "</table>")
            rows.clear()

    for line in markdown.split("\n"):
        m = _ATX.match(line)
        if m:
            flush()
            out.append(_heading(m.group(2).strip(), len(m.group(1)), look))
        elif "|" in line and line.strip():
            if para:
                flush()
            rows.append(line)
        elif not line.strip():
            flush()
        else:
            if rows:
                flush()
            para.append(line.strip())
    flush()
    out.append("</body></html>")
    return "\n".join(out)


def _key(title: str) -> str:
    return " ".join(re.sub(r"[^\w ]", " ", title).lower().split())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--keep", type=Path, help="write the pages into this folder and keep them")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print("| page | headings (Markdown) | sections found | matched | precision | recall | F1 |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        rows = []
        for md in sorted(FILINGS.glob("*.md")):
            truth = {_key(s.title) for s in MarkdownParser().parse(md).sections}
            for look in LOOKS:
                page = folder / f"{md.stem}-{look}.html"
                page.write_text(as_edgar_html(md.read_text(encoding="utf-8"), look), encoding="utf-8")
                found = {_key(s.title) for s in sectionrag.parse(page).sections}
                hit = len(truth & found)
                precision = hit / len(found) if found else 0.0
                recall = hit / len(truth) if truth else 1.0
                f1 = 2 * precision * recall / (precision + recall) if hit else 0.0
                rows.append((precision, recall, f1))
                print(
                    f"| {page.stem} | {len(truth)} | {len(found)} | {hit} "
                    f"| {precision:.3f} | {recall:.3f} | {f1:.3f} |"
                )
        means = [statistics.mean(r[i] for r in rows) for i in range(3)]
        print(f"| **mean of {len(rows)}** | | | | {means[0]:.3f} | {means[1]:.3f} | {means[2]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
