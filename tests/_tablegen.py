"""PDFs with ruled tables whose contents are known: for the table tests and ``benchmarks/bench_tables.py``.

Each table is a full grid (a rule around every cell), as in forms, manuals
and many reports: a header row, then rows of words and figures; some cells
are empty and some wrap onto two lines. Prose paragraphs stand between the
tables. Everything is drawn from a seeded random generator, so a seed names
one exact document.
"""

from __future__ import annotations

import random
from pathlib import Path

from _pdfgen import Line, Page, write_pdf

_VOCABULARY = """
    water membrane filter pressure pump valve service contract revenue region plant sensor capacity
    module train station municipal industrial annual quarter segment backlog order warranty lease
    facility equipment software platform installation customer supplier
"""
WORDS = tuple(_VOCABULARY.split())
LEFT, RIGHT, TOP, BOTTOM = 72.0, 540.0, 740.0, 72.0
SIZE = 9.0
LINE = 11.0
#: width of a character in Helvetica at ``SIZE`` points, generously rounded up (never overflow a cell)
CHAR = 0.56 * SIZE


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def _figure(rng: random.Random) -> str:
    value = rng.randint(1, 9_999_999) / rng.choice((1, 10, 100))
    text = f"{value:,.0f}" if value >= 1000 else f"{value:,.1f}"
    return rng.choice((text, f"({text})", f"$ {text}", f"{rng.randint(1, 99)}.{rng.randint(0, 9)}%"))


def _prose(rng: random.Random, lines: int) -> list[str]:
    out = []
    for _ in range(lines):
        text = _words(rng, 9, 14)
        out.append(text[0].upper() + text[1:] + ".")
    return out


def _split(text: str, width: float) -> list[str]:
    """Greedy word wrap into lines of at most ``width`` points."""
    lines: list[str] = []
    for word in text.split():
        if lines and (len(lines[-1]) + 1 + len(word)) * CHAR <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def make_table(rng: random.Random) -> tuple[list[float], list[list[str]]]:
    """Column widths and rows (the first is the header) of one random table.

    Every column is at least as wide as its longest word or figure (cells
    wrap between words, never inside one).
    """
    cols = rng.randint(3, 6)
    head = [_words(rng, 1, 3).title() for _ in range(cols)]
    rows = [head]
    for _ in range(rng.randint(3, 9)):
        row = [_words(rng, 1, 7 if rng.random() < 0.3 else 3)]
        row += [_figure(rng) if rng.random() < 0.7 else _words(rng, 1, 3) for _ in range(cols - 1)]
        blanked = [cell if rng.random() > 0.08 else "" for cell in row]
        # (a row of empty cells only is no row of text to find: its first cell keeps its words)
        rows.append(blanked if any(blanked) else [row[0], *blanked[1:]])
    least = [8 + CHAR * max(len(w) for row in rows for w in (row[c].split() or [""])) for c in range(cols)]
    widths = [rng.uniform(0.6, 1.6) for _ in range(cols)]
    scale = (RIGHT - LEFT - sum(least)) * rng.uniform(0.3, 1.0) / sum(widths)
    return [low + w * max(scale, 0.0) for low, w in zip(least, widths, strict=True)], rows


def _rule(x0: float, y0: float, x1: float, y1: float) -> bytes:
    return b"%.2f %.2f m %.2f %.2f l S" % (x0, y0, x1, y1)


def tables_pdf(path: Path, seed: int, tables: int = 12) -> list[list[list[str]]]:
    """Write a PDF of ``tables`` ruled tables (with prose between them); return their rows of cells."""
    rng = random.Random(seed)
    pages: list[Page] = []
    truth: list[list[list[str]]] = []
    page = Page()
    rules: list[bytes] = []
    y = TOP

    def new_page() -> None:
        nonlocal page, rules, y
        page.raw = b"0.5 w\n" + b"\n".join(rules)
        pages.append(page)
        page, rules, y = Page(), [], TOP

    for _ in range(tables):
        for text in _prose(rng, rng.randint(2, 4)):
            if y - LINE < BOTTOM:
                new_page()
            page.lines.append(Line(text, x=LEFT, y=y, size=SIZE))
            y -= LINE
        y -= LINE
        widths, rows = make_table(rng)
        wrapped = [[_split(cell, w - 8) for cell, w in zip(row, widths, strict=True)] for row in rows]
        heights = [4 + LINE * max(1, *(len(c) for c in row)) for row in wrapped]
        if y - sum(heights) < BOTTOM:
            new_page()
        xs = [LEFT]
        for w in widths:
            xs.append(xs[-1] + w)
        top = y
        for cells, height in zip(wrapped, heights, strict=True):
            for x, lines in zip(xs, cells, strict=False):
                for k, text in enumerate(lines):
                    page.lines.append(Line(text, x=x + 4, y=y - 2 - LINE * (k + 1) + 3, size=SIZE))
            rules.append(_rule(xs[0], y, xs[-1], y))
            y -= height
        rules.append(_rule(xs[0], y, xs[-1], y))
        rules.extend(_rule(x, top, x, y) for x in xs)
        truth.append([[" ".join(lines) for lines in cells] for cells in wrapped])
        y -= 2 * LINE
    new_page()
    write_pdf(path, pages)
    return truth


def row_line(cells: list[str]) -> str:
    """A row as ``PdfParser(tables=True)`` writes it: cells joined by ``" | "``, white space folded."""
    return " ".join(" | ".join(cells).split())
