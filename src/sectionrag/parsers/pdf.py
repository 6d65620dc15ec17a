"""PDF parser: reading-order text with page spans, and sections with real depth.

Text comes from pypdfium2 (fast, permissively licensed), page by page. On
each page, lines are put in reading order (two-column pages column by
column), running headers, footers and page numbers that repeat across pages
are dropped, hyphenated line breaks are rejoined, and table rows are written
as cells separated by ``" | "``.

Sections come from the PDF outline (bookmarks) when the file has one and
``use_outline`` is true; otherwise, and to place outline entries in the text,
headings are detected from the page itself: font size relative to the body
text, weight, numbering (``1.2.3``, ``Item 1A.``, ``PART II``, ``Chapter 3``,
``Appendix A``, roman numerals) and spacing. Levels come from ranking the
heading styles and from the depth of the numbering.
"""

from __future__ import annotations

import bisect
import itertools
import logging
import os
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sectionrag.errors import MissingDependencyError, ParseError
from sectionrag.parsers._pdfium import PdfLine, extract_page_lines
from sectionrag.parsers._plumber_tables import add_ruled_tables
from sectionrag.parsers._sections import Heading, build_sections, normalize_title
from sectionrag.parsers.headings import (
    HeadingStyle,
    classify,
    is_all_caps,
    is_toc_line,
    looks_like_sentence,
    normalize_for_match,
)
from sectionrag.types import Document, PageSpan

__all__ = ["PdfParser"]

logger = logging.getLogger(__name__)

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_SPACES = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\t\f\v]")
_DROP = re.compile(r"[\u0000-\u0008\u000b\u000e-\u001f\u00ad\u200b-\u200d\u2060\ufeff\ufffe\uffff]")
_MULTISPACE = re.compile(r" {2,}")
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013\u2014(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014)\]]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_HYPHEN_END = re.compile(r"[A-Za-z\u00c0-\u024f][-\u2010\u00ad\x02]$")


def _clean(text: str) -> str:
    """Normalise ligatures, odd spaces and control characters in one line."""
    if any(ch in text for ch in _LIGATURES):
        text = "".join(_LIGATURES.get(ch, ch) for ch in text)
    text = _SPACES.sub(" ", text)
    text = _DROP.sub("", text.replace("\x02", "-").replace("\ufffe", "-"))
    return _MULTISPACE.sub(" ", text).strip()


@dataclass(slots=True)
class _Candidate:
    """A heading found on a page, before levels are assigned."""

    lines: list[PdfLine]
    title: str
    size: float
    bold: bool
    order: int  # numbering precedence (smaller is higher)
    numbered: bool
    page: int
    index: int  # position of its first line in the page's ordered lines
    italic: bool = False


class PdfParser:
    """Parse PDFs into a :class:`~sectionrag.types.Document` with pages and sections.

    Args:
        use_outline: Take sections from the PDF's bookmarks when it has them
            (headings found on the pages still place them in the text).
        remove_headers: Drop running headers, footers and page numbers.
        password: Password for an encrypted PDF.
        tables: Also read ruled tables with pdfplumber, one ``cell | cell`` line per
            row (slower; see :mod:`sectionrag.parsers._plumber_tables`).
    """

    def __init__(
        self,
        *,
        use_outline: bool = True,
        remove_headers: bool = True,
        password: str | None = None,
        tables: bool = False,
    ):
        self.use_outline = use_outline
        self.remove_headers = remove_headers
        self.password = password
        self.tables = tables

    def parse(self, source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Document:
        """Parse a PDF path or its bytes.

        Raises:
            ParseError: the file is missing, not a PDF, corrupt, encrypted,
                has no pages, or has no text layer (a scan: run OCR first).
            MissingDependencyError: pypdfium2 is not installed.
        """
        try:
            import pypdfium2 as pdfium
        except ImportError as e:  # pragma: no cover - pypdfium2 comes with pdfplumber
            raise MissingDependencyError(
                "PDF parsing needs pypdfium2 (installed with pdfplumber): pip install pdfplumber"
            ) from e
        label, opened = self._open(pdfium, source, name)
        pdf = opened
        try:
            page_count = len(pdf)
            if page_count == 0:
                raise ParseError(f"{label}: the PDF has no pages", source=label)
            pages_lines: list[list[PdfLine]] = []
            failed: list[int] = []
            for index in range(page_count):
                try:
                    page = pdf[index]
                except Exception as e:  # pdfium raises its own error type for broken pages
                    logger.warning("%s: page %d cannot be read (%s)", label, index + 1, e)
                    failed.append(index + 1)
                    pages_lines.append([])
                    continue
                try:
                    pages_lines.append(extract_page_lines(page, index))
                finally:
                    page.close()
            outline = self._read_outline(pdf) if self.use_outline else []
            metadata = self._metadata(pdf)
        finally:
            pdf.close()
        if len(failed) == page_count:
            raise ParseError(f"{label}: no page of the PDF can be read (corrupt file?)", source=label)
        if not any(pages_lines):
            raise ParseError(
                f"{label}: the PDF has no text layer ({page_count} page(s), probably scanned images); "
                "run OCR first (for example `ocrmypdf in.pdf out.pdf`) and parse the result",
                source=label,
            )
        if failed:
            metadata["unreadable_pages"] = failed
        if self.tables:
            add_ruled_tables(source, pages_lines, password=self.password)
        return self._build(pages_lines, outline, label, metadata)

    # ----------------------------------------------------------------- opening

    def _open(self, pdfium: Any, source: str | os.PathLike[str] | bytes, name: str | None) -> tuple[str, Any]:
        if isinstance(source, (bytes, bytearray, memoryview)):
            data: Any = bytes(source)
            label = name or "<bytes>"
            head = data[:1024]
        elif isinstance(source, (str, os.PathLike)):
            path = Path(source)
            label = name or str(path)
            if not path.exists():
                raise ParseError(f"{label}: no such file", source=label)
            if path.is_dir():
                raise ParseError(f"{label}: is a directory, not a file", source=label)
            try:
                with path.open("rb") as fh:
                    head = fh.read(1024)
            except OSError as e:
                raise ParseError(f"{label}: cannot read file ({e.strerror or e})", source=label) from e
            data = str(path)
        else:
            raise TypeError(f"source must be a path or bytes, not {type(source).__name__}")
        if not head:
            raise ParseError(f"{label}: file is empty (0 bytes)", source=label)
        if b"%PDF-" not in head:
            raise ParseError(f"{label}: not a PDF (no %PDF- header); the file may be corrupt", source=label)
        try:
            pdf = pdfium.PdfDocument(data, password=self.password)
        except pdfium.PdfiumError as e:
            message = str(e)
            if "password" in message.lower():
                hint = "wrong password" if self.password else "pass password=... to parse it"
                raise ParseError(f"{label}: the PDF is encrypted ({hint})", source=label) from e
            if _has_no_pages(data):
                raise ParseError(f"{label}: the PDF has no pages", source=label) from e
            raise ParseError(f"{label}: corrupt or unreadable PDF ({message})", source=label) from e
        return label, pdf

    @staticmethod
    def _metadata(pdf: Any) -> dict[str, Any]:
        meta: dict[str, Any] = {"format": "pdf", "page_count": len(pdf)}
        try:
            info = pdf.get_metadata_dict(skip_empty=True)
        except Exception:  # pragma: no cover - metadata is optional
            info = {}
        for key in ("Title", "Author", "Subject", "Producer", "Creator"):
            value = info.get(key)
            if isinstance(value, str) and value.strip():
                meta[key.lower()] = value.strip()
        return meta

    @staticmethod
    def _read_outline(pdf: Any) -> list[tuple[int, str, int, float | None]]:
        """Return ``(depth, title, page_index, y_from_top)`` for each bookmark."""
        out: list[tuple[int, str, int, float | None]] = []
        try:
            for bookmark in pdf.get_toc(max_depth=12):
                title = normalize_title(_clean(bookmark.get_title() or ""))
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
                        y = float(pdf.get_page_size(index)[1]) - float(view[1])
                except Exception:  # pragma: no cover - a view is optional
                    y = None
                out.append((bookmark.level + 1, title, index, y))
        except Exception as e:  # pragma: no cover - a broken outline is ignored
            logger.warning("cannot read the PDF outline: %s", e)
        return out

    # ---------------------------------------------------------------- building

    def _build(
        self,
        pages_lines: list[list[PdfLine]],
        outline: list[tuple[int, str, int, float | None]],
        label: str,
        metadata: dict[str, Any],
    ) -> Document:
        for lines in pages_lines:
            for line in lines:
                line.text = _clean(line.text)
        for lines in pages_lines:
            _assign_rows(lines)
        if self.remove_headers:
            _mark_furniture(pages_lines)
        kept = [[ln for ln in lines if ln.role != "furniture" and ln.text] for lines in pages_lines]
        for lines in kept:
            _mark_tables(lines)
        ordered = [_reading_order(lines) for lines in kept]
        body = _body_style(ordered)
        candidates = _find_headings(ordered, body)
        title = _split_title(candidates, ordered, body)
        if title and "title" not in metadata:
            metadata["title"] = title
        text, pages, line_offsets = _assemble(ordered, candidates)
        if outline:
            headings = _outline_headings(outline, ordered, candidates, line_offsets, pages)
            metadata["sections_from"] = "outline"
        else:
            headings = _rank_headings(candidates, line_offsets)
            metadata["sections_from"] = "layout"
        sections = build_sections(headings, len(text), pages)
        return Document.create(text, source=label, sections=sections, pages=pages, metadata=metadata)


def _has_no_pages(data: str | bytes) -> bool:
    """Tell whether a PDF that pdfium refused declares an empty page tree."""
    try:
        raw = data if isinstance(data, bytes) else Path(data).read_bytes()
    except OSError:
        return False
    return bool(re.search(rb"/Count\s+0\b", raw)) and not re.search(rb"/Type\s*/Page\b", raw)


# --------------------------------------------------------------------- layout


def _mark_furniture(pages_lines: list[list[PdfLine]]) -> None:
    """Mark running headers, footers and page numbers (``role = "furniture"``).

    Only lines in the top or bottom band of a page are considered: a page
    number there, or a line whose text (digits ignored) recurs in the same
    band on at least three pages (a quarter of the pages for larger text).
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

    def signature(ln: PdfLine, top: bool) -> str:
        # heading-like text must repeat exactly; plain text may differ in its numbers
        plain = round(ln.size) <= body and not ln.bold
        text = _DIGITS.sub("#", ln.text) if plain else ln.text
        return f"{'t' if top else 'b'}|{round(ln.size)}|{' '.join(text.split())}"

    counts: Counter[str] = Counter()
    for cand in zone:
        for sig in {signature(ln, top) for ln, top in cand}:
            counts[sig] += 1
    n_pages = len(pages_lines)
    for cand in zone:
        numbered_rows = {ln.row for ln, _ in cand if _is_page_number(ln, body)}
        for ln, top in cand:
            if ln.row in numbered_rows or (n_pages >= 3 and counts[signature(ln, top)] >= 3):
                ln.role = "furniture"


def _is_page_number(ln: PdfLine, body: float) -> bool:
    """Tell a folio (``12``, ``iv``, ``Page 3 of 9``) from a roman-looking letter set as a heading.

    A bold or large ``D`` or ``C`` at the top of a page is an index letter or an
    appendix label, not page "500" or "100".
    """
    if not _PAGE_NUMBER.match(ln.text):
        return False
    roman_letters = ln.text.strip().isalpha()
    return not (roman_letters and (ln.bold or ln.size >= 1.2 * body))


def _reading_order(lines: list[PdfLine]) -> list[PdfLine]:
    """Order a page's lines for reading: column by column on multi-column pages.

    Table rows and lines that cross the gutter are read as full-width bands;
    between them, the left column is read before the right one.
    """
    if len(lines) < 8:
        return _rows_in_order(lines) if any(ln.role == "table" for ln in lines) else lines
    text_lines = [ln for ln in lines if ln.role != "table"]
    x_min = min(ln.x0 for ln in lines)
    x_max = max(ln.x1 for ln in lines)
    width = x_max - x_min
    best: float | None = None
    best_score = 0
    for frac in (0.5, 0.45, 0.55, 0.4, 0.6):
        gutter = x_min + frac * width
        left = sum(1 for ln in text_lines if ln.x1 <= gutter)
        right = sum(1 for ln in text_lines if ln.x0 >= gutter)
        if left >= 4 and right >= 4 and left + right >= 0.6 * len(text_lines):
            score = min(left, right)
            if score > best_score:
                best, best_score = gutter, score
    if best is None:
        return _rows_in_order(lines) if any(ln.role == "table" for ln in lines) else lines
    gutter = best
    # a "table row" of two cells, one in each column, is two column lines after all
    rows: dict[int, list[PdfLine]] = {}
    for ln in lines:
        if ln.role == "table":
            rows.setdefault(ln.row, []).append(ln)
    extent: dict[int, tuple[float, float]] = {}
    for row, cells in rows.items():
        if len(cells) == 2 and min(c.x1 for c in cells) <= gutter <= max(c.x0 for c in cells):
            for c in cells:
                c.role = "body"
        else:
            extent[row] = (min(c.x0 for c in cells), max(c.x1 for c in cells))
    out: list[PdfLine] = []
    band_left: list[PdfLine] = []
    band_right: list[PdfLine] = []
    for ln in sorted(lines, key=lambda ln: (ln.row, ln.x0)):
        x0, x1 = extent.get(ln.row, (ln.x0, ln.x1)) if ln.role == "table" else (ln.x0, ln.x1)
        if x1 <= gutter:
            band_left.append(ln)
        elif x0 >= gutter:
            band_right.append(ln)
        else:  # a table row or a line across both columns closes the band above it
            out += band_left + band_right
            band_left, band_right = [], []
            out.append(ln)
    out += band_left + band_right
    return out


def _rows_in_order(lines: list[PdfLine]) -> list[PdfLine]:
    """Keep pdfium's order but read each table row's cells together, left to right."""
    out: list[PdfLine] = []
    done: set[int] = set()
    for ln in lines:
        if ln.role != "table":
            out.append(ln)
        elif ln.row not in done:
            done.add(ln.row)
            out += sorted((c for c in lines if c.row == ln.row and c.role == "table"), key=lambda c: c.x0)
    return out


def _body_style(pages: list[list[PdfLine]]) -> float:
    """Return the body text's font size (the size most characters use)."""
    sizes: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
    if not sizes:
        return 10.0
    return sizes.most_common(1)[0][0]


def _assign_rows(lines: list[PdfLine]) -> None:
    """Give each line its visual row: pieces whose boxes share a baseline share a row."""
    row = -1
    last_bottom = -1e9
    last_top = -1e9
    for ln in sorted(lines, key=lambda ln: (ln.bottom, ln.x0)):
        tolerance = 0.4 * max(ln.height, 1.0)
        if abs(ln.bottom - last_bottom) > tolerance and abs(ln.top - last_top) > tolerance:
            row += 1
            last_bottom, last_top = ln.bottom, ln.top
        ln.row = row


def _mark_tables(lines: list[PdfLine]) -> None:
    """Mark rows of two or more short cells, in runs of two or more rows, as table rows."""
    if not lines:
        return
    width = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
    by_row: dict[int, list[PdfLine]] = {}
    for ln in lines:
        by_row.setdefault(ln.row, []).append(ln)

    def is_cells(cells: list[PdfLine]) -> bool:
        if len(cells) >= 3:
            return True
        return len(cells) == 2 and all(c.x1 - c.x0 < 0.35 * width for c in cells)

    rows_sorted = sorted(by_row)
    multi = {row for row in rows_sorted if is_cells(by_row[row])}
    for i, row in enumerate(rows_sorted):
        if row not in multi:
            continue
        neighbours = {rows_sorted[j] for j in (i - 1, i + 1) if 0 <= j < len(rows_sorted)}
        if neighbours & multi:
            for ln in by_row[row]:
                ln.role = "table"


# ------------------------------------------------------------------- headings

_ORDER = {"part": 0, "chapter": 1, "appendix": 1, "article": 1, "item": 2, "section": 3, "roman": 4}


def _numbering_order(text: str) -> tuple[int, bool]:
    style = classify(text)
    if style is None or style.kind in ("caps", "alpha"):
        return 5, False
    if style.kind in ("num", "alnum"):
        return 4 + style.depth, True
    if style.kind == "roman-alpha":
        return 6, True
    return _ORDER.get(style.kind, 5), True


_NUMBER_WORD_LIST = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(_NUMBER_WORD_LIST.split())}


def _bare_number(text: str) -> str | None:
    """Return the number a lone chapter label stands for (``One``, ``12``, appendix ``E``), else ``None``."""
    word = text.strip().rstrip(".")
    if len(word) == 1 and "A" <= word <= "Z":
        return word
    word = word.lower()
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    if word.isdigit() and len(word) <= 3:
        return word
    return None


def _is_label_only(text: str) -> bool:
    style = classify(text)
    return style is not None and style.kind in ("part", "chapter", "appendix", "article") and not style.rest


def _find_headings(pages: list[list[PdfLine]], body: float) -> list[_Candidate]:
    """Find heading lines on every page (multi-line titles merged)."""
    gaps: list[float] = []
    for lines in pages:
        for a, b in itertools.pairwise(lines):
            if abs(a.size - body) < 0.6 and abs(b.size - body) < 0.6 and 0 < b.top - a.top < 3 * body:
                gaps.append(b.top - a.top)
    pitch = statistics.median(gaps) if gaps else body * 1.2
    out: list[_Candidate] = []
    for page_index, lines in enumerate(pages):
        text_width = max((ln.x1 for ln in lines), default=0.0) - min((ln.x0 for ln in lines), default=0.0)
        # the left edge of the text block: the leftmost start shared by three lines or more
        starts = Counter(round(ln.x0 / 2) for ln in lines)
        shared = [2.0 * k - 2.0 for k, n in starts.items() if n >= 3]
        text_left = min(shared) if shared else None
        toc_lines = sum(1 for ln in lines if is_toc_line(ln.text) or _ends_with_page_ref(ln.text))
        toc_page = toc_lines >= 5 and toc_lines >= 0.3 * len(lines)
        toc_size = max((ln.size for ln in lines if is_toc_line(ln.text)), default=0.0)
        # on a contents page, an entry whose page number is a separate piece of its row
        numbered_rows = {ln.row for ln in lines if _BARE_PAGE.match(ln.text)} if toc_page else set()
        i = 0
        while i < len(lines):
            ln = lines[i]
            prev = lines[i - 1] if i > 0 else None
            ok = _is_heading_line(ln, prev, lines[i + 1] if i + 1 < len(lines) else None, body, pitch)
            if ok and toc_page and (ln.size <= toc_size + 0.5 or _has_page_piece(ln, lines, numbered_rows)):
                ok = False
            if ok and text_left is not None and ln.x1 < text_left:
                ok = False  # a marginal label ("NOTE" beside a box), not a heading
            if not ok:
                i += 1
                continue
            group = [ln]
            j = i + 1
            while j < len(lines) and len(group) < 3:
                nxt = lines[j]
                same_style = abs(nxt.size - ln.size) < 0.6 and nxt.bold == ln.bold and nxt.italic == ln.italic
                label_first = len(group) == 1 and (
                    _is_label_only(group[0].text)
                    or (_bare_number(group[0].text) is not None and ln.size >= 1.4 * body)
                )
                reach = (4.0 if label_first else 1.2) * max(ln.size, body)
                close = 0 <= nxt.top - group[-1].bottom < reach
                if nxt.role == "table" or not close:
                    break
                nxt_style = classify(nxt.text)
                nxt_numbered = nxt_style is not None and nxt_style.kind not in ("caps", "alpha")
                if (
                    label_first
                    and not nxt_numbered
                    and (nxt.size >= min(ln.size - 0.6, 1.2 * body) or nxt.bold)
                ):
                    group.append(nxt)
                    j += 1
                    continue
                words = sum(len(g.text.split()) for g in group) + len(nxt.text.split())
                wrapped = group[-1].x1 - group[-1].x0 >= 0.35 * text_width or ln.size >= 1.3 * body
                case_change = is_all_caps(group[-1].text) != is_all_caps(nxt.text)  # a run-in caps head
                if (
                    same_style
                    and wrapped
                    and words <= 20
                    and not case_change
                    and not _CAPTION.match(nxt.text)
                    and not looks_like_sentence(group[-1].text, max_words=20)
                ):
                    if nxt_style is not None and nxt_style.kind != "caps":
                        break
                    group.append(nxt)
                    j += 1
                    continue
                break
            number = _bare_number(group[0].text) if len(group) > 1 else None
            if number is not None:  # "One" over "Starting off" -> "1 Starting off"
                title = normalize_title(" ".join([number, *(g.text for g in group[1:])]))
            else:
                title = normalize_title(" ".join(g.text for g in group))
            order, numbered = _numbering_order(title)
            labelled = len(group) > 1 and (number is not None or _is_label_only(group[0].text))
            size = group[-1].size if labelled else max(g.size for g in group)
            out.append(
                _Candidate(
                    group,
                    title,
                    size,
                    all(g.bold for g in group[-1:]),
                    order,
                    numbered,
                    page_index,
                    i,
                    group[-1].italic,
                )
            )
            for g in group:
                g.role = "heading"
            i = j
    return out


_CAPTION = re.compile(
    r"^(?:Table|Figure|Fig\.|Listing|Algorithm|Exhibit|Chart|Plate)\s+[\dA-Z][\d.\-]*[:.]?\s", re.I
)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_DATE = re.compile(
    rf"^(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\s+\d{{4}}|(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|(?:{_MONTHS})\s+\d{{4}}|\d{{4}}[-/]\d{{1,2}}[-/]\d{{1,2}}|\d{{1,2}}[-/.]\d{{1,2}}[-/.]\d{{2,4}})$",
    re.IGNORECASE,
)


def _is_mathy(text: str) -> bool:
    """Tell formula fragments: private-use glyphs, or few letters among symbols."""
    if any("\ue000" <= ch <= "\uf8ff" for ch in text):
        return True
    visible = [ch for ch in text if not ch.isspace()]
    letters = sum(1 for ch in visible if ch.isalpha())
    symbols = sum(1 for ch in visible if unicodedata.category(ch) == "Sm")
    return symbols >= 2 or letters < 0.5 * len(visible)


_BARE_PAGE = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$")


def _has_page_piece(ln: PdfLine, lines: list[PdfLine], numbered_rows: set[int]) -> bool:
    """Tell whether a bare page number stands to the right of ``ln`` in its row."""
    if ln.row not in numbered_rows:
        return False
    return any(o.row == ln.row and o.x0 > ln.x1 and _BARE_PAGE.match(o.text) for o in lines)


def _ends_with_page_ref(text: str) -> bool:
    return bool(re.search(r"\S\s+\d{1,4}$", text)) and classify(text) is not None


_STRONG_PREFIXES = (
    "PART", "Part", "ITEM", "Item", "CHAPTER", "Chapter",
    "APPENDIX", "Appendix", "ARTICLE", "Article", "ANNEX", "Annex",
)  # fmt: skip


def _is_heading_line(
    ln: PdfLine, prev: PdfLine | None, nxt: PdfLine | None, body: float, pitch: float
) -> bool:
    text = ln.text
    if ln.role != "body" or len(text) > 150:
        return False
    if (
        not ln.bold
        and not ln.italic
        and 0.92 * body <= ln.size < 1.12 * body
        and not text.startswith(_STRONG_PREFIXES)
        and any(c.islower() for c in text)
    ):
        return False  # plain body text: only all-caps, italic or labelled lines can be headings
    if is_toc_line(text):
        return False
    words = text.split()
    if len(words) > 18:
        return False
    style = classify(text)
    numbered = style is not None and style.kind not in ("caps", "alpha")
    letters = sum(1 for c in text if c.isalpha())
    index_letter = len(text) == 1 and "A" <= text <= "Z" and (ln.bold or ln.size >= 1.12 * body)
    if letters < 2 and not index_letter and not (numbered and style is not None and style.depth >= 2):
        return False
    rest = style.rest if numbered and style is not None else text
    if numbered and style is not None and rest and not any(ch.isalnum() for ch in rest):
        return False  # "Appendix*", "Chapter 3 -": a label with punctuation for a title
    if numbered and style is not None and style.kind in ("num", "alnum") and not rest:
        return False
    if _CAPTION.match(text) or _DATE.match(text) or (letters >= 2 and _is_mathy(text)):
        return False
    if numbered:
        check = rest.rstrip("?!:.")  # "1.1 Changelog:", "2.3 Is it a class?"
    elif rest[-1:] in ("?", "!") and len(words) <= 10:
        check = rest.rstrip("?!")
    else:
        check = rest
    if (
        check
        and looks_like_sentence(check, max_words=18, allow_lower=numbered)
        and not (check.endswith(".") and len(check.split()) <= 6)
    ):
        return False
    if check and check[-1] in ":," and ln.size < body * 1.3:
        return False
    ratio = ln.size / body if body else 1.0
    if ratio < 1.5 and text.lower().rstrip(":.") in _ADMONITIONS:
        return False  # a "Note" or "Warning" box title; a chapter-sized "Notes" stays a heading
    gap_above = ln.top - prev.bottom if prev is not None else pitch * 3
    gap_below = nxt.top - ln.bottom if nxt is not None else pitch * 3
    line_gap = max(pitch - ln.height, 0.5)
    spaced = gap_above > line_gap * 1.6 or prev is None or prev.row == ln.row
    if ratio >= 1.12:
        if ratio < 1.3 and not ln.bold and not numbered:
            return False
        # a larger line that continues into body text of the same size is not a heading
        return not (
            nxt is not None and abs(nxt.size - ln.size) < 0.3 and not nxt.bold and gap_below < line_gap
        )
    if ratio < 0.92 and not (
        ln.bold and ratio >= 0.8 and (numbered or (style is not None and style.kind == "caps"))
    ):
        return False
    if ln.bold:
        bold_paragraph = (
            nxt is not None and nxt.bold and abs(nxt.size - ln.size) < 0.3 and gap_below < line_gap * 1.6
        )
        if bold_paragraph and (not numbered or len(words) > 10):
            return False  # a bold paragraph, unless this line is numbered and short
        return spaced and (numbered or gap_below > line_gap * 1.3 or len(words) <= 8)
    if ln.italic and ratio >= 0.92 and not is_all_caps(text):
        # an italic run-in line at body size ("Cash Flows", "Note 2. Revenue Recognition"):
        # short, set apart above, and followed by upright text, not by more italics
        upright_next = nxt is not None and not nxt.italic and not nxt.bold and nxt.row != ln.row
        return spaced and upright_next and len(words) <= 10
    if style is not None and style.kind == "caps" and spaced and gap_below > line_gap * 1.3:
        # a capitals line at body size heads a paragraph; over a caption or more short lines it is
        # display type (a sample title page, the label inside a framed figure)
        leads_text = nxt is not None and len(nxt.text.split()) >= 8 and not _CAPTION.match(nxt.text)
        return len(words) <= 10 and leads_text
    if numbered and style is not None and style.kind in ("part", "item", "chapter", "appendix", "article"):
        titled = bool(style.rest) or (
            nxt is not None and (nxt.bold or nxt.size > ln.size + 0.5 or is_all_caps(nxt.text))
        )
        return spaced and len(words) <= 12 and titled  # a plain "Item 1" in a figure is a label
    # "1.1 STOCK PAPER SIZE OPTIONS" in small capitals
    return numbered and spaced and bool(rest) and is_all_caps(rest) and len(words) <= 12


_ADMONITIONS = frozenset(
    {
        "note",
        "notes",
        "tip",
        "tips",
        "warning",
        "caution",
        "important",
        "hint",
        "danger",
        "attention",
        "remark",
        "example",
        "examples",
    }
)
_FRONT_KEEP = frozenset(
    {
        "abstract",
        "contents",
        "table of contents",
        "introduction",
        "summary",
        "executive summary",
        "preface",
        "foreword",
        "overview",
    }
)


def _split_title(candidates: list[_Candidate], pages: list[list[PdfLine]], body: float) -> str | None:
    """Take the title block of page 1 (title, authors) out of the headings; return the title.

    The title block is the run of unnumbered page-1 headings before the first
    body paragraph, the first numbered heading, the first usual front heading
    (``Abstract``, ``Contents`` ...) and the first heading whose style recurs later.
    """
    first_index = next((i for i, lines in enumerate(pages) if lines), None)
    if first_index is None or not candidates:
        return None
    first_page = pages[first_index]
    first_body = next(
        (
            i
            for i, ln in enumerate(first_page)
            if ln.role == "body" and abs(ln.size - body) < 0.6 and len(ln.text.split()) >= 8
        ),
        len(first_page),
    )

    def style(c: _Candidate) -> tuple[float, bool]:
        return (round(c.size * 2) / 2, c.bold)

    front: list[_Candidate] = []
    for k, c in enumerate(candidates):
        if c.page != first_index or c.index >= first_body or c.numbered:
            break
        if normalize_for_match(c.title) in _FRONT_KEEP:
            break
        later = (o for o in candidates[k + 1 :] if o.page > first_index or o.index >= first_body)
        if any(style(o) == style(c) for o in later):
            break
        front.append(c)
    if not front:
        return None
    title = max(front, key=lambda c: c.size)
    for c in front:
        candidates.remove(c)
        for ln in c.lines:
            ln.role = "title"
    return title.title


def _top_number(style: HeadingStyle | None) -> int | None:
    """Return the chapter-level number of a heading's style (``Chapter 3`` and ``3.2.1`` give 3)."""
    if style is None:
        return None
    if style.kind == "chapter":
        number = style.label.split()[-1]
        return int(number) if number.isdigit() else None
    if style.kind == "num":
        return int(style.label.split(".")[0])
    return None


def _without_labels(candidates: list[_Candidate], *, repeats: int = 4) -> list[_Candidate]:
    """Drop unnumbered body-sized headings whose title recurs ``repeats`` times or more.

    ``Rationale``, ``Convention``, ``Meaning`` or ``Recommended alternative``
    set over one box after another are labels, not sections; a numbered
    heading or a large one (``Introduction`` of each paper in proceedings) stays.
    """
    counts = Counter(normalize_for_match(c.title) for c in candidates if not c.numbered)
    sizes = sorted(c.size for c in candidates)
    # the largest tenth of heading sizes, when headings come in more than one size
    large = sizes[int(0.9 * (len(sizes) - 1))] if sizes and sizes[0] != sizes[-1] else float("inf")
    return [
        c
        for c in candidates
        if c.numbered or counts[normalize_for_match(c.title)] < repeats or c.size >= large
    ]


def _letters_in_runs(candidates: list[_Candidate]) -> list[_Candidate]:
    """Keep one-letter headings (an index's ``A``, ``B`` ...) only in alphabetical runs of three or more."""
    letters = [i for i, c in enumerate(candidates) if len(c.title) == 1]
    keep: set[int] = set()
    run: list[int] = []
    for i in [*letters, None]:
        if i is not None and run and candidates[i].title > candidates[run[-1]].title:
            run.append(i)
            continue
        if len(run) >= 3:
            keep.update(run)
        run = [i] if i is not None else []
    return [c for i, c in enumerate(candidates) if len(c.title) != 1 or i in keep]


def _next_number(numbers: list[int | None], positions: list[int], i: int) -> int | None:
    """Return the chapter-level number of the first numbered heading after position ``i``."""
    k = bisect.bisect_right(positions, i)
    return numbers[positions[k]] if k < len(positions) else None


_TRAILING_NUMBER = re.compile(r"^(?P<title>\D.*?)\s+(?P<number>\d{1,3})$")


def _in_sequence(candidates: list[_Candidate]) -> list[_Candidate]:
    """Drop numbered headings that break the chapter sequence or repeat an earlier one.

    Inside chapter 2, ``2.12 Text object methods`` belongs; ``14.5 points: ...``
    (a font-size specimen) and a sample ``Chapter 9`` do not. A heading that
    jumps ahead is kept when the next numbered heading confirms it (``8`` then
    ``8.1`` after a missed chapter 7), and a sub-heading when a neighbouring
    sub-heading shares its first number (``7.1`` then ``7.2``). A numbered
    heading seen before, again at the top of a page (``5. ABSTRACTS`` as a
    running head), is dropped, and a chapter title set before its number
    (``Document divisions 6``) becomes ``6 Document divisions`` when ``6.1``
    follows.
    """
    styles = [classify(c.title) for c in candidates]
    numbers = [_top_number(style) for style in styles]
    deep = [style is not None and style.kind == "num" and style.depth >= 2 for style in styles]
    numbered_positions = [i for i, n in enumerate(numbers) if n is not None]
    around: dict[int, tuple[int | None, int | None]] = {}
    for k, i in enumerate(numbered_positions):
        before = numbers[numbered_positions[k - 1]] if k > 0 else None
        after = numbers[numbered_positions[k + 1]] if k + 1 < len(numbered_positions) else None
        around[i] = (before, after)
    out: list[_Candidate] = []
    seen: set[tuple[str, str]] = set()
    top: int | None = None
    for i, c in enumerate(candidates):
        number = numbers[i]
        if number is None and top is not None and not c.numbered:
            m = _TRAILING_NUMBER.match(c.title)
            if m and int(m.group("number")) == top + 1 == _next_number(numbers, numbered_positions, i):
                c.title = f"{m.group('number')} {m.group('title')}"
                c.order, c.numbered = _numbering_order(c.title)
                styles[i] = classify(c.title)
                number = top + 1
        elif number is not None and top is not None and number not in (top, top + 1):
            before, after = around[i]
            confirmed = after == number or (deep[i] and before == number)
            if not confirmed:
                continue
        style = styles[i]
        if style is not None and c.numbered and style.label:
            key = (style.label.rstrip(".").lower(), normalize_for_match(c.title))
            if key in seen and c.index == 0:
                continue
            seen.add(key)
        if number is not None:
            top = number
        out.append(c)
    return out


def _rank_headings(candidates: list[_Candidate], line_offsets: dict[int, int]) -> list[Heading]:
    """Rank heading styles (size, weight) and numbering depth into nesting ranks."""
    candidates = _in_sequence(_letters_in_runs(_without_labels(candidates)))
    if not candidates:
        return []

    def style_key(c: _Candidate) -> tuple[float, bool, bool]:
        return (round(c.size * 2) / 2, c.bold, c.italic)

    if len(candidates) >= 30:  # long documents: one-off styles (specimens, posters) are not levels
        counts = Counter(style_key(c) for c in candidates)
        rare = max(2, len(candidates) // 100)
        candidates = [c for c in candidates if c.numbered or counts[style_key(c)] > rare]
        if not candidates:
            return []
    styles = sorted({style_key(c) for c in candidates}, key=lambda s: (-s[0], not s[1], s[2]))
    style_rank = {s: i for i, s in enumerate(styles)}
    # unnumbered headings take the numbering order most common in their style
    common: dict[tuple[float, bool, bool], int] = {}
    for s in styles:
        orders = Counter(c.order for c in candidates if style_key(c) == s and c.numbered)
        if orders:
            common[s] = orders.most_common(1)[0][0]
    # Numbering decides the level of numbered headings ("1.2.1" is below "1.3" whatever its font);
    # an unnumbered style sits just below the nearest larger numbered style.
    numbered_styles = sorted(common, key=lambda s: style_rank[s])
    min_order = min(common.values(), default=5)

    def order_of(s: tuple[float, bool, bool]) -> float:
        if s in common:
            return common[s]
        above = [common[n] for n in numbered_styles if style_rank[n] < style_rank[s]]
        return max(above) + 0.5 if above else min_order - 0.5

    # numbered headings of one numbering order share a level whatever their look
    numbered_rank: dict[int, int] = {}
    for c in candidates:
        if c.numbered:
            rank = style_rank[style_key(c)]
            numbered_rank[c.order] = min(rank, numbered_rank.get(c.order, rank))
    keys: list[tuple[float, int]] = []
    for c in candidates:
        s = style_key(c)
        if c.numbered:
            keys.append((float(c.order), numbered_rank[c.order]))
        else:
            keys.append((order_of(s), style_rank[s]))
    # Between the first and the last top-level numbered heading, an unnumbered heading cannot
    # stand above them (a sample title page inside chapter 4 is not a parent of chapter 5),
    # unless the top numbering is itself a sub-level ("7.1" under an unnumbered "Integrals").
    if numbered_rank and min(numbered_rank) <= _ORDER["roman"] + 1:
        top_order = min(numbered_rank)
        tops = [i for i, c in enumerate(candidates) if c.numbered and c.order == top_order]
        for i in range(tops[0] + 1, tops[-1]):
            if not candidates[i].numbered and keys[i][0] < top_order:
                keys[i] = (top_order + 0.5, keys[i][1])
    # merge styles that numbering says are the same level (a numbered "2.1" in two sizes)
    ranked = sorted(set(keys))
    rank_of = {k: i + 1 for i, k in enumerate(ranked)}
    out = []
    for c, k in zip(candidates, keys, strict=True):
        out.append(Heading(line_offsets[id(c.lines[0])], rank_of[k], c.title))
    out.sort(key=lambda h: h.start)
    return out


def _outline_headings(
    outline: list[tuple[int, str, int, float | None]],
    pages: list[list[PdfLine]],
    candidates: list[_Candidate],
    line_offsets: dict[int, int],
    page_spans: Sequence[PageSpan],
) -> list[Heading]:
    """Place each bookmark at its heading line (or nearest line) on its page."""
    by_page: dict[int, list[_Candidate]] = {}
    for c in candidates:
        by_page.setdefault(c.page, []).append(c)
    page_lines: dict[int, list[tuple[PdfLine, str]]] = {}
    out: list[Heading] = []
    used: set[int] = set()
    for depth, title, page_index, y in outline:
        target = normalize_for_match(title)
        offset: int | None = None
        exact = " ".join(title.casefold().split())
        matches = [
            c
            for c in by_page.get(page_index, [])
            if id(c) not in used
            and _titles_match(target, normalize_for_match(c.title))
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
                if _titles_match(target, norm) and _same_numbering(title, ln.text)
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


def _titles_match(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 8 and long_.startswith(short) and len(short) >= 0.6 * len(long_)


# ------------------------------------------------------------------ assembly


def _is_heading_role(line: PdfLine) -> bool:
    return line.role in ("heading", "title")


def _joins_hyphenated(prev: PdfLine, ln: PdfLine) -> bool:
    """Tell whether ``prev`` ends in a hyphenated word that ``ln`` completes ("manage-" / "ment")."""
    return (
        prev.role == "body"
        and ln.role == "body"
        and bool(_HYPHEN_END.search(prev.text))
        and ln.text[:1].islower()
    )


def _assemble(
    pages: list[list[PdfLine]], candidates: list[_Candidate]
) -> tuple[str, list[PageSpan], dict[int, int]]:
    """Join the ordered lines into one text, recording page spans and line offsets."""
    parts: list[str] = []
    pos = 0
    spans: list[PageSpan] = []
    offsets: dict[int, int] = {}
    heading_first = {id(c.lines[0]) for c in candidates}
    starts: list[int] = []
    carry: PdfLine | None = None  # the last line of the previous page
    for page_index, lines in enumerate(pages):
        if page_index > 0:
            first = lines[0] if lines else None
            if carry is not None and first is not None and _joins_hyphenated(carry, first):
                parts[-1] = parts[-1][:-1]  # "manage-" | page break | "ment" -> "management"
                pos -= 1
            else:
                parts.append("\n\n")
                pos += 2
        page_start = pos
        starts.append(page_start)
        prev: PdfLine | None = None
        for ln in lines:
            if prev is not None:
                if prev.role == "table" and ln.role == "table" and prev.row == ln.row:
                    sep = " | "
                elif _joins_hyphenated(prev, ln):
                    parts[-1] = parts[-1][:-1]
                    pos -= 1
                    sep = ""
                elif prev.row == ln.row and ln.x0 >= prev.x1 - 1 and prev.role == ln.role != "heading":
                    sep = " "  # pieces of one row: a TOC entry and its page number
                elif id(ln) in heading_first or _is_heading_role(prev) != _is_heading_role(ln):
                    sep = "\n\n"
                elif prev.role == "table" and ln.role == "table":
                    sep = "\n"
                elif (
                    prev.role == "table"
                    or ln.role == "table"
                    or ln.bottom - prev.bottom > 1.65 * max(prev.size, ln.size, 1.0)
                    or ln.bottom < prev.top
                ):
                    sep = "\n\n"
                else:
                    sep = "\n"
                parts.append(sep)
                pos += len(sep)
            offsets[id(ln)] = pos
            parts.append(ln.text)
            pos += len(ln.text)
            prev = ln
        carry = prev
    # a page runs to where the next one starts (the blank line between them is its own)
    for page_index, page_start in enumerate(starts):
        end = starts[page_index + 1] if page_index + 1 < len(starts) else pos
        spans.append(PageSpan(page_index + 1, page_start, end))
    text = "".join(parts)
    return text, spans, offsets
