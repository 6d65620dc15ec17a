"""Heading detection measured against the PDFs' own outlines (bookmarks).

For each PDF, the bookmarks are the truth (title, page, depth). The parser
runs with ``use_outline=False`` so that only the page layout is used. A
detected section matches a bookmark when the titles agree after
normalisation (numbering, case, punctuation and ligatures removed) and the
pages differ by at most one. Reported: precision, recall, F1 and, over the
matched pairs, how often the levels agree.

Usage: python benchmarks/heading_eval.py [PDF ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from difflib import SequenceMatcher
from pathlib import Path

from sectionrag.parsers.headings import normalize_for_match
from sectionrag.parsers.pdf import PdfParser

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "pdf"


@dataclass
class Row:
    file: str
    pages: int
    truth: int
    found: int
    matched: int
    precision: float
    recall: float
    f1: float
    level_agreement: float
    found_in_depth: int
    precision_in_depth: float
    f1_in_depth: float
    visible: int
    f1_visible: float


def outline_truth(path: Path) -> list[tuple[int, str, int]]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        out = []
        for depth, title, page, _ in PdfParser._read_outline(pdf):
            out.append((depth, title, page + 1))
        return out
    finally:
        pdf.close()


def similar(a: str, b: str) -> bool:
    if not a or not b:
        return False
    return a == b or SequenceMatcher(None, a, b).ratio() >= 0.9


def evaluate(path: Path, verbose: bool = False) -> Row:
    truth = outline_truth(path)
    doc = PdfParser(use_outline=False).parse(path)
    found = [(s.level, s.title, s.page_start or 0) for s in doc.sections]
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    tnorm = [normalize_for_match(t[1]) for t in truth]
    fnorm = [normalize_for_match(f[1]) for f in found]
    for ti, (_, _, tpage) in enumerate(truth):
        for fi, (_, _, fpage) in enumerate(found):
            if fi in used or abs(fpage - tpage) > 1:
                continue
            if similar(tnorm[ti], fnorm[fi]):
                used.add(fi)
                pairs.append((ti, fi))
                break
    matched = len(pairs)
    precision = matched / len(found) if found else 0.0
    recall = matched / len(truth) if truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    agree = sum(1 for ti, fi in pairs if truth[ti][0] == found[fi][0])
    level = agree / matched if matched else 0.0
    depth = max((t[0] for t in truth), default=0)
    in_depth = [fi for fi, f in enumerate(found) if f[0] <= depth]
    matched_in_depth = sum(1 for _, fi in pairs if found[fi][0] <= depth)
    p2 = matched_in_depth / len(in_depth) if in_depth else 0.0
    r2 = matched_in_depth / len(truth) if truth else 0.0
    f2 = 2 * p2 * r2 / (p2 + r2) if p2 + r2 else 0.0
    # Some bookmarks name a heading that is not printed on its page (an index's letter groups
    # set without letters): no layout reading can find those, so recall is also taken over
    # the bookmarks whose title appears in the text of their page (plus or minus one).
    page_lines = [
        [normalize_for_match(line).split() for line in doc.text[p.start : p.end].splitlines()]
        for p in doc.pages
    ]

    def printed(title: str, page: int) -> bool:
        words = title.split()
        if not words:
            return False
        # the title opens a line (it may run on into the next one, or the line into text)
        near = [line for lines in page_lines[max(page - 2, 0) : page + 1] for line in lines]
        flat = [w for line in near for w in line]
        return any(line[: len(words)] == words for line in near) or (
            len(words) > 3 and " ".join(words) in " ".join(flat)
        )

    visible = sum(1 for ti, t in enumerate(truth) if printed(tnorm[ti], t[2]))
    r3 = min(matched_in_depth / visible, 1.0) if visible else 0.0
    f3 = 2 * p2 * r3 / (p2 + r3) if p2 + r3 else 0.0
    if verbose:
        hit_t = {ti for ti, _ in pairs}
        print(f"--- {path.name}: missed", file=sys.stderr)
        for ti, t in enumerate(truth):
            if ti not in hit_t:
                print("   ", t, file=sys.stderr)
        print(f"--- {path.name}: extra", file=sys.stderr)
        for fi, f in enumerate(found):
            if fi not in used:
                print("   ", f, file=sys.stderr)
        print(f"--- {path.name}: level mismatch", file=sys.stderr)
        for ti, fi in pairs:
            if truth[ti][0] != found[fi][0]:
                print("   ", truth[ti], "->", found[fi][0], file=sys.stderr)
    return Row(
        path.name,
        len(doc.pages),
        len(truth),
        len(found),
        matched,
        precision,
        recall,
        f1,
        level,
        len(in_depth),
        p2,
        f2,
        visible,
        f3,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true", help="list misses and extras on stderr")
    args = parser.parse_args(argv)
    files = args.pdfs or [p for p in sorted(DATA.glob("*.pdf")) if p.name != "encrypted.pdf"]
    rows = [evaluate(p, args.verbose) for p in files]
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return 0
    print(
        "| file | pages | outline entries | found | matched | precision | recall | F1 | level agreement "
        "| found within outline depth | precision (depth) | F1 (depth) | printed on page "
        "| F1 (depth, printed) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r.file} | {r.pages} | {r.truth} | {r.found} | {r.matched} | {r.precision:.2f} | "
            f"{r.recall:.2f} | {r.f1:.2f} | {r.level_agreement:.2f} | {r.found_in_depth} | "
            f"{r.precision_in_depth:.2f} | {r.f1_in_depth:.2f} | {r.visible} | {r.f1_visible:.2f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
