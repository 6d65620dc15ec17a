"""Sections from a PDF's outline (bookmarks), placed at their headings in the text."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sectionrag.parsers._pdf_headings import Candidate
from sectionrag.parsers._pdf_layout import clean_text
from sectionrag.parsers._pdfium import PageFrame, PdfLine
from sectionrag.parsers._sections import Heading, normalize_title
from sectionrag.parsers.headings import classify, normalize_for_match
from sectionrag.types import PageSpan

__all__ = ["cut_short", "outline_headings", "read_outline", "titles_match"]

logger = logging.getLogger(__name__)


def read_outline(
    pdf: Any, frames: Sequence[PageFrame | None] | None = None
) -> list[tuple[int, str, int, float | None]]:
    """Return ``(depth, title, page_index, y_from_top)`` for each bookmark of a pypdfium2 document.

    ``frames`` are the pages' rotations and sizes where the caller has read
    them (a page is loaded for its frame otherwise); ``None`` for a page that
    could not be read.
    """
    out: list[tuple[int, str, int, float | None]] = []
    known: dict[int, PageFrame | None] = dict(enumerate(frames)) if frames is not None else {}
    try:
        for bookmark in pdf.get_toc(max_depth=12):
            title = normalize_title(clean_text(bookmark.get_title() or ""))
            dest = bookmark.get_dest()
            if not title or dest is None:
                continue
            index = dest.get_index()
            if index is None or not 0 <= index < len(pdf):
                continue
            y: float | None = None
            try:
                _, view = dest.get_view()
                if len(view) >= 2 and view[1]:
                    if index not in known:
                        known[index] = PageFrame.of(pdf[index])
                    frame = known[index]
                    # (on a page turned a quarter, the height shown is the user space's x)
                    if frame is not None and (frame.rotation in (0, 180) or view[0]):
                        x = float(view[0] or 0.0)
                        y = frame.box(x, float(view[1]), x, float(view[1]))[1]
            except Exception:  # pragma: no cover - a view is optional
                y = None
            out.append((bookmark.level + 1, title, index, y))
    except Exception as e:  # pragma: no cover - a broken outline is ignored
        logger.warning("cannot read the PDF outline: %s", e)
    return out


def outline_headings(
    outline: list[tuple[int, str, int, float | None]],
    pages: list[list[PdfLine]],
    candidates: list[Candidate],
    line_offsets: dict[int, int],
    page_spans: Sequence[PageSpan],
) -> list[Heading]:
    """Place each bookmark at its heading line (or nearest line) on its page."""
    by_page: dict[int, list[Candidate]] = {}
    for c in candidates:
        by_page.setdefault(c.page, []).append(c)
    page_lines: dict[int, list[tuple[PdfLine, str]]] = {}
    out: list[Heading] = []
    used: set[int] = set()
    for depth, title, page_index, y in outline:
        target = normalize_for_match(title)
        # (a bookmark shortened with an ellipsis, "Theorem and ...", names its heading's first words)
        cut = cut_short(title)
        offset: int | None = None
        exact = " ".join(title.casefold().split())
        matches = [
            c
            for c in by_page.get(page_index, [])
            if id(c) not in used
            and titles_match(target, normalize_for_match(c.title), cut)
            and _same_numbering(title, c.title)
        ]
        if matches:
            # the same words twice on a page ("6.1.1 Version Information", "6.2.1 Version Information"):
            # prefer the numbering that matches too, then the heading nearest the bookmark's position
            best = min(
                matches,
                key=lambda c: (
                    " ".join(c.title.casefold().split()) != exact,
                    abs(c.lines[0].top - y) if y is not None else 0.0,
                ),
            )
            offset = line_offsets[id(best.lines[0])]
            used.add(id(best))
        if offset is None:
            if page_index not in page_lines:
                page_lines[page_index] = [
                    (ln, normalize_for_match(ln.text)) for ln in pages[page_index] if id(ln) in line_offsets
                ]
            lines = [ln for ln, _ in page_lines[page_index]]
            found = [
                ln
                for ln, norm in page_lines[page_index]
                if titles_match(target, norm, cut) and _same_numbering(title, ln.text)
            ]
            if found:
                best_line = min(found, key=lambda ln: abs(ln.top - y) if y is not None else 0.0)
                offset = line_offsets[id(best_line)]
            if offset is None and y is not None and lines:
                below = [ln for ln in lines if ln.bottom >= y - 2]
                if below:
                    offset = line_offsets[id(min(below, key=lambda ln: ln.top))]
            if offset is None:
                offset = page_spans[page_index].start
        out.append(Heading(offset, depth, title))
    out.sort(key=lambda h: h.start)
    return out


def _same_numbering(a: str, b: str) -> bool:
    """Tell whether two titles agree in numbering (``6.1.1`` vs ``6.2.1`` do not; unnumbered agree)."""
    sa, sb = classify(a), classify(b)
    if sa is None or sb is None or sa.kind == "caps" or sb.kind == "caps" or not sa.label or not sb.label:
        return True
    return sa.label.rstrip(".").lower() == sb.label.rstrip(".").lower()


def cut_short(title: str) -> bool:
    """Tell a bookmark shortened with an ellipsis (``Theorem and ...``)."""
    return title.rstrip().endswith(("...", "\u2026"))


def titles_match(a: str, b: str, cut: bool = False) -> bool:
    """Tell whether a normalised bookmark title ``a`` names the normalised heading ``b``.

    The same words, or the one the start of the other and most of its length;
    a bookmark ``cut`` short with an ellipsis only its first words (four
    letters at least).
    """
    if not a or not b:
        return False
    if a == b or (cut and len(a) >= 4 and b.startswith(a + " ")):
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 8 and long_.startswith(short) and len(short) >= 0.6 * len(long_)
