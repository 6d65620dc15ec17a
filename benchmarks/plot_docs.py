"""Draw the charts of the documentation from the tables published in docs/benchmarks.md.

The charts are made from the Markdown tables themselves, so a chart can never show other
figures than the table beside it: run this script again after a benchmark rewrites a table.

    python benchmarks/plot_docs.py            # writes docs/img/*.png (needs sectionrag[plot])

Charts:
- ``retrieval_test_half.png``: recall@5 and span IoU per configuration on the test half of the
  real-document retrieval set (vector and hybrid mode), from "Retrieval on real documents";
- ``parse_speed.png``: PDF pages per second per file for sectionrag, pdfplumber's
  ``extract_text`` and pypdfium2's plain text, from "Parsing / Throughput".
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
OUT = ROOT / "docs" / "img"

Table = list[dict[str, str]]


def tables_after(text: str, marker: str) -> list[Table]:
    """Every Markdown table after the first line that contains ``marker``, in order."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if marker in line), None)
    if start is None:
        raise SystemExit(f"{DOC}: no line contains {marker!r}; has the page changed?")
    found: list[Table] = []
    i = start + 1
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and set(lines[i + 1]) <= set("|-: "):
            header = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            rows: Table = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                rows.append(dict(zip(header, cells, strict=True)))
                i += 1
            found.append(rows)
        else:
            i += 1
    return found


def table_with(text: str, marker: str, columns: set[str]) -> Table:
    """The first table after ``marker`` whose header has every one of ``columns``."""
    for table in tables_after(text, marker):
        if table and columns <= set(table[0]):
            return table
    raise SystemExit(f"{DOC}: no table with columns {sorted(columns)} after {marker!r}")


def number(cell: str) -> float:
    """A table cell as a number (``**`` and a trailing ``x`` or ``%`` dropped)."""
    return float(cell.strip("*").rstrip("x%").replace(",", ""))


def plot_retrieval(text: str, plt: object) -> Path:
    """Recall@5 and span IoU per configuration, vector and hybrid side by side."""
    rows = table_with(text, "**Test half**", {"configuration", "mode", "recall@5", "span IoU"})
    configs: list[str] = []
    for row in rows:
        if row["configuration"] not in configs:
            configs.append(row["configuration"])
    modes = ["vector", "hybrid", "default"]
    colours = {"vector": "#9aa5b1", "hybrid": "#3e7cb1", "default": "#d9822b"}
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.42 * len(configs) + 1.6), sharey=True)  # type: ignore[attr-defined]
    for ax, metric, label in ((axes[0], "recall@5", "recall@5"), (axes[1], "span IoU", "span IoU (%)")):
        height = 0.38
        ax.set_xlim(0, max(number(r[metric]) for r in rows) * 1.12)
        for j, mode in enumerate(modes[:2]):
            ys, xs, cs = [], [], []
            for k, config in enumerate(configs):
                hit = [r for r in rows if r["configuration"] == config and r["mode"] in (mode, "default")]
                if not hit or (hit[0]["mode"] == "default" and j == 1):
                    continue
                m = hit[0]["mode"]
                ys.append(k + (0 if m == "default" else (j - 0.5) * height))
                xs.append(number(hit[0][metric]))
                cs.append(colours[m])
            ax.barh(ys, xs, height=height, color=cs)
            for y, x in zip(ys, xs, strict=True):
                ax.text(x, y, f" {x:g}", va="center", fontsize=7)
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
    axes[0].set_yticks(range(len(configs)), configs)
    axes[0].invert_yaxis()
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[m]) for m in modes]  # type: ignore[attr-defined]
    fig.suptitle("Retrieval on real documents, test half (201 queries, MiniLM, k = 5)", y=0.99, fontsize=10)
    fig.legend(
        handles,
        ["vector search", "hybrid search", "sectionrag default"],
        loc="upper center",
        bbox_to_anchor=(0.5, 0.95),
        ncol=3,
        fontsize=8,
    )
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    return save(fig, "retrieval_test_half.png", plt)


def plot_parse_speed(text: str, plt: object) -> Path:
    """Pages per second per file, log scale: sectionrag, pdfplumber, pypdfium2."""
    rows = table_with(
        text, "### Throughput", {"file", "sectionrag (pages/s)", "pdfplumber extract_text", "pypdfium2 text"}
    )
    rows = [r for r in rows if not r["file"].startswith("**")]
    systems = [
        ("pypdfium2 text", "pypdfium2 plain text", "#9aa5b1"),
        ("sectionrag (pages/s)", "sectionrag PdfParser", "#d9822b"),
        ("pdfplumber extract_text", "pdfplumber extract_text", "#3e7cb1"),
    ]
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(rows) + 1.5))  # type: ignore[attr-defined]
    height = 0.27
    for j, (column, label, colour) in enumerate(systems):
        ys = [k + (j - 1) * height for k in range(len(rows))]
        ax.barh(ys, [number(r[column]) for r in rows], height=height, color=colour, label=label)
    ax.set_yticks(range(len(rows)), [f"{r['file']} ({r['pages']} p.)" for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("pages per second (log scale; one run, shared 2-core machine)")
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize=8, frameon=False)
    fig.suptitle("PDF parsing throughput", fontsize=10)
    fig.tight_layout()
    return save(fig, "parse_speed.png", plt)


def save(fig: object, name: str, plt: object) -> Path:
    """Write ``fig`` as a PNG without a timestamp or version, so an unchanged table gives the same file."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    fig.savefig(path, dpi=110, metadata={"Software": None})  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[attr-defined]
    return path


def main(argv: list[str] | None = None) -> int:
    """Parse the options and draw every chart."""
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print('needs matplotlib: pip install "sectionrag[plot]"', file=sys.stderr)
        return 1
    text = DOC.read_text(encoding="utf-8")
    for path in (plot_retrieval(text, plt), plot_parse_speed(text, plt)):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
