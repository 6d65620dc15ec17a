"""Printed tables of contents: find the contents pages, read their entries, find each entry's heading.

A contents page is a page where many rows end in a page reference (a page
number set apart at the right, after dotted leaders or a wide gap) and those
numbers mostly run upwards (an index's numbers do not). Each entry gets a
level from its numbering (``PART`` above ``Item``, ``1`` above ``1.2``) and,
for unnumbered entries, from its indentation. Printed page numbers are mapped
to PDF pages by the offset most entries agree on, and each entry is then
looked for on its page as a line (or two or three lines) whose text is the
entry's title.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from sectionrag.parsers._pdf_layout import in_other_column, lines_by_row, prose_columns
from sectionrag.parsers._pdf_toc_levels import set_levels
from sectionrag.parsers._pdfium import PdfLine
from sectionrag.parsers._sections import join_title_lines, normalize_title
from sectionrag.parsers.headings import (
    classify,
    is_all_caps,
    looks_like_sentence,
    normalize_for_match,
    split_gloss,
)

__all__ = ["CONTENTS_TITLES", "Contents", "TocEntry", "find_contents", "names_signature"]

CONTENTS_TITLES = frozenset(
    {"contents", "table of contents", "index", "contents at a glance", "brief contents", "toc"}
)
# a page number: "12", "xiv", "Pages 3 - 23", or numbered within its chapter ("3-8", "A-2")
_PAGE = r"(?:\d{1,3}[-\u2013]\d{1,4}|[A-Z][-\u2013]\d{1,4}|\d{1,4}|[ivxlc]{1,7})"
_PAGE_REF = re.compile(rf"^(?:pages?\s+)?(?P<page>{_PAGE})(?:\s*[-\u2013]\s*\d{{1,4}})?$", re.I)
# leaders: dots, ellipses, the middle dots CJK fonts set, underscores
_LEADERS = r"(?:(?:\.\s?){3,}|(?:[\u2026\u22ef]\s?)+|(?:[\u00b7\ua78f\u30fb\u2219]\s?){3,}|(?:_\s?){3,})"
_LEADERED = re.compile(rf"^(?P<title>.*?\S)\s*{_LEADERS}\s*(?P<page>{_PAGE})$", re.I)
# a row that ends in leaders has lost its page number (set apart as the page's running number)
_ENDS_IN_LEADERS = re.compile(rf"{_LEADERS}$")
_TRAILING_PAGE = re.compile(rf"^(?P<title>.*?\S)\s+(?P<page>{_PAGE})$", re.I)
_ENDS_IN_PAGE = re.compile(r"(?:^|[^0-9A-Za-z])(?:\d{1,4}|[ivxlc]{1,7})$", re.I)
_BULLETS = "\u2022\u25e6\u25aa\u25a0\u25cf\u2666\u2013\u2014*>\uf0b7\uf0a7"
_DIGIT_RUN = re.compile(r"\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")
_MONTHS = frozenset(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))
# a name in asterisks ("*DEFAULT-DATABASE*"), not a line opening on a bullet
_STARRED_NAME = re.compile(r"\*[^\s*]+\*(?:\s|$)")
# a reference entry's signature: up to two words before it (a type, "class"), the name, maybe
# qualified ("fastcluster.single", "stats::hclust"), then its parameters ("hclust (d, method=...)")
_SIGNATURE_NAME = re.compile(r"^(?:[\w*&<>:]+\s+){0,2}?(?P<name>[A-Za-z_][\w.:]*?)\s*\(")
# how a contents entry may qualify a title that its page prints without it: the period a statement
# covers, with its year ("... of Income for the Three Months Ended June 30, 2023", "... as of June 30, 2023")
_PERIOD = re.compile(r"(?:for the|as of|as at|ended) .*\b(?:19|20)\d\d\b")
_CAPTION = re.compile(r"^(?:Table|Figure|Fig\.|Listing|Exhibit|Chart|Plate|Example)\s+[\dA-Z]", re.I)
_LISTS = frozenset(
    {
        "figures",
        "tables",
        "examples",
        "illustrations",
        "list of figures",
        "list of tables",
        "list of examples",
        "list of illustrations",
    }
)
_PAGE_HEADER = frozenset({"page", "pages", "page no", "page number"})
# a word of every contents title ("Table of Contents", "INDEX", "TOC"): looked for before normalising
_CONTENTS_WORD = re.compile(r"content|index|toc", re.IGNORECASE)


@dataclass(slots=True)
class TocEntry:
    """One entry of a printed table of contents.

    Attributes:
        title: The entry's title as printed in the contents.
        page: The printed page number; ``None`` for a group entry without one
            and for a page numbered in roman or within its chapter (such
            entries are looked for between their neighbours).
        x0: Left edge of the entry's title (measured from the first column's
            edge in a contents set in two columns).
        level: Depth in the contents (1 = top).
        heading: The lines of the entry's heading in the body, once found.
        page_index: 0-based PDF page of that heading.
        face: Size (rounded) and weight of the entry's first piece in the contents.
    """

    title: str
    page: int | None
    x0: float
    level: int = 1
    heading: list[PdfLine] = field(default_factory=list)
    page_index: int | None = None
    face: tuple[float, bool] = (0.0, False)


@dataclass(slots=True)
class Contents:
    """The contents pages of a document and their entries."""

    pages: list[int]
    entries: list[TocEntry]
    title_lines: list[PdfLine]

    @property
    def located(self) -> list[TocEntry]:
        """Entries whose heading was found in the body."""
        return [e for e in self.entries if e.heading]


def _rows(lines: list[PdfLine], split: float | None = None) -> tuple[list[list[PdfLine]], dict[int, float]]:
    """Group a page's pieces into rows, top to bottom.

    A contents set in two columns has two entries in a row (``Title 5`` …
    ``Title 120``): such a row is cut after each page number, and the right
    column's entries are read after the left column's. Returns the rows and,
    by the id of each row's first piece, how far right of the first column its column stands (indents
    are measured as if it stood where the first column does). With ``split``
    (the right edge of the first column's page numbers), a piece starting right
    of it belongs to the second column even where the columns' rows do not line up.
    """
    by_row: dict[tuple[int, bool], list[PdfLine]] = {}
    for ln in lines:
        by_row.setdefault((ln.row, split is not None and ln.x0 > split), []).append(ln)
    segments: list[tuple[int, float, list[PdfLine]]] = []
    for pieces in by_row.values():
        pieces.sort(key=lambda ln: ln.x0)
        column = 1 if split is not None and pieces[0].x0 > split else 0
        current: list[PdfLine] = []
        for k, piece in enumerate(pieces):
            current.append(piece)
            rest = pieces[k + 1 :]
            if (
                _PAGE_REF.match(piece.text)
                and len(current) > 1
                and len(rest) >= 2
                and any(ch.isalpha() for p in rest for ch in p.text)
            ):
                segments.append((column, min(p.top for p in current), current))
                column += 1
                current = []
        if current:
            segments.append((column, min(p.top for p in current), current))
    segments.sort(key=lambda s: (s[0], s[1]))
    # a later column's indents are measured as if it stood where the first one does
    edges = {
        column: min(p[0].x0 for c, _, p in segments if c == column) for column in {c for c, _, _ in segments}
    }
    lefts = {id(p[0]): edges[c] - edges[0] for c, _, p in segments}
    return [pieces for _, _, pieces in segments], lefts


def _entry_of_row(pieces: list[PdfLine], right: float) -> tuple[str, str] | None:
    """Return ``(title, page label)`` when a row reads as a contents entry."""
    last = pieces[-1]
    if len(pieces) >= 2:
        m = _PAGE_REF.match(last.text)
        title = normalize_title(" ".join(p.text for p in pieces[:-1]))
        # a financial row has figures in several cells; a wrapped title's last line may be "31, 2021"
        numeric_cells = sum(1 for p in pieces[1:-1] if not any(ch.isalpha() for ch in p.text))
        set_apart = last.x0 > 0.55 * right or last.x0 - pieces[-2].x1 > 3 * max(last.size, 1.0)
        if m and numeric_cells == 0 and set_apart:
            return title, m.group("page")
    text = normalize_title(" ".join(p.text for p in pieces))
    m = _LEADERED.match(text)
    if m and any(ch.isalpha() for ch in m.group("title")):
        return m.group("title").strip(" ."), m.group("page")
    return None


def _page_number(label: str) -> int | None:
    if label.isdigit():
        return int(label)
    return None


Parsed = list[tuple[list[PdfLine], str, str | None]]


def _column_split(lines: list[PdfLine]) -> float | None:
    """Return the right edge of a first column of page numbers, when a contents has two columns.

    Page numbers standing alone are grouped by their right edge; two groups of
    three or more, with entry text starting right of the first group, make two
    columns whose rows need not line up.
    """
    edges = sorted(ln.x1 for ln in lines if _PAGE_REF.match(ln.text) and any(ch.isdigit() for ch in ln.text))
    groups: list[list[float]] = []
    for x in edges:
        if groups and x - groups[-1][-1] <= 6:
            groups[-1].append(x)
        else:
            groups.append([x])
    big = [g for g in groups if len(g) >= 3]
    if len(big) < 2:
        return None
    split = max(big[0]) + 1
    right_text = sum(1 for ln in lines if ln.x0 > split and any(ch.isalpha() for ch in ln.text))
    return split if right_text >= 3 else None


def _read_page(lines: list[PdfLine]) -> tuple[Parsed, dict[int, float], list[PdfLine]] | None:
    """Read one page as contents: rows ``(pieces, title, page label)``, column edges, lines outside.

    The lines outside are the text that precedes the contents' title or
    follows the contents on the same page.

    ``None`` if the page is not a contents page.
    """
    # every entry's row ends in a page label set off from what precedes it: fewer than four such
    # lines and the page cannot be a contents page (most pages end here, before rows are built)
    if sum(1 for ln in lines if _ENDS_IN_PAGE.search(ln.text[-16:])) < 4:
        return None
    page = _read_rows(lines, None)
    # a contents in two columns whose rows do not line up reads as numbers that go up and down
    # when read row by row: read it column by column when its numbers then rise more often
    split = _column_split(lines)
    by_column = _read_rows(lines, split) if split is not None else None
    if by_column is not None and (page is None or _rising(by_column[0]) > _rising(page[0])):
        page = by_column
    above: list[PdfLine] = []
    if page is None:
        # a contents that starts part-way down its page, under its title (a report's title, its
        # authors and abstract above it): read from the title down
        start = next((k for k, ln in enumerate(lines) if _is_contents_title(ln.text)), 0)
        page = _read_rows(lines[start:], None) if start > 0 else None
        if page is not None and not _set_apart(page[0]):
            page = None
        above = lines[:start]
    if page is None:
        return None
    parsed, lefts = page
    below = _below_entries(parsed)
    if below:
        kept = {id(ln) for ln in below}
        parsed = [row for row in parsed if id(row[0][0]) not in kept]
    return parsed, lefts, above + below


def _read_continuation(
    lines: list[PdfLine], last_page: int | None
) -> tuple[Parsed, dict[int, float], list[PdfLine]] | None:
    """Read the top of the page after a contents page, where the contents ends and the text begins.

    The leading lines up to the first line of prose (eight words or more that
    end in no page number) or the first line set larger than every line above
    it are read as contents rows; they are the contents' end when at least
    four of them are entries whose page numbers go on from ``last_page``.
    Returns the rows, the column edges and the page's other lines, or ``None``.
    """
    top: list[PdfLine] = []
    largest = 0.0  # the largest size among the lines taken so far
    for ln in lines:
        ends_in_page = _ENDS_IN_PAGE.search(ln.text[-16:]) is not None
        if (len(ln.text.split()) >= 8 and not ends_in_page) or (top and ln.size > 1.15 * largest):
            break
        top.append(ln)
        largest = max(largest, ln.size)
    while top and _ENDS_IN_PAGE.search(top[-1].text[-16:]) is None:
        top.pop()  # (a heading over the text, not a group title of the contents)
    if len(top) < 4 or len(top) == len(lines):
        return None
    page = _read_rows(top, None)
    if page is None:
        return None
    parsed, lefts = page
    numbers = [n for _, _, label in parsed if label is not None and (n := _page_number(label)) is not None]
    if not numbers or (last_page is not None and numbers[0] < last_page):
        return None
    kept = {id(ln) for ln in top}
    return parsed, lefts, [ln for ln in lines if id(ln) not in kept]


def _rising(parsed: Parsed) -> float:
    """Return the share of the entries' page numbers not lower than the one before."""
    numbers = [n for _, _, label in parsed if label is not None and (n := _page_number(label)) is not None]
    if len(numbers) < 2:
        return 0.0
    return sum(1 for a, b in itertools.pairwise(numbers) if b >= a) / (len(numbers) - 1)


def _below_entries(parsed: Parsed) -> list[PdfLine]:
    """Return the lines under a contents that ends part-way down its page, when text follows it.

    Rows lower than every entry are the page's text when there are three or
    more of them or one is a line of prose (eight words or more); a lone row
    without a page number (a group title at the foot of the page) stays.
    """
    entries = [pieces for pieces, _, label in parsed if label is not None]
    if not entries:
        return []
    bottom = max(p.bottom for pieces in entries for p in pieces)
    size = sorted(pieces[0].size for pieces in entries)[len(entries) // 2]
    rows = [pieces for pieces, _, _ in parsed if min(p.top for p in pieces) > bottom + 0.3 * size]
    prose = any(len(" ".join(p.text for p in pieces).split()) >= 8 for pieces in rows)
    if len(rows) < 3 and not prose:
        return []
    return [p for pieces in rows for p in pieces]


def _read_rows(lines: list[PdfLine], split: float | None) -> tuple[Parsed, dict[int, float]] | None:
    rows, lefts = _rows(lines, split)
    if not rows:
        return None
    right = max(ln.x1 for ln in lines)
    found = [_entry_of_row(pieces, right) for pieces in rows]
    # where each column's page numbers end (a contents in two columns has two such edges)
    ends: dict[float, list[float]] = {}
    for pieces, f in zip(rows, found, strict=True):
        if f is not None:
            ends.setdefault(lefts[id(pieces[0])], []).append(pieces[-1].x1)
    columns = {offset: sorted(e)[len(e) // 2] for offset, e in ends.items()}
    parsed: list[tuple[list[PdfLine], str, str | None]] = []
    entries = 0
    numbers: list[int] = []
    for pieces, entry in zip(rows, found, strict=True):
        text = normalize_title(" ".join(p.text for p in pieces))
        column = columns.get(lefts[id(pieces[0])])
        if entry is None and column is not None and abs(pieces[-1].x1 - column) < 4:
            # "1 Introduction 1": the page number right-aligned with the others in its column, no leaders
            # (a title page's date flush right above the contents, "Feb 27, 2023", is none)
            m = _TRAILING_PAGE.match(text)
            if m and not _is_date(m["title"], m["page"]):
                entry = (m.group("title"), m.group("page"))
        elif entry is None and not columns:
            # no leaders and no aligned numbers anywhere: "introduction 4", the number after the title
            m = _TRAILING_PAGE.match(text)
            if m and len(m["title"].split()) <= 8 and m["title"][-1] not in ".,;:" and len(m["page"]) < 4:
                entry = (m["title"], m["page"])  # (four digits are a year, not a page)
        if entry is not None:
            entries += 1
            number = _page_number(entry[1])
            if number is not None:
                numbers.append(number)
            parsed.append((pieces, entry[0], entry[1]))
        else:
            parsed.append((pieces, text, None))
    if entries < 4 or entries < (0.3 if columns else 0.5) * len(rows):
        return None
    if len(numbers) >= 3:
        rising = sum(1 for a, b in itertools.pairwise(numbers) if b >= a)
        if rising < 0.75 * (len(numbers) - 1) or len(set(numbers)) < 2:
            return None  # an index or a table of figures by number, not a contents page
    return parsed, lefts


def _is_date(title: str, page: str) -> bool:
    """Tell a date (``Feb 27, 2023``, ``27 February 2023``) from a title and its page number."""
    if _YEAR.fullmatch(page) is None:
        return False
    words = title.rstrip(".").split()
    return title.endswith(",") or (bool(words) and words[-1].lower()[:3] in _MONTHS)


def _entries_of(
    parsed: list[tuple[list[PdfLine], str, str | None]], lefts: dict[int, float]
) -> tuple[list[TocEntry], list[PdfLine]]:
    """Turn a contents page's rows into entries: wrapped titles joined, group entries kept."""
    out: list[TocEntry] = []
    title_lines: list[PdfLine] = []
    first = next((i for i, (_, _, page) in enumerate(parsed) if page is not None), None)
    last = max((i for i, (_, _, page) in enumerate(parsed) if page is not None), default=-1)
    if first is None:
        return out, title_lines
    # group rows and the first line of a wrapped title, right above the first entry
    start = first
    entry_size = sorted(pieces[0].size for pieces, _, page in parsed if page is not None)
    typical = entry_size[len(entry_size) // 2]
    while start > 0 and first - start < 6:
        pieces, text, _ = parsed[start - 1]
        norm = normalize_for_match(text)
        if max(p.size for p in pieces) > 1.15 * typical:
            break  # the page's own title, set larger than its entries
        below = parsed[start][0]
        gap = min(p.top for p in below) - max(p.bottom for p in pieces)
        if norm in CONTENTS_TITLES or norm in _PAGE_HEADER or norm in _LISTS or not norm:
            break
        if gap > 3 * max(p.size for p in pieces):
            break
        start -= 1
    for pieces, _, _ in parsed[:start]:
        title_lines.extend(pieces)
    pending: list[tuple[list[PdfLine], str]] = []
    for i, (pieces, text, label) in enumerate(parsed):
        norm = normalize_for_match(text)
        if norm in CONTENTS_TITLES:
            if i >= start:
                title_lines.extend(pieces)
            continue
        if i < start:
            continue
        if i > last:
            break
        if label is None:
            if norm in _PAGE_HEADER or not norm:
                continue
            pending.append((pieces, text))
            continue
        x0 = pieces[0].x0
        title = text
        # a numberless row right above, as wide as the entries' text column, is this title's first line
        while pending:
            prev_pieces, prev_text = pending[-1]
            prev_x0 = prev_pieces[0].x0
            numbered_prev = classify(prev_text)
            label_only = numbered_prev is not None and numbered_prev.label and not numbered_prev.rest
            width = prev_pieces[-1].x1 - prev_x0
            column = (pieces[-1].x0 if len(pieces) > 1 else pieces[-1].x1) - prev_x0
            # (a row ending in leaders is an entry of its own whose page number was lost)
            leadered = _ENDS_IN_LEADERS.search(prev_text) is not None
            if not label_only and not leadered and width >= 0.7 * column and x0 >= prev_x0 - 2:
                title = normalize_title(f"{prev_text} {title}")
                x0 = prev_x0
                pending.pop()
                continue
            break
        for group_pieces, group_text in pending:
            # (an entry whose page number was lost keeps its title, without the leaders)
            if _ENDS_IN_LEADERS.search(group_text):
                group_text = _ENDS_IN_LEADERS.sub("", group_text).rstrip(" .") or group_text
            if not looks_like_sentence(group_text, max_words=16):
                first_piece = group_pieces[0]
                face = (round(first_piece.size, 1), first_piece.bold)
                out.append(
                    TocEntry(group_text, None, first_piece.x0 - lefts.get(id(first_piece), 0.0), face=face)
                )
        pending = []
        if _CAPTION.match(title) or not any(ch.isalpha() for ch in title):
            continue
        face = (round(pieces[0].size, 1), pieces[0].bold)
        out.append(TocEntry(title, _page_number(label), x0 - lefts.get(id(pieces[0]), 0.0), face=face))
    return out, title_lines


def _is_contents_title(text: str) -> bool:
    """Tell a contents page's title (``Contents``, ``Table of Contents``) from a line of the page."""
    # (a title in full-width letters reads as one once normalised)
    plain = _CONTENTS_WORD.search(text) is not None or not text.isascii()
    return len(text) < 40 and plain and normalize_for_match(text) in CONTENTS_TITLES


def _set_apart(parsed: Parsed) -> bool:
    """Tell whether four in five entries set their page number apart: after leaders, or a gap away."""
    entries = [pieces for pieces, _, label in parsed if label is not None]
    apart = sum(
        1 for pieces in entries if len(pieces) > 1 or _LEADERED.match(" ".join(p.text for p in pieces))
    )
    return apart >= 0.8 * len(entries)


def _label(text: str) -> tuple[str, str] | None:
    """Return a title's numbering as ``(kind word, number)``: ``Chapter 2.`` gives ``("chapter", "2")``."""
    style = classify(text)
    if style is None or style.kind in ("caps", "alpha") or not style.label:
        return None
    words = style.label.rstrip(".").lower().split()
    return (words[0] if len(words) > 1 else "", words[-1])


def _same_label(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """``2`` agrees with ``Chapter 2``; ``Item 1`` does not agree with ``Part 1``."""
    return a[1] == b[1] and (a[0] == b[0] or not a[0] or not b[0])


def _capitals(text: str) -> bool:
    """Tell a line in capitals (string methods only: this runs on every line of the pages searched)."""
    return text == text.upper() and text != text.lower() and is_all_caps(text)


def _matches(target: str, text: str) -> bool:
    if not target or not text:
        return False
    if target == text:
        return True
    if len(text) >= 8 and target.startswith(text + " ") and _PERIOD.match(target[len(text) + 1 :]):
        return True  # the contents adds the period its page prints apart ("... of Income for the Three ...")
    if _DIGIT_RUN.findall(target) != _DIGIT_RUN.findall(text):
        return False  # "October 31, 2022" is not "October 31, 2021"
    short, long_ = (target, text) if len(target) <= len(text) else (text, target)
    if len(short) >= 12 and long_.startswith(short) and len(short) >= 0.6 * len(long_):
        return True
    return len(short) >= 12 and SequenceMatcher(None, target, text).ratio() >= 0.92


@dataclass(frozen=True, slots=True)
class _Target:
    """What an entry's heading must print, worked out once per entry."""

    norm: str
    label: tuple[str, str] | None
    label_only: bool
    word: str

    @classmethod
    def of(cls, title: str) -> _Target:
        style = classify(title)
        label_only = style is not None and bool(style.label) and not style.rest
        word = title.split()[0].lower() if label_only else ""
        return cls(normalize_for_match(title), _label(title), label_only, word)


def _find_on_page(
    entry: TocEntry,
    lines: list[PdfLine],
    norms: dict[int, tuple[str, int]],
    start: int = 0,
    key: _Target | None = None,
) -> tuple[int, int] | None:
    """Return ``(index, count)`` of the lines on a page that print the entry's title.

    ``norms`` maps the index of each line that can open a heading to the
    normalised text of its row and the number of pieces after it on that row
    (a line's last words set in a smaller face: ``fread()`` ``[1/3]``), in the
    page's order (a table cell, a piece of a row with others apart from it are
    not there); ``key`` is the entry's :class:`_Target` when the caller has it.
    """
    if key is None:
        key = _Target.of(entry.title)
    target, label, label_only, word = key.norm, key.label, key.label_only, key.word
    head = target[:6]
    for i, (first_norm, rest) in norms.items():
        if i < start:
            continue
        first = lines[i]
        bullet = first.text[:1] in _BULLETS and not _STARRED_NAME.match(first.text)
        if first.role in ("furniture", "toc") or bullet:
            continue  # not a heading: a table cell, a list item (a contents list set as bullets)
        if label_only:  # "Part I" in the contents: the heading is "PART I — FINANCIAL INFORMATION"
            if first.text[: len(word)].lower() == word:
                line_label = _label(first.text)
                if line_label is not None and label is not None and _same_label(label, line_label):
                    return i, 1
            continue
        if "(" in first.text and _signature_of(target, lines, i):
            return i, 1  # a reference entry's signature: "fastcluster.single (X)" for "single"
        if not (first_norm.startswith(head) or target.startswith(first_norm[:6])):
            continue
        glossed = split_gloss(first.text)
        if glossed is not None and normalize_for_match(glossed[0]) == target:
            return i, 1  # a reference page's name line: "DATABASE \u2014 The super-type of ..."
        line_label = _label(first.text)
        if label is not None and line_label is not None and not _same_label(label, line_label):
            continue
        text = " ".join(ln.text for ln in lines[i : i + rest + 1])
        last = i + rest  # the row's last piece: the title's next line follows it
        best = None
        for count in range(1, 4):
            if count > 1:
                nxt = lines[last + count - 1] if last + count - 1 < len(lines) else None
                prev = lines[last + count - 2]
                if nxt is None or not 0 <= nxt.top - prev.bottom < _join_gap(prev, nxt):
                    break
                text = join_title_lines([text, nxt.text])
            norm = normalize_for_match(text)
            if _matches(target, norm):
                best = count
                if norm == target or not target.startswith(norm):
                    break
                continue  # the title's first lines: its last line may follow ("... AND ISSUER" / "PURCHASES")
            if best is not None or len(norm) > len(target) + 5:
                break
        if best is not None:
            return i, best + rest
    return None


def names_signature(target: str, text: str) -> bool:
    """Tell whether ``text`` opens with the signature of the function ``target`` (normalised) names.

    ``hclust (d, method=...)`` and ``fastcluster.hclust(d)`` both name ``hclust``.
    """
    m = _SIGNATURE_NAME.match(text)
    if m is None:
        return False
    name = m.group("name")
    return target in (normalize_for_match(name), normalize_for_match(re.split(r"\.|::", name)[-1]))


def _signature_of(target: str, lines: list[PdfLine], i: int) -> bool:
    """Tell a reference entry's signature line, hanging over its description, for the name ``target``.

    A reference manual's contents lists a function by its name (``hclust``,
    ``single``) and its page prints the signature (``hclust (d, method=...)``,
    ``fastcluster.single (X)``) with the description indented under it. A
    call in an example (``fastcluster::hclust(...)``) is set in line with the
    text around it, not hanging over it.
    """
    if not names_signature(target, lines[i].text):
        return False
    line = lines[i]
    after = next((ln for ln in lines[i + 1 :] if ln.row != line.row), None)
    return after is not None and after.x0 - line.x0 >= line.size and after.top - line.bottom < 2 * line.size


def _row_rest(lines: list[PdfLine], i: int, row: list[PdfLine]) -> int | None:
    """Return how many pieces after ``lines[i]`` continue it on its row (``row``, in page order).

    ``None`` when ``lines[i]`` does not open its row or a piece stands apart
    (a table's cells, a dotted leader's page number): each piece must follow
    the one before it in the page's order and start within a word space or
    two of its end.
    """
    if row[0] is not lines[i]:
        return None
    for k, piece in enumerate(row[1:], start=1):
        prev = row[k - 1]
        if i + k >= len(lines) or lines[i + k] is not piece or not 0 <= piece.x0 - prev.x1 <= 0.8 * prev.size:
            return None
    return len(row) - 1


def _join_gap(prev: PdfLine, nxt: PdfLine) -> float:
    """Return the widest gap over which ``nxt`` can continue the title ``prev`` begins.

    A wrapped title's lines are a line apart; a label and its title set in one
    face on an opening page ("Part B" over "Background") stand up to two and a
    half lines apart. The contents entry they must spell together vouches for
    the join.
    """
    one_face = abs(prev.size - nxt.size) < 0.3 and prev.bold == nxt.bold and prev.italic == nxt.italic
    return (2.5 if one_face else 1.5) * max(prev.size, 1.0)


def _locate(entries: list[TocEntry], pages: list[list[PdfLine]], body: float) -> None:
    """Find each entry's heading: printed page numbers mapped by the offset most entries share.

    A line set off by its style (bold, larger than the body text, capitals) is
    preferred: the same words in a list or a sentence come second.
    """
    n = len(pages)
    cache: dict[tuple[int, bool], dict[int, tuple[str, int]]] = {}

    def norms(p: int, strict: bool) -> dict[int, tuple[str, int]]:
        if (p, strict) not in cache:
            lines = pages[p]
            by_row = lines_by_row(lines)
            columns = prose_columns(lines)
            # alone in its row, or beside pieces of the page's other column only, or followed on it
            # by the pieces that continue it
            rows = [[o for o in by_row[ln.row] if not in_other_column(ln, o, columns)] for ln in lines]
            rests = {i: rest for i in range(len(lines)) if (rest := _row_rest(lines, i, rows[i])) is not None}
            cache[p, strict] = {
                i: (norm, rest)
                for i, rest in rests.items()
                if (ln := lines[i]).role != "table"
                and (not strict or ln.bold or ln.size >= 1.08 * body or _capitals(ln.text))
                and (norm := normalize_for_match(" ".join(o.text for o in lines[i : i + rest + 1])))
            }
        return cache[p, strict]

    keys = {id(e): _Target.of(e.title) for e in entries}
    offsets: Counter[int] = Counter()
    for e in entries:
        if e.page is None:
            continue
        for delta in range(-2, 40):
            p = e.page - 1 + delta
            if 0 <= p < n and _find_on_page(e, pages[p], norms(p, True), key=keys[id(e)]) is not None:
                offsets[delta] += 1
                break
    order = [d for d, _ in offsets.most_common()] or [0]
    last_page, last_index = -1, -1
    for k, e in enumerate(entries):
        tries: list[int] = []
        if e.page is not None:
            for d in order[:3]:
                for extra in (0, -1, 1):
                    tries.append(e.page - 1 + d + extra)
        else:  # a group entry: between the last placed entry and the next entry's page
            nxt = next((o.page for o in entries[k + 1 :] if o.page is not None), None)
            end = nxt - 1 + order[0] if nxt is not None else n - 1
            tries = list(range(max(last_page, 0), min(end, n - 1) + 1))
        for strict in (True, False):
            found = None
            for p in dict.fromkeys(tries):
                if not 0 <= p < n or p < last_page:
                    continue
                start = last_index + 1 if p == last_page else 0
                found = _find_on_page(e, pages[p], norms(p, strict), start, keys[id(e)])
                if found is not None:
                    i, count = found
                    e.heading = pages[p][i : i + count]
                    e.page_index = p
                    last_page, last_index = p, i + count - 1
                    break
            if found is not None:
                break


def _mark_contents_lists(pages: list[list[PdfLine]], entries: list[TocEntry], skip: set[int]) -> None:
    """Mark as contents a page that is mostly a list of the entries' titles, without page numbers.

    A document converted from HTML may print the contents twice: with page
    numbers, and as the web page's own list of links. The list's lines are the
    entries' titles, not their headings.
    """
    titles = {normalize_for_match(e.title) for e in entries}
    longest = max((len(e.title) for e in entries), default=0) + 8
    for index, lines in enumerate(pages):
        if index in skip or len(lines) < 8:
            continue
        listed = 0
        allowed_misses = len(lines) - max(8, 0.6 * len(lines))
        misses = 0
        for ln in lines:
            # a line much longer than every title cannot be one (most body lines: no normalising)
            if len(ln.text) <= longest and normalize_for_match(ln.text.lstrip(_BULLETS + " ")) in titles:
                listed += 1
            else:
                misses += 1
                if misses > allowed_misses:
                    break
        if listed >= 8 and listed >= 0.6 * len(lines):
            for ln in lines:
                if ln.role != "furniture" and normalize_for_match(ln.text) not in CONTENTS_TITLES:
                    ln.role = "toc"


def _restarts(block: list[TocEntry], page_entries: list[TocEntry]) -> bool:
    """Tell a contents page that starts another contents: its numbers start again from the front.

    A short contents followed by the full one on the next page: the page's
    first page number lies below half the last one of the pages before.
    """
    last = next((e.page for e in reversed(block) if e.page is not None), None)
    first = next((e.page for e in page_entries if e.page is not None), None)
    return last is not None and first is not None and last >= 20 and first < 0.5 * last


def _full_contents(first: list[TocEntry], blocks: list[list[TocEntry]]) -> list[TocEntry]:
    """Return the full contents when the first one is a short contents listing only its chapters.

    A book may print a short contents (the chapters) before the full one: a
    later block that lists at least twice the entries, among them four in five
    of the first block's titles, is the document's contents.
    """
    titles = {normalize_for_match(e.title) for e in first}
    for block in blocks:
        if len(block) < 2 * len(first):
            continue
        listed = {normalize_for_match(e.title) for e in block}
        if titles and len(titles & listed) >= 0.8 * len(titles):
            return block
    return first


def find_contents(pages: list[list[PdfLine]], body: float) -> Contents | None:
    """Find the printed table of contents, read its entries and locate their headings.

    The lines of contents pages get ``role = "toc"``. Returns ``None`` when the
    document has no contents page.
    """
    blocks: list[tuple[list[int], list[TocEntry]]] = []
    title_lines: list[PdfLine] = []
    after_contents: list[PdfLine] = []  # the text under a contents that ends part-way down a page
    in_list = False  # inside a list of figures or tables that follows the contents
    for index, lines in enumerate(pages):
        page = _read_page(lines)
        if page is None and blocks and blocks[-1][0][-1] == index - 1 and not in_list:
            last_page = next((e.page for e in reversed(blocks[-1][1]) if e.page is not None), None)
            page = _read_continuation(lines, last_page)
        if page is None:
            continue
        parsed, lefts, below = page
        after_contents.extend(below)
        page_entries, titles = _entries_of(parsed, lefts)
        title_lines.extend(titles)
        continued = bool(blocks) and blocks[-1][0][-1] == index - 1
        in_list = (in_list and continued) or any(normalize_for_match(ln.text) in _LISTS for ln in titles)
        if in_list:
            page_entries = []
        if continued and not _restarts(blocks[-1][1], page_entries):
            blocks[-1][0].append(index)
            blocks[-1][1].extend(page_entries)
        else:
            blocks.append(([index], page_entries))
    if not blocks:
        return None
    found = [index for indexes, _ in blocks for index in indexes]
    outside = {id(ln) for ln in after_contents}
    for index in found:
        for ln in pages[index]:
            if ln.role != "furniture" and id(ln) not in outside:
                ln.role = "toc"
    for ln in title_lines:
        ln.role = "body"
    # the document's contents is its first one; later ones (a cross-reference index, a list of
    # tables) are only kept out of the headings
    entries = next((block for _, block in blocks if len(block) >= 4), [])
    entries = _full_contents(entries, [block for _, block in blocks])
    # a group title repeated at the top of the next contents page ("Chapter 3" continued)
    seen: set[str] = set()
    unique: list[TocEntry] = []
    for e in entries:
        norm = normalize_for_match(e.title)
        if e.page is None and norm in seen:
            continue
        seen.add(norm)
        unique.append(e)
    entries = unique
    if entries:
        _mark_contents_lists(pages, entries, set(found))
        set_levels(entries)
        _locate(entries, pages, body)
    return Contents(found, entries, title_lines)
