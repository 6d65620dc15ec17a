"""Running headers, footers and page numbers of PDF pages ("furniture")."""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from collections.abc import Callable

from sectionrag.parsers._pdfium import PdfLine

__all__ = ["mark_furniture", "mark_line_numbers"]

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013\u2014(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014)\]]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_LINE_NUMBER = re.compile(r"^\d{1,5}$")
_FOLIO_EDGE = re.compile(r"^\d{1,4}\s+|\s+\d{1,4}$")


def mark_furniture(pages_lines: list[list[PdfLine]]) -> None:
    """Mark running headers, footers and page numbers (``role = "furniture"``).

    Only lines in the top or bottom band of a page are considered: a page
    number there, or a line whose text recurs in the same band on at least
    three pages (digits ignored in plain text; in larger or bold text only a
    page number at either end is).
    """
    zone: list[list[tuple[PdfLine, bool]]] = []
    for lines in pages_lines:
        if not lines:
            zone.append([])
            continue
        tops = sorted(lines, key=lambda ln: ln.top)
        page_top = tops[0].top
        page_bottom = max(ln.bottom for ln in lines)
        span = max(page_bottom - page_top, 1.0)
        cand = [(ln, True) for ln in tops[:4] if ln.top - page_top < 0.08 * span]
        cand += [(ln, False) for ln in tops[-4:] if page_bottom - ln.bottom < 0.08 * span]
        zone.append(cand)
    sizes = Counter(round(ln.size) for lines in pages_lines for ln in lines)
    body = sizes.most_common(1)[0][0] if sizes else 10

    def signature(ln: PdfLine, top: bool) -> tuple[str, int | None]:
        # heading-like text must repeat exactly, but for a folio at either end ("2 K. T. Smith",
        # "Guide for authors 3"); plain text may differ in all its numbers
        plain = round(ln.size) <= body and not ln.bold
        folio = None
        if plain:
            text = _DIGITS.sub("#", ln.text)
        else:
            edge = _FOLIO_EDGE.search(ln.text)
            bare = _FOLIO_EDGE.sub("", ln.text)
            if edge and len(bare.split()) >= 2:
                text, folio = f"#{bare}", int(edge.group().strip())
            else:
                text = ln.text
        return f"{'t' if top else 'b'}|{round(ln.size)}|{' '.join(text.split())}", folio

    # a folio counts up with the page: a head repeated "whatever the folio" keeps one offset
    # between its number and the page's index ("3. Results of Part 2" on page 14 is a heading)
    offsets: dict[str, Counter[int]] = {}
    for index, cand in enumerate(zone):
        for sig, folio in {signature(ln, top) for ln, top in cand}:
            offsets.setdefault(sig, Counter())[0 if folio is None else folio - index] += 1
    counts = {sig: seen.most_common(1)[0][1] for sig, seen in offsets.items()}
    n_pages = len(pages_lines)
    set_apart = [_rows_set_apart(lines) for lines in pages_lines]
    running = _running_head_places(zone, set_apart, body, n_pages)
    running |= _repeated_head_places(zone, counts, signature, n_pages)
    marked = _watermarks(pages_lines)
    # how many pieces each row of a page holds
    pieces_per_page = [Counter(ln.row for ln in lines) for lines in pages_lines]
    offset = _folio_offset(zone, pieces_per_page, body)
    for index, (cand, apart, pieces) in enumerate(zip(zone, set_apart, pieces_per_page, strict=True)):
        marked.extend(ln for ln, top in cand if _place(ln, top) in running and ln.row in apart)
        # a folio alone in its row, or a row with a folio set apart from the text ("Risk Factors  44")
        numbered_rows = {
            ln.row for ln, _ in cand if _is_page_number(ln, body) and (pieces[ln.row] == 1 or ln.row in apart)
        }
        # a page has one folio: where it stands alone in its row, counting with the document's
        # pages, a different number that ends a row of text in the other band is no folio ("I User's
        # manual  4", a contents' first entry set apart under its title, on the page whose foot
        # prints "1")
        folio = None if offset is None else index + offset
        if folio is not None and any(pieces[ln.row] == 1 and ln.text.strip() == str(folio) for ln, _ in cand):
            numbered_rows -= {
                ln.row
                for ln, _ in cand
                if pieces[ln.row] > 1 and ln.text.strip().isdecimal() and int(ln.text) != folio
            }
        for ln, top in cand:
            if ln.row in numbered_rows or (n_pages >= 3 and counts[signature(ln, top)[0]] >= 3):
                marked.append(ln)
    # never take a page's only text, nor most of the document's text: repeated "furniture" that
    # is all there is (the same short text on every page) is the document's text
    total = sum(len(ln.text) for lines in pages_lines for ln in lines)
    removed = sum(len(ln.text) for ln in marked)
    if total and removed > 0.5 * total:
        return
    marked_ids = {id(ln) for ln in marked}
    for lines in pages_lines:
        if lines and all(id(ln) in marked_ids for ln in lines):
            continue
        for ln in lines:
            if id(ln) in marked_ids:
                ln.role = "furniture"


def _folio_offset(
    zone: list[list[tuple[PdfLine, bool]]], pieces_per_page: list[Counter[int]], body: float
) -> int | None:
    """Return the offset from a page's index to its folio, where most folios alone in a row agree on one.

    Three pages at least must print such a folio; ``None`` where they do not
    agree (footnote marks at the foot of a page, folios set beside a running head).
    """
    offsets: Counter[int] = Counter()
    for index, (cand, pieces) in enumerate(zip(zone, pieces_per_page, strict=True)):
        offsets.update(
            {
                int(ln.text) - index
                for ln, _ in cand
                if ln.text.isdecimal() and pieces[ln.row] == 1 and _is_page_number(ln, body)
            }
        )
    if not offsets:
        return None
    offset, n = offsets.most_common(1)[0]
    return offset if n >= 3 and n >= 0.5 * sum(offsets.values()) else None


def _watermarks(pages_lines: list[list[PdfLine]]) -> list[PdfLine]:
    """Return the lines stamped at one place on half the pages or more, wherever on the page.

    A watermark or a stamp (a company's name set large across every page, a
    "DRAFT") repeats its words, size and position exactly; the text around it
    changes from page to page. Three pages at least.
    """
    n_pages = sum(1 for lines in pages_lines if lines)
    if n_pages < 3:
        return []
    pages: dict[tuple[str, int, int, int], set[int]] = {}
    stamped: dict[tuple[str, int, int, int], list[PdfLine]] = {}
    for index, lines in enumerate(pages_lines):
        for ln in lines:
            key = (ln.text, round(ln.size), round(ln.x0 / 4), round(ln.top / 4))
            pages.setdefault(key, set()).add(index)
            stamped.setdefault(key, []).append(ln)
    return [ln for key, on in pages.items() if len(on) >= max(3, 0.5 * n_pages) for ln in stamped[key]]


_Place = tuple[bool, int, str, float]


def _place(ln: PdfLine, top: bool = True) -> _Place:
    """Where a line of a page's top or bottom band stands: its band, height, font and size."""
    return top, round((ln.top if top else ln.bottom) / 2), ln.font, round(ln.size * 2) / 2


def _repeated_head_places(
    zone: list[list[tuple[PdfLine, bool]]],
    counts: dict[str, int],
    signature: Callable[[PdfLine, bool], tuple[str, int | None]],
    n_pages: int,
) -> set[_Place]:
    """Where a head repeated word for word on a quarter of the pages stands (four at least).

    Its place is the running head's on the other pages too, whatever it reads
    there and in whatever weight: a book's title over the left-hand pages and
    the current section's over the right-hand ones, both in the head's bold.
    """
    least = max(4, 0.25 * n_pages)
    return {_place(ln, top) for cand in zone for ln, top in cand if counts[signature(ln, top)[0]] >= least}


def _running_head_places(
    zone: list[list[tuple[PdfLine, bool]]], set_apart: list[set[int]], body: int, n_pages: int
) -> set[_Place]:
    """Where a running head stands whose words change with the chapter or section it runs over.

    A line at the top of four pages or more (a quarter of the document's at
    least) at one height, in one face no larger than the text's and not bold,
    that reads differently from page to page (``APPENDIX 1. LOREM IPSUM``,
    then ``1.2. DOLOR``) but repeats some of its readings on more pages than
    one (chapter titles at the top of the pages they open do not), and stands
    apart from the text below it on three pages in four: the text's own first
    line at the top of every page is followed by more text. A head repeated
    word for word is found by its text; a slide's or a chapter's title at the
    top of its pages is larger or bold.
    """
    texts: dict[_Place, set[str]] = {}
    pages: Counter[_Place] = Counter()
    apart: Counter[_Place] = Counter()
    for cand, rows_apart in zip(zone, set_apart, strict=True):
        seen: dict[_Place, bool] = {}
        for ln, top in cand:
            if top and not ln.bold and round(ln.size) <= body and any(ch.isalpha() for ch in ln.text):
                place = _place(ln)
                texts.setdefault(place, set()).add(_DIGITS.sub("#", " ".join(ln.text.split())))
                seen[place] = seen.get(place, False) or ln.row in rows_apart
        pages.update(seen)
        apart.update(p for p, a in seen.items() if a)
    return {
        p
        for p, n in pages.items()
        if n >= max(4, 0.25 * n_pages) and 2 <= len(texts[p]) < n and apart[p] >= 0.75 * n
    }


def _rows_set_apart(lines: list[PdfLine]) -> set[int]:
    """Rows set off from the text next to them by more than a line's height.

    A running footer stands apart; the last entry of a contents page, ending in
    its page number like a footer, follows the entries above at their spacing.
    """
    rows: dict[int, tuple[float, float, float]] = {}
    for ln in lines:
        top, bottom, height = rows.get(ln.row, (ln.top, ln.bottom, ln.height))
        rows[ln.row] = (min(top, ln.top), max(bottom, ln.bottom), max(height, ln.height))
    ordered = sorted(rows.items(), key=lambda item: item[1][0])
    gaps = sorted(max(b[1][0] - a[1][1], 0.0) for a, b in itertools.pairwise(ordered))
    usual = gaps[len(gaps) // 2] if gaps else 0.0
    out: set[int] = set()
    for k, (row, (top, bottom, height)) in enumerate(ordered):
        limit = max(2.0 * usual, 1.5 * height)
        above = ordered[k - 1][1][1] if k > 0 else None
        below = ordered[k + 1][1][0] if k + 1 < len(ordered) else None
        if (above is None or top - above > limit) and (below is None or below - bottom > limit):
            out.add(row)
    return out


def _is_page_number(ln: PdfLine, body: float) -> bool:
    """Tell a folio (``12``, ``iv``, ``Page 3 of 9``) from a roman-looking letter set as a heading.

    A bold or large ``D`` or ``C`` at the top of a page is an index letter or an
    appendix label, not page "500" or "100", and a ``1`` set far larger than the
    text is a chapter's number.
    """
    if not _PAGE_NUMBER.match(ln.text) or ln.size >= 1.6 * body:
        return False  # a chapter's number set large over its title is not a folio
    roman_letters = ln.text.strip().isalpha()
    return not (roman_letters and (ln.bold or ln.size >= 1.2 * body))


def mark_line_numbers(lines: list[PdfLine]) -> None:
    """Mark a column of line numbers in a page's margin as furniture.

    Manuscripts and specifications number their lines in the margin (``15``,
    ``16``, ``17`` beside the text): each number shares its row with a line of
    text, which would otherwise read as a table row of two cells. A column of
    five or more bare numbers, counting up mostly one by one down the page
    and standing wholly left of every line of prose, or wholly right of it
    and set smaller than the prose (a review draft numbers both margins), is
    such a margin; numbers inside the text block (a table's first column) and
    a contents page's page numbers (at the right, at the entries' size, and
    jumping) are left alone.
    """
    numbers = [ln for ln in lines if _LINE_NUMBER.match(ln.text)]
    if len(numbers) < 5:
        return
    # prose lines, less those that pdfium ran on from a line number ("22 . If you exceed ...")
    prose = [ln for ln in lines if len(ln.text.split()) >= 5 and not ln.text.split()[0].isdigit()]
    if not prose:
        return
    text_left = min(ln.x0 for ln in prose)
    text_right = max(ln.x1 for ln in prose)
    size = statistics.median(ln.size for ln in prose)
    left = [ln for ln in numbers if ln.x1 < text_left]
    # at the right, set smaller than the text (a review draft numbers its lines on both sides; a
    # contents page's page numbers stand there too, at the entries' size)
    right = [ln for ln in numbers if ln.x0 > text_right and ln.size <= 0.85 * size]
    for column in (left, right):
        margin = sorted(column, key=lambda ln: ln.top)
        if len(margin) < 5:
            continue
        values = [int(ln.text) for ln in margin]
        steps = [b - a for a, b in itertools.pairwise(values)]
        # line numbers count up one by one (a contents page's page numbers jump)
        if sum(1 for d in steps if d > 0) >= 0.8 * len(steps) and sum(
            1 for d in steps if d == 1
        ) >= 0.6 * len(steps):
            for ln in margin:
                ln.role = "furniture"
